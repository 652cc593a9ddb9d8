"""Sheng ji statistics for the site: per player and per partnership, over the stored matches.

    facts = match_facts(match_view(match))          # when a match is rendered
    players, pairs = sj_stats([(game_id, facts), ...])

Each match's facts are taken from its parsed record when its pages are made (the validator's
result of every round, `zfrec.games.shengji.pages.match_view`) and kept with its rendered
files (`GameMeta.facts`), so the site adds them up without reading the record again and
without store tables of its own. Per player (and per partnership: two players who sat as
partners, fixed teams only):

- rounds as declarers, and how many of them the declarers held (the opponents stayed under
  the swap, RULES-SHENGJI.md ruling 12), with the rate;
- the average points the opponents made against them as declarers (conceded), and the
  average they made themselves as opponents (taken), kitty and penalties counted;
- throws tried (leads of more than one unit), and how many failed;
- the kitty points buried, as dealer (the points put back in the kitty).

Rounds the engine could not finish (a broken record) count for the throws and the kitty only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zfrec.games.shengji.pages import SjGameView

__all__ = ["SjTally", "match_facts", "sj_stats"]


@dataclass(slots=True)
class SjTally:
    """The counts of one player, or one partnership (`name`: "A & B")."""

    name: str
    members: tuple[str, ...]
    matches: int = 0
    wins: int = 0
    rounds: int = 0
    declared: int = 0
    held: int = 0
    conceded: int = 0  # opponents' points, summed over the rounds as declarers
    opposed: int = 0  # finished rounds as opponents
    taken: int = 0  # own team's points, summed over the rounds as opponents
    throws: int = 0
    failed: int = 0
    dealt: int = 0
    buried: int = 0
    games: set[int] = field(default_factory=set)

    @property
    def hold_rate(self) -> float:
        return self.held / self.declared if self.declared else 0.0

    @property
    def mean_conceded(self) -> float:
        return self.conceded / self.declared if self.declared else 0.0

    @property
    def mean_taken(self) -> float:
        return self.taken / self.opposed if self.opposed else 0.0


def match_facts(view: SjGameView) -> dict[str, Any]:
    """What the statistics need of one match, as JSON values: the players, the fixed teams
    (None in zhao pengyou), the winners, and per round [dealer, declarers (seats), the
    opponents' total, held, kitty points buried, throws [[seat, failed], ...]] (None where the
    round has no result)."""
    rounds = [
        [s.dealer, s.declarers if s.held is not None else None, s.total, s.held, s.buried,
         [[seat, failed] for seat, failed in s.throws]]
        for s in view.summaries
    ]  # fmt: skip
    return {
        "players": list(view.match.players),
        "teams": view.teams,
        "winners": list(view.report.winners),
        "rounds": rounds,
    }


def _get(table: dict[str, SjTally], members: tuple[str, ...]) -> SjTally:
    key = " & ".join(members)
    if key not in table:
        table[key] = SjTally(key, members)
    return table[key]


def tally(facts: dict[str, Any], players: dict[str, SjTally], pairs: dict[str, SjTally],
          game_id: int) -> None:  # fmt: skip
    """Add one match's facts to the per-player and per-partnership tallies."""
    names: list[str] = facts["players"]
    teams: list[list[int]] = facts["teams"] or []
    everyone = [_get(players, (name,)) for name in names]
    team_of: dict[int, SjTally] = {}
    for team in teams:
        pair = _get(pairs, tuple(sorted((names[s] for s in team), key=str.casefold)))
        for s in team:
            team_of[s] = pair
    groups = everyone + list({id(p): p for p in team_of.values()}.values())
    for t in groups:
        if game_id not in t.games:
            t.games.add(game_id)
            t.matches += 1
    winners = set(facts["winners"])
    for s in winners:
        everyone[s].wins += 1
    for pair in {id(p): p for s, p in team_of.items() if s in winners}.values():
        pair.wins += 1

    def of(seat: int) -> list[SjTally]:
        return [everyone[seat], team_of[seat]] if seat in team_of else [everyone[seat]]

    for dealer, declarers, total, held, buried, throws in facts["rounds"]:
        for t in groups:
            t.rounds += 1
        for seat, failed in throws:
            for t in of(seat):
                t.throws += 1
                t.failed += int(failed)
        if dealer is not None and buried is not None:
            for t in of(dealer):
                t.dealt += 1
                t.buried += buried
        if declarers is None or total is None:
            continue
        sides: dict[int, tuple[SjTally, bool]] = {}
        for seat in range(len(names)):
            declaring = seat in declarers
            for t in of(seat):
                sides[id(t)] = (t, declaring)  # a partnership once, on its seats' side
        for t, declaring in sides.values():
            if declaring:
                t.declared += 1
                t.held += int(bool(held))
                t.conceded += total
            else:
                t.opposed += 1
                t.taken += total


def sj_stats(
    matches: Iterable[tuple[int, dict[str, Any]]],
) -> tuple[list[SjTally], list[SjTally]]:
    """Per player and per partnership, over (game id, match facts) pairs, by name."""
    players: dict[str, SjTally] = {}
    pairs: dict[str, SjTally] = {}
    for game_id, facts in matches:
        tally(facts, players, pairs, game_id)

    def order(t: SjTally) -> str:
        return t.name.casefold()

    return sorted(players.values(), key=order), sorted(pairs.values(), key=order)
