"""Sheng ji's rows: sj_round (dealer, trump, declarers, the opponents' points, the kitty and its
multiplier, the level change, the next dealer), sj_round_seat (team and levels per seat) and
sj_play (bids and plays; cards from two or three decks, which a 64-bit mask cannot hold, as
text and as the packed multiset in two 54-bit halves). Zheng Fen's hand, hand_seat and play
stay as they are: new tables only, so a store holding games upgrades without copying a row.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sj_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("trump", sa.String(), nullable=True),
        sa.Column("declarers", sa.Integer(), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("reconstructed", sa.Boolean(), nullable=False),
        sa.Column("taken", sa.Integer(), nullable=True),
        sa.Column("kitty", sa.String(), nullable=True),
        sa.Column("kitty_points", sa.Integer(), nullable=True),
        sa.Column("multiplier", sa.Integer(), nullable=True),
        sa.Column("kitty_added", sa.Integer(), nullable=True),
        sa.Column("penalty", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("declarers_up", sa.Integer(), nullable=True),
        sa.Column("opponents_up", sa.Integer(), nullable=True),
        sa.Column("swap", sa.Boolean(), nullable=True),
        sa.Column("next_dealer", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_sj_round_game_id_game", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_sj_round"),
    )
    op.create_index("ix_sj_round_game_id", "sj_round", ["game_id"])
    op.create_table(
        "sj_round_seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("declarer", sa.Boolean(), nullable=True),
        sa.Column("level_before", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_sj_round_seat_game_id_game", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name="fk_sj_round_seat_player_id_player"
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["sj_round.id"],
            name="fk_sj_round_seat_round_id_sj_round",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_sj_round_seat"),
    )
    op.create_index("ix_sj_round_seat_game_id", "sj_round_seat", ["game_id"])
    op.create_index("ix_sj_round_seat_player_id", "sj_round_seat", ["player_id"])
    op.create_index("ix_sj_round_seat_round_id", "sj_round_seat", ["round_id"])
    op.create_table(
        "sj_play",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("trick", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("is_bid", sa.Boolean(), nullable=False),
        sa.Column("cards", sa.String(), nullable=False),
        sa.Column("cards_lo", sa.BigInteger(), nullable=False),
        sa.Column("cards_hi", sa.BigInteger(), nullable=False),
        sa.Column("forced", sa.String(), nullable=True),
        sa.Column("blocker", sa.Integer(), nullable=True),
        sa.Column("joins", sa.Boolean(), nullable=False),
        sa.Column("annotation", sa.String(), nullable=True),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("disputed", sa.Boolean(), nullable=False),
        sa.Column("dispute_note", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["round_id"], ["sj_round.id"], name="fk_sj_play_round_id_sj_round", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_sj_play"),
    )
    op.create_index("ix_sj_play_round_id", "sj_play", ["round_id"])


def downgrade() -> None:
    # The indexes go with their tables.
    op.drop_table("sj_play")
    op.drop_table("sj_round_seat")
    op.drop_table("sj_round")
