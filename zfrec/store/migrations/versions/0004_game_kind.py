"""Every stored game names its kind (zfrec.games): `game.kind`, indexed. The games stored before
there were two kinds are Zheng Fen's, the default, which the column's server default gives them
as the table is upgraded in place.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_KIND = "zhengfen"  # zfrec.games.DEFAULT_KIND when this revision was written


def upgrade() -> None:
    # Plain ALTER TABLEs, not a batch: SQLite's batch copies the table and drops the old one,
    # and dropping `game` would cascade to every row that refers to it.
    op.add_column(
        "game",
        sa.Column("kind", sa.String(length=32), nullable=False, server_default=DEFAULT_KIND),
    )
    op.create_index("ix_game_kind", "game", ["kind"])


def downgrade() -> None:
    op.drop_index("ix_game_kind", table_name="game")
    op.drop_column("game", "kind")  # SQLite 3.35 and later drop a column in place
