"""Core handles on the store's tables, and small helpers the store modules share."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, Row, select
from sqlmodel import SQLModel

from zfrec.record.model import plain_name
from zfrec.store import models  # noqa: F401  (defines the tables)
from zfrec.store.db import StoreError

_T = SQLModel.metadata.tables
GAME, SOURCE, PLAYER, SEAT = _T["game"], _T["game_source"], _T["player"], _T["seat"]
HAND, HAND_SEAT, PLAY, DIAG = _T["hand"], _T["hand_seat"], _T["play"], _T["diagnostic"]
ARTIFACT = _T["artifact"]
SJ_ROUND, SJ_ROUND_SEAT, SJ_PLAY = _T["sj_round"], _T["sj_round_seat"], _T["sj_play"]
# The tables of the kinds' rows per hand or round: (units, seats per unit, plays), the first
# two keyed by game_id, the plays by their unit (zfrec.store.rows.Layout).
UNIT_TABLES = ((HAND, HAND_SEAT, PLAY, "hand_id"), (SJ_ROUND, SJ_ROUND_SEAT, SJ_PLAY, "round_id"))
LIVE_TABLE, LIVE_ENTRY = _T["live_table"], _T["live_entry"]
CHUNK = 500  # values per IN (...) list


def player_key(name: str) -> str:
    """Names match ignoring case and Unicode normal form, as they do inside a record."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def asked_key(name: str) -> str:
    """The key of a name asked for (`games --player`, `stats --player`): as `player_key`, with
    the invisible format characters a name copied from a page carries (the isolates U+2066 to
    U+2069, marks of direction, zero-width spaces and joiners: Unicode's Cf) taken out, its
    no-break spaces read as spaces, as a record's reader reads a name (`plain_name`), and the
    spaces around it stripped."""
    seen = "".join(c for c in plain_name(name)[0] if unicodedata.category(c) != "Cf")
    return player_key(seen.strip())


def chunks(items: Sequence[Any]) -> Iterable[list[Any]]:
    for i in range(0, len(items), CHUNK):
        yield list(items[i : i + CHUNK])


def require_game(conn: Connection, game_id: int) -> Row[Any]:
    row = conn.execute(select(GAME).where(GAME.c.id == game_id)).first()
    if row is None:
        raise StoreError(f"no game {game_id} in the store")
    return row
