"""Whether two records are versions of one game: the same deals and plays under another header
(an Event or Date corrected), or nothing in common at all (a game id mistyped).

Records are compared by their canonical JSON (zfrec.store.firstpass.canonical_json), whatever
their kind: the header (the tags, the players, the rules, the result, the comments) is left
out, and what remains is the body, the record's hands or rounds, each with its `deal`. Two
records with the same body, comments left out, have the same deals and plays.

    content_key(text)   # a hash of the body: equal for a record whose header alone changed
    deals(text)         # each hand's or round's deal, as text, for "a deal in common"
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from sqlalchemy import Connection, select

from zfrec.games import find_kind
from zfrec.store.tables import GAME, PLAYER, SEAT

# The keys of a canonical record that are not its body (its hands or rounds)
HEADER = frozenset(
    {"game", "event", "site", "date", "players", "rules", "target", "result", "extra_tags",
     "comments"}
)  # fmt: skip
SCAN_LIMIT = 5000  # stored games of one kind, seat count and length looked at per import


def _body(text: str) -> dict[str, Any]:
    data = json.loads(text)
    return (
        {k: _bare(v) for k, v in data.items() if k not in HEADER} if isinstance(data, dict) else {}
    )


def _bare(value: Any) -> Any:
    """`value` without its comments (a comment is not a deal or a play)."""
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "comments"}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def content_key(text: str) -> str:
    """The sha256 of a record's deals and plays (its canonical JSON's body, comments left
    out): the same for two records that differ only in their header or comments."""
    body = json.dumps(_body(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def deals(text: str) -> set[str]:
    """The deals a record holds (each hand's or round's `deal`, as text; none recorded: empty)."""
    found: set[str] = set()
    for units in _body(text).values():
        if not isinstance(units, list):
            continue
        for unit in units:
            if isinstance(unit, dict) and unit.get("deal"):
                found.add(json.dumps(unit["deal"], sort_keys=True, ensure_ascii=False))
    return found


class Stored(NamedTuple):
    """A stored game as a message names it."""

    game_id: int
    kind: str
    event: str | None
    date: str | None
    players: tuple[str, ...]

    def text(self) -> str:
        """`2026.04.10, 春季联赛 Spring league: 张伟, 李娜, 王芳, 刘洋` (what it has of these)."""
        head = ", ".join(x for x in (self.date, self.event) if x)
        names = ", ".join(self.players)
        return f"{head}: {names}" if head else names

    def kind_title(self) -> str:
        return find_kind(self.kind).title


def stored_game(conn: Connection, game_id: int) -> Stored | None:
    row = conn.execute(
        select(GAME.c.kind, GAME.c.event, GAME.c.date).where(GAME.c.id == game_id)
    ).first()
    if row is None:
        return None
    names = conn.execute(
        select(PLAYER.c.name)
        .join(SEAT, SEAT.c.player_id == PLAYER.c.id)
        .where(SEAT.c.game_id == game_id)
        .order_by(SEAT.c.seat)
    ).scalars()
    return Stored(game_id, str(row.kind), row.event, row.date, tuple(str(n) for n in names))


class SameContent:
    """Finds, for records an import stores as new games, a stored game with the same deals
    and plays: among the stored games of the record's kind, number of seats and of hands or
    rounds (the most recent `SCAN_LIMIT` of them), each bucket read once per file."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.buckets: dict[tuple[str, int, int], dict[str, int]] = {}

    def find(self, game: dict[str, Any]) -> Stored | None:
        """The stored game with the deals and plays of `game` (its row, as zfrec.store.rows
        makes it), or None."""
        bucket = (str(game["kind"]), int(game["players"]), int(game["hands"]))
        keys = self.buckets.get(bucket)
        if keys is None:
            keys = {}
            rows = self.conn.execute(
                select(GAME.c.id, GAME.c.record_json)
                .where(
                    GAME.c.kind == bucket[0],
                    GAME.c.players == bucket[1],
                    GAME.c.hands == bucket[2],
                )
                .order_by(GAME.c.id.desc())
                .limit(SCAN_LIMIT)
            )
            for game_id, text in rows:
                keys[content_key(str(text))] = int(game_id)  # the oldest, read last
            self.buckets[bucket] = keys
        found = keys.get(content_key(str(game["record_json"])))
        return None if found is None else stored_game(self.conn, found)


__all__ = ["SameContent", "Stored", "content_key", "deals", "stored_game"]
