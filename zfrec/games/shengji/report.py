"""What the Sheng ji validator reports: one match's diagnostics and each round's account
(`zfrec validate` and `--json`, `--show-deal`). Made by `zfrec.games.shengji.replayer`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zfrec.diagnostics import Diagnostic, Findings
from zfrec.games.shengji.cards import count, distinct, format_hand
from zfrec.games.shengji.events import RoundResult
from zfrec.games.shengji.follow import count_follows, legal_follows
from zfrec.games.shengji.formats import Format
from zfrec.games.shengji.order import Order
from zfrec.games.shengji.records import SjMatch
from zfrec.games.shengji.rules import SjRules, level_text
from zfrec.numbering import occurrence_at, with_occurrence

__all__ = ["SjReport", "SjRoundLedger"]


@dataclass(frozen=True, slots=True)
class SjRoundLedger:
    """One round's account: the hands used (rebuilt where the record lacks them), the result
    the engine computed (None when the round was not finished) and the levels after it."""

    number: int
    dealer: int
    trump: str
    deal: tuple[int, ...]
    kitty: int
    discard: int
    reconstructed: bool
    result: RoundResult | None
    levels: tuple[int, ...]
    # per seat, the cards of its hand at play that were guessed (filler, `rebuild`): the
    # analysis judges only seats without them
    guessed: tuple[int, ...] = ()
    # each seat's hand as drawn, as the record's `deal` lines write it: the dealer's before it
    # took up the kitty (`deal` is the hands at play, after the exchange); empty if not known
    drawn: tuple[int, ...] = ()
    # the seats that won the match with this round (none in every other round)
    won: tuple[int, ...] = ()
    # the round's place among the record's rounds (a number may be written twice: SJ508);
    # -1 for a ledger made of one round alone
    index: int = -1

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The ledger as `zfrec validate --json` writes it."""
        r = self.result
        out: dict[str, Any] = {
            "round": self.number, "dealer": players[self.dealer], "trump": self.trump,
            "deal_reconstructed": self.reconstructed,
            "deal": {players[s]: format_hand(h) for s, h in enumerate(self.deal)},
            "drawn": {players[s]: format_hand(h) for s, h in enumerate(self.drawn)},
            "kitty": format_hand(self.kitty), "discard": format_hand(self.discard),
            "finished": r is not None,
            "levels": {players[s]: level_text(v) for s, v in enumerate(self.levels)},
        }  # fmt: skip
        if r is not None:
            out |= {
                "declarers": [players[s] for s in range(len(players)) if r.declarers >> s & 1],
                "taken": r.taken, "kitty_points": r.kitty_points, "multiplier": r.multiplier,
                "kitty_added": r.kitty_added, "penalty": r.penalty, "total": r.total,
                "declarers_up": r.change.declarers, "opponents_up": r.change.opponents,
                "swap": r.change.swap, "next_dealer": players[r.next_dealer],
            }  # fmt: skip
        return out


@dataclass(frozen=True, slots=True)
class SjReport(Findings):
    """What the validator found in one Sheng ji match record."""

    game: SjMatch
    rules: SjRules | None
    diagnostics: tuple[Diagnostic, ...]
    rounds: tuple[SjRoundLedger, ...] = ()
    levels: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    moves: int = 0

    @property
    def hands(self) -> tuple[SjRoundLedger, ...]:
        """The rounds, by the name Zheng Fen's reports give them (the CLI counts hands)."""
        return self.rounds

    @property
    def kind(self) -> str:
        """The record's kind (zfrec.games), whose `unit` names its rounds."""
        return self.game.game

    def deal_lines(self, game_number: int) -> Iterator[str]:
        """`zfrec validate --show-deal`: each round's deal as the record's `deal` lines write
        it (what each seat drew, the dealer's before the exchange), the kitty as the dealer
        took it up and the discard put back."""
        players = self.game.players
        for r in self.rounds:
            how = "reconstructed from the plays" if r.reconstructed else "as recorded"
            said = self.game.round_said(r.index) if r.index >= 0 else f"round {r.number}"
            yield f"game {game_number}, {said} deal ({how}):"
            for seat, hand in enumerate(r.drawn or r.deal):
                yield f"  {players[seat]}: {format_hand(hand)}"
            yield f"  kitty: {format_hand(r.kitty)}"
            yield f"  discard: {format_hand(r.discard)}"

    def _round_json(self, r: SjRoundLedger) -> dict[str, Any]:
        """A round's ledger, with `occurrence` 2 in the second round of a number (as
        --show-deal says `round 1 (2nd)`)."""
        numbers = [x.number for x in self.game.rounds]
        k = occurrence_at(numbers, r.index) if 0 <= r.index < len(numbers) else 1
        return with_occurrence(r.to_json(self.game.players), k, "round")

    def to_json(self) -> dict[str, Any]:
        """The report as `zfrec validate --json` writes it for one match."""
        players = self.game.players
        return {
            "game": "shengji", "players": list(players),
            "rules": self.rules.preset if self.rules else None,
            "options": self.rules.overrides() if self.rules else {}, "ok": self.ok,
            "rounds": [self._round_json(r) for r in self.rounds], "moves": self.moves,
            "levels": {players[s]: level_text(v) for s, v in enumerate(self.levels)},
            "winners": [players[s] for s in self.winners],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }  # fmt: skip


MAX_SUGGEST = 3  # at most this many cards named in a did-you-mean
MAX_LISTED = 400  # legal follows listed for a did-you-mean; more are not searched


def did_you_mean(missing: list[int], hand: int) -> str:
    """Held cards a missing card may have meant: the same rank in another suit, else the
    same suit; named when there are one to three."""
    held = distinct(hand)
    options: list[int] = []
    for c in missing:
        same_rank = [h for h in held if c < 52 and h < 52 and h >> 2 == c >> 2]
        same_suit = [h for h in held if c < 52 and h < 52 and h & 3 == c & 3]
        options += [h for h in same_rank if h != c] or [h for h in same_suit if h != c]
    options = list(dict.fromkeys(options))
    if not options or len(options) > MAX_SUGGEST:
        return ""
    return " or ".join(format_hand(1 << 2 * c) for c in options)


def follow_hint(order: Order, lead: Format, hand: int, cards: int, reason: str) -> str:
    """`; did you mean ...?` for a follow that breaks ruling 7 (`reason`): the legal follows
    of `hand` with the most cards in common with `cards`, when there are one to three."""
    if count_follows(order, lead, hand) > MAX_LISTED:
        return ""
    best: list[int] = []
    most = -1
    for play in legal_follows(order, lead, hand):
        common = sum(min(count(play, c), count(cards, c)) for c in distinct(play))
        if common > most:
            best, most = [play], common
        elif common == most:
            best.append(play)
    texts = [format_hand(p) for p in best]
    if 0 < len(best) <= MAX_SUGGEST and not (len(texts) == 1 and texts[0] in reason):
        return "; did you mean " + " or ".join(texts) + "?"
    return ""


def par_text(par: int | None, result: int | None) -> str | None:
    """A round's par against its result, as `analyze` and the round page say it: `par 30, +15
    from par` (the opponents took 15 more than perfect play gives them); `par 30` for a round
    unfinished; None where the solver did not reach the par."""
    if par is None:
        return None
    return f"par {par}" if result is None else f"par {par}, {result - par:+d} from par"


def itemised(r: RoundResult) -> str:
    """` (tricks 60, kitty 10 x4 = 40, penalties -10)`, when there is more than tricks."""
    if not r.kitty_added and not r.penalty:
        return ""
    kitty = f", kitty {r.kitty_points} x{r.multiplier} = {r.kitty_added}" if r.kitty_added else ""
    pen = f", penalties {r.penalty:+d}" if r.penalty else ""
    return f" (tricks {r.taken}{kitty}{pen})"
