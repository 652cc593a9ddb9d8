"""What the store answers about stored Sheng ji matches, from the kind's own rows (`sj_round`,
`sj_round_seat`; zfrec.games.shengji.rows): each match's rounds for `zfrec show`, and the
statistics per player for `zfrec stats` (STORE.md, Statistics).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, case, func, select
from sqlmodel import Session

from zfrec.games.shengji.records import GAME_KIND
from zfrec.games.shengji.rules import LEVEL_TEXT, level_text
from zfrec.jsonview import dump
from zfrec.numbering import occurrences, repeat_suffix
from zfrec.store.tables import GAME, SEAT, SJ_ROUND, SJ_ROUND_SEAT

__all__ = ["SjPlayerStats", "SjRoundRow", "SjStats", "StoredRounds", "sj_stats", "stored_rounds"]


def _level(value: int | None) -> str | None:
    return None if value is None else level_text(value) if value in LEVEL_TEXT else str(value)


@dataclass(frozen=True, slots=True)
class SjRoundRow:
    """One stored round, as the rules computed it (None where the round did not finish)."""

    number: int
    dealer: str | None
    rank: str | None
    trump: str | None
    declarers: list[str]
    points: int | None  # the opponents' total
    kitty: str | None
    kitty_points: int | None
    multiplier: int | None
    change: str | None  # "declarers +1", "opponents +2", "opponents +0" (the teams swap)
    next_dealer: str | None
    levels: list[str | None]  # each seat's level after the round

    def to_json(self) -> dict[str, Any]:
        """The round as `zfrec show --json` writes it under `round_results`: its fields."""
        data: dict[str, Any] = dump(self)
        return data


@dataclass(frozen=True, slots=True)
class StoredRounds:
    """A stored match's rounds (GameKind.stored_rounds)."""

    players: list[str]
    rounds: list[SjRoundRow]
    title: str = "round_results"

    @property
    def columns(self) -> list[str]:
        return ["round", "dealer", "trump", "points", "kitty", "change", "next", *self.players]

    def rows(self) -> list[list[str]]:
        """The cells of `zfrec show`'s table of rounds: each seat's level after the round,
        marked `*` where it was a declarer."""
        out = []
        occurs = occurrences([r.number for r in self.rounds])  # `1 (2nd)` where it repeats
        for r, occurrence in zip(self.rounds, occurs, strict=True):
            kitty = "-" if r.kitty_points is None else f"{r.kitty_points}x{r.multiplier}"
            change = (r.change or "-").replace("declarers", "decl").replace("opponents", "opp")
            marks = [
                (v or "-") + ("*" if name in r.declarers else "")
                for name, v in zip(self.players, r.levels, strict=True)
            ]
            said = f"{r.number}{repeat_suffix(occurrence)}"
            out.append([
                said, r.dealer or "-", f"{r.rank or '?'}{r.trump or '?'}",
                "-" if r.points is None else str(r.points), kitty, change, r.next_dealer or "-",
                *marks,
            ])  # fmt: skip
        return out

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.rounds]


def stored_rounds(conn: Connection, game_id: int, players: Sequence[str]) -> StoredRounds:
    """The rounds of stored match `game_id`, in order."""
    n = len(players)

    def name(seat: int | None) -> str | None:
        return players[seat] if seat is not None and 0 <= seat < n else None

    levels: dict[int, list[str | None]] = {}
    for round_id, seat, level in conn.execute(
        select(SJ_ROUND_SEAT.c.round_id, SJ_ROUND_SEAT.c.seat, SJ_ROUND_SEAT.c.level)
        .where(SJ_ROUND_SEAT.c.game_id == game_id)
        .order_by(SJ_ROUND_SEAT.c.round_id, SJ_ROUND_SEAT.c.seat)
    ):
        levels.setdefault(round_id, [None] * n)[seat] = _level(level)
    rounds = []
    query = select(SJ_ROUND).where(SJ_ROUND.c.game_id == game_id).order_by(SJ_ROUND.c.id)
    for r in conn.execute(query):
        change = None
        if r.finished:
            up = r.declarers_up if r.declarers_up else r.opponents_up
            change = f"{'opponents' if r.swap or r.opponents_up else 'declarers'} +{up}"
        rounds.append(SjRoundRow(
            r.number, name(r.dealer), _level(r.rank), r.trump,
            [players[s] for s in range(n) if (r.declarers or 0) >> s & 1], r.points, r.kitty,
            r.kitty_points, r.multiplier, change, name(r.next_dealer),
            levels.get(r.id, [None] * n),
        ))  # fmt: skip
    return StoredRounds(list(players), rounds)


# statistics ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SjPlayerStats:
    """One player over the stored Sheng ji matches. Rounds count the finished ones."""

    name: str
    games: int  # matches sat in
    wins: int  # matches won (as computed)
    rounds: int  # rounds sat in, unfinished ones included
    declarer_rounds: int  # finished rounds on the declarers' team
    held: int  # of those, rounds the declarers kept the deal (the teams did not swap)
    opponent_rounds: int  # finished rounds on the opponents' team
    points: int  # the opponents' points of the rounds the player was an opponent in
    mean_points: float | None  # points per round as an opponent
    levels_up: int  # levels the player went up

    def to_json(self) -> dict[str, Any]:
        """The player as `zfrec stats --game shengji --json` writes it: its fields."""
        data: dict[str, Any] = dump(self)
        return data


@dataclass(frozen=True, slots=True)
class SjStats:
    """`zfrec stats` of the Sheng ji matches (GameKind.store_stats)."""

    players: list[SjPlayerStats]
    title: str = "Sheng ji"
    columns: tuple[str, ...] = (
        "player", "games", "wins", "rounds", "decl", "held", "held%", "opp", "points", "per opp",
        "up",
    )  # fmt: skip
    note: str = (
        "rounds finished as declarers (decl), held (the declarers kept the deal) and as\n"
        "opponents (opp); points: the opponents' points of the rounds the player was an\n"
        "opponent in, and per such round; up: levels gained."
    )

    def rows(self) -> list[list[str]]:
        """The cells of `zfrec stats`' table."""
        return [
            [p.name, str(p.games), str(p.wins), str(p.rounds), str(p.declarer_rounds),
             str(p.held), "-" if not p.declarer_rounds else f"{p.held / p.declarer_rounds:.1%}",
             str(p.opponent_rounds), str(p.points),
             "-" if p.mean_points is None else f"{p.mean_points:.1f}", str(p.levels_up)]
            for p in self.players
        ]  # fmt: skip

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.players]


def sj_stats(session: Session, *, player: str | None = None, valid_only: bool = False) -> SjStats:
    """Per player, over the stored Sheng ji matches (or only the valid ones), sorted by name
    ignoring case; StoreError when there is no player `player`."""
    from zfrec.store.queries import players_named

    conn = session.connection()
    people = players_named(conn, player)
    mine = GAME.c.kind == GAME_KIND
    if valid_only:
        mine = mine & GAME.c.valid
    per_game = (
        select(SEAT.c.player_id, func.count().label("games"),
               func.sum(case((SEAT.c.winner, 1), else_=0)).label("wins"))
        .join(GAME, GAME.c.id == SEAT.c.game_id).where(mine).group_by(SEAT.c.player_id)
    )  # fmt: skip
    rs, rnd = SJ_ROUND_SEAT, SJ_ROUND
    per_round = (
        select(
            rs.c.player_id,
            func.count().label("rounds"),
            func.sum(case((rs.c.declarer.is_(True), 1), else_=0)).label("declarer"),
            func.sum(case(((rs.c.declarer.is_(True)) & (rnd.c.swap.is_(False)), 1), else_=0))
            .label("held"),
            func.sum(case((rs.c.declarer.is_(False), 1), else_=0)).label("opponent"),
            func.coalesce(func.sum(rs.c.points), 0).label("points"),
            func.coalesce(func.sum(rs.c.level - rs.c.level_before), 0).label("up"),
        )
        .join(rnd, rnd.c.id == rs.c.round_id)
        .join(GAME, GAME.c.id == rs.c.game_id)
        .where(mine)
        .group_by(rs.c.player_id)
    )  # fmt: skip
    games = {r.player_id: r for r in conn.execute(per_game)}
    rounds = {r.player_id: r for r in conn.execute(per_round)}
    out = []
    for r in sorted(conn.execute(people), key=lambda r: (r.key, r.id)):
        g, h = games.get(r.id), rounds.get(r.id)
        if g is None:
            continue
        opp = int(h.opponent or 0) if h else 0
        points = int(h.points or 0) if h else 0
        out.append(SjPlayerStats(
            r.name, int(g.games), int(g.wins or 0), int(h.rounds) if h else 0,
            int(h.declarer or 0) if h else 0, int(h.held or 0) if h else 0, opp, points,
            points / opp if opp else None, int(h.up or 0) if h else 0,
        ))  # fmt: skip
    return SjStats(out)
