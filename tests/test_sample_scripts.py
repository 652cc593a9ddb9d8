"""The scripts that write the valid samples still run, and write them byte for byte: a sample
edited by hand, or a script left behind by a change of the code, shows here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("script", "folder"),
    [
        ("make_samples.py", ROOT / "sample_games"),
        ("sj_samples.py", ROOT / "sample_games" / "shengji"),
    ],
)
def test_script_writes_the_samples(script: str, folder: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written, "the script wrote no sample"
    for name in written:
        assert (tmp_path / name).read_bytes() == (folder / name).read_bytes(), name
