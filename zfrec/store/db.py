"""Opening a store: which database, how to talk to it, and bringing its schema up to date.

    >>> engine = open_store()                      # --db > $ZFREC_DB > sqlite:///zfrec.db
    >>> with session(engine) as s: ...             # commits on success, rolls back on error

Any SQLAlchemy URL works; a bare path means a SQLite file. SQLite runs in WAL mode with a busy
timeout, and write transactions begin IMMEDIATE (they take the write lock up front), so two
importers at once queue for the lock instead of failing: readers never wait for writers.
The schema is managed by Alembic (zfrec/store/migrations) and upgraded when a store is opened.
"""

from __future__ import annotations

import os
import re
import shlex
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.pool import NullPool
from sqlmodel import Session

from zfrec.errors import ZfrecError

if TYPE_CHECKING:
    from alembic.config import Config

ENV_VAR = "ZFREC_DB"
DEFAULT_URL = "sqlite:///zfrec.db"
BUSY_TIMEOUT_S = 60.0  # how long a SQLite writer waits for another to finish
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SCHEMA_REVISION = "0007"  # the newest migration; a test checks it against migrations/versions
READONLY = "zfrec_readonly"  # connection option: a SQLite transaction that only reads
# connection option: a SQLite transaction whose every key it made itself or read under its own
# write lock (an import's), so SQLite need not look up every row's parents
OWN_KEYS = "zfrec_own_keys"
_FOREIGN_KEYS = "zfrec_foreign_keys"  # in a connection's info: whether SQLite enforces them now
_LIBPQ_DRIVERS = ("psycopg", "psycopg2")  # they take libpq's client_encoding
_PG_MIGRATION_LOCK = 0x7A66_7265  # pg_advisory_xact_lock key: one migrator at a time
# libpq's parameters that are secrets, also when given in the URL's query
_SECRET_QUERY = re.compile(r"(?i)(\b(?:ssl)?password=)[^&#\s]*")
# A value without `://` that starts like a URL (`postgresql+psycopg:/user:pw@host/db`, a `/`
# short) is a mistyped URL, not a SQLite file to create: it would keep the password as a name.
_URL_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9]+(?:\+[A-Za-z0-9_]+)?:[^@]*@")


class StoreError(ZfrecError):
    """The store cannot do what was asked: bad URL, unreachable server, missing game..."""


def resolve_url(url: str | None = None) -> str:
    """The database to use: `url`, else $ZFREC_DB, else ./zfrec.db. A bare path is SQLite."""
    chosen = url or os.environ.get(ENV_VAR) or DEFAULT_URL
    if "://" not in chosen:
        if _URL_LIKE.match(chosen):
            raise StoreError(
                f"not a database URL: {_redact(chosen)!r} (a URL starts scheme://, e.g. "
                "postgresql+psycopg://user@host/db; a SQLite file is a plain path)"
            )
        chosen = f"sqlite:///{chosen}"
    return chosen


def describe(url: URL | str) -> str:
    """The URL for messages, with every secret hidden: the password, libpq's `password` and
    `sslpassword` in the query, and all of a URL that SQLAlchemy cannot read but its user."""
    try:
        parsed = url if isinstance(url, URL) else make_url(url)
    except (ArgumentError, ValueError):
        return _redact(str(url))
    shown = _SECRET_QUERY.sub(r"\1***", parsed.render_as_string(hide_password=True))
    # an unescaped @ in the password leaves the rest of it in the host
    return _redact(shown) if "@" in (parsed.host or "") else shown


def _redact(text: str) -> str:
    """`text` with what may be a password hidden: anything after the user, up to the last @
    of the part before the query, and the query's secrets."""
    text = _SECRET_QUERY.sub(r"\1***", text)
    end = text.find("?")
    at = text.rfind("@", 0, len(text) if end < 0 else end)
    if at < 0:
        return text
    scheme = text.find("://")  # the user starts after it, else after the last / (a typo)
    start = scheme + 3 if 0 <= scheme < at else text.rfind("/", 0, at) + 1
    user, colon, _ = text[start:at].partition(":")
    return f"{text[:start]}{user if colon else ''}{colon}***{text[at:]}"


def open_store(
    url: str | None = None, *, create: bool = True, writes: bool | None = None
) -> Engine:
    """An engine on the store at `url` (see resolve_url), its schema created or upgraded.

    With `create=False` (the commands that only read) the store must exist already: a missing
    SQLite file or a database without zfrec's schema is a StoreError, and nothing is created,
    so a mistyped --db cannot leave an empty store behind. `writes` (by default `create`) says
    the caller will write: a PostgreSQL database that cannot hold every name (one not encoded
    UTF8) is then a StoreError, raised before anything is written, its tables too.
    """
    engine = make_engine(url, must_exist=not create)
    try:
        if not create and current_revision(engine) is None:
            raise StoreError(
                f"{describe(engine.url)} holds no zfrec store: check --db and ${ENV_VAR} "
                "(zfrec import creates a store)"
            )
        if create if writes is None else writes:
            require_utf8(engine)
        upgrade(engine)
    except SQLAlchemyError as exc:
        engine.dispose()
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise StoreError(f"cannot open database {describe(engine.url)}: {reason}") from None
    except BaseException:
        engine.dispose()
        raise
    return engine


def sqlite_file(url: URL) -> str | None:
    """The file a SQLite URL names, or None for an in-memory database."""
    database = url.database or ""
    if url.query.get("uri") in ("true", "1") and database.startswith("file:"):
        database = database.removeprefix("file:").partition("?")[0]
        if url.query.get("mode") == "memory":
            return None
    return None if database in ("", ":memory:") else database


def make_engine(url: str | None = None, *, must_exist: bool = False) -> Engine:
    """An engine set up for the store (SQLite pragmas and locking), without touching the schema.

    `must_exist=True` refuses a SQLite file that is not there instead of creating it.
    """
    resolved = resolve_url(url)
    try:
        parsed = make_url(resolved)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise StoreError(f"not a database URL: {_redact(resolved)!r}") from None
    if "@" in (parsed.host or ""):
        raise StoreError(
            f"not a database URL: {describe(parsed)!r} (an @ in a user or password is written %40)"
        )
    is_sqlite = parsed.get_backend_name() == "sqlite"
    if is_sqlite and must_exist:
        path = sqlite_file(parsed)
        if path is None:
            raise StoreError("an in-memory database holds no zfrec store")
        if not Path(path).exists():
            raise StoreError(
                f"no such database: {path} (check --db and ${ENV_VAR}; zfrec import creates a "
                "store)"
            )
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in _LIBPQ_DRIVERS:
        # Text goes to the server as UTF-8 whatever $PGCLIENTENCODING or the database's own
        # encoding say: a client encoding of LATIN1 cannot send a Chinese name at all, and
        # SQL_ASCII's makes the driver return bytes, not text. The server converts to its
        # encoding, which require_utf8 checks before a command writes.
        kwargs["connect_args"] = {"client_encoding": "UTF8"}
    if is_sqlite:
        kwargs["connect_args"] = {"timeout": BUSY_TIMEOUT_S}
        path = sqlite_file(parsed)
        if path is not None and _read_only_media(path):  # an existing store on a CD, say
            kwargs["creator"] = partial(_open_immutable, str(Path(path).resolve()))
            # no pool: a connection opened as immutable would stay so after a writer came
            kwargs["poolclass"] = NullPool
    try:
        engine = create_engine(parsed, **kwargs)
    except (NoSuchModuleError, ImportError) as exc:
        advice = ""
        if parsed.get_backend_name() in ("postgres", "postgresql"):  # postgres://, +psycopg2
            meant = describe(parsed.set(drivername="postgresql+psycopg"))
            advice = f" (zfrec talks to PostgreSQL through psycopg 3: use {meant})"
        raise StoreError(f"cannot use database {describe(parsed)}: {exc}{advice}") from None
    except (ArgumentError, TypeError, ValueError) as exc:
        raise StoreError(f"bad database URL {describe(parsed)}: {exc}") from None
    if is_sqlite:
        # WAL mode is a property of the file, set when a store is created; setting it on a
        # file that must already be a store would write to whatever file --db names.
        event.listen(engine, "connect", _sqlite_connect_existing if must_exist else _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def require_utf8(engine: Engine) -> None:
    """Raise StoreError unless the database can hold any text zfrec writes: a PostgreSQL
    database encoded otherwise than UTF8 (LATIN1, SQL_ASCII, ...) cannot hold a Chinese
    player's name, and would refuse the first one part way through a write. Asked once, when
    a command that writes opens the store; SQLite's text is always Unicode."""
    if engine.dialect.name != "postgresql":
        return
    with engine.execution_options(**{READONLY: True}).connect() as conn:
        encoding = str(conn.exec_driver_sql("SHOW server_encoding").scalar())
    if encoding.upper().replace("-", "") in ("UTF8", "UNICODE"):
        return
    raise StoreError(
        f"the database {describe(engine.url)} is encoded {encoding}: zfrec keeps names and "
        "records as UTF-8 text (Chinese names too) and writes only to a UTF8 database; nothing "
        f"was written. {_utf8_advice(engine.url)}"
    )


def _utf8_advice(url: URL) -> str:
    """How to create a UTF8 database beside the one `url` names, on the same server and as the
    same user, and the --db that names it: a createdb command that works as written (libpq's
    defaults are not the URL's host, port and user), and the same in SQL.

    The locale is C: a UTF8 database must have a locale of that encoding or C, and a server
    whose databases come out LATIN1 was most often set up with a Latin-1 locale, which
    template0 would pass on (createdb would refuse). zfrec needs nothing of the locale."""
    name = f"{url.database or url.username or 'zfrec'}_utf8"
    host = url.host or _query_value(url, "host")
    port = url.port or _query_value(url, "port")
    user = url.username or _query_value(url, "user")
    where = [f"--host={host}"] if host else []
    where += [f"--port={port}"] if port else []
    where += [f"--username={user}"] if user else []
    createdb = shlex.join(
        ["createdb", *where, "--encoding=UTF8", "--locale=C", "--template=template0", name]
    )
    ident = name if re.fullmatch(r"[a-z_][a-z0-9_]*", name) else '"' + name.replace('"', '""') + '"'
    sql = f"CREATE DATABASE {ident} ENCODING 'UTF8' LOCALE 'C' TEMPLATE template0"
    new = describe(url.set(database=name))
    return f"Create one ({createdb}, or in SQL: {sql}) and give it as --db {new}"


def _query_value(url: URL, key: str) -> str | None:
    """A libpq parameter given in the URL's query (`?host=/run/postgresql`), its first value."""
    value = url.query.get(key)
    if isinstance(value, tuple):
        value = value[0] if value else None
    return value or None


def _read_only_media(path: str) -> bool:
    """Whether the file is on a read-only file system (a CD, a share mounted read-only)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no such file yet, or no statvfs (Windows)
        return False


def _open_immutable(path: str) -> sqlite3.Connection:
    # A store in WAL mode is read through a -shm file written beside it, which read-only media
    # cannot take ("unable to open database file"). A store nobody has open has neither file
    # (a store is checkpointed when closed): nothing can write it, so SQLite may read it as
    # immutable (no locks, no -shm). But the mount may be read-only for us only, with another
    # process writing the store (its -shm, its -wal beside it): immutable, SQLite would skip
    # the WAL and show the store as at its last checkpoint, or torn. Then it is read through
    # the WAL as usual. Asked at each connection: a writer may come while this one reads.
    try:
        written = Path(f"{path}-shm").exists() or os.stat(f"{path}-wal").st_size > 0
    except OSError:  # no -wal
        written = False
    uri = f"file:{quote(path)}?mode=ro" + ("" if written else "&immutable=1")
    return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, check_same_thread=False)


@contextmanager
def session(engine: Engine, *, readonly: bool = False) -> Iterator[Session]:
    """A session that commits when the block ends normally and rolls back if it raises.

    `readonly=True` promises no writes: on SQLite such a session never waits for a writer.
    Objects stay usable after the commit (expire_on_commit is off).
    """
    bind = engine.execution_options(**{READONLY: True}) if readonly else engine
    with Session(bind, expire_on_commit=False) as s:
        try:
            yield s
            s.commit()
        except BaseException:
            s.rollback()
            raise


def _sqlite_connect(dbapi_connection: Any, record: Any, *, wal: bool = True) -> None:
    # The driver must not begin transactions behind our back: _sqlite_begin does it.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        if wal:
            _set_wal(cursor)
        cursor.execute("PRAGMA foreign_keys = ON")
        record.info[_FOREIGN_KEYS] = True
    finally:
        cursor.close()


def _set_wal(cursor: Any) -> None:
    # Turning a new file to WAL needs it to oneself, and SQLite answers "database is locked"
    # at once, without the busy timeout, while another process is creating the same store:
    # wait for it here, as the busy timeout would.
    if cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return  # a store already: nothing to change, no lock to take
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(delay)
        delay = min(2 * delay, 0.25)


def _sqlite_connect_existing(dbapi_connection: Any, record: Any) -> None:
    _sqlite_connect(dbapi_connection, record, wal=False)


def _sqlite_begin(connection: Connection) -> None:
    # A deferred transaction that reads and then writes cannot wait for the lock (SQLite
    # answers SQLITE_BUSY at once if another writer got in between), so writers lock first.
    options = connection.get_execution_options()
    # An import makes or reads every key it writes under the write lock, and deletes child rows
    # itself: checking each row's parents would be about a sixth of its inserts. The pragma only
    # takes effect outside a transaction, so it is set here, and set back by the next
    # transaction that does not ask for it.
    enforce = not options.get(OWN_KEYS, False)
    if connection.info.get(_FOREIGN_KEYS, True) != enforce:
        connection.exec_driver_sql(f"PRAGMA foreign_keys = {'ON' if enforce else 'OFF'}")
        connection.info[_FOREIGN_KEYS] = enforce
    connection.exec_driver_sql("BEGIN" if options.get(READONLY, False) else "BEGIN IMMEDIATE")


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the packaged migrations, optionally bound to a connection."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    """The newest revision among the packaged migrations."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database's schema is at; None for an empty database."""
    with engine.execution_options(**{READONLY: True}).connect() as conn:
        return _revision(conn)


def _revision(conn: Connection) -> str | None:
    # Plain SQL rather than Alembic, so that opening an up-to-date store never imports Alembic.
    if not inspect(conn).has_table("alembic_version"):
        return None
    found = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return None if found is None else str(found)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest revision; quick when it is already there.

    Concurrent openers are serialised (SQLite: the IMMEDIATE lock; PostgreSQL: an advisory
    lock), and the revision is checked again under the lock, so only one of them migrates.
    """
    if current_revision(engine) == SCHEMA_REVISION:
        return
    from alembic import command
    from alembic.script import ScriptDirectory
    from alembic.script.revision import RevisionError
    from alembic.util import CommandError

    script = ScriptDirectory.from_config(alembic_config())
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
        current = _revision(conn)
        if current == script.get_current_head():
            return
        if current is not None:
            try:
                script.get_revision(current)
            except (CommandError, RevisionError):
                raise StoreError(
                    f"the database schema is at revision {current}, which this version of "
                    "zfrec does not know: upgrade zfrec"
                ) from None
        command.upgrade(alembic_config(conn), "head")
