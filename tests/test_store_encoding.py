"""A PostgreSQL database that cannot hold every name: created LATIN1 or SQL_ASCII, it is a setup
problem told once, when a command that writes opens the store (exit 2, naming the encoding
and how to make a UTF8 database), before anything is written; and a client encoding that is
not UTF8 ($PGCLIENTENCODING) does not stop a Chinese name (STORE.md, PostgreSQL).

Real databases on the server of ZFREC_TEST_PG_URL, made for each test and dropped after it;
skipped without that variable, failing under CI=true (tests/test_store.py).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from tests.test_store import PG_ENV, _pg_unavailable, store_url  # noqa: F401  (the fixture)
from zfrec.store import import_file, open_store, session

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
ASCII_NAMES = SAMPLES / "02-three-players.zfn"
CHINESE_NAMES = SAMPLES / "04-six-players.zfn"  # 赵, 钱, 孙, 李, 周, 吴


def zfrec(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`zfrec ARGS` in its own process, as a user runs it; `env` added to the environment."""
    base = {k: v for k, v in os.environ.items() if k not in ("ZFREC_DB", "ZFREC_TRACEBACK")}
    return subprocess.run(
        [sys.executable, "-c", "from zfrec.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=base | env,
        timeout=120,
    )


@pytest.fixture(params=["LATIN1", "SQL_ASCII"])
def narrow_db(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """(URL, encoding) of a new, empty database on the server, encoded `encoding`."""
    base = os.environ.get(PG_ENV)
    if not base:
        _pg_unavailable(f"set {PG_ENV} to a PostgreSQL URL (.ci/services.sh starts a server)")
    assert base is not None
    encoding = str(request.param)
    # LATIN1's name is one SQL must quote (a capital, a hyphen): so must the refusal's advice
    spelt = "Latin-1" if encoding == "LATIN1" else encoding.lower()
    name = f"{make_url(base).database}_{spelt}_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    try:
        with admin.connect() as conn:
            conn.execute(
                text(
                    f"CREATE DATABASE \"{name}\" ENCODING '{encoding}' LC_COLLATE 'C' "
                    "LC_CTYPE 'C' TEMPLATE template0"
                )
            )
    except Exception as exc:  # unreachable server, no right to create databases
        admin.dispose()
        _pg_unavailable(f"cannot create a {encoding} database: {str(exc).splitlines()[0]}")
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False), encoding
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _tables(url: str) -> list[str]:
    engine = create_engine(url, connect_args={"client_encoding": "UTF8"})  # SQL_ASCII: text
    try:
        with engine.connect() as conn:
            return inspect(conn).get_table_names()
    finally:
        engine.dispose()


def _refusal(url: str, encoding: str) -> str:
    """The one line a command that writes says of such a database."""
    shown = make_url(url).render_as_string(hide_password=True)
    return (
        f"error: the database {shown} is encoded {encoding}: zfrec keeps names and records as "
        "UTF-8 text (Chinese names too) and writes only to a UTF8 database; nothing was written. "
        "Create one (createdb "
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_an_import_into_a_database_not_encoded_utf8_is_refused_before_anything_is_written(
    narrow_db: tuple[str, str], as_json: bool
) -> None:
    """Exit 2 with what to do, not an internal error (exit 3) at the first Chinese name: the
    file of ASCII names before it is not stored either, and no table is created."""
    url, encoding = narrow_db
    args = ["import", str(ASCII_NAMES), str(CHINESE_NAMES), "--db", url]
    done = zfrec(*args, *(["--json"] if as_json else []))
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(_refusal(url, encoding)), line
    new = make_url(url).set(database=f"{make_url(url).database}_utf8")
    assert line.endswith(f" and give it as --db {new.render_as_string(hide_password=True)}")
    if as_json:
        doc = json.loads(done.stdout)
        assert doc["summary"]["error"] == line.removeprefix("error: ")
        assert doc["files"] == []
    assert _tables(url) == []


def test_the_commands_that_write_refuse_a_store_not_encoded_utf8_and_the_others_read_it(
    narrow_db: tuple[str, str], tmp_path: Path
) -> None:
    """A store an earlier zfrec made in such a database, with ASCII names: `games` and
    `export` read it; `import --replace`, `delete`, `publish`, `tables --delete` and `serve`
    are refused (exit 2, the same line) before they write, and the game stays."""
    url, encoding = narrow_db
    engine = open_store(url, writes=False)  # as an earlier zfrec made it
    try:
        with session(engine) as s:
            assert import_file(s, path=ASCII_NAMES).added == 1
    finally:
        engine.dispose()
    listed = zfrec("games", "--db", url, "--json")
    assert listed.returncode == 0, listed.stderr
    [game] = json.loads(listed.stdout)
    assert zfrec("export", str(game["id"]), "--db", url).returncode == 0
    with socket.socket() as probe:  # a free port, for serve to find the store refused first
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    writers = {
        "import": ["import", str(CHINESE_NAMES), "--db", url],
        "replace": ["import", "--replace", str(game["id"]), str(CHINESE_NAMES), "--db", url],
        "delete": ["delete", str(game["id"]), "--db", url],
        "publish": ["publish", "--db", url, "--out", str(tmp_path / "site")],
        "tables --delete": ["tables", "--delete", "nosuch", "--db", url],
        "serve": ["serve", "--db", url, "--port", port],
    }
    for what, args in writers.items():
        done = zfrec(*args)
        assert done.returncode == 2, (what, done.stderr)
        assert done.stderr.splitlines()[0].startswith(_refusal(url, encoding)), (what, done.stderr)
    after = zfrec("games", "--db", url, "--json")
    assert [g["id"] for g in json.loads(after.stdout)] == [game["id"]]
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_client_encoding_other_than_utf8_does_not_stop_a_chinese_name(
    store_url: str,  # noqa: F811
) -> None:
    """$PGCLIENTENCODING=LATIN1 against a UTF8 database: the driver would encode the names as
    Latin-1 and fail at the first Chinese one (an internal error, exit 3); zfrec talks UTF-8."""
    done = zfrec("import", str(CHINESE_NAMES), "--db", store_url, PGCLIENTENCODING="LATIN1")
    assert done.returncode == 0, done.stderr
    found = zfrec("games", "--player", "赵", "--db", store_url, "--json", PGCLIENTENCODING="LATIN1")
    assert found.returncode == 0, found.stderr
    [game] = json.loads(found.stdout)
    assert game["players"] == ["赵", "钱", "孙", "李", "周", "吴"]


@pytest.mark.parametrize("how", ["createdb", "sql"])
def test_the_refusals_advice_creates_a_utf8_database_that_takes_chinese_names(
    narrow_db: tuple[str, str], how: str
) -> None:
    """The createdb command of the refusal, run as written from a shell without libpq's
    variables (its defaults are not the URL's server), or its SQL run on that server, makes a
    database that the --db the refusal names then imports Chinese names into."""
    url, _ = narrow_db
    done = zfrec("import", str(CHINESE_NAMES), "--db", url)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    advice = (
        r"Create one \((createdb .*), or in SQL: (CREATE DATABASE .*)\) and give it as --db (\S+)$"
    )
    found = re.search(advice, line)
    assert found is not None, line
    command, sql, new_url = found.groups()
    admin = create_engine(
        url, isolation_level="AUTOCOMMIT", connect_args={"client_encoding": "UTF8"}
    )
    try:
        if how == "createdb":
            if shutil.which("createdb") is None:
                pytest.skip("no createdb on PATH (PostgreSQL's client programs)")
            bare = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
            made = subprocess.run(
                shlex.split(command), capture_output=True, text=True, env=bare, cwd="/", timeout=60
            )
            assert made.returncode == 0, made.stderr
        else:
            with admin.connect() as conn:
                conn.execute(text(sql))
        stored = zfrec("import", str(CHINESE_NAMES), "--db", new_url)
        assert stored.returncode == 0, stored.stderr
        listed = zfrec("games", "--player", "赵", "--db", new_url, "--json")
        assert [g["players"] for g in json.loads(listed.stdout)] == [
            ["赵", "钱", "孙", "李", "周", "吴"]
        ]
    finally:
        with admin.connect() as conn:
            name = make_url(new_url).database
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.parametrize("narrow_db", ["SQL_ASCII"], indirect=True)
def test_a_sql_ascii_store_holding_latin1_bytes_is_the_stores_fault_not_an_internal_error(
    narrow_db: tuple[str, str],
) -> None:
    """A SQL_ASCII database checks no text: another client, talking Latin-1, wrote `José` as
    its one byte é. zfrec asks for UTF-8 and the server cannot send it: the store's text is at
    fault (exit 2, what to do), not zfrec (exit 3, "a bug in zfrec"), and --json says so."""
    url, _ = narrow_db
    engine = open_store(url, writes=False)  # as an earlier zfrec made it
    try:
        with session(engine) as s:
            assert import_file(s, path=ASCII_NAMES).added == 1
    finally:
        engine.dispose()
    other = create_engine(url, connect_args={"client_encoding": "LATIN1"})
    try:
        with other.begin() as conn:
            conn.execute(text("UPDATE player SET name = 'José' WHERE name = 'Mei'"))
    finally:
        other.dispose()
    said = (
        'error: the store holds text that is not UTF-8: invalid byte sequence for encoding "UTF8": '
        "0xe9 (written into a SQL_ASCII database by another program or client encoding: correct "
        "those rows, or move the games to a UTF8 database)"
    )
    done = zfrec("stats", "--db", url)
    assert (done.returncode, done.stderr.splitlines()) == (2, [said])
    as_json = zfrec("stats", "--db", url, "--json")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout) == {"error": said.removeprefix("error: ")}


@pytest.mark.parametrize("narrow_db", ["LATIN1"], indirect=True)
def test_a_chinese_name_asked_of_a_latin1_store_is_told_not_an_internal_error(
    narrow_db: tuple[str, str],
) -> None:
    """`games --player 赵` on a store an earlier zfrec kept in a LATIN1 database: the server
    cannot turn 赵 into Latin-1 to look for it. No row there can hold it: the store's encoding
    is said (exit 2, --json too), not "a bug in zfrec" (exit 3); a Latin name is still found."""
    url, _ = narrow_db
    engine = open_store(url, writes=False)  # as an earlier zfrec made it
    try:
        with session(engine) as s:
            assert import_file(s, path=ASCII_NAMES).added == 1
    finally:
        engine.dispose()
    said = (
        "error: the store's database cannot hold the text asked for: character with byte "
        'sequence 0xe8 0xb5 0xb5 in encoding "UTF8" has no equivalent in encoding "LATIN1" (it '
        "is not encoded UTF8, so nothing stored there has that text; STORE.md, PostgreSQL)"
    )
    for command in ("games", "stats"):
        done = zfrec(command, "--player", "赵", "--db", url)
        assert (done.returncode, done.stderr.splitlines()) == (2, [said]), command
        as_json = zfrec(command, "--player", "赵", "--db", url, "--json")
        assert as_json.returncode == 2
        assert json.loads(as_json.stdout) == {"error": said.removeprefix("error: ")}
    found = zfrec("games", "--player", "Mei", "--db", url, "--json")
    assert found.returncode == 0, found.stderr
    assert [g["players"] for g in json.loads(found.stdout)] == [["Mei", "Jun", "Hao"]]
