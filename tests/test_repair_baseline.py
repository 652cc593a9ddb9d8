"""The repair search judges each candidate by zfrec.baseline's one comparison (`compare`, from
the edited hand on, the record's errors gathered from its first replay). Here every candidate
of several corrupted games is judged again by counting, over two whole-game replays (the
record's and the candidate's), and both the comparison and the search's decision must agree."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from tests.test_audit_golden import corruptions
from zfrec.baseline import Baseline, compare, key
from zfrec.events import GameEnd, HandStart
from zfrec.games.zhengfen.analysis.repair import _Search
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.record.model import Game
from zfrec.replay import replay
from zfrec.validate import validate

CANDIDATES = 80  # per game: the search tries the first ones most


@dataclass
class _Counted:
    """A whole-game replay, counted: errors and warnings by hand (None: the game's end), the
    errors' keys by hand, and whether the game was over before each hand."""

    errors: Counter[int | None] = field(default_factory=Counter)
    warnings: Counter[int | None] = field(default_factory=Counter)
    keys: dict[int | None, Counter[tuple[object, ...]]] = field(default_factory=dict)
    over_before: list[bool] = field(default_factory=list)


def _counted(game: Game, rules: Ruleset) -> _Counted:
    out = _Counted()
    for state, ev in replay(game, rules):
        h = None if isinstance(ev, GameEnd) else ev.hand_index
        if isinstance(ev, HandStart):
            out.over_before.append(state.game.over)
        for d in ev.diagnostics:
            if d.severity == "error":
                out.errors[h] += 1
                out.keys.setdefault(h, Counter())[key(d)] += 1
            elif d.severity == "warning":
                out.warnings[h] += 1
    return out


def _from(c: _Counted, h: int) -> Counter[tuple[object, ...]]:
    out: Counter[tuple[object, ...]] = Counter()
    for where, keys in c.keys.items():
        if where is None or where >= h:
            out.update(keys)
    return out


def _by_counting(record: Game, candidate: Game, rules: Ruleset) -> bool | None:
    """The search's rule, from two whole replays: None for an edit it validates in full."""
    h = next(
        (i for i, (x, y) in enumerate(zip(record.hands, candidate.hands, strict=False)) if x != y),
        None,
    )
    if h is None or len(record.hands) != len(candidate.hands):
        return None
    old, new = _counted(record, rules), _counted(candidate, rules)
    if h > 0 and old.over_before[h - 1]:
        return None
    before = sum(old.errors[i] for i in range(h))
    if h < len(record.hands) - 1 and before + new.errors[h] and new.errors[h] >= old.errors[h]:
        return False
    errors, base = sum(new.errors.values()), sum(old.errors.values())
    warnings, base_warnings = sum(new.warnings.values()), sum(old.warnings.values())
    return errors < base or (errors == base and warnings < base_warnings)


CORRUPT = corruptions()


@pytest.mark.slow
@pytest.mark.parametrize("n", range(0, len(CORRUPT), 3), ids=lambda n: CORRUPT[n][0])
def test_every_candidate_is_judged_as_counting_two_whole_replays_does(n: int) -> None:
    _, game = CORRUPT[n]
    rules = game.ruleset()
    search = _Search(game, rules, validate(game, rules), budget=300, want=2)
    judged = 0
    for edit in search.candidates():
        if judged >= CANDIDATES:
            break
        try:
            candidate = edit.apply(game)
        except (IndexError, ValueError):
            continue
        judged += 1
        decision = search._may_improve(candidate)
        expected = _by_counting(game, candidate, rules)
        assert decision == (True if expected is None else expected), edit.text
        if expected is None:
            continue
        pairs = enumerate(zip(game.hands, candidate.hands, strict=True))
        h = next(i for i, (x, y) in pairs if x is not y)
        # The comparison itself: new and gone are the two multiset differences, and the
        # record's errors gathered from the first replay are those of a replay from hand h.
        old, new = _from(_counted(game, rules), h), _from(_counted(candidate, rules), h)
        before = search.index.hands[h].before if h else None
        baseline = Baseline.of(game, None, h, before, rules)
        assert search._baseline(h).found == baseline.found
        change = compare(baseline, candidate, h, before, rules)
        assert Counter(key(d) for d in change.new) == new - old
        assert Counter(change.gone) == old - new
        if h:  # the state before hand h found by compare itself: the same judgement
            assert compare(baseline, candidate, h, None, rules) == change
    assert judged > 5


def test_the_search_knows_each_deal_as_the_replay_does() -> None:
    """Each hand's Deal: the cards the replay dealt, of which only a rebuilt deal's guesses are
    unknown; a deal written whole has none."""
    guessed = 0
    for _, game in CORRUPT:
        rules = game.ruleset()
        infos = iter(_Search(game, rules, validate(game, rules), 1, 1).index.hands)
        for state, ev in replay(game, rules, moves=False):
            if not isinstance(ev, HandStart):
                continue
            dealt = next(infos).dealt
            assert dealt.hands() == list(ev.deal)
            hand = game.hands[ev.hand_index]
            if hand.deal is not None and all(d.unknown == 0 for d in hand.deal):
                assert not any(dealt.unknown)
            else:
                assert tuple(dealt.known) == state.hand.deal.known  # type: ignore[union-attr]
                guessed += any(dealt.unknown)
    assert guessed > 5
