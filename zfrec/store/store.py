"""The store's public functions, all keyword-only after the Session.

    >>> with session(engine) as s:
    ...     result = import_file(s, path="club/2024.zfn")        # validate, then store
    ...     rows = list_games(s, player="张伟")
    ...     game = load_record(s, rows[0].id)                     # the canonical record, exactly

importer.py writes (batches.py is its writer of rows), queries.py reads, artifacts.py keeps
rendered output; STORE.md has the guarantees.
"""

from __future__ import annotations

from zfrec.store.artifacts import get_artifact, list_artifacts, put_artifact
from zfrec.store.firstpass import Workers, canonical_json, import_workers
from zfrec.store.importer import (
    ImportResult,
    content_hash,
    delete_game,
    import_file,
    store_game,
)
from zfrec.store.queries import (
    GameDetail,
    GameRow,
    HandRow,
    PlayerStats,
    export_game,
    game_diagnostics,
    get_game,
    list_games,
    load_record,
    player_stats,
    unreadable_diagnostics,
)
from zfrec.store.tables import player_key

__all__ = [
    "GameDetail",
    "GameRow",
    "HandRow",
    "ImportResult",
    "PlayerStats",
    "Workers",
    "canonical_json",
    "content_hash",
    "delete_game",
    "export_game",
    "game_diagnostics",
    "get_artifact",
    "get_game",
    "import_file",
    "import_workers",
    "list_artifacts",
    "list_games",
    "load_record",
    "player_key",
    "player_stats",
    "put_artifact",
    "store_game",
    "unreadable_diagnostics",
]
