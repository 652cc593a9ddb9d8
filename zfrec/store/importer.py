"""Importing record files: validate, then store, one transaction per file.

Atomic per file: the file's rows are written in one transaction, committed at the end, so a
failure anywhere leaves nothing of that file. Idempotent by content hash: a game whose
canonical JSON is already stored is not added again. The bulk of the rows is written with Core
executemany statements on the session's connection: an import is mostly plays.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
        """The result as `zfrec import --json` writes it: its fields."""
        data: dict[str, Any] = dump(self)
        return data


# import ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Entry:
    """A game read from the file, with its identity; validated only if it is new."""

    number: int  # 1-based position in the file
    game: Game
    text: str
    digest: str
    report: Report | None = None

    def validated(self) -> Report:
        if self.report is None:
            self.report = validate(self.game, game_number=self.number)
        return self.report


@dataclass(slots=True)
class _FileRead:
    path: str  # as given, for messages and diagnostics
    source: str  # resolved, the file's identity in the store
    entries: list[_Entry] = field(default_factory=list)
    unreadable: list[Diagnostic] = field(default_factory=list)
    count: int = 0


def import_file(
    session: Session,
    *,
    path: str | Path,
    only_valid: bool = False,
    on_game: Callable[[int], None] | None = None,
) -> ImportResult:
    """Validate the games of one .zfn or .json file, then store them in one transaction.

    Commits on success; on any failure nothing of this file is left behind. Games already
    stored (same content hash) are not added again; games this file held before but no longer
    holds are removed, unless another file still holds them. A game with errors is stored with
    its diagnostics and flagged invalid, unless `only_valid`. `on_game(number)` is called as each
    game is handled, inside the transaction. Starts with no transaction open in `session`.
    """
    read = _read_file(path)
    if session.new or session.dirty or session.deleted:
        raise StoreError("import_file needs a session without unsaved changes")
    session.rollback()  # end any read-only transaction: the import makes its own
    known = _known_hashes(session, [e.digest for e in read.entries])
    for entry in read.entries:
        if entry.digest not in known:
            entry.validated()  # outside the write lock, so other importers are not held up
    for attempt in range(1, _ATTEMPTS + 1):
        try:
            result = _write_file(session, read, only_valid, on_game)
            session.commit()
            return result
        except (IntegrityError, OperationalError) as exc:
            # A concurrent importer stored the same game or player first, or the server broke
            # a deadlock between us: start the file again, a little later, from what is there.
            session.rollback()
            if attempt == _ATTEMPTS:
                reason = str(exc.orig or exc).strip().splitlines()[0]
                raise StoreError(f"{read.path}: could not store the file: {reason}") from None
            time.sleep(random.uniform(0.02, 0.1) * attempt)
        except BaseException:
            session.rollback()
            raise
    raise AssertionError("unreachable")


def _read_file(path: str | Path) -> _FileRead:
    read = _FileRead(str(path), str(Path(path).resolve()))
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
        read.entries.append(_Entry(number, item, text, _sha256(text)))
    return read


def _known_hashes(session: Session, digests: Sequence[str]) -> set[str]:
    conn = session.connection(execution_options={READONLY: True})
    found: set[str] = set()
    for chunk in chunks(digests):
        found.update(
            conn.scalars(select(GAME.c.content_hash).where(GAME.c.content_hash.in_(chunk)))
        )
    session.rollback()
    return found


def _write_file(
    session: Session, read: _FileRead, only_valid: bool, on_game: Callable[[int], None] | None
) -> ImportResult:
    conn = session.connection()  # SQLite: BEGIN IMMEDIATE, so what we read stays true
    digests = [e.digest for e in read.entries]
    existing: dict[str, int] = {}
    for chunk in chunks(digests):
        rows = conn.execute(
            select(GAME.c.content_hash, GAME.c.id).where(GAME.c.content_hash.in_(chunk))
        )
        existing.update((h, i) for h, i in rows)
    fresh = [
        e
        for e in read.entries
        if e.digest not in existing and not (only_valid and not e.validated().ok)
    ]
    players = _player_ids(conn, (name for e in fresh for name in e.game.players))
    refs: list[tuple[int, int]] = []  # (position in file, game id)
    added = unchanged = flagged = skipped = hands = 0
    found: list[Diagnostic] = list(read.unreadable)
    for entry in read.entries:
        game_id = existing.get(entry.digest)
        if game_id is not None:
            unchanged += 1
        elif only_valid and not entry.validated().ok:
            skipped += 1
            found.extend(entry.validated().diagnostics)
        else:
            report = entry.validated()
            game_id = _insert_game(conn, read.source, entry, report, players)
            existing[entry.digest] = game_id
            added += 1
            flagged += not report.ok
            hands += len(entry.game.hands)
            found.extend(report.diagnostics)
        if game_id is not None:
            refs.append((entry.number, game_id))
        if on_game is not None:
            on_game(entry.number)
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
    conn: Connection, source: str | None, entry: _Entry, report: Report, players: dict[str, int]
) -> int:
    game = entry.game
    n = len(game.players)
    result = game.result
    game_id: int = conn.execute(
        insert(GAME).returning(GAME.c.id),
        {
            "content_hash": entry.digest,
            "record_json": entry.text,
            "source_path": source,
            "source_index": entry.number if source is not None else None,
            "event": game.event,
            "site": game.site,
            "date": game.date,
            "tags": [list(t) for t in game.extra_tags],
            "preset": game.preset,
            "options": dict(game.options),
            "target": game.target,
            "players": n,
            "result_scores": None if result is None else list(result.scores),
            "result_winners": None if result is None else list(result.winners),
            "hands": len(game.hands),
            "moves": report.moves,
            "over": report.over,
            "valid": report.ok,
            "errors": report.errors,
            "warnings": report.warnings,
            "imported_at": utc_now(),
        },
    ).scalar_one()
    seat_players = [players[player_key(name)] for name in game.players]
    conn.execute(
        insert(SEAT),
        [
            {
                "game_id": game_id,
                "seat": s,
                "player_id": seat_players[s],
                "name": name,
                "score": report.scores[s] if s < len(report.scores) else None,
                "winner": s in report.winners,
            }
            for s, name in enumerate(game.players)
        ],
    )
    _insert_hands(conn, game_id, game, report, seat_players)
    if report.diagnostics:
        conn.execute(
            insert(DIAG), [_diagnostic_row(d, game_id, source) for d in report.diagnostics]
        )
    return game_id


def _insert_hands(
    conn: Connection, game_id: int, game: Game, report: Report, seat_players: list[int]
) -> None:
    if not game.hands:
        return
    ledgers: list[HandLedger | None] = list(report.hands)
    if len(ledgers) != len(game.hands):  # the replay stopped before the hands (bad seat count)
        ledgers = [None] * len(game.hands)
    hand_rows = []
    for hand, ledger in zip(game.hands, ledgers, strict=True):
        res = ledger.result if ledger else None
        hand_rows.append(
            {
                "game_id": game_id,
                "number": hand.number,
                "shuffler": hand.shuffler,
                "first": res.first if res else None,
                "last": res.last if res else None,
                "finished": res is not None,
                "reconstructed": ledger.reconstructed if ledger else False,
                "transfer_points": res.transfer_points if res else None,
            }
        )
    hand_ids = list(
        conn.scalars(insert(HAND).returning(HAND.c.id, sort_by_parameter_order=True), hand_rows)
    )
    seat_rows: list[dict[str, Any]] = []
    play_rows: list[dict[str, Any]] = []
    for hand, ledger, hand_id in zip(game.hands, ledgers, hand_ids, strict=True):
        res = ledger.result if ledger else None
        order = list(res.out_order) if res else []
        if res and res.last not in order:
            order.append(res.last)
        for s, player_id in enumerate(seat_players):
            seat_rows.append(
                {
                    "game_id": game_id,
                    "hand_id": hand_id,
                    "seat": s,
                    "player_id": player_id,
                    "points": res.points[s] if res and s < len(res.points) else None,
                    "place": order.index(s) + 1 if s in order else None,
                    "is_first": bool(res and res.first == s),
                    "is_last": bool(res and res.last == s),
                }
            )
        for t, trick in enumerate(hand.tricks, 1):
            for turn, move in enumerate(trick.moves, 1):
                play_rows.append(_play_row(move, game_id, hand_id, hand.number, t, turn))
    conn.execute(insert(HAND_SEAT), seat_rows)
    if play_rows:
        conn.execute(insert(PLAY), play_rows)


def _play_row(
    move: Move, game_id: int, hand_id: int, hand_number: int, trick: int, turn: int
) -> dict[str, Any]:
    decls = " ".join(f"{card_str(j)}={stand}" for j, stand in move.declarations)
    return {
        "game_id": game_id,
        "hand_id": hand_id,
        "hand_number": hand_number,
        "trick": trick,
        "turn": turn,
        "seat": move.seat,
        "is_pass": move.is_pass,
        "cards": None if move.is_pass else format_cards(move.cards),
        "mask": move.cards,
        "declarations": decls or None,
        "annotation": move.annotation,
        "comment": "\n\n".join(move.comments) or None,
        "disputed": move.disputed,
        "dispute_note": move.dispute_note,
    }


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
    entry = _Entry(1, game, text, digest, report)
    players = _player_ids(conn, game.players)
    return _insert_game(conn, None, entry, entry.validated(), players), True
