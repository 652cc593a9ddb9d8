"""`make bench QUICK=1` must keep working: every key is present and numeric (no timing checks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

KEYS = {
    "classify_declared_us", "classify_inferred_us", "lead_enum_worst_us",
    "lead_enum_physical_worst_us", "lead_enum_physical_us_per_set", "follow_enum_typical_us",
    "parse_hands_per_s",
    "validate_hands_per_s", "validate_moves_per_s", "validate_jobs2_hands_per_s",
    "stream_peak_rss_mb", "simulate_hands_per_s", "import_hands_per_s", "render_hands_per_s",
    "python_chess_plies_per_s", "ratio_vs_python_chess", "publish_hands_per_s",
    "publish_bytes_per_hand", "publish_10k_jobs2_s", "publish_unchanged_s", "publish_10k_hands",
    "publish_nosolve_hands_per_s",
    "live_move_p50_ms", "live_move_p99_ms", "jobs2_speedup", "import_peak_rss_mb",
    "sj_live_move_p50_ms", "sj_live_move_p99_ms",
    "jobs2_files_speedup", "import_jobs2_hands_per_s",
    "solve_12_ms", "solve_16_ms", "solve_20_ms", "solve_16_nodes_per_s", "solve_peak_rss_mb",
    "solve_16_3p_ms", "solve_16_4p_ms", "costs_game_ms", "validate_json_peak_rss_mb",
    "sj_trick_judge_us", "sj_follow_enum_us", "sj_selfplay_hands_per_s", "sj_publish_hands_per_s",
    "sj_import_hands_per_s",
}  # fmt: skip
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_quick_bench_writes_every_key(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    env = {**os.environ, "ZFREC_DB": str(tmp_path / "bench.db")}
    subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(out)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results.keys() >= KEYS
    for key in KEYS:
        value = results[key]
        assert isinstance(value, int | float) and value > 0, key
    # PostgreSQL is measured when a server is named, as in the store tests.
    assert "import_pg_hands_per_s" in results
    if os.environ.get("ZFREC_TEST_PG_URL"):
        assert results["import_pg_hands_per_s"] > 0
    # Every figure with a target says whether it met it, and the missed ones are listed.
    for key, verdict in results["targets"].items():
        assert verdict["target"].split()[0] in ("<", "<=", ">="), key
        assert verdict["met"] in (True, False, None), key
    assert set(results["missed"]) == {k for k, v in results["targets"].items() if v["met"] is False}
