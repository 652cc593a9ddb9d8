"""The JSON printed by `--json` is a contract (ANALYSIS.md, STORE.md, README): golden outputs.

Each test runs a command over the sample records and compares the printed text, byte for byte,
with a file under tests/golden/. The files were written by the hand-written `to_json` methods
before the reports were serialised by pydantic (issue 12), so they pin every key, its order and
every value. Only what cannot repeat is masked: timings, paths of temporary files, import times.

To rewrite the files after a deliberate change of a shape: `ZFREC_UPDATE_GOLDEN=1 pytest
tests/test_json_shapes.py`, and review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.zhengfen.analysis.audit import audit
from zfrec.record import dumps, load

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
GOLDEN = Path(__file__).resolve().parent / "golden"
VALID = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".zfn", ".json"))
BROKEN = sorted(p for p in (SAMPLES / "broken").iterdir() if p.suffix in (".zfn", ".json"))
# Records the strict readers refuse (a syntax error, a schema error, unreadable moves).
READABLE_BROKEN = [
    p for p in BROKEN if p.stem not in ("syntax-error", "schema-error", "four-mistakes")
]
DISPUTED = SAMPLES / "broken" / "disputed-version.zfn"  # legal as written; a version is not
WARNED = SAMPLES / "broken" / "hand-number-skipped.zfn"  # legal as written, warned only (ZF406)
FAILING = [p for p in READABLE_BROKEN if p not in (DISPUTED, WARNED)]
UPDATE = os.environ.get("ZFREC_UPDATE_GOLDEN") == "1"
runner = CliRunner()


def _masked(data: Any, dirs: tuple[Path, ...]) -> Any:
    """The printed data with what cannot repeat replaced by a fixed word."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key in ("seconds", "imported_at") and value is not None:
                out[key] = "<masked>"
            else:
                out[key] = _masked(value, dirs)
        return out
    if isinstance(data, list):
        return [_masked(v, dirs) for v in data]
    if isinstance(data, str):
        for d in dirs:
            data = data.replace(str(d), "<root>" if d == ROOT else "<tmp>")
    return data


def _check(name: str, args: list[str], codes: tuple[int, ...], *tmp: Path) -> Any:
    result = runner.invoke(app, args)
    assert result.exit_code in codes, result.output
    data = json.loads(result.stdout)
    # The CLI prints with print_json: indent 2, no ASCII escapes. The masked text is compared.
    # The checkout's own path never shows: records are named by absolute paths here.
    text = json.dumps(_masked(data, (ROOT, *tmp)), ensure_ascii=False, indent=2) + "\n"
    path = GOLDEN / f"{name}.json"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with ZFREC_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")
    return data


# The costs' solves bounded by their node budget alone (COST_BUDGET.nodes), not by the clock:
# on a loaded machine a solve that takes milliseconds could pass the 2 seconds and its cost
# come out null. (The positions of the samples are all solved well within the nodes.)
NODES_ONLY = ["--solve-seconds", "3600"]


# The game to 500 is pinned by one of its hands below: its whole analysis is a megabyte.
@pytest.mark.parametrize(
    "path",
    [p for p in VALID if not p.name.startswith("05")] + READABLE_BROKEN,
    ids=lambda p: p.name,
)
def test_analyze_json(path: Path) -> None:
    prefix = "broken-" if path.parent.name == "broken" else ""
    args = ["analyze", str(path), "--json", *NODES_ONLY]
    data = _check(f"analyze/{prefix}{path.stem}", args, (0,))
    for game in data["games"]:
        # the shape ANALYSIS.md documents, whatever the record
        assert set(game) >= {"game", "players", "seats", "notes", "points_flow", "hands"}
        for hand in game["hands"]:
            for d in hand["decisions"]:
                assert d["player"] in game["players"]


def test_analyze_json_of_one_hand() -> None:
    path = SAMPLES / "05-full-game-to-500.zfn"
    args = ["analyze", str(path), "--json", "--hand", "2", *NODES_ONLY]
    data = _check("analyze/05-hand-2", args, (0,))
    [game] = data["games"]
    assert [h["hand"] for h in game["hands"]] == [2]
    assert {n["hand"] for n in game["notes"]} <= {2}


@pytest.mark.parametrize("path", VALID + BROKEN, ids=lambda p: p.name)
def test_validate_json(path: Path) -> None:
    prefix = "broken-" if path.parent.name == "broken" else ""
    data = _check(f"validate/{prefix}{path.stem}", ["validate", str(path), "--json"], (0, 1))
    assert data["files"][0]["path"].endswith(path.name)


@pytest.mark.slow
@pytest.mark.parametrize("path", FAILING, ids=lambda p: p.name)
def test_audit_and_diff_json(path: Path, tmp_path: Path) -> None:
    """The audit of each broken sample, and the diff of the record against its best repair."""
    data = _check(f"audit/{path.stem}", ["audit", str(path), "--json"], (1,))
    assert data["games"][0]["legal"] is False
    [game] = load(path)
    report = audit(game)
    if not report.repairs:
        return
    fixed = tmp_path / "fixed.zfn"
    fixed.write_text(dumps(report.repairs[0].record), encoding="utf-8")
    _check(f"diff/{path.stem}", ["diff", str(path), str(fixed), "--json"], (0, 1))


def test_audit_json_of_a_dispute() -> None:
    """The dispute sample: legal as written, its `or Jc` version illegal where Mei plays the Jc
    herself, later in the hand; the disputes are judged although the record is legal."""
    data = _check(f"audit/{DISPUTED.stem}", ["audit", str(DISPUTED), "--json"], (0,))
    [game] = data["games"]
    assert game["legal"] is True and game["repairs"] == []
    lines = DISPUTED.read_text(encoding="utf-8").splitlines()
    disputed_line = next(i for i, t in enumerate(lines, 1) if " or Jc" in t)
    later_jc = next(i for i, t in enumerate(lines, 1) if "1: Jc" in t)
    [dispute] = game["disputes"]
    assert set(dispute) == {"line", "col", "note", "versions"}
    assert (dispute["line"], dispute["note"]) == (disputed_line, "Mei says it was the Jc")
    recorded, other = dispute["versions"]
    assert set(recorded) == {"play", "recorded", "legal", "first_error", "points", "totals", "best"}
    assert (recorded["play"], recorded["recorded"], recorded["legal"]) == ("Js", True, True)
    assert recorded["first_error"] is None
    # the recorded version's points and totals are the ones the score line states
    score = next(t for t in lines if t.startswith("score ")).split()
    assert list(recorded["points"].values()) == [int(x) for x in score[1:4]]
    assert list(recorded["totals"].values()) == [int(x) for x in score[5:8]]
    assert list(recorded["points"]) == game["players"]
    assert (other["play"], other["recorded"], other["legal"]) == ("Jc", False, False)
    assert other["points"] is None and other["totals"] is None
    error = other["first_error"]
    assert (error["line"], error["col"]) == (later_jc, lines[later_jc - 1].index("1: Jc") + 1)
    assert error["code"] in ("ZF301", "ZF302") and "Jc" in error["message"]


def test_diff_json_of_two_witnesses(tmp_path: Path) -> None:
    """A record that leaves passes out against one that writes a different play."""
    source = SAMPLES / "02-three-players.zfn"
    text = source.read_text(encoding="utf-8")
    a = tmp_path / "a.zfn"
    a.write_text(text, encoding="utf-8")
    same = _check("diff/same", ["diff", str(source), str(a), "--json"], (0,))
    assert same["games"][0]["same"] is True and same["games"][0]["first_divergence"] is None
    b = tmp_path / "b.zfn"
    b.write_text(re.sub(r'\[Players "([^,"]+)', r'[Players "\1X', text, count=1), "utf-8")
    other = _check("diff/renamed", ["diff", str(source), str(b), "--json"], (1,))
    assert other["games"][0]["header"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    tmp = tmp_path_factory.mktemp("store")
    url = f"sqlite:///{tmp / 'club.db'}"
    files = [str(p) for p in VALID + FAILING]
    result = runner.invoke(app, ["import", "--db", url, "--json", *files])
    assert result.exit_code == 1, result.output  # the broken records have findings
    return url, tmp


def test_store_json(store: tuple[str, Path]) -> None:
    url, tmp = store
    again = ["import", "--db", url, "--json", *(str(p) for p in VALID + FAILING)]
    _check("store/import", again, (0,), tmp)
    rows = _check("store/games", ["games", "--db", url, "--json"], (0,))
    assert rows and all(r["id"] for r in rows)
    for row in rows[:3] + [r for r in rows if not r["valid"]][:2]:
        show = ["show", str(row["id"]), "--db", url, "--json"]
        _check(f"store/show-{row['id']}", show, (0,), tmp)


@pytest.mark.slow
def test_store_stats_json(store: tuple[str, Path]) -> None:
    url, _ = store
    stats = _check("store/stats", ["stats", "--db", url, "--json"], (0,))
    assert all(p["analysis"]["name"] == p["name"] for p in stats)
    _check("store/stats-valid-north", ["stats", "--db", url, "--json", "-p", "north",
                                       "--valid-only"], (0,))  # fmt: skip
