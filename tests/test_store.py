"""The store: atomic, idempotent imports; concurrent importers; exact export; queries; artifacts.

Every store test runs twice: on a SQLite file in tmp_path and on a real PostgreSQL server
(ZFREC_TEST_PG_URL, one throwaway schema per test). Without that variable the PostgreSQL runs
skip, except under CI=true, where they fail: CI must really test PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game, dumps, load
from zfrec.record.model import HandScore
from zfrec.store import (
    ImportResult,
    StoreError,
    export_game,
    game_diagnostics,
    get_artifact,
    get_game,
    import_file,
    list_artifacts,
    list_games,
    load_record,
    open_store,
    player_stats,
    put_artifact,
    resolve_url,
    session,
)
from zfrec.store.db import SCHEMA_REVISION, alembic_config, current_revision, head_revision
from zfrec.validate import validate

PG_ENV = "ZFREC_TEST_PG_URL"
TABLES = (
    "game", "game_source", "player", "seat", "hand", "hand_seat", "play", "diagnostic", "artifact",
)  # fmt: skip
CHINESE = ["张伟", "王芳", "李娜", "刘洋"]
runner = CliRunner()
_pg_problem: list[str] = []  # why PostgreSQL is unusable, found once per run


# fixtures ---------------------------------------------------------------------------------------


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def _pg_unavailable(reason: str) -> None:
    if _in_ci():
        pytest.fail(f"CI=true but PostgreSQL is unavailable: {reason}")
    pytest.skip(f"PostgreSQL store tests skipped: {reason}")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty store: a SQLite file, or a fresh schema on the PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    base = os.environ.get(PG_ENV)
    if not base:
        _pg_unavailable(f"set {PG_ENV} to a PostgreSQL URL (.ci/services.sh starts a server)")
    assert base is not None
    if _pg_problem:
        _pg_unavailable(_pg_problem[0])
    schema = f"zfrec_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # unreachable server, bad URL, missing driver
        admin.dispose()
        _pg_problem.append(f"cannot use {PG_ENV}: {str(exc).strip().splitlines()[0]}")
        _pg_unavailable(_pg_problem[0])
    url = make_url(base).update_query_dict(
        {"options": f"-csearch_path={schema}", "application_name": schema}
    )
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:  # a connection a test forgot must not block the drop
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": schema},
            )
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def engine(store_url: str) -> Iterator[Engine]:
    eng = open_store(store_url)
    yield eng
    eng.dispose()


def _sim(players: int, seed: int, hands: int = 2) -> Game:
    return simulate_game(SimConfig(players, preset("pagat"), "random", hands), seed)


@pytest.fixture(scope="module")
def games() -> list[Game]:
    """Twelve small self-play games, 3 to 6 seats."""
    return [_sim(3 + i % 4, 7000 + i) for i in range(12)]


def _write(path: Path, records: list[Game], fmt: str = "zfn") -> Path:
    path.write_text(dumps(records, "json" if fmt == "json" else "zfn"), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path, games: list[Game]) -> list[Path]:
    """Six record files of two games each; the last two in JSON."""
    out = []
    for i in range(6):
        fmt = "json" if i >= 4 else "zfn"
        out.append(_write(tmp_path / f"club-{i}.{fmt}", games[2 * i : 2 * i + 2], fmt))
    return out


def counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            t: int(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()) for t in TABLES
        }


def _import(
    engine: Engine,
    path: Path,
    only_valid: bool = False,
    on_game: Callable[[int], None] | None = None,
) -> ImportResult:
    with session(engine) as s:
        return import_file(s, path=path, only_valid=only_valid, on_game=on_game)


def _moves(game: Game) -> int:
    return sum(len(t.moves) for h in game.hands for t in h.tricks)


def _cli(*args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from zfrec.cli import main; main()", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


# opening and migrating --------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Skipped unsupported reflection of expression-based index")
@pytest.mark.filterwarnings("ignore:autogenerate skipping metadata-specified expression-based")
def test_open_store_migrates_to_head_and_matches_the_models(store_url: str) -> None:
    engine = open_store(store_url)
    try:
        assert current_revision(engine) == head_revision() is not None
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
        assert diff == []
        assert counts(engine) == dict.fromkeys(TABLES, 0)
    finally:
        engine.dispose()
    again = open_store(store_url)  # already at head: nothing to do
    assert current_revision(again) == head_revision()
    again.dispose()


def test_the_fast_path_knows_the_newest_migration() -> None:
    assert head_revision() == SCHEMA_REVISION


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    engine = open_store(str(tmp_path / "club.db"))  # a bare path means SQLite
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 60000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_downgrade_and_upgrade_round_trip(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "base")
    assert current_revision(engine) is None
    engine.dispose()
    engine = open_store(f"sqlite:///{tmp_path / 'm.db'}")
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_a_database_from_a_newer_zfrec_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    open_store(url).dispose()
    raw = create_engine(url)
    with raw.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    raw.dispose()
    with pytest.raises(StoreError, match="revision f00d, which this version of zfrec does not"):
        open_store(url)


def test_url_resolution(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ZFREC_DB", raising=False)
    assert resolve_url() == "sqlite:///zfrec.db"
    monkeypatch.setenv("ZFREC_DB", "postgresql+psycopg://u@h/db")
    assert resolve_url() == "postgresql+psycopg://u@h/db"
    assert resolve_url("club.db") == "sqlite:///club.db"
    assert resolve_url("/var/zf/club.db") == "sqlite:////var/zf/club.db"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("nonsense://x", "cannot use database nonsense://x: Can't load plugin"),
        ("sqlite:////no/such/dir/x.db", "cannot open database sqlite:////no/such/dir/x.db: unable"),
        (
            "postgresql+psycopg://someone:secret@127.0.0.1:1/x",
            "cannot open database postgresql+psycopg://someone:***@127.0.0.1:1/x: connection",
        ),
    ],
)
def test_bad_urls_are_clear_errors_without_the_password(url: str, message: str) -> None:
    with pytest.raises(StoreError) as info:
        open_store(url)
    assert str(info.value).startswith(message)
    assert "secret" not in str(info.value)


# import -----------------------------------------------------------------------------------------


def test_import_stores_every_row_of_the_records(engine: Engine, files: list[Path]) -> None:
    results = [_import(engine, f) for f in files]
    records = [g for f in files for g in load(f)]
    assert [r.added for r in results] == [2] * 6
    c = counts(engine)
    assert c["game"] == c["game_source"] == 12
    assert c["seat"] == sum(len(g.players) for g in records)
    assert c["hand"] == sum(len(g.hands) for g in records)
    assert c["hand_seat"] == sum(len(g.hands) * len(g.players) for g in records)
    assert c["play"] == sum(_moves(g) for g in records)
    assert c["diagnostic"] == c["artifact"] == 0
    assert c["player"] == 6  # East ... Li 李: the same six people throughout
    with session(engine, readonly=True) as s:
        rows = list_games(s)
        assert [r.players for r in rows] == [g.players for g in records]
        assert all(r.valid and r.errors == 0 for r in rows)
        assert [r.hands for r in rows] == [len(g.hands) for g in records]
        detail = get_game(s, game_id=rows[0].id)
    report = validate(records[0])
    assert detail.scores == list(report.scores)
    assert [h.points for h in detail.hands] == [
        list(h.result.points)  # type: ignore[union-attr]
        for h in report.hands
    ]
    assert detail.hands[0].first == records[0].players[report.hands[0].result.first]  # type: ignore[union-attr]
    assert detail.source_path == str(files[0].resolve())


def test_reimport_adds_nothing(engine: Engine, files: list[Path]) -> None:
    for f in files:
        _import(engine, f)
    before = counts(engine)
    with session(engine, readonly=True) as s:
        ids = [r.id for r in list_games(s)]
    for f in files:
        result = _import(engine, f)
        assert (result.added, result.unchanged, result.removed) == (0, 2, 0)
    assert counts(engine) == before
    with session(engine, readonly=True) as s:
        assert [r.id for r in list_games(s)] == ids


def test_the_same_game_in_another_file_is_not_duplicated(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    _import(engine, _write(tmp_path / "a.zfn", games[:3]))
    copy = _write(tmp_path / "b.json", [games[1], games[1]], "json")  # other file, format, twice
    result = _import(engine, copy)
    assert (result.added, result.unchanged) == (0, 2)
    assert counts(engine)["game"] == 3


def test_a_changed_file_replaces_its_earlier_version(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    path = _write(tmp_path / "night.zfn", games[:3])
    first = _import(engine, path)
    kept_id = first.game_ids[0]
    edited = dataclasses.replace(games[1], event="Club night, corrected")
    _write(path, [games[0], edited])  # game 2 corrected, game 3 dropped
    result = _import(engine, path)
    assert (result.added, result.unchanged, result.removed) == (1, 1, 2)
    c = counts(engine)
    assert c["game"] == 2
    assert c["play"] == _moves(games[0]) + _moves(edited)
    with session(engine, readonly=True) as s:
        rows = list_games(s)
        assert rows[0].id == kept_id
        assert [load_record(s, r.id) for r in rows] == [games[0], edited]


def test_a_game_another_file_still_holds_is_kept(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    a = _write(tmp_path / "a.zfn", games[:2])
    b = _write(tmp_path / "b.zfn", [games[1]])
    _import(engine, a)
    _import(engine, b)
    _write(a, [games[0]])
    assert _import(engine, a).removed == 0
    assert counts(engine)["game"] == 2
    _write(b, [games[2]])
    assert _import(engine, b).removed == 1
    with session(engine, readonly=True) as s:
        assert [load_record(s, r.id) for r in list_games(s)] == [games[0], games[2]]


def _with_wrong_points(game: Game) -> Game:
    hand = game.hands[0]
    assert hand.score is not None
    wrong = HandScore((hand.score.points[0] + 5, *hand.score.points[1:]), hand.score.totals)
    return dataclasses.replace(
        game, hands=[dataclasses.replace(hand, score=wrong), *game.hands[1:]]
    )


def test_records_with_errors_are_stored_flagged_with_located_diagnostics(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    path = _write(tmp_path / "bad.zfn", [games[0], _with_wrong_points(games[1])])
    result = _import(engine, path)
    assert (result.added, result.flagged) == (2, 1)
    with session(engine, readonly=True) as s:
        rows = list_games(s)
        assert [r.valid for r in rows] == [True, False]
        assert rows[1].errors >= 1
        found = game_diagnostics(s, rows[1].id)
    first = next(d for d in found if d["code"] == "ZF401")
    assert first["severity"] == "error" and first["rule"] == "R10"
    assert (first["file"], first["game"], first["hand"]) == (str(path), 2, 1)
    assert first["line"] is not None and first["line"] > 1
    assert counts(engine)["diagnostic"] == len(found)


def test_only_valid_skips_records_with_errors(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    path = _write(tmp_path / "bad.zfn", [games[0], _with_wrong_points(games[1])])
    result = _import(engine, path, only_valid=True)
    assert (result.added, result.skipped, result.flagged) == (1, 1, 0)
    assert any(d.code == "ZF401" for d in result.diagnostics)
    c = counts(engine)
    assert (c["game"], c["diagnostic"]) == (1, 0)


def test_unreadable_games_leave_the_rest_and_their_diagnostics(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    broken = '[Players "a, b, c"]\n\nhand 1\n1: 3x\n'
    path = tmp_path / "mixed.zfn"
    path.write_text(dumps(games[0]) + "\n" + broken + "\n" + dumps(games[1]), encoding="utf-8")
    result = _import(engine, path)
    assert (result.games, result.added, result.unreadable) == (3, 2, 1)
    before = counts(engine)
    assert before["diagnostic"] == 1
    with engine.connect() as conn:
        row = conn.execute(text("SELECT game_id, code, game_number FROM diagnostic")).one()
    assert tuple(row) == (None, "ZF001", 2)
    _import(engine, path)
    assert counts(engine) == before


# atomicity --------------------------------------------------------------------------------------


class Boom(RuntimeError):
    pass


def test_a_failure_part_way_leaves_nothing_of_that_file(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    _import(engine, _write(tmp_path / "earlier.zfn", games[:2]))
    before = counts(engine)
    seen: list[int] = []

    def fail_at_third(number: int) -> None:
        seen.append(number)
        if number == 3:
            raise Boom("disk full, say")

    path = _write(tmp_path / "new.zfn", games[2:6])
    with pytest.raises(Boom):
        _import(engine, path, on_game=fail_at_third)
    assert seen == [1, 2, 3]  # two games were written before the failure
    assert counts(engine) == before
    assert _import(engine, path).added == 4


def test_a_failed_reimport_of_a_changed_file_keeps_the_earlier_version(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    path = _write(tmp_path / "night.zfn", games[:3])
    _import(engine, path)
    before = counts(engine)
    _write(path, games[3:6])

    def fail(number: int) -> None:
        if number == 3:
            raise Boom("power cut")

    with pytest.raises(Boom):
        _import(engine, path, on_game=fail)
    assert counts(engine) == before
    with session(engine, readonly=True) as s:
        assert [load_record(s, r.id) for r in list_games(s)] == games[:3]


KILL_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from zfrec.store import import_file, open_store, session

    def die(number):
        if number == 3:
            os._exit(17)  # no rollback, no cleanup: as if the machine stopped

    with session(open_store(sys.argv[1])) as s:
        import_file(s, path=sys.argv[2], on_game=die)
    """
)


def test_a_killed_importer_leaves_nothing_of_its_file(
    engine: Engine, store_url: str, tmp_path: Path, games: list[Game]
) -> None:
    _import(engine, _write(tmp_path / "earlier.zfn", games[:2]))
    before = counts(engine)
    path = _write(tmp_path / "new.zfn", games[2:6])
    done = subprocess.run(
        [sys.executable, "-c", KILL_SCRIPT, store_url, str(path)], capture_output=True, text=True
    )
    assert done.returncode == 17, done.stderr
    assert counts(engine) == before
    if store_url.startswith("sqlite"):
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    assert _import(engine, path).added == 4


# concurrency ------------------------------------------------------------------------------------


def test_opening_a_new_store_waits_while_another_process_creates_it(tmp_path: Path) -> None:
    import sqlite3
    import threading
    import time

    # Another process holds the new file's write lock, as one does while it creates the store:
    # turning the file to WAL must wait for it, not fail at once with "database is locked"
    # (SQLite does not wait by itself there: the two would deadlock if both waited).
    path = tmp_path / "new.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE creating (x)")
    release = threading.Timer(0.5, lambda: other.execute("COMMIT"))
    release.start()
    start = time.monotonic()
    try:
        engine = open_store(f"sqlite:///{path}")
    finally:
        release.join()
        other.close()
    try:
        assert time.monotonic() - start >= 0.4  # it waited for the lock
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert current_revision(engine) == SCHEMA_REVISION
    finally:
        engine.dispose()


@pytest.mark.slow
def test_two_importers_at_once_both_succeed_and_lose_nothing(
    store_url: str, tmp_path: Path, games: list[Game]
) -> None:
    paths = [_write(tmp_path / f"f{i}.zfn", [games[i], games[(i + 5) % 12]]) for i in range(10)]
    # Overlapping sets, opposite orders, on a store neither has created yet.
    one = _cli("import", "--db", store_url, *map(str, paths[:7]))
    two = _cli("import", "--db", store_url, *map(str, reversed(paths[3:])))
    for proc in (one, two):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, out + err
        assert "0 file(s) failed" in out, out + err
    engine = open_store(store_url)
    try:
        records = {dumps(g, "json"): g for p in paths for g in load(p)}
        c = counts(engine)
        assert c["game"] == len(records) == 12
        assert c["game_source"] == 20
        assert c["play"] == sum(_moves(g) for g in records.values())
        assert c["hand_seat"] == sum(len(g.hands) * len(g.players) for g in records.values())
        with session(engine, readonly=True) as s:
            stored = [load_record(s, r.id) for r in list_games(s)]
        assert sorted(dumps(g, "json") for g in stored) == sorted(records)
    finally:
        engine.dispose()


# export -----------------------------------------------------------------------------------------


def test_export_after_import_reproduces_the_canonical_record(
    engine: Engine, files: list[Path]
) -> None:
    results = [_import(engine, f) for f in files]
    originals = [g for f in files for g in load(f)]
    ids = [i for r in results for i in r.game_ids]
    with session(engine, readonly=True) as s:
        for game_id, game in zip(ids, originals, strict=True):
            assert load_record(s, game_id) == game
            assert export_game(s, game_id=game_id, format="zfn") == dumps(game)
            assert export_game(s, game_id=game_id, format="json") == dumps(game, "json")
        with pytest.raises(StoreError, match="no game 999 in the store"):
            export_game(s, game_id=999)


def test_comments_annotations_and_disputes_survive_the_round_trip(
    engine: Engine, tmp_path: Path
) -> None:
    text_ = (
        '[Event "研究会"]\n[Players "阿明, 小红, 老王"]\n[Club "蓝天"]\n\n{整局的评论}\n\n'
        'hand 1\n1: 3h!? {开局}  2: -  3: 4h?? disputed "有争议" or 5h or - ; lead\n'
    )
    path = tmp_path / "annotated.zfn"
    path.write_text(text_, encoding="utf-8")
    game = next(iter(load(path)))
    result = _import(engine, path)
    with session(engine, readonly=True) as s:
        (game_id,) = result.game_ids
        assert load_record(s, game_id) == game
        assert export_game(s, game_id=game_id) == dumps(game)
    with engine.connect() as conn:
        plays = conn.execute(
            text("SELECT seat, cards, annotation, comment, is_pass FROM play ORDER BY id")
        ).all()
    assert tuple(plays[0]) == (0, "3h", "!?", "开局", False)


# Chinese names ----------------------------------------------------------------------------------


def test_chinese_names_are_stored_found_and_exported(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    four = [g for g in games if len(g.players) == 4][:2]
    renamed = [dataclasses.replace(g, players=list(CHINESE)) for g in four]
    mixed = dataclasses.replace(
        next(g for g in games if len(g.players) == 3), players=["张伟", "Zhang 张", "ZHANG WEI"]
    )
    _import(engine, _write(tmp_path / "中文.zfn", [*renamed, mixed]))
    other = dataclasses.replace(four[0], players=["zhang 张", "zhang wei", "王芳", "Li 李"])
    _import(engine, _write(tmp_path / "more.json", [other], "json"))
    with session(engine, readonly=True) as s:
        assert [r.players for r in list_games(s, player="张伟")] == [
            CHINESE,
            CHINESE,
            mixed.players,
        ]
        assert len(list_games(s, player="zhang 张")) == 2  # case-insensitive, as in records
        assert len(list_games(s, player="Zhang Wei")) == 2
        stats = {p.name: p for p in player_stats(s)}
        assert stats["王芳"].games == 3
        assert stats["Zhang 张"].games == 2  # the first spelling seen names the player
        with pytest.raises(StoreError, match="no player named '赵六' in the store"):
            list_games(s, player="赵六")
        for row in list_games(s):
            assert dumps(load_record(s, row.id)) == export_game(s, game_id=row.id)
    with engine.connect() as conn:
        names = {r[0] for r in conn.execute(text("SELECT name FROM player"))}
    assert {"张伟", "王芳", "李娜", "刘洋", "Zhang 张", "ZHANG WEI", "Li 李"} <= names


# statistics -------------------------------------------------------------------------------------


def test_player_stats_agree_with_the_validator(engine: Engine, files: list[Path]) -> None:
    for f in files:
        _import(engine, f)
    records = [g for f in files for g in load(f)]
    expected: dict[str, dict[str, float]] = {}
    for game in records:
        report = validate(game)
        for seat, name in enumerate(game.players):
            e = expected.setdefault(name, dict.fromkeys(("g", "h", "w", "f", "p", "1", "L"), 0))
            e["g"] += 1
            e["w"] += seat in report.winners
            for ledger in report.hands:
                e["h"] += 1
                r = ledger.result
                if r is not None:
                    e["f"] += 1
                    e["p"] += r.points[seat]
                    e["1"] += r.first == seat
                    e["L"] += r.last == seat
    with session(engine, readonly=True) as s:
        stats = player_stats(s)
        assert [p.name for p in stats] == sorted(expected, key=str.casefold)
        for p in stats:
            e = expected[p.name]
            assert (p.games, p.hands, p.wins) == (e["g"], e["h"], e["w"])
            assert p.mean_points_per_hand == pytest.approx(e["p"] / e["f"])
            assert p.first_out_rate == pytest.approx(e["1"] / e["f"])
            assert p.last_rate == pytest.approx(e["L"] / e["f"])
        (east,) = player_stats(s, player="east")
        assert east.name == "East"


@pytest.mark.slow
def test_player_stats_from_sql_and_from_the_analysis_agree(
    engine: Engine, files: list[Path]
) -> None:
    """With the analysis every measure comes from zfrec.games.zhengfen.analysis.stats; without, the
    counts come from SQL. Both count the same games, hands, wins and outcomes."""
    for f in files:
        _import(engine, f)
    with session(engine, readonly=True) as s:
        for valid_only in (False, True):
            sql = player_stats(s, valid_only=valid_only)
            analysed = player_stats(s, valid_only=valid_only, analysis=True)
            assert [p.name for p in analysed] == [p.name for p in sql]
            for a, b in zip(sql, analysed, strict=True):
                assert (a.games, a.hands, a.wins) == (b.games, b.hands, b.wins)
                assert a.mean_points_per_hand == pytest.approx(b.mean_points_per_hand)
                assert a.first_out_rate == pytest.approx(b.first_out_rate)
                assert a.last_rate == pytest.approx(b.last_rate)
                assert a.analysis is None and b.analysis is not None
                assert b.analysis["hands_played"] == b.hands


def test_stats_can_leave_out_flagged_games(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    three = [g for g in games if len(g.players) == 3][:2]
    _import(engine, _write(tmp_path / "g.zfn", [three[0], _with_wrong_points(three[1])]))
    with session(engine, readonly=True) as s:
        assert player_stats(s, player="East")[0].games == 2
        assert player_stats(s, player="East", valid_only=True)[0].games == 1


# artifacts --------------------------------------------------------------------------------------


def test_artifacts_are_replaced_by_key_and_checked_by_source_hash(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    path = _write(tmp_path / "a.zfn", games[:1])
    (game_id,) = _import(engine, path).game_ids
    key: dict[str, Any] = {
        "game_id": game_id,
        "hand_number": 1,
        "kind": "chart_svg",
        "name": "scores",
    }
    with session(engine) as s:
        made = put_artifact(s, **key, content=b"<svg/>", mime="image/svg+xml", source_hash="h1")
        assert made.id is not None and made.created_at.tzinfo is UTC
    with session(engine) as s:
        again = put_artifact(
            s, **key, content=b"<svg>2</svg>", mime="image/svg+xml", source_hash="h2"
        )
        assert again.id == made.id
    with session(engine, readonly=True) as s:
        assert get_artifact(s, **key, source_hash="h1") is None
        found = get_artifact(s, **key, source_hash="h2")
        assert found is not None and found.content == b"<svg>2</svg>"
        assert found.created_at.tzinfo is UTC
        assert get_artifact(s, **{**key, "hand_number": 2}) is None
    site: dict[str, Any] = {
        "game_id": None,
        "hand_number": None,
        "kind": "page",
        "name": "index.html",
    }
    with session(engine) as s:
        first = put_artifact(s, **site, content=b"1", mime="text/html", source_hash="a")
        second = put_artifact(s, **site, content=b"2", mime="text/html", source_hash="b")
        assert first.id == second.id  # NULL keys still name one artifact
        assert len(list_artifacts(s)) == 2
        assert [a.kind for a in list_artifacts(s, game_id=game_id)] == ["chart_svg"]
        with pytest.raises(StoreError, match="unknown artifact kind 'pdf'"):
            put_artifact(s, **{**site, "kind": "pdf"}, content=b"", mime="x", source_hash="c")
    _write(path, games[1:2])  # the game changes: its artifacts go with the old version
    _import(engine, path)
    with session(engine, readonly=True) as s:
        assert [a.kind for a in list_artifacts(s)] == ["page"]


# the command line -------------------------------------------------------------------------------


def test_cli_import_games_show_stats_export(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    result = runner.invoke(app, ["import", "--db", db, *map(str, files)])
    assert result.exit_code == 0, result.output
    assert "6 file(s) into" in result.output and "12 game(s) added" in result.output
    result = runner.invoke(app, ["import", "--db", db, "--json", str(files[0])])
    summary = json.loads(result.output)["summary"]
    assert (summary["added"], summary["unchanged"]) == (0, 2)

    listed = json.loads(runner.invoke(app, ["games", "--db", db, "--json"]).output)
    assert len(listed) == 12 and listed[0]["players"] == ["East", "South", "West"]
    assert "12 game(s)" in runner.invoke(app, ["games", "--db", db]).output
    mine = json.loads(runner.invoke(app, ["games", "--db", db, "-p", "li 李", "--json"]).output)
    assert len(mine) == 3

    shown = runner.invoke(app, ["show", "1", "--db", db])
    assert shown.exit_code == 0 and "game 1" in shown.output and "total" in shown.output
    detail = json.loads(runner.invoke(app, ["show", "1", "--db", db, "--json"]).output)
    assert detail["id"] == 1 and len(detail["hand_results"]) == 2

    stats = json.loads(runner.invoke(app, ["stats", "--db", db, "--json"]).output)
    assert {s["name"] for s in stats} == {"East", "South", "West", "North", "Zhang 张", "Li 李"}
    assert "points/hand" in runner.invoke(app, ["stats", "--db", db]).output

    original = next(iter(load(files[0])))
    exported = runner.invoke(app, ["export", "1", "--db", db])
    assert exported.exit_code == 0 and exported.output == dumps(original)
    target = tmp_path / "out" / "g1.json"
    runner.invoke(app, ["export", "1", "--db", db, "--format", "json", "--out", str(target)])
    assert target.read_text("utf-8") == dumps(original, "json")

    monkeypatch.setenv("ZFREC_DB", db)  # the environment names the store when --db does not
    assert len(json.loads(runner.invoke(app, ["games", "--json"]).output)) == 12


def test_cli_defaults_to_zfrec_db_in_the_working_directory(
    tmp_path: Path, files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ZFREC_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["import", str(files[0])]).exit_code == 0
    assert (tmp_path / "zfrec.db").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "7"], "error: no game 7 in the store"),
        (["export", "7"], "error: no game 7 in the store"),
        (["export", "1", "--format", "pgn"], "error: --format is zfn or json, not 'pgn'"),
        (["stats", "--player", "nobody"], "error: no player named 'nobody' in the store"),
        (["games", "--db", "nonsense://"], "error: cannot use database nonsense://"),
        (["import", "missing.zfn"], "error: no such file or directory: missing.zfn"),
    ],
)
def test_cli_errors_are_messages_with_exit_code_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZFREC_DB", str(tmp_path / "empty.db"))
    open_store(str(tmp_path / "empty.db")).dispose()  # an empty store: the readers need one
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_import_reports_an_unreadable_file_and_goes_on(
    tmp_path: Path, files: list[Path]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    result = runner.invoke(app, ["import", "--db", db, str(bad), str(files[0])])
    assert result.exit_code == 1  # a finding: its one unreadable game is recorded, not stored
    assert "1 unreadable" in result.output and "2 game(s) added" in result.output
    odd = tmp_path / "notes.txt"
    odd.write_text("hello", encoding="utf-8")
    result = runner.invoke(app, ["import", "--db", db, str(odd), str(files[1])])
    assert result.exit_code == 1
    assert "cannot tell the record format" in result.output
    assert "2 game(s) added" in result.output


# the benchmark ----------------------------------------------------------------------------------


def test_import_bench_measures_hands_per_second(files: list[Path]) -> None:
    from bench.import_bench import import_hands_per_s

    assert import_hands_per_s(files[:2]) > 0
