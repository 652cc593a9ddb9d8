"""The importer's two passes: games judged before the write lock, spooled, then written in bulk.

Runs on SQLite and PostgreSQL like tests/test_store.py, whose fixtures it shares.
"""

from __future__ import annotations

import dataclasses
import re
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from tests.test_store import _import, _moves, _write, counts, engine, games, store_url
from zfrec.cli import app
from zfrec.diagnostics import Diagnostic
from zfrec.record import Game, dumps, iter_records
from zfrec.store import (
    ImportResult,
    delete_game,
    import_file,
    import_workers,
    importer,
    open_store,
    session,
)
from zfrec.validate import validate_text

__all__ = ["engine", "games", "store_url"]  # fixtures, used by name


def test_a_game_removed_between_the_passes_is_read_again_and_stored(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    first = _import(engine, _write(tmp_path / "a.zfn", games[:2]))
    path = _write(tmp_path / "b.zfn", [games[0], games[2]])

    def meanwhile(number: int) -> None:
        # Another user deletes the game the first pass found stored, before the write begins.
        if number == 2:
            with session(engine) as other:
                delete_game(other, game_id=first.game_ids[0])

    with session(engine) as s:
        result = import_file(s, path=path, on_read=meanwhile)
    assert (result.added, result.unchanged) == (2, 0)
    c = counts(engine)
    assert c["game"] == 3
    assert c["play"] == sum(_moves(g) for g in games[:3])
    with engine.connect() as conn:
        stored = set(conn.execute(text("SELECT record_json FROM game")).scalars())
    assert dumps(games[0], "json") in stored


def test_the_same_game_twice_in_one_file_is_stored_once(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    result = _import(engine, _write(tmp_path / "twice.zfn", [games[3], games[4], games[3]]))
    assert (result.added, result.unchanged, len(result.game_ids)) == (2, 1, 3)
    assert result.game_ids[0] == result.game_ids[2]
    assert counts(engine)["play"] == _moves(games[3]) + _moves(games[4])


def test_a_game_written_twice_in_one_file_is_noted(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    copy = dataclasses.replace(games[3], event="Copied")
    result = _import(engine, _write(tmp_path / "pasted.zfn", [games[3], games[4], copy]))
    assert (result.added, result.unchanged) == (3, 0)
    first, _, second = result.game_ids
    assert result.notes == (
        f"game 3: same deals and plays as game 1 of this file (stored game {first}): both "
        f"stored; if one is a copy, remove it with zfrec delete {second}",
    )
    # the very same record twice: stored once, and said
    again = _import(engine, _write(tmp_path / "twice.zfn", [games[5], games[5]]))
    assert (again.added, again.unchanged) == (1, 1)
    assert again.notes == ("game 2: the same record as game 1 of this file: stored once",)


def test_a_sheng_ji_game_written_twice_in_one_file_is_noted(engine: Engine, tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parent.parent / "sample_games" / "shengji" / "02-no-trump.zfn"
    text = sample.read_text(encoding="utf-8")
    path = tmp_path / "pasted.zfn"
    path.write_text(text + "\n" + text.replace("Friday club", "Friday club, again"), "utf-8")
    result = _import(engine, path)
    assert result.added == 2
    [note] = result.notes
    assert note.startswith("game 2: same deals and plays as game 1 of this file (stored game ")


@pytest.mark.parametrize(
    ("sample", "old", "new"),
    [
        ("02-three-players.zfn", '[Rules "pagat"]\n[Target "500"]',
         '[Rules "pagta"]\n[Target "5OO"]'),
        ("shengji/02-no-trump.zfn", '[Rules "bashifen"]', '[Rules "bashifne"]\n[Target "5"]'),
    ],
)  # fmt: skip
def test_a_game_lost_at_its_header_keeps_every_finding_as_validate_says_them(
    engine: Engine, store_url: str, tmp_path: Path, sample: str, old: str, new: str
) -> None:
    samples = Path(__file__).resolve().parent.parent / "sample_games"
    text = (samples / sample).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "lost.zfn"
    path.write_text(text.replace(old, new) + "\n" + text, encoding="utf-8")
    said = [
        (d.code, d.message, d.location.line)
        for d in validate_text(path.read_text(encoding="utf-8"), str(path))
        if isinstance(d, Diagnostic)
    ]
    # the preset read past, then the error that lost the game
    assert [(code, m.split(":")[0][:14]) for code, m, _ in said] == [
        ("ZF001", "unknown preset"),
        ("ZF001", "the target is " if "5OO" in new else "a Sheng ji rec"),
    ]
    result = _import(engine, path)
    assert (result.added, result.unreadable, result.games) == (1, 1, 2)
    assert [(d.code, d.message, d.location.line) for d in result.diagnostics] == said
    # stored as they were said, and counted as one game
    found = CliRunner().invoke(app, ["unreadable", "--db", store_url])
    assert found.exit_code == 0
    assert found.stdout.count("ZF001") == 2
    assert found.stdout.rstrip().endswith("1 unreadable game in 1 file")


def test_rows_kept_in_memory_or_spooled_store_the_same(
    engine: Engine, tmp_path: Path, games: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _mixed_file(tmp_path, games)
    held = _import(engine, path)  # every game's rows kept in memory
    stored = _snapshot(engine)
    for game_id in set(held.game_ids):
        with session(engine) as s:
            delete_game(s, game_id=game_id)
    first = next(g for g in iter_records(path) if isinstance(g, Game))
    monkeypatch.setattr(importer, "_HELD_HANDS", len(first.hands))  # the first game kept only
    spooled = _import(engine, path)
    assert _results_alike(spooled) == _results_alike(held)
    assert _snapshot(engine) == stored


def test_sqlite_rows_written_directly_are_those_sqlalchemy_writes(
    tmp_path: Path, games: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Annotations, comments, disputes and jokers between plain moves: the direct INSERTs write
    # plain moves with constants and the others alone, in their place.
    samples = Path(__file__).resolve().parent.parent / "sample_games"
    texts = [p.read_text("utf-8") for p in sorted(samples.glob("*.zfn"))]
    path = tmp_path / "all.zfn"
    path.write_text("\n\n".join([*texts, dumps(games)]) + "\n", encoding="utf-8")
    stores = []
    for direct in (True, False):
        monkeypatch.setattr(importer, "_DIRECT_SQLITE", direct)
        eng = open_store(f"sqlite:///{tmp_path / f'direct-{direct}.db'}")
        try:
            _import(eng, path)
            with eng.connect() as conn:
                times = conn.execute(text("SELECT imported_at FROM game")).scalars()
                shapes = {re.sub("[0-9]", "9", t) for t in times}  # the time, as text
            stores.append((_snapshot(eng), _play_order(eng), shapes))
        finally:
            eng.dispose()
    assert stores[0] == stores[1]
    plays = stores[0][0]["play"]
    for column in ("annotation", "comment", "disputed", "dispute_note", "declarations"):
        assert any(f"('{column}', None)" not in row for row in plays), column


def _play_order(engine: Engine) -> list[tuple[Any, ...]]:
    """The moves in the order of their ids, as (hand number, trick, turn) within each game."""
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT g.content_hash, p.hand_number, p.trick, p.turn FROM play p "
                "JOIN game g ON g.id = p.game_id ORDER BY p.id"
            )
        )
        return [tuple(row) for row in rows]


def test_sqlite_skips_key_checks_only_while_importing_and_every_key_holds(
    tmp_path: Path, games: list[Game]
) -> None:
    # The import's transaction leaves SQLite's foreign-key checks off (it makes every key it
    # writes); every other transaction, on the same pooled connection, has them on.
    # Whatever the imports added, replaced and removed, no row points at a missing parent.
    eng = open_store(f"sqlite:///{tmp_path / 'keys.db'}")
    during: list[Any] = []
    try:
        with session(eng) as s:

            def seen(_number: int) -> None:
                during.append(s.connection().exec_driver_sql("PRAGMA foreign_keys").scalar())

            import_file(s, path=_write(tmp_path / "a.zfn", games[:4]), on_game=seen)
        with session(eng, readonly=True) as s:  # reading too: only an import goes unchecked
            assert s.connection().exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        _import(eng, _write(tmp_path / "a.zfn", [games[1], games[5]]))  # one dropped, one added
        _import(eng, _write(tmp_path / "b.zfn", games[4:7]))
        with session(eng) as s:
            delete_game(s, game_id=_import(eng, tmp_path / "b.zfn").game_ids[0])
            after = s.connection().exec_driver_sql("PRAGMA foreign_keys").scalar()
            assert after == 1
            with pytest.raises(IntegrityError, match="FOREIGN KEY"):
                s.connection().exec_driver_sql(
                    "INSERT INTO play (game_id, hand_id, hand_number, trick, turn, seat, "
                    "is_pass, mask, disputed) VALUES (999, 999, 1, 1, 1, 0, 1, 0, 0)"
                )
        with eng.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall() == []
            assert conn.exec_driver_sql("SELECT count(*) FROM play").scalar()
    finally:
        eng.dispose()
    assert during == [0] * 4


def test_a_store_with_games_migrates_to_plays_keyed_by_hand_and_back(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    # Revision 0003 drops play.game_id's key and index; the rows stay as they were, and
    # deleting a game in plain SQL still removes its plays, through its hands.
    from alembic import command

    from zfrec.store.db import SCHEMA_REVISION, alembic_config, current_revision

    result = _import(engine, _write(tmp_path / "a.zfn", games[:3]))
    whole = _snapshot(engine)
    stored = _snapshot(engine, skip=("kind", "content_key"))  # came later, in 0004 and 0007
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0002")
    assert current_revision(engine) == "0002"
    assert _snapshot(engine) == stored
    engine.dispose()
    again = open_store(engine.url.render_as_string(hide_password=False))
    try:
        assert current_revision(again) == SCHEMA_REVISION
        assert _snapshot(again) == whole  # 0007 gave each game its content key again
        gone = result.game_ids[0]
        with again.begin() as conn:
            conn.execute(text("DELETE FROM game WHERE id = :g"), {"g": gone})
        left = counts(again)
        assert left["play"] == sum(_moves(g) for g in games[1:3])
        assert left["hand"] == sum(len(g.hands) for g in games[1:3])
    finally:
        again.dispose()


def test_a_0003_store_with_games_upgrades_in_place_to_game_kinds_and_back(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    # Revision 0004 adds game.kind: the games a 0003 store holds are Zheng Fen's, and every
    # other row stays as it was.
    from alembic import command

    from zfrec.store.db import SCHEMA_REVISION, alembic_config, current_revision

    _import(engine, _write(tmp_path / "a.zfn", games[:3]))
    stored = _snapshot(engine)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0003")
        columns = [c["name"] for c in inspect(conn).get_columns("game")]
    assert current_revision(engine) == "0003"
    assert "kind" not in columns
    assert _snapshot(engine) == _snapshot_without_kind(stored)
    engine.dispose()
    again = open_store(engine.url.render_as_string(hide_password=False))
    try:
        assert current_revision(again) == SCHEMA_REVISION
        with again.connect() as conn:
            kinds = conn.execute(text("SELECT kind, count(*) FROM game GROUP BY kind")).all()
        assert [tuple(k) for k in kinds] == [("zhengfen", 3)]
        assert _snapshot(again) == stored
        _import(again, _write(tmp_path / "b.zfn", games[3:4]))  # and the store goes on
        assert counts(again)["game"] == 4
    finally:
        again.dispose()


def _snapshot_without_kind(snapshot: dict[str, list[str]]) -> dict[str, list[str]]:
    """A snapshot's game rows as a store before 0004 holds them (nor 0007's content_key)."""
    out = dict(snapshot)
    out["game"] = sorted(
        re.sub(r"\('content_key', '[0-9a-f]*'\), ", "", r.replace("('kind', 'zhengfen'), ", ""))
        for r in snapshot["game"]
    )
    return out


def _peak_bytes(engine: Engine, path: Path) -> int:
    tracemalloc.start()
    try:
        _import(engine, path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_file(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_store import _sim

    # 10 games, then 30 others of the same kind: what the import holds at once must not grow
    # with the number of games, since rows beyond the few kept in memory (two games' here, to
    # keep the files small) go through a spool file, and are written in bounded batches.
    monkeypatch.setattr(importer, "_HELD_HANDS", 6)
    records = [_sim(4, 9100 + i, hands=3) for i in range(40)]
    small = _write(tmp_path / "small.zfn", records[:10])
    large = _write(tmp_path / "large.zfn", records[10:])
    everything = _write(tmp_path / "all.zfn", records)
    warm = open_store(f"sqlite:///{tmp_path / 'warm.db'}")
    try:  # every cache (plays read, plays written) filled before measuring
        with session(warm) as s:
            import_file(s, path=everything)
    finally:
        warm.dispose()
    assert sum(_moves(g) for g in records[:10]) > 1_000  # more than one batch of rows
    before = _peak_bytes(engine, small)  # first: it also warms this store's statement caches
    assert _peak_bytes(engine, large) < 1.5 * before


# the command's exit codes: 0 all stored clean, 1 findings ------------------------------------


def test_cli_import_of_garbage_exits_one(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from zfrec.cli import app

    garbage = tmp_path / "garbage.zfn"
    garbage.write_text("".join(f"[{i} not a tag\nnoise {i}\n" for i in range(50)), "utf-8")
    result = CliRunner().invoke(app, ["import", "--db", str(tmp_path / "g.db"), str(garbage)])
    assert result.exit_code == 1, result.output
    assert "50 unreadable" in result.output


def test_cli_import_of_a_record_with_errors_exits_one(tmp_path: Path, games: list[Game]) -> None:
    from typer.testing import CliRunner

    from zfrec.cli import app

    db = str(tmp_path / "e.db")
    broken = Path(__file__).resolve().parent.parent / "sample_games" / "broken" / "wrong-score.zfn"
    result = CliRunner().invoke(app, ["import", "--db", db, str(broken)])
    assert result.exit_code == 1, result.output
    assert "1 flagged with errors" in result.output
    clean = _write(tmp_path / "clean.zfn", games[:2])
    assert CliRunner().invoke(app, ["import", "--db", db, str(clean)]).exit_code == 0
    binary = tmp_path / "binary.zfn"
    binary.write_bytes(b"\xd7\xff\x00\x01")
    result = CliRunner().invoke(app, ["import", "--db", db, str(binary)])
    assert result.exit_code == 2  # input that could not be read
    assert f"error: cannot read {binary}: not UTF-8 text\n" in result.output  # named once


# worker processes (zfrec import --jobs) ----------------------------------------------------------


def _snapshot(engine: Engine, skip: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Every stored row, with the ids that differ between two imports (row ids, the time)
    replaced by what they stand for: a game's hash, a hand's (hash, number), a player's key;
    the columns `skip` names are left out."""
    with engine.connect() as conn:
        hashes: dict[Any, Any] = {
            i: h for i, h in conn.execute(text("SELECT id, content_hash FROM game"))
        }
        hands = {
            i: (hashes[g], n)
            for i, g, n in conn.execute(text("SELECT id, game_id, number FROM hand"))
        }
        players: dict[Any, Any] = {
            i: k for i, k in conn.execute(text("SELECT id, key FROM player"))
        }
        stand_for: dict[str, dict[Any, Any]] = {
            "game_id": hashes,
            "hand_id": hands,
            "player_id": players,
        }
        out: dict[str, list[str]] = {}
        for table in ("game", "game_source", "seat", "hand", "hand_seat", "play", "diagnostic"):
            rows = conn.execute(text(f"SELECT * FROM {table}")).mappings()
            out[table] = sorted(
                repr(
                    sorted(
                        (k, stand_for[k].get(v) if k in stand_for else v)
                        for k, v in r.items()
                        if k not in ("id", "imported_at", *skip)
                    )
                )
                for r in rows
            )
    return out


def _mixed_file(tmp_path: Path, games: list[Game]) -> Path:
    """Over two workers' pieces of games: clean games, a game twice, a broken game and an
    unreadable stretch between them."""
    from tests.test_store import _sim

    broken = Path(__file__).resolve().parent.parent / "sample_games" / "broken"
    parts = [dumps([_sim(3 + i % 4, 9400 + i) for i in range(14)]), dumps(games[:3])]
    parts.append((broken / "wrong-result.zfn").read_text("utf-8"))
    parts.append("[0 not a tag\nnoise 0\n")
    parts.append(dumps([games[1], *games[3:9]]))
    path = tmp_path / "mixed.zfn"
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return path


def _results_alike(result: ImportResult) -> dict[str, Any]:
    data = result.to_json()
    del data["game_ids"]  # the ids of rows added again differ
    return data


@pytest.mark.slow
@pytest.mark.parametrize("only_valid", [False, True], ids=["all", "only-valid"])
def test_workers_store_exactly_what_one_process_stores(
    engine: Engine, tmp_path: Path, games: list[Game], only_valid: bool
) -> None:
    path = _mixed_file(tmp_path, games)
    json_path = _write(tmp_path / "more.json", games[9:], "json")
    alone = [_import(engine, p, only_valid) for p in (path, json_path)]
    assert alone[0].unreadable == 1 and alone[0].games == 26
    assert (alone[0].flagged, alone[0].skipped) == ((0, 1) if only_valid else (1, 0))
    stored = _snapshot(engine)
    for result in alone:
        for game_id in set(result.game_ids):
            with session(engine) as s:
                delete_game(s, game_id=game_id)
    assert counts(engine)["play"] == 0
    with import_workers(2) as workers:
        assert workers is not None
        shared = []
        for p, then in ((path, json_path), (json_path, None)):
            with session(engine) as s:
                shared.append(
                    import_file(s, path=p, only_valid=only_valid, workers=workers, then=then)
                )
        assert [_results_alike(r) for r in shared] == [_results_alike(r) for r in alone]
        assert _snapshot(engine) == stored
        # and again: nothing added, nothing removed
        with session(engine) as s:
            again = import_file(s, path=path, only_valid=only_valid, workers=workers)
    assert (again.added, again.removed, again.game_ids) == (0, 0, shared[0].game_ids)
    assert _snapshot(engine) == stored


@pytest.mark.slow
def test_a_file_judged_ahead_that_repeats_the_file_before_stores_its_games_once(
    engine: Engine, tmp_path: Path, games: list[Game]
) -> None:
    # The workers judge the second file while the first is written: the three games both hold
    # look new to them, and are found stored when the second file is written.
    first = _write(tmp_path / "a.zfn", games[:6])
    second = _write(tmp_path / "b.json", games[3:10], "json")
    alone = [_import(engine, p) for p in (first, second)]
    assert (alone[1].added, alone[1].unchanged) == (4, 3)
    stored = _snapshot(engine)
    for game_id in {*alone[0].game_ids, *alone[1].game_ids}:
        with session(engine) as s:
            delete_game(s, game_id=game_id)
    with import_workers(2) as workers:
        assert workers is not None
        with session(engine) as s:
            ahead = import_file(s, path=first, workers=workers, then=second)
        assert len(workers.ahead) == 1  # the second file's pieces were handed out
        with session(engine) as s:
            after = import_file(s, path=second, workers=workers)
        assert not workers.ahead
    assert [_results_alike(r) for r in (ahead, after)] == [_results_alike(r) for r in alone]
    assert _snapshot(engine) == stored


def test_cli_import_with_jobs_prints_what_one_process_prints(
    tmp_path: Path, games: list[Game]
) -> None:
    from typer.testing import CliRunner

    from zfrec.cli import app

    path = _write(tmp_path / "some.zfn", games[:8])
    outputs = []
    for jobs in ("1", "2"):
        db = tmp_path / f"j{jobs}.db"
        result = CliRunner().invoke(
            app, ["import", "--db", str(db), "-j", jobs, "--json", str(path)]
        )
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout.replace(str(db), "DB"))
    assert outputs[0] == outputs[1]
    assert '"added": 8' in outputs[0]
