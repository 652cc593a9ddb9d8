"""Sheng ji records: parse-only throughput of the .zfn reader.

- `sj_parse_hands_per_s`: rounds (a Sheng ji hand) read per second of processor time (one
  core) from the canonical text of whole greedy self-play matches of the three presets, held
  in memory, through the generic reader (zfrec.record.zfn, the kind's body reader): tokenising
  and building the records, not the disk. No target yet (issue 29 asks
  for the figure); Zheng Fen's `parse_hands_per_s` is the one to compare it with.

    .venv/bin/python -m bench.sj_notation_bench [--quick]      # prints the figure as JSON
"""

from __future__ import annotations

import argparse
import json
import time

from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.simrecords import match_to_record
from zfrec.record.model import Game
from zfrec.record.zfn import iter_games

SEED = 20261128


def corpus(matches: int) -> list[str]:
    """The lines of `matches` whole matches, the presets in turn."""
    records = []
    for i in range(matches):
        rules = sj_preset(("bashifen", "dabaifen", "zhaopengyou")[i % 3])
        records.append(match_to_record(play_match(rules, SEED + i, ["greedy"] * rules.players)))
    return dumps_sj(records).splitlines(keepends=True)


def sj_parse_hands_per_s(lines: list[str], min_seconds: float = 0.5) -> float:
    """Rounds parsed per second of processor time, parsing `lines` until `min_seconds`."""
    rounds = 0
    start = time.process_time()
    elapsed = 0.0
    while rounds == 0 or elapsed < min_seconds:
        for item in iter_games(lines, "bench.zfn"):
            assert isinstance(item, Game), item
            rounds += len(item.rounds)
        elapsed = time.process_time() - start
    return rounds / elapsed


def sj_notation_figures(quick: bool = False) -> dict[str, float]:
    """The figures for `make bench`."""
    lines = corpus(3 if quick else 9)
    return {"sj_parse_hands_per_s": sj_parse_hands_per_s(lines, 0.1 if quick else 1.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(json.dumps(sj_notation_figures(parser.parse_args().quick), indent=2))


if __name__ == "__main__":
    main()
