"""zfrec.baseline.new_errors against the ways it was written before (tests/baseline_reference):
disputes (the record's errors before the disputed move), the live judge (the record's errors,
by code and message), each over whole-game replays, on the samples and the broken samples."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.baseline_reference import Verdict, old_disputes, old_live_first_new
from zfrec.baseline import new_errors, parting
from zfrec.games.zhengfen.analysis.disputes import DISPUTE_EXAMPLE, SOLVE_BUDGET, judge_disputes
from zfrec.games.zhengfen.engine.cards import FULL_DECK, Cards
from zfrec.games.zhengfen.solver import Budget
from zfrec.record import Game, iter_records, loads
from zfrec.record.model import AltPlay, Move, Trick

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
PATHS = sorted(
    p for p in SAMPLES.rglob("*") if p.suffix in (".zfn", ".json") and "schema" not in p.name
)


def _records() -> list[tuple[str, Game]]:
    out = []
    for path in PATHS:
        for i, game in enumerate(iter_records(path, recover=True)):
            if isinstance(game, Game) and game.hands:
                out.append((f"{path.relative_to(SAMPLES)}#{i}", game))
    return out


RECORDS = dict(_records())


def _disputed(game: Game) -> Game:
    """`game` with some moves disputed (every 11th, at least three): a play with the versions
    pass and a card the move does not have, a pass with the version of a play."""
    total = sum(len(t.moves) for h in game.hands for t in h.tricks)
    every = max(1, min(11, total // 3))
    hands = []
    count = 0
    for hand in game.hands:
        tricks = []
        for trick in hand.tricks:
            moves = []
            for move in trick.moves:
                count += 1
                if count % every == 0 and not move.alternatives:
                    other = FULL_DECK & ~move.cards
                    card = AltPlay(False, Cards(other & -other))
                    alts = (card,) if move.is_pass else (AltPlay(is_pass=True), card)
                    move = replace(move, disputed=True, alternatives=alts)
                moves.append(move)
            tricks.append(replace(trick, moves=moves))
        hands.append(replace(hand, tricks=tricks))
    return replace(game, hands=hands)


def _new(game: Game, budget: Budget | None) -> list[list[Verdict]]:
    out = []
    for d in judge_disputes(game, solve_budget=budget):
        out.append(
            [(v.play, v.legal, v.errors, d.points(v), d.totals(v), v.best) for v in d.versions]
        )
    return out


def test_the_disputes_of_the_samples_agree_with_whole_game_replays() -> None:
    for game in (loads(DISPUTE_EXAMPLE)[0], RECORDS["broken/disputed-version.zfn#0"]):
        assert _new(game, SOLVE_BUDGET) == old_disputes(game, SOLVE_BUDGET)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_made_up_disputes_agree_with_whole_game_replays(name: str) -> None:
    game = _disputed(RECORDS[name])
    new, old = _new(game, None), old_disputes(game, None)
    assert new == old
    assert new, "no dispute was made up"


def _open_end(game: Game) -> Game:
    """The record as a live table holds it mid-hand: no score line on its last hand, no result."""
    last = replace(game.hands[-1], score=None)
    return replace(game, hands=[*game.hands[:-1], last], result=None)


def _entries(game: Game) -> list[Move]:
    """Moves a table could enter next: each seat passing, and playing a few single cards."""
    out = []
    for seat in range(len(game.players)):
        out.append(Move.passes(seat))
        for card in (0, 1, 44, 52):  # 3s, 3h, a king, the small joker
            out.append(Move.plays(seat, 1 << card, ()))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_the_live_judges_answers_agree_with_whole_game_replays(name: str) -> None:
    record = _open_end(RECORDS[name])
    h = len(record.hands) - 1
    last = record.hands[h]
    checked = 0
    for move in _entries(record):
        for new_line in (False, True):
            tricks = list(last.tricks)
            if new_line or not tricks:
                tricks.append(Trick([move]))
            else:
                tricks[-1] = replace(tricks[-1], moves=[*tricks[-1].moves, move])
            candidate = replace(record, hands=[*record.hands[:h], replace(last, tricks=tricks)])
            assert parting(record, candidate) is None  # an entry only adds
            found = new_errors(record, candidate, h)
            assert found == new_errors(record, candidate, 0)
            first = (found[0].code, found[0].message) if found else None
            assert first == old_live_first_new(record, candidate)
            checked += 1
    assert checked
