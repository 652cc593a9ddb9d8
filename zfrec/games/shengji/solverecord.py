"""The Sheng ji solver on records: where a record stops, `zfrec solve`'s JSON, and what each
play of a round cost (`play_costs`, for `analyze` and the replay pages).

A position is a round in play with every hand known: the deal as the validator reads it
(`zfrec.games.shengji.replayer`: recorded, or rebuilt from the plays without a guessed card)
and the round's recorded plays made again through the engine, each verified. `at` names it:
None for where the record stops (its last round), `R` for round R's first lead, just after
the kitty exchange (the round's par), `R.T.U` for round R before turn U of trick T.

    >>> from zfrec.games.shengji.records import SjMatch, SjRound
    >>> m = SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1, dealer=0, rank=2, trump="s")])
    >>> try:
    ...     record_position(m)
    ... except SolveError as exc:
    ...     print(exc.message[:36])
    round 1: the hands are not all known
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from zfrec.errors import AtError, IllegalPlayError, ZfrecError
from zfrec.games.shengji.cards import contains, format_hand, size
from zfrec.games.shengji.rebuild import full_deck
from zfrec.games.shengji.records import SjMatch, SjRound
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.solve import SjBudget, SjLineStep, SjSolveResult, solve_state, solve_value
from zfrec.numbering import occurrence_at
from zfrec.render.pagenames import parse_page_address

__all__ = [
    "PlayCost",
    "RoundCosts",
    "SolveError",
    "play_costs",
    "record_position",
    "round_costs",
    "solve_json",
]

_AT = re.compile(r"([0-9]{1,6})(?:\.([0-9]{1,4})\.([0-9]{1,2}))?")


class SolveError(ZfrecError):
    """A record or position the solver cannot take (a one-line message, exit 2)."""


class SjAtError(SolveError, AtError):
    """`--at` text that names no Sheng ji position."""


@dataclass(frozen=True, slots=True)
class SjPosition:
    """A round in play from a record: `state` (made from the deal and the plays so far),
    the round's index in `match.rounds`, and the plays made (trick, turn, the record's move)."""

    match: SjMatch
    index: int
    state: RoundState
    made: int


@dataclass(frozen=True, slots=True)
class SjAt:
    """A position `--at` names: round `number` (its `occurrence`-th round so numbered: 2 for
    `round-N-2.html`), before `turn` of `trick`, or at `step` of its replay page (the position
    after that many plays; 0 is the deal, as the kitty exchange leaves it), or at its first
    lead when neither is given."""

    number: int
    trick: int | None = None
    turn: int | None = None
    occurrence: int = 1
    step: int | None = None


def _parse_at(at: str) -> SjAt:
    m = _AT.fullmatch(at.strip())
    if m is not None:
        r, t, u = m.groups()
        return SjAt(int(r), None if t is None else int(t), None if u is None else int(u))
    page = parse_page_address(at)
    if page is not None and page[0] == "round":
        _, number, occurrence, step = page
        return SjAt(number, occurrence=occurrence, step=step)
    raise SjAtError(
        f"--at {at!r} names no Sheng ji position: give a round (3: its first lead, after the "
        "kitty exchange), ROUND.TRICK.TURN (3.5.2: before that turn) or a round's replay page "
        "(round-3.html#step=12; round-3-2.html for the second round 3)"
    )


def _step_stop(rnd: SjRound, step: int, name: str) -> tuple[int, int] | None:
    """The (trick, turn) before which step `step` of the round's replay page stands: its
    step K shows the round after K plays (step 0 the deal, the last its result); None for a
    step after the last play. SolveError for a step the page does not have."""
    plays = [
        (t, u) for t, trick in enumerate(rnd.tricks, 1) for u in range(1, len(trick.moves) + 1)
    ]
    if step > len(plays) + 1:
        raise SolveError(
            f"{name} has steps 0 to {len(plays) + 1} (its replay page's #step=), not {step}"
        )
    return plays[step] if step < len(plays) else None


def round_name(match: SjMatch, index: int) -> str:
    """`round 3`, or `round 3 (2nd)` for the second round the record numbers 3 (as its page's
    heading says it: `SjMatch.round_said`)."""
    return match.round_said(index)


def _start(match: SjMatch, index: int, report: Any = None) -> RoundState:
    """Round `index` at its first lead, from the deal the validator reads (`report`, the
    validator's report of the match, when the caller has it)."""
    rnd = match.rounds[index]
    if report is None:
        report = validate_match(match)
    rules = report.rules
    if rules is None:
        raise SolveError("the record's rules cannot be read: see zfrec validate")
    # the round's own ledger, by its place: its number may be written twice (SJ508)
    ledger = next((r for r in report.rounds if r.index == index), None)
    order = rnd.order()
    if ledger is None or order is None:
        raise SolveError(
            f"{round_name(match, index)}: the trump or the deal is not known: nothing to solve"
        )
    why = unknown_hands(match, rnd, ledger, rules)
    if why is not None:
        raise SolveError(f"{round_name(match, index)}: the hands are not all known: {why}")
    return RoundState.from_hands(
        list(ledger.deal), order, ledger.dealer, rules, kitty=ledger.discard,
        calls=[(c.card, c.ordinal) for c in rnd.calls],
    )  # fmt: skip


def unknown_hands(match: SjMatch, rnd: SjRound, ledger: Any, rules: Any) -> str | None:
    """Why the round's hands at play, or its kitty as put back, are not known (every hand that
    is not, the dealer's first, and the lines of the record that give them, FORMAT.md), or None
    when both are.

    The ledger's hands are known where its rebuild guessed no card (`guessed`, per seat, all
    0): the deals recorded, or rebuilt from what each seat showed. A dealer's hand whose discard
    is not written is known only where the rebuild pinned it (it plays every card it kept: its
    `guessed` is 0). The kitty's points count at the end, so the kitty put back must be known
    too: written whole, or pinned as the cards no hand holds (every hand known and the counts
    adding up to the decks). A guessed kitty is never solved."""
    names = match.players
    n, dealer = rules.players, ledger.dealer
    guessed = tuple(ledger.guessed) or (0,) * n
    d = rnd.discard
    written = d is not None and not d.unknown

    def whole(seat: int) -> bool:
        return rnd.deal is not None and seat < len(rnd.deal) and not rnd.deal[seat].unknown

    def cards(k: int) -> str:
        return f"{k} card{'s' if k != 1 else ''}"

    heads: list[str] = []  # each hand not known, the dealer's first
    lines: list[str] = []  # the lines that would give them
    if guessed[dealer]:
        k, name = size(guessed[dealer]), names[dealer]
        heads.append(
            f"the discard is not written, so the dealer's ({name}'s) last {cards(k)} are not "
            "known (which went back to the kitty)"
            if not written
            else f"{cards(k)} of the dealer's ({name}'s) hand are never shown"
        )
        deal_line = f"the dealer's deal line (`deal {dealer + 1}: CARDS`)"
        named = len(lines)
        if not whole(dealer):
            lines.append(deal_line)
        if rnd.kitty is None or rnd.kitty.unknown:
            lines.append("the kitty line (`kitty CARDS`)")
        if not written:
            lines.append("the discard line (`discard CARDS`)")
        if len(lines) == named:  # all three written whole: the deal line is what to check
            lines.append(deal_line)
    for s in range(n):
        if guessed[s] and s != dealer:
            k = size(guessed[s])
            heads.append(f"{cards(k)} of {names[s]}'s hand (seat {s + 1}) are never shown")
            lines.append(f"{names[s]}'s deal line (`deal {s + 1}: CARDS`)")
    if heads:
        return f"{'; '.join(heads)}: write {_and(lines)} in full (FORMAT.md)"
    if written:
        return None
    hands = sum(ledger.deal)
    deck = full_deck(rules.decks)
    pinned = (
        all(size(h) == rules.hand_size for h in ledger.deal)
        and contains(deck, hands)
        and deck - hands == ledger.discard
    )
    if not pinned:
        return (
            "the discard is not written and the hands do not pin it, so the kitty's points are "
            "not known: write the discard line (`discard CARDS`) in full (FORMAT.md)"
        )
    return None


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _play_on(
    state: RoundState, rnd: SjRound, stop: tuple[int, int] | None, name: str | None = None
) -> int:
    """Make the round's recorded plays (each verified) up to `stop` (trick, turn) or all;
    the number made. SolveError at a play the engine refuses. `name`: what the errors call the
    round (`round_name`)."""
    name = name or f"round {rnd.number}"
    made = 0
    for t, trick in enumerate(rnd.tricks, 1):
        for u, move in enumerate(trick.moves, 1):
            if stop is not None and (t, u) >= stop:
                return made
            if state.over:
                raise SolveError(f"{name}: the round is over before trick {t}")
            try:
                state.play(move.seat, move.cards)
            except IllegalPlayError as exc:
                raise SolveError(
                    f"{name}, trick {t}, turn {u}: the recorded play is not legal "
                    f"({exc.message}); see zfrec validate"
                ) from None
            made += 1
    if stop is not None and stop > (len(rnd.tricks) + 1, 1):
        raise SolveError(f"{name} has no trick {stop[0]}, turn {stop[1]}")
    return made


def record_position(game: Any, at: str | None = None) -> SjPosition:
    """The position `at` names in a Sheng ji record (module docstring); SolveError when the
    record gives none that can be solved."""
    from zfrec.games.shengji.kind import match_of

    match = match_of(game)
    if not match.rounds:
        raise SolveError("the record has no round: nothing to solve")
    index, stop = len(match.rounds) - 1, None
    if at is not None:
        named = _parse_at(at)
        number = named.number
        found = [i for i, r in enumerate(match.rounds) if r.number == number]
        if not found:
            raise SolveError(f"the record has no round {number}")
        if len(found) < named.occurrence:
            raise SolveError(
                f"the record has {len(found)} round(s) numbered {number}, not {named.occurrence}"
            )
        # the first round so numbered unless the page names another (round-N-2.html), as
        # Zheng Fen's --at takes the first hand of a number
        index = found[named.occurrence - 1]
        if named.step is not None:
            stop = _step_stop(match.rounds[index], named.step, round_name(match, index))
        else:
            trick, turn = named.trick, named.turn
            stop = (1, 1) if trick is None or turn is None else (trick, turn)
        if stop is not None and (stop[0] < 1 or stop[1] < 1):
            raise SolveError("tricks and turns count from 1")
    rnd = match.rounds[index]
    name = round_name(match, index)
    state = _start(match, index)
    if stop is not None and stop[1] > state.n:
        raise SolveError(f"a trick has {state.n} turns: there is no turn {stop[1]}")
    made = _play_on(state, rnd, stop, name)
    if state.over:
        r = state.result
        assert r is not None
        raise SolveError(f"{name} is over (the opponents took {r.total} points): nothing to solve")
    if not state.rules.fixed_partners and any(state.team_of(s) is None for s in range(state.n)):
        raise SolveError(
            f"{name}: the called friends have not all shown yet, so the teams are "
            "not known: nothing to solve"
        )
    return SjPosition(match, index, state, made)


def _line_json(line: list[SjLineStep], players: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for step in line:
        item: dict[str, Any] = {"player": players[step.seat], "play": format_hand(step.play)}
        if step.trick_to is not None:
            item["trick_to"] = players[step.trick_to]
            item["trick_points"] = step.trick_points
        out.append(item)
    return out


def result_json(result: SjSolveResult, players: list[str]) -> dict[str, Any]:
    """The solve as `zfrec solve --json` writes it (the keys issue 31 gives)."""
    return {
        "values": {"opponents": result.value, "declarers": result.declarers},
        "best": [format_hand(p) for p in result.best],
        "line": _line_json(result.line, players),
        "nodes": result.nodes,
        "ms": round(result.ms, 3),
        "exact": result.exact,
        "bounds": {"opponents": [result.lower, result.upper]},
    }


def solve_position(
    game: Any, at: str | None, max_nodes: int | None, max_seconds: float | None
) -> tuple[SjPosition, SjSolveResult]:
    """The position `at` names and its solve within the budget."""
    pos = record_position(game, at)
    return pos, solve_state(pos.state, SjBudget(max_nodes, max_seconds))


def solve_json(
    game: Any, at: str | None, max_nodes: int | None, max_seconds: float | None
) -> dict[str, Any]:
    """`zfrec solve --json` for a Sheng ji record (GameKind.solve): the solve, and the round
    solved, `occurrence` 2 for the second round so numbered (said only where it repeats)."""
    pos, result = solve_position(game, at, max_nodes, max_seconds)
    answer = result_json(result, pos.match.players)
    numbers = [r.number for r in pos.match.rounds]
    answer["round"] = numbers[pos.index]
    occurrence = occurrence_at(numbers, pos.index)
    if occurrence > 1:
        answer["occurrence"] = occurrence
    return answer


# --- what each play cost ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayCost:
    """One play of a round: `trick` and `turn` (1-based), `seat`, the cards played (for a
    failed throw the forced part), the double-dummy value before and after it (the opponents'
    total under perfect play; None where the position was not solved within the budget) and
    `cost`: the points the play gave away to the other team (0 for a play that keeps the
    value; None when a value is missing)."""

    trick: int
    turn: int
    seat: int
    cards: int
    before: int | None
    after: int | None
    cost: int | None

    def to_json(self, players: list[str]) -> dict[str, Any]:
        return {
            "trick": self.trick, "turn": self.turn, "player": players[self.seat],
            "play": format_hand(self.cards), "before": self.before, "after": self.after,
            "cost": self.cost,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class RoundCosts:
    """A round's costs: `plays` in order, `par` the value at its first lead (None when not
    solved within the budget), `result` the opponents' real total (None for a round the record
    leaves unfinished) and `from_par` = result - par (positive: the opponents did better);
    `step` the points of a level (40 with two decks), for the marks."""

    number: int
    plays: tuple[PlayCost, ...]
    par: int | None
    result: int | None
    step: int = 40

    @property
    def from_par(self) -> int | None:
        if self.par is None or self.result is None:
            return None
        return self.result - self.par

    @property
    def costs(self) -> dict[tuple[int, int], dict[str, Any]]:
        """(trick, turn) -> `{"points", "value", "after", "mark"}` for each play solved
        (`zfrec analyze` puts it in the decision's `cost`)."""
        return {
            (p.trick, p.turn): {
                "points": p.cost, "value": p.before, "after": p.after, "mark": self.mark(p.cost),
            }
            for p in self.plays
            if p.cost is not None
        }  # fmt: skip

    def mark(self, cost: int | None) -> str:
        """`?` for a play that cost points, `??` for one that cost half a level or more."""
        if not cost or cost <= 0:
            return ""
        return "??" if cost >= self.step // 2 else "?"

    def marks(self) -> dict[tuple[int, int], str]:
        """(trick, turn) -> `?` or `??`, for the replay page."""
        return {(p.trick, p.turn): m for p in self.plays if (m := self.mark(p.cost))}

    def to_json(self, players: list[str]) -> dict[str, Any]:
        return {
            "round": self.number, "par": self.par, "result": self.result,
            "from_par": self.from_par, "plays": [p.to_json(players) for p in self.plays],
        }  # fmt: skip


def round_costs(
    game: Any,
    round_index: int,
    max_cards: int = 24,
    max_nodes: int | None = 200_000,
    max_seconds: float | None = 2.0,
    report: Any = None,
) -> RoundCosts:
    """What each play of round `round_index` (0-based, in `rounds`) cost, double-dummy.

    Positions are solved where at most `max_cards` cards are left in all hands together
    (larger ones are left unsolved: their values are None), each within `max_nodes` and
    `max_seconds`; a value not proved within the budget counts as unknown. The par is the value
    at the first lead, when that position is within reach. A play's cost needs the values
    before and after it. SolveError when the round's hands are not known; the costs stop at a
    play the engine refuses (see zfrec validate)."""
    from zfrec.games.shengji.kind import match_of

    match = match_of(game)
    if not 0 <= round_index < len(match.rounds):
        raise SolveError(f"there is no round {round_index + 1} in the record")
    rnd = match.rounds[round_index]
    state = _start(match, round_index, report)
    budget = SjBudget(max_nodes, max_seconds)
    step = state.rules.step

    def value() -> int | None:
        if state.result is not None:
            return state.result.total
        if sum(size(h) for h in state.hands) > max_cards:
            return None
        if not state.rules.fixed_partners and any(state.team_of(s) is None for s in range(state.n)):
            return None
        return solve_value(state, budget)

    par = value()
    before = par
    out: list[PlayCost] = []
    for t, trick in enumerate(rnd.tricks, 1):
        for u, move in enumerate(trick.moves, 1):
            if state.over:
                break
            seat = move.seat
            opponent = not state.declarers >> seat & 1
            try:
                ev = state.play(seat, move.cards)
            except IllegalPlayError:
                return RoundCosts(rnd.number, tuple(out), par, None, step)
            after = value()
            cost = None
            if before is not None and after is not None:
                cost = before - after if opponent else after - before
            out.append(PlayCost(t, u, seat, ev.cards, before, after, cost))
            before = after
    result = state.result.total if state.result is not None else None
    return RoundCosts(rnd.number, tuple(out), par, result, step)


def play_costs(
    game: Any,
    report: Any = None,
    max_cards: int = 24,
    seconds: float = 2.0,
    refused: dict[int, str] | None = None,
) -> dict[int, RoundCosts]:
    """Every round's costs whose hands are known, by the round's index in the record
    (`round_costs` each; rounds that cannot be solved are left out, and when `refused` is
    given, it gets why, by the index: `zfrec solve`'s words less the leading "round N: ").
    `report` is the validator's report of the record, when the caller has one (else it is
    made once here)."""
    from zfrec.games.shengji.kind import match_of

    match = match_of(game)
    if report is None:
        report = validate_match(match)
    out: dict[int, RoundCosts] = {}
    for i in range(len(match.rounds)):
        try:
            out[i] = round_costs(match, i, max_cards, max_seconds=seconds, report=report)
        except SolveError as exc:
            if refused is not None:
                head = f"{round_name(match, i)}: "
                why = exc.message
                refused[i] = why[len(head) :] if why.startswith(head) else why
    return out
