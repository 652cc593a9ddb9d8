"""`zfrec simulate`: write self-play game records."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from zfrec.cli.common import (
    OPTION_HELP,
    err,
    fail,
    file_mode_for,
    file_problem,
    out,
    ruleset,
)
from zfrec.games import DEFAULT_KIND
from zfrec.games.shengji import cli as sj
from zfrec.games.zhengfen.simulate import BOTS, SimConfig, simulate
from zfrec.record import FORMATS, Format, dumps


def parse_players(text: str) -> list[int]:
    """`4` or a range `3..6`."""
    lo, sep, hi = text.partition("..")
    try:
        low, high = int(lo), int(hi) if sep else int(lo)
    except ValueError:
        fail(f"--players takes a number or a range like 3..6, not {text!r}")
    if not 3 <= low <= high <= 6:
        fail("--players must lie within 3..6")
    return list(range(low, high + 1))


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: never a half-written record.

    The file gets the permissions of the one it replaces, or those the umask gives a new file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = file_mode_for(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            os.fchmod(f.fileno(), mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as exc:
        fail(file_problem(str(path), exc, "write"))


def simulate_cmd(
    out_path: Annotated[
        Path, typer.Option("--out", help="A file for all games, or a directory for one per game.")
    ],
    players: Annotated[str, typer.Option("--players", help="Seats: 4, or a range 3..6.")] = "4",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 10,
    hands_per_game: Annotated[
        int, typer.Option("--hands-per-game", min=1, help="Hands per game (ends early at target).")
    ] = 1,
    to_target: Annotated[
        bool, typer.Option("--to-target", help="Play each game until a score reaches the target.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same records.")] = 0,
    bot: Annotated[str, typer.Option("--bot", help=f"Player: {', '.join(BOTS)}.")] = "random",
    rules: Annotated[str | None, typer.Option("--rules", "-r", help=sj.RULES_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    fmt: Annotated[str, typer.Option("--format", help="zfn or json (Sheng ji: or jsonl).")] = "zfn",
    game_kind: Annotated[str, typer.Option("--game", help=sj.GAME_HELP)] = DEFAULT_KIND,
    decks: Annotated[int | None, typer.Option("--decks", help=sj.DECKS_HELP)] = None,
) -> None:
    """Write self-play game records: full deals, every play, scores and results.

    With a range of players, game i has the (i mod range)-th seat count. A file path gets all
    games; a directory path (or one without a suffix) gets one file per game.

    With --game shengji: whole matches (until a team wins), as records in --format zfn or json
    (or jsonl: the engine's event log, one JSON line per round), to --out (`--out -`: standard
    output); --players is the preset's (zhaopengyou: --option players=N).
    """
    if sj.check_game(game_kind):
        sj.simulate_cmd(out_path, games, seed, bot, rules, option, decks, fmt)
        return
    rules = rules or "pagat"
    if bot not in BOTS:
        fail(f"unknown bot {bot!r}: bots are {', '.join(BOTS)}")
    if fmt not in FORMATS:
        fail(f"--format is zfn or json, not {fmt!r}")
    form: Format = "json" if fmt == "json" else "zfn"
    rs = ruleset(rules, option)
    seats = parse_players(players)
    per_file = out_path.is_dir() or not out_path.suffix
    records = []
    progress = Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    )  # fmt: skip
    hands = 0
    with progress:
        task = progress.add_task("simulate", total=games)
        for i in range(games):
            config = SimConfig(
                seats[i % len(seats)], rs, bot, None if to_target else hands_per_game
            )
            game = next(simulate(config, 1, seed + i))
            hands += len(game.hands)
            if per_file:
                _write(out_path / f"game-{seed + i:06d}.{fmt}", dumps(game, form))
            else:
                records.append(game)
            progress.advance(task)
    if not per_file:
        _write(out_path, dumps(records, form))
    out.print(f"wrote {games} game(s), {hands} hand(s) to {out_path}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_cmd)
