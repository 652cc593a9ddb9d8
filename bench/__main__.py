"""`python -m bench [--quick]`: every figure in one run, printed as a table and written to
bench/results.json. The corpus is self-play with a fixed seed, so runs compare."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.chess_bench import random_pgn, read_plies_per_s
from bench.engine_bench import engine_figures
from bench.parse_bench import parse_hands_per_s
from bench.solve_bench import TARGETS as SOLVE_TARGETS
from bench.solve_bench import solve_figures
from bench.validate_bench import validate_rate
from zfrec.cli.common import tune_gc
from zfrec.engine.rules import preset
from zfrec.record import dumps, load
from zfrec.simulate import SimConfig, simulate_game

HERE = Path(__file__).resolve().parent
SEED = 20261121
console = Console()


def build_corpus(folder: Path, games: int) -> tuple[list[Path], int]:
    """Greedy self-play games to 500 for 3-6 seats and the three presets, in four files."""
    folder.mkdir(parents=True, exist_ok=True)
    configs = [
        SimConfig(n, preset(name), "greedy", None)
        for n in (3, 4, 5, 6)
        for name in ("pagat", "poppel", "parlett")
    ]
    records = [simulate_game(configs[i % len(configs)], SEED + i) for i in range(games)]
    files = []
    for part in range(4):
        path = folder / f"corpus-{part}.zfn"
        path.write_text(dumps(records[part::4]), encoding="utf-8")
        files.append(path)
    return files, sum(len(g.hands) for g in records)


def stream_peak_rss_mb(files: list[Path], min_hands: int, folder: Path) -> tuple[float, int]:
    """Peak memory of `zfrec validate` on one file of at least `min_hands` hands."""
    text = "".join(p.read_text(encoding="utf-8") + "\n" for p in files)
    per_copy = sum(len(g.hands) for p in files for g in load(p))
    copies = max(1, -(-min_hands // per_copy))
    big = folder / "stream.zfn"
    with big.open("w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write(text)
    # wait4 gives this child's own peak, not that of every earlier child (the --jobs workers).
    child = subprocess.Popen(
        [sys.executable, "-m", "zfrec", "validate", str(big)], stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError("the streamed corpus must validate clean")
    peak_kb = usage.ru_maxrss
    big.unlink()
    return peak_kb / 1024, copies * per_copy


def simulate_rate(hands_wanted: int) -> float:
    start, hands, i = time.perf_counter(), 0, 0
    while hands < hands_wanted:
        game = simulate_game(SimConfig(4, preset("pagat"), "greedy", 5), SEED + i)
        hands += len(game.hands)
        i += 1
    return hands / (time.perf_counter() - start)


def optional(name: str) -> Callable[..., float] | None:
    """Benchmarks of parts that may not exist yet (store, renderer): None until they do."""
    try:
        module = __import__(f"bench.{name}_bench", fromlist=["x"])
    except ImportError:
        return None
    fn: Callable[..., float] = getattr(module, f"{name}_hands_per_s")
    return fn


def run(quick: bool) -> dict[str, Any]:
    corpus_dir = HERE / "corpus"
    results: dict[str, Any] = {}
    steps: list[tuple[str, Callable[[], None]]] = []
    state: dict[str, Any] = {}

    def corpus() -> None:
        state["files"], state["hands"] = build_corpus(corpus_dir, 12 if quick else 240)

    def engine() -> None:
        results.update(engine_figures(quick))

    def parse() -> None:
        rates = [parse_hands_per_s(p, 0.05 if quick else 0.5) for p in state["files"]]
        results["parse_hands_per_s"] = sum(rates) / len(rates)

    def peer_and_validate() -> None:
        # Back to back in one process, so the machine's noise affects both alike.
        pgn = random_pgn(20 if quick else 400, SEED)
        results["python_chess_plies_per_s"] = read_plies_per_s(pgn)
        hands, moves = validate_rate(state["files"], 1)
        results["validate_hands_per_s"], results["validate_moves_per_s"] = hands, moves
        results["ratio_vs_python_chess"] = moves / results["python_chess_plies_per_s"]

    def jobs2() -> None:
        results["validate_jobs2_hands_per_s"] = validate_rate(state["files"], 2)[0]

    def stream() -> None:
        rss, hands = stream_peak_rss_mb(state["files"], 500 if quick else 200_000, corpus_dir)
        results["stream_peak_rss_mb"], results["stream_hands"] = rss, hands

    def simulate() -> None:
        results["simulate_hands_per_s"] = simulate_rate(20 if quick else 600)

    def store_and_render() -> None:
        importer, renderer = optional("import"), optional("render")
        results["import_hands_per_s"] = importer(state["files"]) if importer else None
        games = [g for p in state["files"] for g in load(p)]
        results["render_hands_per_s"] = renderer(games) if renderer else None

    steps = [
        ("self-play corpus", corpus),
        ("engine micro-benchmarks", engine),
        ("parse only", parse),
        ("python-chess, then validate", peer_and_validate),
        ("validate --jobs 2", jobs2),
        ("streamed validation memory", stream),
        ("simulate", simulate),
        ("import and render", store_and_render),
        ("hindsight solver", lambda: results.update(solve_figures(quick))),
    ]
    with console.status("benchmarking") as status:
        for label, step in steps:
            status.update(f"benchmarking: {label}")
            step()
    results["corpus_hands"] = state["hands"]
    results["quick"] = quick
    return results


TARGETS = {
    "classify_declared_us": ("<=", 3),
    "classify_inferred_us": ("<=", 20),
    "lead_enum_worst_us": ("<=", 100),
    "lead_enum_physical_worst_us": ("<=", 250),
    "follow_enum_typical_us": ("<=", 10),
    "validate_hands_per_s": (">=", 5000),
    "ratio_vs_python_chess": (">=", 5),
    "stream_peak_rss_mb": ("<", 100),
    "simulate_hands_per_s": (">=", 300),
    "render_hands_per_s": (">=", 200),
    **SOLVE_TARGETS,
}


def show(results: dict[str, Any]) -> None:
    table = Table(title="zfrec benchmarks" + (" (QUICK smoke run)" if results["quick"] else ""))
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    for key, value in results.items():
        if key == "quick":
            continue
        target = TARGETS.get(key)
        shown = (
            "n/a" if value is None else f"{value:,.1f}" if isinstance(value, float) else str(value)
        )
        if target and value is not None:
            op, bound = target
            ok = {"<=": value <= bound, ">=": value >= bound, "<": value < bound}[op]
            shown = f"[{'green' if ok else 'red'}]{shown}[/]"
        table.add_row(key, shown, f"{target[0]} {target[1]}" if target else "")
    console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run on a tiny corpus")
    parser.add_argument("--out", type=Path, default=HERE / "results.json")
    args = parser.parse_args()
    tune_gc()  # as the zfrec command does, so the figures are what users get
    results = run(args.quick)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    show(results)
    console.print(f"written to {args.out}")


if __name__ == "__main__":
    main()
