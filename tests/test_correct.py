"""Correcting the store (issue 27, item 7): `zfrec import --replace ID FILE`, a re-import
recognised as a correction (zfrec.store.recognise), `zfrec delete ID` and `zfrec tables --delete
ID`. Every test runs on SQLite and on PostgreSQL (the store_url fixture of test_store)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from typer.testing import CliRunner

from tests.test_store import (  # noqa: F401  (engine, store_url: fixtures)
    TABLES,
    _sim,
    _with_wrong_points,
    _write,
    counts,
    engine,
    store_url,
)
from zfrec.cli import app
from zfrec.live import Table
from zfrec.record import Game, dumps, loads
from zfrec.record.model import Trick
from zfrec.store import import_file, list_artifacts, list_games, load_record, put_artifact, session

runner = CliRunner()
EVENT, DATE = "Friday club", "2026.11.27"


def night(seed: int, players: int = 4, hands: int = 2) -> Game:
    """A self-play game of the club night: same event, date and players for every seed."""
    game = _sim(players, seed, hands)
    names = ["Ann", "Bo Li", "王芳", "Dieter"][:players]
    return dataclasses.replace(game, players=names, event=EVENT, date=DATE)


def edited(game: Game) -> Game:
    """The game with one play taken out (a scorer's correction): most plays still agree."""
    text_ = dumps(game)
    from zfrec.record import loads

    copy = loads(text_)[0]
    hand = copy.hands[-1]
    last = hand.tricks[-1]
    hand.tricks[-1] = Trick(last.moves[:-1]) if len(last.moves) > 1 else last
    if len(last.moves) <= 1:
        hand.tricks.pop()
    assert copy != game
    return copy


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def ids(engine: Engine) -> list[int]:  # noqa: F811
    with session(engine, readonly=True) as s:
        return [r.id for r in list_games(s)]


def record(engine: Engine, game_id: int) -> Game:  # noqa: F811
    with session(engine, readonly=True) as s:
        return load_record(s, game_id)


# --- import --replace ---------------------------------------------------------------------------


def test_replace_puts_the_record_in_place_and_the_game_keeps_its_id(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a, b = night(1), night(2)
    _write(tmp_path / "night.zfn", [a, b])
    assert cli("import", str(tmp_path / "night.zfn"), "--db", store_url)[0] == 0
    first, second = ids(engine)
    with session(engine) as s:
        put_artifact(
            s, game_id=first, hand_number=None, kind="page", name="index.html",
            content=b"old page", mime="text/html", source_hash="x",
        )  # fmt: skip
    fixed = edited(a)
    path = _write(tmp_path / "fixed.zfn", [fixed])
    code, output = cli("import", "--replace", str(first), str(path), "--db", store_url)
    assert code in (0, 1), output  # the edit may leave the record flagged: exit 1 then
    assert f"game {first} replaced by the record in {path}" in output
    assert ids(engine) == [first, second]
    assert record(engine, first) == fixed and record(engine, second) == b
    with session(engine, readonly=True) as s:
        assert list_artifacts(s, game_id=first) == []  # made from the old record: gone
    c = counts(engine)
    assert c["game"] == 2
    with engine.connect() as conn:
        hands = "SELECT id FROM hand WHERE game_id = :g"
        plays = conn.execute(
            text(f"SELECT count(*) FROM play WHERE hand_id IN ({hands})"), {"g": first}
        ).scalar_one()
        assert plays == sum(len(t.moves) for h in fixed.hands for t in h.tricks)
    # the same again: nothing to do
    code, output = cli("import", "--replace", str(first), str(path), "--db", store_url, "--json")
    data = json.loads(output)
    assert data["game_id"] == first and data["changed"] is False and data["replaced"] is True


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("two", "more than one game"),
        ("none", "holds no game"),
        ("other", "stored already, as game"),
        ("unreadable", "cannot be read"),
        ("no-such-game", "no game 99"),
    ],
)
def test_replace_refuses_with_one_line_and_changes_nothing(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
    content: str,
    message: str,
) -> None:
    a, b = night(1), night(2)
    _write(tmp_path / "night.zfn", [a, b])
    cli("import", str(tmp_path / "night.zfn"), "--db", store_url)
    first, second = ids(engine)
    path = tmp_path / "fix.zfn"
    if content == "two":
        _write(path, [edited(a), night(3)])
    elif content == "none":
        path.write_text("{just a comment}\n", encoding="utf-8")
    elif content == "other":
        _write(path, [b])
    elif content == "unreadable":
        path.write_text('[Players "Ann, Bo"]\n\nhand 1 shuffler 9\n', encoding="utf-8")
    else:
        _write(path, [edited(a)])
    target = "99" if content == "no-such-game" else str(first)
    before = counts(engine)
    code, output = cli("import", "--replace", target, str(path), "--db", store_url)
    assert code == 2, output
    lines = output.strip().splitlines()
    assert message in lines[0], output
    assert len(lines) == (3 if content == "unreadable" else 1), output  # + source line, caret
    assert counts(engine) == before and record(engine, first) == a
    if content == "other":  # the file's record is the second game: no advice to act on either
        assert f"as game {second}, not as game {first}: nothing was changed" in lines[0]
        assert "delete" not in lines[0] and "--replace" not in lines[0], output


def test_replace_with_only_valid_keeps_the_game_when_the_record_has_errors(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a = night(1)
    _write(tmp_path / "night.zfn", [a])
    cli("import", str(tmp_path / "night.zfn"), "--db", store_url)
    (first,) = ids(engine)
    bad = _with_wrong_points(a)
    path = _write(tmp_path / "bad.zfn", [bad])
    code, output = cli(
        "import", "--replace", str(first), str(path), "--db", store_url, "--only-valid"
    )
    assert code == 1 and "not replaced (--only-valid)" in output, output
    assert record(engine, first) == a
    code, output = cli("import", "--replace", str(first), str(path), "--db", store_url)
    assert code == 1 and "flagged with 1 error" in output, output
    assert record(engine, first) == bad


# --- a re-import recognised as a correction ----------------------------------------------------


def test_an_edited_export_replaces_its_game(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The issue's case: export, edit, import again used to add a second game. (The edit of
    night 1 leaves the record without errors: a draft with errors of a good game is kept out,
    as the next test shows.)"""
    games = [night(2), night(1), _sim(3, 9)]
    _write(tmp_path / "season.zfn", games)
    cli("import", str(tmp_path / "season.zfn"), "--db", store_url)
    first, second, third = ids(engine)
    code, exported = cli("export", str(second), "--db", store_url)
    assert code == 0 and exported == dumps(games[1])
    fixed = edited(games[1])
    path = _write(tmp_path / "game2.zfn", [fixed])
    code, output = cli("import", str(path), "--db", store_url)
    assert f"game 1 replaces stored game {second} (same event, date and players;" in output
    assert "1 replaced" in output
    assert ids(engine) == [first, second, third]
    assert record(engine, second) == fixed
    assert record(engine, first) == games[0]  # the other game of the night is untouched
    # The archive still holds the earlier version: importing it again does not undo the
    # correction; it says so and stores that version as a game of its own.
    code, output = cli("import", str(tmp_path / "season.zfn"), "--db", store_url, "--json")
    data = json.loads(output)
    assert data["summary"]["replaced"] == 0 and data["summary"]["added"] == 1
    assert any("another file" in n for n in data["files"][0]["notes"])
    assert record(engine, second) == fixed


def test_a_draft_with_errors_never_takes_the_place_of_a_good_game(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A folder of drafts imported after the clean record: the draft with errors (rules 1 and
    2 match it to the good game) used to replace it, and importing the clean file again then
    stored the night a second time. Now the good game is kept, the draft is skipped with its
    errors shown, and `--replace` still puts it in place when that is what is meant."""
    a = night(91)
    clean = _write(tmp_path / "night.zfn", [a])
    assert cli("import", str(clean), "--db", store_url)[0] == 0
    (first,) = ids(engine)
    draft = _write(tmp_path / "draft.zfn", [_with_wrong_points(a)])
    code, output = cli("import", str(draft), "--db", store_url, "--json")
    data = json.loads(output)
    assert code == 1, output
    summary = data["summary"]
    assert (summary["added"], summary["replaced"], summary["skipped"]) == (0, 0, 1)
    (note,) = data["files"][0]["notes"]
    assert f"has errors and matches stored game {first}, which has none" in note
    assert f"--replace {first} puts this record in its place" in note
    assert any(d["code"] == "ZF401" for d in data["files"][0]["diagnostics"])  # its errors
    assert ids(engine) == [first] and record(engine, first) == a
    code, output = cli("import", str(clean), "--db", store_url)  # the clean file again
    assert code == 0 and "1 already stored" in output, output
    assert ids(engine) == [first] and record(engine, first) == a
    # a correction in progress (the stored game has errors too) still replaces it
    worse = _with_wrong_points(_with_wrong_points(a))
    cli("import", "--replace", str(first), str(draft), "--db", store_url)
    assert record(engine, first) == _with_wrong_points(a)
    code, output = cli("import", str(_write(tmp_path / "worse.zfn", [worse])), "--db", store_url)
    assert f"game 1 replaces stored game {first}" in output, output
    assert ids(engine) == [first] and record(engine, first) == worse


def test_two_games_of_one_club_night_are_never_taken_for_each_other(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Same event, date and players, other cards: never a correction, in one file or two."""
    a, b, c = night(11), night(12), night(13)
    _write(tmp_path / "one.zfn", [a])
    _write(tmp_path / "two.zfn", [b])
    cli("import", str(tmp_path / "one.zfn"), "--db", store_url)
    code, output = cli("import", str(tmp_path / "two.zfn"), "--db", store_url)
    assert code == 0, output
    assert "stored game" not in output and "replaces" not in output  # no deal in common
    _write(tmp_path / "three.zfn", [c, edited(c)])  # two new games of one key in one file
    code, output = cli("import", str(tmp_path / "three.zfn"), "--db", store_url)
    assert "replaces" not in output
    assert [record(engine, i) for i in ids(engine)] == [a, b, c, edited(c)]


def test_a_version_with_few_plays_in_common_is_named_only_by_its_deals(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A record that agrees with a stored game in less than half of the plays is stored as a
    new game; the import names the stored game when they have a deal in common (a version
    rewritten), never a game of the other kind with the night's event, date and players."""
    a = night(31)
    match = tmp_path / "match.zfn"
    made = cli("simulate", "--game", "shengji", "--games", "1", "--seed", "3", "--out", str(match))
    assert made[0] == 0, made[1]
    head = f'[Event "{EVENT}"]\n[Date "{DATE}"]\n[Players "Ann, Bo Li, 王芳, Dieter"]'
    lines = match.read_text("utf-8").splitlines()
    kept = [x for x in lines if not x.startswith(("[Event ", "[Players "))]
    match.write_text("\n".join([kept[0], head, *kept[1:]]) + "\n", "utf-8")
    code, output = cli("import", str(match), "--db", store_url)
    assert code == 0, output
    [sj] = ids(engine)
    cli("import", str(_write(tmp_path / "a.zfn", [a])), "--db", store_url)
    [zf] = [i for i in ids(engine) if i != sj]
    rewritten = loads(dumps(a))[0]
    for hand in rewritten.hands:  # the deals kept, the plays after the first trick gone
        hand.tricks = hand.tricks[:1]
    code, output = cli("import", str(_write(tmp_path / "b.zfn", [rewritten])), "--db", store_url)
    assert f"same event, date and players as stored game {zf}, but at most" in output, output
    assert f"--replace {zf} would replace game {zf}" in output and "stored games" not in output
    other = night(32)  # another game of the night: no deal in common, nothing said
    code, output = cli("import", str(_write(tmp_path / "c.zfn", [other])), "--db", store_url)
    assert code == 0 and "stored game" not in output, output


def test_several_stored_candidates_are_not_chosen_between(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a = night(21)
    twin = dataclasses.replace(a, site="Chengdu")  # another stored game with the same key
    _write(tmp_path / "night.zfn", [a, twin])
    cli("import", str(tmp_path / "night.zfn"), "--db", store_url)
    path = _write(tmp_path / "fix.zfn", [edited(a)])
    code, output = cli("import", str(path), "--db", store_url)
    assert code in (0, 1), output  # 1: the edited record is flagged
    assert "have the same event, date and players and half of its plays: stored as a new" in output
    assert len(ids(engine)) == 3


def test_records_without_event_or_date_are_never_recognised(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a = dataclasses.replace(night(31), date=None)
    _write(tmp_path / "a.zfn", [a])
    cli("import", str(tmp_path / "a.zfn"), "--db", store_url)
    path = _write(tmp_path / "b.zfn", [edited(a)])
    code, output = cli("import", str(path), "--db", store_url)
    assert code in (0, 1), output
    assert "replaces" not in output and len(ids(engine)) == 2


def test_a_file_edited_in_place_keeps_the_ids_of_its_games(
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a, b = night(41), night(42)
    path = _write(tmp_path / "night.zfn", [a, b])
    with session(engine) as s:
        before = import_file(s, path=path).game_ids
    _write(path, [a, edited(b)])
    with session(engine) as s:
        result = import_file(s, path=path)
    assert (result.added, result.replaced, result.removed) == (0, 1, 0)
    assert result.game_ids == before and ids(engine) == list(before)
    assert record(engine, before[1]) == edited(b)


def test_a_copy_in_another_file_keeps_its_version(
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """STORE.md: a record copied into a second file is not lost when the first is edited."""
    a = night(51)
    one = _write(tmp_path / "one.zfn", [a])
    _write(tmp_path / "copy.zfn", [a])
    with session(engine) as s:
        import_file(s, path=one)
        import_file(s, path=tmp_path / "copy.zfn")
    _write(one, [edited(a)])
    with session(engine) as s:
        result = import_file(s, path=one)
    assert (result.added, result.replaced) == (1, 0)
    assert [record(engine, i) for i in ids(engine)] == [a, edited(a)]


def test_a_failure_part_way_leaves_the_corrected_game_as_it_was(
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a = night(61)
    with session(engine) as s:
        import_file(s, path=_write(tmp_path / "a.zfn", [a]))
    before = counts(engine)
    path = _write(tmp_path / "fix.zfn", [edited(a), _sim(3, 62)])

    def fail_at_second(number: int) -> None:
        if number == 2:
            raise RuntimeError("disk full, say")

    with pytest.raises(RuntimeError), session(engine) as s:
        import_file(s, path=path, on_game=fail_at_second)
    assert counts(engine) == before
    assert [record(engine, i) for i in ids(engine)] == [a]


@pytest.mark.slow
def test_recognition_with_worker_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'w.db'}"
    games = [night(70 + i) for i in range(20)]
    _write(tmp_path / "season.zfn", games)
    assert cli("import", str(tmp_path / "season.zfn"), "--db", db, "-j", "2")[0] == 0
    fixed = [edited(games[5])]
    code, output = cli("import", str(_write(tmp_path / "fix.zfn", fixed)), "--db", db, "-j", "2")
    assert code in (0, 1), output
    assert "replaces stored game 6" in output, output


# --- delete -------------------------------------------------------------------------------------


def test_delete_removes_a_game_and_everything_derived_from_it(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    a, b = night(81), _sim(3, 82)
    path = _write(tmp_path / "night.zfn", [a, b])
    cli("import", str(path), "--db", store_url)
    first, second = ids(engine)
    alone = counts(engine)
    with session(engine) as s:
        put_artifact(
            s, game_id=first, hand_number=1, kind="replay_html", name="hand-1.html",
            content=b"x", mime="text/html", source_hash="h",
        )  # fmt: skip
    code, output = cli("delete", str(first), "--db", store_url)
    assert code == 0, output
    assert f"game {first} deleted (Friday club, 2026.11.27, Ann, Bo Li, 王芳, Dieter" in output
    assert f"note: {path} (game 1) still holds it" in output
    assert ids(engine) == [second]
    after = counts(engine)
    assert after["game"] == 1 and after["artifact"] == 0
    for table in ("seat", "hand", "hand_seat", "play"):
        assert 0 < after[table] < alone[table], table
    code, output = cli("delete", str(first), "--db", store_url)
    assert code == 2 and output.strip() == f"error: no game {first} in the store"
    code, output = cli("delete", str(second), "--db", store_url, "--json")
    assert json.loads(output)["files"] == [{"path": str(path.resolve()), "position": 2}]
    assert counts(engine) == dict.fromkeys(TABLES, 0) | {"player": after["player"]}


def test_delete_of_a_live_tables_game_keeps_the_table(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
) -> None:
    table, token = Table.create(engine, players=["Ann", "Bo", "Cy"], target=1)
    table.start_hand(token, shuffler=1)
    with engine.begin() as conn:  # a finished table, as finish_live_game leaves it
        conn.execute(text("UPDATE live_table SET over = true"))
    # Store a game for the table to hold.
    with session(engine) as s:
        from zfrec.store import finish_live_game

        game_id = finish_live_game(s, table_id=table.id, game=night(91))
    code, output = cli("delete", str(game_id), "--db", store_url)
    assert code == 0, output
    code, output = cli("tables", "--db", store_url, "--json")
    (row,) = json.loads(output)
    assert row["id"] == table.id and row["game_id"] is None and row["entries"] == 1


# --- tables --delete ----------------------------------------------------------------------------


def test_tables_delete_removes_an_abandoned_table(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
) -> None:
    keep, _ = Table.create(engine, players=["Ann", "Bo", "Cy"])
    gone, token = Table.create(engine, players=["Dee", "Eve", "Fay"])
    gone.start_hand(token, shuffler=1)
    code, output = cli("tables", "--delete", gone.id, "--db", store_url)
    assert code == 0 and output.strip() == f"live table {gone.id} deleted (1 entries)", output
    code, output = cli("tables", "--db", store_url, "--json")
    assert [t["id"] for t in json.loads(output)] == [keep.id]
    with engine.connect() as conn:
        left = conn.execute(text("SELECT count(*) FROM live_entry")).scalar_one()
    assert left == 0
    code, output = cli("tables", "--delete", gone.id, "--db", store_url)
    assert code == 2 and output.strip() == f"error: no live table {gone.id!r}"
    code, output = cli("tables", "--delete", keep.id, "--db", store_url, "--json")
    assert json.loads(output) == {"deleted": keep.id, "entries": 0, "game_id": None}


def test_tables_record_prints_a_tables_record_so_far(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A match still being played can be validated, imported or published from its record."""
    table, token = Table.create(engine, players=["张三", "Bo", "Cy"])
    table.start_hand(token, shuffler=1)
    code, output = cli("tables", "--record", table.id, "--db", store_url)
    assert code == 0, output
    assert output == table.export("zfn") and "张三" in output and output.endswith("\n")
    path = tmp_path / "so-far.zfn"
    path.write_text(output, encoding="utf-8")
    code, judged = cli("validate", str(path))
    assert code == 0, judged
    code, output = cli("tables", "--record", table.id, "--db", store_url, "--json")
    assert code == 0 and json.loads(output) == json.loads(table.export("json"))
    code, output = cli("tables", "--record", "nosuch", "--db", store_url)
    assert code == 2 and output.strip() == "error: no live table 'nosuch'", output
    code, output = cli("tables", "--record", table.id, "--delete", table.id, "--db", store_url)
    assert code == 2 and "give --delete or --record, not both" in output


@pytest.mark.parametrize("number", [str(2**31), str(10**23), "0"])
def test_game_ids_the_store_cannot_hold_are_bad_arguments(
    store_url: str,  # noqa: F811
    engine: Engine,  # noqa: F811
    tmp_path: Path,
    number: str,
) -> None:
    """They reached the database driver and came back as an internal error (exit 3)."""
    path = _write(tmp_path / "a.zfn", [night(1)])
    for args in (["delete", number], ["show", number], ["export", number],
                 ["import", "--replace", number, str(path)]):  # fmt: skip
        code, output = cli(*args, "--db", store_url)
        assert code == 2, (args, output)
        assert "internal error" not in output, output
        assert "Invalid value for 'game_id'" in output or "Invalid value for '--replace'" in output


def test_the_files_of_a_game_are_read_one_way_for_delete_show_and_the_live_table(
    engine: Engine,  # noqa: F811
    tmp_path: Path,
) -> None:
    """`game_sources` (delete, show) and the live table's check of a game held by a file
    (`sources_of` with the table's record hash) read the same rows, in the same order."""
    from zfrec.store.correct import game_sources, sources_of
    from zfrec.store.firstpass import canonical_json, sha256
    from zfrec.store.live import _file_of

    game = night(41)
    for name in ("b.zfn", "a.zfn"):  # one game, held by two files
        (tmp_path / name).write_text(dumps([game]), encoding="utf-8")
        with session(engine) as s:
            import_file(s, path=tmp_path / name)
    digest = sha256(canonical_json(game))
    with session(engine) as s:
        [row] = list_games(s)
        files = game_sources(s, game_id=row.id)
        conn = s.connection()
        assert files == [(str(tmp_path / "a.zfn"), 1), (str(tmp_path / "b.zfn"), 1)]
        assert sources_of(conn, row.id) == files
        assert sources_of(conn, row.id, unless_hash="0" * 64) == files
        assert sources_of(conn, row.id, unless_hash=digest) == []
        assert _file_of(conn, row.id, "0" * 64) == str(tmp_path / "a.zfn")
        assert _file_of(conn, row.id, digest) is None
        assert sources_of(conn, row.id + 1) == [] and _file_of(conn, row.id + 1, "0" * 64) is None
