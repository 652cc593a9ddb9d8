"""The canonical .zfn text of Sheng ji records (FORMAT.md, Sheng ji), and the texts of its parts.

The reader (`zfrec.games.shengji.zfn`) reads every spelling the table types; this writer
writes one: seats by number, cards in the engine's canonical order (`format_hand`: ascending
card id, copies together), the round's statements in a fixed order, annotations glued to the
play, moves two spaces apart.

    >>> from zfrec.games.shengji.cards import parse_hand
    >>> cards_text(SjCards(parse_hand("Kd 3s Kd"), 5))
    '3s Kd Kd ?5'
    >>> points_text(SjPoints(60, 10, 4, 0, 100))
    '60 kitty 10x4 total 100'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from zfrec.cardwords import card_str
from zfrec.games.shengji.cards import format_hand
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
)
from zfrec.games.shengji.rules import OPTION_NAMES, level_text
from zfrec.record.lexer import escape_comment, escape_string

__all__ = [
    "call_text",
    "cards_text",
    "dumps_sj",
    "format_sj_header",
    "iter_sj",
    "levels_text",
    "move_text",
    "ordinal_text",
    "outcome_text",
    "points_text",
    "result_text",
    "round_head",
    "round_lines",
    "sj_rules_text",
]


def cards_text(cards: SjCards) -> str:
    """Known cards in canonical order, then `?` or `?N`."""
    items = [format_hand(cards.known)] if cards.known else []
    if cards.unknown:
        items.append("?" if cards.unknown == 1 else f"?{cards.unknown}")
    return " ".join(items)


def ordinal_text(n: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`."""
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def call_text(calls: Iterable[SjCall]) -> str:
    """A call line's body: `2nd As 1st Kh`."""
    return " ".join(f"{ordinal_text(c.ordinal)} {card_str(c.card)}" for c in calls)


def points_text(p: SjPoints) -> str:
    """`60 kitty 10x4 penalty -10 total 90`: the opponents' points of a round."""
    text = str(p.taken)
    if p.kitty is not None:
        text += f" kitty {p.kitty}"
        if p.multiplier is not None:
            text += f"x{p.multiplier}"
    if p.penalty:
        text += f" penalty {p.penalty}"
    if p.total is not None:
        text += f" total {p.total}"
    return text


def outcome_text(o: SjOutcome) -> str:
    """`declarers +2`, `swap`, `opponents +1`, then ` next SEAT` when written."""
    text = "swap" if o.side == "opponents" and not o.steps else f"{o.side} +{o.steps}"
    if o.next_dealer is not None:
        text += f" next {o.next_dealer + 1}"
    return text


def levels_text(levels: SjLevels) -> str:
    """Each seat's level: `3 2 3 2`."""
    return " ".join(level_text(v) for v in levels.levels)


def result_text(result: SjMatchResult) -> str:
    """`[Result]`'s value: final levels per seat, then the winners: `A 5 A 5 winners 1, 3`."""
    text = " ".join(level_text(v) for v in result.levels)
    if result.winners:
        word = "winner" if len(result.winners) == 1 else "winners"
        text += f" {word} " + ", ".join(str(s + 1) for s in result.winners)
    return text


def sj_rules_text(preset: str, options: dict[str, object]) -> str:
    """`[Rules]`'s value: the preset, then its overridden options in the canonical order."""
    order = [o for o in OPTION_NAMES if o in options] + sorted(set(options) - set(OPTION_NAMES))
    return " ".join([preset, *(f"{k}={options[k]}" for k in order)])


def round_head(r: SjRound) -> str:
    """`round 3 dealer 2 rank 7 trump c` (or `notrump`); the parts not written are left out."""
    text = f"round {r.number}"
    if r.dealer is not None:
        text += f" dealer {r.dealer + 1}"
    if r.rank is not None:
        text += f" rank {level_text(r.rank)}"
    if r.trump == "nt":
        text += " notrump"
    elif r.trump is not None:
        text += f" trump {r.trump}"
    return text


def _comment(text: str) -> str:
    return "{" + escape_comment(text) + "}"


def move_text(move: SjMove) -> str:
    """`1: Kd Qd Qd? forced Qd Qd by 3 joins disputed "note" or Kd` and its comments."""
    text = f"{move.seat + 1}: {format_hand(move.cards)}{move.annotation or ''}"
    if move.forced is not None:
        text += f" forced {format_hand(move.forced)}"
        if move.blocker is not None:
            text += f" by {move.blocker + 1}"
    if move.joins:
        text += " joins"
    if move.disputed:
        text += " disputed"
        if move.dispute_note is not None:
            text += f' "{escape_string(move.dispute_note)}"'
        for version in move.alternatives:
            text += " or " + format_hand(version)
    for comment in move.comments:
        text += " " + _comment(comment)
    return text


def format_sj_header(match: SjMatch) -> Iterator[str]:
    """The canonical tag lines: Game, Event, Site, Date, Players, Rules, Result, the others."""

    def tag(name: str, value: str) -> str:
        return f'[{name} "{escape_string(value)}"]'

    yield tag("Game", "shengji")  # first, as the generic writer puts it (zfrec.games)
    for name, value in (("Event", match.event), ("Site", match.site), ("Date", match.date)):
        if value is not None:
            yield tag(name, value)
    yield tag("Players", ", ".join(match.players))
    yield tag("Rules", sj_rules_text(match.preset, match.options))
    if match.result is not None:
        yield tag("Result", result_text(match.result))
    for name, value in match.extra_tags:
        yield tag(name, value)


def round_lines(r: SjRound) -> Iterator[str]:
    yield round_head(r)
    for text in r.comments:
        yield _comment(text)
    for seat, dealt in enumerate(r.deal or ()):
        yield f"deal {seat + 1}:" + (" " + text if (text := cards_text(dealt)) else "")
    if r.bids:
        yield "bids " + "  ".join(move_text(b) for b in r.bids)
    if r.kitty is not None:
        yield "kitty" + (" " + text if (text := cards_text(r.kitty)) else "")
    if r.discard is not None:
        yield "discard" + (" " + text if (text := cards_text(r.discard)) else "")
    if r.calls:
        yield "call " + call_text(r.calls)
    for trick in r.tricks:
        moves = "  ".join(move_text(m) for m in trick.moves)
        yield "".join(_comment(c) + " " for c in trick.comments) + moves
    if r.points is not None:
        yield "points " + points_text(r.points)
    if r.outcome is not None:
        yield "result " + outcome_text(r.outcome)
    if r.levels is not None:
        yield "levels " + levels_text(r.levels)


def _match_lines(match: SjMatch) -> Iterator[str]:
    yield from format_sj_header(match)
    for text in match.comments:
        yield _comment(text)
    for r in match.rounds:
        yield ""
        yield from round_lines(r)


def iter_sj(matches: SjMatch | Iterable[SjMatch]) -> Iterator[str]:
    """Canonical text, one chunk per match, separated by blank lines."""
    for i, match in enumerate([matches] if isinstance(matches, SjMatch) else matches):
        yield ("\n" if i else "") + "\n".join(_match_lines(match)) + "\n"


def dumps_sj(matches: SjMatch | Iterable[SjMatch]) -> str:
    """Canonical .zfn text of one Sheng ji match or several."""
    return "".join(iter_sj(matches))
