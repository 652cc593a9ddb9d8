"""`zfrec classify`, `zfrec beats`, `zfrec legal`: settle disputes at the table."""

from __future__ import annotations

from typing import Annotated

import typer

from zfrec.cli.common import (
    DECKS_HELP,
    GAME_HELP,
    GAME_RULES_HELP,
    JSON_HELP,
    OPTION_HELP,
    RULES_HELP,
    SJ_OPTION_HELP,
    SJ_RULES_HELP,
    TRUMP_HELP,
    game_command,
    json_on_failure,
    refused,
)
from zfrec.games import DEFAULT_KIND

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)]
# Every command's body is the game kind's (GameKind.command: zfrec.games.zhengfen.cli,
# zfrec.games.shengji.commands), called with all the command's options as keywords.
GameOpt = Annotated[str, typer.Option("--game", help=GAME_HELP)]
TrumpOpt = Annotated[str | None, typer.Option("--trump", help=TRUMP_HELP)]
DecksOpt = Annotated[int | None, typer.Option("--decks", help=DECKS_HELP)]
GameRulesOpt = Annotated[str | None, typer.Option("--rules", "-r", help=GAME_RULES_HELP)]
SjRulesOpt = Annotated[str | None, typer.Option("--rules", "-r", help=SJ_RULES_HELP)]
SjOptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help=SJ_OPTION_HELP)]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


@json_on_failure(refused)
def classify(
    ctx: typer.Context,
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
    game_command(ctx, game, "classify")(
        cards=cards, rules=rules, options=option, as_json=as_json, trump=trump, decks=decks
    )


@json_on_failure(refused)
def beats_cmd(
    ctx: typer.Context,
    top: Annotated[str, typer.Argument(help="The combination on the table.")],
    play: Annotated[str, typer.Argument(help="The combination played onto it.")],
    rules: RulesOpt = "pagat",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say whether PLAY may be played on TOP. Exit 0: yes; 1: no, with the reason; 2: bad input."""
    game_command(ctx, DEFAULT_KIND, "beats")(top=top, play=play, rules=rules, options=option,
                                        as_json=as_json)  # fmt: skip


@json_on_failure(refused)
def legal(
    ctx: typer.Context,
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
    game_command(ctx, game, "legal")(
        hand=hand, top=top, physical=physical, rules=rules, options=option, as_json=as_json,
        trump=trump, decks=decks, lead=lead, play=play, limit=limit,
    )  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("classify")(classify)
    app.command("beats")(beats_cmd)
    app.command("legal")(legal)
    app.command("trick")(trick_cmd)
    app.command("throw")(throw_cmd)
    app.command("score")(score_cmd)


# --- verbs only some games have (Sheng ji's: --game shengji) -----------------------------------


@json_on_failure(refused)
def trick_cmd(
    ctx: typer.Context,
    plays: Annotated[list[str], typer.Argument(help='The plays in play order, e.g. "8d 8d".')],
    game: GameOpt = DEFAULT_KIND,
    trump: TrumpOpt = None,
    rules: SjRulesOpt = None,
    option: SjOptionOpt = None,
    decks: DecksOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Sheng ji: who wins a trick (the 1-based play, lead first) and its points."""
    game_command(ctx, game, "trick")(
        plays=plays, trump=trump, rules=rules, options=option, decks=decks, as_json=as_json
    )


OTHER_HELP = "What one other player holds (or is known to); repeat, in play order after the thrower"


@json_on_failure(refused)
def throw_cmd(
    ctx: typer.Context,
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
    game_command(ctx, game, "throw")(play=play, others=other, trump=trump, rules=rules,
                                options=option, decks=decks, as_json=as_json)  # fmt: skip


@json_on_failure(refused)
def score_cmd(
    ctx: typer.Context,
    points: Annotated[
        int,
        typer.Option(
            "--points",
            help="The opponents' points: in tricks, with any throw penalties (so below 0 or "
            "above the decks' points only with throw_penalty).",
        ),
    ],
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
    game_command(ctx, game, "score")(
        points=points, kitty_points=kitty_points, last=last, last_winner=last_winner,
        dealer=dealer, trump=trump, rules=rules, options=option, decks=decks, as_json=as_json,
    )  # fmt: skip
