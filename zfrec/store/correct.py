"""Correcting the store by hand: a stored game replaced by another record (`zfrec import
--replace ID FILE`), a live table deleted (`zfrec tables --delete ID`). Deleting a game is
`delete_game` (zfrec.store.removal). Each runs in the caller's transaction.

    with session(engine) as s:
        result = replace_game(s, game_id=17, path="game17-fixed.zfn")
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, delete, select
from sqlmodel import Session

from zfrec.diagnostics import WrittenDiagnostic
from zfrec.errors import NotationError, ZfrecError
from zfrec.games import find_kind
from zfrec.jsonview import dump
from zfrec.record import Game, iter_records
from zfrec.store.db import StoreError
from zfrec.store.firstpass import canonical_json, sha256
from zfrec.store.importer import (
    _player_ids,
    _replace_unreadable,
    _rewrite_game,
    new_batches,
    respell_players,
    source_path,
)
from zfrec.store.likeness import deals, stored_game
from zfrec.store.recognise import AGREE, agreement, record_plays, stored_plays
from zfrec.store.removal import replace_sources
from zfrec.store.rows import Rows, game_rows
from zfrec.store.tables import GAME, LIVE_ENTRY, LIVE_TABLE, SEAT, SOURCE
from zfrec.validate import validate


@dataclass(frozen=True, slots=True)
class Replaced:
    """What `zfrec import --replace` did."""

    game_id: int
    path: str
    changed: bool  # False: the game held this record already
    valid: bool
    errors: int
    warnings: int
    hands: int
    diagnostics: tuple[WrittenDiagnostic, ...] = ()
    unit: str = "hand"  # what `hands` counts, in the game's word (GameKind.unit: "round")

    def to_json(self) -> dict[str, Any]:
        """What `zfrec import --replace --json` writes: its fields (`unit` aside: the JSON
        counts the game's hands or rounds in `hands`)."""
        data: dict[str, Any] = dump(self)
        del data["unit"]
        return data


class NotAVersion(StoreError):
    """`--replace ID` refused: the record is plainly not a version of game ID."""


def replace_game(
    session: Session, *, game_id: int, path: str | Path, check: bool = False
) -> Replaced:
    """Put the one game of the file at `path` in place of stored game `game_id`, which keeps
    its id: its rows, diagnostics and artifacts are made again from the new record, and the
    file (position 1) now refers to it. Flushed in the caller's transaction, not committed.

    StoreError when the file holds no game or more than one, when its game cannot be read,
    when there is no such stored game, or when the record is stored already as another game;
    NotAVersion, with `check` (`zfrec import --replace` without --force), when the record is
    plainly not a version of game `game_id` (`unrelated`).
    """
    source = source_path(path)
    items = list(islice(iter_records(path), 2))
    if not items:
        raise StoreError(f"{path} holds no game")
    if len(items) > 1:
        raise StoreError(f"{path} holds more than one game: --replace takes a file of one game")
    game = items[0]
    if isinstance(game, NotationError):
        raise StoreError(f"the game cannot be read: {game}")
    try:
        text = canonical_json(game)
    except ZfrecError as exc:
        raise StoreError(f"{path}: the game cannot be stored: {exc}") from None
    digest = sha256(text)
    conn = session.connection()
    row = conn.execute(
        select(GAME.c.id, GAME.c.content_hash).where(GAME.c.id == game_id).with_for_update()
    ).first()
    if row is None:
        raise StoreError(f"no game {game_id} in the store")
    report = validate(game, game_number=1)
    errors = sum(d.severity == "error" for d in report.diagnostics)
    warnings = sum(d.severity == "warning" for d in report.diagnostics)
    rows = game_rows(source, 1, text, game, report)
    # hands or rounds: the units the kind stores (a Sheng ji match keeps no Zheng Fen hands)
    facts = (report.ok, errors, warnings, len(rows.hands), tuple(rows.diagnostics))
    unit = find_kind(game.kind).unit
    if row.content_hash == digest:
        replace_sources(conn, source, [(1, game_id)])
        return Replaced(game_id, str(path), False, *facts, unit=unit)
    other = conn.execute(select(GAME.c.id).where(GAME.c.content_hash == digest)).scalar()
    if other is not None:
        # The file's record is game `other` already: replacing `other` with it would change
        # nothing, and game `game_id` may be any other game, so nothing is advised.
        raise StoreError(
            f"the record in {path} is stored already, as game {other}, not as game {game_id}: "
            f"nothing was changed (game {other} holds this record; game {game_id} is kept as it is)"
        )
    if check:
        why = unrelated(conn, game_id, game, text)
        if why is not None:
            raise NotAVersion(
                f"the record in {path} is not a version of game {game_id}: {why}; nothing was "
                f"changed (check the id; --force puts it in place of game {game_id} all the same)"
            )
    _put_in_place(conn, game_id, digest, rows)
    replace_sources(conn, source, [(1, game_id)])
    _replace_unreadable(conn, source, [])
    return Replaced(game_id, str(path), True, *facts, unit=unit)


def unrelated(conn: Connection, game_id: int, game: Game, text: str) -> str | None:
    """Why the record `game` (canonical JSON `text`) is plainly not a version of stored game
    `game_id`, or None when it may be one: it is a game of another kind, or it has neither the
    game's Event and Date nor any deal in common with it (records without deals: half of the
    plays, as a re-import recognises a correction)."""
    stored = stored_game(conn, game_id)
    if stored is None:
        return None
    if stored.kind != game.kind:
        return (
            f"game {game_id} is a {stored.kind_title()} game ({stored.text()}), the record "
            f"a {find_kind(game.kind).title} game"
        )
    if game.event and game.date and (game.event, game.date) == (stored.event, stored.date):
        return None
    old = str(conn.execute(select(GAME.c.record_json).where(GAME.c.id == game_id)).scalar())
    mine, theirs = deals(text), deals(old)
    if mine and theirs:
        if mine & theirs:
            return None
        common = "no deal in common with it"
    else:
        rows = game_rows(None, 1, text, game, validate(game))
        share = agreement(record_plays(rows.plays), stored_plays(conn, game_id, rows.layout))
        if share >= AGREE:
            return None
        common = f"only {share:.0%} of its plays in common"
    return f"game {game_id} ({stored.text()}) has another event or date and {common}"


def replace_record(session: Session, *, game_id: int, game: Game, digest: str) -> None:
    """Put `game`, a record from no file (a live table's), in place of stored game `game_id`,
    which keeps its id and its files; `digest` is the record's hash, which no other stored game
    has. Flushed in the caller's transaction, not committed."""
    text = canonical_json(game)
    rows = game_rows(None, 1, text, game, validate(game))
    _put_in_place(session.connection(), game_id, digest, rows)


def _put_in_place(conn: Connection, game_id: int, digest: str, rows: Rows) -> None:
    players = _player_ids(conn, [name for _, _, name, _, _ in rows.seats])
    before = conn.execute(select(SEAT.c.player_id).where(SEAT.c.game_id == game_id)).scalars()
    sat = {int(p) for p in before} | set(players.values())
    batches = new_batches(conn)
    _rewrite_game(conn, batches, game_id, digest, rows, players)
    batches.flush()
    batches.close()
    respell_players(conn, sat)


def game_sources(session: Session, *, game_id: int) -> list[tuple[str, int]]:
    """The files (path, position) that hold a stored game, as the store remembers them."""
    return sources_of(session.connection(), game_id)


def sources_of(
    conn: Connection, game_id: int, unless_hash: str | None = None
) -> list[tuple[str, int]]:
    """`game_sources` on a connection, ordered by path and position; none when the stored
    game's record has the hash `unless_hash` (a live table's record that is the stored one)."""
    query = select(SOURCE.c.path, SOURCE.c.position).where(SOURCE.c.game_id == game_id)
    if unless_hash is not None:
        query = query.join(GAME, GAME.c.id == SOURCE.c.game_id).where(
            GAME.c.content_hash != unless_hash
        )
    rows = conn.execute(query.order_by(SOURCE.c.path, SOURCE.c.position))
    return [(str(p), int(n)) for p, n in rows]


def delete_live_table(session: Session, *, table_id: str) -> tuple[int, int | None]:
    """Remove a live table and its entries; (entries, game id). A game it finished stays in
    the store as any stored game (`delete_game` removes it). Not committed."""
    conn = session.connection()
    row = conn.execute(
        select(LIVE_TABLE.c.entries, LIVE_TABLE.c.game_id)
        .where(LIVE_TABLE.c.id == table_id)
        .with_for_update()
    ).first()
    if row is None:
        raise StoreError(f"no live table {table_id!r}")
    conn.execute(delete(LIVE_ENTRY).where(LIVE_ENTRY.c.table_id == table_id))
    conn.execute(delete(LIVE_TABLE).where(LIVE_TABLE.c.id == table_id))
    return int(row.entries), None if row.game_id is None else int(row.game_id)
