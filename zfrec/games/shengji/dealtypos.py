"""Sheng ji's reading of an unreadable card of a round's deal, kitty or discard, which the .zfn
reader (zfrec.games.shengji.zfn) and the JSON reader (zfrec.games.shengji.jsonpart) share: the
cards a word may be read as, and the round's cards once it is read as one of them
(FORMAT.md, Errors and recovery)."""

from __future__ import annotations

from collections import Counter

from zfrec.errors import CardError
from zfrec.games.shengji.cards import MAX_DECKS, NUM_CARDS, _word_ids, count, distinct, one
from zfrec.games.shengji.records import SjCards, SjRound
from zfrec.record.problems import read_parts, typo_candidates

__all__ = ["dealt_options", "ids_leniently", "read_as"]


def dealt_options(r: SjRound, line: str, seat: int, part: str, decks: int) -> list[int]:
    """The cards an unreadable card `part` of round `r`'s `line` (`deal` of `seat`, `kitty`,
    `discard`) may be, with `decks` decks: for a deal or kitty card, those that fit it of which
    the decks hold a copy no deal or kitty line gives, and if several do, those the round shows
    its line to leave out (`_wanted`); for a discard card, what the dealer holds and neither
    plays nor discards. A word close to a joker's spelling fits that joker (typo_candidates)."""
    wanted = _wanted(r, line, seat)
    options = typo_candidates(part, (1 << NUM_CARDS) - 1)
    if line == "discard":
        return [c for c in options if wanted[c]]
    given = [d.known for d in (*(r.deal or ()), r.kitty) if d is not None]
    options = [c for c in options if sum(count(k, c) for k in given) < decks]
    return [c for c in options if wanted[c]] or options


def ids_leniently(word: str) -> tuple[list[int], list[tuple[int, str, CardError]]]:
    """A word of cards read as far as it can be: the card ids of its readable parts, a card
    written twice listed twice (glued `7h7h7x` gives 7h 7h), and for each unreadable part (of a
    glued word: each unreadable card) its offset in `word`, its text and why it cannot be read."""
    readings, bad = read_parts(word, _word_ids)
    return [c for ids in readings for c in ids], bad


def _wanted(r: SjRound, line: str, seat: int) -> Counter[int]:
    """The cards (with their copies) that the round shows a line to leave out: what a seat plays
    (the dealer: and discards) beyond its deal (and the kitty); for the discard, what the dealer
    holds beyond what it plays and discards. Nothing where the dealer is not written."""
    shown, given = Counter[int](), Counter[int]()
    owner = seat if line == "deal" else r.dealer
    if owner is None or owner < 0:
        return shown
    for trick in r.tricks:
        for move in trick.moves:
            if move.seat == owner:
                shown.update(_copies(move.cards))
    if r.deal is not None and owner < len(r.deal):
        given.update(_copies(r.deal[owner].known))
    if owner == r.dealer:
        given.update(_copies(0 if r.kitty is None else r.kitty.known))
        shown.update(_copies(0 if r.discard is None else r.discard.known))
    return given - shown if line == "discard" else shown - given


def _copies(hand: int) -> Counter[int]:
    """The copies of each card of a packed hand."""
    return Counter({cid: count(hand, cid) for cid in distinct(hand)})


def read_as(r: SjRound, line: str, seat: int, cid: int) -> None:
    """The unknown card of `line` (`seat`'s deal, the kitty or the discard) read as `cid`."""
    if line == "deal" and r.deal is not None and 0 <= seat < len(r.deal):
        cards: SjCards | None = r.deal[seat]
    else:
        cards = r.kitty if line == "kitty" else r.discard if line == "discard" else None
    if cards is None or not cards.unknown or count(cards.known, cid) >= MAX_DECKS:
        return
    read = SjCards(cards.known + one(cid), cards.unknown - 1, cards.pos)
    if line == "deal" and r.deal is not None:
        r.deal = tuple(read if i == seat else d for i, d in enumerate(r.deal))
    elif line == "kitty":
        r.kitty = read
    else:
        r.discard = read
