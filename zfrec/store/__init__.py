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
    list_artifacts,
    list_games,
    load_record,
    player_key,
    player_stats,
    put_artifact,
    unreadable_diagnostics,
)

__all__ = [
    "Artifact",
    "GameDetail",
    "GameRow",
    "HandRow",
    "ImportResult",
    "PlayerStats",
    "StoreError",
    "canonical_json",
    "content_hash",
    "delete_game",
    "export_game",
    "game_diagnostics",
    "get_artifact",
    "get_game",
    "import_file",
    "list_artifacts",
    "list_games",
    "load_record",
    "open_store",
    "player_key",
    "player_stats",
    "put_artifact",
    "resolve_url",
    "session",
    "unreadable_diagnostics",
]
