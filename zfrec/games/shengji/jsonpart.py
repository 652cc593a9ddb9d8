"""The JSON form of Sheng ji records (FORMAT.md, Sheng ji, JSON form) and its schema part
(the `shengji_game` entry of `schemas/record.schema.json`).

JSON holds exactly what the text holds: `match_to_json` and `match_from_json` are inverse,
and the canonical layout is Zheng Fen's (`zfrec.record.jsonio._render`: an object or array
that fits in 100 columns on one line). Seats are 1-based, cards are strings in the card
notation (canonical: the engine's `format_hand`), levels and the rank are `"2"`..`"A"`.
Keys with default values are left out, as in Zheng Fen's JSON.

    >>> from zfrec.games.shengji.records import SjMatch, SjRound
    >>> doc = match_to_json(SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1, 0, 2, "h")]))
    >>> doc["game"], doc["rounds"]
    ('shengji', [{'number': 1, 'dealer': 1, 'rank': '2', 'trump': 'h'}])
    >>> match_from_json(doc) == SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1, 0, 2, "h")])
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import replace
from functools import cache
from typing import Any, cast

from zfrec.cardwords import card_str
from zfrec.errors import CardError, Location, NotationError, RulesError, SeatError
from zfrec.games.shengji.cards import MAX_DECKS, _word_ids, add_card, card_id, format_hand
from zfrec.games.shengji.dealtypos import dealt_options, ids_leniently, read_as
from zfrec.games.shengji.records import (
    SjCall,
    SjCards,
    SjLevels,
    SjMatch,
    SjMatchResult,
    SjMove,
    SjOutcome,
    SjPoints,
    SjRound,
    SjTrick,
    match_rules,
)
from zfrec.games.shengji.rules import level_text, parse_level, sj_preset
from zfrec.record.jsonio import FLAT_WIDTH, Flat, Moves
from zfrec.record.model import (
    comment_problem,
    name_problem,
    plain_names,
    seat_of,
    tag_value_problem,
)
from zfrec.record.problems import ReadProblem, dealt_problem
from zfrec.record.schema import pointer

__all__ = [
    "SCHEMA_DEF",
    "dumps_sj_json",
    "load_sj_schema",
    "locate_rounds",
    "match_from_json",
    "match_to_json",
    "round_to_json",
    "rounds_from_json",
    "validate_sj",
]

SCHEMA_DEF = "shengji_game"  # the entry of schemas/record.schema.json
Path = tuple[Any, ...]
_WORD_RE = re.compile(r"\S+")


# writing ------------------------------------------------------------------------------------


def _cards_json(c: SjCards) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": format_hand(c.known)}
    if c.unknown:
        out["unknown"] = c.unknown
    return out


def _move_json(m: SjMove) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": m.seat + 1, "cards": format_hand(m.cards)}
    if m.forced is not None:
        out["forced"] = format_hand(m.forced)
        if m.blocker is not None:
            out["blocker"] = m.blocker + 1
    if m.joins:
        out["joins"] = True
    if m.annotation is not None:
        out["annotation"] = m.annotation
    if m.disputed:
        out["disputed"] = True
        if m.dispute_note is not None:
            out["dispute_note"] = m.dispute_note
        if m.alternatives:
            out["or"] = [format_hand(v) for v in m.alternatives]
    if m.comments:
        out["comments"] = list(m.comments)
    return out


# A plain play's one-line JSON text, for the canonical JSON (`round_to_json(flat=True)`): most
# of a record is plays, and zfrec.record.jsonio writes a `Flat` text as it is instead of laying
# out a dict of two keys again for each (a third of an import's JSON, cProfile shows).
_PLAY_TEXTS: dict[tuple[int, int], str] = {}
_PLAY_TEXTS_LIMIT = 50_000  # bounds the memory of a long-running process


def _flat_play(m: SjMove) -> Any:
    """The play as jsonio's `Flat` one-line text where it is plain (no throw, join, mark,
    dispute or comment) and short enough; else its dict."""
    if m.forced is not None or m.joins or m.annotation is not None or m.disputed or m.comments:
        return _move_json(m)
    key = (m.seat, m.cards)
    text = _PLAY_TEXTS.get(key)
    if text is None:
        # card names need no escaping: the text is what json.dumps would write
        text = '{"seat": ' + str(m.seat + 1) + ', "cards": "' + format_hand(m.cards) + '"}'
        if len(_PLAY_TEXTS) >= _PLAY_TEXTS_LIMIT:
            _PLAY_TEXTS.clear()
        _PLAY_TEXTS[key] = text
    return Flat(text) if len(text) <= FLAT_WIDTH else _move_json(m)


def round_to_json(r: SjRound, flat: bool = False) -> dict[str, Any]:
    """The JSON object of one round; `flat`: plain plays as jsonio's one-line `Flat` texts
    (the canonical JSON: `zfrec.record.dumps`), which render as their dicts would."""
    out: dict[str, Any] = {"number": r.number}
    if r.dealer is not None:
        out["dealer"] = r.dealer + 1
    if r.rank is not None:
        out["rank"] = level_text(r.rank)
    if r.trump is not None:
        out["trump"] = r.trump
    if r.comments:
        out["comments"] = list(r.comments)
    if r.deal is not None:
        out["deal"] = [_cards_json(d) for d in r.deal]
    if r.bids:
        out["bids"] = [_move_json(b) for b in r.bids]
    if r.kitty is not None:
        out["kitty"] = _cards_json(r.kitty)
    if r.discard is not None:
        out["discard"] = _cards_json(r.discard)
    if r.calls:
        out["calls"] = [{"ordinal": c.ordinal, "card": format_hand(1 << 2 * c.card)}
                        for c in r.calls]  # fmt: skip
    if r.tricks:
        out["tricks"] = []
        for t in r.tricks:
            trick: dict[str, Any] = {}
            if t.comments:
                trick["comments"] = list(t.comments)
            plays = [_flat_play(m) if flat else _move_json(m) for m in t.moves]
            if flat and not t.comments and all(type(p) is Flat for p in plays):
                # laid out as its dict would be
                out["tricks"].append(Moves(cast(list[str], plays), "plays"))
                continue
            trick["plays"] = plays
            out["tricks"].append(trick)
    if r.points is not None:
        p = r.points
        points: dict[str, Any] = {"taken": p.taken}
        if p.kitty is not None:
            points["kitty"] = p.kitty
        if p.multiplier is not None:
            points["multiplier"] = p.multiplier
        if p.penalty:
            points["penalty"] = p.penalty
        if p.total is not None:
            points["total"] = p.total
        out["points"] = points
    if r.outcome is not None:
        o = r.outcome
        out["result"] = {"side": o.side, "steps": o.steps}
        if o.next_dealer is not None:
            out["result"]["next_dealer"] = o.next_dealer + 1
    if r.levels is not None:
        out["levels"] = [level_text(v) for v in r.levels.levels]
    return out


def match_to_json(match: SjMatch) -> dict[str, Any]:
    """The JSON object of one Sheng ji match (seats 1-based, cards and levels as text)."""
    out: dict[str, Any] = {"game": "shengji"}
    for key in ("event", "site", "date"):
        if getattr(match, key) is not None:
            out[key] = getattr(match, key)
    out["players"] = list(match.players)
    rules: dict[str, Any] = {"preset": match.preset}
    if match.options:
        rules["options"] = dict(match.options)
    out["rules"] = rules
    if match.result is not None:
        res: dict[str, Any] = {"scores": list(match.result.levels)}  # levels 2..14, as generic
        if match.result.winners:
            res["winners"] = [s + 1 for s in match.result.winners]
        out["result"] = res
    if match.extra_tags:
        out["extra_tags"] = [{"name": n, "value": v} for n, v in match.extra_tags]
    if match.comments:
        out["comments"] = list(match.comments)
    out["rounds"] = [round_to_json(r) for r in match.rounds]
    return out


def dumps_sj_json(matches: SjMatch | Iterable[SjMatch]) -> str:
    """Canonical JSON text: one match as its object, several as `{"games": [...]}`."""
    from zfrec.record.jsonio import _render

    if isinstance(matches, SjMatch):
        doc: dict[str, Any] = match_to_json(matches)
    else:
        doc = {"games": [match_to_json(m) for m in matches]}
    return _render(doc, 0, {})[1] + "\n"


# the schema ------------------------------------------------------------------------------------


def load_sj_schema() -> dict[str, Any]:
    """The Sheng ji part of the record schema: its `shengji_game` entry with the `$defs`."""
    from zfrec.record.schema import load_schema

    schema = load_schema()
    return {"$schema": schema["$schema"], "$ref": f"#/$defs/{SCHEMA_DEF}", "$defs": schema["$defs"]}


@cache
def _validator() -> Any:
    from zfrec.record.schema import _validator_class

    return _validator_class()(load_sj_schema())


def validate_sj(data: Any, prefix: Path = (), source: str | None = None) -> None:
    """Check one Sheng ji game object against the schema; NotationError naming the JSON path."""
    from jsonschema.exceptions import best_match

    try:
        error = best_match(_validator().iter_errors(data))
    except RecursionError:
        raise NotationError("at /: the JSON is nested too deeply", Location(source)) from None
    if error is not None:
        message = str(error.message)
        if len(message) > 300:
            message = message[:300] + "…"
        where = pointer((*prefix, *error.absolute_path))
        raise NotationError(f"at {where}: {message}", Location(source))


# reading ----------------------------------------------------------------------------------------


class _Reader:
    """Builds the record from schema-valid JSON, checking what the schema cannot say."""

    def __init__(
        self,
        source: str | None,
        prefix: Path,
        problems: list[ReadProblem] | None = None,
        decks: int = MAX_DECKS,
    ) -> None:
        self.source = source
        self.prefix = prefix
        self.players: list[str] = []
        self.problems = problems  # None: not recovering, an unreadable card fails the game
        self.decks = decks  # the rules' decks, which a recovering reader reads typos by
        # The round's unreadable cards of its deal, kitty and discard, each an unknown card for
        # now: the line, the deal's seat, the object's path, where in its string the card
        # starts, its text, the card reader's error.
        self.unread: list[tuple[str, int, Path, int, str, CardError]] = []

    def fail(self, message: str, *path: Any) -> NotationError:
        where = pointer((*self.prefix, *path))
        return NotationError(f"at {where}: {message}", Location(self.source))

    def check(self, problem: str | None, *path: Any) -> None:
        if problem:
            raise self.fail(problem, *path)

    def seat(self, value: int, *path: Any) -> int:
        try:
            return seat_of(self.players, value)
        except SeatError as exc:
            raise self.fail(exc.message, *path) from None

    def cards(self, text: str, *path: Any) -> int:
        hand = 0
        try:
            for word in text.split():
                for cid in _word_ids(word):
                    hand = add_card(hand, cid, MAX_DECKS)
        except CardError as exc:
            raise self.fail(exc.message, *path) from None
        return hand

    def level(self, text: str, *path: Any) -> int:
        try:
            return parse_level(text)
        except RulesError as exc:
            raise self.fail(exc.message, *path) from None

    def comments(self, values: list[str], *path: Any) -> list[str]:
        for i, c in enumerate(values):
            self.check(comment_problem(c), *path, i)
        return list(values)

    def match(self, data: dict[str, Any]) -> SjMatch:
        players, marks = plain_names(list(data["players"]))
        for i, name in enumerate(players):
            self.check(name_problem(name), "players", i)
        keys = {n.casefold() for n in players}
        self.check(None if len(keys) == len(players) else "a player name is given twice",
                   "players")  # fmt: skip
        self.players = players
        rules = data["rules"]
        preset = rules["preset"]
        options = {k: str(v) if not isinstance(v, int) else v
                   for k, v in rules.get("options", {}).items()}  # fmt: skip
        extra = {"players": len(players)} if preset == "zhaopengyou" else {}
        try:
            sj = sj_preset(preset, **{**extra, **options})
        except RulesError as exc:
            raise self.fail(exc.message, "rules") from None
        if sj.players != len(players):
            raise self.fail(f"the rules are for {sj.players} players, not {len(players)}", "rules")
        canonical = sj.options()
        options = {k: canonical[k] for k in options}
        for key in ("event", "site", "date"):
            if key in data:
                self.check(tag_value_problem(data[key]), key)
        result = None
        if "result" in data:
            res = data["result"]
            levels = tuple(res["scores"])
            if len(levels) != len(players):
                raise self.fail("one level per seat", "result", "scores")
            winners = tuple(self.seat(s, "result", "winners", i)
                            for i, s in enumerate(res.get("winners", [])))  # fmt: skip
            self.check(None if len(set(winners)) == len(winners) else "a winner is given twice",
                       "result", "winners")  # fmt: skip
            result = SjMatchResult(levels, winners)
        extra_tags = []
        for i, t in enumerate(data.get("extra_tags", [])):
            self.check(tag_value_problem(t["value"]), "extra_tags", i, "value")
            extra_tags.append((t["name"], t["value"]))
        return SjMatch(
            players, event=data.get("event"), site=data.get("site"), date=data.get("date"),
            extra_tags=extra_tags, preset=preset, options=options, result=result,
            rounds=[self.round(r, ("rounds", i)) for i, r in enumerate(data["rounds"])],
            comments=self.comments(data.get("comments", []), "comments"), source=self.source,
            name_marks=marks,
        )  # fmt: skip

    def sj_cards(self, d: dict[str, Any], at: Path, line: str = "", seat: int = -1) -> SjCards:
        """A deal entry, the kitty or the discard (`line`). A recovering reader reads an
        unreadable card of it as one unknown card until the round is read (`_read_unread`)."""
        try:
            return SjCards(self.cards(d["cards"], *at, "cards"), d.get("unknown", 0))
        except NotationError:
            if self.problems is None or not line:
                raise
            known, unknown = 0, d.get("unknown", 0)
            found = []
            for word in _WORD_RE.finditer(d["cards"]):
                ids, bad = ids_leniently(word.group())
                for cid in ids:
                    try:
                        known = add_card(known, cid, MAX_DECKS)
                    except CardError as exc:
                        raise self.fail(exc.message, *at, "cards") from None
                found += [(line, seat, at, word.start() + k, part, e) for k, part, e in bad]
            if not found:
                raise
            self.unread += found
            return SjCards(known, unknown + len(found))

    def _read_unread(self, r: SjRound) -> None:
        """Note each unreadable card of the round's deal, kitty and discard (a `dealt` problem
        at its JSON path) and read it as the one card that fits, as the .zfn reader does
        (zfrec.games.shengji.zfn.dealt_options), else leave it an unknown card."""
        assert self.problems is not None  # only a recovering reader keeps unreadable cards
        unread, self.unread = self.unread, []
        for line, seat, at, start, part, exc in unread:
            options = dealt_options(r, line, seat, part, self.decks)
            message = f"at {pointer((*self.prefix, *at, 'cards'))}: {exc.message}"
            texts = [card_str(c) for c in options]
            problem, read = dealt_problem(message, 0, start, part, exc.offset, texts)
            self.problems.append(replace(problem, path=at))
            if read:
                read_as(r, line, seat, options[0])

    def move(self, d: dict[str, Any], at: Path) -> SjMove:
        m = SjMove(self.seat(d["seat"], *at, "seat"), self.cards(d["cards"], *at, "cards"))
        if not m.cards:
            raise self.fail("a move needs cards", *at, "cards")
        if "forced" in d:
            m.forced = self.cards(d["forced"], *at, "forced") or None
            if m.forced is None:
                raise self.fail("the forced part needs cards", *at, "forced")
        if "blocker" in d:
            if m.forced is None:
                raise self.fail("a blocker needs the forced part", *at, "blocker")
            m.blocker = self.seat(d["blocker"], *at, "blocker")
        m.joins = d.get("joins", False)
        m.annotation = d.get("annotation")
        m.disputed = d.get("disputed", False)
        m.dispute_note = d.get("dispute_note")
        if (m.dispute_note is not None or "or" in d) and not m.disputed:
            raise self.fail("a note or 'or' versions need \"disputed\": true", *at)
        versions = tuple(self.cards(v, *at, "or", i) for i, v in enumerate(d.get("or", [])))
        if 0 in versions or len(set(versions)) != len(versions) or m.cards in versions:
            raise self.fail("each version has cards and differs from the play and the others",
                            *at, "or")  # fmt: skip
        m.alternatives = versions
        m.comments = self.comments(d.get("comments", []), *at, "comments")
        return m

    def round(self, d: dict[str, Any], at: Path) -> SjRound:
        r = SjRound(d["number"])
        if "dealer" in d:
            r.dealer = self.seat(d["dealer"], *at, "dealer")
        if "rank" in d:
            r.rank = self.level(d["rank"], *at, "rank")
        r.trump = d.get("trump")
        r.comments = self.comments(d.get("comments", []), *at, "comments")
        if "deal" in d:
            if len(d["deal"]) != len(self.players):
                raise self.fail("one deal entry per seat", *at, "deal")
            r.deal = tuple(self.sj_cards(x, (*at, "deal", i), "deal", i)
                           for i, x in enumerate(d["deal"]))  # fmt: skip
        r.bids = [self.move(b, (*at, "bids", i)) for i, b in enumerate(d.get("bids", []))]
        if "kitty" in d:
            r.kitty = self.sj_cards(d["kitty"], (*at, "kitty"), "kitty")
        if "discard" in d:
            r.discard = self.sj_cards(d["discard"], (*at, "discard"), "discard")
        calls = []
        for i, c in enumerate(d.get("calls", [])):
            try:
                cid = card_id(c["card"].strip())
            except CardError as exc:
                raise self.fail(exc.message, *at, "calls", i, "card") from None
            calls.append(SjCall(cid, c["ordinal"]))
        r.calls = tuple(calls)
        for i, t in enumerate(d.get("tricks", [])):
            where = (*at, "tricks", i)
            moves = [self.move(m, (*where, "plays", k)) for k, m in enumerate(t["plays"])]
            r.tricks.append(SjTrick(moves, self.comments(t.get("comments", []), *where)))
        if "points" in d:
            p = d["points"]
            r.points = SjPoints(p["taken"], p.get("kitty"), p.get("multiplier"),
                                p.get("penalty", 0), p.get("total"))  # fmt: skip
        if "result" in d:
            o = d["result"]
            nxt = self.seat(o["next_dealer"], *at, "result", "next_dealer") \
                if "next_dealer" in o else None  # fmt: skip
            r.outcome = SjOutcome(o["side"], o["steps"], nxt)
        if "levels" in d:
            if len(d["levels"]) != len(self.players):
                raise self.fail("one level per seat", *at, "levels")
            r.levels = SjLevels(tuple(self.level(v, *at, "levels", i)
                                      for i, v in enumerate(d["levels"])))  # fmt: skip
        if self.unread:
            self._read_unread(r)
        return r


def match_from_json(data: Any, source: str | None = None, prefix: Path = ()) -> SjMatch:
    """The record of one Sheng ji game object: checked against the schema, then for what the
    schema cannot say (seats beyond the players, unreadable cards); NotationError with the
    JSON path."""
    validate_sj(data, prefix, source)
    return _Reader(source, prefix).match(data)


def rounds_from_json(
    data: dict[str, Any],
    players: list[str],
    source: str | None = None,
    prefix: Path = (),
    problems: list[ReadProblem] | None = None,
) -> list[SjRound]:
    """The rounds of a schema-checked game object (the kind's `body_from_json`). With
    `problems` (a recovering reader's), an unreadable card of a deal, kitty or discard costs
    only itself, noted there with its JSON path."""
    decks = MAX_DECKS
    if problems is not None:
        rules = data.get("rules", {})
        with suppress(RulesError, TypeError, ValueError, KeyError):
            options = dict(rules.get("options", {}))
            decks = match_rules(rules["preset"], options, len(players)).decks
    reader = _Reader(source, prefix, problems, decks)
    reader.players = list(players)
    return [reader.round(r, ("rounds", i)) for i, r in enumerate(data.get("rounds", []))]


# positions ----------------------------------------------------------------------------------


def locate_rounds(rounds: list[SjRound], at: Any) -> None:
    """Give the rounds of a match read from JSON their places in its text (`pos`), as the .zfn
    reader gives them: each the `{` that opens its object (`at(*path)`: the round, a seat's
    deal, a bid, the kitty, the discard, a trick, a play, the points, the result line), and
    the levels by the `[` of their array. Called by `Game.locate` when the record has
    findings (ShengjiKind.locate_json), so that they, and the causes they name, have a line."""
    for r, rnd in enumerate(rounds):
        here = ("rounds", r)
        rnd.pos = at(*here)
        if rnd.deal is not None:
            rnd.deal = tuple(replace(d, pos=at(*here, "deal", s)) for s, d in enumerate(rnd.deal))
        for b, bid in enumerate(rnd.bids):
            bid.pos = at(*here, "bids", b)
        if rnd.kitty is not None:
            rnd.kitty = replace(rnd.kitty, pos=at(*here, "kitty"))
        if rnd.discard is not None:
            rnd.discard = replace(rnd.discard, pos=at(*here, "discard"))
        for t, trick in enumerate(rnd.tricks):
            trick.pos = at(*here, "tricks", t)
            for m, move in enumerate(trick.moves):
                move.pos = at(*here, "tricks", t, "plays", m)
        if rnd.points is not None:
            rnd.points = replace(rnd.points, pos=at(*here, "points"))
        if rnd.outcome is not None:
            rnd.outcome = replace(rnd.outcome, pos=at(*here, "result"))
        if rnd.levels is not None:  # an array: its `[`
            rnd.levels = replace(rnd.levels, pos=at(*here, "levels") or rnd.pos)
