"""Publishing Sheng ji: rounds per second of a whole `zfrec publish` of Sheng ji matches.

`sj_publish_hands_per_s` is the whole publish of a fresh store (nothing cached) with one
worker and `zfrec publish`'s default options, as `publish_hands_per_s` is for Zheng Fen: every
match page with its two charts (SVG and PNG), every round's replay, the index (one per game
and the whole), the Sheng ji statistics, the player pages and the viewer, written atomically
to disk. The corpus is self-play from `zfrec simulate --game shengji` with default settings
(bashi fen, the greedy bot), stored before the clock starts; a "hand" is a round.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bench.publish_bench import _store, publish_site
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.simrecords import match_to_record

SEED = 20261128


def sj_corpus(folder: Path, matches: int, seed: int = SEED) -> tuple[Path, int]:
    """`matches` self-play matches, as `zfrec simulate --game shengji` writes them."""
    folder.mkdir(parents=True, exist_ok=True)
    rules = sj_preset()
    records = [
        match_to_record(play_match(rules, seed + i, ["greedy"] * rules.players))
        for i in range(matches)
    ]
    path = folder / f"sj-publish-{matches}.zfn"
    path.write_text(dumps_sj(records), encoding="utf-8")
    return path, sum(len(r.rounds) for r in records)


def sj_publish_figures(folder: Path, quick: bool) -> dict[str, float]:
    """The rate (rounds a second) of a fresh one-worker publish, the fastest of the runs."""
    work = folder / "sj-publish"
    path, rounds = sj_corpus(work, 2 if quick else 12)
    best = None
    for _ in range(1 if quick else 3):
        db = _store(work, [path])  # a fresh store each run: nothing cached
        out = work / "site"
        shutil.rmtree(out, ignore_errors=True)
        seconds = publish_site(db, out, 1)
        best = seconds if best is None else min(best, seconds)
    assert best is not None
    return {"sj_publish_hands_per_s": rounds / best, "sj_publish_rounds": float(rounds)}


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        print(sj_publish_figures(Path(tmp), "--quick" in sys.argv))
