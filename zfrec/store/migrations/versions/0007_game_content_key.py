"""game.content_key: the sha256 of a game's deals and plays (zfrec.store.content), indexed, so
that an import finds a stored game with a new game's deals and plays without reading stored
records. The games stored before it get theirs here, from their canonical JSON.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from zfrec.store.content import content_key

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500  # games read and keyed at a time


def upgrade() -> None:
    # a plain ALTER TABLE, as 0004's: no copy of the table
    op.add_column("game", sa.Column("content_key", sa.String(length=64), nullable=True))
    game = sa.table(
        "game",
        sa.column("id", sa.Integer()),
        sa.column("record_json", sa.Text()),
        sa.column("content_key", sa.String()),
    )
    conn = op.get_bind()
    last = 0
    while True:
        rows = conn.execute(
            sa.select(game.c.id, game.c.record_json)
            .where(game.c.id > last)
            .order_by(game.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        conn.execute(
            game.update().where(game.c.id == sa.bindparam("b_id")),
            [
                {"b_id": i, "content_key": content_key(str(text), canonical=False)}
                for i, text in rows
            ],
        )
        last = rows[-1][0]
    op.create_index("ix_game_content_key", "game", ["content_key"])


def downgrade() -> None:
    op.drop_index("ix_game_content_key", table_name="game")
    op.drop_column("game", "content_key")  # SQLite 3.35 and later drop a column in place
