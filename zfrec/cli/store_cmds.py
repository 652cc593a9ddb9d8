"""`zfrec games`, `show`, `unreadable`, `stats`, `export`: the store read from the command
line; `import` and `delete`, which write it, are zfrec.cli.import_cmds', registered here too.

The store (SQLAlchemy, Alembic) is imported inside the commands, so other commands start fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.markup import escape
from rich.table import Table

from zfrec.cli.common import (
    err,
    fail,
    file_problem,
    json_on_failure,
    kinds_titles,
    other_kinds_hint,
    out,
    plural,
    print_json,
    refused,
)
from zfrec.cli.import_cmds import delete_cmd, import_cmd
from zfrec.cli.simulate_cmds import write_atomic
from zfrec.cli.store_common import (
    DbOption,
    GameIdArgument,
    JsonOption,
    PlayerOption,
    opened_store,
)
from zfrec.games import find_kind, kind_problem
from zfrec.numbering import occurrences, repeat_suffix

if TYPE_CHECKING:
    from rich.console import JustifyMethod

    from zfrec.games.zhengfen.analysis.analyze import FlowRow
    from zfrec.record import Format
    from zfrec.store import GameDetail, PlayerStats

__all__ = ["DbOption", "register"]


@json_on_failure(refused)
def games_cmd(
    player: PlayerOption = None,
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", help="Only games of this game: zhengfen or shengji."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the stored games: id, date, event, players, winners, hands, validity; with games
    of both kinds, the game of each."""
    from zfrec.store import list_games, session, unreadable_diagnostics

    if game is not None and (problem := kind_problem(game)) is not None:
        fail(problem)
    with opened_store(db, create=False) as engine, session(engine, readonly=True) as s:
        rows = list_games(s, player=player)
        unreadable = [] if player or game else unreadable_diagnostics(s)
    if game is not None:
        rows = [r for r in rows if r.kind == find_kind(game).name]
    if as_json:
        print_json([r.to_json() for r in rows])
        return
    if not rows:
        which = f" of {find_kind(game).title}" if game is not None else ""
        out.print(f"no games{which} stored" + (f" with {player}" if player else ""), markup=False)
        _unreadable_note(unreadable)
        return
    # The hands column in the games' own word (GameKind.unit): `rounds` for Sheng ji; games of
    # several kinds name it in each row.
    units = {r.kind: find_kind(r.kind).unit for r in rows}
    one = len(set(units.values())) == 1
    played = f"{next(iter(units.values()))}s" if one else "played"
    table = Table(box=None, header_style="bold", pad_edge=False)
    # The names are never cut inside (`Tom Wu` at a line's end): the lists are wrapped between
    # names here, each line at most `width` cells, and a name wider than that ends in `…`.
    kinds = len(units) > 1  # games of both kinds: a column names each one's game
    width = _names_width(rows, played, kinds)
    for name in ("id", *(("game",) if kinds else ()), "date", "event", "players", "winners",
                 played, "valid"):  # fmt: skip
        justify: JustifyMethod = "right" if name in ("id", played) else "left"
        if name in ("players", "winners"):
            table.add_column(name, justify=justify, no_wrap=True, max_width=width)
        else:
            table.add_column(name, justify=justify)
    for r in rows:
        valid = "yes" if r.valid else f"[red]no ({r.errors} error(s))[/]"
        table.add_row(
            str(r.id),
            *((find_kind(r.kind).title,) if kinds else ()),
            escape(r.date or ""),
            escape(r.event or ""),
            escape(names_lines(r.players, width)),
            escape(names_lines(r.winners, width)),
            str(r.hands) if one else plural(r.hands, units[r.kind]),
            valid,
        )
    out.print(table)
    out.print(f"{len(rows)} game(s)")
    _unreadable_note(unreadable)


def _names_width(rows: Sequence[Any], played: str, kinds: bool = False) -> int:
    """The widest line of a players' or winners' list: the whole list where the line has room
    for both lists and the event; else the console's width left by the other columns, shared
    by the two lists and the event, and at least the widest name where it fits."""
    fixed = max(len(str(r.id)) for r in rows) + 10 + len(played) + 2 * 7  # id, date, the gaps
    fixed += max(cell_len("yes" if r.valid else f"no ({r.errors} error(s))") for r in rows)
    if kinds:  # the game column, and its gap
        fixed += max(cell_len(find_kind(r.kind).title) for r in rows) + 2
    whole = [max(7, *(cell_len(", ".join(r.players)) for r in rows))]
    whole.append(max(7, *(cell_len(", ".join(r.winners)) for r in rows)))
    event = max(5, *(cell_len(r.event or "") for r in rows))
    if sum(whole) + event <= out.width - fixed:
        return max(whole)  # nothing to wrap
    share = max((out.width - fixed) // 3, 8)
    widest = max((cell_len(n) for r in rows for n in (*r.players, *r.winners)), default=1)
    return max(share, min(widest + 1, 2 * share))


def names_lines(names: Sequence[str], width: int) -> str:
    """`names` joined by `, `, wrapped between names into lines of at most `width` cells (a
    name wider than that alone on its line).

    >>> print(names_lines(["张伟", "陈静", "李强", "Tom Wu"], 14))
    张伟, 陈静,
    李强, Tom Wu
    """
    lines: list[str] = []
    line = ""
    for i, name in enumerate(names):
        piece = name + ("," if i < len(names) - 1 else "")
        joined = f"{line} {piece}" if line else piece
        if line and cell_len(joined) > width:
            lines.append(line)
            line = piece
        else:
            line = joined
    if line:
        lines.append(line)
    return "\n".join(lines)


def _lost_games(found: list[dict[str, Any]]) -> int:
    """How many games the unreadable findings `found` are of: a game's findings are those
    read past before the error that lost it, and that error."""
    games = {(d["source"], d["game"]) for d in found if d["game"] is not None}
    return len(games) + sum(d["game"] is None for d in found)


def _unreadable_note(found: list[dict[str, Any]]) -> None:
    if found:
        files = len({d["source"] for d in found})
        out.print(
            f"{plural(_lost_games(found), 'game')} in {plural(files, 'file')} could not be read "
            "(not stored): zfrec unreadable shows why"
        )


@json_on_failure(refused)
def unreadable_cmd(
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="Only the games of this imported file.")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show why games could not be read when they were imported: file, line, column and the
    reader's message, as `zfrec import` stored them. These games are not in the store.

    Exit 0 (whether or not there are any), 2 on a store that does not exist.
    """
    from zfrec.store import session, unreadable_diagnostics

    source = str(file.resolve()) if file is not None else None
    with opened_store(db, create=False) as engine, session(engine, readonly=True) as s:
        found = unreadable_diagnostics(s, source=source)
    if as_json:
        print_json(found)
        return
    if not found:
        out.print("no unreadable games stored" + (f" from {file}" if file else ""), markup=False)
        return
    shown = None
    for d in found:
        if d["source"] != shown:
            shown = d["source"]
            out.print(f"[bold]{escape(d['source'])}[/]", markup=True)
        where = ":".join(str(d[k]) for k in ("line", "col") if d[k] is not None) or "-"
        head, *excerpt = d["message"].split("\n")
        game = f"game {d['game']}" if d["game"] is not None else ""
        out.print(f"  {game:<8} {where:>7} {d['code']} {escape(head)}")
        for line in excerpt:
            out.print(f"  {'':<8} {'':>7} {escape(line)}")
    files = len({d["source"] for d in found})
    out.print(f"{plural(_lost_games(found), 'unreadable game')} in {plural(files, 'file')}")


@json_on_failure(refused)
def show_cmd(
    game_id: GameIdArgument,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one stored game: tags, rules, players and scores, every hand, the diagnostics,
    and the points flow by trick (the running scores as the counters fall).

    A Sheng ji match: a line per round (dealer, trump, the opponents' points, the kitty, the
    level change, the next dealer and each seat's level, * for the declarers), the winners and
    the diagnostics.

    The files that hold the game are named as `zfrec delete` names them (`files`)."""
    from zfrec.games import find_kind
    from zfrec.games.zhengfen.analysis.analyze import analyze_game
    from zfrec.store import get_game, load_record, session
    from zfrec.store.correct import game_sources

    with opened_store(db, create=False) as engine, session(engine, readonly=True) as s:
        detail = get_game(s, game_id=game_id)
        record = load_record(s, game_id)
        files = game_sources(s, game_id=game_id)
    held = {"files": [{"path": p, "position": n} for p, n in files]}
    if detail.rounds is not None:  # a kind with rows of its own (Sheng ji's rounds)
        if as_json:
            print_json(detail.to_json() | held)
        else:
            _print_detail(detail, files)
        return
    assert find_kind(detail.kind).analysed
    flow = analyze_game(record, alternatives=False).points_flow()
    if as_json:
        print_json(
            detail.to_json() | held | {"points_flow": [r.to_json(record.players) for r in flow]}
        )
    else:
        _print_detail(detail, files)
        _print_flow(flow, record.players)


def _print_detail(d: GameDetail, files: list[tuple[str, int]]) -> None:
    from zfrec.games import find_kind

    r = d.row
    targeted = find_kind(d.kind).default_target is not None  # a game played to a score
    out.print(f"[bold]game {r.id}[/]  {escape(r.event or '')}", markup=True)
    for label, value in (
        ("date", r.date),
        ("site", d.site),
        *((name, value) for name, value in d.tags),
        ("rules", d.preset + "".join(f" {k}={v}" for k, v in d.options.items())),
        ("target", str(d.target) if targeted else None),
        # the files that hold it now, as `delete` names them (`source_path` is the first seen)
        *(("file", f"{path} (game {number})") for path, number in files),
        ("hash", r.content_hash),
    ):
        if value:
            out.print(f"  {label:<8} {escape(str(value))}")
    status = "valid" if r.valid else f"[red]{r.errors} error(s)[/]"
    out.print(f"  {'status':<8} {status}, {d.warnings} warning(s)", markup=True)
    if d.rounds is not None:
        columns = d.rounds.columns
        _print_rows(columns, d.rounds.rows(), right=(0, 3, *range(7, len(columns))))
        if r.winners:
            out.print(f"winner: {escape(', '.join(r.winners))}")
        _print_diagnostics(d)
        return
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("hand", justify="right")
    table.add_column("shuffler")
    table.add_column("first")
    table.add_column("last")
    for name in r.players:
        table.add_column(escape(name), justify="right")
    occurs = occurrences([h.number for h in d.hands])  # `1 (2nd)` where a number repeats
    for h, occurrence in zip(d.hands, occurs, strict=True):
        points = ["-" if p is None else str(p) for p in h.points] or ["-"] * len(r.players)
        said = f"{h.number}{repeat_suffix(occurrence)}"
        table.add_row(
            said, escape(h.shuffler or "-"), escape(h.first or "-"), escape(h.last or "-"),
            *points,
        )  # fmt: skip
    table.add_row(
        "total", "", "", "", *("-" if v is None else str(v) for v in d.scores), style="bold"
    )
    out.print(table)
    if r.winners:
        out.print(f"winner: {escape(', '.join(r.winners))}")
    _print_diagnostics(d)


def _print_rows(
    columns: Sequence[str], rows: list[list[str]], right: Sequence[int], title: str | None = None
) -> None:
    """A table of text cells; `right`: the columns aligned right besides those of seats."""
    table = Table(
        box=None, header_style="bold", pad_edge=False, title=title, title_justify="left",
        title_style="bold",
    )  # fmt: skip
    for i, name in enumerate(columns):
        table.add_column(escape(name), justify="right" if i in right else "left")
    for row in rows:
        table.add_row(*(escape(c) for c in row))
    out.print(table)


def _print_diagnostics(d: GameDetail) -> None:
    for diag in d.diagnostics:
        where = ":".join(str(diag[k]) for k in ("line", "col") if diag[k] is not None) or "-"
        out.print(f"  {where:>7} {diag['severity']} {diag['code']} {escape(diag['message'])}")


def _print_flow(flow: list[FlowRow], players: list[str]) -> None:
    """The points flow, without the tricks that held no counter (the JSON has every trick)."""
    rows = [r for r in flow if r.points or r.kind == "transfer"]
    if not rows:
        return
    table = Table(
        box=None, header_style="bold", pad_edge=False, title="points flow by trick",
        title_justify="left", title_style="bold",
    )  # fmt: skip
    for name in ("hand", "trick"):
        table.add_column(name, justify="right")
    table.add_column("to")
    table.add_column("points", justify="right")
    for name in players:
        table.add_column(escape(name), justify="right")
    for r in rows:
        trick = "transfer" if r.trick is None else str(r.trick)
        to = (
            players[r.seat]
            if r.from_seat is None
            else f"{players[r.from_seat]} → {players[r.seat]}"
        )
        table.add_row(str(r.hand), trick, escape(to), f"+{r.points}", *map(str, r.scores))
    out.print()
    out.print(table)
    skipped = len(flow) - len(rows)
    if skipped:
        out.print(f"{skipped} trick(s) without counters not shown; --json lists every trick")


@json_on_failure(refused)
def stats_cmd(
    player: Annotated[str | None, typer.Option("--player", "-p", help="Only this player.")] = None,
    valid_only: Annotated[
        bool, typer.Option("--valid-only", help="Count only games without errors.")
    ] = False,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            help="Only the games of this kind (zhengfen, shengji); --json "
            "gives one kind's players, Zheng Fen's unless this names another.",
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Per player: games, hands, wins, win rate, mean points per hand, first-out and last
    rates; then, from the decision analysis of every stored record: counters captured and
    conceded, missed beats per hand and the categories played.

    Points and rates are over finished hands, as the rules compute them; the win rate is over
    the games that reached the target. Sheng ji matches have a table of their own: rounds as
    declarers and held, as opponents, the opponents' points and the levels gained.
    """
    from zfrec.games import DEFAULT_KIND, UnknownKindError, find_kind
    from zfrec.store import player_stats, session
    from zfrec.store.queries import stored_kinds

    try:
        chosen = None if game is None else find_kind(game).name
    except UnknownKindError as exc:
        fail(exc.message)
    others: list[Any] = []
    with opened_store(db, create=False) as engine, session(engine, readonly=True) as s:
        stored = stored_kinds(s)
        kinds = stored if chosen is None else [chosen]
        if as_json and chosen is None:
            kinds = [DEFAULT_KIND]
        stats = []
        if DEFAULT_KIND in kinds or not kinds:
            stats = player_stats(s, player=player, valid_only=valid_only, analysis=True)
        for k in kinds:
            found = find_kind(k).store_stats(s, player=player, valid_only=valid_only)
            if found is not None:
                others.append(found)
    hint = other_kinds_hint(stored, kinds or [DEFAULT_KIND])
    if as_json:
        if others:
            print_json(others[0].to_json())
        else:
            print_json([p.to_json() for p in stats])
        if hint:  # standard output stays the document scripts read
            err.print(f"hint: {escape(hint)}", markup=True)
        return
    if not stats and not any(o.players for o in others):
        out.print(f"no {kinds_titles(kinds)} games stored" if hint else "no games stored")
    else:
        if stats:
            _print_stats(stats)
        for o in others:
            if o.players:
                if stats:
                    out.print()
                _print_rows(o.columns, o.rows(), right=range(1, len(o.columns)), title=o.title)
                out.print(o.note)
    if hint:
        out.print(f"hint: {escape(hint)}")


def _print_stats(stats: list[PlayerStats]) -> None:
    """Zheng Fen's tables: the measures, then the decision analysis."""
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("player")
    for name in ("games", "hands", "wins", "win rate", "points/hand", "first out", "last"):
        table.add_column(name, justify="right")
    for p in stats:
        table.add_row(
            escape(p.name), str(p.games), str(p.hands), str(p.wins), _rate(p.win_rate),
            f"{p.mean_points_per_hand:.1f}", f"{p.first_out_rate:.1%}", f"{p.last_rate:.1%}",
        )  # fmt: skip
    out.print(table)
    out.print()
    analysis = Table(
        box=None, header_style="bold", pad_edge=False, title="decision analysis",
        title_justify="left", title_style="bold",
    )  # fmt: skip
    analysis.add_column("player")
    for name in ("captured", "conceded", "missed beats", "per hand"):
        analysis.add_column(name, justify="right")
    analysis.add_column("categories played", overflow="fold")
    for p in stats:
        categories = sorted((p.categories_played or {}).items(), key=lambda kv: (-kv[1], kv[0]))
        analysis.add_row(
            escape(p.name), _count(p.counters_captured), _count(p.counters_conceded),
            _count(p.missed_beats),
            "-" if p.missed_beats_per_hand is None else f"{p.missed_beats_per_hand:.2f}",
            ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in categories) or "-",
        )  # fmt: skip
    out.print(analysis)
    out.print(
        "captured: counters won in tricks, before the transfer; conceded: counters played into\n"
        "a trick another player won; missed beats: passes although a play was legal (per hand:\n"
        "over the hands whose deal is known); win rate: over the games that reached the target."
    )


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


def export_cmd(
    game_id: GameIdArgument,
    fmt: Annotated[
        str | None, typer.Option("--format", "-f", help="zfn (default) or json.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The record in JSON: the same as --format json.")
    ] = False,
    out_path: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Write to this file instead of stdout (a .json name means JSON unless "
            "--format says otherwise).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Write a stored game's canonical record: exactly what was imported, formatted canonically."""
    from zfrec.store import export_game, session

    if fmt is not None and fmt not in ("zfn", "json"):
        fail(f"--format is zfn or json, not {fmt!r}")
    if as_json and fmt == "zfn":
        fail("--json and --format zfn ask for different formats: give one")
    # without a format, --out's suffix tells it, as for `convert` (a .json file of .zfn text
    # read as neither)
    by_name = fmt is None and out_path is not None and out_path.suffix.lower() == ".json"
    chosen: Format = "json" if as_json or fmt == "json" or by_name else "zfn"
    from zfrec.store.queries import game_diagnostics

    with opened_store(db, create=False) as engine, session(engine, readonly=True) as s:
        text = export_game(s, game_id=game_id, format=chosen)
        reading = [d for d in game_diagnostics(s, game_id) if d["code"] == "ZF001"]
    for line in read_in_part(game_id, reading):
        print(line, file=sys.stderr)
    if out_path is None:
        sys.stdout.write(text)
        return
    try:
        write_atomic(out_path, text)
    except OSError as exc:
        fail(file_problem(str(out_path), exc, "write"))


def read_in_part(game_id: int, reading: Sequence[dict[str, Any]]) -> list[str]:
    """What `export` says on stderr of a game imported from a text it read only in part (its
    stored ZF001 findings): the record it writes is what was kept, so a line that was not kept
    is not in it, and a misspelling read as meant is written as it was read."""
    if not reading:
        return []
    out = [f"zfrec: game {game_id} was read in part when imported; this is the record as kept:"]
    for d in reading:
        where = f"line {d['line']}" if d.get("line") is not None else "a line"
        if d.get("file"):
            where += f" of {d['file']}"
        meant = "(read as " in d["message"] or "(replayed as " in d["message"]
        kept = "read as meant" if meant else "not kept"
        out.append(f"  {where}: {kept}: {d['message']}")
    return out


def register(app: typer.Typer) -> None:
    app.command("import")(import_cmd)
    app.command("games")(games_cmd)
    app.command("show")(show_cmd)
    app.command("unreadable")(unreadable_cmd)
    app.command("stats")(stats_cmd)
    app.command("export")(export_cmd)
    app.command("delete")(delete_cmd)
