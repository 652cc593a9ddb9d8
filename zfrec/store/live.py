"""Live tables in the store: a game being logged at the table, one row per accepted entry.

    with session(engine) as s:
        row = get_live_table(s, table_id=tid, lock=True)     # FOR UPDATE on PostgreSQL
        append_live_entry(s, table_id=tid, version=row.version, seq=row.entries + 1, ...)

Every write runs in the caller's transaction and locks the table's row first: SQLite's
write transactions begin IMMEDIATE (one writer at a time), PostgreSQL takes the row lock
(`SELECT ... FOR UPDATE`). The version check in the UPDATE is a second guard: a write that
did not see the newest version changes nothing and raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update
from sqlmodel import Session

from zfrec.games import NotSupported
from zfrec.record import Game
from zfrec.store.correct import replace_record, sources_of
from zfrec.store.db import StoreError
from zfrec.store.firstpass import canonical_json, sha256
from zfrec.store.importer import delete_game, store_game
from zfrec.store.models import utc_now
from zfrec.store.tables import GAME, LIVE_ENTRY, LIVE_TABLE, SOURCE


class LiveConflict(StoreError):
    """The table changed under us (another writer got in first): try again."""


class HeldByFile(StoreError):
    """A change at a live table would put the table's record in place of its stored game, which
    a file holds now (imported, or a correction made with `zfrec import --replace`): refused, so
    that the file's record is never lost unseen; the table changes nothing (LIVE.md)."""

    def __init__(self, game_id: int, path: str) -> None:
        super().__init__(
            f"game {game_id} is held by {path} now (imported, or corrected with zfrec import "
            f"--replace), and this change would put the table's record in its place: nothing "
            f"was changed. Make the change in that file and import it again (zfrec import "
            f"--replace {game_id} {path})"
        )
        self.game_id, self.path = game_id, path


@dataclass(frozen=True, slots=True)
class LiveTableRow:
    """A live table's header and bookkeeping, as stored."""

    id: str
    token_hash: str
    players: list[str]
    preset: str
    options: dict[str, Any]
    target: int
    event: str | None
    site: str | None
    date: str | None
    version: int
    entries: int
    over: bool
    game_id: int | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class LiveEntryRow:
    """One accepted entry: `kind` is "hand" or "move"; `data` its JSON (LIVE.md)."""

    seq: int
    kind: str
    data: dict[str, Any]


def create_live_table(
    session: Session,
    *,
    table_id: str,
    token_hash: str,
    players: list[str],
    preset: str,
    options: dict[str, Any],
    target: int,
    event: str | None = None,
    site: str | None = None,
    date: str | None = None,
) -> LiveTableRow:
    """Add an empty live table. Flushed in the caller's transaction."""
    now = utc_now()
    values: dict[str, Any] = {
        "id": table_id,
        "token_hash": token_hash,
        "players": list(players),
        "preset": preset,
        "options": dict(options),
        "target": target,
        "event": event,
        "site": site,
        "date": date,
        "version": 0,
        "entries": 0,
        "over": False,
        "game_id": None,
        "created_at": now,
        "updated_at": now,
    }
    session.connection().execute(insert(LIVE_TABLE), values)
    return LiveTableRow(**values)


# Built once: a live table runs these for every entry.
_ROW = select(LIVE_TABLE).where(LIVE_TABLE.c.id == bindparam("tid"))
_ROW_LOCKED = _ROW.with_for_update()
_VERSION = select(LIVE_TABLE.c.version).where(LIVE_TABLE.c.id == bindparam("tid"))
_INSERT_ENTRY = insert(LIVE_ENTRY)
_BUMP = (
    update(LIVE_TABLE)
    .where(LIVE_TABLE.c.id == bindparam("tid"), LIVE_TABLE.c.version == bindparam("old"))
    .values(version=bindparam("new"), entries=bindparam("count"), updated_at=bindparam("now"))
)


def get_live_table(session: Session, *, table_id: str, lock: bool = False) -> LiveTableRow:
    """The table's row; `lock` holds it until the transaction ends (writers call this first)."""
    query = _ROW_LOCKED if lock else _ROW
    row = session.connection().execute(query, {"tid": table_id}).mappings().first()
    if row is None:
        raise StoreError(f"no live table {table_id!r}")
    return LiveTableRow(**dict(row))


def live_version(session: Session, *, table_id: str) -> int | None:
    """The table's version, or None if there is no such table: a cheap check for readers."""
    value = session.connection().execute(_VERSION, {"tid": table_id}).scalar()
    return None if value is None else int(value)


def list_live_tables(session: Session) -> list[LiveTableRow]:
    """Every live table, newest first."""
    conn = session.connection()
    rows = conn.execute(select(LIVE_TABLE).order_by(LIVE_TABLE.c.created_at.desc()))
    return [LiveTableRow(**dict(r)) for r in rows.mappings()]


def live_entries(session: Session, *, table_id: str) -> list[LiveEntryRow]:
    """The table's entries in order."""
    conn = session.connection()
    rows = conn.execute(
        select(LIVE_ENTRY.c.seq, LIVE_ENTRY.c.kind, LIVE_ENTRY.c.data)
        .where(LIVE_ENTRY.c.table_id == table_id, LIVE_ENTRY.c.seq >= 1)
        .order_by(LIVE_ENTRY.c.seq)
    )
    return [LiveEntryRow(int(seq), str(kind), dict(data)) for seq, kind, data in rows]


def _bump(session: Session, table_id: str, version: int, entries: int) -> int:
    params = {"tid": table_id, "old": version, "new": version + 1, "count": entries}
    result = session.connection().execute(_BUMP, {**params, "now": utc_now()})
    if result.rowcount != 1:
        raise LiveConflict(f"live table {table_id!r} changed meanwhile")
    return version + 1


def append_live_entry(
    session: Session,
    *,
    table_id: str,
    version: int,
    seq: int,
    kind: str,
    data: dict[str, Any],
) -> int:
    """Store entry `seq` and return the table's new version. Flushed, not committed."""
    session.connection().execute(
        _INSERT_ENTRY,
        {"table_id": table_id, "seq": seq, "kind": kind, "data": data, "created_at": utc_now()},
    )
    return _bump(session, table_id, version, seq)


def pop_live_entry(session: Session, *, table_id: str, version: int, seq: int) -> int:
    """Remove entry `seq` (the last one) and return the table's new version."""
    conn = session.connection()
    conn.execute(
        delete(LIVE_ENTRY).where(LIVE_ENTRY.c.table_id == table_id, LIVE_ENTRY.c.seq == seq)
    )
    return _bump(session, table_id, version, seq - 1)


def finish_live_game(session: Session, *, table_id: str, game: Game) -> int | None:
    """Store the finished game like an imported one and link it to the table; its game id.

    A table that finished a game before (and was undone or corrected since) keeps that game:
    finished again with the record it stored then, it leaves the game as it is, so that a
    correction made from a file meanwhile (`zfrec import --replace`) stands; finished with
    another record, its record goes in that game's place, as the newer version, unless a file
    holds that game (HeldByFile, raised before anything is written: the file's record, a
    correction say, is not overwritten). Either way the table's game is stored once. A game
    whose kind the store cannot hold yet (NotSupported, raised before anything is written)
    marks the table over without a stored game: its entries keep the whole record, which
    `record.zfn` gives and `zfrec import` takes once the store can."""
    conn = session.connection()
    linked = conn.execute(select(LIVE_TABLE.c.game_id).where(LIVE_TABLE.c.id == table_id)).scalar()
    kept = None if linked is None else int(linked)
    if kept is not None:
        _lock_game(conn, kept)
    game_id: int | None = None
    digest: str | None = None
    try:
        digest = sha256(canonical_json(game))
        if kept is not None and digest == _stored_hash(conn, table_id):
            game_id = kept  # the record it stored: the game stands as it is now
        elif kept is not None and (path := _file_of(conn, kept, digest)) is not None:
            raise HeldByFile(kept, path)
        elif kept is not None and not _shared(conn, table_id, kept) and not _stored(conn, digest):
            replace_record(session, game_id=kept, game=game, digest=digest)
            game_id = kept
        else:
            game_id, added = store_game(session, game=game)
            if not added and game_id != kept:
                _lock_game(conn, game_id)  # another table's game, which it may be changing
                if not _is_record(conn, game_id, digest):
                    raise LiveConflict(f"stored game {game_id} changed meanwhile")
            if kept is not None and kept != game_id and not _shared(conn, table_id, kept):
                delete_game(session, game_id=kept)  # nothing holds it now (no file: above)
    except NotSupported:
        game_id = digest = None
    conn.execute(
        update(LIVE_TABLE).where(LIVE_TABLE.c.id == table_id).values(over=True, game_id=game_id)
    )
    _remember(conn, table_id, digest if game_id is not None else None)
    return game_id


# The hash of the record a table stored as its game is kept in an entry row of its own, seq 0
# (kind "game"), which the table's entries (seq 1 on) leave out: no column of the schema.
_STORED_SEQ = 0


def _stored_hash(conn: Connection, table_id: str) -> str | None:
    """The hash of the record the table last stored as its game, if any."""
    data = conn.execute(
        select(LIVE_ENTRY.c.data).where(
            LIVE_ENTRY.c.table_id == table_id, LIVE_ENTRY.c.seq == _STORED_SEQ
        )
    ).scalar()
    return None if data is None else str(data.get("hash"))


def _remember(conn: Connection, table_id: str, digest: str | None) -> None:
    where = (LIVE_ENTRY.c.table_id == table_id, LIVE_ENTRY.c.seq == _STORED_SEQ)
    conn.execute(delete(LIVE_ENTRY).where(*where))
    if digest is not None:
        row = {"table_id": table_id, "seq": _STORED_SEQ, "kind": "game", "data": {"hash": digest}}
        conn.execute(_INSERT_ENTRY, {**row, "created_at": utc_now()})


def _file_of(conn: Connection, game_id: int, digest: str) -> str | None:
    """The first file that holds stored game `game_id`, where the game's record is not the one
    of hash `digest`; None when no file holds it, or it is that record already."""
    held = sources_of(conn, game_id, unless_hash=digest)
    return held[0][0] if held else None


def _lock_game(conn: Connection, game_id: int) -> None:
    """Hold the stored game's row until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite's
    write lock holds the whole store already). Two tables that share the game and change at the
    same moment each lock only their own row: without this, each would find the game shared
    (the other's change not committed yet), store a game of its own, and leave the one they
    shared to nobody. Locked first, the second waits, then finds what the first made of it.
    A table that finishes with a record another table's game holds locks that game too, and
    looks again: the other table may have put another record in its place meanwhile."""
    conn.execute(select(GAME.c.id).where(GAME.c.id == game_id).with_for_update())


def _is_record(conn: Connection, game_id: int, digest: str) -> bool:
    """Whether stored game `game_id` is (still) the record of hash `digest`."""
    query = select(GAME.c.id).where(GAME.c.id == game_id, GAME.c.content_hash == digest)
    return conn.execute(query).first() is not None


def _shared(conn: Connection, table_id: str, game_id: int) -> bool:
    """Whether another live table holds the game (two tables logged the same record)."""
    query = select(LIVE_TABLE.c.id).where(
        LIVE_TABLE.c.game_id == game_id, LIVE_TABLE.c.id != table_id
    )
    return conn.execute(query).first() is not None


def _stored(conn: Connection, digest: str) -> bool:
    return conn.execute(select(GAME.c.id).where(GAME.c.content_hash == digest)).first() is not None


def reopen_live_game(session: Session, *, table_id: str, game_id: int | None) -> None:
    """Undo of the final entry: the table is open again, and its stored game goes unless a
    file or another table holds the same record. A game that stays stays the table's (with the
    hash of the record the table stored), so that finishing again does not store a second."""
    conn = session.connection()
    table = update(LIVE_TABLE).where(LIVE_TABLE.c.id == table_id)
    if game_id is None:
        conn.execute(table.values(over=False, game_id=None))
        _remember(conn, table_id, None)
        return
    _lock_game(conn, game_id)
    held = conn.execute(select(SOURCE.c.id).where(SOURCE.c.game_id == game_id)).first()
    other = _shared(conn, table_id, game_id)
    exists = conn.execute(select(GAME.c.id).where(GAME.c.id == game_id)).first()
    if exists is not None and (held is not None or other):
        conn.execute(table.values(over=False))
        return
    conn.execute(table.values(over=False, game_id=None))
    _remember(conn, table_id, None)
    if exists is not None:
        delete_game(session, game_id=game_id)


# The changes a table took that carried a request id (LIVE.md, "Requests sent again"), so that one
# sent again is answered, not made twice: a row each at seq -version (the version the change
# made; versions only grow), kind "request", which the table's entries (seq 1 on) leave out.
_REQUEST_KIND = "request"
REQUESTS_KEPT = 256  # the last changes remembered per table; an older one sent again is stale


def remember_live_request(
    session: Session, *, table_id: str, version: int, data: dict[str, Any]
) -> None:
    """Keep that the change which made the table's `version` was request `data["id"]` (with
    what it was and what its answer added), and forget the ones more than REQUESTS_KEPT
    changes before it. Flushed, not committed."""
    conn = session.connection()
    row = {"table_id": table_id, "seq": -version, "kind": _REQUEST_KIND, "data": data}
    conn.execute(_INSERT_ENTRY, {**row, "created_at": utc_now()})
    conn.execute(
        delete(LIVE_ENTRY).where(
            LIVE_ENTRY.c.table_id == table_id,
            LIVE_ENTRY.c.seq < 0,
            LIVE_ENTRY.c.seq >= REQUESTS_KEPT - version,  # made version - REQUESTS_KEPT or before
        )
    )


def find_live_request(
    session: Session, *, table_id: str, request_id: str
) -> tuple[int, dict[str, Any]] | None:
    """The version made by the change that was request `request_id`, and what was kept of it
    (remember_live_request); None if the table took no such request (or forgot it)."""
    rows = session.connection().execute(
        select(LIVE_ENTRY.c.seq, LIVE_ENTRY.c.data)
        .where(
            LIVE_ENTRY.c.table_id == table_id,
            LIVE_ENTRY.c.seq < 0,
            LIVE_ENTRY.c.kind == _REQUEST_KIND,
        )
        .order_by(LIVE_ENTRY.c.seq)  # the newest first (seq is -version)
    )
    for seq, data in rows:
        if isinstance(data, dict) and data.get("id") == request_id:
            return -int(seq), dict(data)
    return None


def update_live_entry(
    session: Session, *, table_id: str, version: int, entries: int, seq: int, data: dict[str, Any]
) -> int:
    """Rewrite entry `seq`'s data (the table's marks on a move) and return the new version;
    `entries` is the table's count of entries (unchanged)."""
    conn = session.connection()
    conn.execute(
        update(LIVE_ENTRY)
        .where(LIVE_ENTRY.c.table_id == table_id, LIVE_ENTRY.c.seq == seq)
        .values(data=data)
    )
    return _bump(session, table_id, version, entries)


def replace_live_entries(
    session: Session,
    *,
    table_id: str,
    version: int,
    first: int,
    entries: list[tuple[int, str, dict[str, Any]]],
) -> int:
    """Replace the entries from `first` on by `entries` (seq, kind, data), after a correction,
    and return the new version: one change, however many entries it rewrites."""
    conn = session.connection()
    conn.execute(
        delete(LIVE_ENTRY).where(LIVE_ENTRY.c.table_id == table_id, LIVE_ENTRY.c.seq >= first)
    )
    now = utc_now()
    if entries:
        conn.execute(
            _INSERT_ENTRY,
            [
                {"table_id": table_id, "seq": seq, "kind": kind, "data": data, "created_at": now}
                for seq, kind, data in entries
            ],
        )
    return _bump(session, table_id, version, first - 1 + len(entries))
