"""Faults of the database itself, told apart from bugs: a store that is read-only, unreachable,
full or locked is the user's to fix, and is reported in one line (exit 2, HTTP 503).

    reason = store_fault(exc)          # None: not a fault of the store, a bug
    require_writable(session, "publish keeps its rendered pages in the store")
"""

from __future__ import annotations

from sqlalchemy import delete
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
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


def store_fault(exc: BaseException) -> str | None:
    """One line saying what is wrong with the store, when `exc` is the database refusing or
    failing (read-only, unreachable, out of space, locked too long); None for anything else."""
    if not isinstance(exc, SQLAlchemyError):
        return None
    if isinstance(exc, DBAPIError) and read_only(exc):
        return f"the store is read-only: {_reason(exc)}"
    if isinstance(exc, OperationalError):
        return f"the store cannot be used now: {_reason(exc)}"
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
