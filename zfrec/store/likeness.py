"""Whether two records are versions of one game: the same deals and plays under another header
(an Event or Date corrected), or nothing in common at all (a game id mistyped).

Records are compared by their deals and plays (zfrec.store.content):

    content_key(text)   # a hash of the body: equal for a record whose header alone changed;
                        # kept in game.content_key (indexed), so no stored record is read
    deals(text)         # each hand's or round's deal, as text, for "a deal in common"
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from sqlalchemy import Connection, bindparam, func, select

from zfrec.games import find_kind
from zfrec.store.content import body, content_key
from zfrec.store.tables import GAME, PLAYER, SEAT


def deals(text: str) -> set[str]:
    """The deals a record holds (each hand's or round's `deal`, as text; none recorded: empty)."""
    found: set[str] = set()
    for units in body(text).values():
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
    and plays (the same game.content_key) among the games of the record's kind, number of
    seats and of hands or rounds stored before the file: the oldest of them. By the index of
    game.content_key: no stored record is read. The file's own new games are kept too
    (`add`), so that a game written twice in one file (pasted twice) is found by `earlier`."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.before = int(conn.execute(select(func.max(GAME.c.id))).scalar() or 0)
        # this file's new games by content key and shape: (number in the file, game id)
        self.here: dict[tuple[Any, ...], tuple[int, int]] = {}
        # by the key alone, so that the database looks it up in its index (the kind's would
        # have it read every game of the kind); the few games found are sorted out here
        shape = (GAME.c.kind, GAME.c.players, GAME.c.hands)
        self.query = select(GAME.c.id, *shape).where(GAME.c.content_key == bindparam("key"))

    def find(self, game: dict[str, Any]) -> Stored | None:
        """The stored game with the deals and plays of `game` (its row, as zfrec.store.rows
        makes it), or None."""
        if not self.before:  # an empty store
            return None
        shape = (game["kind"], game["players"], game["hands"])
        found = [
            int(game_id)
            for game_id, *its in self.conn.execute(self.query, {"key": game["content_key"]})
            if tuple(its) == shape and game_id <= self.before
        ]
        return stored_game(self.conn, min(found)) if found else None

    def add(self, game: dict[str, Any], number: int, game_id: int) -> None:
        """Keep the file's game at `number`, stored as `game_id`, for `earlier`."""
        self.here.setdefault(_shape(game), (number, game_id))

    def earlier(self, game: dict[str, Any]) -> tuple[int, int] | None:
        """The first game of this file (its number and id) kept by `add` with the deals and
        plays of `game`, or None."""
        return self.here.get(_shape(game))


def _shape(game: dict[str, Any]) -> tuple[Any, ...]:
    return (game["content_key"], game["kind"], game["players"], game["hands"])


__all__ = ["SameContent", "Stored", "content_key", "deals", "stored_game"]
