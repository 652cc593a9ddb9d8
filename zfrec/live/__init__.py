"""The live table: games logged at the table, every entry judged as it is made (LIVE.md).

    from zfrec.live import Table
    table, token = Table.create(engine, players=["Ann", "Bo", "Cy"])
    table.start_hand(token, shuffler=1)
    table.enter(token, seat=2, play="3h")

`zfrec.live.app` is the web app (`zfrec serve`) over this class.
"""

from __future__ import annotations

from zfrec.live.entries import Conflict, EntryRefused, LiveError
from zfrec.live.table import (
    Forbidden,
    NotFound,
    Stale,
    Table,
    TableSummary,
    Unauthorized,
    list_tables,
)

__all__ = [
    "Conflict",
    "EntryRefused",
    "Forbidden",
    "LiveError",
    "NotFound",
    "Stale",
    "Table",
    "TableSummary",
    "Unauthorized",
    "list_tables",
]
