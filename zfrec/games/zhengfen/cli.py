"""The Zheng Fen bodies of `zfrec classify`, `beats`, `legal` and `simulate`: the generic
commands (zfrec/cli/engine_cmds.py, simulate_cmds.py) read the options and call these through
the kind's `command` hook (zfrec.games.GameKind), every option as a keyword.

Exit codes as everywhere: 0 yes, 1 no (with the reason), 2 bad input (one line).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from zfrec.cli.common import (
    err,
    fail,
    friendly_errors,
    out,
    plural,
    print_json,
    ruleset,
)
from zfrec.errors import AmbiguousPlayError, IllegalPlayError
from zfrec.games.zhengfen.engine.cards import (
    SUIT_GLYPHS,
    Declarations,
    parse_cards,
    parse_play,
    rank_symbol,
)
from zfrec.games.zhengfen.engine.combos import (
    Category,
    Combo,
    explain_no_reading,
    readings,
    resolve,
)
from zfrec.games.zhengfen.engine.movegen import Move, expand, legal_plays
from zfrec.games.zhengfen.engine.rules import Ruleset


def _readings(text: str, rules: Ruleset) -> list[Combo]:
    """Every reading of a play; exit 2 when the cards are malformed or no combination."""
    found, reason = _try_readings(text, rules)
    if not found:
        fail(reason)
    return found


def _try_readings(text: str, rules: Ruleset) -> tuple[list[Combo], str]:
    """Every reading of a play, or none and why; exit 2 only when the cards are malformed."""
    with friendly_errors():
        play = parse_play(text)
        found = readings(play.mask, rules, play.declared())
        return found, "" if found else explain_no_reading(play.mask, rules, play.declared())


def _lead(text: str, rules: Ruleset) -> Combo:
    """A combination as it stands on the table: its best reading, which must be unambiguous."""
    _readings(text, rules)  # malformed or no combination: exit 2 with the reason
    play = parse_play(text)
    try:
        return resolve(play.mask, None, rules, play.declared())
    except AmbiguousPlayError as exc:
        fail(exc.message)


def classify_body(
    *, cards: str, rules: str | None, options: list[str] | None, as_json: bool, **_: Any
) -> None:
    """`zfrec classify`: every reading of CARDS, best first (exit 0), or why none (exit 1)."""
    found, reason = _try_readings(cards, ruleset(rules or "pagat", options))
    if as_json:
        print_json(
            {
                "readings": [
                    {k: v for k, v in c.to_json().items() if k != "cards"} | {"cards": c.text()}
                    for c in found
                ]
            }
            | ({} if found else {"reason": reason})
        )
    else:
        for c in found:
            out.print(f"{c.describe():<60} {c.text()}")
        if not found:
            out.print(reason)
    raise typer.Exit(0 if found else 1)


def beats_body(
    *, top: str, play: str, rules: str, options: list[str] | None, as_json: bool, **_: Any
) -> None:
    """`zfrec beats`: whether PLAY may be played on TOP (exit 0), or why not (exit 1)."""
    rs = ruleset(rules, options)
    top_combo = _lead(top, rs)
    _readings(play, rs)
    parsed = parse_play(play)
    combo: Combo | None
    try:
        combo = resolve(parsed.mask, top_combo, rs, parsed.declared())
        verdict, reason = True, f"{combo.describe()} beats {top_combo.describe()}"
    except IllegalPlayError as exc:
        verdict, reason = False, exc.message
        combo = _reading_against(parsed.mask, top_combo, rs, parsed.declared())
    if as_json:
        print_json(
            {
                "beats": verdict,
                "reason": reason,
                "top": top_combo.to_json(),
                "play": combo.to_json() if combo else None,
            }
        )
    else:
        out.print(("yes: " if verdict else "no: ") + reason)
    raise typer.Exit(0 if verdict else 1)


def _reading_against(
    mask: int, top: Combo, rules: Ruleset, declared: Declarations | None
) -> Combo | None:
    """What a play that does not beat `top` reads as: its highest reading of the top's kind
    (category and length), else its one reading, else None (cards that form nothing, or
    several readings of other kinds)."""
    found = readings(mask, rules, declared)
    alike = [c for c in found if (c.category, c.length) == (top.category, top.length)]
    if alike:
        return max(alike, key=lambda c: c.rank)
    return found[0] if len(found) == 1 else None


def describe_move(move: Move) -> str:
    c = move.category
    if c is Category.special:
        head = ("special: mixed 5-T-K", "special: suited 5-T-K", "special: four 2s")[move.rank]
    elif c is Category.single:
        head = f"single {rank_symbol(move.rank)}"
    elif c is Category.suit_sequence:
        suit = SUIT_GLYPHS[move.suit or 0]
        head = f"suit sequence of {move.length} in {suit} up to {rank_symbol(move.rank)}"
    elif move.length is not None:
        head = f"{c.name.replace('_', ' ')} of {move.length} up to {rank_symbol(move.rank)}"
    else:
        head = f"{c.name.replace('_', ' ')} of {rank_symbol(move.rank)}s"
    wild = move.jokers if c is not Category.single else 0
    return head + (f", {wild} joker{'s' if wild > 1 else ''}" if wild else "")


def legal_body(
    *,
    hand: str,
    top: str | None,
    physical: bool,
    rules: str | None,
    options: list[str] | None,
    as_json: bool,
    **_: Any,
) -> None:
    """`zfrec legal`: the legal plays from HAND, on the lead or beating --top."""
    rs = ruleset(rules or "pagat", options)
    with friendly_errors():
        mask = parse_cards(hand)
    top_combo = _lead(top, rs) if top else None
    moves = legal_plays(mask, top_combo, rs)
    rows = [(m, expand(mask, m)) for m in moves]
    if as_json:
        print_json(
            {
                "count": sum(len(e) for _, e in rows) if physical else len(moves),
                "plays": [
                    {
                        "category": m.category.name,
                        "rank": Combo(m.category, m.rank, m.length, 0).rank_symbol,
                        "length": m.length,
                        "suit": None if m.suit is None else "shdc"[m.suit],
                        "jokers": m.jokers,
                        "physical": [c.text() for c in e] if physical else len(e),
                        "example": e[0].text() if e else None,
                    }
                    for m, e in rows
                ],
                "truncated": False,  # as Sheng ji's (cut by --limit): nothing cuts this list
            }
        )
        return
    for m, e in rows:
        if physical:
            for c in e:
                out.print(f"{describe_move(m):<48} {c.text()}")
        else:
            out.print(f"{describe_move(m):<48} e.g. {e[0].text()}  ({plural(len(e), 'card set')})")
    total = sum(len(e) for _, e in rows)
    out.print(f"{plural(len(moves), 'abstract move')}, {plural(total, 'distinct card set')}")


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


def simulate_body(
    *,
    out_path: Path,
    players: str,
    games: int,
    hands_per_game: int,
    to_target: bool,
    seed: int,
    bot: str,
    rules: str | None,
    options: list[str] | None,
    fmt: str,
    **_: Any,
) -> None:
    """`zfrec simulate`: self-play games, one per seat count of --players in turn."""
    from zfrec.cli.simulate_cmds import _write
    from zfrec.games.zhengfen.simulate import BOTS, SimConfig, simulate
    from zfrec.record import FORMATS, Format, dumps

    rules = rules or "pagat"
    if bot not in BOTS:
        fail(f"unknown bot {bot!r}: bots are {', '.join(BOTS)}")
    if fmt not in FORMATS:
        fail(f"--format is zfn or json, not {fmt!r}")
    form: Format = "json" if fmt == "json" else "zfn"
    rs = ruleset(rules, options)
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
