"""Sheng ji validation throughput, parse included, as `zfrec validate` judges a file.

- `sj_validate_hands_per_s`: rounds (a Sheng ji hand is a round) per second;
- `sj_validate_moves_per_s`: plays per second (a move is one seat's play; a throw is one);
- `sj_ratio_vs_python_chess`: those moves per second over python-chess's plies per second,
  measured back to back in the same run (bench/__main__.py), target 5 or more.

The corpus is greedy self-play of whole matches with a fixed seed, the three presets mixed,
written as .zfn files in the bench corpus folder.

    .venv/bin/python -m bench.sj_validate_bench [--quick]      # prints the figures as JSON
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.chess_bench import random_pgn, read_plies_per_s
from bench.validate_bench import validate_rate
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.simrecords import match_to_record

SEED = 20261128
TARGETS: dict[str, tuple[str, float]] = {"sj_ratio_vs_python_chess": (">=", 5)}


def build_sj_corpus(folder: Path, matches: int) -> list[Path]:
    """Whole greedy matches, bashi fen, da bai fen and zhao pengyou (5 seats) in turn."""
    folder.mkdir(parents=True, exist_ok=True)
    presets = [sj_preset(), sj_preset("dabaifen"), sj_preset("zhaopengyou", players=5)]
    records = []
    for i in range(matches):
        rules = presets[i % len(presets)]
        match = play_match(rules, SEED + i, ["greedy"] * rules.players, max_rounds=60)
        records.append(match_to_record(match))
    path = folder / "sj-corpus.zfn"
    path.write_text(dumps_sj(records), encoding="utf-8")
    return [path]


def sj_validate_figures(files: list[Path], runs: int = 3) -> dict[str, float]:
    """Hands/s and moves/s over the files: the fastest of `runs` runs."""
    hands, moves = max(validate_rate(files, 1) for _ in range(runs))
    return {"sj_validate_hands_per_s": hands, "sj_validate_moves_per_s": moves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    folder = Path(__file__).resolve().parent / "corpus"
    files = build_sj_corpus(folder, 3 if quick else 30)
    pgn = random_pgn(20 if quick else 400, SEED)
    runs = 1 if quick else 3
    chess = max(read_plies_per_s(pgn) for _ in range(runs))
    out = sj_validate_figures(files, runs)
    out["python_chess_plies_per_s"] = chess
    out["sj_ratio_vs_python_chess"] = out["sj_validate_moves_per_s"] / chess
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
