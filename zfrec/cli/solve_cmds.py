"""`zfrec solve`: perfect play from where a record stops, with every card known.

Exit codes: 0 when the position is solved (or the hand is already over: nothing to solve), 1 when
the budget ran out first (the bounds proved are printed), 2 on unreadable input, a record without
a known deal, or a seat or game that is not there.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.markup import escape

from zfrec.cli.analyze_cmds import GameOpt, JsonOpt, RecordArg, read_games
from zfrec.cli.common import (
    err,
    fail,
    friendly_errors,
    json_on_failure,
    out,
    print_json,
    refuse_others_options,
    refused,
)
from zfrec.errors import AtError, ZfrecError
from zfrec.games.zhengfen.engine.cards import format_cards, points_of
from zfrec.numbering import repeat_suffix
from zfrec.stopping import Stop, stop_on_interrupt

if TYPE_CHECKING:
    from zfrec.games.zhengfen.analysis.position import At, RecordPosition
    from zfrec.games.zhengfen.solver import LineStep, SolveResult

# The solver loads only when `zfrec solve` runs. The defaults of zfrec.games.zhengfen.solver.Budget,
# shown in --help, are repeated here (a test checks that they match).
DEFAULT_NODES = 5_000_000
DEFAULT_SECONDS = 60.0
DEFAULT_TABLE = 800_000


# `--at`: HAND.TRICK.TURN, a step of the last hand's replay page (`40`, `#step=40`), or a replay
# page as its address names it (zfrec.render.pagenames.parse_page_address): `hand-2.html#step=40`,
# `hand-2-2.html#step=40` for the second hand numbered 2, `hand-2-2.html` alone for its deal (a
# whole address pasted from the browser's address bar works too).
_DOTTED = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,9})")
_STEP = re.compile(r"(?:#step=|step=|#)?([0-9]{1,9})")
AT_HELP = (
    "Solve from this position instead of where the record stops: HAND.TRICK.TURN (before that "
    "turn; turns count inferred passes, as the diagnostics do), or a replay page's step, as its "
    "address ends: 40, #step=40 (the last hand) or hand-2.html#step=40 (the position that step "
    "shows; step 0 is the deal; hand-2.html alone is step 0). The second hand numbered 2 is "
    "hand-2-2.html. Sheng ji: ROUND, ROUND.TRICK.TURN, or round-3.html#step=12 and "
    "round-3-2.html (the second round numbered 3)."
)


def parse_at(text: str) -> At | None:
    """What `--at` names, or None when it is not a position."""
    from zfrec.games.zhengfen.analysis.position import At
    from zfrec.render.pagenames import parse_page_address

    text = text.strip()
    m = _DOTTED.fullmatch(text)
    if m:
        hand, trick, turn = (int(g) for g in m.groups())
        return At(hand=hand, trick=trick, turn=turn) if trick and turn else None
    page = parse_page_address(text)
    if page is not None:
        unit, number, occurrence, step = page
        if unit != "hand":
            return None  # a Sheng ji round's page (round-N.html) names no hand
        return At(hand=number, step=step or 0, occurrence=occurrence)
    m = _STEP.fullmatch(text)
    if m:
        return At(step=int(m.group(1)))
    return None


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def _position_json(pos: RecordPosition) -> dict[str, Any]:
    hs, players = pos.state, pos.game.players
    return {
        "hands": {players[s]: format_cards(h) for s, h in enumerate(hs.hands)},
        "taken": {players[s]: points_of(w) for s, w in enumerate(hs.won)},
        "top": None if hs.top is None else hs.top.text(),
        "top_player": None if hs.top_seat is None else players[hs.top_seat],
        "table_points": points_of(hs.trick_cards),
        "out": [players[s] for s in hs.out_order],
        "to_move": None if hs.result is not None else players[hs.turn],
        "trick": hs.trick,
    }


def _line_json(line: list[LineStep], players: list[str]) -> list[dict[str, Any]]:
    from zfrec.games.zhengfen.solver import play_text

    out: list[dict[str, Any]] = []
    for step in line:
        item: dict[str, Any] = {"player": players[step.seat], "play": play_text(step.play)}
        if step.trick_to is not None:
            item["trick_to"] = players[step.trick_to]
            item["trick_points"] = step.trick_points
        out.append(item)
    return out


def _line_text(line: list[LineStep], players: list[str]) -> str:
    """The line trick by trick: `West 8s, East 9h, South - (West takes 10) / West Js, ...`."""
    from zfrec.games.zhengfen.solver import play_text

    parts: list[str] = []
    trick: list[str] = []
    for step in line:
        trick.append(f"{players[step.seat]} {play_text(step.play)}")
        if step.trick_to is not None:
            taken = f"{players[step.trick_to]} takes {step.trick_points}"
            parts.append(", ".join(trick) + f" ({taken})")
            trick = []
    if trick:
        parts.append(", ".join(trick))
    return " / ".join(parts)


def _print_position(number: int, pos: RecordPosition, step: int | None = None) -> None:
    hs, players = pos.state, pos.game.players
    width = max(cell_len(p) for p in players) + 2
    unit = f"hand {pos.hand_number}{repeat_suffix(pos.occurrence)}"
    head = f"game {number}, {unit}" + ("" if step is None else f", step {step}")
    if hs.result is None:
        if hs.top is None:
            where = f"{players[hs.turn]} to lead trick {hs.trick}"
        else:
            assert hs.top_seat is not None
            where = (
                f"{players[hs.turn]} to play on {players[hs.top_seat]}'s {hs.top.text()} "
                f"(trick {hs.trick}, {points_of(hs.trick_cards)} points on the table)"
            )
        out.print(f"[bold]{escape(head)}[/]: {escape(where)}", markup=True)
    else:
        out.print(f"[bold]{escape(head)}[/]: the hand is over", markup=True)
    for s, hand in enumerate(hs.hands):
        notes = [f"taken {points_of(hs.won[s])}"]
        if s in hs.out_order:
            notes.append(f"out {hs.out_order.index(s) + 1}.")
        cards = format_cards(hand) if hand else "-"
        out.print(f"  {escape(_pad(players[s], width))}{escape(cards)}  ({', '.join(notes)})")


def _print_result(pos: RecordPosition, r: SolveResult) -> None:
    from zfrec.games.zhengfen.solver import play_text

    players = pos.game.players
    width = max(cell_len(p) for p in players) + 2
    if r.finished:
        points = ", ".join(f"{players[s]} {v}" for s, v in r.values.items())
        out.print(f"hand points: {escape(points)}. Nothing left to solve.")
        return
    out.print("perfect play from here (each seat maximising, all others against it):")
    for s, (lo, hi) in r.bounds.items():
        shown = str(lo) if lo == hi else f"between {lo} and {hi} (not solved)"
        out.print(f"  {escape(_pad(players[s], width))}{shown}")
    if r.values[r.seat] is None:
        return
    me = players[r.seat]
    to_move = players[r.to_move] if r.to_move is not None else "?"
    plays = " | ".join(play_text(c) for c in r.best)
    who = f"best for {to_move}" if r.seat == r.to_move else f"{to_move}'s plays holding {me}"
    out.print(f"{escape(who)} to {r.values[r.seat]}: {escape(plays)}")
    out.print(f"line: {escape(_line_text(r.line, players))}")


def _where(record: str, game: int | None, games: int, at: str | None) -> str:
    """What an error of `zfrec solve` names first: the file, the game when the file holds
    several (or --game names one), and the position --at names: `round.zfn, game 2 (--at
    3.5.2)`. (A file that cannot be read is named by its reader's own message.)"""
    where = "standard input" if record == "-" else record
    if game is not None or games > 1:
        where += f", game {game or games}"
    return where + ("" if at is None else f" (--at {at})")


@contextmanager
def _naming(where: str, file: str) -> Iterator[None]:
    """`friendly_errors`, its one line led by `where` (`_where`), or by `file` (`where` less
    the position) for `--at` text that names no position: its message quotes the text."""
    try:
        yield
    except AtError as exc:
        fail(f"{file}: {exc}")
    except ZfrecError as exc:
        fail(f"{where}: {exc}")


@json_on_failure(refused)  # no such file, no such position
def solve_cmd(
    ctx: typer.Context,
    record: RecordArg,
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            "-s",
            help="Whose best plays and line to show (name or seat number); "
            "default: the player to move. Zheng Fen only.",
        ),
    ] = None,
    game: GameOpt = None,
    nodes: Annotated[
        int,
        typer.Option(
            "--nodes",
            "--max-nodes",
            min=1,
            help="Stop after searching this many positions in all.",
        ),
    ] = DEFAULT_NODES,
    seconds: Annotated[
        float,
        typer.Option("--seconds", "--max-seconds", min=0.01, help="Stop after this many seconds."),
    ] = DEFAULT_SECONDS,
    table: Annotated[
        int,
        typer.Option(
            "--table",
            min=1000,
            help="Transposition table entries (about 400 bytes each): caps the memory. "
            "Zheng Fen only.",
        ),
    ] = DEFAULT_TABLE,
    only_seat: Annotated[
        bool,
        typer.Option(
            "--only-seat",
            help="Solve only the --seat player's value, not every seat's. Zheng Fen only.",
        ),
    ] = False,
    at: Annotated[str | None, typer.Option("--at", help=AT_HELP)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve the hand where the record stops: what each seat ends the hand with (after the last
    player's tricks and cards go to the first player out) if it plays perfectly and everyone
    else plays against it, the best plays for the player to move, and a line of perfect play.

    The record must stop in the middle of a hand whose deal is known (recorded, or rebuilt from
    the plays without doubt). Passes after the last recorded move are not inferred. The last
    game of the file is used unless --game says otherwise.

    --at names another position: a turn (HAND.TRICK.TURN) or a step of the hand's replay page
    (as its address ends, #step=N; hand-2-2.html#step=N for the second hand numbered 2, its
    page alone for step 0).

    Exit 0 when solved or when the hand is already over, 1 when the budget ran out first
    (bounds are shown), 2 on bad input.

    Sheng ji records: the opponents' points under perfect play of both teams (the opponents
    maximising, the declarers minimising), the best plays of the seat to move and a line, from
    where the record stops (the hands must be known).

    For Sheng ji, --at ROUND names a round's first lead after the kitty exchange (its par),
    --at ROUND.TRICK.TURN a turn, and a round's page a step of it (round-3.html#step=12;
    round-3-2.html for the second round numbered 3).

    "exact" is false when the budget ran out first (exit 1); a finished round or unknown hands
    exit 2 (ANALYSIS.md, solver). --seat, --only-seat and --table are Zheng Fen's: a Sheng ji
    solve refuses them (exit 2).
    """
    from zfrec.games import kind_of
    from zfrec.games.zhengfen.analysis.position import position_at, record_position
    from zfrec.games.zhengfen.solver import Budget, play_text, solve
    from zfrec.record.seatrefs import seat_named

    games = read_games(record, game)
    kind = kind_of(games[-1])
    refuse_others_options(ctx, kind, "solve")  # --seat, --only-seat, --table are Zheng Fen's
    where = _where(record, game, len(games), at)
    file = _where(record, game, len(games), None)
    if kind.own_solver:  # the kind reads --at itself
        waiting = err.status("solving...") if err.is_terminal else nullcontext()
        # Ctrl-C is held until the answer is printed: the answer is what the search returned
        # (exact when it finished), decided before the flag is looked at; a Ctrl-C after the
        # search ended changes nothing in it (only the exit code and one line on stderr)
        with stop_on_interrupt() as stop:
            with friendly_errors(), _naming(where, file), waiting:
                answer = kind.solve(games[-1], at, nodes, seconds)
            if answer is not None:
                cut = not answer.get("exact", True) and stop.interrupted
                if cut:
                    answer = {**answer, "interrupted": True}
                # the hand/round solved, in the kind's word, as Zheng Fen's head names its hand
                unit = kind.unit
                said = f"{unit} {answer[unit]}{repeat_suffix(answer.get('occurrence', 1))}"
                _print_kind_answer(answer, as_json, f"game {game or len(games)}, {said}")
        if answer is not None:
            _interrupted(stop, cut=cut)
            if not answer.get("exact", True):
                raise typer.Exit(1)
            return
    named = None
    if at is not None:
        named = parse_at(at)
        if named is None:
            fail(
                f"{file}: --at {at!r} names no position: give HAND.TRICK.TURN (2.5.3) or a replay "
                "page's step (40, #step=40, hand-2.html#step=40)"
            )
    number = game or len(games)
    g = games[-1]
    step: int | None = None
    with friendly_errors(), _naming(where, file):
        if named is None:
            pos = record_position(g)
        else:
            pos, step = position_at(g, named)
    players = g.players
    with friendly_errors(), _naming(where, file):
        perspective = None if seat is None else seat_named(g.players, seat)
    if pos.errors:
        err.print(
            f"warning: game {number} fails validation ({pos.errors} error(s)); the position is "
            "solved as recorded (see zfrec validate)"
        )
    budget = Budget(nodes=nodes, seconds=seconds, table_entries=table)
    status = err.status("solving...") if err.is_terminal and not pos.finished else nullcontext()
    started = time.perf_counter()
    with stop_on_interrupt() as stop:  # held until the answer is printed (as above)
        with status:
            result = solve(pos.state, perspective, budget=budget, all_seats=not only_seat)
        cut = not result.solved and stop.interrupted  # decided by the search, not by the flag
        if as_json:
            best = play_text(result.best[0]) if result.best else None
            print_json(
                {
                    "values": {players[s]: v for s, v in result.values.items()},
                    "best": best,
                    "line": _line_json(result.line, players),
                    "nodes": result.nodes,
                    "ms": round(result.ms, 3),
                    "solved": result.solved,
                    "finished": result.finished,
                    "bounds": {players[s]: list(b) for s, b in result.bounds.items()},
                    "seat": players[result.seat],
                    "best_all": [play_text(c) for c in result.best],
                    "game": number,
                    "hand": pos.hand_number,
                    # the second hand so numbered (hand-N-2.html): 2; said only where it repeats
                    **({} if pos.occurrence == 1 else {"occurrence": pos.occurrence}),
                    "position": _position_json(pos),
                    "legal": pos.errors == 0,
                    "errors": pos.errors,
                    **({} if step is None else {"step": step}),
                    **({"interrupted": True} if cut else {}),
                }
            )
        else:
            _print_position(number, pos, step)
            _print_result(pos, result)
            if not result.finished:
                verdict = "solved" if result.solved else "not solved within the budget"
                if cut:
                    verdict = "not solved: interrupted"
                secs = time.perf_counter() - started
                out.print(f"{verdict}: {result.nodes:,} positions searched in {secs:.2f} s")
    _interrupted(stop, cut=cut)
    if not result.solved:
        raise typer.Exit(1)


def _interrupted(stop: Stop, *, cut: bool) -> None:
    """After the answer of a solve that had a Ctrl-C: say on stderr what the answer is and
    exit 130. `cut`: the answer is not proved (the search stopped with the best found so far,
    as when the budget runs out); else the search had finished first and its answer is exact."""
    if not stop.interrupted:
        return
    if cut:
        err.print("interrupted: the answer above is the best found so far, not proved")
    else:
        err.print("interrupted after the search had ended: the answer above is proved")
    raise typer.Exit(130)


def _print_kind_answer(answer: dict[str, Any], as_json: bool, head: str) -> None:
    """A game kind's own solve (`GameKind.solve`): its JSON as it is, or in words under `head`
    (the game and the hand/round solved)."""
    if as_json:
        print_json(answer)
        return
    line = answer.get("line") or []
    to_move = f": {line[0]['player']} to move" if line else ""
    out.print(f"[bold]{escape(head)}[/]{escape(to_move)}", markup=True)
    values = answer.get("values", {})
    shown = ", ".join(f"{k} {v}" for k, v in values.items())
    exact = answer.get("exact", True)
    # an inexact value is the best found, not perfect play: say so, and what was proved
    head = "perfect play from here" if exact else "best found from here (not proved)"
    out.print(f"{head}: {escape(shown)}")
    for who, (lo, hi) in ({} if exact else answer.get("bounds", {})).items():
        out.print(f"proved: {escape(who)} between {lo} and {hi}")
    best = answer.get("best") or []
    if best:
        who = f"best for {line[0]['player']} (to move)" if line else "best"
        if not exact:
            who += " so far"
        out.print(f"{escape(who)}: {escape(' | '.join(best))}")
    parts: list[str] = []
    trick: list[str] = []
    for step in line:
        trick.append(f"{step['player']} {step['play']}")
        if "trick_to" in step:
            parts.append(", ".join(trick) + f" ({step['trick_to']} takes {step['trick_points']})")
            trick = []
    if trick:
        parts.append(", ".join(trick))
    out.print(f"line: {escape(' / '.join(parts))}")
    verdict = "solved" if exact else "not solved within the budget"
    if answer.get("interrupted"):
        verdict = "not solved: interrupted"
    secs = answer.get("ms", 0) / 1000
    out.print(f"{verdict}: {answer.get('nodes', 0):,} positions searched in {secs:.2f} s")
    if not exact and not answer.get("interrupted"):
        out.print(
            "to prove it: solve a later position (--at; fewer cards cost far less) or give a "
            "larger budget (--max-seconds, --max-nodes)"
        )


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_cmd)
