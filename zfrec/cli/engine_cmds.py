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
from zfrec.errors import AmbiguousPlayError, IllegalPlayError
from zfrec.games import DEFAULT_KIND
from zfrec.games.shengji import cli as sj
from zfrec.games.zhengfen.engine.cards import SUIT_GLYPHS, parse_cards, parse_play, rank_symbol
from zfrec.games.zhengfen.engine.combos import (
    Category,
    Combo,
    explain_no_reading,
    readings,
    resolve,
)
from zfrec.games.zhengfen.engine.movegen import Move, expand, legal_plays
from zfrec.games.zhengfen.engine.rules import Ruleset

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)]
# classify and legal also serve Sheng ji (--game shengji): bodies in zfrec.games.shengji.cli.
GameOpt = Annotated[str, typer.Option("--game", help=sj.GAME_HELP)]
TrumpOpt = Annotated[str | None, typer.Option("--trump", help=sj.TRUMP_HELP)]
DecksOpt = Annotated[int | None, typer.Option("--decks", help=sj.DECKS_HELP)]
GameRulesOpt = Annotated[str | None, typer.Option("--rules", "-r", help=sj.RULES_HELP)]
SjRulesOpt = Annotated[str | None, typer.Option("--rules", "-r", help=sj.SJ_RULES_HELP)]
SjOptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help=sj.SJ_OPTION_HELP)]
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
    rules: GameRulesOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    game: GameOpt = DEFAULT_KIND,
    trump: TrumpOpt = None,
    decks: DecksOpt = None,
) -> None:
    """List every reading of CARDS as a combination, best first (RULES.md R13-R23).

    Exit 0 when CARDS form a combination; 1 when they do not, with the reason (a plain answer,
    on standard output); 2 when they cannot be read as cards.

    With --game shengji: the format of a lead (single, pair, tractor or throw, its suit and its
    units, largest first) under --trump; exit 1 with the reason when CARDS are no lead.
    """
    if sj.check_game(game):
        sj.classify_cmd(cards, trump, rules, option, decks, as_json)
    found, reason = _try_readings(cards, ruleset(rules or "pagat", option))
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
    rules: GameRulesOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    game: GameOpt = DEFAULT_KIND,
    trump: TrumpOpt = None,
    decks: DecksOpt = None,
    lead: Annotated[
        str | None, typer.Option("--lead", help="Sheng ji: the trick's lead, to follow.")
    ] = None,
    play: Annotated[
        str | None, typer.Option("--play", help="Sheng ji: judge this play (exit 0 legal, 1 not).")
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=0, help="Sheng ji: list at most this many plays.")
    ] = 100,
) -> None:
    """List the legal plays from HAND: on the lead, or beating --top.

    With --game shengji: the legal follows to --lead (every lead without it), or with --play
    whether that play is legal (exit 0) or not (exit 1, the reason naming the obligation).
    """
    if sj.check_game(game):
        if top is not None:
            fail("--top is Zheng Fen's; Sheng ji follows a --lead")
        sj.legal_cmd(hand, lead, play, limit, trump, rules, option, decks, as_json)
    if lead is not None or play is not None:
        fail("--lead and --play are Sheng ji's: add --game shengji")
    rs = ruleset(rules or "pagat", option)
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
    app.command("trick")(trick_cmd)
    app.command("throw")(throw_cmd)
    app.command("score")(score_cmd)


# --- Sheng ji's own verbs (--game shengji; bodies in zfrec.games.shengji.cli) -----------------


def trick_cmd(
    plays: Annotated[list[str], typer.Argument(help='The plays in play order, e.g. "8d 8d".')],
    game: GameOpt = DEFAULT_KIND,
    trump: TrumpOpt = None,
    rules: SjRulesOpt = None,
    option: SjOptionOpt = None,
    decks: DecksOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sheng ji: who wins a trick (the 1-based play, lead first) and its points."""
    sj.only_shengji(game, "trick")
    sj.trick_cmd(plays, trump, rules, option, decks, as_json)


OTHER_HELP = "What one other player holds (or is known to); repeat, in play order after the thrower"


def throw_cmd(
    play: Annotated[str, typer.Argument(help='The throw, e.g. "Kd Qd".')],
    other: Annotated[
        list[str] | None,
        typer.Option("--other", help=OTHER_HELP),
    ] = None,
    game: GameOpt = DEFAULT_KIND,
    trump: TrumpOpt = None,
    rules: SjRulesOpt = None,
    option: SjOptionOpt = None,
    decks: DecksOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sheng ji: whether a throw stands (exit 0) or fails (exit 1): the forced part, the cards
    taken back, and the first of the others (1-based) who could beat it."""
    sj.only_shengji(game, "throw")
    sj.throw_cmd(play, other, trump, rules, option, decks, as_json)


def score_cmd(
    points: Annotated[int, typer.Option("--points", help="The opponents' points in tricks.")],
    kitty_points: Annotated[int, typer.Option("--kitty-points", help="Points in the kitty.")] = 0,
    last: Annotated[
        str | None, typer.Option("--last", help="The last trick's lead (for the multiplier).")
    ] = None,
    last_winner: Annotated[
        str | None, typer.Option("--last-winner", help="opponents or declarers.")
    ] = None,
    dealer: Annotated[int, typer.Option("--dealer", help="The dealer's seat (1-based).")] = 1,
    game: GameOpt = DEFAULT_KIND,
    trump: TrumpOpt = None,
    rules: SjRulesOpt = None,
    option: SjOptionOpt = None,
    decks: DecksOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sheng ji: the round's score from the opponents' points: their total with the kitty, the
    levels each team goes up, whether the teams swap, and the next dealer (rulings 11-13).

    --trump reads --last's tractors (default: rank 2, no-trump)."""
    sj.only_shengji(game, "score")
    sj.score_cmd(points, kitty_points, last, last_winner, dealer, trump, rules, option, decks,
                 as_json)  # fmt: skip
