"""The importer's writer: the rows of a file's games gathered over games and written a batch at
a time (zfrec.store.importer's second pass). STORE.md, Speed, says why it writes as it does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, Table
from sqlalchemy.exc import DBAPIError, StatementError

from zfrec.store.rows import HAND_SEAT_COLUMNS, PLAY_COLUMNS
from zfrec.store.tables import GAME, HAND, HAND_SEAT, PLAY, SEAT

__all__ = ["SEAT_KEYS", "Batches"]

_BATCH = 1_000  # rows per executemany (or COPY) of seat-per-unit and play rows
_ROWS_PER_INSERT = 64  # SQLite: rows per INSERT; 64 x 14 values stay under the old limit of 999


class Batches:
    """hand_seat and play rows gathered over games, written a batch at a time: with COPY on
    PostgreSQL through psycopg (a tenth of the cost of executemany there), on SQLite with
    INSERTs of many rows each, else executemany."""

    def __init__(self, conn: Connection, *, direct: bool = True) -> None:
        self.conn = conn
        tables = ((HAND_SEAT, HAND_SEAT_COLUMNS), (PLAY, PLAY_COLUMNS))
        self.copy = conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg"
        self.sqlite = (
            direct and conn.dialect.name == "sqlite" and conn.dialect.paramstyle == "qmark"
        )
        self.sql: dict[str, str] = {}  # COPY or executemany, by table
        if not self.sqlite:  # SQLite makes INSERTs of many rows as it goes (_statement)
            make = _copy_sql if self.copy else _insert_sql
            self.sql = {t.name: make(conn, t, ("game_id", "hand_id", *c)) for t, c in tables}
        self.rows: dict[str, list[tuple[Any, ...]]] = {HAND_SEAT.name: [], PLAY.name: []}
        # SQLite: the rows' values one after the other, and the statement that inserts n rows
        self.values: dict[str, list[Any]] = {SEAT.name: [], HAND_SEAT.name: [], PLAY.name: []}
        self.columns = {
            SEAT.name: _SEAT_SQLITE,
            HAND_SEAT.name: _HAND_SEAT_SQLITE,
            PLAY.name: _PLAY_SQLITE,
            _ANNOTATED_PLAY: _ANNOTATED_PLAY_SQLITE,
            HAND.name: _HAND_SQLITE,
        }
        # the values bound per row (a column written as a constant takes none)
        self.widths = {n: sum("?" in _BIND[b] for _, b in c) for n, c in self.columns.items()}
        self.statements: dict[tuple[str, int], str] = {}
        self.next_id: dict[str, int] = {}  # SQLite: the id the next game or hand gets
        self.converters: dict[str, Callable[[Any], Any] | None] = {}  # of the game's columns
        self.cursor: Any = None  # the driver's, made at the first write through it
        self.other: dict[str, Table] = {}  # the other kinds' tables written (add_rows)

    def add(self, table: Table, game_id: int, hand_id: int, rows: list[tuple[Any, ...]]) -> None:
        if not self.sqlite:
            pending = self.rows[table.name]
            pending.extend((game_id, hand_id, *r) for r in rows)
            if len(pending) >= _BATCH:
                self.flush()
            return
        # The sqlite3 module binds None, bool and int subclasses (Cards) through its adapter
        # lookup, which costs more than the insert itself: they go as plain ints, and as a
        # stand-in that NULLIF turns back into NULL (an integer 0 in a text column, '' in an
        # integer one): the same stored values.
        values = self.values[table.name]
        put = values.extend
        if table is PLAY:
            # Most moves carry no annotation, comment or dispute: their INSERT writes those
            # columns as constants, and binds ten values instead of fourteen (an eighth of the
            # cost of storing a move). A move that has any goes in alone, in its place.
            for (
                number,
                trick,
                turn,
                seat,
                is_pass,
                cards,
                mask,
                decls,
                annotation,
                comment,
                disputed,
                note,
            ) in rows:
                plain = (
                    game_id,
                    hand_id,
                    number,
                    trick,
                    turn,
                    seat,
                    1 if is_pass else 0,
                    0 if cards is None else cards,
                    int(mask),  # a Cards, which is not quite an int to sqlite3
                    0 if decls is None else decls,
                )
                if annotation is None and comment is None and not disputed and note is None:
                    put(plain)
                    continue
                self.flush()
                rest = (
                    0 if annotation is None else annotation,
                    0 if comment is None else comment,
                    1 if disputed else 0,
                    0 if note is None else note,
                )
                self._insert_values(_ANNOTATED_PLAY, [*plain, *rest], len(plain) + len(rest))
        else:
            for seat, player, points, place, first, last in rows:
                put(
                    (
                        game_id,
                        hand_id,
                        seat,
                        player,
                        "" if points is None else points,
                        "" if place is None else place,
                        1 if first else 0,
                        1 if last else 0,
                    )
                )
        if len(values) >= _BATCH * self.widths[table.name]:
            self.flush(whole=True)

    def flush(self, *, whole: bool = False) -> None:
        """Write the rows gathered; `whole`: on SQLite, only as many as fill whole INSERTs (the
        rest waits for more), so that one statement of each length is prepared, not many."""
        if self.sqlite:
            for name, values in self.values.items():
                step = _ROWS_PER_INSERT * self.widths[name]
                end = len(values) - len(values) % step if whole else len(values)
                self._insert_values(name, values, end)
                del values[:end]
            return
        for name, pending in self.rows.items():
            if not pending:
                continue
            if self.copy:
                self._copy(self.sql[name], pending)
            else:
                self.conn.exec_driver_sql(self.sql[name], pending)
            pending.clear()

    def _insert_values(self, name: str, values: list[Any], end: int) -> None:
        # One INSERT of many rows runs SQLite's program once for all of them, where
        # executemany runs it (opening its cursors, checking its constraints' counters) per row.
        # Straight to the driver's cursor, in this transaction: SQLAlchemy's own handling of a
        # statement costs as much as SQLite's insert of its rows.
        width = self.widths[name]
        step = _ROWS_PER_INSERT * width
        cursor = self._cursor()
        for start in range(0, end, step):
            chunk = values[start : min(start + step, end)]
            sql = self._statement(name, len(chunk) // width)
            try:
                cursor.execute(sql, chunk)
            except self.conn.dialect.loaded_dbapi.Error as exc:
                raise _wrapped(self.conn, sql, exc) from exc

    def _ids(self, table: Table, count: int) -> list[int] | None:
        """SQLite: the ids SQLite would give `count` new rows of `table` (one more than the
        largest, in order: this transaction holds the write lock), or None where they would
        run out (SQLite picks other ids then)."""
        first = self.next_id.get(table.name)
        if first is None:
            largest = self.conn.exec_driver_sql(f"SELECT max(id) FROM {table.name}").scalar()
            first = int(largest or 0) + 1
        if first + count > _LARGEST_ID:
            return None
        self.next_id[table.name] = first + count
        return list(range(first, first + count))

    def insert_game(self, values: dict[str, Any]) -> int | None:
        """SQLite: insert a game's row straight to the driver, each value converted by its
        column's type as SQLAlchemy converts it (JSON to text, the time to its text); its id,
        or None where the ids would run out."""
        ids = self._ids(GAME, 1)
        if ids is None:
            return None
        row: list[Any] = ids
        for name, value in values.items():
            if name not in self.converters:
                kind = GAME.c[name].type.dialect_impl(self.conn.dialect)  # SQLite's own
                self.converters[name] = kind.bind_processor(self.conn.dialect)
            convert = self.converters[name]
            row.append(value if convert is None else convert(value))
        name = f"game ({', '.join(values)})"
        if name not in self.columns:
            self.columns[name] = (("id", "?"), *((c, "?") for c in values))
            self.widths[name] = len(self.columns[name])
        self._insert_values(name, row, len(row))
        return ids[0]

    def add_seats(self, game_id: int, seats: list[tuple[int, int, str, int | None, bool]]) -> None:
        """SQLite: a game's seats, (seat, player id, name, score, winner), written in a batch."""
        put = self.values[SEAT.name].extend
        for seat, player, name, score, winner in seats:
            put((game_id, seat, player, name, "" if score is None else score, 1 if winner else 0))

    def insert_hands(self, game_id: int, hands: list[dict[str, Any]]) -> list[int] | None:
        """SQLite: insert a game's hands, in INSERTs of many rows; their ids, or None (_ids)."""
        ids = self._ids(HAND, len(hands))
        if ids is None:
            return None
        values: list[Any] = []
        put = values.extend
        for hand_id, h in zip(ids, hands, strict=True):
            put(
                (
                    hand_id,
                    game_id,
                    h["number"],
                    _or_blank(h["shuffler"]),
                    _or_blank(h["first"]),
                    _or_blank(h["last"]),
                    1 if h["finished"] else 0,
                    1 if h["reconstructed"] else 0,
                    _or_blank(h["transfer_points"]),
                )
            )
        self._insert_values(HAND.name, values, len(values))
        return ids

    # the rows of a kind whose tables are not Zheng Fen's (zfrec.store.rows.Layout): every
    # value bound as it is, without the stand-ins above; COPY on PostgreSQL as for the others

    def add_rows(
        self,
        table: Table,
        columns: Sequence[str],
        game_id: int,
        unit_id: int,
        rows: list[tuple[Any, ...]],
    ) -> None:
        """Rows of `table` that follow `game_id` and `unit_id` with `columns` (those two
        first), gathered and written a batch at a time."""
        name = table.name
        if name not in self.other:
            self.other[name] = table
            if self.sqlite:
                self.columns[name] = tuple((c, "?") for c in columns)
                self.widths[name] = len(columns)
                self.values[name] = []
            else:
                self.rows[name] = []
                make = _copy_sql if self.copy else _insert_sql
                self.sql[name] = make(self.conn, table, columns)
        if not self.sqlite:
            pending = self.rows[name]
            pending.extend((game_id, unit_id, *r) for r in rows)
            if len(pending) >= _BATCH:
                self.flush()
            return
        values = self.values[name]
        put = values.extend
        for r in rows:
            put((game_id, unit_id, *r))
        if len(values) >= _BATCH * self.widths[name]:
            self.flush(whole=True)

    def insert_units(
        self, table: Table, game_id: int, units: list[dict[str, Any]]
    ) -> list[int] | None:
        """SQLite: insert a game's rows of `table` (its hands or rounds: dicts by column, the
        same columns each), in INSERTs of many rows; their ids, or None (_ids)."""
        ids = self._ids(table, len(units))
        if ids is None or not units:
            return ids
        keys = list(units[0])
        name = f"{table.name} ({', '.join(keys)})"
        if name not in self.columns:
            self.other[name] = table
            self.columns[name] = (("id", "?"), ("game_id", "?"), *((c, "?") for c in keys))
            self.widths[name] = len(self.columns[name])
        values: list[Any] = []
        put = values.extend
        for unit_id, u in zip(ids, units, strict=True):
            put((unit_id, game_id, *u.values()))
        self._insert_values(name, values, len(values))
        return ids

    def _statement(self, name: str, rows: int) -> str:
        sql = self.statements.get((name, rows))
        if sql is None:
            tables = {PLAY.name: PLAY, _ANNOTATED_PLAY: PLAY, HAND_SEAT.name: HAND_SEAT}
            tables.update({SEAT.name: SEAT, HAND.name: HAND})
            tables.update(self.other)
            table = tables.get(name, GAME)
            sql = _insert_sql(self.conn, table, self.columns[name], rows)
            self.statements[name, rows] = sql
        return sql

    def _cursor(self) -> Any:
        if self.cursor is None:
            dbapi: Any = self.conn.connection.dbapi_connection  # the transaction's own
            self.cursor = dbapi.cursor()
        return self.cursor

    def close(self) -> None:
        """Close the driver's cursor, once everything is flushed."""
        if self.cursor is not None:
            self.cursor.close()
            self.cursor = None

    def _copy(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        try:
            with self._cursor().copy(sql) as copy:
                for row in rows:
                    copy.write_row(row)
        except self.conn.dialect.loaded_dbapi.Error as exc:
            raise _wrapped(self.conn, sql, exc) from exc


def _wrapped(conn: Connection, sql: str, exc: Exception) -> StatementError:
    """A driver's error as SQLAlchemy words it, so that a clash is retried like any other; a
    connection lost under it (the dialect's test) is invalidated, as SQLAlchemy does for its
    own statements, so that the rollback and a retry take a new one."""
    dbapi: Any = conn.connection.dbapi_connection
    error: Any = exc  # the driver's Error, which `except` above caught
    lost = conn.dialect.is_disconnect(error, dbapi, None)
    if lost:
        conn.invalidate(exc)
    return DBAPIError.instance(
        sql, None, exc, conn.dialect.loaded_dbapi.Error, connection_invalidated=lost
    )


# SQLite's columns with the value each is bound as: "?" as it is, "text" and "int" with the
# stand-in for NULL that Batches.add puts in place of None (see there).
_PLAY_SQLITE = (
    ("game_id", "?"), ("hand_id", "?"), ("hand_number", "?"), ("trick", "?"), ("turn", "?"),
    ("seat", "?"), ("is_pass", "?"), ("cards", "text"), ("mask", "?"), ("declarations", "text"),
    ("annotation", "NULL"), ("comment", "NULL"), ("disputed", "0"), ("dispute_note", "NULL"),
)  # fmt: skip
_ANNOTATED_PLAY = "play, annotated"  # a move with an annotation, comment or dispute
_ANNOTATED_PLAY_SQLITE = (
    *_PLAY_SQLITE[:-4],
    ("annotation", "text"), ("comment", "text"), ("disputed", "?"), ("dispute_note", "text"),
)  # fmt: skip
SEAT_KEYS = ("game_id", "seat", "player_id", "name", "score", "winner")
_SEAT_SQLITE = (
    ("game_id", "?"), ("seat", "?"), ("player_id", "?"), ("name", "?"), ("score", "int"),
    ("winner", "?"),
)  # fmt: skip
_HAND_SEAT_SQLITE = (
    ("game_id", "?"), ("hand_id", "?"), ("seat", "?"), ("player_id", "?"), ("points", "int"),
    ("place", "int"), ("is_first", "?"), ("is_last", "?"),
)  # fmt: skip
_HAND_SQLITE = (
    ("id", "?"), ("game_id", "?"), ("number", "?"), ("shuffler", "int"), ("first", "int"),
    ("last", "int"), ("finished", "?"), ("reconstructed", "?"), ("transfer_points", "int"),
)  # fmt: skip
_BIND = {"?": "?", "text": "NULLIF(?, 0)", "int": "NULLIF(?, '')", "NULL": "NULL", "0": "0"}
_LARGEST_ID = 2**63 - 1  # SQLite's largest rowid


def _or_blank(value: int | None) -> int | str:
    return "" if value is None else value


def _insert_sql(
    conn: Connection,
    table: Table,
    columns: Sequence[str] | Sequence[tuple[str, str]],
    rows: int = 1,
) -> str:
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    quote = conn.dialect.identifier_preparer.quote
    named = [(c, mark) if isinstance(c, str) else (c[0], _BIND[c[1]]) for c in columns]
    names = ", ".join(quote(c) for c, _ in named)
    row = "(" + ", ".join(m for _, m in named) + ")"
    return f"INSERT INTO {quote(table.name)} ({names}) VALUES {', '.join([row] * rows)}"


def _copy_sql(conn: Connection, table: Table, columns: Sequence[str]) -> str:
    quote = conn.dialect.identifier_preparer.quote
    return f"COPY {quote(table.name)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
