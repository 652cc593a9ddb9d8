"""`zfrec.live.Table`: a game logged at the table, every entry judged as it is made.

    table, token = Table.create(engine, players=["Ann", "Bo", "Cy"], target=500)
    table.start_hand(token, shuffler=1, deals={1: "3h 4h ..."})
    state = table.enter(token, seat=1, play="3h")          # raises EntryRefused if illegal
    table.undo(token)
    table.export("zfn")                                     # the game so far, canonical

The table lives in the store, not in one process: every change locks the table's row
(`SELECT ... FOR UPDATE` on PostgreSQL, `BEGIN IMMEDIATE` on SQLite), checks the version, judges
the entry against the game in memory (rebuilt from the stored entries when another process or a
restart changed it), stores the entry and commits, and only then answers. So several `zfrec
serve` processes can share one PostgreSQL, and a killed server loses no accepted entry.

Seats are 1-based here, as in the JSON API and the notation. State dicts are the JSON the web
app sends (LIVE.md lists the fields).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import re
import secrets
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session

from zfrec.errors import RulesError
from zfrec.games import GameKind, NotSupported, UnknownKindError, find_kind, kind_of_preset
from zfrec.jsonview import dump
from zfrec.live.entries import (
    Conflict,
    EditableGame,
    Entry,
    EntryRefused,
    HeldGame,
    LiveError,
)
from zfrec.record import Format, Game, dumps
from zfrec.record.model import players_problem, tag_value_problem
from zfrec.store import (
    HeldByFile,
    LiveConflict,
    LiveTableRow,
    StoreError,
    append_live_entry,
    create_live_table,
    find_live_request,
    finish_live_game,
    get_live_table,
    list_live_tables,
    live_entries,
    pop_live_entry,
    remember_live_request,
    reopen_live_game,
    replace_live_entries,
    session,
    update_live_entry,
)
from zfrec.store.faults import clash

__all__ = [
    "Conflict",
    "EntryRefused",
    "Forbidden",
    "LiveError",
    "NotFound",
    "Stale",
    "Table",
    "TableSummary",
    "Unauthorized",
    "list_tables",
    "tune_store",
]

_ATTEMPTS = 5  # a write that loses a race with another process is tried again
# A request id: what a client names one change by, so that the change sent again (its answer
# lost) is answered, not made twice (LIVE.md, "Requests sent again").
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


class NotFound(LiveError):
    status = 404


class Unauthorized(LiveError):
    """A change without the table's writer token."""

    status = 401


class Forbidden(LiveError):
    """A change with a token that is not the table's."""

    status = 403


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class _Request:
    """A change named by its client's request id: what it is (`op`, and `what`, a digest of
    its fields), so that the same id sent with another change is told apart."""

    id: str
    op: str
    what: str


def _request(request_id: str | None, op: str, **fields: Any) -> _Request | None:
    if request_id is None:
        return None
    if not isinstance(request_id, str) or not REQUEST_ID.fullmatch(request_id):
        raise EntryRefused(
            "request", "request_id: 1 to 64 letters, digits or . _ : - (one per change)"
        )
    given = {k: v for k, v in fields.items() if v is not None}
    text = json.dumps(given, sort_keys=True, ensure_ascii=False, default=str)
    return _Request(request_id, op, hashlib.sha256(text.encode("utf-8")).hexdigest()[:32])


# --- the games held in memory, per engine and table -------------------------------------------


@dataclass(slots=True)
class _Slot:
    lock: threading.Lock = field(default_factory=threading.Lock)
    live: HeldGame | None = None


_slots: weakref.WeakKeyDictionary[Engine, dict[str, _Slot]] = weakref.WeakKeyDictionary()
_slots_lock = threading.Lock()


class _FifoLock:
    """A lock taken in the order it was asked for: under load no writer waits for long."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()
        self._held = False

    def __enter__(self) -> None:
        with self._guard:
            if not self._held:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append(turn)
        turn.acquire()  # released by the holder before us: the lock is handed over to us

    def __exit__(self, *exc: object) -> None:
        with self._guard:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False


_writers: weakref.WeakKeyDictionary[Engine, _FifoLock] = weakref.WeakKeyDictionary()


@contextmanager
def _one_writer(engine: Engine) -> Iterator[None]:
    """SQLite has one write lock per database, and a writer that finds it taken sleeps in
    growing steps before trying again: under load that costs whole tenths of a second. So the
    threads of this process queue for it here first, and take it in turn without sleeping.
    PostgreSQL locks one table's row, which needs no help."""
    if engine.dialect.name != "sqlite":
        yield
        return
    with _slots_lock:
        lock = _writers.setdefault(engine, _FifoLock())
    with lock:
        yield


def _slot(engine: Engine, table_id: str) -> _Slot:
    with _slots_lock:
        tables = _slots.setdefault(engine, {})
        slot = tables.get(table_id)
        if slot is None:
            slot = tables[table_id] = _Slot()
        return slot


@dataclass(frozen=True, slots=True)
class TableSummary:
    """A line of the table list: no token, no cards."""

    id: str
    players: list[str]
    event: str | None
    entries: int
    over: bool
    game_id: int | None
    game: str  # the game's name (GameKind.name), as `POST /api/tables` takes it

    def to_json(self) -> dict[str, Any]:
        """The line as the web app's table list writes it: its fields."""
        data: dict[str, Any] = dump(self)
        return data


def tune_store(engine: Engine, *, sync: str = "normal") -> None:
    """Set how SQLite flushes commits for a live server. `normal` (WAL's usual setting): a
    committed entry survives the server being killed, and only an operating-system crash or a
    power cut can lose the last moments; `full`: each commit waits for the disk (a flush costs
    several milliseconds, and tables queue behind it). Other databases are left alone."""
    if sync not in ("normal", "full"):
        raise ValueError(f"sync is normal or full, not {sync!r}")
    if engine.dialect.name != "sqlite":
        return

    def pragma(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA synchronous = {sync.upper()}")
        finally:
            cursor.close()

    event.listen(engine, "connect", pragma)
    engine.dispose()  # connections made before this point did not get the setting


def list_tables(engine: Engine) -> list[TableSummary]:
    """The live tables in the store, newest first."""
    with session(engine, readonly=True) as s:
        rows = list_live_tables(s)
    return [
        TableSummary(
            r.id, list(r.players), r.event, r.entries, r.over, r.game_id,
            kind_of_preset(r.preset).name,
        )
        for r in rows
    ]  # fmt: skip


def _header(row: LiveTableRow) -> Game:
    return Game(
        players=list(row.players),
        event=row.event,
        site=row.site,
        date=row.date,
        preset=row.preset,
        options=dict(row.options),
        target=row.target,
        kind=kind_of_preset(row.preset).name,
    )


def _live_game(header: Game, entries: list[Entry], version: int) -> HeldGame:
    """The game in memory: the kind's own live game (its judge)."""
    made: HeldGame = find_kind(header.kind).live_game(
        header, entries, version, (EntryRefused, Conflict)
    )
    return made


def _extra(kind: GameKind, fields: dict[str, Any]) -> dict[str, Any]:
    """The kind's own fields of an entry (those given); 422 for a field it does not take."""
    given = {k: v for k, v in fields.items() if v is not None}
    for name in given:
        if name not in kind.live_fields:
            raise EntryRefused("request", f"{name}: a {kind.title} table takes no {name}")
    return given


# --- the table ----------------------------------------------------------------------------------


class Table:
    """One live table in the store at `engine`. Cheap to make: the game is held per process."""

    def __init__(self, engine: Engine, table_id: str) -> None:
        self.engine = engine
        self.id = table_id

    # creating ----------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        engine: Engine,
        *,
        players: list[str],
        rules: str | None = None,
        options: dict[str, Any] | None = None,
        target: int | None = None,
        event: str | None = None,
        site: str | None = None,
        date: str | None = None,
        game: str | None = None,
    ) -> tuple[Table, str]:
        """A new empty table and its secret writer token (shown once, stored only hashed).
        `game` names the game (zfrec.games; Zheng Fen when None)."""
        try:
            kind = find_kind(game) if game is not None else kind_of_preset(rules or "pagat")
        except UnknownKindError as exc:
            raise EntryRefused("game", exc.message) from None
        problem = players_problem([str(p) for p in players], kind.min_players, kind.max_players)
        if problem:
            raise EntryRefused("players", problem)
        for name, value in (("event", event), ("site", site), ("date", date)):
            if value is not None and (bad := tag_value_problem(value)):
                raise EntryRefused(name, f"{name}: {bad}")
        chosen = dict(options or {})
        if target is not None and "target" in kind.option_order():
            chosen["target"] = target  # a rule option of the game (Zheng Fen's)
        if date is None:  # a live game is played today: stored dated, as the notation writes it
            date = datetime.date.today().strftime("%Y.%m.%d")
        try:
            name, overrides = kind.live_rules([str(p) for p in players], rules, chosen)
            goal = overrides.pop("target", None) or kind.default_target or 500
        except (RulesError, NotSupported) as exc:
            raise EntryRefused("rules", exc.message) from None
        token = secrets.token_urlsafe(18)
        for _ in range(_ATTEMPTS):
            table_id = secrets.token_urlsafe(6)
            try:
                with session(engine) as s:
                    create_live_table(
                        s,
                        table_id=table_id,
                        token_hash=token_hash(token),
                        players=[str(p) for p in players],
                        preset=name,
                        options=overrides,
                        target=goal,
                        event=event,
                        site=site,
                        date=date,
                    )
                return cls(engine, table_id), token
            except IntegrityError:  # the id was taken: draw another
                continue
        raise StoreError("could not find a free table id")

    # reading -----------------------------------------------------------------------------------

    def state(self, *, viewer: int | None = None, since: int = 0) -> dict[str, Any]:
        """The table as the JSON API shows it; `viewer` (1-based) hides the other seats' cards."""
        with self._live() as live:
            return cached_state(self.id, live, viewer=viewer, since=since)

    def version(self) -> int:
        with session(self.engine, readonly=True) as s:
            return self._row(s).version

    def record(self) -> Game:
        """The game so far as a record: deals, trick lines, score lines, result."""
        with self._live() as live:
            return live.record()

    def export(self, format: Format = "zfn") -> str:
        """The game so far in canonical .zfn or JSON."""
        return dumps(self.record(), format)

    def check_token(self, token: str | None) -> None:
        """Raise Unauthorized without a token, Forbidden with a wrong one."""
        with session(self.engine, readonly=True) as s:
            _authorize(self._row(s), token)

    # changing ----------------------------------------------------------------------------------

    def start_hand(
        self,
        token: str | None,
        *,
        shuffler: int | None = None,
        deals: dict[int, str] | None = None,
        version: int | None = None,
        request_id: str | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """Start the next hand. `shuffler` (1-based) is needed for hand 1 only; later the rules
        name it. `deals` maps seats (1-based) to what is known of their cards (`3h 4h ?16`).
        `version`: the table's version the entry was made against (Stale if it moved on).
        `request_id`: the client's name for this change: sent again, it is answered, not made
        twice (every change takes one).
        `fields`: a game's own (Sheng ji: `dealer` instead of `shuffler`, `trump`, `kitty`)."""
        known = None if deals is None else {int(k) - 1: v for k, v in deals.items()}
        request = _request(request_id, "hands", shuffler=shuffler, deals=known, **fields)

        def start(live: HeldGame) -> Entry:
            extra = _extra(find_kind(live.header.kind), fields)
            first = extra.pop("dealer", shuffler)
            zero = None if first is None else int(first) - 1
            if extra or first is not shuffler:
                started: Entry = live.start_hand(zero, known, **extra)
                return started
            return live.start_hand(zero, known)

        return self._change(token, version, _appending(start), request=request)

    def enter(
        self,
        token: str | None,
        *,
        seat: int,
        play: str | None,
        version: int | None = None,
        request_id: str | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """One move: `play` is cards (`8s 8h`, `BJ=8h`) or a pass (`-`). A play by a later seat
        means the seats in between passed: the answer's `inferred` lists them (1-based).
        Illegal or ambiguous: EntryRefused, nothing stored. `fields`: a game's own (Sheng ji:
        `bid`, `discard`, `kitty`, a blocked throw's `blocked_by` and `shows`)."""
        request = _request(request_id, "moves", seat=seat, play=play, **fields)

        def move(live: HeldGame) -> Entry:
            extra = _extra(find_kind(live.header.kind), fields)
            if play is None and not extra:
                raise EntryRefused("request", "play: a move needs a play")
            if extra or play is None:
                made: Entry = live.enter(seat - 1, play, **extra)
                return made
            return live.enter(seat - 1, play)

        return self._change(token, version, _appending(move), _inferred, request=request)

    def undo(
        self, token: str | None, *, version: int | None = None, request_id: str | None = None
    ) -> dict[str, Any]:
        """Remove the last entry (a move or a hand start); any number of times. With a
        `request_id`, one undo sent again undoes nothing more."""
        return self._change(token, version, _undoing, request=_request(request_id, "undo"))

    def mark(
        self,
        token: str | None,
        *,
        entry: int | None = None,
        version: int | None = None,
        request_id: str | None = None,
        **marks: Any,
    ) -> dict[str, Any]:
        """Mark move `entry` (1-based entry number; the last move if None) as the notation can:
        `annotation` ("!?"; "" takes it away), `comment` (added), `disputed` with its `note` and
        the other versions `or` (a list of plays). The game itself does not change."""
        request = _request(request_id, "marks", entry=entry, **marks)

        def op(s: Session, row: LiveTableRow, live: HeldGame) -> HeldGame:
            editable = _own(live, "marked")
            moves = [e for e in live.entries if e.kind == "move"]
            target = moves[-1] if entry is None and moves else None
            if entry is not None and 1 <= entry <= len(live.entries):
                target = live.entries[entry - 1]
            if target is None or target.kind != "move":
                raise EntryRefused("entry", "there is no such move to mark")
            new = editable.mark_entry(target, marks)
            live.version = update_live_entry(
                s,
                table_id=self.id,
                version=row.version,
                entries=row.entries,
                seq=new.seq,
                data=new.data,
            )
            live.entries[new.seq - 1] = new
            live.forget_moves()
            _restore_game(s, self.id, row, live)
            return live

        return self._change(token, version, op, request=request)

    def edit(
        self,
        token: str | None,
        *,
        entry: int,
        seat: int | None = None,
        play: str | None = None,
        action: str = "replace",
        version: int | None = None,
        request_id: str | None = None,
    ) -> dict[str, Any]:
        """Correct the game at entry `entry` (1-based): `replace` that move by `seat`'s `play`,
        `insert` the move before it, or `delete` it. The later entries are entered again; the
        first one the corrected game refuses, and the ones after it, are left out and listed in
        the answer's `dropped`. A refused correction changes nothing."""
        if action not in ("replace", "insert", "delete"):
            raise EntryRefused("request", "action is replace, insert or delete")
        if action != "delete" and (seat is None or play is None):
            raise EntryRefused("request", f"{action} needs a seat and a play")
        request = _request(request_id, "edit", entry=entry, seat=seat, play=play, action=action)
        dropped: list[dict[str, Any]] = []

        def op(s: Session, row: LiveTableRow, live: HeldGame) -> HeldGame:
            editable = _own(live, "corrected")
            if action == "replace" and not (
                1 <= entry <= len(live.entries) and live.entries[entry - 1].kind == "move"
            ):
                raise EntryRefused("entry", f"entry {entry} is not a move: only moves are edited")

            def edit_move(game: HeldGame) -> None:
                assert seat is not None and play is not None
                game.enter(seat - 1, play)

            new, left = editable.corrected(entry, None if action == "delete" else edit_move,
                                           action != "insert")  # fmt: skip
            first = entry
            kept = [(e.seq, e.kind, e.data) for e in new.entries[first - 1 :]]
            new.version = replace_live_entries(
                s, table_id=self.id, version=row.version, first=first, entries=kept
            )
            _restore_game(s, self.id, row, new)
            dropped.extend(left)
            return new

        return self._change(
            token, version, op, lambda _held: {"dropped": list(dropped)}, request=request
        )

    # internals ---------------------------------------------------------------------------------

    def _row(self, s: Session, lock: bool = False) -> LiveTableRow:
        try:
            return get_live_table(s, table_id=self.id, lock=lock)
        except StoreError:
            raise NotFound("not-found", f"no live table {self.id!r}") from None

    @contextmanager
    def _live(self) -> Iterator[HeldGame]:
        """The game in memory, brought up to the stored version, held under its lock."""
        slot = _slot(self.engine, self.id)
        for _ in range(_ATTEMPTS):
            with session(self.engine, readonly=True) as s:
                row = self._row(s)
                with slot.lock:
                    if slot.live is not None and slot.live.version == row.version:
                        yield slot.live
                        return
                    live = self._load(s, row)
                    if live is not None:
                        slot.live = live
                        yield live
                        return
        raise LiveConflict(f"live table {self.id!r} keeps changing; try again")

    def _load(self, s: Session, row: LiveTableRow) -> HeldGame | None:
        """Rebuild the game from the stored entries; None if they moved on meanwhile."""
        rows = live_entries(s, table_id=self.id)
        if len(rows) != row.entries or self._row(s).version != row.version:
            return None  # PostgreSQL reads each statement afresh: a writer got in between
        entries = [Entry(r.seq, r.kind, r.data) for r in rows]
        return _live_game(_header(row), entries, row.version)

    def _change(
        self,
        token: str | None,
        version: int | None,
        op: _Op,
        extra: Callable[[HeldGame], dict[str, Any]] | None = None,
        *,
        request: _Request | None = None,
    ) -> dict[str, Any]:
        """Lock the row, check the version the entry was made against, judge it against the
        current game, store, commit, then answer (with what `extra` adds: a move's
        `inferred`). A `request` the table took already is answered as it was, not made
        again; one the table did not take is judged as any change."""
        slot = _slot(self.engine, self.id)
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                with _one_writer(self.engine), session(self.engine) as s:
                    row = self._row(s, lock=True)
                    _authorize(row, token)
                    with slot.lock:
                        live = slot.live
                        if live is None or live.version != row.version:
                            slot.live = live = self._load(s, row)
                            if live is None:
                                raise LiveConflict("entries changed under the row lock")
                        if request is not None:  # at any version: a page that read the
                            # table again sends its change under the id it had (LIVE.md)
                            repeated = self._repeated(s, request, live)
                            if repeated is not None:
                                return repeated
                        if version is not None and version != row.version:
                            raise Stale(
                                "stale",
                                f"the table moved on (version {row.version}) since this entry "
                                f"was made (version {version}): nothing was entered",
                                state=cached_state(self.id, live),
                            )
                        try:
                            held = op(s, row, live)
                            added = {} if extra is None else extra(held)
                            if request is not None:
                                remember_live_request(
                                    s,
                                    table_id=self.id,
                                    version=held.version,
                                    data={"id": request.id, "op": request.op,
                                          "what": request.what, "answer": added},
                                )  # fmt: skip
                            s.commit()
                        except LiveError:
                            raise  # refused: the game in memory did not change
                        except HeldByFile as exc:  # refused, after the game in memory changed
                            slot.live = None
                            raise Conflict("held-by-file", exc.message, game_id=exc.game_id,
                                           file=exc.path) from None  # fmt: skip
                        except BaseException:
                            slot.live = None  # changed in memory but not stored: rebuild
                            raise
                        slot.live = held
                        return {**cached_state(self.id, held), **added}
            except (LiveConflict, DBAPIError) as exc:
                # a serialisation failure or deadlock (PostgreSQL) is worth another try
                # (`clash`); SQLite's "database is locked" is not: it comes after the writer
                # waited the whole busy timeout (60 s) for another process's write lock, and
                # waiting that out again would hold the phone, and every table queued behind
                # it here, for minutes before the 503
                again = isinstance(exc, LiveConflict | IntegrityError) or clash(exc)
                if attempt == _ATTEMPTS or not again:
                    raise
        raise AssertionError("unreachable")

    def _repeated(self, s: Session, request: _Request, live: HeldGame) -> dict[str, Any] | None:
        """The answer to a request the table took already (its first answer was lost): the
        table as it is now, with what the first answer added (`inferred`, `dropped`) and
        `repeated`, the version that change made. Nothing changes. The same id sent with
        another change is refused (409 `request-reused`); None if the table did not take it."""
        found = find_live_request(s, table_id=self.id, request_id=request.id)
        if found is None:
            return None
        made, data = found
        if data.get("op") != request.op or data.get("what") != request.what:
            raise Conflict(
                "request-reused",
                f"request {request.id!r} was another change ({data.get('op')}), taken at "
                f"version {made}: nothing was done; send each change with a request id of its own",
            )
        answer = data.get("answer")
        added = dict(answer) if isinstance(answer, dict) else {}
        return {**cached_state(self.id, live), **added, "repeated": made}


_Op = Callable[[Session, LiveTableRow, HeldGame], HeldGame]


def _inferred(held: HeldGame) -> dict[str, Any]:
    """What a move's answer adds: the seats (1-based) whose passes it implied."""
    return {"inferred": [seat + 1 for seat in held.inferred]}


def _own(live: HeldGame, what: str) -> EditableGame:
    """The game, if its kind takes marks and corrections (`GameKind.live_edits`)."""
    kind = find_kind(live.header.kind)
    if not kind.live_edits:
        raise EntryRefused("request", f"a {kind.title} table's entries cannot be {what} yet: undo")
    return live  # type: ignore[return-value]  # live_edits: its live game is an EditableGame


def _appending(action: Callable[[HeldGame], Entry]) -> _Op:
    """The change that judges one new entry and stores it."""

    def op(s: Session, row: LiveTableRow, live: HeldGame) -> HeldGame:
        live.inferred = []
        entry = action(live)
        live.version = append_live_entry(
            s,
            table_id=row.id,
            version=row.version,
            seq=entry.seq,
            kind=entry.kind,
            data=entry.data,
        )
        if "result" in entry.data:
            finish_live_game(s, table_id=row.id, game=live.record())
        return live

    return op


def _undoing(s: Session, row: LiveTableRow, live: HeldGame) -> HeldGame:
    if not live.entries:
        raise Conflict("nothing-to-undo", "there is nothing to undo")
    seq = live.entries[-1].seq
    live.undo()
    live.version = pop_live_entry(s, table_id=row.id, version=row.version, seq=seq)
    if row.over or row.game_id is not None:
        reopen_live_game(s, table_id=row.id, game_id=row.game_id)
    return live


def _restore_game(s: Session, table_id: str, row: LiveTableRow, live: HeldGame) -> None:
    """After a correction or a mark: the stored game follows the table's record (taken out,
    and stored again if the game is over). A game over before and after takes the table's
    record in its place, keeping its id, where it may (finish_live_game): not taken out first,
    which would store it again under a new id."""
    over = bool(live.entries) and "result" in live.entries[-1].data
    in_place = over and row.game_id is not None
    if not in_place and (row.over or row.game_id is not None):
        reopen_live_game(s, table_id=table_id, game_id=row.game_id)
    if over:
        finish_live_game(s, table_id=table_id, game=live.record())


class Stale(Conflict):
    """The entry was made against a version of the table that is not the current one: it is
    refused (409) with the current state, rather than applied to another position."""


def _authorize(row: LiveTableRow, token: str | None) -> None:
    if not token:
        raise Unauthorized(
            "unauthorized", "this changes the table: send its writer token (Authorization: Bearer)"
        )
    if not hmac.compare_digest(token_hash(token), row.token_hash):
        raise Forbidden("forbidden", "that is not this table's writer token")


# --- the state as JSON --------------------------------------------------------------------------


def cached_state(
    table_id: str, live: HeldGame, *, viewer: int | None = None, since: int = 0
) -> dict[str, Any]:
    """The kind's `live_state`, made once per version of the game (and view): every phone at
    the table asks for the same state after each entry."""
    key = (live.version, viewer, since)
    found = live.views.get(key)
    if found is None:
        if live.views and next(iter(live.views))[0] != live.version:
            live.views.clear()
        found = live.views[key] = find_kind(live.header.kind).live_state(
            table_id, live, viewer, since
        )
    return dict(found)  # a copy of the top level: callers may add keys
