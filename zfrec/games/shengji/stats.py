"""Sheng ji statistics for the site: per player and per partnership, over the stored matches.

    >>> players, pairs = sj_stats(matches)       # doctest: +SKIP

Read from the matches' records (each validated once: the engine's result of every round),
not from store tables of their own, so the site needs nothing of the store but each game's
record text. Per player (and per partnership: two players who sat as partners, fixed teams
only):

- rounds as declarers, and how many of them the declarers held (the opponents stayed under
  the swap, RULES-SHENGJI.md ruling 12), with the rate;
- the average points the opponents made against them as declarers (conceded), and the
  average they made themselves as opponents (taken);
- throws tried, and how many failed (a player's own, as the record writes them);
- the kitty points buried, as dealer (the points put back in the kitty).

Rounds the engine could not finish (a broken record) count for the throws and the kitty only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from zfrec.games.shengji.cards import points
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.records import SjMatch
from zfrec.games.shengji.replayer import validate_match

__all__ = ["SjTally", "sj_stats", "tally_match"]


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


def _get(table: dict[str, SjTally], members: tuple[str, ...]) -> SjTally:
    key = " & ".join(members)
    if key not in table:
        table[key] = SjTally(key, members)
    return table[key]


def tally_match(
    match: SjMatch,
    players: dict[str, SjTally],
    pairs: dict[str, SjTally],
    game_id: int = 0,
) -> None:
    """Add one match's rounds to the per-player and per-partnership tallies."""
    report = validate_match(match)
    names = list(match.players)
    n = len(names)
    rules = report.rules
    fixed = rules is None or rules.fixed_partners
    teams = [tuple(range(0, n, 2)), tuple(range(1, n, 2))] if fixed else []
    team_tallies = [
        _get(pairs, tuple(sorted((names[s] for s in t), key=str.casefold))) for t in teams
    ]
    everyone = [_get(players, (name,)) for name in names]
    for t in everyone + team_tallies:
        if game_id not in t.games:
            t.games.add(game_id)
            t.matches += 1
    for s in report.winners:
        everyone[s].wins += 1
    for i, t in enumerate(teams):
        if report.winners and report.winners[0] in t:
            team_tallies[i].wins += 1
    ledgers = {r.number: r for r in report.rounds}
    for rnd in match.rounds:
        for t in everyone + team_tallies:
            t.rounds += 1
        ledger = ledgers.get(rnd.number)
        order = rnd.order()
        for trick in rnd.tricks:
            if not trick.moves:
                continue
            lead = trick.moves[0]
            thrown = lead.failed
            if not thrown and order is not None:
                try:
                    thrown = classify(order, lead.cards).kind == "throw"
                except Exception:  # an unreadable lead is the validator's to report
                    thrown = False
            if thrown:
                everyone[lead.seat].throws += 1
                everyone[lead.seat].failed += int(lead.failed)
                for i, t in enumerate(teams):
                    if lead.seat in t:
                        team_tallies[i].throws += 1
                        team_tallies[i].failed += int(lead.failed)
        if ledger is None:
            continue
        dealer = ledger.dealer
        everyone[dealer].dealt += 1
        everyone[dealer].buried += points(ledger.discard)
        for i, t in enumerate(teams):
            if dealer in t:
                team_tallies[i].dealt += 1
                team_tallies[i].buried += points(ledger.discard)
        result = ledger.result
        if result is None:
            continue
        held = not result.change.swap
        for s in range(n):
            tally = everyone[s]
            if result.declarers >> s & 1:
                tally.declared += 1
                tally.held += int(held)
                tally.conceded += result.total
            else:
                tally.opposed += 1
                tally.taken += result.total
        for i, t in enumerate(teams):
            if result.declarers >> t[0] & 1:
                team_tallies[i].declared += 1
                team_tallies[i].held += int(held)
                team_tallies[i].conceded += result.total
            else:
                team_tallies[i].opposed += 1
                team_tallies[i].taken += result.total


def sj_stats(matches: Iterable[tuple[int, SjMatch]]) -> tuple[list[SjTally], list[SjTally]]:
    """Per player and per partnership, over `matches` ((game id, match) pairs), by name."""
    players: dict[str, SjTally] = {}
    pairs: dict[str, SjTally] = {}
    for game_id, match in matches:
        tally_match(match, players, pairs, game_id)

    def order(t: SjTally) -> str:
        return t.name.casefold()

    return sorted(players.values(), key=order), sorted(pairs.values(), key=order)
