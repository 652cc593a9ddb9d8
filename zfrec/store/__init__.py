"""The store: game records in SQL (SQLite by default, any SQLAlchemy database), queryable.

    >>> from zfrec.store import open_store, session, import_file, list_games
    >>> engine = open_store("sqlite:///club.db")
    >>> with session(engine) as s:
    ...     import_file(s, path="2024.zfn")
    ...     rows = list_games(s, player="张伟")

SQLModel tables live only in this package (models.py); callers get plain dataclasses and
zfrec.record.Game objects back. STORE.md documents the schema and the guarantees.
"""

from __future__ import annotations

from zfrec.store.db import StoreError, open_store, resolve_url, session
from zfrec.store.live import (
    HeldByFile,
    LiveConflict,
    LiveEntryRow,
    LiveTableRow,
    append_live_entry,
    create_live_table,
    find_live_request,
    finish_live_game,
    get_live_table,
    list_live_tables,
    live_entries,
    live_version,
    pop_live_entry,
    remember_live_request,
    reopen_live_game,
    replace_live_entries,
    update_live_entry,
)
from zfrec.store.models import Artifact
from zfrec.store.store import (
    GameDetail,
    GameRow,
    HandRow,
    ImportResult,
    PlayerStats,
    canonical_json,
    content_hash,
    delete_game,
    export_game,
    game_diagnostics,
    get_artifact,
    get_game,
    import_file,
    import_workers,
    list_artifacts,
    list_games,
    load_record,
    player_key,
    player_stats,
    put_artifact,
    store_game,
    unreadable_diagnostics,
)

__all__ = [
    "Artifact",
    "GameDetail",
    "GameRow",
    "HandRow",
    "HeldByFile",
    "ImportResult",
    "LiveConflict",
    "LiveEntryRow",
    "LiveTableRow",
    "PlayerStats",
    "StoreError",
    "append_live_entry",
    "canonical_json",
    "content_hash",
    "create_live_table",
    "delete_game",
    "export_game",
    "find_live_request",
    "finish_live_game",
    "game_diagnostics",
    "get_artifact",
    "get_game",
    "get_live_table",
    "import_file",
    "import_workers",
    "list_artifacts",
    "list_games",
    "list_live_tables",
    "live_entries",
    "live_version",
    "load_record",
    "open_store",
    "player_key",
    "player_stats",
    "pop_live_entry",
    "put_artifact",
    "remember_live_request",
    "reopen_live_game",
    "replace_live_entries",
    "resolve_url",
    "session",
    "store_game",
    "unreadable_diagnostics",
    "update_live_entry",
]
