"""Faults of the database itself, told apart from bugs: a store that is read-only, unreachable,
full, locked or damaged is the user's to fix, and is reported in one line (exit 2, HTTP 503).

    reason = store_fault(exc)          # None: not a fault of the store, a bug
    reason = database_fault(exc)       # the same, or the database refusing otherwise
    require_writable(session, "publish keeps its rendered pages in the store")

SQLAlchemy's errors are of two sorts. From the database or its connection: the DB-API's
`OperationalError` (locked, gone, full, a deadlock broken), a connection found broken
(`connection_invalidated`, whatever the error's class; not SQLite's "closed database", which
only our code can cause), `DatabaseError`, `InternalError` (the server's own), an
`IntegrityError` that a concurrent writer causes (a unique or foreign key clash), and the pool's
`DisconnectionError` and `TimeoutError`. From the program, a bug of zfrec's: SQLAlchemy's own
`ArgumentError`, `CompileError`, `InvalidRequestError` and the like, raised before anything
reaches the database, and the DB-API's `ProgrammingError` (SQLite's binding errors too),
`DataError`, `NotSupportedError`, `InterfaceError` (the driver's interface misused: a cursor
used once closed; SQLite's SQLITE_MISUSE) and any other `IntegrityError` (a NOT NULL or CHECK
broken), which our SQL, our values or our use of the driver cause.
SQLite words nearly every error of a statement as an OperationalError: its `SQLITE_ERROR` (a
syntax error, no such column) is the statement's, so ours. A table that is not there (SQLite's
"no such table", PostgreSQL's 42P01) is the store's: the revision that zfrec checks on opening
names every table, so one gone was dropped outside zfrec. Two of PostgreSQL's DataErrors are
the store's encoding, never our values (Python strings, always valid UTF-8): text a SQL_ASCII
database holds that is not UTF-8 (22021), and text asked of a database not encoded UTF8 that
it cannot hold (22P05; zfrec writes to no such database, zfrec.store.db.require_utf8).
"""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.exc import (
    DatabaseError,
    DataError,
    DBAPIError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session

from zfrec.store.db import StoreError, describe
from zfrec.store.tables import ARTIFACT

# SQLSTATEs of PostgreSQL that mean "not allowed to write here", whatever class the driver
# puts them in: a read-only transaction or server (25006), a privilege missing (42501).
_READ_ONLY_STATES = ("25006", "42501")
_READ_ONLY_WORDS = ("readonly database", "read-only", "permission denied", "read only")


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


def read_only(exc: BaseException) -> bool:
    """Whether the database refused a write because the store may not be written."""
    orig = getattr(exc, "orig", None)
    if getattr(orig, "sqlstate", None) in _READ_ONLY_STATES:
        return True
    text = _reason(exc).lower()
    return any(w in text for w in _READ_ONLY_WORDS)


# SQLSTATEs and SQLite error names of a clash with a concurrent writer: a unique or foreign key
# violation (another importer stored the same game first, or deleted what a row refers to), a
# serialization failure or deadlock the server broke
_CLASH_STATES = ("23505", "23503", "40001", "40P01")
_CLASH_NAMES = ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY",
                "SQLITE_CONSTRAINT_FOREIGNKEY")  # fmt: skip
_NO_TABLE_STATE = "42P01"
# PostgreSQL's "invalid byte sequence for encoding UTF8" (character_not_in_repertoire): text the
# server cannot send as UTF-8, which zfrec asks for. zfrec's own values are Python strings the
# driver encodes, always valid: it is text a SQL_ASCII database holds (which checks nothing)
# that another client wrote in its own encoding (Latin-1, say).
_NOT_UTF8_STATE = "22021"
# PostgreSQL's "character ... has no equivalent in encoding LATIN1" (untranslatable_character):
# text zfrec sends that the database's encoding cannot hold. Nothing is written to such a
# database (zfrec.store.db.require_utf8): it is text a command that reads looks for (a Chinese
# name after --player), which no row there can hold.
_UNTRANSLATABLE_STATE = "22P05"


def _codes(exc: BaseException) -> tuple[str | None, str | None]:
    """The driver's SQLSTATE (PostgreSQL) and SQLite error name of `exc`, where it has them."""
    orig = getattr(exc, "orig", None)
    return getattr(orig, "sqlstate", None), getattr(orig, "sqlite_errorname", None)


def missing_table(exc: BaseException) -> bool:
    """Whether the database says a table of the statement is not there."""
    state, name = _codes(exc)
    if state == _NO_TABLE_STATE:
        return True
    return name == "SQLITE_ERROR" and _reason(exc).startswith("no such table")


def clash(exc: BaseException) -> bool:
    """Whether `exc` is a clash with a concurrent writer, which a retry may get past: a unique
    or foreign key violation, a serialization failure or a deadlock."""
    if not isinstance(exc, DBAPIError):
        return False
    state, name = _codes(exc)
    return state in _CLASH_STATES or name in _CLASH_NAMES


def lost_connection(exc: BaseException) -> bool:
    """Whether the connection was lost under the statement (the server restarted, an
    administrator ended the session, the network dropped it): SQLAlchemy has invalidated it,
    and a retry on a new connection may get past it. Not SQLite's "closed database", which
    SQLAlchemy takes for one: a file has no connection to lose, only our code can close it."""
    if not isinstance(exc, DBAPIError) or not exc.connection_invalidated:
        return False
    return type(exc.orig).__module__ != "sqlite3"


def retryable(exc: BaseException) -> bool:
    """Whether a file's transaction that failed with `exc` may succeed if run again: a clash
    with a concurrent writer, or a connection lost (a new one is opened). Not a store locked
    too long, read-only, full or damaged, nor a bug: those would fail again."""
    return clash(exc) or lost_connection(exc)


def _our_statement(exc: BaseException) -> bool:
    """A SQLite error of the statement itself (SQLITE_ERROR: a syntax error, no such column),
    which SQLite words as an OperationalError."""
    return _codes(exc)[1] == "SQLITE_ERROR" and not missing_table(exc)


def store_fault(exc: BaseException) -> str | None:
    """One line saying what is wrong with the store, when `exc` is the database refusing or
    failing (read-only, unreachable, out of space, locked too long, a table gone); None for
    anything else."""
    if not isinstance(exc, SQLAlchemyError):
        return None
    if isinstance(exc, DBAPIError) and read_only(exc):
        return f"the store is read-only: {_reason(exc)}"
    if isinstance(exc, DBAPIError) and missing_table(exc):
        return (
            f"the store is damaged: {_reason(exc)} (a table of zfrec's is gone, dropped outside "
            "zfrec: restore the store from a copy)"
        )
    if isinstance(exc, OperationalError) and not _our_statement(exc):
        return f"the store cannot be used now: {_reason(exc)}"
    if isinstance(exc, DBAPIError) and _codes(exc)[0] == _NOT_UTF8_STATE:
        return (
            f"the store holds text that is not UTF-8: {_reason(exc)} (written into a SQL_ASCII "
            "database by another program or client encoding: correct those rows, or move the "
            "games to a UTF8 database)"
        )
    if isinstance(exc, DBAPIError) and _codes(exc)[0] == _UNTRANSLATABLE_STATE:
        return (
            f"the store's database cannot hold the text asked for: {_reason(exc)} (it is not "
            "encoded UTF8, so nothing stored there has that text; STORE.md, PostgreSQL)"
        )
    return None


def database_fault(exc: BaseException) -> str | None:
    """One line for an error of the database or its connection (`store_fault`, a connection
    lost, a clash with a concurrent writer, the server's own error): exit 2, `database error:
    ...`. None for an error a bug of zfrec causes (the module's docstring): an internal error."""
    if not isinstance(exc, SQLAlchemyError):
        return None
    if (fault := store_fault(exc)) is not None:
        return fault
    if isinstance(exc, (DisconnectionError, PoolTimeout)) or lost_connection(exc):
        return f"the store cannot be used now: {_reason(exc)}"
    if isinstance(exc, StaleDataError):  # a row changed or deleted by another process meanwhile
        return f"database error: {_reason(exc)}"
    if not isinstance(exc, DBAPIError) or isinstance(
        exc, (ProgrammingError, DataError, NotSupportedError, OperationalError, InterfaceError)
    ):
        # SQLAlchemy's own (before the database), our SQL or values, or the driver's interface
        # misused (PEP 249's InterfaceError: a cursor used once closed, SQLite's SQLITE_MISUSE)
        return None
    if isinstance(exc, IntegrityError) and not clash(exc):
        return None  # a NOT NULL or CHECK constraint our rows break
    if isinstance(exc, DatabaseError) or type(exc) is DBAPIError:
        return f"database error: {_reason(exc)}"
    return None


def require_writable(session: Session, why: str) -> None:
    """Raise StoreError (why, and what the database said) unless the store takes writes.

    A delete that matches no row is still a write to the database: SQLite refuses it on a
    read-only file and PostgreSQL in a read-only transaction or without the privilege. It
    runs in the caller's transaction, and changes nothing."""
    try:
        with session.begin_nested():
            session.execute(delete(ARTIFACT).where(ARTIFACT.c.id < 0))
    except SQLAlchemyError as exc:
        if not read_only(exc):
            raise
        url = describe(session.get_bind().engine.url)
        raise StoreError(f"{url} is read-only, and {why}: {_reason(exc)}") from None
