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


def test_the_dealers_known_cards_leave_with_the_discard(match: SjMatch) -> None:
    # No deal written, the kitty and discard written: what the rebuild calls known in the
    # dealer's hand (a table page offers it to tap) is the kitty and bids without the discard,
    # never a discarded card kept by a guessed card of the same name.
    from zfrec.games.shengji.cards import card_ids, contains, format_hand
    from zfrec.games.shengji.rebuild import rebuild, shown

    rnd = _round_one(match, 0).rounds[0]
    assert rnd.kitty is not None and rnd.discard is not None and rnd.dealer is not None
    n = len(match.players)
    played, bids = shown(rnd, n)
    up, down = (rnd.kitty.known, 0), (rnd.discard.known, 0)
    rb = rebuild(match.rules(), rnd.dealer, [(0, 25)] * n, (up, down), bids, played, 0)
    hand = rb.at_play(rnd.dealer)[rnd.dealer]
    guessed = rb.guessed[rnd.dealer]
    assert contains(hand, guessed)
    known = [c for c in card_ids(hand)]
    for c in card_ids(guessed):
        known.remove(c)
    expect = sorted(card_ids(rnd.kitty.known + bids[rnd.dealer]))
    for c in card_ids(rnd.discard.known):
        if c in expect:
            expect.remove(c)
    assert sorted(known) == expect, format_hand(sum(1 << 2 * c for c in known))


@pytest.mark.slow
def test_every_round_logged_without_deals_is_clean(match: SjMatch) -> None:
    # Each round of the match as a table logs it (no deal; the kitty and discard written),
    # cut at several points, round 1 also without its dealer: nothing but "unfinished".
    for i in range(len(match.rounds)):
        for cut in (1, 7, 13, 19, 25):
            for dealer in (True, False) if i == 0 else (True,):
                out = copy.deepcopy(match)
                del out.rounds[i + 1 :]
                rnd = out.rounds[i]
                assert rnd.deal is not None
                rnd.deal = tuple(SjCards(0, d.unknown + size(d.known)) for d in rnd.deal)
                del rnd.tricks[cut:]
                rnd.points = rnd.outcome = rnd.levels = None
                if not dealer:
                    rnd.dealer = None
                out.result = None
                codes = {d.code for d in validate_match(out).diagnostics}
                assert codes <= {"SJ205"}, (i + 1, cut, dealer, codes)
