"""Sheng ji rounds as a live table logs them (LIVE.md, "Sheng ji"): no deal written, the kitty
and discard as the dealer gives them, round 1's dealer settled by the bids, a round cut where
play is. What the table enters is judged by the validator, so these are the validator's cases:
a correct entry must not be refused."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.sj_live_helpers import simulated
from zfrec.games.shengji.cards import size
from zfrec.games.shengji.records import SjCards, SjMatch
from zfrec.games.shengji.replayer import validate_match


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> SjMatch:
    return simulated(Path(tmp_path_factory.mktemp("sj")), 38)


def _round_one(m: SjMatch, tricks: int, *, dealer: bool = True) -> SjMatch:
    """Round 1 of `m` with no deal written (the kitty and discard kept), cut after `tricks`
    tricks; without its dealer when `dealer` is False (the bids settle it)."""
    out = copy.deepcopy(m)
    rnd = out.rounds[0]
    del out.rounds[1:]
    assert rnd.deal is not None
    rnd.deal = tuple(SjCards(0, d.unknown + size(d.known)) for d in rnd.deal)
    del rnd.tricks[tricks:]
    rnd.points = rnd.outcome = rnd.levels = None
    if not dealer:
        rnd.dealer = None
    out.result = None
    return out


def test_a_failed_throw_stands_by_the_blocker_unseen(match: SjMatch) -> None:
    # Round 1, trick 20: seat 4 throws 6h Th Jh and seat 3 blocks it with a single heart that
    # no play has shown yet; seat 2 then shows a void in hearts. The guessed cards put no high
    # heart with seat 3 any more, which must not make the written block wrong.
    rnd = match.rounds[0]
    assert any(m.failed for m in rnd.tricks[19].moves)
    for cut in (19, 20):
        codes = {d.code for d in validate_match(_round_one(match, cut)).diagnostics}
        assert codes <= {"SJ205"}, (cut, codes)


def test_round_one_dealer_settled_by_the_bids_exchanges(match: SjMatch) -> None:
    # Round 1 written without its dealer: the bid that stands makes seat 2 the dealer, and the
    # dealer's discard (from the kitty and a hand not written) is theirs to make.
    rnd = match.rounds[0]
    assert rnd.dealer == 1 and rnd.bids and rnd.bids[0].seat == 1
    for cut in (0, 5):
        codes = {d.code for d in validate_match(_round_one(match, cut, dealer=False)).diagnostics}
        assert codes <= {"SJ205"}, (cut, codes)
