"""zfrec.render.gamefiles: how often the walk from a record to its files climbs back to the start.

A climb is a replay from the record's first hand. The page's walk is one; the disputes are judged
in that walk (zfrec.games.zhengfen.analysis.disputes.DisputeJudge), each other version replayed
from its disputed hand on, which climbs back only where that hand is the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from zfrec.games.zhengfen.analysis.disputes import DISPUTE_EXAMPLE, disputed_moves
from zfrec.games.zhengfen.replayer import _Replayer
from zfrec.record import Game, iter_records, load, loads
from zfrec.render.gamefiles import game_files

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


@pytest.fixture
def climbs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The hand each replay started at (0: a climb back to the start), counted by the real
    replay as it runs."""
    started: list[int] = []
    run = _Replayer.run

    def counted(self: _Replayer) -> Iterator[object]:
        started.append(0 if self.start is None else self.start[0])
        return run(self)

    monkeypatch.setattr(_Replayer, "run", counted)
    return started


def _disputed_records() -> list[tuple[str, Game]]:
    out = [("DISPUTE_EXAMPLE", loads(DISPUTE_EXAMPLE)[0])]
    for path in sorted(SAMPLES.rglob("*.zfn")):
        for i, game in enumerate(iter_records(path, recover=True)):
            if isinstance(game, Game) and any(True for _ in disputed_moves(game)):
                out.append((f"{path.name}#{i}", game))
    return out


def _later_hand_dispute() -> Game:
    """A two-hand sample with hand 2's first trick's second move disputed, another version
    being a pass."""
    [game] = load(SAMPLES / "05-full-game-to-500.zfn")
    assert isinstance(game, Game) and len(game.hands) > 1
    text = (SAMPLES / "05-full-game-to-500.zfn").read_text(encoding="utf-8")
    hand2 = game.hands[1].tricks[0].moves[1]
    assert hand2.pos is not None and not hand2.is_pass
    lines = text.split("\n")
    line = lines[hand2.pos.line - 1]
    col = hand2.pos.col - 1
    end = line.find("  ", col)
    end = len(line) if end < 0 else end
    lines[hand2.pos.line - 1] = line[:end] + " disputed or -" + line[end:]
    [edited] = loads("\n".join(lines))
    assert isinstance(edited, Game)
    return edited


@pytest.mark.parametrize("name", [n for n, _ in _disputed_records()])
def test_the_files_of_a_disputed_record_climb_back_at_most_three_times(
    name: str, climbs: list[int]
) -> None:
    record = dict(_disputed_records())[name]
    climbs.clear()
    files = game_files(record, charts=False)
    assert any(f.path == "index.html" for f in files)
    versions = sum(len(m.versions()) for _, _, _, m in disputed_moves(record))
    assert climbs.count(0) <= 3
    # One walk, and one replay per version other than the recorded one.
    assert len(climbs) == 1 + versions - len(list(disputed_moves(record)))


def test_a_dispute_in_a_later_hand_is_judged_from_that_hand_on(climbs: list[int]) -> None:
    record = _later_hand_dispute()
    [(h, _, _, _)] = list(disputed_moves(record))
    climbs.clear()
    game_files(record, charts=False)
    assert climbs == [0, h] and h == 1
