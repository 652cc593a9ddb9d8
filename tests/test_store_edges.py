"""The store where a club's record keeper meets it: database URLs whose secrets must never be
shown, mistyped URLs, a locked SQLite file, an import that is interrupted, corrections of
Sheng ji matches, and folders that hold a published site.

The tests run `zfrec` as a separate process where the entry point's own handling matters (an
internal error, a signal), and through typer's runner elsewhere.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Connection

from tests import test_store
from zfrec.store import StoreError, open_store
from zfrec.store.db import describe

store_url = test_store.store_url  # the fixture: a SQLite file, then a PostgreSQL schema

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
SECRET = "hunter2"


def zfrec(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`zfrec ARGS` as a user runs it: its own process, through the console entry point."""
    env = {k: v for k, v in os.environ.items() if k not in ("ZFREC_DB", "ZFREC_TRACEBACK")}
    return subprocess.run(
        [sys.executable, "-c", "from zfrec.cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


# secrets in database URLs -----------------------------------------------------------------------

# Each holds the secret somewhere a message could show it: in the query (libpq's password and
# sslpassword parameters), after an unescaped @ (part of the password read as the host), or in
# a URL SQLAlchemy cannot read, or one mistyped without its `//`.
LEAKY_URLS = [
    f"postgresql+psycopg://someone@127.0.0.1:1/x?password={SECRET}",
    f"postgresql+psycopg://someone@127.0.0.1:1/x?sslmode=require&sslpassword={SECRET}",
    f"postgresql+psycopg://someone:pass@{SECRET}@127.0.0.1:1/x",
    f"postgresql+psycopg://someone:{SECRET}@127.0.0.1:abc/x",
    f"postgresql+psycopg://someone:{SECRET}@[::1/x",
    f"pg sql://someone:{SECRET}@127.0.0.1/x",
    f"pg sql://someone:{SECRET}/{SECRET}@127.0.0.1/x",
    f"postgresql+psycopg:/someone:{SECRET}@127.0.0.1/x",
    f"postgresql:someone:{SECRET}@127.0.0.1/x",
]


@pytest.mark.parametrize("url", LEAKY_URLS)
def test_describe_never_shows_a_secret(url: str) -> None:
    shown = describe(url)
    assert SECRET not in shown
    assert "***" in shown


@pytest.mark.parametrize("url", LEAKY_URLS)
def test_a_bad_or_unreachable_url_is_one_line_exit_2_without_its_secret(
    url: str, tmp_path: Path
) -> None:
    with pytest.raises(StoreError) as info:
        open_store(url)
    assert SECRET not in str(info.value)
    record = SAMPLES / "02-three-players.zfn"
    for args in (["games"], ["import", str(record), "--json"], ["stats", "--json"]):
        done = zfrec(*args, "--db", url, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
        assert SECRET not in done.stderr
        if "--json" in args:  # refused under --json: its document, with the error
            said = json.loads(done.stdout)
            assert said.get("summary", said)["error"] == done.stderr[7:-1]
            assert SECRET not in done.stdout
        else:
            assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # a mistyped URL is not a SQLite file to create


def test_a_url_mistyped_without_slashes_is_refused_not_made_a_file(tmp_path: Path) -> None:
    url = f"postgresql+psycopg:/someone:{SECRET}@127.0.0.1/x"
    done = zfrec("import", str(SAMPLES / "02-three-players.zfn"), "--db", url, cwd=tmp_path)
    assert done.returncode == 2
    assert "not a database URL" in done.stderr and SECRET not in done.stderr
    # a plain path with a colon in a file name is still a SQLite file
    done = zfrec(
        "import", str(SAMPLES / "02-three-players.zfn"), "--db", "club:2026.db", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "club:2026.db").is_file()


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)  # libpq's query password
def test_a_password_in_the_query_is_hidden_on_success(store_url: str, tmp_path: Path) -> None:
    url = f"{store_url}&password={SECRET}"  # the test server trusts the role: it is not checked
    record = SAMPLES / "02-three-players.zfn"
    done = zfrec("import", str(record), "--db", url, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert '"database": "postgresql+psycopg://' in done.stdout
    done = zfrec("import", str(record), "--db", url, cwd=tmp_path)
    assert done.returncode == 0 and SECRET not in done.stdout + done.stderr
    assert "password=***" in done.stdout


# a locked SQLite file ---------------------------------------------------------------------------


def test_an_import_waits_for_a_locked_sqlite_store_once_not_five_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the write lock past the busy timeout: the import stops there, one
    line, exit 2 (the store cannot be used now), and neither retries the file nor goes on to
    wait again for every other file."""
    import sqlite3

    from typer.testing import CliRunner

    from zfrec.cli import app
    from zfrec.store import db

    store = tmp_path / "club.db"
    first, second = SAMPLES / "02-three-players.zfn", SAMPLES / "03-five-players.zfn"
    runner = CliRunner()
    assert runner.invoke(app, ["import", str(first), "--db", str(store)]).exit_code == 0
    monkeypatch.setattr(db, "BUSY_TIMEOUT_S", 0.2)
    began: list[int] = []
    real_begin = db._sqlite_begin

    def counting_begin(connection: Connection) -> None:  # counts the tries for the lock
        if not connection.get_execution_options().get(db.READONLY, False):
            began.append(1)
        real_begin(connection)

    monkeypatch.setattr(db, "_sqlite_begin", counting_begin)
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a second process writing, mid-transaction
    try:
        result = runner.invoke(app, ["import", str(second), str(first), "--db", str(store)])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 2, result.output
    assert "the store cannot be used now: database is locked" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "could not store the file" not in result.stderr
    assert len(began) == 1  # one try for the write lock, of the first file only


# an interrupted import --------------------------------------------------------------------------


def _stored_games(store: Path) -> int:
    import sqlite3

    if not store.exists():
        return 0
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as conn:
        try:
            return int(conn.execute("SELECT count(*) FROM game").fetchone()[0])
        except sqlite3.OperationalError:  # the schema is being made
            return 0


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [True, False])
def test_ctrl_c_during_an_import_says_what_was_stored(tmp_path: Path, as_json: bool) -> None:
    """Ctrl-C after the first file was stored, in the second: the import stops once the file
    it is storing is stored whole (README, exit codes: a commit the signal cut left the store's
    session in no state to say what was stored), and the output says which files were stored
    (`--json`: the document still ends, with `"error": "interrupted"`), exit 130."""
    import json
    import signal
    import sqlite3
    import time

    from zfrec.games.zhengfen.engine.rules import preset
    from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
    from zfrec.record import dumps

    small = tmp_path / "a-small.zfn"
    small.write_text((SAMPLES / "02-three-players.zfn").read_text("utf-8"), "utf-8")
    config = SimConfig(4, preset("pagat"), "random", 20)
    big = tmp_path / "b-big.zfn"
    big.write_text(dumps([simulate_game(config, 500 + i) for i in range(80)], "zfn"), "utf-8")
    store = tmp_path / "club.db"
    args = [sys.executable, "-c", "from zfrec.cli import main; main()", "import"]
    args += [str(small), str(big), "--db", str(store)] + (["--json"] if as_json else [])
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a Ctrl-C at a terminal: the signal's default action, which a shell's & would ignore
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while _stored_games(store) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # the signal lands in the big file, which is then stored whole, or (on a busy machine)
    # between the two files, and the big one is not begun
    stored = _stored_games(store)
    said, files = {
        81: (f"interrupted after importing {big}: the files up to it were imported", [small, big]),
        1: (f"interrupted after importing {small}: the files up to it were imported; the 1 "
            "file(s) after it were not imported", [small]),
    }[stored]  # fmt: skip
    if as_json:
        doc = json.loads(out)
        assert [f["path"] for f in doc["files"]] == list(map(str, files))
        assert doc["summary"]["added"] == stored
        assert doc["summary"]["error"] == said
    else:
        assert f"{stored} game(s) added" in out
        [line] = err.strip().splitlines()
        assert line.removeprefix("error: ") == said


@pytest.mark.parametrize("as_json", [True, False])
def test_an_import_stopped_by_the_database_says_what_was_and_was_not_stored(
    store_url: str, tmp_path: Path, as_json: bool
) -> None:
    """The database refuses a write in the second of three files (its `play` table is dropped
    while the file is being read: a FIFO lets the test act at that moment): the first file's
    game stays stored, nothing of the others is, and the output says exactly that, in JSON and
    in text. A table gone is the store's damage, on either database (SQLite's `no such table`,
    PostgreSQL's `relation does not exist`): the run stops there, exit 2, not a bug's exit 3,
    and no later file is tried against a store that cannot take it."""
    import threading

    from sqlalchemy import create_engine, text

    first, third = SAMPLES / "02-three-players.zfn", SAMPLES / "03-five-players.zfn"
    fifo = tmp_path / "second.zfn"
    os.mkfifo(fifo)
    engine = create_engine(store_url)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as w:  # opens once the import opens the file
            with engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # never wait for ever on a lock
                    conn.execute(text("SET lock_timeout = '20s'"))
                conn.execute(text("DROP TABLE play"))
            w.write((SAMPLES / "04-six-players.zfn").read_text("utf-8"))

    feeder = threading.Thread(target=feed)
    feeder.start()
    args = ["import", str(first), str(fifo), str(third), "--db", store_url]
    done = zfrec(*args, *(["--json"] if as_json else []))
    feeder.join(timeout=60)
    with engine.connect() as conn:  # what the store really holds: the first file's game alone
        stored = conn.execute(text("SELECT path FROM game_source")).scalars().all()
        games = conn.execute(text("SELECT count(*) FROM game")).scalar()
    engine.dispose()
    assert (games, [Path(p).name for p in stored]) == (1, [first.name])
    doc = json.loads(done.stdout) if as_json else None
    if doc is not None:
        assert [(f["path"], f["added"]) for f in doc["files"]] == [(str(first), 1)]
        assert doc["summary"]["added"] == 1
    else:
        assert ": 1 game(s) added (2 hand(s)), " in done.stdout
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    gone = "no such table: play" if store_url.startswith("sqlite") else (
        'relation "play" does not exist'
    )  # fmt: skip
    assert line.startswith(f"error: the store is damaged: {gone} (a table of zfrec's is gone"), line
    assert line.endswith(
        f"while importing {fifo}: nothing of it was stored; the 1 file(s) after it were not "
        "imported"
    )
    if doc is not None:
        assert doc["failed"] == [] and doc["not_imported"] == [str(fifo), str(third)]
        assert doc["summary"]["error"] == line.removeprefix("error: ")


# Bugs of zfrec's that reach the database or SQLAlchemy, planted in the second file's write
# (zfrec.store.importer._write_file), each on the real database: our SQL that the database
# cannot read (SQLite words it an OperationalError, PostgreSQL a ProgrammingError), a row that
# breaks a NOT NULL constraint (an IntegrityError no concurrent writer causes: not retried), a
# statement SQLAlchemy refuses before it reaches the database (ArgumentError), a value the
# driver cannot bind (a ProgrammingError on either), and a result read from a cursor our code
# closed (psycopg's InterfaceError, "the cursor is closed": the driver's interface misused, not
# the database; SQLite's ProgrammingError).
_SQL_BUGS = {
    "syntax": 'session.execute(text("SELEC 1"))',
    "not-null": 'session.execute(text("INSERT INTO player (key, name) VALUES (NULL, NULL)"))',
    "argument": 'session.execute(text("SELECT 1").bindparams(nosuch=1))',
    "binding": 'session.execute(text("SELECT :a"), {"a": object()})',
    "closed-cursor": 'r = session.execute(text("SELECT 1")); r.cursor.close(); r.all()',
}


@pytest.mark.parametrize("bug", sorted(_SQL_BUGS))
def test_an_import_stopped_by_a_bug_in_its_sql_is_an_internal_error(
    store_url: str, bug: str
) -> None:
    """Not a database error (exit 2): an internal error, exit 3, the failure document under
    --json, the bug's report on standard error; the first file stays stored."""
    names = ("02-three-players.zfn", "03-five-players.zfn", "04-six-players.zfn")
    first, second, third = (SAMPLES / name for name in names)
    plant = (
        "from sqlalchemy import text\n"
        "import zfrec.store.importer as m\n"
        "real, calls = m._write_file, []\n"
        "def second_breaks(session, *a, **k):\n"
        "    calls.append(1)\n"
        "    if len(calls) == 2:\n"
        f"        {_SQL_BUGS[bug]}\n"
        "    return real(session, *a, **k)\n"
        "m._write_file = second_breaks\n"
        "from zfrec.cli import main\n"
        "main()\n"
    )
    args = ["import", str(first), str(second), str(third), "--db", store_url, "--json"]
    env = {k: v for k, v in os.environ.items() if k not in ("ZFREC_DB", "ZFREC_TRACEBACK")}
    done = subprocess.run(
        [sys.executable, "-c", plant, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 3, done.stderr
    sqlite = store_url.startswith("sqlite")
    kind = {
        "syntax": "OperationalError" if sqlite else "ProgrammingError",
        "not-null": "IntegrityError",
        "argument": "ArgumentError",
        "binding": "ProgrammingError",
        "closed-cursor": "ProgrammingError" if sqlite else "InterfaceError",
    }[bug]
    said, report = done.stderr.splitlines()
    assert said.startswith(f"error: internal error ({kind}: "), said
    assert said.endswith(
        f") while importing {second}: nothing of it was stored; the 1 file(s) after it were "
        "not imported"
    )
    assert report.startswith(f"internal error while processing {second}: {kind}: ")
    assert "database error" not in done.stderr
    doc = json.loads(done.stdout)
    assert doc["summary"]["error"] == said.removeprefix("error: ")
    assert [Path(f["path"]).name for f in doc["files"]] == [first.name]
    assert doc["not_imported"] == [str(second), str(third)]


def test_a_sqlite_connection_our_code_closed_is_an_internal_error_not_a_lost_one(
    tmp_path: Path,
) -> None:
    """SQLAlchemy takes SQLite's "Cannot operate on a closed database" (a ProgrammingError) for
    a connection lost, as it would a server's: but a SQLite file has no connection to lose, so
    only our own code can have closed it. Exit 3, not "the store cannot be used now" (2), and
    the write is not tried again on a new connection, which hid the bug."""
    names = ("02-three-players.zfn", "03-five-players.zfn")
    first, second = (SAMPLES / name for name in names)
    plant = (
        "from sqlalchemy import text\n"
        "import zfrec.store.importer as m\n"
        "real, calls = m._write_file, []\n"
        "def second_breaks(session, *a, **k):\n"
        "    calls.append(1)\n"
        "    if len(calls) == 2:\n"
        "        session.connection().connection.dbapi_connection.close()\n"
        "        session.execute(text('SELECT 1'))\n"
        "    return real(session, *a, **k)\n"
        "m._write_file = second_breaks\n"
        "from zfrec.cli import main\n"
        "main()\n"
    )
    args = ["import", str(first), str(second), "--db", str(tmp_path / "club.db")]
    env = {k: v for k, v in os.environ.items() if k not in ("ZFREC_DB", "ZFREC_TRACEBACK")}
    done = subprocess.run(
        [sys.executable, "-c", plant, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 3, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert said == [
        "error: internal error (ProgrammingError: (sqlite3.ProgrammingError) Cannot operate on "
        f"a closed database.) while importing {second}: nothing of it was stored"
    ]
    assert "1 game(s) added" in done.stdout  # the first file's, stored before


@pytest.mark.parametrize("as_json", [True, False])
def test_an_import_stopped_by_an_internal_error_says_what_was_not_imported(
    tmp_path: Path, as_json: bool
) -> None:
    """A bug in the second of three files (exit 3): the summary of the first, then the line
    that says nothing of the second was stored and the third was not reached, then the bug's
    report; in text as under --json (whose document says it too)."""
    names = ("02-three-players.zfn", "03-five-players.zfn", "04-six-players.zfn")
    first, second, third = (SAMPLES / name for name in names)
    args = ["import", str(first), str(second), str(third), "--db", str(tmp_path / "c.db")]
    plant = (  # a fault (a bug made on purpose) in storing the second file's game
        "import zfrec.store.importer as m\n"
        "real, calls = m._insert_children, []\n"
        "def second_fails(*a, **k):\n"
        "    calls.append(1)\n"
        "    if len(calls) == 2:\n"
        "        raise RuntimeError('planted fault')\n"
        "    return real(*a, **k)\n"
        "m._insert_children = second_fails\n"
        "from zfrec.cli import main\n"
        "main()\n"
    )
    argv = [sys.executable, "-c", plant, *args, *(["--json"] if as_json else [])]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 3, done.stderr
    lines = done.stderr.splitlines()
    said = (f"error: internal error (RuntimeError: planted fault) while importing {second}: "
            "nothing of it was stored; the 1 file(s) after it were not imported")  # fmt: skip
    assert lines[0] == said, done.stderr
    assert lines[1].startswith(f"internal error while processing {second}: RuntimeError: ")
    if as_json:
        doc = json.loads(done.stdout)
        assert doc["not_imported"] == [str(second), str(third)]
        assert doc["summary"]["error"] == said.removeprefix("error: ")
    else:
        assert ": 1 game(s) added (2 hand(s)), " in done.stdout


# correcting a stored Sheng ji match -------------------------------------------------------------


def test_correcting_a_sheng_ji_match_renames_a_player_and_counts_its_rounds(
    store_url: str, tmp_path: Path
) -> None:
    """A record keeper exports a match, puts the Chinese name of a player in place of the one
    written, fixes a card, and replaces the match: the reply counts its rounds, and `show` and
    the Sheng ji statistics follow the correction."""
    import json

    from typer.testing import CliRunner

    from zfrec.cli import app

    runner = CliRunner()
    source = SAMPLES / "shengji" / "01-bashifen-match.zfn"
    assert runner.invoke(app, ["import", str(source), "--db", store_url]).exit_code == 0
    shown = json.loads(runner.invoke(app, ["show", "1", "--db", store_url, "--json"]).stdout)
    rounds = len(shown["round_results"])
    assert rounds > 1
    edited = tmp_path / "match.zfn"
    exported = runner.invoke(app, ["export", "1", "--db", store_url]).stdout
    old_name = shown["players"][0]
    edited.write_text(exported.replace(old_name, "张伟"), "utf-8")
    done = runner.invoke(
        app, ["import", "--replace", "1", str(edited), "--db", store_url, "--json"]
    )
    assert done.exit_code == 0, done.output
    reply = json.loads(done.stdout)
    assert (reply["changed"], reply["hands"]) == (True, rounds)
    done = runner.invoke(app, ["import", "--replace", "1", str(edited), "--db", store_url])
    assert "nothing to replace" in done.stdout
    edited.write_text(exported.replace(old_name, "刘洋"), "utf-8")
    done = runner.invoke(app, ["import", "--replace", "1", str(edited), "--db", store_url])
    assert done.exit_code == 0
    assert f"({rounds} rounds)" in done.stdout
    shown = json.loads(runner.invoke(app, ["show", "1", "--db", store_url, "--json"]).stdout)
    assert shown["players"][0] == "刘洋"
    stats = runner.invoke(app, ["stats", "--game", "shengji", "--db", store_url, "--json"])
    names = [p["name"] for p in json.loads(stats.stdout)]
    assert "刘洋" in names and old_name not in names and "张伟" not in names


# a records folder that holds other things -------------------------------------------------------


def test_a_folder_with_a_site_published_into_it_imports_only_its_records(tmp_path: Path) -> None:
    """Hidden files and folders are not records: the site's manifest (`.zfrec-site.json`), an
    editor's lock file (`.#game.zfn`, a link to nowhere), a `.git` folder. They are left out of
    a folder's walk, as `validate` leaves them out; a file named on the command line is read."""
    from typer.testing import CliRunner

    from zfrec.cli import app

    runner = CliRunner()
    records = tmp_path / "club"
    records.mkdir()
    (records / "night.zfn").write_text((SAMPLES / "02-three-players.zfn").read_text("utf-8"))
    store = str(tmp_path / "club.db")
    assert runner.invoke(app, ["import", str(records), "--db", store]).exit_code == 0
    done = runner.invoke(app, ["publish", "--db", store, "--out", str(records / "site")])
    assert done.exit_code == 0, done.output
    assert (records / "site" / ".zfrec-site.json").is_file()
    (records / ".#night.zfn").symlink_to("someone@laptop.4242:1700000000")
    (records / ".git").mkdir()
    (records / ".git" / "stash.json").write_text("{}")
    for command in (["import", str(records), "--db", store], ["validate", str(records)]):
        done = runner.invoke(app, command)
        assert done.exit_code == 0, done.output
        assert ".zfrec-site" not in done.output and ".#night" not in done.output
    done = runner.invoke(app, ["import", str(records / ".git" / "stash.json"), "--db", store])
    assert done.exit_code == 1  # named: read, and it holds no game


def test_publish_where_its_lock_or_folder_cannot_be_written_says_so(tmp_path: Path) -> None:
    """The lock file beside the site cannot be made (here a folder holds its name; a read-only
    file system or a full disk answer the same way): one line saying it cannot be written,
    exit 2, not "is a directory: give a record file" nor "cannot read"."""
    from typer.testing import CliRunner

    from zfrec.cli import app

    runner = CliRunner()
    store = str(tmp_path / "club.db")
    record = str(SAMPLES / "02-three-players.zfn")
    assert runner.invoke(app, ["import", record, "--db", store]).exit_code == 0
    (tmp_path / ".site.publish.lock").mkdir()
    done = runner.invoke(app, ["publish", "--db", store, "--out", str(tmp_path / "site")])
    assert done.exit_code == 2
    lock = tmp_path / ".site.publish.lock"
    assert done.stderr == f"error: cannot write {lock}: it is a directory\n"
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("as_json", [False, True])
def test_a_file_whose_name_is_not_utf8_fails_alone(tmp_path: Path, as_json: bool) -> None:
    """An old archive's file named in Latin-1 (`Pöppel.zfn` as the byte F6): the store keeps
    file names as text, so that file is not imported, said in one line, and the others are
    (exit 1, as for any file that could not be stored); `--json` stays valid JSON."""
    import json

    folder = tmp_path / "archive"
    folder.mkdir()
    latin1 = os.fsdecode(bytes(folder) + b"/P\xf6ppel.zfn")
    Path(latin1).write_text((SAMPLES / "06-poppel-self-overplay.zfn").read_text("utf-8"))
    (folder / "张伟.zfn").write_text((SAMPLES / "02-three-players.zfn").read_text("utf-8"))
    store = str(tmp_path / "club.db")
    done = zfrec("import", str(folder), "--db", store, *(["--json"] if as_json else []))
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr
    if as_json:
        doc = json.loads(done.stdout)
        assert doc["summary"]["added"] == 1
        [failed] = doc["failed"]
        assert failed["path"].endswith("P\ufffdppel.zfn")
        assert "name is not UTF-8" in failed["error"]
    else:
        assert "1 game(s) added" in done.stdout
        [line] = done.stderr.splitlines()
        assert line.startswith("error: ") and "P\ufffdppel.zfn" in line
        assert "name is not UTF-8" in line
    replaced = zfrec("import", "--replace", "1", latin1, "--db", store)
    assert replaced.returncode == 2 and "name is not UTF-8" in replaced.stderr


def test_validate_json_of_a_file_whose_name_is_not_utf8_stays_valid_json(tmp_path: Path) -> None:
    """`validate --json` names such a file with U+FFFD for its bytes that are not text: the
    document stays UTF-8 JSON (it held the raw byte, or stopped with an internal error)."""
    import json

    folder = tmp_path / "archive"
    folder.mkdir()
    broken = (SAMPLES / "broken" / "does-not-beat.zfn").read_text("utf-8")
    Path(os.fsdecode(bytes(folder) + b"/B\xe4d.zfn")).write_text(broken)
    Path(os.fsdecode(bytes(folder) + b"/P\xf6ppel.zfn")).write_text(
        (SAMPLES / "06-poppel-self-overplay.zfn").read_text("utf-8")
    )
    command = [sys.executable, "-c", "from zfrec.cli import main; main()", "validate"]
    done = subprocess.run(
        [*command, str(folder), "--json"],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout.decode("utf-8"))  # strict: every byte is UTF-8
    paths = [Path(f["path"]).name for f in doc["files"]]
    assert paths == ["B\ufffdd.zfn", "P\ufffdppel.zfn"]
    assert doc["summary"]["errors"] >= 1


# a name's spelling corrected --------------------------------------------------------------------


def test_a_corrected_spelling_of_a_name_is_the_one_shown(store_url: str, tmp_path: Path) -> None:
    """Names match ignoring case, and a player is shown as first spelt. When a correction
    leaves no game spelling the name that way (`mei` corrected to `Mei`, by importing the
    edited file again or by --replace), stats and the player's page show the spelling the stored
    games use."""
    import json

    from typer.testing import CliRunner

    from zfrec.cli import app

    runner = CliRunner()
    text = (SAMPLES / "02-three-players.zfn").read_text("utf-8")
    record = tmp_path / "night.zfn"
    record.write_text(text.replace("Mei, Jun, Hao", "mei, Jun, hao"), "utf-8")

    def names() -> list[str]:
        done = runner.invoke(app, ["stats", "--db", store_url, "--json"])
        return sorted(p["name"] for p in json.loads(done.stdout))

    assert runner.invoke(app, ["import", str(record), "--db", store_url]).exit_code == 0
    assert names() == ["Jun", "hao", "mei"]
    record.write_text(text.replace("Mei, Jun, Hao", "Mei, Jun, hao"), "utf-8")  # edited
    done = runner.invoke(app, ["import", str(record), "--db", store_url])
    assert done.exit_code == 0, done.output  # no date: the new version replaces the old
    assert names() == ["Jun", "Mei", "hao"]
    fixed = tmp_path / "fixed.zfn"
    fixed.write_text(text, "utf-8")
    listed = json.loads(runner.invoke(app, ["games", "--db", store_url, "--json"]).stdout)
    [game_id] = [str(g["id"]) for g in listed]
    done = runner.invoke(app, ["import", "--replace", game_id, str(fixed), "--db", store_url])
    assert done.exit_code == 0, done.output
    assert names() == ["Hao", "Jun", "Mei"]
    site = tmp_path / "site"
    assert runner.invoke(app, ["publish", "--db", store_url, "--out", str(site)]).exit_code == 0
    [page] = (site / "players").glob("mei-*.html")
    assert '<bdi class="nm">Mei' in page.read_text("utf-8")


# a store on read-only media ---------------------------------------------------------------------


def _archive(tmp_path: Path) -> tuple[str, Path, Path]:
    """`unshare` (the test skips where the system allows no user namespace), a folder to mount
    read-only and a store in it holding one game."""
    import shutil

    from typer.testing import CliRunner

    from zfrec.cli import app

    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "-rm", "true"], capture_output=True)
    if unshare is None or probe.returncode != 0:
        pytest.skip("no user namespaces here (unshare -rm) to mount a folder read-only")
    folder = tmp_path / "archive"
    folder.mkdir()
    store = folder / "club.db"
    record = str(SAMPLES / "02-three-players.zfn")
    assert CliRunner().invoke(app, ["import", record, "--db", str(store)]).exit_code == 0
    return unshare, folder, store


def _mount_read_only(folder: Path) -> str:
    """The start of a shell line (in `unshare -rm`) that mounts `folder` over itself read-only."""
    return f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && '


def _write_and_hold(store: Path) -> sqlite3.Connection:
    """A writer from outside the mount that stays connected, and a second game it imports: with
    the writer open and no automatic checkpoint, that game stays in the WAL. Close it after."""
    from typer.testing import CliRunner

    from zfrec.cli import app

    writer = sqlite3.connect(store)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("SELECT count(*) FROM game").fetchone()
    second = str(SAMPLES / "03-five-players.zfn")
    assert CliRunner().invoke(app, ["import", second, "--db", str(store)]).exit_code == 0
    return writer


def test_a_store_on_a_read_only_file_system_can_be_read(tmp_path: Path) -> None:
    """A club's archive on a CD or a share mounted read-only: SQLite cannot write the -shm file
    WAL reads through, so the store is read as immutable. The commands that read work; one that
    writes says the store is read-only, exit 2. The mount is made in a user namespace of its
    own (`unshare`), where the system allows one."""
    unshare, folder, store = _archive(tmp_path)
    script = _mount_read_only(folder) + (
        f'for c in games stats "show 1" "export 1" "delete 1"; do '
        f'{sys.executable} -c "from zfrec.cli import main; main()" $c --db "{store}"; '
        'echo "rc=$?"; done'
    )
    done = subprocess.run(
        [unshare, "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300
    )
    codes = [line for line in done.stdout.splitlines() if line.startswith("rc=")]
    assert codes == ["rc=0", "rc=0", "rc=0", "rc=0", "rc=2"], done.stdout + done.stderr
    assert "Train game" in done.stdout and "[Event" in done.stdout
    assert (
        done.stderr.strip() == "error: the store is read-only: attempt to write a readonly database"
    )


def test_a_read_only_mount_of_a_store_being_written_shows_what_is_committed(
    tmp_path: Path,
) -> None:
    """A store mounted read-only where another process still writes it (its -shm and -wal
    beside it): read as immutable, SQLite would skip the WAL and show the store as it was at
    the last checkpoint. It is read through the WAL instead: the game just imported shows."""
    unshare, folder, store = _archive(tmp_path)
    writer = _write_and_hold(store)
    try:
        assert Path(f"{store}-wal").stat().st_size > 0
        script = _mount_read_only(folder) + (
            f'{sys.executable} -c "from zfrec.cli import main; main()" games --json --db "{store}"'
        )
        done = subprocess.run(
            [unshare, "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300
        )
    finally:
        writer.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"id"') == 2, done.stdout


def test_a_reader_on_a_read_only_mount_sees_a_writer_that_comes_later(tmp_path: Path) -> None:
    """A long reader (a server) of a store on a read-only mount, which nobody had open when it
    started: a writer from outside the mount comes later. The reader's next connection sees
    what the writer committed (a connection kept open as immutable would not: it reads the
    file as it was, without the WAL)."""
    unshare, folder, store = _archive(tmp_path)
    reader = (
        "import sys\n"
        "from sqlalchemy import text\n"
        "from zfrec.store.db import make_engine\n"
        f"engine = make_engine({str(store)!r}, must_exist=True)\n"
        "def games():\n"
        "    with engine.connect() as c:\n"
        "        return c.execute(text('SELECT count(*) FROM game')).scalar()\n"
        "print(games(), flush=True)\n"
        "sys.stdin.readline()\n"
        "print(games(), flush=True)\n"
    )
    script = _mount_read_only(folder) + f'{sys.executable} -c "$0"'
    proc = subprocess.Popen(
        [unshare, "-rm", "sh", "-c", script, reader],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    writer = None
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == "1"
        writer = _write_and_hold(store)
        out, err = proc.communicate("\n", timeout=120)
    finally:
        if writer is not None:
            writer.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out.strip() == "2", err
