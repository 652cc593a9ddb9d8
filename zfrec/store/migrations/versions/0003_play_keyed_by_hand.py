"""A play belongs to its game through its hand: play.game_id keeps its value but loses its
foreign key and index, which every stored move paid for (a tenth of an import's inserts).

Deleting a game still removes its plays, through hand.game_id and play.hand_id, both declared
ON DELETE CASCADE; zfrec deletes them by hand itself.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("play") as batch:  # SQLite: the table is copied without them
        batch.drop_index("ix_play_game_id")
        batch.drop_constraint("fk_play_game_id_game", type_="foreignkey")


def downgrade() -> None:
    with op.batch_alter_table("play") as batch:
        batch.create_foreign_key(
            "fk_play_game_id_game", "game", ["game_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_index("ix_play_game_id", ["game_id"])
