"""diagnostic.occurrence: which hand (Sheng ji: round) of a number written more than once a
finding is in (2 for the second hand 1, as `validate --json` says it); NULL for the first, or
only, one, and for the findings stored before it. A nullable column: a store holding games
upgrades without copying a row.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
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
    # a plain ALTER TABLE, as 0004's: no copy of the table
    op.add_column("diagnostic", sa.Column("occurrence", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("diagnostic", "occurrence")  # SQLite 3.35 and later drop a column in place
