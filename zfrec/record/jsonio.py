"""JSON, the canonical machine form of a record. FORMAT.md describes it; the schema defines it.

Every object read is validated against the schema first, and every object written is validated
before it is returned, so a JSON record that zfrec produced or accepted always conforms.
Positions are not kept in JSON: records read from it have `pos` None everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from zfrec.engine.cards import format_cards, parse_cards, parse_play
from zfrec.errors import CardError, Location, NotationError
from zfrec.record.lexer import excerpt
from zfrec.record.model import (
    Game,
    Hand,
    HandScore,
    Move,
    Result,
    SeatDeal,
    Trick,
    comment_problem,
    extra_tag_problem,
    move_problem,
    players_problem,
    tag_value_problem,
)
from zfrec.record.schema import pointer, validate_game, validate_wrapper

Path = tuple[Any, ...]


def game_to_json(game: Game) -> dict[str, Any]:
    """The JSON object of one game (keys in the order of the text form), validated."""
    out: dict[str, Any] = {}
    for key, value in (("event", game.event), ("site", game.site), ("date", game.date)):
        if value is not None:
            out[key] = value
    out["players"] = list(game.players)
    rules: dict[str, Any] = {"preset": game.preset}
    if game.options:
        rules["options"] = dict(game.options)
    out["rules"] = rules
    out["target"] = game.target
    if game.result is not None:
        result: dict[str, Any] = {"scores": list(game.result.scores)}
        if game.result.winners:
            result["winners"] = [seat + 1 for seat in game.result.winners]
        out["result"] = result
    if game.extra_tags:
        out["extra_tags"] = [{"name": n, "value": v} for n, v in game.extra_tags]
    _put_comments(out, game.comments)
    out["hands"] = [_hand_to_json(hand) for hand in game.hands]
    validate_game(out)
    return out


def _put_comments(out: dict[str, Any], comments: list[str]) -> None:
    if comments:
        out["comments"] = list(comments)


def _hand_to_json(hand: Hand) -> dict[str, Any]:
    out: dict[str, Any] = {"number": hand.number}
    if hand.shuffler is not None:
        out["shuffler"] = hand.shuffler + 1
    if hand.deal is not None:
        out["deal"] = [_deal_to_json(d) for d in hand.deal]
    _put_comments(out, hand.comments)
    out["tricks"] = [_trick_to_json(trick) for trick in hand.tricks]
    if hand.score is not None:
        score: dict[str, Any] = {"points": list(hand.score.points)}
        if hand.score.totals is not None:
            score["totals"] = list(hand.score.totals)
        out["score"] = score
    return out


def _deal_to_json(dealt: SeatDeal) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": format_cards(dealt.known)}
    if dealt.unknown:
        out["unknown"] = dealt.unknown
    return out


def _trick_to_json(trick: Trick) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _put_comments(out, trick.comments)
    out["moves"] = [_move_to_json(move) for move in trick.moves]
    return out


def _move_to_json(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": move.seat + 1, "play": move.play_text()}
    if move.annotation is not None:
        out["annotation"] = move.annotation
    if move.disputed:
        out["disputed"] = True
        if move.dispute_note is not None:
            out["dispute_note"] = move.dispute_note
    _put_comments(out, move.comments)
    return out


# ---------------------------------------------------------------------------------------------
# Reading


def game_from_json(data: Any, source: str | None = None, at: Path = ()) -> Game:
    """The typed record of one JSON game object. Raises NotationError with the JSON path.

    `at` is the object's own path in its document, used in messages (e.g. `("games", 2)`).
    """
    validate_game(data, at, source)
    return _GameReader(source, at).game(data)


def game_from_trusted_json(data: Any, source: str | None = None) -> Game:
    """The typed record of a game object that zfrec itself wrote (a store's canonical JSON):
    the typed reader's checks run, the JSON Schema pass does not. Anything the reader cannot
    take is checked against the schema after all, so the error still names its JSON path."""
    try:
        return _GameReader(source, ()).game(data)
    except (KeyError, TypeError, AttributeError, ValueError):
        return game_from_json(data, source)


def iter_json_games(data: Any, source: str | None = None) -> Iterator[Game | NotationError]:
    """Each game of a parsed JSON document, or the NotationError that spoiled it."""
    if isinstance(data, dict) and "games" in data:
        try:
            validate_wrapper(data, source)
        except NotationError as exc:
            yield exc
            return
        for i, item in enumerate(data["games"]):
            try:
                yield game_from_json(item, source, ("games", i))
            except NotationError as exc:
                yield exc
    else:
        try:
            yield game_from_json(data, source)
        except NotationError as exc:
            yield exc


def parse_json_text(text: str, source: str | None = None) -> Any:
    """Parse JSON text; a syntax error becomes a NotationError with line, column and caret."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        lines = text.split("\n")
        line = lines[exc.lineno - 1] if exc.lineno <= len(lines) else ""
        message = f"invalid JSON: {exc.msg}\n{excerpt(line, exc.lineno, exc.colno)}"
        raise NotationError(message, Location(source, exc.lineno, exc.colno)) from None


def iter_json_text(text: str, source: str | None = None) -> Iterator[Game | NotationError]:
    try:
        data = parse_json_text(text.removeprefix("\ufeff"), source)
    except NotationError as exc:
        yield exc
        return
    yield from iter_json_games(data, source)


def document(games: Game | Iterable[Game]) -> dict[str, Any]:
    """The JSON document for one game (the game object) or several (`{"games": [...]}`)."""
    if isinstance(games, Game):
        return game_to_json(games)
    return {"games": [game_to_json(g) for g in games]}


def dumps_json(games: Game | Iterable[Game]) -> str:
    """Canonical JSON text: UTF-8 characters kept, newline at the end.

    Any object or array that fits on one line of 100 columns is written on one line, so a move
    or a short trick reads at a glance instead of sprawling over a dozen lines.
    """
    return _render(document(games), 0) + "\n"


_WIDTH = 100


def _render(value: Any, indent: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or indent + len(flat) <= _WIDTH:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_render(v, indent + 2)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [inner + _render(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


class _GameReader:
    """Builds the record from validated JSON, checking what the schema cannot express."""

    def __init__(self, source: str | None, at: Path) -> None:
        self.source = source
        self.at = at
        self.players = 0

    def fail(self, path: Path, message: str) -> NotationError:
        return NotationError(f"at {pointer((*self.at, *path))}: {message}", Location(self.source))

    def check(self, problem: str | None, *path: Any) -> None:
        if problem:
            raise self.fail(path, problem)

    def seat(self, value: int, *path: Any) -> int:
        if value > self.players:
            raise self.fail(path, f"there is no seat {value}: seats are 1 to {self.players}")
        return value - 1

    def per_seat(self, values: list[int], *path: Any) -> tuple[int, ...]:
        if len(values) != self.players:
            raise self.fail(path, f"needs {self.players} numbers, one per seat, not {len(values)}")
        return tuple(values)

    def comments(self, values: list[str], *path: Any) -> list[str]:
        for i, text in enumerate(values):
            self.check(comment_problem(text), *path, i)
        return list(values)

    def game(self, data: dict[str, Any]) -> Game:
        players = list(data["players"])
        self.check(players_problem(players), "players")
        self.players = len(players)
        extra: list[tuple[str, str]] = []
        seen: set[str] = set()
        for i, tag in enumerate(data.get("extra_tags", [])):
            self.check(extra_tag_problem(tag["name"], seen), "extra_tags", i, "name")
            self.check(tag_value_problem(tag["value"]), "extra_tags", i, "value")
            extra.append((tag["name"], tag["value"]))
        result = None
        if "result" in data:
            raw = data["result"]
            scores = self.per_seat(raw["scores"], "result", "scores")
            winners = tuple(
                self.seat(w, "result", "winners", i) for i, w in enumerate(raw.get("winners", []))
            )
            result = Result(scores, winners)
        return Game(
            players=players,
            event=data.get("event"),
            site=data.get("site"),
            date=data.get("date"),
            extra_tags=extra,
            preset=data["rules"]["preset"],
            options=dict(data["rules"].get("options", {})),
            target=data["target"],
            result=result,
            hands=[self.hand(h, ("hands", i)) for i, h in enumerate(data["hands"])],
            comments=self.comments(data.get("comments", []), "comments"),
            source=self.source,
        )

    def hand(self, data: dict[str, Any], at: Path) -> Hand:
        shuffler = data.get("shuffler")
        deal = None
        if "deal" in data:
            entries = data["deal"]
            if len(entries) != self.players:
                raise self.fail((*at, "deal"), f"needs one entry per seat ({self.players})")
            deal = tuple(self.seat_deal(d, (*at, "deal", i)) for i, d in enumerate(entries))
        score = None
        if "score" in data:
            raw = data["score"]
            totals = raw.get("totals")
            score = HandScore(
                self.per_seat(raw["points"], *at, "score", "points"),
                None if totals is None else self.per_seat(totals, *at, "score", "totals"),
            )
        return Hand(
            number=data["number"],
            shuffler=None if shuffler is None else self.seat(shuffler, *at, "shuffler"),
            deal=deal,
            tricks=[self.trick(t, (*at, "tricks", i)) for i, t in enumerate(data["tricks"])],
            score=score,
            comments=self.comments(data.get("comments", []), *at, "comments"),
        )

    def seat_deal(self, data: dict[str, Any], at: Path) -> SeatDeal:
        try:
            known = parse_cards(data["cards"]) if data["cards"].strip() else 0
        except CardError as exc:
            raise self.fail((*at, "cards"), exc.message) from None
        return SeatDeal(known, data.get("unknown", 0))

    def trick(self, data: dict[str, Any], at: Path) -> Trick:
        moves = [self.move(m, (*at, "moves", i)) for i, m in enumerate(data["moves"])]
        return Trick(moves, self.comments(data.get("comments", []), *at, "comments"))

    def move(self, data: dict[str, Any], at: Path) -> Move:
        seat = self.seat(data["seat"], *at, "seat")
        extra: dict[str, Any] = {
            "annotation": data.get("annotation"),
            "comments": self.comments(data.get("comments", []), *at, "comments"),
            "disputed": data.get("disputed", False),
            "dispute_note": data.get("dispute_note"),
        }
        if data["play"] == "pass":
            move = Move.passes(seat, **extra)
        else:
            try:
                play = parse_play(data["play"])
            except CardError as exc:
                raise self.fail((*at, "play"), exc.message) from None
            move = Move.plays(seat, play.mask, play.declarations, **extra)
        self.check(move_problem(move), *at)
        return move
