"""Two records of one game, side by side: where they first part, and a verdict on each.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example, example_game
    >>> report = diff_games(example_game(), broken_example())
    >>> report.same, report.first.where(), report.first.message
    (False, 'hand 1, trick 1, turn 5 (Bo)', 'A has Bo: pass; B has Bo: 5h')
    >>> report.verdict("a")
    'legal'

The moves are compared as the replay sees them, inferred passes included, so a record that
writes every pass and one that leaves them out agree when the play agrees.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from zfrec.diagnostics import first_error
from zfrec.games.zhengfen.engine.actions import PlayEvent
from zfrec.games.zhengfen.engine.cards import format_cards
from zfrec.jsonview import dump, hidden, key
from zfrec.numbering import occurrences, repeat_suffix, with_occurrence
from zfrec.record.model import Game, Hand, seat_name
from zfrec.record.text import deal_text, score_text
from zfrec.replay import MoveStep, replay
from zfrec.validate import Report, validate


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where two records of one game first part; `seat` is the player's name.

    >>> d = Divergence("move", "A has Bo: pass; B has Bo: 5h", 1, 1, 5, "Bo", "Bo: pass", "Bo: 5h")
    >>> d.where()
    'hand 1, trick 1, turn 5 (Bo)'
    >>> d.to_json()["player"]
    'Bo'
    """

    kind: Literal["players", "hands", "shuffler", "deal", "move", "score", "result", "notes"]
    message: str
    hand: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: Annotated[str | None, key("player")] = None  # the player's name
    a: str | None = None
    b: str | None = None
    # 2: in the second hand A writes with the number `hand` (said `hand 1 (2nd)`)
    occurrence: Annotated[int, hidden()] = 1

    def where(self) -> str:
        """`hand 1, trick 2, turn 3 (Bo)`, with the parts that are known (`hand 1 (2nd)` for
        the second hand written as hand 1)."""
        hand = None if self.hand is None else f"{self.hand}{repeat_suffix(self.occurrence)}"
        bits = [f"{k} {v}" for k, v in (("hand", hand), ("trick", self.trick),
                                          ("turn", self.turn)) if v is not None]  # fmt: skip
        text = ", ".join(bits)
        return f"{text} ({self.seat})" if self.seat and text else text or (self.seat or "")

    def to_json(self) -> dict[str, Any]:
        """The divergence as `zfrec diff --json` writes it (`seat` as `player`), with
        `occurrence` after `hand` in the second hand A numbers so (the text's `hand 1 (2nd)`)."""
        data: dict[str, Any] = dump(self)
        return with_occurrence(data, self.occurrence)


@dataclass(frozen=True, slots=True)
class DiffReport:
    """Two records of one game compared: the header differences, the first divergence in play
    order, and the validator's report on each.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> report = diff_games(example_game(), example_game())
    >>> report.same, report.first, report.header
    (True, None, ())
    """

    a: Report
    b: Report
    header: tuple[str, ...]  # differences in players, rules, target
    first: Divergence | None  # None when the play is the same

    @property
    def same(self) -> bool:
        """The same game: same header, and the same deal, play and scores."""
        return not self.header and (self.first is None or self.first.kind == "notes")

    def verdict(self, which: Literal["a", "b"]) -> str:
        """`legal`, or the error count and the first error of record `a` or `b`.

        >>> from zfrec.games.zhengfen.analysis.example import broken_example, example_game
        >>> diff_games(example_game(), broken_example()).verdict("b")[:44]
        '2 error(s); first at hand 1, trick 1, turn 5'
        """
        report = self.a if which == "a" else self.b
        if report.ok:
            return "legal"
        first = first_error(report.diagnostics)
        assert first is not None  # the report is not ok
        where = first.location.play()
        return f"{report.errors} error(s); first at {where or 'the record'}: {first.message}"

    def to_json(self) -> dict[str, Any]:
        """The comparison as `zfrec diff --json` writes it for one game (ANALYSIS.md)."""
        data: dict[str, Any] = dump(DiffJson.of(self))
        if self.first is not None:  # its own JSON: `occurrence` where the number repeats
            data["first_divergence"] = self.first.to_json()
        return data


@dataclass(frozen=True, slots=True)
class SideJson:
    """The verdict on one of the two records.

    >>> SideJson(legal=True, errors=0, verdict="legal").verdict
    'legal'
    """

    legal: bool
    errors: int
    verdict: str


@dataclass(frozen=True, slots=True)
class DiffJson:
    """The JSON of a `DiffReport`.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example, example_game
    >>> view = DiffJson.of(diff_games(example_game(), broken_example()))
    >>> view.a.legal, view.b.errors
    (True, 2)
    """

    same: bool
    header: tuple[str, ...]
    first_divergence: Divergence | None
    a: SideJson
    b: SideJson

    @classmethod
    def of(cls, d: DiffReport) -> DiffJson:
        """The view of a comparison."""
        a = SideJson(d.a.ok, d.a.errors, d.verdict("a"))
        b = SideJson(d.b.ok, d.b.errors, d.verdict("b"))
        return cls(d.same, d.header, d.first, a, b)


@dataclass(frozen=True, slots=True)
class _Act:
    trick: int
    turn: int
    seat: int
    text: str
    cards: int = 0
    worth: tuple[int, int, int] | None = None  # how the replay read a play (Combo.key)
    reading: str = ""  # ... in words


def _acts(game: Game) -> list[list[_Act]]:
    """Each hand's actions as the replay sees them, inferred passes included."""
    out: list[list[_Act]] = [[] for _ in game.hands]
    for _, ev in replay(game):
        if isinstance(ev, MoveStep):  # it carries who moved and the turn it moved at
            text = "pass" if ev.inferred else ev.move.play_text()
            played = ev.event
            combo = played.combo if isinstance(played, PlayEvent) else None
            if any(d.severity == "error" for d in ev.diagnostics):
                combo = None  # read as best it could be: not a reading to compare
            worth, reading = (None, "") if combo is None else (combo.key, combo.describe())
            out[ev.hand_index].append(_Act(
                ev.trick_index, ev.turn, int(ev.seat), text, int(ev.move.cards), worth, reading
            ))  # fmt: skip
    return out


def _read_alike(x: _Act, y: _Act) -> bool:
    """Two plays written differently that are the same play: the same seat and cards, read
    the same (`2s BJ=2` and `2s BJ`, both a pair of 2s)."""
    same_cards = (x.seat, x.cards) == (y.seat, y.cards)
    return same_cards and x.worth is not None and x.worth == y.worth


def diff_games(a: Game, b: Game) -> DiffReport:
    """The first place two records of the same game part, and a verdict on each.

    >>> from dataclasses import replace
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> game = example_game()
    >>> report = diff_games(game, replace(game, players=["Ann", "Bo", "Di"]))
    >>> report.same, report.header
    (False, ('players: A has Ann, Bo, Cy; B has Ann, Bo, Di',))
    """
    header = []
    if [p.casefold() for p in a.players] != [p.casefold() for p in b.players]:
        header.append(f"players: A has {', '.join(a.players)}; B has {', '.join(b.players)}")
    if a.ruleset() != b.ruleset():
        header.append(f"rules: A {a.ruleset().describe()}, B {b.ruleset().describe()}")
    if a.target != b.target:
        header.append(f"target: A {a.target}, B {b.target}")
    first = None if len(a.players) != len(b.players) else _first_divergence(a, b)
    return DiffReport(validate(a), validate(b), tuple(header), first)


def _first_divergence(a: Game, b: Game) -> Divergence | None:
    """The first divergence in play order. Plays written differently that read the same are
    no divergence: the comparison goes on past them, and when nothing else differs, the
    first of them is named, saying that the rest agrees."""
    alike: list[Divergence] = []
    found = _divergence(a, b, _acts(a), _acts(b), alike)
    if not alike or (found is not None and found.kind != "notes"):
        return found
    more = f"; {len(alike) - 1} more play(s) read alike" if len(alike) > 1 else ""
    return replace(alike[0], message=f"the play is the same: {alike[0].message}{more}; "
                   "the rest agrees")  # fmt: skip


def _hand_divergence(
    names: list[str],
    number: int,
    ha: Hand,
    hb: Hand,
    acts_a: list[_Act],
    acts_b: list[_Act],
    alike: list[Divergence],
) -> Divergence | None:
    """Where hand `number` of A (`ha`) and of B first part, if they do."""
    if ha.shuffler != hb.shuffler and None not in (ha.shuffler, hb.shuffler):
        return Divergence(
            "shuffler", "the records name different shufflers", number,
            a=_seat(names, ha.shuffler), b=_seat(names, hb.shuffler),
        )  # fmt: skip
    found = _deal_divergence(names, number, ha, hb)
    if found is not None:
        return found
    found = _move_divergence(names, number, acts_a, acts_b, alike)
    if found is not None:
        return found
    if ha.score is not None and hb.score is not None and ha.score != hb.score:
        return Divergence(
            "score", "the score lines differ", number,
            a=score_text(ha.score), b=score_text(hb.score),
        )  # fmt: skip
    return None


def _divergence(
    a: Game, b: Game, acts_a: list[list[_Act]], acts_b: list[list[_Act]], alike: list[Divergence]
) -> Divergence | None:
    names = a.players
    occurs = occurrences([x.number for x in a.hands])
    for h, (ha, hb) in enumerate(zip(a.hands, b.hands, strict=False)):
        known = len(alike)
        found = _hand_divergence(names, ha.number, ha, hb, acts_a[h], acts_b[h], alike)
        if occurs[h] > 1:  # said `hand 1 (2nd)`, as its page is headed
            alike[known:] = [replace(x, occurrence=occurs[h]) for x in alike[known:]]
            found = found and replace(found, occurrence=occurs[h])
        if found is not None:
            return found
    if len(a.hands) != len(b.hands):
        return Divergence(
            "hands", f"A records {len(a.hands)} hand(s), B {len(b.hands)}",
            a=str(len(a.hands)), b=str(len(b.hands)),
        )  # fmt: skip
    if a.result is not None and b.result is not None and a.result != b.result:
        return Divergence("result", "the recorded results differ")
    if a != b:
        return Divergence(
            "notes",
            "the play is the same; the records differ only in how it is written "
            "(passes left out, comments, annotations or tags)",
        )
    return None


def _seat(names: list[str], seat: int | None) -> str | None:
    return None if seat is None else seat_name(names, seat)


def _deal_divergence(names: list[str], number: int, ha: Hand, hb: Hand) -> Divergence | None:
    if ha.deal is None or hb.deal is None:
        return None
    for s, (da, db) in enumerate(zip(ha.deal, hb.deal, strict=False)):
        if da.known != db.known or da.unknown != db.unknown:
            only_a, only_b = da.known & ~db.known, db.known & ~da.known
            detail = (
                "; ".join(
                    part
                    for part in (
                        f"only A gives {format_cards(only_a)}" if only_a else "",
                        f"only B gives {format_cards(only_b)}" if only_b else "",
                    )
                    if part
                )
                or f"unknown cards: A {da.unknown}, B {db.unknown}"
            )
            return Divergence(
                "deal", f"the deals of {_seat(names, s)} differ: {detail}", number,
                seat=_seat(names, s), a=deal_text(da), b=deal_text(db),
            )  # fmt: skip
    return None


def _move_divergence(
    names: list[str], number: int, a: list[_Act], b: list[_Act], alike: list[Divergence]
) -> Divergence | None:
    for x, y in zip(a, b, strict=False):
        if (x.seat, x.text) != (y.seat, y.text) and _read_alike(x, y):
            who = _seat(names, x.seat)
            alike.append(Divergence(
                "notes", f"A has {who}: {x.text}; B has {who}: {y.text}, which read the same "
                f"({x.reading})", number, x.trick, x.turn, who, f"{who}: {x.text}",
                f"{who}: {y.text}",
            ))  # fmt: skip
        elif (x.seat, x.text) != (y.seat, y.text):
            who = _seat(names, x.seat) if x.seat == y.seat else None
            return Divergence(
                "move",
                f"A has {_seat(names, x.seat)}: {x.text}; B has {_seat(names, y.seat)}: {y.text}",
                number, x.trick, x.turn, who, f"{_seat(names, x.seat)}: {x.text}",
                f"{_seat(names, y.seat)}: {y.text}",
            )  # fmt: skip
    if len(a) != len(b):
        longer, which = (a, "A") if len(a) > len(b) else (b, "B")
        nxt = longer[min(len(a), len(b))]
        return Divergence(
            "move", f"only {which} goes on: {_seat(names, nxt.seat)}: {nxt.text}", number,
            nxt.trick, nxt.turn, _seat(names, nxt.seat),
            *((f"{_seat(names, nxt.seat)}: {nxt.text}", None) if which == "A"
              else (None, f"{_seat(names, nxt.seat)}: {nxt.text}")),
        )  # fmt: skip
    return None


__all__ = ["DiffJson", "DiffReport", "Divergence", "SideJson", "diff_games"]
