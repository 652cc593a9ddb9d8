"""Alembic environment. zfrec passes an open connection (inside the transaction that holds the
migration lock); the alembic command line gets one from $ZFREC_DB instead."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

from zfrec.store import models  # registers the tables
from zfrec.store.db import make_engine

config = context.config


def render_item(kind: str, obj: Any, autogen: AutogenContext) -> str | Literal[False]:
    """Write plain SQLAlchemy types into revisions: a migration must not import the models."""
    if kind == "type" and isinstance(obj, AutoString):
        return f"sa.String({obj.length})" if obj.length else "sa.String()"
    if kind == "type" and isinstance(obj, models.UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
        render_item=render_item,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if given is not None:
    run(given)
else:
    engine = make_engine()
    with engine.begin() as conn:
        run(conn)
    engine.dispose()
