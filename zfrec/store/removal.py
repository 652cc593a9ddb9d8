"""Removing stored games and everything derived from them, and pointing a file at its games.

Deletes remove child rows explicitly, so they work whether or not the database enforces foreign
keys (STORE.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, delete, insert, select, update
from sqlmodel import Session

from zfrec.store.tables import (
    ARTIFACT,
    DIAG,
    GAME,
    LIVE_TABLE,
    SEAT,
    SOURCE,
    UNIT_TABLES,
    chunks,
    require_game,
)


def delete_children(conn: Connection, chunk: Sequence[int]) -> None:
    """Delete what is derived from the games `chunk` (at most CHUNK ids), not the games."""
    for units, unit_seats, plays, key in UNIT_TABLES:  # every kind's hands or rounds
        ids = select(units.c.id).where(units.c.game_id.in_(chunk))
        conn.execute(delete(plays).where(plays.c[key].in_(ids)))  # plays are found by unit
        for table in (unit_seats, units):
            conn.execute(delete(table).where(table.c.game_id.in_(chunk)))
    for table in (SEAT, DIAG, ARTIFACT):
        conn.execute(delete(table).where(table.c.game_id.in_(chunk)))


def delete_games(conn: Connection, ids: Sequence[int]) -> None:
    for chunk in chunks(ids):
        delete_children(conn, chunk)
        conn.execute(delete(SOURCE).where(SOURCE.c.game_id.in_(chunk)))
        conn.execute(update(LIVE_TABLE).where(LIVE_TABLE.c.game_id.in_(chunk)).values(game_id=None))
        conn.execute(delete(GAME).where(GAME.c.id.in_(chunk)))


def delete_game(session: Session, *, game_id: int) -> None:
    """Remove one game and everything derived from it (its artifacts too). A live table that
    finished it keeps its entries and forgets the stored game."""
    conn = session.connection()
    require_game(conn, game_id)
    delete_games(conn, [game_id])


def replace_sources(conn: Connection, source: str, refs: list[tuple[int, int]]) -> int:
    """Point `source` at exactly `refs`; delete the games nothing points at any more."""
    old = {
        (pos, gid)
        for pos, gid in conn.execute(
            select(SOURCE.c.position, SOURCE.c.game_id).where(SOURCE.c.path == source)
        )
    }
    if old == set(refs):
        return 0
    conn.execute(delete(SOURCE).where(SOURCE.c.path == source))
    if refs:
        conn.execute(
            insert(SOURCE), [{"game_id": g, "path": source, "position": p} for p, g in refs]
        )
    dropped = sorted({g for _, g in old} - {g for _, g in refs})
    orphans: list[int] = []
    for chunk in chunks(dropped):
        still = set(conn.scalars(select(SOURCE.c.game_id).where(SOURCE.c.game_id.in_(chunk))))
        # A game a live table finished is held by that table, file or no file.
        still.update(
            conn.scalars(select(LIVE_TABLE.c.game_id).where(LIVE_TABLE.c.game_id.in_(chunk)))
        )
        orphans += [g for g in chunk if g not in still]
    delete_games(conn, orphans)
    return len(orphans)
