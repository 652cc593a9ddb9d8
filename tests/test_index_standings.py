"""The index's standings: each game's seat outcomes, as the store gives them
(`zfrec.store.queries.seat_outcomes`), add up to the store's own player statistics, on SQLite
and PostgreSQL; and the index carries them on its game rows. The page's arithmetic is checked in
Chromium (tests/test_publish_browser.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from tests.test_publish import publish, renamed, simulated
from tests.test_store import store_url  # noqa: F401 - the SQLite and PostgreSQL stores
from zfrec.record import dumps, load
from zfrec.store.db import open_store, session
from zfrec.store.queries import seat_outcomes
from zfrec.store.store import import_file, player_stats

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def test_seat_outcomes_add_up_to_the_player_statistics(store_url: str, tmp_path: Path) -> None:  # noqa: F811
    games = [
        renamed(simulated(4, 6, None), ["王芳", "Ann", "Bo", "Cy"]),
        *load(SAMPLES / "01-annotated-club-night.zfn"),  # 王芳, Bo Li, Ann, Dieter; unfinished
        simulated(3, 2, 3),
    ]
    records = tmp_path / "games.zfn"
    records.write_text(dumps(games).replace("Ann", "ann", 1), encoding="utf-8")  # one spelling
    engine = open_store(store_url)
    try:
        with session(engine) as s:
            import_file(s, path=records)
        with session(engine) as s:
            outcomes = seat_outcomes(s)
            stats = player_stats(s)
    finally:
        engine.dispose()
    assert sorted(len(v) for v in outcomes.values()) == [3, 4, 4]
    summed: dict[str, list[int]] = {}
    for seats in outcomes.values():
        for o in seats:
            row = summed.setdefault(o.name, [0] * 7)
            for i, v in enumerate((1, o.won, o.hands, o.finished, o.points, o.firsts, o.lasts)):
                row[i] += int(v)
    assert set(summed) == {p.name for p in stats}
    for p in stats:
        games_, wins, hands, finished, points, firsts, lasts = summed[p.name]
        assert (games_, wins, hands) == (p.games, p.wins, p.hands), p.name
        assert p.mean_points_per_hand == (points / finished if finished else 0.0), p.name
        assert p.first_out_rate == (firsts / finished if finished else 0.0), p.name
        assert p.last_rate == (lasts / finished if finished else 0.0), p.name
    assert any(o.won for seats in outcomes.values() for o in seats)


def test_the_index_rows_carry_their_outcomes(tmp_path: Path) -> None:
    games = [simulated(3, 2, 1), *load(SAMPLES / "01-annotated-club-night.zfn")]
    records = tmp_path / "games.zfn"
    records.write_text(dumps(games), encoding="utf-8")
    db = str(tmp_path / "club.db")
    engine = open_store(db)
    with session(engine) as s:
        import_file(s, path=records)
    with session(engine) as s:
        outcomes = seat_outcomes(s)
    engine.dispose()
    publish(db, tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text("utf-8")
    rows = [json.loads(html.unescape(m)) for m in re.findall(r"data-outcomes='([^']*)'", index)]
    # the index lists the games by date, then id: the dated club night (game 2) first
    ids = [int(i) for i in re.findall(r'<td data-label="Game" data-sort="(\d+)"', index)]
    assert ids == [2, 1]
    want = [
        [[o.name, int(o.won), o.hands, o.finished, o.points, o.firsts, o.lasts] for o in seats]
        for seats in (outcomes[i] for i in ids)
    ]
    assert rows == want
    assert 'id="standings-table"' in index
