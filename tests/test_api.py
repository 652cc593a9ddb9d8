"""The public API a newcomer meets first: `import zfrec` (README.md, Library use)."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest

import zfrec

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "02-three-players.zfn"


def test_the_readme_names_work() -> None:
    game = next(zfrec.load(SAMPLE))
    assert isinstance(zfrec.validate, types.ModuleType)
    assert isinstance(zfrec.replay, types.ModuleType)
    report = zfrec.validate.validate(game)
    assert report.ok
    events = list(zfrec.replay.replay(game))
    assert isinstance(events[-1][1], zfrec.replay.GameEnd)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = zfrec.nothing


def test_import_zfrec_stays_light() -> None:
    code = (
        "import sys, zfrec; "
        "print(sorted(m for m in ('zfrec.validate', 'zfrec.replay', 'zfrec.record') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
