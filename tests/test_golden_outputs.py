"""Zheng Fen's outputs of every sample stay byte-identical (issue 29: the game seam changes
nothing for Zheng Fen): `validate --json`, `analyze --json`, `convert`, `fmt`, every file
`render` writes, and the site `publish` makes of a store holding them all, hashed (sha256)
against tests/golden/outputs/manifest.json.

The manifest was written before the seam and checked against the CLI's outputs then
(only file contents and printed output, temporary paths and timings masked). To rewrite it after a
deliberate change: `ZFREC_UPDATE_GOLDEN=1 pytest tests/test_golden_outputs.py`, and review.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
MANIFEST = Path(__file__).resolve().parent / "golden" / "outputs" / "manifest.json"
UPDATE = os.environ.get("ZFREC_UPDATE_GOLDEN") == "1"
runner = CliRunner()

RECORDS = sorted(
    p.relative_to(SAMPLES).as_posix()
    for p in SAMPLES.rglob("*")
    if p.suffix in (".zfn", ".json") and p.is_file() and "shengji" not in p.parts  # Zheng Fen's
)
_SECONDS = re.compile(rb'"(seconds|imported_at)": [^,\n}]+')


def _sha(data: bytes) -> str:
    return hashlib.sha256(_SECONDS.sub(rb'"\1": "<masked>"', data)).hexdigest()


def _outputs(name: str, tmp: Path) -> dict[str, str]:
    """Every output of one sample, by what it is, as sha256 digests."""
    out: dict[str, str] = {}
    for command in ("validate", "analyze"):
        result = runner.invoke(app, [command, "--json", name])
        out[f"{name} {command} --json ({result.exit_code})"] = _sha(result.stdout_bytes)
    converted = tmp / ("converted.zfn" if name.endswith(".json") else "converted.json")
    result = runner.invoke(app, ["convert", name, str(converted)])
    if converted.exists():
        out[f"{name} convert ({result.exit_code})"] = _sha(converted.read_bytes())
    copy = tmp / Path(name).name
    shutil.copy(name, copy)
    result = runner.invoke(app, ["fmt", str(copy)])
    out[f"{name} fmt ({result.exit_code})"] = _sha(copy.read_bytes())
    pages = tmp / "pages"
    result = runner.invoke(app, ["render", name, "-o", str(pages)])
    out[f"{name} render ({result.exit_code})"] = _sha(result.stdout_bytes.replace(bytes(tmp), b""))
    for path in sorted(pages.rglob("*")) if pages.exists() else ():
        if path.is_file():
            out[f"{name} render {path.relative_to(pages).as_posix()}"] = _sha(path.read_bytes())
    return out


def _site(tmp: Path) -> dict[str, str]:
    """Every file `publish` makes of a store holding every sample; not the site's manifest,
    which names the renderer's code (zfrec.render.gamefiles.renderer_fingerprint)."""
    db = f"sqlite:///{tmp / 'store.db'}"
    result = runner.invoke(app, ["import", "--db", db, *RECORDS])
    out = {f"import ({result.exit_code})": _sha(result.stdout_bytes.replace(bytes(tmp), b""))}
    result = runner.invoke(app, ["games", "--db", db, "--json"])
    out[f"games --json ({result.exit_code})"] = _sha(result.stdout_bytes)
    site = tmp / "site"
    result = runner.invoke(app, ["publish", "--db", db, "-o", str(site)])
    out[f"publish ({result.exit_code})"] = str(result.exit_code)
    for path in sorted(site.rglob("*")):
        if path.is_file() and path.name != ".zfrec-site.json":
            out[f"publish {path.relative_to(site).as_posix()}"] = _sha(path.read_bytes())
    return out


@pytest.mark.slow
def test_every_output_of_every_sample_is_as_before_the_seam(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(SAMPLES)
    found: dict[str, str] = {}
    for i, name in enumerate(RECORDS):
        work = tmp_path / str(i)
        work.mkdir()
        found.update(_outputs(name, work))
    found.update(_site(tmp_path))
    if UPDATE:
        MANIFEST.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(MANIFEST.read_text(encoding="utf-8"))
    changed = sorted(k for k in expected.keys() | found.keys() if expected.get(k) != found.get(k))
    assert not changed, f"{len(changed)} output(s) changed: {changed[:10]}"
    assert len(found) > 600  # pages, replays and charts of every sample, not a few stray files
