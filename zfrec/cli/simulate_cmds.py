"""`zfrec simulate`: write self-play game records (the body is the game kind's, zfrec.games)."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from zfrec.cli.common import (
    DECKS_HELP,
    GAME_HELP,
    GAME_RULES_HELP,
    OPTION_HELP,
    err,
    fail,
    file_mode_for,
    file_problem,
    game_command,
)
from zfrec.games import DEFAULT_KIND
from zfrec.stopping import stop_on_interrupt


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: never a half-written record.

    The file gets the permissions of the one it replaces, or those the umask gives a new file.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file stands where a folder of the path should be
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path)) from None
    mode = file_mode_for(path)
    # a Ctrl-C waits until the file is written whole or not at all (one between making the
    # temporary file and the block that removes it left it behind)
    with stop_on_interrupt() as stop:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                os.fchmod(f.fileno(), mode)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    if stop.interrupted:
        raise KeyboardInterrupt


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as exc:
        fail(file_problem(str(path), exc, "write"))


def simulate_cmd(
    ctx: typer.Context,
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
    bot: Annotated[str, typer.Option("--bot", help="Player: random, greedy.")] = "random",
    rules: Annotated[str | None, typer.Option("--rules", "-r", help=GAME_RULES_HELP)] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    fmt: Annotated[str, typer.Option("--format", help="zfn or json (Sheng ji: or jsonl).")] = "zfn",
    game_kind: Annotated[str, typer.Option("--game", help=GAME_HELP)] = DEFAULT_KIND,
    decks: Annotated[int | None, typer.Option("--decks", help=DECKS_HELP)] = None,
) -> None:
    """Write self-play game records: full deals, every play, scores and results.

    With a range of players, game i has the (i mod range)-th seat count. A file path gets all
    games; a directory path (or one without a suffix) gets one file per game.

    With --game shengji: whole matches (until a team wins), as records in --format zfn or json
    (or jsonl: the engine's event log, one JSON line per round), to --out (`--out -`: standard
    output); --players is the preset's (zhaopengyou: --option players=N).
    """
    before = _files_in(out_path)
    try:
        game_command(ctx, game_kind, "simulate")(
            out_path=out_path, players=players, games=games, hands_per_game=hands_per_game,
            to_target=to_target, seed=seed, bot=bot, rules=rules, options=option, fmt=fmt,
            decks=decks,
        )  # fmt: skip
    except KeyboardInterrupt:
        err.print(_interrupted(out_path, before))
        raise typer.Exit(130) from None


def _files_in(path: Path) -> dict[str, int]:
    """The files of an output folder and their modification times (none for a file)."""
    try:
        return {p.name: p.stat().st_mtime_ns for p in path.iterdir() if p.is_file()}
    except OSError:
        return {}


def _interrupted(out_path: Path, before: dict[str, int]) -> str:
    """What an interrupted `simulate` says it did: every record is written whole (a file per
    game, each at once), or not at all (one file for all games, written at the end)."""
    if str(out_path) == "-" or not out_path.is_dir():
        return (
            f"interrupted: nothing was written to {out_path} (the records are written at the end)"
        )
    made = sorted(n for n, t in _files_in(out_path).items() if before.get(n) != t)
    if not made:
        return f"interrupted: no record was written to {out_path}"
    return (
        f"interrupted: {len(made)} record file(s) written whole to {out_path} "
        f"({made[0]} to {made[-1]}); the games after them were not made"
    )


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_cmd)
