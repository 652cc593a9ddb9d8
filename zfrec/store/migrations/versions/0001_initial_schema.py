"""Initial schema: game, game_source, player, seat, hand, hand_seat, play, diagnostic, artifact.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _id() -> sa.Column[int]:
    return sa.Column("id", sa.Integer(), primary_key=True)


def _game_fk(table: str, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(
        "game_id",
        sa.Integer(),
        sa.ForeignKey("game.id", name=f"fk_{table}_game_id_game", ondelete="CASCADE"),
        nullable=nullable,
    )


def _fk(table: str, column: str, target: str, cascade: bool) -> sa.Column[int]:
    return sa.Column(
        column,
        sa.Integer(),
        sa.ForeignKey(
            f"{target}.id",
            name=f"fk_{table}_{column}_{target}",
            ondelete="CASCADE" if cascade else None,
        ),
        nullable=False,
    )


def _index(table: str, *columns: str) -> None:
    op.create_index(f"ix_{table}_{'_'.join(columns)}", table, list(columns))


def upgrade() -> None:
    op.create_table(
        "game",
        _id(),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("record_json", sa.Text(), nullable=False),
        sa.Column("source_path", sa.String(), nullable=True),
        sa.Column("source_index", sa.Integer(), nullable=True),
        sa.Column("event", sa.String(), nullable=True),
        sa.Column("site", sa.String(), nullable=True),
        sa.Column("date", sa.String(), nullable=True),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("preset", sa.String(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("result_scores", sa.JSON(), nullable=True),
        sa.Column("result_winners", sa.JSON(), nullable=True),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("valid", sa.Boolean(), nullable=False),
        sa.Column("errors", sa.Integer(), nullable=False),
        sa.Column("warnings", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_game"),
        sa.UniqueConstraint("content_hash", name="uq_game_content_hash"),
    )
    _index("game", "date")
    _index("game", "source_path")

    op.create_table(
        "game_source",
        _id(),
        _game_fk("game_source"),
        sa.Column("path", sa.String(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_game_source"),
        sa.UniqueConstraint("path", "position", name="uq_game_source_path_position"),
    )
    _index("game_source", "game_id")

    op.create_table(
        "player",
        _id(),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_player"),
        sa.UniqueConstraint("key", name="uq_player_key"),
    )

    op.create_table(
        "seat",
        _id(),
        _game_fk("seat"),
        sa.Column("seat", sa.Integer(), nullable=False),
        _fk("seat", "player_id", "player", cascade=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_seat"),
        sa.UniqueConstraint("game_id", "seat", name="uq_seat_game_id_seat"),
    )
    _index("seat", "game_id")
    _index("seat", "player_id")

    op.create_table(
        "hand",
        _id(),
        _game_fk("hand"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("shuffler", sa.Integer(), nullable=True),
        sa.Column("first", sa.Integer(), nullable=True),
        sa.Column("last", sa.Integer(), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("reconstructed", sa.Boolean(), nullable=False),
        sa.Column("transfer_points", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_hand"),
    )
    _index("hand", "game_id")

    op.create_table(
        "hand_seat",
        _id(),
        _game_fk("hand_seat"),
        _fk("hand_seat", "hand_id", "hand", cascade=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        _fk("hand_seat", "player_id", "player", cascade=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("is_first", sa.Boolean(), nullable=False),
        sa.Column("is_last", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_hand_seat"),
    )
    _index("hand_seat", "game_id")
    _index("hand_seat", "hand_id")
    _index("hand_seat", "player_id")

    op.create_table(
        "play",
        _id(),
        _game_fk("play"),
        _fk("play", "hand_id", "hand", cascade=True),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("trick", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("is_pass", sa.Boolean(), nullable=False),
        sa.Column("cards", sa.String(), nullable=True),
        sa.Column("mask", sa.BigInteger(), nullable=False),
        sa.Column("declarations", sa.String(), nullable=True),
        sa.Column("annotation", sa.String(), nullable=True),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("disputed", sa.Boolean(), nullable=False),
        sa.Column("dispute_note", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_play"),
    )
    _index("play", "game_id")
    _index("play", "hand_id")

    op.create_table(
        "diagnostic",
        _id(),
        _game_fk("diagnostic", nullable=True),
        sa.Column("source_path", sa.String(), nullable=True),
        sa.Column("code", sa.String(), nullable=False),
        sa.Column("severity", sa.String(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("file", sa.String(), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("col", sa.Integer(), nullable=True),
        sa.Column("game_number", sa.Integer(), nullable=True),
        sa.Column("hand", sa.Integer(), nullable=True),
        sa.Column("trick", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("seat", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_diagnostic"),
    )
    _index("diagnostic", "game_id")
    _index("diagnostic", "source_path")

    op.create_table(
        "artifact",
        _id(),
        _game_fk("artifact", nullable=True),
        sa.Column("hand_number", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("mime", sa.String(), nullable=False),
        sa.Column("source_hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_artifact"),
    )
    _index("artifact", "game_id")
    # NULL game or hand must still collide, hence expressions rather than a UNIQUE constraint.
    op.create_index(
        "uq_artifact_key",
        "artifact",
        [
            sa.func.coalesce(sa.column("game_id"), 0),
            sa.func.coalesce(sa.column("hand_number"), -1),
            sa.column("kind"),
            sa.column("name"),
        ],
        unique=True,
    )


def downgrade() -> None:
    for table in (
        "artifact", "diagnostic", "play", "hand_seat", "hand", "seat", "player", "game_source",
        "game",
    ):  # fmt: skip
        op.drop_table(table)
