"""Two Sheng ji records of one match, side by side: where they first part (`zfrec diff`).

The records are compared round by round in the order the table plays them: the round line,
the deal, the bids, the kitty and the discard, the calls, each play, then the points, the level
change and the levels. Comments, annotations and disputes are notes: records that differ only
there hold the same match.

    >>> from zfrec.games.shengji.records import SjMatch, SjRound
    >>> a = SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1, 0, 2, "h")])
    >>> b = SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1, 0, 2, "s")])
    >>> d = diff_sj(a, b)
    >>> d.same, d.first.where(), d.first.message.split(": ")[0], d.first.a
    (False, 'round 1', 'the round lines differ', 'round 1 dealer 1 rank 2 trump h')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from zfrec.games.shengji.cards import count, distinct, format_hand, one
from zfrec.games.shengji.notation import (
    call_text,
    cards_text,
    levels_text,
    outcome_text,
    points_text,
    round_head,
    sj_rules_text,
)
from zfrec.games.shengji.records import SjCards, SjMatch, SjMove, SjRound
from zfrec.numbering import occurrences, repeat_suffix, with_occurrence

__all__ = ["SjDiff", "SjDivergence", "diff_sj"]


@dataclass(frozen=True, slots=True)
class SjDivergence:
    """Where two records first part: what differs, the round, trick and turn, and each side."""

    kind: str  # players, rounds, round, deal, bids, kitty, discard, calls, play, points, ...
    message: str
    round: int | None = None
    trick: int | None = None
    turn: int | None = None
    player: str | None = None
    a: str | None = None
    b: str | None = None
    occurrence: int = 1  # 2: in the second round A writes with the number `round`

    def where(self) -> str:
        """`round 2, trick 3, turn 1 (Ann)`, with the parts that are known (`round 2 (2nd)`
        for the second round written as round 2)."""
        said = None if self.round is None else f"{self.round}{repeat_suffix(self.occurrence)}"
        bits = [f"{k} {v}" for k, v in (("round", said), ("trick", self.trick),
                                          ("turn", self.turn)) if v is not None]  # fmt: skip
        text = ", ".join(bits)
        return f"{text} ({self.player})" if self.player and text else text or (self.player or "")

    def to_json(self) -> dict[str, Any]:
        """As `zfrec diff --json` writes it: the keys of Zheng Fen's divergence (ANALYSIS.md),
        null where not known, the round as `hand` (as analyze and the diagnostics write it)
        and as `round`; `occurrence` after `round` in the second round A numbers so (the
        text's `round 1 (2nd)`)."""
        return with_occurrence({"kind": self.kind, "message": self.message, "hand": self.round,
                                "round": self.round, "trick": self.trick, "turn": self.turn,
                                "player": self.player, "a": self.a, "b": self.b},
                               self.occurrence, "round")  # fmt: skip


@dataclass(frozen=True, slots=True)
class SjDiff:
    """Two records compared: header differences and the first divergence in play order."""

    header: tuple[str, ...]
    first: SjDivergence | None
    # the validator's verdict on each record ("legal", or its errors), None while the kind has
    # no validator
    verdicts: tuple[str | None, str | None] = (None, None)
    errors: tuple[int, int] = (0, 0)

    @property
    def same(self) -> bool:
        """The same match: same header, rounds, deals, bids and play, same results."""
        return not self.header and (self.first is None or self.first.kind == "notes")

    def to_json(self) -> dict[str, Any]:
        """As `zfrec diff --json` writes it for one game."""
        first = None if self.first is None else self.first.to_json()
        out: dict[str, Any] = {"same": self.same, "header": list(self.header),
                               "first_divergence": first}  # fmt: skip
        for side, verdict, errors in zip("ab", self.verdicts, self.errors, strict=True):
            if verdict is not None:
                out[side] = {"legal": errors == 0, "errors": errors, "verdict": verdict}
        return out

    def verdict(self, which: str) -> str | None:
        """The verdict on record `a` or `b`, or None without a validator."""
        return self.verdicts[0 if which == "a" else 1]


def _play_text(m: SjMove) -> str:
    text = format_hand(m.cards)
    if m.forced is not None:
        text += f" forced {format_hand(m.forced)}"
        if m.blocker is not None:
            text += f" by {m.blocker + 1}"
    return text + (" joins" if m.joins else "")


def _bare(m: SjMove) -> SjMove:
    return SjMove(m.seat, m.cards, m.forced, m.blocker, m.joins)


def diff_sj(a: SjMatch, b: SjMatch) -> SjDiff:
    """The first place two records of one Sheng ji match part."""
    header = []
    if [p.casefold() for p in a.players] != [p.casefold() for p in b.players]:
        header.append(f"players: A has {', '.join(a.players)}; B has {', '.join(b.players)}")
    ra, rb = sj_rules_text(a.preset, a.options), sj_rules_text(b.preset, b.options)
    if ra != rb:
        header.append(f"rules: A {ra}, B {rb}")
    (va, ea), (vb, eb) = _verdict(a), _verdict(b)
    return SjDiff(tuple(header), _first(a, b), (va, vb), (ea, eb))


def _verdict(match: SjMatch) -> tuple[str | None, int]:
    """`legal`, or the error count and the first error, as Zheng Fen's diff says it; None while
    the kind has no validator (`GameKind.validate`)."""
    from zfrec.diagnostics import first_error
    from zfrec.games import NotSupported, find_kind

    try:
        kind: Any = find_kind(match.game)  # the kind's validator takes an SjMatch too
        report = kind.validate(match)
    except NotSupported:
        return None, 0
    if report.ok:
        return "legal", 0
    first = first_error(report.diagnostics)
    if first is None:
        return f"{report.errors} error(s)", report.errors
    where = first.location.play() if first.location is not None else ""
    return (f"{report.errors} error(s); first at {where or 'the record'}: {first.message}",
            report.errors)  # fmt: skip


def _first(a: SjMatch, b: SjMatch) -> SjDivergence | None:
    names = a.players
    occurs = occurrences([x.number for x in a.rounds])
    for i, (x, y) in enumerate(zip(a.rounds, b.rounds, strict=False)):
        found = _round(names, x, y)
        if found is not None:  # `round 1 (2nd)` for the second round 1, as its page says
            return replace(found, occurrence=occurs[i]) if occurs[i] > 1 else found
    if len(a.rounds) != len(b.rounds):
        return SjDivergence("rounds", f"A records {len(a.rounds)} round(s), B {len(b.rounds)}",
                            a=str(len(a.rounds)), b=str(len(b.rounds)))  # fmt: skip
    if a.result != b.result:
        return SjDivergence("result", "the recorded match results differ")
    if a != b:
        return SjDivergence("notes", "the match is the same; the records differ only in how it "
                            "is written (comments, annotations, disputes or tags)")  # fmt: skip
    return None


def _round(names: list[str], x: SjRound, y: SjRound) -> SjDivergence | None:
    n = x.number
    if round_head(x) != round_head(y):
        return _lines("round", "the round lines differ", n, round_head(x), round_head(y))
    if x.deal is not None and y.deal is not None:
        for seat, (p, q) in enumerate(zip(x.deal, y.deal, strict=False)):
            if (p.known, p.unknown) != (q.known, q.unknown):
                apart = _cards_apart(p, q, "hand")
                return SjDivergence("deal", f"the deals differ: {apart}", n, player=names[seat],
                                    a=cards_text(p), b=cards_text(q))  # fmt: skip
    bids_x, bids_y = [_bare(m) for m in x.bids], [_bare(m) for m in y.bids]
    if bids_x != bids_y:
        show = "  ".join(f"{m.seat + 1}: {format_hand(m.cards)}" for m in bids_x)
        other = "  ".join(f"{m.seat + 1}: {format_hand(m.cards)}" for m in bids_y)
        return _lines("bids", "the bids differ", n, show, other)
    for kind in ("kitty", "discard"):
        p, q = getattr(x, kind), getattr(y, kind)
        if p is not None and q is not None and (p.known, p.unknown) != (q.known, q.unknown):
            return SjDivergence(kind, f"the {kind} differs: " + _cards_apart(p, q, kind), n,
                                a=cards_text(p), b=cards_text(q))  # fmt: skip
    if x.calls != y.calls:
        return _lines("calls", "the calls differ", n, call_text(x.calls), call_text(y.calls))
    for t, (tx, ty) in enumerate(zip(x.tricks, y.tricks, strict=False), 1):
        for turn, (mx, my) in enumerate(zip(tx.moves, ty.moves, strict=False), 1):
            if _bare(mx) != _bare(my):
                who = names[mx.seat] if mx.seat < len(names) else None
                said = f"A has {_play_text(mx)}; B has {_play_text(my)}"
                if mx.seat != my.seat:  # another seat's play at this turn: both named
                    said = (f"A has {_seat_name(names, mx.seat)} {_play_text(mx)}; B has "
                            f"{_seat_name(names, my.seat)} {_play_text(my)}")  # fmt: skip
                return SjDivergence(
                    "play", said, n, t, turn, who,
                    f"{mx.seat + 1}: {_play_text(mx)}", f"{my.seat + 1}: {_play_text(my)}",
                )  # fmt: skip
        if len(tx.moves) != len(ty.moves):
            return SjDivergence("play", f"trick {t}: A records {len(tx.moves)} play(s), B "
                                f"{len(ty.moves)}", n, t)  # fmt: skip
    if len(x.tricks) != len(y.tricks):
        return SjDivergence("tricks", f"A records {len(x.tricks)} trick(s), B {len(y.tricks)}", n)
    parts = (("points", points_text), ("outcome", outcome_text), ("levels", levels_text))
    for kind, text in parts:
        p, q = getattr(x, kind), getattr(y, kind)
        if p is not None and q is not None and p != q:
            word = "result" if kind == "outcome" else kind
            return _lines(word, f"the {word} lines differ", n, f"{word} {text(p)}",
                          f"{word} {text(q)}", text(p), text(q))  # fmt: skip
    return None


def _lines(
    kind: str, said: str, n: int, a: str, b: str, a_json: str | None = None,
    b_json: str | None = None,
) -> SjDivergence:  # fmt: skip
    """Two lines that differ, each side's shown in the message (`a_json`, `b_json`: as the
    JSON gives them, when not as shown)."""
    return SjDivergence(kind, f"{said}: A has {a or 'none'}; B has {b or 'none'}", n,
                        a=a if a_json is None else a_json,
                        b=b if b_json is None else b_json)  # fmt: skip


def _cards_apart(p: SjCards, q: SjCards, what: str) -> str:
    """What one line of cards has that the other lacks: `A has 4d where B has 4c`; cards left
    unknown (`?25`) are said in words: `A leaves the hand unknown (?25) where B has 3h ...`.
    `what` names the line (`hand`, `kitty`, `discard`)."""
    only_a = sum(max(0, count(p.known, c) - count(q.known, c)) * one(c) for c in distinct(p.known))
    only_b = sum(max(0, count(q.known, c) - count(p.known, c)) * one(c) for c in distinct(q.known))
    unknown = p.unknown != q.unknown

    def side(cards: SjCards, only: int) -> str:
        has = f"has {format_hand(only)}" if only else ""
        if not (unknown and cards.unknown):
            return has or "has nothing"
        whole = f"the {what}" if not cards.known else f"{cards.unknown} of its cards"
        leaves = f"leaves {whole} unknown (?{cards.unknown})"
        return f"{has} and {leaves}" if has else leaves

    return f"A {side(p, only_a)} where B {side(q, only_b)}"


def _seat_name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
