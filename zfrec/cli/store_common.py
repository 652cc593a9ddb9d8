"""What the store's commands share (`zfrec import`, `games`, `show`, `stats`, `export`,
`delete`): their options, and the store opened with its errors said in one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from zfrec.cli.common import JSON_HELP, fail, friendly_errors

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = [
    "MAX_GAME_ID", "DbOption", "GameIdArgument", "JsonOption", "PlayerOption", "opened_store",
]  # fmt: skip

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database: any SQLAlchemy URL, or a SQLite file path. "
        "Default: $ZFREC_DB, else ./zfrec.db.",
        show_default=False,
    ),
]
# A game id the store's integer column can hold (PostgreSQL's is 32-bit): a larger one is a bad
# argument (exit 2), not an overflow inside the database driver.
MAX_GAME_ID = 2**31 - 1
GameIdArgument = Annotated[
    int, typer.Argument(help="The game's id (see `zfrec games`).", min=1, max=MAX_GAME_ID)
]
PlayerOption = Annotated[
    str | None, typer.Option("--player", "-p", help="Only games this player sat in.")
]
JsonOption = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


@contextmanager
def opened_store(
    db: str | None, *, create: bool = True, writes: bool | None = None
) -> Iterator[Engine]:
    """The opened store; any ZfrecError inside becomes a message and exit code 2.

    Only `import` creates a store; the commands that read pass create=False, so a mistyped
    --db is refused (exit 2) and leaves nothing behind. A command that writes to a store it
    does not create passes writes=True: a database that cannot hold every name is refused
    before anything is written (zfrec.store.db.require_utf8).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from zfrec.store import open_store

    with friendly_errors():
        engine = open_store(db, create=create, writes=writes)
        try:
            yield engine
        except SQLAlchemyError as exc:
            from zfrec.store.faults import database_fault

            if (fault := database_fault(exc)) is None:
                raise  # a bug of zfrec's: an internal error (exit 3)
            fail(fault)
        finally:
            engine.dispose()
