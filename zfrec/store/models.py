"""The store's tables (SQLModel). They live here and nowhere else: the engine never sees them.

One `game` row per distinct record (by the sha256 of its canonical JSON, which the row also keeps
so the record comes back exactly). Everything else is derived from the record and its
validation, so that the questions people ask are plain SQL:

    game 1─* game_source              the files (and positions) that hold the record
    game 1─* seat *─1 player          who sat where, final score, winner
    game 1─* hand 1─* hand_seat       per hand: shuffler, first and last out; points per seat
    hand 1─* play                     every recorded move: trick, turn, seat, cards, jokers
    game 1─* sj_round 1─* sj_round_seat   Sheng ji: per round, dealer, trump, points, levels
    sj_round 1─* sj_play              every Sheng ji bid and play
    game 1─* diagnostic               the validator's findings with their locations
    game 1─* artifact                 rendered output (HTML, SVG, PNG, pages), keyed by hash

Seats are 0-based here, as in the record model. Change a table only together with a new
migration in zfrec/store/migrations/versions (STORE.md says how).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Dialect, Index, LargeBinary, Text, UniqueConstraint, func
from sqlalchemy.types import DateTime, TypeDecorator
from sqlmodel import Field, SQLModel, col

from zfrec.games import DEFAULT_KIND

# Named constraints keep later migrations (SQLite batch mode) able to find them.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ARTIFACT_KINDS = ("replay_html", "chart_svg", "chart_png", "page")


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python, whatever the backend keeps."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        # SQLite keeps no zone: what it holds was written as UTC.
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utc_now() -> datetime:
    return datetime.now(UTC)


class StoredGame(SQLModel, table=True):
    """One record. `record_json` is its canonical JSON text; `content_hash` its sha256."""

    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    content_hash: str = Field(max_length=64, unique=True)
    record_json: str = Field(sa_type=Text)
    # the sha256 of its deals and plays (zfrec.store.content; revision 0007): equal for two
    # records that differ only in their header or comments
    content_key: str | None = Field(default=None, max_length=64, index=True)
    source_path: str | None = Field(default=None, index=True)  # the file it first came from
    source_index: int | None = None  # 1-based position of the game in that file
    # The game's kind (zfrec.games); revision 0004 gave the games stored before it Zheng Fen's.
    kind: str = Field(
        default=DEFAULT_KIND,
        max_length=32,
        index=True,
        sa_column_kwargs={"server_default": DEFAULT_KIND},
    )
    event: str | None = None
    site: str | None = None
    date: str | None = Field(default=None, index=True)
    tags: list[Any] = Field(default_factory=list, sa_type=JSON)  # [[name, value], ...]
    preset: str
    options: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    target: int
    players: int  # number of seats
    result_scores: list[Any] | None = Field(default=None, sa_type=JSON)  # as recorded
    result_winners: list[Any] | None = Field(default=None, sa_type=JSON)  # seats, as recorded
    hands: int  # hands in the record
    moves: int  # actions replayed, inferred passes included
    over: bool  # a score reached the target (as computed)
    valid: bool  # no error-level diagnostic
    errors: int
    warnings: int
    imported_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class GameSource(SQLModel, table=True):
    """Which file holds a game, and where. A game stays stored while any file holds it."""

    __tablename__ = "game_source"
    __table_args__ = (UniqueConstraint("path", "position"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    path: str  # absolute path of the file
    position: int  # 1-based position of the game in the file


class Player(SQLModel, table=True):
    """A person, by name. `key` (NFC, casefolded) is unique: records compare names ignoring case."""

    __tablename__ = "player"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True)
    name: str  # the spelling first seen


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    seat: int
    player_id: int = Field(foreign_key="player.id", index=True)
    name: str  # as written in this record
    score: int | None = None  # final score, as computed
    winner: bool = False  # as computed


class StoredHand(SQLModel, table=True):
    __tablename__ = "hand"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    number: int
    shuffler: int | None = None  # seat
    first: int | None = None  # seat that went out first, None if the hand did not finish
    last: int | None = None  # seat left last
    finished: bool = False
    reconstructed: bool = False  # the deal was reconstructed from the plays
    transfer_points: int | None = None  # counters passed from last to first


class HandSeat(SQLModel, table=True):
    """One seat's outcome in one hand: the points per seat, and where it went out."""

    __tablename__ = "hand_seat"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    hand_id: int = Field(foreign_key="hand.id", ondelete="CASCADE", index=True)
    seat: int
    player_id: int = Field(foreign_key="player.id", index=True)
    points: int | None = None  # as computed; None if the hand did not finish
    place: int | None = None  # 1 = went out first
    is_first: bool = False
    is_last: bool = False


class Play(SQLModel, table=True):
    """One recorded move. `turn` is its 1-based position in the trick as written."""

    __tablename__ = "play"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int  # the hand's game, without a key of its own: the hand ties the play to it
    hand_id: int = Field(foreign_key="hand.id", ondelete="CASCADE", index=True)
    hand_number: int
    trick: int
    turn: int
    seat: int
    is_pass: bool = False
    cards: str | None = None  # canonical card list, e.g. "7s 7h BJ"
    mask: int = Field(default=0, sa_type=BigInteger)  # 54-bit card mask
    declarations: str | None = None  # e.g. "BJ=7d"
    annotation: str | None = None
    comment: str | None = Field(default=None, sa_type=Text)  # comments joined by blank lines
    disputed: bool = False
    dispute_note: str | None = Field(default=None, sa_type=Text)


# --- Sheng ji's rows (zfrec.games.shengji.rows) ------------------------------------------------


class SjRoundRow(SQLModel, table=True):
    """One Sheng ji round: the facts the rules compute when the record is replayed (the record
    itself keeps what the scorer wrote). The opponents' points, kitty and level columns are
    None when the round did not finish."""

    __tablename__ = "sj_round"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    number: int
    dealer: int | None = None  # seat
    rank: int | None = None  # the dominant rank as a level, 2..14 (J 11 ... A 14)
    trump: str | None = None  # s h d c, or nt
    declarers: int | None = None  # the declarers' seats as a bit mask (seat s: bit s)
    finished: bool = False
    reconstructed: bool = False  # the deal was rebuilt from the plays
    taken: int | None = None  # the opponents' points won in tricks
    kitty: str | None = None  # the kitty as the dealer put it back (canonical card text)
    kitty_points: int | None = None
    multiplier: int | None = None  # the kitty's multiplier
    kitty_added: int | None = None  # what the kitty added to the opponents (0: declarers' last)
    penalty: int | None = None  # failed throws' net effect on the opponents' points
    points: int | None = None  # the opponents' total
    declarers_up: int | None = None  # levels the declarers went up
    opponents_up: int | None = None  # levels the opponents went up
    swap: bool | None = None  # the opponents become the declarers
    next_dealer: int | None = None  # seat


class SjRoundSeat(SQLModel, table=True):
    """One seat in one Sheng ji round: its team and its level before and after."""

    __tablename__ = "sj_round_seat"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    round_id: int = Field(foreign_key="sj_round.id", ondelete="CASCADE", index=True)
    seat: int
    player_id: int = Field(foreign_key="player.id", index=True)
    declarer: bool | None = None  # on the declarers' team; None if the round did not finish
    level_before: int  # 2..14
    level: int  # after the round (as computed; the written levels where the record gives them)
    points: int | None = None  # the opponents' total if this seat was an opponent, else None


class SjPlay(SQLModel, table=True):
    """One Sheng ji bid (`trick` 0) or play. Two decks hold 108 cards, more than a 64-bit
    mask: `cards` is the canonical text (copies written out, `7h 7h`), and `cards_lo` and
    `cards_hi` the packed multiset of zfrec.games.shengji.cards (2 bits per card id: how many
    copies, up to three decks) cut into two 54-bit halves, card ids 0..26 and 27..53."""

    __tablename__ = "sj_play"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int  # the round's game, without a key of its own, as play.game_id
    round_id: int = Field(foreign_key="sj_round.id", ondelete="CASCADE", index=True)
    round_number: int
    trick: int  # 0: a bid
    turn: int
    seat: int
    is_bid: bool = False
    cards: str  # for a failed throw, the attempt
    cards_lo: int = Field(default=0, sa_type=BigInteger)
    cards_hi: int = Field(default=0, sa_type=BigInteger)
    forced: str | None = None  # a failed throw's forced part
    blocker: int | None = None  # the seat that could beat the throw, as written
    joins: bool = False  # zhao pengyou: this play makes the seat a friend
    annotation: str | None = None
    comment: str | None = Field(default=None, sa_type=Text)
    disputed: bool = False
    dispute_note: str | None = Field(default=None, sa_type=Text)


class StoredDiagnostic(SQLModel, table=True):
    """A validator finding. `game_id` is None for a game that could not be read at all."""

    __tablename__ = "diagnostic"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", ondelete="CASCADE", index=True)
    source_path: str | None = Field(default=None, index=True)
    code: str
    severity: str
    message: str = Field(sa_type=Text)
    file: str | None = None
    line: int | None = None
    col: int | None = None
    game_number: int | None = None
    hand: int | None = None
    trick: int | None = None
    turn: int | None = None
    seat: str | None = None
    # 2: in the second hand (round) the record writes with the number `hand`; None for the
    # first, or only, one (Location.occurrence; migration 0006)
    occurrence: int | None = None


class Artifact(SQLModel, table=True):
    """Rendered output kept for reuse. One per (game, hand, kind, name); `source_hash` says
    what it was made from, so a stale artifact is recognised and replaced."""

    __tablename__ = "artifact"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", ondelete="CASCADE", index=True)
    hand_number: int | None = None
    kind: str
    name: str
    content: bytes = Field(sa_type=LargeBinary)
    mime: str
    source_hash: str
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


# One artifact per key. A NULL game or hand must still collide, hence the expressions.
Index(
    "uq_artifact_key",
    func.coalesce(col(Artifact.game_id), 0),
    func.coalesce(col(Artifact.hand_number), -1),
    col(Artifact.kind),
    col(Artifact.name),
    unique=True,
)


# --- live tables (zfrec serve) ----------------------------------------------------------------


class LiveTable(SQLModel, table=True):
    """A game being logged at the table (LIVE.md). Its record is its entries, in order.

    `version` grows with every change (entry or undo), so a process that holds the table in
    memory knows whether another process changed it. `token_hash` is the sha256 of the writer
    token; the token itself is never stored. `game_id` is the stored game once it is over.
    """

    __tablename__ = "live_table"

    id: str = Field(primary_key=True, max_length=32)
    token_hash: str = Field(max_length=64)
    players: list[Any] = Field(sa_type=JSON)  # names in seat order
    preset: str
    options: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    target: int
    event: str | None = None
    site: str | None = None
    date: str | None = None
    version: int = 0
    entries: int = 0  # entries stored; the next one gets seq = entries + 1
    over: bool = False
    game_id: int | None = Field(default=None, foreign_key="game.id", ondelete="SET NULL")
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class LiveEntry(SQLModel, table=True):
    """One accepted entry of a live table: a hand start or a move, as JSON (LIVE.md)."""

    __tablename__ = "live_entry"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="live_table.id", ondelete="CASCADE", max_length=32)
    seq: int  # 1-based position in the table's record; 0: the stored game's hash (store/live.py)
    kind: str  # "hand" or "move"; "game" at seq 0
    data: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
