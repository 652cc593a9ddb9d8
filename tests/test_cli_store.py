"""The store from the command line (issue 16): only `import` creates a store, so a mistyped
--db is refused and leaves nothing behind; the diagnostics of unreadable games can be seen;
`export --json`.

Like tests/test_store.py, the tests that take `store_url` run on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from tests import test_store
from tests.test_store import PG_ENV, _pg_unavailable
from zfrec.cli import app
from zfrec.record import dumps, load

store_url = test_store.store_url  # the fixture: a SQLite file, then a PostgreSQL schema

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
MISSING = "(check --db and $ZFREC_DB; zfrec import creates a store)"
READERS = [
    ["games"],
    ["show", "1"],
    ["stats"],
    ["export", "1"],
    ["unreadable"],
    ["publish", "--out", "site"],
    ["render", "1", "--out", "page"],
]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """A folder of one legal record, one with a syntax error and one failing the JSON schema."""
    folder = tmp_path / "records"
    folder.mkdir()
    for name in ("02-three-players.zfn", "broken/syntax-error.zfn", "broken/schema-error.json"):
        shutil.copy(SAMPLES / name, folder / Path(name).name)
    return folder


# --- a store that does not exist -----------------------------------------------------------------


@pytest.mark.parametrize("args", READERS, ids=lambda a: a[0])
def test_commands_that_read_refuse_a_missing_sqlite_store_and_create_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ZFREC_DB", raising=False)
    before = listing(tmp_path)
    for db, shown in (
        (["--db", "nosuch.db"], "nosuch.db"),
        (["--db", f"sqlite:///{tmp_path / 'nosuch.db'}"], str(tmp_path / "nosuch.db")),
        ([], "zfrec.db"),  # the default, ./zfrec.db
    ):
        code, out, err = run(*args, *db)
        assert (code, out) == (2, ""), (args, db)
        assert err == f"error: no such database: {shown} {MISSING}\n"
        assert listing(tmp_path) == before
    monkeypatch.setenv("ZFREC_DB", str(tmp_path / "env.db"))
    code, _, err = run(*args)
    assert (code, err) == (2, f"error: no such database: {tmp_path / 'env.db'} {MISSING}\n")
    assert listing(tmp_path) == before


def test_an_existing_file_that_is_not_a_store_is_refused_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    empty = tmp_path / "empty.db"
    empty.touch()
    for args in READERS:
        code, _, err = run(*args, "--db", str(empty))
        assert code == 2, args
        assert err == (
            f"error: sqlite:///{empty} holds no zfrec store: check --db and $ZFREC_DB "
            "(zfrec import creates a store)\n"
        )
    assert empty.stat().st_size == 0
    assert listing(tmp_path) == ["empty.db"]


def test_in_memory_sqlite_holds_no_store() -> None:
    code, _, err = run("games", "--db", "sqlite://")
    assert (code, err) == (2, "error: an in-memory database holds no zfrec store\n")


def test_an_empty_database_is_refused_and_left_empty(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    if store_url.startswith("sqlite"):
        (tmp_path / "store.db").touch()  # a file is there, as a schema is on the server
    for args in READERS:
        code, _, err = run(*args, "--db", store_url)
        assert code == 2, args
        assert "holds no zfrec store: check --db and $ZFREC_DB" in err
        assert "Traceback" not in err
    engine = create_engine(store_url)
    try:
        with engine.connect() as conn:
            assert inspect(conn).get_table_names() == []
    finally:
        engine.dispose()
    assert listing(tmp_path) == (["store.db"] if store_url.startswith("sqlite") else [])
    # import is the command that creates a store; then the readers work
    code, out, _ = run("import", "--db", store_url, str(SAMPLES / "02-three-players.zfn"))
    assert code == 0, out
    code, out, _ = run("games", "--db", store_url)
    assert (code, out.splitlines()[-1]) == (0, "1 game(s)")


def test_a_postgresql_database_that_does_not_exist_is_a_clean_exit_2() -> None:
    base = os.environ.get(PG_ENV)
    if not base:
        _pg_unavailable(f"set {PG_ENV} to a PostgreSQL URL (.ci/services.sh starts a server)")
    assert base is not None
    url = make_url(base).set(database="zfrec_no_such_database")
    shown = url.render_as_string(hide_password=True)
    code, out, err = run("games", "--db", url.render_as_string(hide_password=False))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: cannot open database {shown}: ")
    assert 'database "zfrec_no_such_database" does not exist' in err
    assert len(err.splitlines()) == 1


# --- the diagnostics of unreadable games -------------------------------------------------------


def test_unreadable_games_can_be_seen(store_url: str, records: Path) -> None:
    code, out, _ = run("import", "--db", store_url, str(records))
    assert code == 1, out  # unreadable games are findings; the rest is stored
    assert "2 unreadable" in out

    code, out, err = run("games", "--db", store_url)
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        "2 game(s)",  # the legal record, and game 2 of the file with a syntax error in game 1
        "2 games in 2 files could not be read (not stored): zfrec unreadable shows why",
    ]

    code, data_text, _ = run("unreadable", "--db", store_url, "--json")
    assert code == 0
    data = json.loads(data_text)
    schema, syntax = records / "schema-error.json", records / "syntax-error.zfn"
    assert [(d["source"], d["code"], d["game"], d["line"], d["col"]) for d in data] == [
        (str(schema.resolve()), "ZF002", 1, None, None),
        (str(syntax.resolve()), "ZF001", 1, 12, 12),
    ]
    # the messages are the reader's; validate, which reads on past an unreadable move, gives the
    # same reason and adds its suggestions
    code, report, _ = run("validate", "--json", str(schema), str(syntax))
    found = [d for f in json.loads(report)["files"] for d in f["diagnostics"] if d["code"] < "ZF1"]
    assert len(found) == len(data) == 2
    for stored, validated in zip(data, found, strict=True):
        assert validated["message"].startswith(stored["message"].split("\n")[0])
    assert found[1]["message"].endswith("did you mean 7s or 7d? (the move is skipped)")

    code, out, _ = run("unreadable", "--db", store_url)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == str(schema.resolve())
    assert lines[1].split(None, 4) == ["game", "1", "-", "ZF002", data[0]["message"]]
    assert lines[2] == str(syntax.resolve())
    head = data[1]["message"].splitlines()[0]
    assert lines[3].split(None, 4) == ["game", "1", "12:12", "ZF001", head]
    assert lines[4].strip() == "12 | 1: 3h  2: 7x" and lines[5].strip().endswith("^")
    assert lines[-1] == "2 unreadable games in 2 files"

    code, out, _ = run("unreadable", "--db", store_url, "--file", str(syntax))
    assert code == 0 and out.splitlines()[-1] == "1 unreadable game in 1 file"
    good = records / "02-three-players.zfn"
    code, out, _ = run("unreadable", "--db", store_url, "--file", str(good))
    assert (code, out) == (0, f"no unreadable games stored from {good}\n")

    # mend the file and import it again: its diagnostic goes, and so does the note
    syntax.write_text(
        syntax.read_text(encoding="utf-8").replace("2: 7x", "2: 7h"), encoding="utf-8"
    )
    code, out, _ = run("import", "--db", store_url, str(syntax))
    # the mended game reads now; exit 1 only for what the rules still find in it
    assert "0 unreadable" in out and (code == 0) == ("0 flagged with errors" in out), out
    code, data_text, _ = run("unreadable", "--db", store_url, "--json")
    assert [d["source"] for d in json.loads(data_text)] == [str(schema.resolve())]


def test_no_unreadable_games(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    assert run("import", "--db", db, str(SAMPLES / "02-three-players.zfn"))[0] == 0
    assert run("unreadable", "--db", db) == (0, "no unreadable games stored\n", "")
    assert run("unreadable", "--db", db, "--json") == (0, "[]\n", "")
    assert run("games", "--db", db)[1].splitlines()[-1] == "1 game(s)"


# --- export --json -----------------------------------------------------------------------------


def test_export_takes_json_like_the_other_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    source = SAMPLES / "02-three-players.zfn"
    assert run("import", "--db", db, str(source))[0] == 0
    expected = dumps(next(iter(load(source))), "json")
    assert run("export", "1", "--db", db, "--json") == (0, expected, "")
    assert run("export", "1", "--db", db, "--format", "json") == (0, expected, "")
    assert run("export", "1", "--db", db, "--json", "--format", "json")[:2] == (0, expected)
    assert run("export", "1", "--db", db) == (0, dumps(next(iter(load(source)))), "")
    code, out, err = run("export", "1", "--db", db, "--json", "--format", "zfn")
    assert (code, out) == (2, "")
    assert err == "error: --json and --format zfn ask for different formats: give one\n"
    target = tmp_path / "sub" / "g.json"
    assert run("export", "1", "--db", db, "--json", "--out", str(target))[0] == 0
    assert target.read_text("utf-8") == expected


def test_export_says_the_stored_game_was_read_in_part(tmp_path: Path) -> None:
    """A misspelt seat read as meant, a misspelt line skipped (`scroe` with a score short,
    which cannot be read as the score line it misspells): the stored record has no trace of
    the skipped line, so export says on stderr that the game was read in part and which lines
    were not kept (the record on stdout is the one kept, unchanged)."""
    source = tmp_path / "part.zfn"
    source.write_text(
        '[Players "Ann, Bob, Cyd"]\n\nhand 1\n1: 3h  Bbo: 9h  3: Th\nscroe 0 0\n', "utf-8"
    )
    db = str(tmp_path / "s.db")
    assert run("import", "--db", db, str(source))[0] == 1  # stored, flagged with its errors
    for extra in ((), ("--json",)):
        code, out, err = run("export", "1", "--db", db, *extra)
        assert code == 0 and "scroe" not in out
        lines = err.splitlines()
        assert lines[0] == (
            "zfrec: game 1 was read in part when imported; this is the record as kept:"
        )
        assert lines[1].startswith(f"  line 4 of {source}: read as meant: no player is called")
        assert lines[2].startswith(
            f"  line 5 of {source}: not kept: unknown line 'scroe': did you mean score?"
        )
    clean = tmp_path / "clean.zfn"
    clean.write_text('[Players "Ann, Bob, Cyd"]\n\nhand 1\n1: 3h  2: 9h  3: Ts\n', "utf-8")
    assert run("import", "--db", db, str(clean))[0] in (0, 1)
    assert run("export", "2", "--db", db)[2] == ""


def test_export_says_a_misspelt_keyword_was_read_as_meant(tmp_path: Path) -> None:
    """`scroe 0 0 0` and `hnad 2` are stored as the score and hand lines they misspell: the
    record exported writes them as such, and stderr says where they were read as meant."""
    source = tmp_path / "typo.zfn"
    source.write_text(
        '[Players "Ann, Bob, Cyd"]\n\nhand 1\n1: 3h  2: 9h  3: Th\nscroe 0 0 0\n\n'
        "hnad 2\n1: 4h  2: 5h  3: 6h\n",
        "utf-8",
    )
    db = str(tmp_path / "s.db")
    assert run("import", "--db", db, str(source))[0] == 1  # stored, flagged with its errors
    code, out, err = run("export", "1", "--db", db)
    assert code == 0 and "scroe" not in out and "hnad" not in out
    assert "\nscore 0 0 0\n" in out and "\nhand 2\n" in out
    assert err.splitlines()[1:] == [
        f"  line 5 of {source}: read as meant: unknown line 'scroe': did you mean score? "
        "(read as score)",
        f"  line 7 of {source}: read as meant: unknown line 'hnad': did you mean hand? "
        "(read as hand)",
    ]


def test_games_keeps_each_name_whole_at_80_columns(tmp_path: Path) -> None:
    """A players' list too wide for its column wraps between names, never inside one
    (`Tom Wu` is one name), at a terminal of 80 columns."""
    import subprocess
    import sys

    names = ["张伟", "陈静", "李强", "Tom Wu"]
    record = tmp_path / "g.zfn"
    record.write_text(
        f'[Event "春季联赛 第3周 决赛 加时"]\n[Players "{", ".join(names)}"]\n\nhand 1\n'
        "1: 3h  2: 3s  3: 4h  4: 4s\n",
        "utf-8",
    )
    db = str(tmp_path / "s.db")
    assert run("import", "--db", db, str(record))[0] in (0, 1)
    shown = subprocess.run(
        [sys.executable, "-m", "zfrec", "games", "--db", db],
        capture_output=True, text=True, check=True,
        env={**os.environ, "COLUMNS": "80", "TERM": "dumb"},
    ).stdout  # fmt: skip
    lines = shown.splitlines()
    assert all(name in shown for name in names)  # each whole, on one line
    assert not [line for line in lines if "Tom" in line and "Tom Wu" not in line], shown
    assert "…" not in shown


def test_games_wraps_no_list_that_fits_at_80_columns(tmp_path: Path) -> None:
    """Names that fit beside the other columns stay on the game's one line."""
    import subprocess
    import sys

    record = tmp_path / "g.zfn"
    record.write_text(
        '[Event "周五"]\n[Players "Ann Li, Bo Wu, 张伟"]\n\nhand 1\n1: 3h  2: 3s  3: 4h\n',
        "utf-8",
    )
    db = str(tmp_path / "s.db")
    assert run("import", "--db", db, str(record))[0] in (0, 1)
    shown = subprocess.run(
        [sys.executable, "-m", "zfrec", "games", "--db", db],
        capture_output=True, text=True, check=True,
        env={**os.environ, "COLUMNS": "80", "TERM": "dumb"},
    ).stdout  # fmt: skip
    assert "Ann Li, Bo Wu, 张伟" in shown.splitlines()[1], shown
