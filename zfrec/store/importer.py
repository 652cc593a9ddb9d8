"""Importing record files: validate, then store, one transaction per file.

Atomic per file: the file's rows are written in one transaction, committed at the end, so a
failure anywhere leaves nothing of that file. Idempotent by content hash: a game whose
canonical JSON is already stored is not added again.

Two passes, so that memory stays flat and other importers are not held up. The first reads the
file a few games at a time, outside any write lock: canonical JSON, hash, and for games not
stored yet the validation, whose rows are kept in memory for the first games (up to
_HELD_HANDS hands) and go to a temporary spool file after that (plain tuples, pickled);
in worker processes with --jobs (zfrec.store.firstpass). The second takes the write lock and
streams the spool into the database with executemany (COPY on PostgreSQL), no ORM object per
row. Beyond the rows held, only small per-game facts (position, hash) stay in memory.
"""

from __future__ import annotations

import pickle
import random
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, Table, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, SQLModel

from zfrec.diagnostics import Diagnostic, WrittenDiagnostic
from zfrec.errors import NotationError, path_text
from zfrec.games import DEFAULT_KIND, find_kind
from zfrec.gctuning import young_threshold
from zfrec.jsonview import dump
from zfrec.record import Game, iter_records
from zfrec.store.batches import SEAT_KEYS, Batches
from zfrec.store.db import OWN_KEYS, READONLY, StoreError, sqlite_file
from zfrec.store.faults import retryable
from zfrec.store.firstpass import (
    Workers,
    canonical_json,
    judge_file,
    judge_file_in_workers,
    read_ahead,
    sha256,
    storable_text,
)
from zfrec.store.likeness import SameContent
from zfrec.store.models import utc_now
from zfrec.store.recognise import Decision, Key, corrected, record_key, stored_keys
from zfrec.store.removal import delete_children, replace_sources
from zfrec.store.removal import delete_game as delete_game  # where callers found it
from zfrec.store.rows import Rows, game_rows
from zfrec.store.tables import DIAG, GAME, HAND, HAND_SEAT, PLAY, PLAYER, SEAT, chunks, player_key
from zfrec.validate import Report, notation_diagnostic, validate

_ATTEMPTS = 5  # a file transaction that collides with a concurrent importer is retried
# Rows of the games read first are kept in memory, the rest spooled to a file: memory stays
# bounded, and a small file is not pickled and read back (4% of its import).
_HELD_HANDS = 1_000
_DIRECT_SQLITE = True  # SQLite's rows go to its driver in INSERTs of many rows (Batches)


def new_batches(conn: Connection) -> Batches:
    """The writer of a transaction's rows (zfrec.store.batches)."""
    return Batches(conn, direct=_DIRECT_SQLITE)


# identities ------------------------------------------------------------------------------------


def content_hash(game: Game) -> str:
    """The sha256 (hex) of the game's canonical JSON: the store's identity of a record."""
    return sha256(canonical_json(game))


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What importing one file did."""

    path: str
    games: int = 0  # games read from the file, unreadable ones included
    added: int = 0  # new games stored
    unchanged: int = 0  # already stored, by content hash
    removed: int = 0  # earlier versions from this file that are gone now
    flagged: int = 0  # stored although the validator found errors
    skipped: int = 0  # not stored: errors and --only-valid, or a draft of a good game (recognise)
    unreadable: int = 0  # games that could not be read at all
    hands: int = 0  # hands in the games added or replaced
    game_ids: tuple[int, ...] = ()  # the file's stored games, in file order
    diagnostics: tuple[WrittenDiagnostic, ...] = ()  # findings in the games read this time
    replaced: int = 0  # stored games this file's records corrected (zfrec.store.recognise)
    notes: tuple[str, ...] = ()  # what was replaced, or resembled a stored game, in words
    # `hands` by each game's unit word (GameKind.unit: "hand", "round"), for the text summary
    units: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """What `zfrec import --json` writes for the file: its fields (`units` aside: the
        JSON counts every game's hands or rounds in `hands`)."""
        data: dict[str, Any] = dump(self)
        del data["units"]
        return data


# the first pass: read, hash, validate, spool --------------------------------------------------


@dataclass(slots=True)
class _Entry:
    """What the second pass needs of a readable game, kept for every game of the file."""

    number: int  # 1-based position in the file
    digest: str
    spooled: bool  # its rows are kept (in the spool, or in `rows`): it was new, and not skipped
    rows: Rows | None = None  # the rows kept in memory, not spooled
    ok: bool = True
    skipped: list[Diagnostic] | None = None  # --only-valid: the errors that kept it out
    key: Key | None = None  # event, date and players of a new game (zfrec.store.recognise)
    kind: str = DEFAULT_KIND  # its unit word names what the summary counts (0 round(s))


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
    workers: Workers | None = None,
    then: str | Path | None = None,
) -> ImportResult:
    """Validate the games of one .zfn or .json file, then store them in one transaction.

    Commits on success; on any failure nothing of this file is left behind. Games already
    stored (same content hash) are not added again; games this file held before but no longer
    holds are removed, unless another file still holds them. A game with errors is stored with
    its diagnostics and flagged invalid, unless `only_valid`. `on_read(number)` is called as
    each game has been read and judged (for progress), `on_game(number)` as each game is
    written, inside the transaction (on SQLite one without foreign-key checks: `on_game` must
    not write). Starts with no transaction open in `session`.
    With `workers` (import_workers), the games are read and judged in those processes; with
    `then`, the file to be imported next, they start on it while this one is written.
    """
    if session.new or session.dirty or session.deleted:
        raise StoreError("import_file needs a session without unsaved changes")
    session.rollback()  # end any read-only transaction: the import makes its own
    with young_threshold(), tempfile.TemporaryFile(prefix="zfrec-import-") as spool:
        try:
            read = _read_file(session, path, spool, only_valid, on_read, workers)
        finally:
            session.rollback()  # the first pass only read: no lock is kept into the second
        url = _shared_url(session) if workers is not None and then is not None else None
        if workers is not None and then is not None and url is not None:
            read_ahead(workers, url, then, str(Path(then).resolve()), only_valid)
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                spool.seek(0)
                result = _write_file(session, read, only_valid, on_game)
                session.commit()
                return result
            except (IntegrityError, OperationalError) as exc:
                # A concurrent importer stored the same game or player first, or the server
                # broke a deadlock between us, or the connection was lost (a server restarted,
                # a session ended): start again, a little later, from what is there, on a new
                # connection. Anything else (a store locked too long, read-only or damaged, or
                # a bug) would fail again: it stops the import (zfrec.store.faults tells which).
                session.rollback()
                if not retryable(exc):
                    raise
                if attempt == _ATTEMPTS:
                    reason = str(exc.orig or exc).strip().splitlines()[0]
                    raise StoreError(f"{read.path}: could not store the file: {reason}") from None
                time.sleep(random.uniform(0.02, 0.1) * attempt)
            except BaseException:
                session.rollback()
                raise
    raise AssertionError("unreachable")


def source_path(path: str | Path) -> str:
    """A file's identity in the store: its resolved absolute path, kept as text. A name that is
    not UTF-8 (an old archive's Latin-1 `Pöppel.zfn`) cannot be: StoreError, naming it with
    U+FFFD for each byte that is not text."""
    source = str(Path(path).resolve())
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(
            f"{path_text(path)}: the file's name is not UTF-8 text: rename it (the store keeps "
            "file names as text)"
        ) from None
    return source


def _read_file(
    session: Session,
    path: str | Path,
    spool: IO[bytes],
    only_valid: bool,
    on_read: Callable[[int], None] | None,
    workers: Workers | None,
) -> _FileRead:
    read = _FileRead(str(path), source_path(path), spool)
    url = _shared_url(session) if workers is not None else None
    if workers is not None and url is not None:
        judged = judge_file_in_workers(workers, url, path, read.source, only_valid)
    else:
        conn = session.connection(execution_options={READONLY: True})
        judged = judge_file(conn, path, read.source, only_valid)
    seen: set[str] = set()  # digests spooled from this file, so a repeat is stored once
    held = 0  # hands whose rows are kept in memory
    for j in judged:
        read.count = j.number
        if j.unreadable is not None:
            read.unreadable.append(j.unreadable)
            continue
        entry = _Entry(j.number, j.digest, spooled=False, kind=j.kind)
        if not (j.known or j.digest in seen):
            entry.ok = j.ok
            if j.skipped is not None:
                entry.skipped = j.skipped
            elif j.rows is not None:
                if isinstance(j.rows, bytes):
                    spool.write(j.rows)
                elif held + len(j.rows.hands) <= _HELD_HANDS:
                    entry.rows = j.rows
                    held += len(j.rows.hands)
                else:
                    pickle.dump((j.digest, j.rows), spool, 5)
                entry.spooled = True
                entry.key = record_key(j.event, j.date, (player_key(n) for n in j.players))
                seen.add(j.digest)
                for name in j.players:
                    read.names.setdefault(player_key(name), name)
        read.entries.append(entry)
        if on_read is not None:
            on_read(j.number)
    return read


def _shared_url(session: Session) -> str | None:
    """The store's URL for worker processes to open, or None if they cannot (in memory)."""
    url = session.get_bind().engine.url
    if url.get_backend_name() == "sqlite" and sqlite_file(url) is None:
        return None
    return url.render_as_string(hide_password=False)


def _readable(read: _FileRead, path: str | Path) -> Iterator[tuple[int, str, Game]]:
    """(position, canonical JSON, game) of each readable game; the others go to `unreadable`."""
    for number, item in enumerate(iter_records(path, recover=True), 1):
        read.count = number
        if isinstance(item, NotationError):
            read.unreadable.append(notation_diagnostic(item, read.path, number))
            continue
        try:
            text = storable_text(item, read.path)
        except NotationError as error:
            read.unreadable.append(notation_diagnostic(error, read.path, number))
            continue
        yield number, text, item


# the second pass: write ------------------------------------------------------------------------


def _write_file(
    session: Session, read: _FileRead, only_valid: bool, on_game: Callable[[int], None] | None
) -> ImportResult:
    # SQLite: BEGIN IMMEDIATE, so what we read stays true
    conn = session.connection(execution_options={OWN_KEYS: True})
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
    batches = new_batches(conn)
    refs: list[tuple[int, int]] = []  # (position in file, game id)
    added = unchanged = flagged = skipped = hands = 0
    found: list[Diagnostic] = list(read.unreadable)
    # Corrections (zfrec.store.recognise): the stored games new records may replace
    keyed = {e.key for e in read.entries if e.spooled and e.key is not None}
    candidates = stored_keys(conn, keyed) if keyed else {}
    held = {existing[e.digest] for e in read.entries if e.digest in existing}  # this file's own
    notes: list[str] = []
    replaced: list[int] = []
    alike = SameContent(conn)  # a stored game with a new game's deals and plays
    units: dict[str, int] = {}
    for lost in read.unreadable:  # a game not read: its kind's unit, where it is known
        if lost.location.unit:
            units.setdefault(lost.location.unit, 0)
    for entry in read.entries:
        units.setdefault(find_kind(entry.kind).unit, 0)  # a summary of none names its unit
        rows: Rows | None = None
        if entry.rows is not None:  # kept for a retry too, as the spool is
            rows = entry.rows
        elif entry.spooled:
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
            decision = Decision()
            noted = len(notes)
            if entry.key is not None:
                taken = held | set(replaced)
                args = (entry.number, entry.key, rows.plays, candidates, taken, notes)
                decision = corrected(
                    conn, read.source, *args, rows.layout, rows.game["valid"], rows.game
                )
            game_id = decision.replaces
            if decision.kept is None:
                if game_id is not None:
                    _rewrite_game(conn, batches, game_id, entry.digest, rows, players)
                    replaced.append(game_id)
                else:
                    _note_same_content(alike, entry.number, rows, notes, noted)
                    game_id = _insert_game(conn, batches, entry.digest, rows, players)
                    added += 1
                existing[entry.digest] = game_id
                flagged += not rows.game["valid"]
                hands += len(rows.hands)
                unit = find_kind(rows.game["kind"]).unit
                units[unit] = units.get(unit, 0) + len(rows.hands)
            else:  # a draft with errors of a stored game without: not stored (rule 5)
                skipped += 1
            found.extend(rows.diagnostics)
        if game_id is not None:
            refs.append((entry.number, game_id))
        if on_game is not None:
            on_game(entry.number)
    batches.flush()
    batches.close()
    removed = replace_sources(conn, read.source, refs)
    if replaced or removed:  # a correction may leave a spelling of a name no game uses now
        respell_players(conn, players.values())
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
        replaced=len(replaced),
        notes=tuple(notes),
        units=units,
    )


def _note_same_content(
    alike: SameContent, number: int, rows: Rows, notes: list[str], noted: int
) -> None:
    """A note when the new game at `number` has the deals and plays of a stored game (a
    header corrected outside --replace, an old version imported again); it is stored all the
    same. None when a note of this game from `noted` on named that stored game already."""
    same = alike.find(rows.game)
    if same is None:
        return
    named = re.compile(rf"\bstored games? (\d+, )*{same.game_id}\b")
    if not any(named.search(note) for note in notes[noted:]):
        notes.append(
            f"game {number}: same deals and plays as stored game {same.game_id} ({same.text()}): "
            f"stored as a new game; to correct game {same.game_id} use --replace {same.game_id}"
        )


def _names(rows: Iterable[Rows]) -> list[str]:
    return [name for r in rows for _, _, name, _, _ in r.seats]


def _reread(read: _FileRead, numbers: set[int], only_valid: bool) -> dict[int, Rows]:
    """Rows of games that were stored when the first pass looked, and are gone now (another
    importer removed them meanwhile): read and judged again."""
    wanted = {e.number: e.digest for e in read.entries if e.number in numbers}
    out: dict[int, Rows] = {}
    for number, text, game in _readable(_FileRead(read.path, read.source, read.spool), read.path):
        if number not in wanted:
            continue
        if sha256(text) != wanted[number]:
            raise StoreError(f"{read.path}: the file changed while it was being imported")
        report = validate(game, game_number=number)
        if not (only_valid and not report.ok):
            out[number] = game_rows(read.source, number, text, game, report)
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


def respell_players(conn: Connection, player_ids: Iterable[int]) -> None:
    """A player is shown as first spelt (names match ignoring case); where no stored game
    spells the name that way any more (a correction of `mei` to `Mei`), as the player's
    earliest stored game spells it. Players in no game keep their name."""
    seat = SEAT.alias("s")
    first = (
        select(seat.c.name)
        .where(seat.c.player_id == PLAYER.c.id)
        .order_by(seat.c.game_id, seat.c.seat)
        .limit(1)
        .scalar_subquery()
    )
    spelt = select(seat.c.id).where(seat.c.player_id == PLAYER.c.id, seat.c.name == PLAYER.c.name)
    for chunk in chunks(sorted(set(player_ids))):
        conn.execute(
            update(PLAYER)
            .where(PLAYER.c.id.in_(chunk), ~spelt.exists(), first.is_not(None))
            .values(name=first)
        )


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
    conn: Connection, batches: Batches, digest: str, rows: Rows, players: dict[str, int]
) -> int:
    values = {"content_hash": digest, **rows.game, "imported_at": utc_now()}
    found = batches.insert_game(values) if batches.sqlite else None
    game_id: int = (
        conn.execute(insert(GAME).returning(GAME.c.id), values).scalar_one()
        if found is None
        else found
    )
    _insert_children(conn, batches, game_id, rows, players)
    return game_id


def _rewrite_game(
    conn: Connection,
    batches: Batches,
    game_id: int,
    digest: str,
    rows: Rows,
    players: dict[str, int],
) -> None:
    """Put another record in place of stored game `game_id`, which keeps its id (and the files
    and live tables that refer to it): everything derived from the old record goes, artifacts
    too, and the new record's rows are written."""
    # Locked first (PostgreSQL; SQLite's write lock is held): a concurrent correction of the
    # same game then waits, and its deletes see the rows this one writes.
    conn.execute(select(GAME.c.id).where(GAME.c.id == game_id).with_for_update())
    delete_children(conn, [game_id])
    values = {"content_hash": digest, **rows.game, "imported_at": utc_now()}
    conn.execute(update(GAME).where(GAME.c.id == game_id).values(**values))
    _insert_children(conn, batches, game_id, rows, players)


def _insert_children(
    conn: Connection, batches: Batches, game_id: int, rows: Rows, players: dict[str, int]
) -> None:
    seat_players = [players[key] for _, key, _, _, _ in rows.seats]
    seats = [
        (seat, players[key], name, score, winner) for seat, key, name, score, winner in rows.seats
    ]
    if batches.sqlite:
        batches.add_seats(game_id, seats)
    else:
        conn.execute(
            insert(SEAT), [dict(zip(SEAT_KEYS, (game_id, *r), strict=True)) for r in seats]
        )
    if rows.layout is not None:
        _insert_units(conn, batches, game_id, rows, seat_players)
    elif rows.hands:
        hand_ids = batches.insert_hands(game_id, rows.hands) if batches.sqlite else None
        if hand_ids is None:
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


def _insert_units(
    conn: Connection, batches: Batches, game_id: int, rows: Rows, seat_players: list[int]
) -> None:
    """The rows per hand or round of a kind with tables of its own (`Rows.layout`)."""
    layout = rows.layout
    assert layout is not None
    if not rows.hands:
        return
    tables = SQLModel.metadata.tables
    units, unit_seats, plays = (tables[t] for t in (layout.units, layout.unit_seats, layout.plays))
    ids = batches.insert_units(units, game_id, rows.hands) if batches.sqlite else None
    if ids is None:
        ids = list(
            conn.scalars(
                insert(units).returning(units.c.id, sort_by_parameter_order=True),
                [{"game_id": game_id, **u} for u in rows.hands],
            )
        )
    seat_columns = ("game_id", layout.key, *layout.seat_columns)
    play_columns = ("game_id", layout.key, *layout.play_columns)
    for unit_id, seats, moves in zip(ids, rows.hand_seats, rows.plays, strict=True):
        batches.add_rows(unit_seats, seat_columns, game_id, unit_id,
                         [(s, seat_players[s], *rest) for s, *rest in seats])  # fmt: skip
        batches.add_rows(plays, play_columns, game_id, unit_id, moves)


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
        "occurrence": loc.occurrence if loc.occurrence > 1 and loc.hand is not None else None,
    }


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


def store_game(session: Session, *, game: Game, report: Report | None = None) -> tuple[int, bool]:
    """Store one record that comes from no file (a live table's finished game).

    Returns the game's id and whether it was added; a record already stored (same content
    hash) is not added again. Flushed in the caller's transaction, not committed.
    """
    conn = session.connection()
    text = canonical_json(game)
    digest = sha256(text)
    found = conn.execute(select(GAME.c.id).where(GAME.c.content_hash == digest)).scalar()
    if found is not None:
        return int(found), False
    report = report or validate(game)
    rows = game_rows(None, 1, text, game, report)
    players = _player_ids(conn, game.players)
    batches = new_batches(conn)
    game_id = _insert_game(conn, batches, digest, rows, players)
    batches.flush()
    return game_id, True
