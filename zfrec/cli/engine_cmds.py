"""`zfrec classify`, `zfrec beats`, `zfrec legal`: settle disputes at the table."""

from __future__ import annotations

from typing import Annotated

import typer

from zfrec.cli.common import (
    JSON_HELP,
    OPTION_HELP,
    RULES_HELP,
    fail,
    friendly_errors,
    out,
    plural,
    print_json,
    ruleset,
)
from zfrec.engine.cards import SUIT_GLYPHS, parse_cards, parse_play, rank_symbol
from zfrec.engine.combos import Category, Combo, explain_no_reading, readings, resolve
from zfrec.engine.movegen import Move, expand, legal_plays
from zfrec.engine.rules import Ruleset
from zfrec.errors import AmbiguousPlayError, IllegalPlayError

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


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


def classify(
    cards: Annotated[
        str, typer.Argument(help='The cards, e.g. "7s 7h SJ BJ 8c" (BJ=8h declares).')
    ],
    rules: RulesOpt = "pagat",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List every reading of CARDS as a combination, best first (RULES.md R13-R23).

    Exit 0 when CARDS form a combination; 1 when they do not, with the reason (a plain answer,
    on standard output); 2 when they cannot be read as cards.
    """
    found, reason = _try_readings(cards, ruleset(rules, option))
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


def beats_cmd(
    top: Annotated[str, typer.Argument(help="The combination on the table.")],
    play: Annotated[str, typer.Argument(help="The combination played onto it.")],
    rules: RulesOpt = "pagat",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say whether PLAY may be played on TOP. Exit 0: yes; 1: no, with the reason; 2: bad input."""
    rs = ruleset(rules, option)
    top_combo = _lead(top, rs)
    _readings(play, rs)
    parsed = parse_play(play)
    try:
        combo = resolve(parsed.mask, top_combo, rs, parsed.declared())
        verdict, reason = True, f"{combo.describe()} beats {top_combo.describe()}"
    except IllegalPlayError as exc:
        verdict, reason, combo = False, exc.message, None
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


def legal(
    hand: Annotated[str, typer.Argument(help='The hand, e.g. "3h 4h 5s 5d SJ".')],
    top: Annotated[
        str | None, typer.Option("--top", "-t", help="The combination to beat (omit to lead).")
    ] = None,
    physical: Annotated[
        bool, typer.Option("--physical", help="List every distinct card set, not abstract moves.")
    ] = False,
    rules: RulesOpt = "pagat",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the legal plays from HAND: on the lead, or beating --top."""
    rs = ruleset(rules, option)
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


def register(app: typer.Typer) -> None:
    app.command("classify")(classify)
    app.command("beats")(beats_cmd)
    app.command("legal")(legal)
