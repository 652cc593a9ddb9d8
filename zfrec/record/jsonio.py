"""JSON, the canonical machine form of a record. FORMAT.md describes it; the schema defines it.

Every object read is validated against the schema first. An object written from a typed Game
conforms by construction (tests/test_schema.py checks that on random records), so writing does
not validate again; only free text, which a reader may have let through, is checked. A JSON
record that zfrec produced or accepted always conforms. Positions are not kept in JSON: records
read from it have `pos` None everywhere.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import lru_cache, partial
from typing import Any, cast

from zfrec.errors import CardError, Location, NotationError, SeatError
from zfrec.games import DEFAULT_KIND, find_kind, kind_problem
from zfrec.games.zhengfen.engine.cards import (
    NO_CARDS,
    Cards,
    card_str,
    format_cards,
    format_play,
    parse_cards,
    parse_play,
)
from zfrec.record.jsonpos import Locator
from zfrec.record.lexer import excerpt
from zfrec.record.model import (
    DEFAULT_TARGET,
    MAX_UNKNOWN,
    AltPlay,
    Declaration,
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
    plain_names,
    players_problem,
    seat_of,
    tag_value_problem,
)
from zfrec.record.problems import ReadProblem, dealt_problem, read_word_leniently
from zfrec.record.schema import pointer, validate_game, validate_wrapper

Path = tuple[Any, ...]
_WORD_RE = re.compile(r"\S+")


def game_to_json(game: Game) -> dict[str, Any]:
    """The JSON object of one game (keys in the order of the text form), schema-valid.

    Raises NotationError if a free-text field holds what JSON records refuse (a control
    character in a comment, say), naming its JSON path.
    """
    return _game_to_json(game, False)


class _Flat(str):
    """JSON text of a plain move or a seat's deal, already on one line: dumps_json's shortcut."""

    __slots__ = ()


# A move's or a deal's one-line text must fit at the deepest indent it is written at (a game inside
# {"games": [...]}), or _render would have to break it over lines.
_FLAT_MOVE_WIDTH = 100 - 16
# For a kind's JSON part (GameKind.body_to_json with `flat`): a value's one-line text, written
# as it is, and how long it may be where a move is written.
Flat, FLAT_WIDTH = _Flat, _FLAT_MOVE_WIDTH


@lru_cache(maxsize=1 << 16)
def _play_json(is_pass: bool, cards: int, declarations: tuple[Declaration, ...]) -> str:
    if is_pass:
        return '"pass"'
    return json.dumps(format_play(cards, dict(declarations)), ensure_ascii=False)


def _game_to_json(game: Game, flat_moves: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kind = find_kind(game.kind)
    if kind.name != DEFAULT_KIND:  # a record of the default kind reads as before there were two
        out["game"] = kind.name
    for key, value in (("event", game.event), ("site", game.site), ("date", game.date)):
        if value is not None:
            _text(tag_value_problem(value), key)
            out[key] = value
    _text(players_problem(game.players, kind.min_players, kind.max_players), "players")
    out["players"] = list(game.players)
    rules: dict[str, Any] = {"preset": game.preset}
    if game.options:
        rules["options"] = dict(game.options)
    out["rules"] = rules
    if kind.default_target is not None:
        out["target"] = game.target
    if game.result is not None:
        result: dict[str, Any] = {"scores": list(game.result.scores)}
        if game.result.winners:
            result["winners"] = [seat + 1 for seat in game.result.winners]
        out["result"] = result
    if game.extra_tags:
        for i, (_, value) in enumerate(game.extra_tags):
            _text(tag_value_problem(value), "extra_tags", i, "value")
        out["extra_tags"] = [{"name": n, "value": v} for n, v in game.extra_tags]
    _put_comments(out, game.comments, ())
    kind.body_to_json(game, out, flat_moves)
    return out


def _text(problem: str | None, *path: Any) -> None:
    # The schema's patterns on free text, which the .zfn reader does not check in full.
    if problem:
        raise NotationError(f"at {pointer(path)}: {problem}")


def _put_comments(out: dict[str, Any], comments: list[str], at: Path) -> None:
    if comments:
        for i, text in enumerate(comments):
            _text(comment_problem(text), *at, "comments", i)
        out["comments"] = list(comments)


def hand_to_json(hand: Hand, index: int, flat_moves: bool) -> dict[str, Any]:
    """A Zheng Fen hand's JSON object (the kind's `body_to_json`)."""
    out: dict[str, Any] = {"number": hand.number}
    if hand.shuffler is not None:
        out["shuffler"] = hand.shuffler + 1
    if hand.deal is not None:
        if flat_moves:
            out["deal"] = [_flat_deal(d) for d in hand.deal]
        else:
            out["deal"] = [_deal_to_json(d) for d in hand.deal]
    at = ("hands", index)
    _put_comments(out, hand.comments, at)
    out["tricks"] = [
        _trick_to_json(trick, (*at, "tricks", i), flat_moves) for i, trick in enumerate(hand.tricks)
    ]
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


def _flat_deal(dealt: SeatDeal) -> _Flat | dict[str, Any]:
    """A seat's deal for dumps_json: its object's one-line text, as _render would write it."""
    text = '{"cards": "' + format_cards(dealt.known) + '"'  # card names need no escaping
    if dealt.unknown:
        text += ', "unknown": ' + str(dealt.unknown)
    text += "}"
    return _Flat(text) if len(text) <= _FLAT_MOVE_WIDTH else _deal_to_json(dealt)


class _Moves:
    """A trick of plain moves only, without comments, for dumps_json: its moves' one-line
    texts, which _render lays out as it would lay out the trick's object."""

    __slots__ = ("flat", "head", "moves")

    def __init__(self, moves: list[str], key: str = "moves") -> None:
        self.moves = moves
        self.head = '"' + key + '": '  # the trick object's one key (Sheng ji's: "plays"), ASCII
        self.flat = "{" + self.head + "[" + ", ".join(moves) + "]}"


Moves = _Moves  # for a kind's JSON part: a trick of Flat texts under one key

_move_texts: dict[tuple[int, bool, int, tuple[Declaration, ...]], str] = {}


def _flat_move_text(move: Move) -> str:
    """A plain move's one-line JSON text, as _render would write it; remembered by play."""
    key = (move.seat, move.is_pass, move.cards, move.declarations)
    text = _move_texts.get(key)
    if text is None:
        text = (
            '{"seat": '
            + str(move.seat + 1)
            + ', "play": '
            + _play_json(move.is_pass, move.cards, move.declarations)
            + "}"
        )
        if len(_move_texts) < 1 << 16:
            _move_texts[key] = text
    return text


def _plain_moves(trick: Trick) -> _Moves | None:
    """The trick as _Moves, or None if a move or the trick needs the general form."""
    if trick.comments:
        return None
    texts: list[str] = []
    known = _move_texts.get  # looked up here: a call per move is a fifth of a record's JSON
    for move in trick.moves:
        if move.annotation is not None or move.disputed or move.comments:
            return None
        key = (move.seat, move.is_pass, move.cards, move.declarations)
        text = known(key) or _flat_move_text(move)
        if len(text) > _FLAT_MOVE_WIDTH:
            return None
        texts.append(text)
    return _Moves(texts)


def _trick_to_json(trick: Trick, at: Path, flat_moves: bool) -> dict[str, Any] | _Moves:
    if flat_moves:
        plain = _plain_moves(trick)
        if plain is not None:
            return plain
    out: dict[str, Any] = {}
    _put_comments(out, trick.comments, at)
    moves: list[Any] = []
    for i, move in enumerate(trick.moves):
        if move.annotation is not None or move.disputed or move.comments:
            moves.append(_move_to_json(move, (*at, "moves", i)))
        elif flat_moves:
            # Moves are most of a record: write each once, as the text _render would make.
            text = _flat_move_text(move)
            if len(text) <= _FLAT_MOVE_WIDTH:
                moves.append(_Flat(text))
            else:
                moves.append({"seat": move.seat + 1, "play": move.play_text()})
        else:
            moves.append({"seat": move.seat + 1, "play": move.play_text()})
    out["moves"] = moves
    return out


def _move_to_json(move: Move, at: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": move.seat + 1, "play": move.play_text()}
    if move.annotation is not None:
        out["annotation"] = move.annotation
    if move.disputed:
        out["disputed"] = True
        if move.dispute_note is not None:
            _text(tag_value_problem(move.dispute_note), *at, "dispute_note")
            out["dispute_note"] = move.dispute_note
        if move.alternatives:
            out["or"] = [version.play_text() for version in move.alternatives]
    _put_comments(out, move.comments, at)
    return out


# ---------------------------------------------------------------------------------------------
# Reading


def game_from_json(
    data: Any, source: str | None = None, at: Path = (), *, recover: bool = False
) -> Game:
    """The typed record of one JSON game object. Raises NotationError with the JSON path.

    `at` is the object's own path in its document, used in messages (e.g. `("games", 2)`).
    With `recover` (for the validator), an unreadable card of a deal (Sheng ji: also of the
    kitty or the discard) costs only itself, as in the .zfn reader: it is read as the one card
    that fits, else as an unknown card, and noted in `Game.problems` with its JSON path.
    """
    try:
        validate_game(data, at, source)
    except NotationError:
        masked = _dealt_masked(data) if recover else None
        if masked is None:
            raise
        validate_game(masked, at, source)  # the schema, but for the cards the reader recovers
    return _GameReader(source, at, [] if recover else None).game(data)


_DEALT = frozenset(("deal", "kitty", "discard"))  # the lists of cards dealt (kitty: Sheng ji's)


def _dealt_masked(data: Any) -> Any:
    """`data` with the unreadable cards of every `cards` string of a deal entry, kitty or
    discard object left out (a shallow copy of what it changes), for the schema check of a
    recovering reader, which reads those cards itself: the rest of the string is still checked
    (its characters, its length). None where there is no such string."""
    changed = False

    def walk(value: Any, key: Any) -> Any:
        nonlocal changed
        if isinstance(value, list):
            items = [walk(item, key if key == "deal" else None) for item in value]
            return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
        if not isinstance(value, dict):
            return value
        out = {k: walk(v, k) for k, v in value.items()}
        cards = value.get("cards")
        readable = _readable_part(cards) if key in _DEALT and isinstance(cards, str) else None
        if readable is not None:
            out["cards"] = readable
            changed = True
        same = all(out[k] is value[k] for k in value)
        return value if same else out

    masked = walk(data, None)
    return masked if changed else None


def game_from_trusted_json(data: Any, source: str | None = None) -> Game:
    """The typed record of a game object that zfrec itself wrote (a store's canonical JSON):
    the typed reader's checks run, the JSON Schema pass does not. Anything the reader cannot
    take is checked against the schema after all, so the error still names its JSON path."""
    try:
        return _GameReader(source, ()).game(data)
    except (KeyError, TypeError, AttributeError, ValueError):
        return game_from_json(data, source)


def iter_json_games(
    data: Any, source: str | None = None, locator: Locator | None = None
) -> Iterator[Game | NotationError]:
    """Each game of a parsed JSON document, or the NotationError that spoiled it. With the
    document's `locator`, each game can be given its positions (`Game.locate`)."""
    if isinstance(data, dict) and "games" in data:
        try:
            validate_wrapper(data, source)
        except NotationError as exc:
            yield exc
            return
        for i, item in enumerate(data["games"]):
            try:
                game = game_from_json(item, source, ("games", i), recover=locator is not None)
                yield _located(game, locator, i)
            except NotationError as exc:
                yield exc
    else:
        try:
            yield _located(game_from_json(data, source, recover=locator is not None), locator, 0)
        except NotationError as exc:
            yield exc


def _located(game: Game, locator: Locator | None, index: int) -> Game:
    if locator is not None:
        game.locate = partial(locator.fill, index)
    return game


class Fractional:
    """A JSON number with a fraction or exponent (`2.0`, `1e3`). Every number in a record is a
    whole number, so the reader keeps such a number as this marker, which no schema type
    accepts: the game that holds it fails the schema check with the number quoted."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def parse_json_text(text: str, source: str | None = None) -> Any:
    """Parse JSON text; a syntax error becomes a NotationError with line, column and caret."""
    try:
        return json.loads(text, parse_float=Fractional)
    except json.JSONDecodeError as exc:
        lines = text.split("\n")
        line = lines[exc.lineno - 1] if exc.lineno <= len(lines) else ""
        message = f"invalid JSON: {exc.msg}\n{excerpt(line, exc.lineno, exc.colno)}"
        raise NotationError(message, Location(source, exc.lineno, exc.colno)) from None
    except RecursionError:
        raise NotationError("invalid JSON: nested too deeply", Location(source)) from None
    except ValueError as exc:  # Python refuses to read integers of more than 4,300 digits
        problem = "a number has too many digits" if "digits" in str(exc) else str(exc)[:200]
        raise NotationError(f"invalid JSON: {problem}", Location(source)) from None


def iter_json_text(
    text: str, source: str | None = None, *, recover: bool = False
) -> Iterator[Game | NotationError]:
    """The games of JSON record text, in order; a game that cannot be read comes as its
    NotationError, so the others still come. With `recover` (for the validator), each game
    can be given the positions of its parts in the text when asked (`Game.locate`)."""
    text = text.removeprefix("\ufeff")
    try:
        data = parse_json_text(text, source)
    except NotationError as exc:
        yield exc
        return
    yield from iter_json_games(data, source, Locator(text) if recover else None)


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
    if isinstance(games, Game):
        doc = _game_to_json(games, True)
    else:
        doc = {"games": [_game_to_json(g, True) for g in games]}
    return render_json(doc)


def render_json(doc: Any) -> str:
    """A JSON document (dicts, lists, strings, numbers) as canonical JSON text: a game's, parsed
    back, is written again as it was."""
    return _render(doc, 0, {})[1] + "\n"


_WIDTH = 100


def _render(value: Any, indent: int, strings: dict[str, str]) -> tuple[str | None, str]:
    """(the value on one line, the value as written at `indent`), in one pass: each node's
    one-line form is joined from its children's, never encoded again. `strings` caches the
    encoding of repeated strings (keys, plays). The one-line form is None where it does not
    fit at `indent`: then it cannot fit in any object or array that holds the value either."""
    kind = type(value)
    if kind is _Flat:
        return value, value
    if kind is _Moves:
        return _render_moves(value, indent)
    if kind is str:
        text = strings.get(value)
        if text is None:
            text = strings[value] = json.dumps(value, ensure_ascii=False)
        return text, text
    if kind is int:
        text = str(value)
        return text, text
    if kind is dict:
        if not value:
            return "{}", "{}"
        keys = [strings.get(k) or _key(k, strings) for k in value]
        parts = [_render(v, indent + 2, strings) for v in value.values()]
        flats = [f for f, _ in parts]
        if None not in flats:
            pairs = zip(keys, cast(list[str], flats), strict=True)
            flat = "{" + ", ".join([k + ": " + f for k, f in pairs]) + "}"
            if indent + len(flat) <= _WIDTH:
                return flat, flat
        inner = " " * (indent + 2)
        items = [inner + k + ": " + shown for k, (_, shown) in zip(keys, parts, strict=True)]
        return None, "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if kind is list:
        if not value:
            return "[]", "[]"
        parts = [(v, v) if type(v) is _Flat else _render(v, indent + 2, strings) for v in value]
        flats = [f for f, _ in parts]
        if None not in flats:
            flat = "[" + ", ".join(cast(list[str], flats)) + "]"
            if indent + len(flat) <= _WIDTH:
                return flat, flat
        inner = " " * (indent + 2)
        return None, "[\n" + ",\n".join(
            [inner + shown for _, shown in parts]
        ) + "\n" + " " * indent + "]"
    text = json.dumps(value)  # true, false, null
    return text, text


def _key(key: str, strings: dict[str, str]) -> str:
    text = strings[key] = json.dumps(key, ensure_ascii=False)
    return text


def _render_moves(trick: _Moves, indent: int) -> tuple[str | None, str]:
    """_render of {"moves": [...]} for a trick of plain moves: the same text, laid out alike."""
    flat = trick.flat
    if indent + len(flat) <= _WIDTH:
        return flat, flat
    head = trick.head
    listed = flat[len(head) + 1 : -1]  # the array of moves on one line
    if indent + 2 + len(listed) > _WIDTH:
        inner = " " * (indent + 4)
        listed = (
            "[\n" + ",\n".join([inner + m for m in trick.moves]) + "\n" + " " * (indent + 2) + "]"
        )
    return None, "{\n" + " " * (indent + 2) + head + listed + "\n" + " " * indent + "}"


# A plain move's play text ("7s 7h", "pass") once it has passed the checks of _GameReader.move:
# (is_pass, cards, declarations). A record repeats few distinct plays, so each is read once.
_PLAYS: dict[str, tuple[bool, Cards, tuple[Declaration, ...]]] = {}
_PLAYS_LIMIT = 20_000  # bounds the memory of a long-running process
_new_object = object.__new__
_init_move = Move.__init__


def _deal_leniently(text: str) -> tuple[int, list[tuple[int, str, CardError]]] | None:
    """A deal's cards read as far as they can be: the mask of the readable ones, and for each
    unreadable card where it starts in `text`, its text and the card reader's error. None when
    the cards are wrong otherwise too (a card twice, a declaration): that is the deal's error."""
    known = 0
    bad: list[tuple[int, str, CardError]] = []
    for word in _WORD_RE.finditer(text):
        mask, decls, unread = read_word_leniently(word.group())
        if decls or known & mask:
            return None
        known |= mask
        bad.extend((word.start() + offset, part, exc) for offset, part, exc in unread)
    return known, bad


def _readable_part(text: str) -> str | None:
    """`text` without its words of which some card cannot be read, where there are such
    words, and no more than a seat's deal may have unknown cards (more are the schema's
    to refuse: they are no typo); else None."""
    words = text.split()
    readable = [word for word in words if not read_word_leniently(word)[2]]
    lost = len(words) - len(readable)
    return " ".join(readable) if 0 < lost <= MAX_UNKNOWN else None


class _GameReader:
    """Builds the record from validated JSON, checking what the schema cannot express."""

    def __init__(
        self, source: str | None, at: Path, problems: list[ReadProblem] | None = None
    ) -> None:
        self.source = source
        self.at = at
        self.problems = problems  # None: not recovering, an unreadable card fails the game
        # The hand's unreadable deal cards, each an unknown card for now: seat, the path of its
        # deal entry, where in the string the card starts, its text, the card reader's error.
        self.unread: list[tuple[int, Path, int, str, CardError]] = []
        self.players = 0
        self.names: list[str] = []
        self.seats: dict[int | str, int] = {}  # a plain move's seat as written, once read

    def fail(self, path: Path, message: str) -> NotationError:
        return NotationError(f"at {pointer((*self.at, *path))}: {message}", Location(self.source))

    def check(self, problem: str | None, *path: Any) -> None:
        if problem:
            raise self.fail(path, problem)

    def seat(self, value: int, *path: Any) -> int:
        try:
            return seat_of(self.names, value)
        except SeatError as exc:
            raise self.fail(path, exc.message) from None

    def line(self, value: str | None, *path: Any) -> str | None:
        if value is not None:
            self.check(tag_value_problem(value), *path)
        return value

    def per_seat(self, values: list[int], *path: Any) -> tuple[int, ...]:
        if len(values) != self.players:
            raise self.fail(path, f"needs {self.players} numbers, one per seat, not {len(values)}")
        return tuple(values)

    def comments(self, values: list[str], *path: Any) -> list[str]:
        for i, text in enumerate(values):
            self.check(comment_problem(text), *path, i)
        return list(values)

    def game(self, data: dict[str, Any]) -> Game:
        players, marks = plain_names(list(data["players"]))
        kind_name = data.get("game", DEFAULT_KIND)
        self.check(kind_problem(kind_name), "game")
        kind = find_kind(kind_name)
        self.check(players_problem(players, kind.min_players, kind.max_players), "players")
        self.players = len(players)
        self.names = players
        extra: list[tuple[str, str]] = []
        seen: set[str] = set()
        for i, tag in enumerate(data.get("extra_tags", [])):
            self.check(extra_tag_problem(tag["name"], seen), "extra_tags", i, "name")
            self.check(tag_value_problem(tag["value"]), "extra_tags", i, "value")
            extra.append((tag["name"], tag["value"]))
        for key in ("event", "site", "date"):
            # The schema's `$` also matches before a final newline (Python's re), so the
            # model's own check has the last word on one-line texts.
            self.line(data.get(key), key)
        result = None
        if "result" in data:
            raw = data["result"]
            scores = self.per_seat(raw["scores"], "result", "scores")
            winners = tuple(
                self.seat(w, "result", "winners", i) for i, w in enumerate(raw.get("winners", []))
            )
            result = Result(scores, winners)
        game = Game(
            players=players,
            name_marks=marks,
            event=data.get("event"),
            site=data.get("site"),
            date=data.get("date"),
            extra_tags=extra,
            preset=data["rules"]["preset"],
            options=dict(data["rules"].get("options", {})),
            target=data.get("target", kind.default_target or DEFAULT_TARGET),
            result=result,
            comments=self.comments(data.get("comments", []), "comments"),
            source=self.source,
            kind=kind.name,
        )
        kind.body_from_json(data, game, self)
        if self.problems:
            game.problems = self.problems
        return game

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
        tricks = [self.trick(t, (*at, "tricks", i)) for i, t in enumerate(data["tricks"])]
        if self.unread and deal is not None:
            deal = self._read_unread(deal, tricks)
        return Hand(
            number=data["number"],
            shuffler=None if shuffler is None else self.seat(shuffler, *at, "shuffler"),
            deal=deal,
            tricks=tricks,
            score=score,
            comments=self.comments(data.get("comments", []), *at, "comments"),
        )

    def seat_deal(self, data: dict[str, Any], at: Path) -> SeatDeal:
        text = data["cards"]
        try:
            known = parse_cards(text) if text.strip() else NO_CARDS
        except CardError as exc:
            read = None if self.problems is None else _deal_leniently(text)
            if read is None or not read[1]:
                raise self.fail((*at, "cards"), exc.message) from None
            known = Cards(read[0])
            seat = at[-1]
            self.unread.extend((seat, at, *bad) for bad in read[1])
            unknown = data.get("unknown", 0) + len(read[1])
            if unknown > MAX_UNKNOWN:
                raise self.fail((*at, "cards"), exc.message) from None
            return SeatDeal(known, unknown)
        return SeatDeal(known, data.get("unknown", 0))

    def _read_unread(self, deal: tuple[SeatDeal, ...], tricks: list[Trick]) -> tuple[SeatDeal, ...]:
        """Note each unreadable deal card of the hand (a `dealt` problem at its JSON path) and
        read it as the one card that fits, as the .zfn reader does (zfn_hand.deal_typo_options),
        else leave it an unknown card."""
        from zfrec.games.zhengfen.zfn_hand import deal_typo_options

        assert self.problems is not None  # only a recovering reader keeps unreadable cards
        dealt = list(deal)
        given = 0
        for d in dealt:
            given |= d.known
        unread, self.unread = self.unread, []
        for seat, at, start, part, exc in unread:
            options = deal_typo_options(part, given, tricks, seat)
            message = f"at {pointer((*self.at, *at, 'cards'))}: {exc.message}"
            texts = [card_str(c) for c in options]
            problem, read = dealt_problem(message, 0, start, part, exc.offset, texts)
            self.problems.append(replace(problem, path=at))
            if read and dealt[seat].unknown:
                given |= 1 << options[0]
                d = dealt[seat]
                dealt[seat] = SeatDeal(Cards(d.known | 1 << options[0]), d.unknown - 1)
        return tuple(dealt)

    def trick(self, data: dict[str, Any], at: Path) -> Trick:
        moves = [
            self.plain_move(m) or self.move(m, (*at, "moves", i))
            for i, m in enumerate(data["moves"])
        ]
        return Trick(moves, self.comments(data.get("comments", []), *at, "comments"))

    def plain_move(self, data: dict[str, Any]) -> Move | None:
        """A move of only a seat and a play, both read before in this game (seat) or in any
        (play), without reading them again; None for any other move."""
        if len(data) != 2:
            return None
        seat = self.seats.get(data["seat"])
        play = _PLAYS.get(data["play"])
        if seat is None or play is None:
            return None
        move = _new_object(Move)  # Move(...), without the type call's own overhead
        _init_move(move, seat, *play, None, [], False, None, None)
        return move

    def move(self, data: dict[str, Any], at: Path) -> Move:
        seat = self.seat(data["seat"], *at, "seat")
        extra: dict[str, Any] = {
            "annotation": data.get("annotation"),
            "comments": self.comments(data.get("comments", []), *at, "comments"),
            "disputed": data.get("disputed", False),
            "dispute_note": self.line(data.get("dispute_note"), *at, "dispute_note"),
        }
        if data["play"] == "pass":
            move = Move.passes(seat, **extra)
        else:
            try:
                play = parse_play(data["play"])
            except CardError as exc:
                raise self.fail((*at, "play"), exc.message) from None
            move = Move.plays(seat, play.mask, play.declarations, **extra)
        if "or" in data:
            move.alternatives = tuple(
                self.version(text, (*at, "or", i)) for i, text in enumerate(data["or"])
            )
        self.check(move_problem(move), *at)
        if len(data) == 2:  # a seat and a play, both good: plain_move takes them from now on
            self.seats[data["seat"]] = seat
            if len(_PLAYS) >= _PLAYS_LIMIT:
                _PLAYS.clear()
            _PLAYS[data["play"]] = (move.is_pass, move.cards, move.declarations)
        return move

    def version(self, text: str, at: Path) -> AltPlay:
        """One `or` version of a disputed move: "pass" or cards, as a move's "play"."""
        if text == "pass":
            return AltPlay(True)
        try:
            play = parse_play(text)
        except CardError as exc:
            raise self.fail(at, exc.message) from None
        return AltPlay(False, play.mask, play.declarations)
