"""Suggestions for what the reader could not read (zfrec.record.problems): plain matching,
checked against hand-written expectations."""

from __future__ import annotations

import pytest

from zfrec.games.zhengfen.engine.cards import card_str, parse_cards
from zfrec.record.problems import (
    card_candidates,
    cardish,
    did_you_mean,
    loose_name,
    name_matches,
    read_word_leniently,
    readable_parts,
)

PLAYERS = ["Tomás", "Zhou Wei", "王芳", "Bo", "Bea"]


@pytest.mark.parametrize(
    ("typed", "seats"),
    [
        ("tomas", [0]),  # accent
        ("TOMAS", [0]),  # case
        ("Zhou  wei", [1]),  # spacing
        ("zhouwei", [1]),  # no space
        ("zhou wie", [1]),  # two letters swapped: one edit
        ("thomas", [0]),  # one letter more
        ("王 芳", [2]),
        ("Be", [3, 4]),  # one letter from two short names: both suggested
        ("Zoe", []),  # nothing close
        ("xxxxxxxx", []),
    ],
)
def test_names_are_matched_loosely(typed: str, seats: list[int]) -> None:
    assert name_matches(PLAYERS, typed) == seats


def test_a_hostile_name_is_not_compared() -> None:
    assert name_matches(["a" * 10_000, "Bo", "Cy"], "a" * 9_999 + "b") == []
    assert loose_name("  Ｔomás ") == "tomas"  # full-width letters fold too


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("9j", "9", None),
        ("10x", "T", None),
        ("1c", None, "c"),
        ("xh", None, "h"),
        ("zz", None, None),
    ],
)
def test_what_can_be_read_of_a_bad_card(text: str, rank: str | None, suit: str | None) -> None:
    got_rank, got_suit = readable_parts(text)
    assert (None if got_rank is None else "3456789TJQKA2"[got_rank]) == rank
    assert (None if got_suit is None else "shdc"[got_suit]) == suit


def test_the_cards_that_fit() -> None:
    held = parse_cards("9d 9s Kd 3c SJ")
    assert [card_str(c) for c in card_candidates(6, None, held)] == ["9s", "9d"]
    assert [card_str(c) for c in card_candidates(None, 2, held)] == ["9d", "Kd"]
    assert card_candidates(None, None, held) == []
    assert did_you_mean(["9s", "9d"]) == "did you mean 9s or 9d?"
    assert did_you_mean(["a", "b", "c"]) == "did you mean a, b or c?"
    assert did_you_mean(["a", "b", "c", "d"]) == did_you_mean([]) == ""


def test_a_word_is_read_as_far_as_it_can_be() -> None:
    mask, decls, bad = read_word_leniently("7h,9j,BJ=8")
    assert mask == parse_cards("7h BJ") and len(decls) == 1
    assert [(offset, part) for offset, part, _ in bad] == [(3, "9j")]
    assert cardish("9j") and cardish("7h7s") and not cardish("zhou") and not cardish("Wei")
