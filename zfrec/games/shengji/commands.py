"""Sheng ji's bodies of the generic commands (`--game shengji`), as the kind's `command` hook
gives them (zfrec.games.GameKind): each takes the command's options as keywords, as the generic
command line (zfrec/cli/engine_cmds.py, simulate_cmds.py) passes them, and calls the body in
zfrec.games.shengji.cli.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zfrec.cli.common import fail
from zfrec.games.shengji import cli


def classify(
    *, cards: str, trump: str | None, rules: str | None, options: list[str] | None,
    decks: int | None, as_json: bool, **_: Any,
) -> None:  # fmt: skip
    """`zfrec classify --game shengji`."""
    cli.classify_cmd(cards, trump, rules, options, decks, as_json)


def legal(
    *, hand: str, lead: str | None, play: str | None, limit: int, trump: str | None,
    rules: str | None, options: list[str] | None, decks: int | None, as_json: bool, **_: Any,
) -> None:  # fmt: skip
    """`zfrec legal --game shengji`."""
    cli.legal_cmd(hand, lead, play, limit, trump, rules, options, decks, as_json)


def trick(
    *, plays: list[str], trump: str | None, rules: str | None, options: list[str] | None,
    decks: int | None, as_json: bool, **_: Any,
) -> None:  # fmt: skip
    """`zfrec trick --game shengji`."""
    cli.trick_cmd(plays, trump, rules, options, decks, as_json)


def throw(
    *, play: str, others: list[str] | None, trump: str | None, rules: str | None,
    options: list[str] | None, decks: int | None, as_json: bool, **_: Any,
) -> None:  # fmt: skip
    """`zfrec throw --game shengji`."""
    cli.throw_cmd(play, others, trump, rules, options, decks, as_json)


def score(
    *, points: int, kitty_points: int, last: str | None, last_winner: str | None, dealer: int,
    trump: str | None, rules: str | None, options: list[str] | None, decks: int | None,
    as_json: bool, **_: Any,
) -> None:  # fmt: skip
    """`zfrec score --game shengji`."""
    cli.score_cmd(points, kitty_points, last, last_winner, dealer, trump, rules, options, decks,
                  as_json)  # fmt: skip


def simulate(
    *, out_path: Path, games: int, seed: int, bot: str, rules: str | None,
    options: list[str] | None, decks: int | None, fmt: str, players: str = "4", **_: Any,
) -> None:  # fmt: skip
    """`zfrec simulate --game shengji` (--players is the preset's; --to-target is what a match
    does anyway). --players other than the table's is refused rather than ignored."""
    seats = cli.rules_of(rules, options, decks).players
    if players.strip() not in ("4", str(seats)):  # "4" is the default
        fail(f"--players {players}: a Sheng ji table has the preset's seats ({seats} here); "
             "zhao pengyou takes 5 to 8: --rules zhaopengyou --option players=N")  # fmt: skip
    cli.simulate_cmd(out_path, games, seed, bot, rules, options, decks, fmt)
