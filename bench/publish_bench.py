"""Publishing a site: hands per second with one worker, a 10,000-hand site with two, page weight.

`publish_hands_per_s` is the whole `zfrec publish` of a fresh store with one worker, with its
default options (the solver's marks included, `--solve-cards 10`): every game page with its
analysis, every replay, the charts (SVG and PNG), the audit pages, the index, the player pages
and the viewer, written atomically to disk. The store is filled before the clock starts; nothing
is cached in it yet. `publish_nosolve_hands_per_s` is the same with `--solve-cards 0`.
`publish_10k_jobs2_s` is the default publish of a store of at least 10,000 hands with
`--jobs 2`, and `publish_unchanged_s` publishes that store again unchanged (every game kept from
the previous site). `publish_bytes_per_hand` is the site's size on disk over its hands.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from zfrec.cli.render_cmds import SOLVE_CARDS
from zfrec.cli.site_writer import SiteWriter
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.games.zhengfen.solver_search import forget_move_lists
from zfrec.record import dumps
from zfrec.render.site import publish
from zfrec.store.db import open_store, session
from zfrec.store.store import import_file

SEED = 20261121


def corpus(folder: Path, min_hands: int, seed: int = SEED) -> tuple[Path, int]:
    """Greedy self-play games to 500, 3 to 6 seats, until they hold `min_hands` hands."""
    folder.mkdir(parents=True, exist_ok=True)
    games, hands, i = [], 0, 0
    while hands < min_hands:
        game = simulate_game(SimConfig(3 + i % 4, preset("pagat"), "greedy", None), seed + i)
        games.append(game)
        hands += len(game.hands)
        i += 1
    path = folder / f"publish-{min_hands}.zfn"
    path.write_text(dumps(games), encoding="utf-8")
    return path, hands


def _store(folder: Path, records: list[Path]) -> str:
    db = folder / "publish.db"
    for stale in folder.glob("publish.db*"):
        stale.unlink()
    engine = open_store(str(db))
    try:
        for path in records:
            with session(engine) as s:
                import_file(s, path=path)
    finally:
        engine.dispose()
    return str(db)


def publish_site(db: str, out: Path, jobs: int, solve_cards: int = SOLVE_CARDS) -> float:
    """Seconds for one publish of the store into `out`, as `zfrec publish` does it (by default
    with its default `--solve-cards`), with no move lists kept by the solver from an earlier
    publish in this process. Its other process caches (the solver's rank shapes, the charts'
    layouts, the readers' plays) stay warm from the publishes before: not quite a new process."""
    forget_move_lists()
    engine = open_store(db)
    try:
        start = time.perf_counter()
        with session(engine) as s, SiteWriter(out) as writer:
            previous = writer.previous()
            for item in publish(s, jobs=jobs, previous=previous, solve_cards=solve_cards):
                writer.put(item)
            writer.commit()
        return time.perf_counter() - start
    finally:
        engine.dispose()


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in _files(folder))


def _files(folder: Path) -> Iterator[Path]:
    return (p for p in folder.rglob("*") if p.is_file())


def publish_figures(records: list[Path], hands: int, folder: Path, quick: bool) -> dict[str, float]:
    """The figures above. `records` and `hands`: the bench corpus, for the one-worker rate."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, float] = {}
    site = folder / "site"
    for key, cards in (("publish_nosolve_hands_per_s", 0), ("publish_hands_per_s", SOLVE_CARDS)):
        seconds = []
        for _ in range(1 if quick else 3):  # the fastest of three, as the other rates
            shutil.rmtree(site, ignore_errors=True)
            db = _store(folder, records)  # a fresh store each time: nothing rendered is cached
            seconds.append(publish_site(db, site, jobs=1, solve_cards=cards))
        out[key] = hands / min(seconds)
    out["publish_bytes_per_hand"] = _size(site) / hands
    big_hands = 200 if quick else 10_000
    big, count = corpus(folder, big_hands, SEED + 100_000)
    shutil.rmtree(site, ignore_errors=True)
    db = _store(folder, [big])
    out["publish_10k_hands"] = count
    out["publish_10k_jobs2_s"] = publish_site(db, site, jobs=2)
    out["publish_unchanged_s"] = publish_site(db, site, jobs=2)
    shutil.rmtree(site, ignore_errors=True)
    big.unlink()
    for stale in folder.glob("publish.db*"):
        stale.unlink()
    return out


def main() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, hands = corpus(folder, 300)
        for key, value in publish_figures([path], hands, folder, quick=True).items():
            print(f"{key}: {value:,.1f}")


if __name__ == "__main__":
    main()
