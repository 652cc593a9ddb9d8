"""`zfrec render` and `zfrec publish`: replay pages, game pages and a static site."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from zfrec.cli.common import (
    JSON_HELP,
    RECORD_SUFFIXES,
    err,
    fail,
    file_problem,
    friendly_errors,
    json_on_failure,
    out,
    print_json,
    refused,
)
from zfrec.errors import ZfrecError, processing
from zfrec.record import Game, load

# Within the budget of a publish: about 20 ms a hand at 10 cards (60 ms at 12).
SOLVE_CARDS = 10
SolveCardsOption = Annotated[
    int,
    typer.Option(
        "--solve-cards",
        min=0,
        help="Ask the hindsight solver about every position with at most this many cards "
        "left: what each decision cost, and a 'perfect play from here' table at each step "
        "(0: never; about 20 ms a hand at 10 cards, 60 ms at 12).",
    ),
]

if TYPE_CHECKING:
    from zfrec.cli.site_writer import SiteWriter
    from zfrec.render.site import OutputFile
    from zfrec.store.store import GameRow

DB_HELP = "Database URL or SQLite path (default: $ZFREC_DB, else ./zfrec.db)."


GENERATOR = b'<meta name="generator" content="zfrec">'  # in every page zfrec writes


def _ours(page: Path) -> bool:
    """Whether `page` is a page zfrec wrote (its generator line, near the top)."""
    try:
        with page.open("rb") as f:
            return GENERATOR in f.read(4096)
    except OSError:
        return False


def check_out_dir(out_dir: Path, force: bool) -> None:
    """Refuse an `--out` that is a file, or a folder that holds files and no zfrec pages (its
    index.html, or the first game's, is not zfrec's): a render there would overwrite a user's
    files. `--force` writes there all the same."""
    if out_dir.exists() and not out_dir.is_dir():
        fail(f"--out {out_dir} is a file: give a folder for the pages (it is made if needed)")
    if force or not out_dir.is_dir() or not any(out_dir.iterdir()):
        return
    if _ours(out_dir / "index.html") or _ours(out_dir / "game-1" / "index.html"):
        return
    fail(
        f"--out {out_dir} is not empty and holds no pages zfrec wrote: a render there could "
        "overwrite its files; give a new or empty folder, or --force to write there all the same"
    )


def write_files(root: Path, files: Iterable[OutputFile]) -> int:
    """Write OutputFiles under `root`; the only place the renderer's output touches disk.
    Each file is written whole or not at all (a temporary file renamed into place). Gives the
    number of files written, each counted once."""
    written: set[Path] = set()
    resolved = root.resolve()
    for f in files:
        target = (root / f.path).resolve()
        if resolved not in target.parents:
            fail(f"refusing to write outside {root}: {f.path}")
        temp = target.with_name(f".{target.name}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(f.content)
            os.replace(temp, target)
        except OSError as exc:
            temp.unlink(missing_ok=True)
            fail(file_problem(str(target), exc, "write"))
        written.add(target)
    return len(written)


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
    solve_cards: SolveCardsOption = SOLVE_CARDS,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Write into a folder that holds other files (by default a render refuses a "
            "folder with files and no pages zfrec wrote, rather than overwrite them).",
        ),
    ] = False,
) -> None:
    """Render a game: its page (index.html) with charts and the decision analysis, and one
    replay page per hand with missed beats and conceded counters marked at their moves. A
    record that fails validation also gets an audit page (audit.html), except in a seat's view.

    Each page is a single self-contained HTML file (CSS and script inline, no external
    requests) that works offline. A file with several games gets one directory per game.
    Replays are hand-N.html; a hand number the record writes again gets a page of its own,
    hand-N-2.html for the second hand N (said in a note line).

    Sheng ji records get a replay page per round (round-N.html), with the solver's ?/?? marks
    where --solve-cards reaches, charts of the points and the level ladder, and the audit page
    of a failing record; no decision analysis yet (zfrec analyze gives it; RENDER.md, Sheng ji).
    """
    from zfrec.games import KINDS, find_kind
    from zfrec.record.seatrefs import seat_named
    from zfrec.render.gamefiles import (
        AUDIT_PAGE,
        VIEWER_PAGE,
        parse_replay_page,
        render_game_files,
        repeats_line,
    )

    games, label = _records(source, db)
    check_out_dir(out_dir, force)
    total = 0
    for number, game in enumerate(games, 1):
        viewer = None
        if seat is not None:
            try:
                viewer = seat_named(game.players, seat)  # with the names it may mean
            except ZfrecError as exc:
                fail(f"{label}, game {number}: {exc}" if len(games) > 1 else str(exc))
        target = out_dir if len(games) == 1 else out_dir / f"game-{number}"
        try:
            with processing(label):
                made = render_game_files(
                    game, viewer=viewer, audit=True, viewer_href=VIEWER_PAGE,
                    solve_cards=solve_cards,
                )  # fmt: skip
            files = made.files
            for name in KINDS:  # Zheng Fen's viewer.html
                files.extend(find_kind(name).shared_files())
        except ZfrecError as exc:
            fail(f"{label}, game {number}: {exc}")
        total += write_files(target, files)
        unit = find_kind(game.kind).unit  # "hand", or Sheng ji's "round"
        # the pages written, each once (a page written twice would count as one file)
        pages = {f.path for f in files}
        hands = sum((parse_replay_page(p) or ("",))[0] == unit for p in pages)
        audited = AUDIT_PAGE in pages
        audit_note = f", audit page {AUDIT_PAGE}" if audited else ""
        out.print(f"{target / 'index.html'}  ({hands} {unit} replay(s){audit_note})", markup=False)
        if made.meta.repeated:
            out.print(f"note: {repeats_line(unit, made.meta.repeated)}", markup=False)
    out.print(f"wrote {total} file(s) to {out_dir}", markup=False)


@json_on_failure(refused)
def publish_cmd(
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Directory for the site.")],
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    title: Annotated[
        str | None,
        typer.Option(
            "--title",
            help="Title of the index page (by default the games': 'Zheng Fen games', "
            "'Sheng ji games', or 'Zheng Fen and Sheng ji games').",
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", "-j", min=0, help="Worker processes rendering games; 0: one per CPU."
        ),
    ] = 1,
    solve_cards: SolveCardsOption = SOLVE_CARDS,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Build a static site from the store: an index of games with search and filters, game
    pages with the decision analysis, hand replays, audit pages of the records that fail
    validation, player pages, and a single-file viewer for shared hands. All links are relative.

    Incremental: a game whose record, zfrec version and options are unchanged keeps its files
    from the previous site (or from the store) and is not rendered again. Atomic: the site is
    written into a new folder beside OUT and swapped in at the end, so an interrupted publish
    leaves the previous site whole. Progress per game goes to stderr on a terminal.
    """
    import time

    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from zfrec.cli.site_writer import SiteWriter
    from zfrec.render.gamefiles import parse_replay_page
    from zfrec.render.site import cpu_count, publish
    from zfrec.store.db import open_store, session
    from zfrec.store.faults import require_writable
    from zfrec.store.store import list_games

    started = time.perf_counter()
    workers = jobs or cpu_count()
    counts = {"games": 0, "rendered": 0, "unchanged": 0, "hands": 0}
    notices: list[str] = []
    repeated: list[dict[str, object]] = []  # the games whose hand (round) numbers repeat
    progress = Progress(
        TextColumn("publishing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("{task.description}"), console=err, transient=True,
        disable=not err.is_terminal,
    )  # fmt: skip

    def notice(text: str) -> None:
        if text not in notices:
            notices.append(text)
            progress.console.print(f"note: {escape(text)}", markup=True, highlight=False)

    with friendly_errors():
        engine = open_store(db, create=False, writes=True)
        total: int | None = None
        writer = SiteWriter(out_dir)
        try:
            with session(engine) as s, writer, progress:
                require_writable(s, "publish keeps the pages it renders in the store")
                total = len(list_games(s))
                task = progress.add_task("", total=total)
                previous = writer.previous()

                def on_game(row: GameRow, cached: bool) -> None:
                    counts["games"] += 1
                    counts["rendered"] += not cached
                    counts["hands"] += row.hands
                    reused = row.id in previous and cached
                    counts["unchanged"] += reused
                    how = "unchanged" if reused else "from the store" if cached else "rendered"
                    progress.update(task, description=f"game {row.id}: {how}")
                    progress.advance(task)

                def on_repeats(row: GameRow, pages: dict[int, tuple[str, ...]]) -> None:
                    first = next(iter(pages.values()))[0]
                    unit = (parse_replay_page(first) or ("hand",))[0]
                    repeated.append({"game": row.id, "unit": unit, "pages": {
                        str(n): list(p) for n, p in pages.items()}})  # fmt: skip

                for item in publish(
                    s, title=title, on_game=on_game, jobs=workers, previous=previous,
                    on_notice=notice, solve_cards=solve_cards, on_repeats=on_repeats,
                ):  # fmt: skip
                    writer.put(item)
                writer.commit()
            # the summary too: a Ctrl-C while it is written finds the new site in place
            seconds = time.perf_counter() - started
            _say_published(as_json, out_dir, writer, counts, notices, repeated, seconds)
        except KeyboardInterrupt:
            of = "" if total is None else f" of {total}"
            if writer.done:  # the Ctrl-C came once the new site was in place (held meanwhile)
                err.print(
                    f"interrupted once the new site was put in place: {out_dir} is the whole "
                    f"new site; {counts['games']}{of} game(s) done"
                )
                raise typer.Exit(130) from None
            err.print(
                f"interrupted: {out_dir} was left as it was (nothing of this publish was put in "
                f"place); {counts['games']}{of} game(s) done, the pages rendered up to the last "
                "second kept in the store for the next publish"
            )
            raise typer.Exit(130) from None
        finally:
            engine.dispose()


def _say_published(
    as_json: bool,
    out_dir: Path,
    writer: SiteWriter,
    counts: dict[str, int],
    notices: list[str],
    repeated: list[dict[str, object]],
    seconds: float,
) -> None:
    """The summary of a publish whose site is in place (JSON, or lines in words)."""
    from zfrec.render.gamefiles import repeats_line

    index = (out_dir / "index.html").resolve()
    if as_json:
        print_json(
            {
                "games": counts["games"],
                "hands": counts["hands"],
                "rendered": counts["rendered"],
                "from_store": counts["games"] - counts["rendered"],
                "unchanged": counts["unchanged"],
                "files_written": writer.written,
                "files_reused": writer.reused,
                "notices": notices,
                "index": str(index),
                "seconds": round(seconds, 3),
                "repeated": repeated,
            }
        )
        return
    from_store = counts["games"] - counts["rendered"]
    unchanged = f" ({counts['unchanged']} unchanged in the site)" if counts["unchanged"] else ""
    out.print(
        f"{counts['games']} game(s), {counts['rendered']} rendered, {from_store} from the store"
        f"{unchanged}; {writer.written} file(s) written, {writer.reused} kept, in {seconds:.1f} s"
    )
    for game in repeated:  # every hand has its page: say which pages a repeated number has
        pages = {int(n): tuple(p) for n, p in game["pages"].items()}  # type: ignore[attr-defined]
        prefix = f"games/{game['game']}/"
        named = {n: tuple(prefix + x for x in p) for n, p in pages.items()}
        out.print(f"note: game {game['game']}: {repeats_line(str(game['unit']), named)}",
                  markup=False)  # fmt: skip
    out.print(f"open {index}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("render")(render_cmd)
    app.command("publish")(publish_cmd)
