"""The canonical .zfn text of records (FORMAT.md, Canonical form), and the texts of its parts.

The writer builds its lines from `score_text`, `deal_text` and the card notation, and the rest
of zfrec takes those texts from here, so a score, a deal or a joker declaration reads the same
in a repair suggestion, a diff or on a page as in the canonical record.

    >>> from zfrec.games.zhengfen.engine.cards import Cards
    >>> score_text(HandScore((40, 30, 30), (40, 30, 30)))
    '40 30 30 total 40 30 30'
    >>> deal_text(SeatDeal(Cards.parse("3h 4s"), 16)), deal_text(SeatDeal(unknown=1))
    ('3h 4s ?16', '?')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from zfrec.games import find_kind
from zfrec.games.zhengfen.engine.cards import SJ, Stand, declared_text, format_cards
from zfrec.record.lexer import escape_comment, escape_string
from zfrec.record.model import Game, Hand, HandScore, Move, SeatDeal
from zfrec.record.zfn_header import format_header

__all__ = ["deal_text", "dumps_zfn", "iter_zfn", "joker_texts", "score_text", "write_zfn"]


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


def dumps_zfn(games: Game | Iterable[Game]) -> str:
    """Canonical .zfn text of one game or several, separated by blank lines."""
    return "".join(iter_zfn(games))


class Writer(Protocol):
    """Anything with a `write(text)` method: an open text file, `io.StringIO`, sys.stdout."""

    def write(self, text: str, /) -> object:
        """Write some text."""


def write_zfn(games: Game | Iterable[Game], out: Writer) -> None:
    """Stream canonical .zfn text to `out`, one game at a time."""
    for chunk in iter_zfn(games):
        out.write(chunk)


def iter_zfn(games: Game | Iterable[Game]) -> Iterator[str]:
    """Canonical text, one chunk per game."""
    for i, game in enumerate([games] if isinstance(games, Game) else games):
        yield ("\n" if i else "") + "\n".join(_game_lines(game)) + "\n"


def _comment(text: str) -> str:
    return "{" + escape_comment(text) + "}"


def _game_lines(game: Game) -> Iterator[str]:
    yield from format_header(game)
    for text in game.comments:
        yield _comment(text)
    yield from find_kind(game.kind).body_lines(game)


def hand_lines(hand: Hand) -> Iterator[str]:
    """A Zheng Fen hand's lines (the kind's `body_lines`), without newlines."""
    head = f"hand {hand.number}"
    if hand.shuffler is not None:
        head += f" shuffler {hand.shuffler + 1}"
    yield head
    for text in hand.comments:
        yield _comment(text)
    for seat, dealt in enumerate(hand.deal or ()):
        yield f"deal {seat + 1}:" + (" " + text if (text := deal_text(dealt)) else "")
    for trick in hand.tricks:
        moves = "  ".join(_move_text(m) for m in trick.moves)
        yield "".join(_comment(c) + " " for c in trick.comments) + moves
    if hand.score is not None:
        yield "score " + score_text(hand.score)


def _move_text(move: Move) -> str:
    play = "-" if move.is_pass else move.play_text()
    text = f"{move.seat + 1}: {play}{move.annotation or ''}"
    if move.disputed:
        text += " disputed"
        if move.dispute_note is not None:
            text += f' "{escape_string(move.dispute_note)}"'
        for version in move.alternatives:
            text += " or " + ("-" if version.is_pass else version.play_text())
    for comment in move.comments:
        text += " " + _comment(comment)
    return text
