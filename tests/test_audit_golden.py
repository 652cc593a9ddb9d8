"""`zfrec audit` prints what it printed before repair judged candidates by zfrec.baseline:
its JSON and its text, for every Zheng Fen sample (the broken ones above all) and for a fixed set
of single corruptions of simulated games, hashed (sha256) against
tests/golden/audit-outputs/manifest.json.

The manifest was written by real runs of the CLI before repair moved onto the one baseline
comparison (only timings masked). To rewrite it after a deliberate change:
`ZFREC_UPDATE_GOLDEN=1 pytest tests/test_audit_golden.py`, and review.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_validate import mutate
from zfrec.cli import app
from zfrec.games.zhengfen.engine.rules import PRESETS, preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps
from zfrec.record.model import Game, SeatDeal
from zfrec.validate import validate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
MANIFEST = Path(__file__).resolve().parent / "golden" / "audit-outputs" / "manifest.json"
UPDATE = os.environ.get("ZFREC_UPDATE_GOLDEN") == "1"
runner = CliRunner()

RECORDS = sorted(
    p.relative_to(SAMPLES).as_posix()
    for p in SAMPLES.rglob("*")
    if p.suffix in (".zfn", ".json") and p.is_file() and "shengji" not in p.parts  # Zheng Fen's
)
# Timings: `"seconds": 0.01` in the JSON, `in 0.01 s` in the text.
_SECONDS = re.compile(rb'"seconds": [^,\n}]+|in [0-9.]+ s\b')


def _sha(data: bytes) -> str:
    return hashlib.sha256(_SECONDS.sub(b"<masked>", data)).hexdigest()


def _hidden(game: Game, partial: bool) -> Game:
    """`game` with its deals left out (the replay rebuilds them from the plays), or with only
    the first seat's cards written and the others' counted (`?N`)."""
    hands = []
    for hand in game.hands:
        deal = None
        if partial and hand.deal is not None:
            deal = (hand.deal[0], *(SeatDeal(unknown=d.size) for d in hand.deal[1:]))
        hands.append(replace(hand, deal=deal))
    return replace(game, hands=hands)


def corruptions() -> list[tuple[str, Game]]:
    """Single corruptions (tests.test_validate.mutate) of simulated games that fail validation:
    one-hand and three-hand games of every preset and table size, fixed seeds; some with the
    deals left out or partly written, so that repair meets cards the record does not place."""
    out: list[tuple[str, Game]] = []
    for i, (name, players, hands) in enumerate(
        (name, players, hands)
        for name in sorted(PRESETS)
        for players in (3, 4, 5, 6)
        for hands in (1, 3)
    ):
        for seed in range(4):
            game = simulate_game(SimConfig(players, preset(name), "random", hands), 7919 * i + seed)
            corrupt = mutate(game, random.Random(7919 * i + seed))
            label = f"{name}-{players}p-{hands}h-{seed}"
            if seed >= 2:
                corrupt = _hidden(corrupt, partial=seed == 2)
                label += "-partial" if seed == 2 else "-nodeal"
            if corrupt != game and not validate(corrupt).ok:
                out.append((label, corrupt))
    return out


def _audits(label: str, path: str, tmp: Path | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    for args in (["--json"], []):
        result = runner.invoke(app, ["audit", *args, path])
        printed = result.stdout_bytes
        if tmp is not None:  # the temporary file's name is printed
            printed = printed.replace(str(tmp).encode(), b"<tmp>")
        out[f"{label} audit {' '.join(args)}({result.exit_code})"] = _sha(printed)
    return out


@pytest.mark.slow
def test_audit_of_every_sample_and_corruption_is_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(SAMPLES)
    found: dict[str, str] = {}
    for name in RECORDS:
        found.update(_audits(name, name))
    corrupt = corruptions()
    for label, game in corrupt:
        path = tmp_path / f"{label}.zfn"
        path.write_text(dumps(game), encoding="utf-8")
        found.update(_audits(f"corrupt/{label}", str(path), tmp_path))
    if UPDATE:
        MANIFEST.parent.mkdir(parents=True, exist_ok=True)
        MANIFEST.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(MANIFEST.read_text(encoding="utf-8"))
    changed = sorted(k for k in expected.keys() | found.keys() if expected.get(k) != found.get(k))
    assert not changed, f"{len(changed)} output(s) changed: {changed[:10]}"
    assert len(corrupt) > 40  # enough corruptions that repair has work to do
