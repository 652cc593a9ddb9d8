"""Texts of record parts as the .zfn writer spells them, for messages and reports elsewhere.

The writer (zfn.py) builds its lines from these, so a score, a deal or a joker declaration reads
the same in a repair suggestion, a diff or on a page as in the canonical record.

    >>> from zfrec.engine.cards import Cards
    >>> score_text(HandScore((40, 30, 30), (40, 30, 30)))
    '40 30 30 total 40 30 30'
    >>> deal_text(SeatDeal(Cards.parse("3h 4s"), 16)), deal_text(SeatDeal(unknown=1))
    ('3h 4s ?16', '?')
"""

from __future__ import annotations

from zfrec.engine.cards import SJ, Stand, declared_text, format_cards
from zfrec.record.model import HandScore, SeatDeal

__all__ = ["deal_text", "joker_texts", "score_text"]


def score_text(score: HandScore) -> str:
    """A score line's numbers: `40 30 30 0`, then ` total 40 30 30 0` if totals are written."""
    text = " ".join(map(str, score.points))
    if score.totals is not None:
        text += " total " + " ".join(map(str, score.totals))
    return text


def deal_text(dealt: SeatDeal) -> str:
    """One seat's deal after `deal N:`: known cards in canonical order, then `?` or `?N`."""
    items = [format_cards(dealt.known)] if dealt.known else []
    if dealt.unknown:
        items.append("?" if dealt.unknown == 1 else f"?{dealt.unknown}")
    return " ".join(items)


def joker_texts(mask: int, stands: dict[int, Stand]) -> tuple[str, ...]:
    """Each joker in `mask` with what it stands for, if known: `('SJ=8h', 'BJ')`."""
    return tuple(declared_text(j, stands.get(j)) for j in (SJ, SJ + 1) if mask >> j & 1)
