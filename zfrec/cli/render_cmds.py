"""`zfrec render` and `zfrec publish`: replay pages, game pages and a static site."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from zfrec.cli.common import fail, file_problem, friendly_errors, out
from zfrec.errors import ZfrecError, processing
from zfrec.record import Game, load

if TYPE_CHECKING:
    from zfrec.render.site import OutputFile

DB_HELP = "Database URL or SQLite path (default: $ZFREC_DB, else ./zfrec.db)."
RECORD_SUFFIXES = (".zfn", ".json")


def write_files(root: Path, files: Iterable[OutputFile]) -> int:
    """Write OutputFiles under `root`; the only place the renderer's output touches disk."""
    count = 0
    resolved = root.resolve()
    for f in files:
        target = (root / f.path).resolve()
        if resolved not in target.parents:
            fail(f"refusing to write outside {root}: {f.path}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(f.content)
        except OSError as exc:
            fail(file_problem(str(target), exc, "write"))
        count += 1
    return count


def _records(source: str, db: str | None) -> tuple[list[Game], str]:
    """The games named on the command line: a record file's, or one stored game's."""
    path = Path(source)
    if path.is_dir():
        fail(f"{source} is a directory: give a record file or a stored game's id")
    if path.exists():
        with friendly_errors(source):
            games = list(load(path))
        if not games:
            fail(f"{source} holds no game")
        return games, str(path)
    if path.suffix.lower() in RECORD_SUFFIXES or "/" in source or "\\" in source:
        fail(f"no such file: {source}")
    if not source.strip().isdecimal():
        fail(f"{source!r} is neither a record file (.zfn, .json) nor a stored game id")
    from zfrec.render.site import find_game
    from zfrec.store.db import open_store, session
    from zfrec.store.store import load_record

    with friendly_errors():
        engine = open_store(db, create=False)
        try:
            with session(engine, readonly=True) as s:
                row = find_game(s, source)
                return [load_record(s, row.id)], f"game {row.id}"
        finally:
            engine.dispose()


def render_cmd(
    source: Annotated[
        str,
        typer.Argument(
            metavar="RECORD_OR_GAME_ID", help="A .zfn or .json record, or a stored game's id."
        ),
    ],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Directory to write the pages to.")],
    seat: Annotated[
        str | None,
        typer.Option("--seat", help="Render what this player saw: their own hand and the plays."),
    ] = None,
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
) -> None:
    """Render a game: its page (index.html) with charts and the decision analysis, and one
    replay page per hand with missed beats and conceded counters marked at their moves. A
    record that fails validation also gets an audit page (audit.html), except in a seat's view.

    Each page is a single self-contained HTML file (CSS and script inline, no external
    requests) that works offline. A file with several games gets one directory per game.
    """
    from zfrec.render.analysis import AUDIT_PAGE
    from zfrec.render.site import game_files

    games, label = _records(source, db)
    total = 0
    for number, game in enumerate(games, 1):
        viewer = None
        if seat is not None:
            try:
                viewer = game.seat_of(seat)
            except ZfrecError as exc:
                fail(f"{label}, game {number}: {exc}" if len(games) > 1 else str(exc))
        target = out_dir if len(games) == 1 else out_dir / f"game-{number}"
        try:
            with processing(label):
                files = game_files(game, viewer=viewer, audit=True)
        except ZfrecError as exc:
            fail(f"{label}, game {number}: {exc}")
        total += write_files(target, files)
        hands = sum(f.path.startswith("hand-") for f in files)
        audited = any(f.path == AUDIT_PAGE for f in files)
        audit_note = f", audit page {AUDIT_PAGE}" if audited else ""
        out.print(f"{target / 'index.html'}  ({hands} hand replay(s){audit_note})", markup=False)
    out.print(f"wrote {total} file(s) to {out_dir}", markup=False)


def publish_cmd(
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Directory for the site.")],
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    title: Annotated[str, typer.Option("--title", help="Title of the index page.")] = (
        "Zheng Fen games"
    ),
) -> None:
    """Build a static site from the store: an index of games, game pages with the decision
    analysis, hand replays, audit pages of the records that fail validation, and player pages.
    All links are relative. Pages of unchanged games come from the store."""
    from zfrec.render.site import publish
    from zfrec.store.db import open_store, session

    counts = {"games": 0, "rendered": 0}

    def progress(_row: object, cached: bool) -> None:
        counts["games"] += 1
        counts["rendered"] += not cached

    with friendly_errors():
        engine = open_store(db, create=False)
        try:
            with session(engine) as s:
                written = write_files(out_dir, publish(s, title=title, on_game=progress))
        finally:
            engine.dispose()
    out.print(
        f"{counts['games']} game(s), {counts['rendered']} rendered, "
        f"{counts['games'] - counts['rendered']} from the store; {written} file(s) written"
    )
    out.print(f"open {(out_dir / 'index.html').resolve()}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("render")(render_cmd)
    app.command("publish")(publish_cmd)
