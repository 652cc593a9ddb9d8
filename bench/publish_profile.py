"""`python -m bench.publish_profile`: a cProfile of exactly one `publish_hands_per_s` run.

The bench's run is a fresh store of a quarter of its corpus (the first of four files of 240
self-play games, some 900 hands), published with one worker and the solver's marks, in a
process that has published before (the figure is the fastest of three): so one publish runs
first unmeasured, then a fresh store is published under the profiler. `--no-time-budgets` lifts
the solver's wall-clock budgets (under a profiler or valgrind they could cut the work short; at
native speed the bench's positions never reach them), so the work profiled is the bench's.

    .venv/bin/python -m bench.publish_profile --games 48 --top 25    # a smaller corpus
    .venv/bin/python -m bench.publish_profile --no-time-budgets --out pub.prof

`--callgrind` runs the same publish without the profiler, marked for callgrind by a call of
`sys.getswitchinterval()` just before it and just after it (nothing in a publish calls it):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --dump-before=_PyEval_GetSwitchInterval \
        .venv/bin/python -m bench.publish_profile --callgrind --no-time-budgets

dumps the counts of everything before the publish (callgrind.out.PID.1), then of the publish
alone (callgrind.out.PID.2): its instructions over the hands printed are a hand's.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import shutil
import sys
import tempfile
from pathlib import Path

from bench.__main__ import build_corpus
from bench.publish_bench import _store, publish_site
from zfrec.cli.render_cmds import SOLVE_CARDS
from zfrec.gctuning import tune_gc
from zfrec.record import load


def lift_time_budgets() -> None:
    """No wall-clock limit on the pages' solving: only the node and table limits stay."""
    from zfrec.games.zhengfen.analysis import costs
    from zfrec.games.zhengfen.pages import analysis

    # the names analysed_view reads when it makes its CostFinder
    analysis.PAGE_SECONDS = None  # type: ignore[assignment]
    analysis.COST_BUDGET = dataclasses.replace(costs.COST_BUDGET, seconds=None)  # type: ignore[attr-defined]


def _after_a_first(folder: Path, games: int, solve_cards: int) -> tuple[str, int]:
    """A fresh store of the corpus's first file, after one publish of it: the store and its
    hands (the site goes to folder/site)."""
    files, _ = build_corpus(folder / "corpus", games)
    first = files[:1]  # as bench/__main__.py's publishing step
    hands = sum(len(g.hands) for g in load(first[0]))
    site = folder / "site"
    publish_site(_store(folder, first), site, jobs=1, solve_cards=solve_cards)
    shutil.rmtree(site)
    return _store(folder, first), hands  # a fresh store: nothing rendered is cached


def profile_publish(folder: Path, games: int, solve_cards: int) -> tuple[pstats.Stats, int]:
    """The profile of one publish after a first one, and the hands published."""
    db, hands = _after_a_first(folder, games, solve_cards)
    profiler = cProfile.Profile()
    profiler.enable()
    publish_site(db, folder / "site", jobs=1, solve_cards=solve_cards)
    profiler.disable()
    return pstats.Stats(profiler), hands


def marked_publish(folder: Path, games: int, solve_cards: int) -> int:
    """The same publish, unprofiled, between two calls of `sys.getswitchinterval()` (the marks
    callgrind's --dump-before=_PyEval_GetSwitchInterval dumps at); the hands published."""
    db, hands = _after_a_first(folder, games, solve_cards)
    sys.getswitchinterval()
    publish_site(db, folder / "site", jobs=1, solve_cards=solve_cards)
    sys.getswitchinterval()
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="games in the corpus (bench: 240)")
    parser.add_argument("--solve-cards", type=int, default=SOLVE_CARDS)
    parser.add_argument("--no-time-budgets", action="store_true")
    parser.add_argument("--top", type=int, default=30, help="entries to print, by own time")
    parser.add_argument("--out", type=Path, help="write the profile here (pstats format)")
    parser.add_argument(
        "--callgrind", action="store_true", help="no profile: mark the publish for callgrind"
    )
    args = parser.parse_args()
    tune_gc()  # as `python -m bench`
    if args.no_time_budgets:
        lift_time_budgets()
    if args.callgrind:
        with tempfile.TemporaryDirectory() as tmp:
            hands = marked_publish(Path(tmp), args.games, args.solve_cards)
        print(f"{hands} hands published between the marks")
        return
    with tempfile.TemporaryDirectory() as tmp:
        stats, hands = profile_publish(Path(tmp), args.games, args.solve_cards)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"{hands} hands, {total:.2f} s profiled, {total / hands * 1000:.2f} ms a hand")
    if args.out is not None:
        stats.dump_stats(args.out)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
