"""Questions asked of the store: which games, one game in full, the record back, statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Select, case, func, select
from sqlmodel import Session

from zfrec.diagnostics import CODES, DiagnosticJson
from zfrec.games import DEFAULT_KIND, KINDS, find_kind
from zfrec.jsonview import PerPlayer, dump
from zfrec.record import Format, Game, dumps, loads
from zfrec.record.problems import did_you_mean, name_matches
from zfrec.store.db import StoreError
from zfrec.store.tables import (
    DIAG,
    GAME,
    HAND,
    HAND_SEAT,
    PLAYER,
    SEAT,
    asked_key,
    player_key,
    require_game,
)

if TYPE_CHECKING:
    from zfrec.games.zhengfen.analysis.stats import PlayerAnalysis

# results ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRow:
    """One line of `zfrec games`."""

    id: int
    date: str | None
    event: str | None
    players: list[str]
    winners: list[str]
    hands: int
    valid: bool
    errors: int
    content_hash: str
    kind: str = DEFAULT_KIND  # the game's kind (zfrec.games): its `unit` names the hands

    def to_json(self) -> dict[str, Any]:
        """The row as `zfrec games --json` writes it: its fields, the kind as `game` (the key
        that names the game in every JSON of both kinds: "zhengfen", "shengji")."""
        data: dict[str, Any] = dump(self)
        data["game"] = data.pop("kind")
        return data


@dataclass(frozen=True, slots=True)
class HandRow:
    """One stored hand: who shuffled, who went out first and last, the points per seat."""

    number: int
    shuffler: str | None
    first: str | None
    last: str | None
    points: list[int | None]  # per seat; None where the hand did not finish

    def to_json(self) -> dict[str, Any]:
        """The hand as `zfrec show --json` writes it under `hand_results`: its fields."""
        data: dict[str, Any] = dump(self)
        return data


@dataclass(frozen=True, slots=True)
class GameDetail:
    """Everything `zfrec show` prints about one stored game."""

    row: GameRow
    site: str | None
    source_path: str | None
    tags: list[tuple[str, str]]
    preset: str
    options: dict[str, Any]
    target: int
    scores: list[int | None]  # final, as computed, per seat
    recorded_scores: list[int] | None
    over: bool
    warnings: int
    imported_at: str
    hands: list[HandRow]
    diagnostics: list[dict[str, Any]]
    kind: str = DEFAULT_KIND  # the game's kind (zfrec.games)
    rounds: Any = None  # a kind's own rows instead of `hands` (GameKind.stored_rounds)

    def to_json(self) -> dict[str, Any]:
        """The game as `zfrec show --json` writes it: the row's fields, then the details; a
        kind with rows of its own has them (e.g. `round_results`) in place of `hand_results`,
        and `game` names it."""
        data: dict[str, Any] = dump(DetailJson.of(self), players=self.row.players)
        if self.rounds is not None:
            data = {"game": self.kind, **data}
            data.pop("hand_results")
            data[self.rounds.title] = self.rounds.to_json()
        return data


@dataclass(frozen=True, slots=True)
class RulesJson:
    """The rules of a stored game: the preset and every option."""

    preset: str
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DetailJson:
    """The JSON of a `GameDetail`: the `GameRow` fields, flat, then the details."""

    id: int
    date: str | None
    event: str | None
    players: list[str]
    winners: list[str]
    hands: int
    valid: bool
    errors: int
    content_hash: str
    site: str | None
    source_path: str | None
    tags: list[tuple[str, str]]
    rules: RulesJson
    target: int
    scores: PerPlayer[int | None]
    recorded_scores: list[int] | None
    over: bool
    warnings: int
    imported_at: str
    hand_results: list[HandRow]
    diagnostics: list[dict[str, Any]]

    @classmethod
    def of(cls, d: GameDetail) -> DetailJson:
        """The view of a stored game."""
        r = d.row
        return cls(
            r.id, r.date, r.event, r.players, r.winners, r.hands, r.valid, r.errors,
            r.content_hash, d.site, d.source_path, d.tags, RulesJson(d.preset, d.options),
            d.target, tuple(d.scores), d.recorded_scores, d.over, d.warnings, d.imported_at,
            d.hands, d.diagnostics,
        )  # fmt: skip


@dataclass(frozen=True)
class PlayerStats:
    """Per player, over the stored games. Rates are over finished hands (0.0 if none).

    New measures are added as fields with defaults, so positional construction stays valid.
    The fields after `last_rate` come from the decision analysis (`player_stats(...,
    analysis=True)`, zfrec.games.zhengfen.analysis.stats.player_aggregates); they are None when it
    was not asked for, and a rate is None where there is nothing to divide by. With the analysis,
    every field comes from it; without, the first ones are counted in SQL.
    """

    name: str
    games: int
    hands: int
    wins: int
    mean_points_per_hand: float
    first_out_rate: float
    last_rate: float
    win_rate: float | None = None  # wins / games that reached the target
    counters_captured: int | None = None  # in tricks, before the last -> first transfer
    counters_conceded: int | None = None  # played into tricks another player won
    missed_beats: int | None = None
    missed_beats_per_hand: float | None = None  # over hands whose deal was known
    categories_played: dict[str, int] | None = None  # plays per combination category
    analysis: dict[str, Any] | None = None  # PlayerAnalysis.to_json(): every measure

    def to_json(self) -> dict[str, Any]:
        """The player as `zfrec stats --json` writes it: its fields."""
        data: dict[str, Any] = dump(self)
        return data


# queries ---------------------------------------------------------------------------------------


def _no_player(conn: Connection, player: str) -> StoreError:
    """The error for a name no stored player has, with the stored players it may mean (as a
    record's misspelt seat name: zfrec.record.problems.name_matches)."""
    names = list(conn.scalars(select(PLAYER.c.name).order_by(PLAYER.c.id)))
    hint = did_you_mean([names[s] for s in name_matches(names, player)])
    return StoreError(f"no player named {player!r} in the store" + (f"; {hint}" if hint else ""))


def _key_of(conn: Connection, player: str) -> str:
    """The key of the stored player `player` names: as written, else without the invisible
    format characters and spaces around it that a name copied from a page carries."""
    key = player_key(player)
    if conn.scalar(select(PLAYER.c.id).where(PLAYER.c.key == key)) is not None:
        return key
    return asked_key(player)


def _games_of_player(conn: Connection, player: str) -> Any:
    """The ids of the games `player` sat in, as a subquery; StoreError if nobody has that name."""
    found = conn.scalar(select(PLAYER.c.id).where(PLAYER.c.key == _key_of(conn, player)))
    if found is None:
        raise _no_player(conn, player)
    return select(SEAT.c.game_id).where(SEAT.c.player_id == found)


def list_games(session: Session, *, player: str | None = None) -> list[GameRow]:
    """The stored games in import order, or those `player` sat in."""
    conn = session.connection()
    games = select(
        GAME.c.id,
        GAME.c.date,
        GAME.c.event,
        GAME.c.hands,
        GAME.c.valid,
        GAME.c.errors,
        GAME.c.content_hash,
        GAME.c.kind,
    ).order_by(GAME.c.id)
    seats = select(SEAT.c.game_id, SEAT.c.name, SEAT.c.winner).order_by(SEAT.c.game_id, SEAT.c.seat)
    if player is not None:
        ids = _games_of_player(conn, player)
        games = games.where(GAME.c.id.in_(ids))
        seats = seats.where(SEAT.c.game_id.in_(ids))
    names: dict[int, list[str]] = {}
    winners: dict[int, list[str]] = {}
    for game_id, name, winner in conn.execute(seats):
        names.setdefault(game_id, []).append(name)
        if winner:
            winners.setdefault(game_id, []).append(name)
    return [
        GameRow(
            id=r.id,
            date=r.date,
            event=r.event,
            players=names.get(r.id, []),
            winners=winners.get(r.id, []),
            hands=r.hands,
            valid=bool(r.valid),
            errors=r.errors,
            content_hash=r.content_hash,
            kind=r.kind,
        )
        for r in conn.execute(games)
    ]


def get_game(session: Session, *, game_id: int) -> GameDetail:
    """One stored game with its hands and diagnostics. StoreError if there is no such game."""
    conn = session.connection()
    g = require_game(conn, game_id)
    seats = conn.execute(
        select(SEAT.c.name, SEAT.c.score, SEAT.c.winner)
        .where(SEAT.c.game_id == game_id)
        .order_by(SEAT.c.seat)
    ).all()
    names = [s.name for s in seats]

    def name(seat: int | None) -> str | None:
        return names[seat] if seat is not None and 0 <= seat < len(names) else None

    points: dict[int, list[int | None]] = {}
    for hand_id, seat, value in conn.execute(
        select(HAND_SEAT.c.hand_id, HAND_SEAT.c.seat, HAND_SEAT.c.points)
        .where(HAND_SEAT.c.game_id == game_id)
        .order_by(HAND_SEAT.c.hand_id, HAND_SEAT.c.seat)
    ):
        points.setdefault(hand_id, [None] * len(names))[seat] = value
    hands = [
        HandRow(h.number, name(h.shuffler), name(h.first), name(h.last), points.get(h.id, []))
        for h in conn.execute(select(HAND).where(HAND.c.game_id == game_id).order_by(HAND.c.id))
    ]
    row = GameRow(
        id=g.id,
        date=g.date,
        event=g.event,
        players=names,
        winners=[s.name for s in seats if s.winner],
        hands=g.hands,
        valid=bool(g.valid),
        errors=g.errors,
        content_hash=g.content_hash,
        kind=g.kind,
    )
    return GameDetail(
        row=row,
        site=g.site,
        source_path=g.source_path,
        tags=[(str(k), str(v)) for k, v in g.tags],
        preset=g.preset,
        options=dict(g.options),
        target=g.target,
        scores=[s.score for s in seats],
        recorded_scores=g.result_scores,
        over=bool(g.over),
        warnings=g.warnings,
        imported_at=g.imported_at.isoformat(timespec="seconds"),
        hands=hands,
        diagnostics=game_diagnostics(session, game_id),
        kind=g.kind,
        rounds=find_kind(g.kind).stored_rounds(conn, game_id, names),
    )


def stored_kinds(session: Session) -> list[str]:
    """The kinds of the stored games (zfrec.games), in the registry's order."""
    found = set(session.connection().scalars(select(GAME.c.kind).distinct()))
    return [k for k in KINDS if k in found]


def load_record(session: Session, game_id: int) -> Game:
    """The stored game as a record, equal to the one imported (positions aside)."""
    text = _record_text(session.connection(), game_id)
    return loads(text, "json")[0]


def _record_text(conn: Connection, game_id: int) -> str:
    text = conn.scalar(select(GAME.c.record_json).where(GAME.c.id == game_id))
    if text is None:
        raise StoreError(f"no game {game_id} in the store")
    return str(text)


def export_game(session: Session, *, game_id: int, format: Format = "zfn") -> str:
    """The canonical text of a stored game: exactly what `zfrec fmt` makes of the original."""
    if format == "json":
        return _record_text(session.connection(), game_id)
    if format == "zfn":
        return dumps(load_record(session, game_id), "zfn")
    raise StoreError(f"unknown format {format!r}: use zfn or json")


def game_diagnostics(session: Session, game_id: int) -> list[dict[str, Any]]:
    """The validator's findings for a stored game, in Diagnostic.to_json form."""
    conn = session.connection()
    rows = conn.execute(select(DIAG).where(DIAG.c.game_id == game_id).order_by(DIAG.c.id))
    return [_diagnostic_json(r) for r in rows]


def unreadable_diagnostics(session: Session, *, source: str | None = None) -> list[dict[str, Any]]:
    """Why the games that could not be read were not stored: each unreadable game's findings
    (as validate says them: what was read past before the error that lost the game, then that
    error), in Diagnostic.to_json form plus `source` (the imported file's resolved path), in
    file and import order. `source` keeps those of one file."""
    conn = session.connection()
    query = select(DIAG).where(DIAG.c.game_id.is_(None))
    if source is not None:
        query = query.where(DIAG.c.source_path == source)
    rows = conn.execute(query.order_by(DIAG.c.source_path, DIAG.c.id))
    return [{"source": r.source_path, **_diagnostic_json(r)} for r in rows]


def _diagnostic_json(r: Any) -> dict[str, Any]:
    """A stored diagnostic row as `Diagnostic.to_json` writes it (`DiagnosticJson`)."""
    view = DiagnosticJson(
        r.code, r.severity, _rule(r.code), r.message, r.file, r.line, r.col, r.game_number,
        r.hand, r.trick, r.turn, r.seat, occurrence=r.occurrence,
    )  # fmt: skip
    return view.to_json()


def _rule(code: str) -> str | None:
    info = CODES.get(code)
    return info.rule if info else None


def players_named(conn: Connection, player: str | None) -> Select[tuple[int, str, str]]:
    """The query of the stored players (id, name, key): every one, or the one named `player`
    (StoreError when there is none)."""
    people = select(PLAYER.c.id, PLAYER.c.name, PLAYER.c.key)
    if player is None:
        return people
    key = _key_of(conn, player)
    if conn.scalar(select(PLAYER.c.id).where(PLAYER.c.key == key)) is None:
        raise _no_player(conn, player)
    return people.where(PLAYER.c.key == key)


def player_stats(
    session: Session,
    *,
    player: str | None = None,
    valid_only: bool = False,
    analysis: bool = False,
    kind: str | None = DEFAULT_KIND,
) -> list[PlayerStats]:
    """Games, hands, wins, mean points per finished hand, first-out and last rates per player,
    over the games of `kind` (Zheng Fen's measures; another kind's are its `store_stats`), or
    with `kind=None` over every game (the site's players, whatever they played: games and wins
    count every kind's games, hands only Zheng Fen's).

    Over every stored game, or only the valid ones. Sorted by name, ignoring case. These are
    counted in SQL over the stored outcomes. With `analysis`, every record is loaded and
    analysed instead (zfrec.games.zhengfen.analysis.stats, fast mode), which gives the same counts
    and adds the win rate, counters captured and conceded, missed beats and the categories played.
    """
    conn = session.connection()
    people = players_named(conn, player)
    rows = sorted(conn.execute(people), key=lambda r: (r.key, r.id))
    if analysis:
        found = _player_analyses(
            session, player=player, valid_only=valid_only, kind=kind or DEFAULT_KIND
        )
        return [_from_analysis(r.name, found[r.key]) for r in rows if r.key in found]
    return _counted(conn, [(r.id, r.name) for r in rows], valid_only, kind)


def _counted(
    conn: Connection, people: list[tuple[int, str]], valid_only: bool, kind: str | None
) -> list[PlayerStats]:
    """The SQL measures of `player_stats` for the players (id, name) given."""
    per_game = (
        select(
            SEAT.c.player_id,
            func.count().label("games"),
            func.sum(case((SEAT.c.winner, 1), else_=0)).label("wins"),
        )
        .join(GAME, GAME.c.id == SEAT.c.game_id)
        .group_by(SEAT.c.player_id)
    )
    if kind is not None:
        per_game = per_game.where(GAME.c.kind == kind)
    per_hand = (
        select(
            HAND_SEAT.c.player_id,
            func.count().label("hands"),
            func.count(HAND_SEAT.c.points).label("finished"),
            func.coalesce(func.sum(HAND_SEAT.c.points), 0).label("points"),
            func.sum(case((HAND_SEAT.c.is_first, 1), else_=0)).label("firsts"),
            func.sum(case((HAND_SEAT.c.is_last, 1), else_=0)).label("lasts"),
        )
        .join(GAME, GAME.c.id == HAND_SEAT.c.game_id)
        .group_by(HAND_SEAT.c.player_id)
    )
    if valid_only:
        per_game = per_game.where(GAME.c.valid)
        per_hand = per_hand.where(GAME.c.valid)
    games = {r.player_id: r for r in conn.execute(per_game)}
    hands = {r.player_id: r for r in conn.execute(per_hand)}
    out: list[PlayerStats] = []
    for pid, name in people:
        g, h = games.get(pid), hands.get(pid)
        if g is None:
            continue
        finished = int(h.finished) if h else 0
        out.append(
            PlayerStats(
                name=name,
                games=int(g.games),
                hands=int(h.hands) if h else 0,
                wins=int(g.wins or 0),
                mean_points_per_hand=_ratio(h.points if h else 0, finished),
                first_out_rate=_ratio(h.firsts if h else 0, finished),
                last_rate=_ratio(h.lasts if h else 0, finished),
            )
        )
    return out


def _player_analyses(
    session: Session, *, player: str | None, valid_only: bool, kind: str
) -> dict[str, PlayerAnalysis]:
    """zfrec.games.zhengfen.analysis.stats.player_aggregates over the stored records of `kind`,
    keyed by player_key."""
    from zfrec.games.zhengfen.analysis.stats import player_aggregates

    ids = set(session.connection().scalars(select(GAME.c.id).where(GAME.c.kind == kind)))
    rows = [
        r for r in list_games(session, player=player) if r.id in ids and (r.valid or not valid_only)
    ]
    out: dict[str, PlayerAnalysis] = {}
    for name, p in player_aggregates(load_record(session, r.id) for r in rows).items():
        key = player_key(name)
        if key in out:  # spellings the store counts as one person (Unicode normal forms)
            out[key].add(p)
        else:
            out[key] = p
    return out


def _from_analysis(name: str, a: PlayerAnalysis) -> PlayerStats:
    return PlayerStats(
        name=name,
        games=a.games,
        hands=a.hands_played,
        wins=a.wins,
        mean_points_per_hand=a.mean_points or 0.0,
        first_out_rate=a.first_rate or 0.0,
        last_rate=a.last_rate or 0.0,
        win_rate=a.win_rate,
        counters_captured=a.counters_captured,
        counters_conceded=a.counters_conceded,
        missed_beats=a.missed_beats,
        missed_beats_per_hand=a.missed_beats_per_hand,
        categories_played=a.categories_played,
        analysis=a.to_json(),
    )


def _ratio(part: Any, whole: int) -> float:
    return float(part or 0) / whole if whole else 0.0


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One player's part in one stored game: what `player_stats` adds up per player, kept per
    game so that a page can add up any subset (the index's standings of the games shown).
    `name` is the player's name as `player_stats` gives it (the store's spelling)."""

    name: str
    won: bool
    hands: int
    finished: int  # hands that finished, which the rates are over
    points: int  # over the finished hands
    firsts: int
    lasts: int


def seat_outcomes(session: Session) -> dict[int, list[SeatOutcome]]:
    """Per stored game, per seat in seat order: the counts `player_stats` sums over games."""
    conn = session.connection()
    names = {r.id: r.name for r in conn.execute(select(PLAYER.c.id, PLAYER.c.name))}
    hands = {
        (r.game_id, r.player_id): r
        for r in conn.execute(
            select(
                HAND_SEAT.c.game_id,
                HAND_SEAT.c.player_id,
                func.count().label("hands"),
                func.count(HAND_SEAT.c.points).label("finished"),
                func.coalesce(func.sum(HAND_SEAT.c.points), 0).label("points"),
                func.sum(case((HAND_SEAT.c.is_first, 1), else_=0)).label("firsts"),
                func.sum(case((HAND_SEAT.c.is_last, 1), else_=0)).label("lasts"),
            ).group_by(HAND_SEAT.c.game_id, HAND_SEAT.c.player_id)
        )
    }
    out: dict[int, list[SeatOutcome]] = {}
    seats = select(SEAT.c.game_id, SEAT.c.player_id, SEAT.c.winner).order_by(
        SEAT.c.game_id, SEAT.c.seat
    )
    for game_id, player_id, winner in conn.execute(seats):
        h = hands.get((game_id, player_id))
        counts = (
            (h.hands, h.finished, h.points or 0, h.firsts or 0, h.lasts or 0)
            if h is not None
            else (0, 0, 0, 0, 0)
        )
        hands_, finished, points, firsts, lasts = (int(c) for c in counts)
        out.setdefault(game_id, []).append(
            SeatOutcome(names[player_id], bool(winner), hands_, finished, points, firsts, lasts)
        )
    return out
