"""Importing record files: validate, then store, one transaction per file.

Atomic per file: the file's rows are written in one transaction, committed at the end, so a
failure anywhere leaves nothing of that file. Idempotent by content hash: a game whose
canonical JSON is already stored is not added again.

Two passes, so that memory stays flat and other importers are not held up. The first reads the
file one game at a time, outside any write lock: canonical JSON, hash, and for games not
stored yet the validation, whose rows go to a temporary spool file (plain tuples, pickled).
The second takes the write lock and streams the spool into the database with executemany,
no ORM object per row. Only small per-game facts (position, hash) stay in memory.
"""

from __future__ import annotations

import hashlib
import pickle
import random
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, Table, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session

from zfrec.diagnostics import Diagnostic, WrittenDiagnostic
from zfrec.engine.cards import card_str, format_cards
from zfrec.errors import NotationError, ZfrecError
from zfrec.jsonview import dump
from zfrec.record import Game, dumps, iter_records
from zfrec.record.model import Move
from zfrec.store.db import READONLY, StoreError
from zfrec.store.models import utc_now
from zfrec.store.tables import (
    ARTIFACT,
    DIAG,
    GAME,
    HAND,
    HAND_SEAT,
    LIVE_TABLE,
    PLAY,
    PLAYER,
    SEAT,
    SOURCE,
    chunks,
    player_key,
    require_game,
)
from zfrec.validate import HandLedger, Report, notation_diagnostic, validate

_ATTEMPTS = 5  # a file transaction that collides with a concurrent importer is retried
_BATCH = 1_000  # rows per executemany of hand_seat and play rows


# identities ------------------------------------------------------------------------------------


def canonical_json(game: Game) -> str:
    return dumps(game, "json")


def content_hash(game: Game) -> str:
    """The sha256 (hex) of the game's canonical JSON: the store's identity of a record."""
    return _sha256(canonical_json(game))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What importing one file did."""

    path: str
    games: int = 0  # games read from the file, unreadable ones included
    added: int = 0  # new games stored
    unchanged: int = 0  # already stored, by content hash
    removed: int = 0  # earlier versions from this file that are gone now
    flagged: int = 0  # stored although the validator found errors
    skipped: int = 0  # not stored: errors, and --only-valid
    unreadable: int = 0  # games that could not be read at all
    hands: int = 0  # hands in the games added
    game_ids: tuple[int, ...] = ()  # the file's stored games, in file order
    diagnostics: tuple[WrittenDiagnostic, ...] = ()  # findings in the games read this time

    def to_json(self) -> dict[str, Any]:
        """What `zfrec import --json` writes for the file: its fields."""
        data: dict[str, Any] = dump(self)
        return data


# the first pass: read, hash, validate, spool --------------------------------------------------


@dataclass(slots=True)
class _Rows:
    """Everything one new game writes, ids left out (the second pass knows them)."""

    game: dict[str, Any]
    seats: list[tuple[Any, ...]]  # (seat, player key, name, score, winner)
    hands: list[dict[str, Any]]
    hand_seats: list[list[tuple[Any, ...]]]  # per hand: the columns after game_id, hand_id
    plays: list[list[tuple[Any, ...]]]  # per hand: the columns after game_id, hand_id
    diagnostics: list[Diagnostic]


@dataclass(slots=True)
class _Entry:
    """What the second pass needs of a readable game, kept for every game of the file."""

    number: int  # 1-based position in the file
    digest: str
    spooled: bool  # its rows are in the spool: it was new, and not skipped
    ok: bool = True
    skipped: list[Diagnostic] | None = None  # --only-valid: the errors that kept it out


@dataclass(slots=True)
class _FileRead:
    path: str  # as given, for messages and diagnostics
    source: str  # resolved, the file's identity in the store
    spool: IO[bytes]
    entries: list[_Entry] = field(default_factory=list)
    unreadable: list[Diagnostic] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # player key -> first spelling
    count: int = 0


def import_file(
    session: Session,
    *,
    path: str | Path,
    only_valid: bool = False,
    on_game: Callable[[int], None] | None = None,
    on_read: Callable[[int], None] | None = None,
) -> ImportResult:
    """Validate the games of one .zfn or .json file, then store them in one transaction.

    Commits on success; on any failure nothing of this file is left behind. Games already
    stored (same content hash) are not added again; games this file held before but no longer
    holds are removed, unless another file still holds them. A game with errors is stored with
    its diagnostics and flagged invalid, unless `only_valid`. `on_read(number)` is called as
    each game has been read and judged (for progress), `on_game(number)` as each game is
    written, inside the transaction. Starts with no transaction open in `session`.
    """
    if session.new or session.dirty or session.deleted:
        raise StoreError("import_file needs a session without unsaved changes")
    session.rollback()  # end any read-only transaction: the import makes its own
    with tempfile.TemporaryFile(prefix="zfrec-import-") as spool:
        try:
            read = _read_file(session, path, spool, only_valid, on_read)
        finally:
            session.rollback()  # the first pass only read: no lock is kept into the second
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                spool.seek(0)
                result = _write_file(session, read, only_valid, on_game)
                session.commit()
                return result
            except (IntegrityError, OperationalError) as exc:
                # A concurrent importer stored the same game or player first, or the server
                # broke a deadlock between us: start again, a little later, from what is there.
                session.rollback()
                if attempt == _ATTEMPTS:
                    reason = str(exc.orig or exc).strip().splitlines()[0]
                    raise StoreError(f"{read.path}: could not store the file: {reason}") from None
                time.sleep(random.uniform(0.02, 0.1) * attempt)
            except BaseException:
                session.rollback()
                raise
    raise AssertionError("unreachable")


def _read_file(
    session: Session,
    path: str | Path,
    spool: IO[bytes],
    only_valid: bool,
    on_read: Callable[[int], None] | None,
) -> _FileRead:
    read = _FileRead(str(path), str(Path(path).resolve()), spool)
    conn = session.connection(execution_options={READONLY: True})
    seen: set[str] = set()  # digests spooled from this file, so a repeat is judged once
    for number, text, game in _readable(read, path):
        digest = _sha256(text)
        known = digest in seen or _is_stored(conn, digest)
        entry = _Entry(number, digest, spooled=False)
        if not known:
            report = validate(game, game_number=number)
            entry.ok = report.ok
            if only_valid and not report.ok:
                entry.skipped = list(report.diagnostics)
            else:
                pickle.dump((digest, _rows(read.source, number, text, game, report)), spool, 5)
                entry.spooled = True
                seen.add(digest)
                for name in game.players:
                    read.names.setdefault(player_key(name), name)
        read.entries.append(entry)
        if on_read is not None:
            on_read(number)
    return read


def _readable(read: _FileRead, path: str | Path) -> Iterator[tuple[int, str, Game]]:
    """(position, canonical JSON, game) of each readable game; the others go to `unreadable`."""
    for number, item in enumerate(iter_records(path), 1):
        read.count = number
        if isinstance(item, NotationError):
            read.unreadable.append(notation_diagnostic(item, read.path, number))
            continue
        try:
            text = canonical_json(item)
        except ZfrecError as exc:  # the text reader accepted what JSON cannot hold
            error = NotationError(exc.message, exc.location)
            read.unreadable.append(notation_diagnostic(error, read.path, number))
            continue
        yield number, text, item


def _is_stored(conn: Connection, digest: str) -> bool:
    found = conn.execute(select(GAME.c.id).where(GAME.c.content_hash == digest)).first()
    return found is not None


def _rows(source: str | None, number: int, text: str, game: Game, report: Report) -> _Rows:
    result = game.result
    row = {
        "record_json": text,
        "source_path": source,
        "source_index": number if source is not None else None,
        "event": game.event,
        "site": game.site,
        "date": game.date,
        "tags": [list(t) for t in game.extra_tags],
        "preset": game.preset,
        "options": dict(game.options),
        "target": game.target,
        "players": len(game.players),
        "result_scores": None if result is None else list(result.scores),
        "result_winners": None if result is None else list(result.winners),
        "hands": len(game.hands),
        "moves": report.moves,
        "over": report.over,
        "valid": report.ok,
        "errors": report.errors,
        "warnings": report.warnings,
    }
    seats = [
        (
            s,
            player_key(name),
            name,
            report.scores[s] if s < len(report.scores) else None,
            s in report.winners,
        )
        for s, name in enumerate(game.players)
    ]
    rows = _Rows(row, seats, [], [], [], list(report.diagnostics))
    ledgers: list[HandLedger | None] = list(report.hands)
    if len(ledgers) != len(game.hands):  # the replay stopped before the hands (bad seat count)
        ledgers = [None] * len(game.hands)
    n = len(game.players)
    for hand, ledger in zip(game.hands, ledgers, strict=True):
        res = ledger.result if ledger else None
        rows.hands.append(
            {
                "number": hand.number,
                "shuffler": hand.shuffler,
                "first": res.first if res else None,
                "last": res.last if res else None,
                "finished": res is not None,
                "reconstructed": ledger.reconstructed if ledger else False,
                "transfer_points": res.transfer_points if res else None,
            }
        )
        order = list(res.out_order) if res else []
        if res and res.last not in order:
            order.append(res.last)
        rows.hand_seats.append(
            [
                (
                    s,
                    res.points[s] if res and s < len(res.points) else None,
                    order.index(s) + 1 if s in order else None,
                    bool(res and res.first == s),
                    bool(res and res.last == s),
                )
                for s in range(n)
            ]
        )
        rows.plays.append(
            [
                _play_row(move, hand.number, t, turn)
                for t, trick in enumerate(hand.tricks, 1)
                for turn, move in enumerate(trick.moves, 1)
            ]
        )
    return rows


_HAND_SEAT_COLUMNS = ("seat", "player_id", "points", "place", "is_first", "is_last")
_PLAY_COLUMNS = (
    "hand_number", "trick", "turn", "seat", "is_pass", "cards", "mask", "declarations",
    "annotation", "comment", "disputed", "dispute_note",
)  # fmt: skip


def _play_row(move: Move, hand_number: int, trick: int, turn: int) -> tuple[Any, ...]:
    if move.annotation is None and not move.comments and not move.disputed:
        if move.is_pass:
            return (
                hand_number,
                trick,
                turn,
                move.seat,
                True,
                None,
                0,
                None,
                None,
                None,
                False,
                None,
            )
        if not move.declarations:
            cards = _cards_text(move.cards)
            return (
                hand_number,
                trick,
                turn,
                move.seat,
                False,
                cards,
                move.cards,
                None,
                None,
                None,
                False,
                None,
            )
    decls = " ".join(f"{card_str(j)}={stand}" for j, stand in move.declarations)
    return (
        hand_number,
        trick,
        turn,
        move.seat,
        move.is_pass,
        None if move.is_pass else _cards_text(move.cards),
        move.cards,
        decls or None,
        move.annotation,
        "\n\n".join(move.comments) or None,
        move.disputed,
        move.dispute_note,
    )


@lru_cache(maxsize=1 << 16)
def _cards_text(mask: int) -> str:
    return format_cards(mask)


# the second pass: write ------------------------------------------------------------------------


class _Batches:
    """hand_seat and play rows gathered over games, written with one executemany per batch."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.sql = {
            t.name: _insert_sql(conn, t, ("game_id", "hand_id", *cols))
            for t, cols in ((HAND_SEAT, _HAND_SEAT_COLUMNS), (PLAY, _PLAY_COLUMNS))
        }
        self.rows: dict[str, list[tuple[Any, ...]]] = {HAND_SEAT.name: [], PLAY.name: []}

    def add(self, table: Table, game_id: int, hand_id: int, rows: list[tuple[Any, ...]]) -> None:
        pending = self.rows[table.name]
        pending.extend((game_id, hand_id, *r) for r in rows)
        if len(pending) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        for name, pending in self.rows.items():
            if pending:
                self.conn.exec_driver_sql(self.sql[name], pending)
                pending.clear()


def _insert_sql(conn: Connection, table: Table, columns: Sequence[str]) -> str:
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    quote = conn.dialect.identifier_preparer.quote
    names = ", ".join(quote(c) for c in columns)
    return f"INSERT INTO {quote(table.name)} ({names}) VALUES ({', '.join([mark] * len(columns))})"


def _write_file(
    session: Session, read: _FileRead, only_valid: bool, on_game: Callable[[int], None] | None
) -> ImportResult:
    conn = session.connection()  # SQLite: BEGIN IMMEDIATE, so what we read stays true
    existing: dict[str, int] = {}
    for chunk in chunks([e.digest for e in read.entries]):
        found_ids = conn.execute(
            select(GAME.c.content_hash, GAME.c.id).where(GAME.c.content_hash.in_(chunk))
        )
        existing.update((h, i) for h, i in found_ids)
    spooled = {e.digest for e in read.entries if e.spooled}
    missing = [
        e
        for e in read.entries
        if not e.spooled
        and e.skipped is None
        and e.digest not in existing
        and e.digest not in spooled
    ]
    rebuilt = _reread(read, {e.number for e in missing}, only_valid) if missing else {}
    players = _player_ids(conn, list(read.names.values()) + _names(rebuilt.values()))
    batches = _Batches(conn)
    refs: list[tuple[int, int]] = []  # (position in file, game id)
    added = unchanged = flagged = skipped = hands = 0
    found: list[Diagnostic] = list(read.unreadable)
    for entry in read.entries:
        rows: _Rows | None = None
        if entry.spooled:
            digest, rows = pickle.load(read.spool)
            assert digest == entry.digest
        elif entry.number in rebuilt:
            rows = rebuilt[entry.number]
        game_id = existing.get(entry.digest)
        if game_id is not None:
            unchanged += 1
        elif entry.skipped is not None or rows is None:
            skipped += 1
            found.extend(entry.skipped or ())
        else:
            game_id = _insert_game(conn, batches, entry.digest, rows, players)
            existing[entry.digest] = game_id
            added += 1
            flagged += not rows.game["valid"]
            hands += len(rows.hands)
            found.extend(rows.diagnostics)
        if game_id is not None:
            refs.append((entry.number, game_id))
        if on_game is not None:
            on_game(entry.number)
    batches.flush()
    removed = _replace_sources(conn, read.source, refs)
    _replace_unreadable(conn, read.source, [] if only_valid else read.unreadable)
    return ImportResult(
        path=read.path,
        games=read.count,
        added=added,
        unchanged=unchanged,
        removed=removed,
        flagged=flagged,
        skipped=skipped,
        unreadable=len(read.unreadable),
        hands=hands,
        game_ids=tuple(i for _, i in refs),
        diagnostics=tuple(found),
    )


def _names(rows: Iterable[_Rows]) -> list[str]:
    return [name for r in rows for _, _, name, _, _ in r.seats]


def _reread(read: _FileRead, numbers: set[int], only_valid: bool) -> dict[int, _Rows]:
    """Rows of games that were stored when the first pass looked, and are gone now (another
    importer removed them meanwhile): read and judged again."""
    wanted = {e.number: e.digest for e in read.entries if e.number in numbers}
    out: dict[int, _Rows] = {}
    for number, text, game in _readable(_FileRead(read.path, read.source, read.spool), read.path):
        if number not in wanted:
            continue
        if _sha256(text) != wanted[number]:
            raise StoreError(f"{read.path}: the file changed while it was being imported")
        report = validate(game, game_number=number)
        if not (only_valid and not report.ok):
            out[number] = _rows(read.source, number, text, game, report)
    return out


def _player_ids(conn: Connection, names: Iterable[str]) -> dict[str, int]:
    """Player ids by key, inserting the players not seen before."""
    wanted: dict[str, str] = {}
    for name in names:
        wanted.setdefault(player_key(name), name)
    if not wanted:
        return {}
    ids = _lookup_players(conn, list(wanted))
    missing = sorted(k for k in wanted if k not in ids)  # sorted: concurrent inserts lock alike
    if missing:
        rows = [{"key": k, "name": wanted[k]} for k in missing]
        conn.execute(_insert_ignoring_conflicts(conn, PLAYER, ["key"]), rows)
        ids.update(_lookup_players(conn, missing))
    return ids


def _lookup_players(conn: Connection, keys: list[str]) -> dict[str, int]:
    ids: dict[str, int] = {}
    for chunk in chunks(keys):
        rows = conn.execute(select(PLAYER.c.key, PLAYER.c.id).where(PLAYER.c.key.in_(chunk)))
        ids.update((k, i) for k, i in rows)
    return ids


def _insert_ignoring_conflicts(conn: Connection, table: Table, keys: list[str]) -> Any:
    """INSERT that skips rows a concurrent transaction added first (where the dialect can)."""
    name = conn.dialect.name
    if name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing(index_elements=keys)
    if name == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table).on_conflict_do_nothing(index_elements=keys)
    return insert(table)  # elsewhere a clash raises, and the file is retried


def _insert_game(
    conn: Connection, batches: _Batches, digest: str, rows: _Rows, players: dict[str, int]
) -> int:
    game_id: int = conn.execute(
        insert(GAME).returning(GAME.c.id),
        {"content_hash": digest, **rows.game, "imported_at": utc_now()},
    ).scalar_one()
    seat_players = [players[key] for _, key, _, _, _ in rows.seats]
    conn.execute(
        insert(SEAT),
        [
            {
                "game_id": game_id,
                "seat": seat,
                "player_id": players[key],
                "name": name,
                "score": score,
                "winner": winner,
            }
            for seat, key, name, score, winner in rows.seats
        ],
    )
    if rows.hands:
        hand_ids = list(
            conn.scalars(
                insert(HAND).returning(HAND.c.id, sort_by_parameter_order=True),
                [{"game_id": game_id, **h} for h in rows.hands],
            )
        )
        for hand_id, seats, plays in zip(hand_ids, rows.hand_seats, rows.plays, strict=True):
            batches.add(
                HAND_SEAT,
                game_id,
                hand_id,
                [(s, seat_players[s], *rest) for s, *rest in seats],
            )
            batches.add(PLAY, game_id, hand_id, plays)
    if rows.diagnostics:
        source = rows.game["source_path"]
        conn.execute(insert(DIAG), [_diagnostic_row(d, game_id, source) for d in rows.diagnostics])
    return game_id


def _diagnostic_row(d: Diagnostic, game_id: int | None, source: str | None) -> dict[str, Any]:
    loc = d.location
    return {
        "game_id": game_id,
        "source_path": source,
        "code": d.code,
        "severity": d.severity,
        "message": d.message,
        "file": loc.file,
        "line": loc.line,
        "col": loc.col,
        "game_number": loc.game,
        "hand": loc.hand,
        "trick": loc.trick,
        "turn": loc.turn,
        "seat": loc.seat,
    }


def _replace_sources(conn: Connection, source: str, refs: list[tuple[int, int]]) -> int:
    """Point `source` at exactly `refs`; delete the games nothing points at any more."""
    old = {
        (pos, gid)
        for pos, gid in conn.execute(
            select(SOURCE.c.position, SOURCE.c.game_id).where(SOURCE.c.path == source)
        )
    }
    if old == set(refs):
        return 0
    conn.execute(delete(SOURCE).where(SOURCE.c.path == source))
    if refs:
        conn.execute(
            insert(SOURCE), [{"game_id": g, "path": source, "position": p} for p, g in refs]
        )
    dropped = sorted({g for _, g in old} - {g for _, g in refs})
    orphans: list[int] = []
    for chunk in chunks(dropped):
        still = set(conn.scalars(select(SOURCE.c.game_id).where(SOURCE.c.game_id.in_(chunk))))
        # A game a live table finished is held by that table, file or no file.
        still.update(
            conn.scalars(select(LIVE_TABLE.c.game_id).where(LIVE_TABLE.c.game_id.in_(chunk)))
        )
        orphans += [g for g in chunk if g not in still]
    _delete_games(conn, orphans)
    return len(orphans)


def _replace_unreadable(conn: Connection, source: str, found: list[Diagnostic]) -> None:
    where = and_(DIAG.c.source_path == source, DIAG.c.game_id.is_(None))
    columns = [DIAG.c[k] for k in ("code", "message", "line", "col", "game_number")]
    old = [tuple(r) for r in conn.execute(select(*columns).where(where).order_by(DIAG.c.id))]
    new = [_diagnostic_row(d, None, source) for d in found]
    if old == [tuple(r[c.name] for c in columns) for r in new]:
        return
    conn.execute(delete(DIAG).where(where))
    if new:
        conn.execute(insert(DIAG), new)


def _delete_games(conn: Connection, ids: Sequence[int]) -> None:
    for chunk in chunks(ids):
        for table in (PLAY, HAND_SEAT, HAND, SEAT, DIAG, ARTIFACT, SOURCE):
            conn.execute(delete(table).where(table.c.game_id.in_(chunk)))
        conn.execute(update(LIVE_TABLE).where(LIVE_TABLE.c.game_id.in_(chunk)).values(game_id=None))
        conn.execute(delete(GAME).where(GAME.c.id.in_(chunk)))


def delete_game(session: Session, *, game_id: int) -> None:
    """Remove one game and everything derived from it (its artifacts too). A live table that
    finished it keeps its entries and forgets the stored game."""
    conn = session.connection()
    require_game(conn, game_id)
    _delete_games(conn, [game_id])


def store_game(session: Session, *, game: Game, report: Report | None = None) -> tuple[int, bool]:
    """Store one record that comes from no file (a live table's finished game).

    Returns the game's id and whether it was added; a record already stored (same content
    hash) is not added again. Flushed in the caller's transaction, not committed.
    """
    conn = session.connection()
    text = canonical_json(game)
    digest = _sha256(text)
    found = conn.execute(select(GAME.c.id).where(GAME.c.content_hash == digest)).scalar()
    if found is not None:
        return int(found), False
    report = report or validate(game)
    rows = _rows(None, 1, text, game, report)
    players = _player_ids(conn, game.players)
    batches = _Batches(conn)
    game_id = _insert_game(conn, batches, digest, rows, players)
    batches.flush()
    return game_id, True
