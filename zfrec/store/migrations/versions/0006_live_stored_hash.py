"""A live table remembers which record it stored as its game: `live_table.stored_hash` (the
sha256 of that record's canonical JSON). A table that is undone and finished again with the same
record then leaves its game as it is, a correction made from a file since included, and one
finished with another record puts it in that game's place (LIVE.md). Tables stored before this
revision have none: their next finish stores the game as before.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ALTER TABLE, not a batch: SQLite's batch copies the table and drops the old one.
    op.add_column("live_table", sa.Column("stored_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("live_table", "stored_hash")  # SQLite 3.35 and later drop a column in place
