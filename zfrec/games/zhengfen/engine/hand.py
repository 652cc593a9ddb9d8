"""One hand's state machine (RULES.md R5-R11), `HandState`: the judge of every rule of play.

It is mutable and is changed in place by its actions; each action returns a frozen event and
appends it to `HandState.log`, and `undo()` takes the last action back exactly, so a search makes
and unmakes moves instead of copying the state. Every action comes in three forms: `verify_*`
raises `IllegalPlayError` with the reason, the rule and the diagnostic code, `can_*` answers yes
or no, and the action itself applies it. The game across hands is zfrec.games.zhengfen.engine.game
(`GameState`), which re-exports what is here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from zfrec.core import Deal
from zfrec.errors import IllegalPlayError
from zfrec.games.zhengfen.engine.actions import (
    HandResult,
    Logged,
    PassEvent,
    PlayEvent,
    RevealEvent,
    TrickResult,
)
from zfrec.games.zhengfen.engine.cards import POINTS_BY_COUNTERS as _POINTS
from zfrec.games.zhengfen.engine.cards import Declarations, format_cards
from zfrec.games.zhengfen.engine.combos import DEFAULT_RULES, Category, Combo, readings, resolve
from zfrec.games.zhengfen.engine.deal import (
    check_seats,
)
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.engine.seats import NEXT


def best_reading(
    mask: int, rules: Ruleset = DEFAULT_RULES, declarations: Declarations | None = None
) -> Combo | None:
    """The highest reading of a card set wherever it is played, honouring its declarations
    where they give one; None if the cards form no combination at all."""
    found = readings(mask, rules, declarations) or readings(mask, rules)
    return found[0] if found else None


_new = tuple.__new__
# undo() and play_combo() read the named tuples by index: the layout they rely on.
assert PlayEvent._fields[::2] == ("seat", "turn", "out_place", "hand_result")
assert PassEvent._fields[-2:] == PlayEvent._fields[-2:] == ("trick_result", "hand_result")
assert TrickResult._fields[1] == "winner" and Combo._fields[3] == "mask"

# What an action may change, saved before it so that undo() restores it exactly: turn, trick,
# turn_in_trick, top, top_seat, trick_cards, the seats that passed, final_turn, the mover's
# cards (a play changes only the mover's hand) and the cards won so far by the seat that takes
# the trick if this action ends it (the mover for a play, the top player for a pass). No action
# is taken once the result exists, and going out is read back from the event.
_Saved = tuple[int, int, int, Combo | None, int | None, int, int, bool, int, int]

# Readings depend on the cards, their declarations and the rules, and a record plays the same
# card sets again and again: each is read once per ruleset.
_READINGS: dict[Ruleset, dict[object, list[Combo]]] = {}
_READINGS_MAX = 16_000  # per ruleset; a few MB at most


def _readings_cache(rules: Ruleset) -> dict[object, list[Combo]]:
    cache = _READINGS.get(rules)
    if cache is None:
        if len(_READINGS) >= 8:
            _READINGS.clear()
        cache = _READINGS[rules] = {}
    return cache


# --- one hand ---------------------------------------------------------------------------------


@dataclass(slots=True)
class HandState:
    """A hand in progress. Seats are 0..n-1 in play order; `hands` are card masks.

    Every action appends its frozen event to `log`, and `undo()` takes the last one back,
    restoring the state exactly: search makes and unmakes moves instead of copying the state.
    A hand made with `undoable=False` keeps the log but no undo record (a replay that only
    judges the record saves that work), and its `undo()` raises.

    `turn` is the seat to act, `turn_in_trick` the number the next action gets in the trick
    `trick`; `top` and `top_seat` are the play to beat (None on a lead), `trick_cards` the cards
    played to the trick so far, `won` the cards each seat has taken. `n`, `over` (a result
    exists) and `holders` (seats still holding cards) are plain attributes, kept up to date.

    >>> from zfrec.games.zhengfen.engine.cards import parse_cards
    >>> hs = HandState([parse_cards(h) for h in ("3h 4s", "5s 6s", "7s 8s")], leader=0)
    >>> event = hs.play(0, parse_cards("3h"))
    >>> (hs.turn, len(hs.log))
    (1, 1)
    >>> hs.undo() == event, hs.turn, hs.hands[0] == parse_cards("3h 4s"), hs.log
    (True, 0, True, [])
    """

    hands: list[int]
    leader: int
    rules: Ruleset = DEFAULT_RULES
    number: int = 1
    undoable: bool = True  # False: no undo record is kept (a replay that only judges)
    n: int = field(init=False)
    turn: int = field(init=False)
    trick: int = field(init=False, default=1)
    turn_in_trick: int = field(init=False, default=1)
    top: Combo | None = field(init=False, default=None)
    top_seat: int | None = field(init=False, default=None)
    trick_cards: int = field(init=False, default=0)
    won: list[int] = field(init=False)
    out_order: list[int] = field(init=False, default_factory=list)
    final_turn: bool = field(init=False, default=False)
    result: HandResult | None = field(init=False, default=None)
    over: bool = field(init=False, default=False)
    holders: int = field(init=False)
    log: list[Logged] = field(init=False, default_factory=list)
    # Which cards in hand are known and which a guessed deal placed (None: all known);
    # see mark_known and reveal.
    deal: Deal | None = field(init=False, default=None)
    _passed: int = field(init=False, default=0, repr=False)  # seats that passed since the top
    _empty: int = field(init=False, default=0, repr=False)  # seats holding no cards
    _everyone: int = field(init=False, default=0, repr=False)
    _next: tuple[int, ...] = field(init=False, default=(), repr=False)
    _saved: list[_Saved | int] = field(init=False, default_factory=list, repr=False)
    _deals: list[Deal | None] = field(init=False, default_factory=list, repr=False)  # by reveal
    _readings: dict[object, list[Combo]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        n = len(self.hands)
        check_seats(n)
        self.n = n
        self.won = [0] * n
        self.turn = self.leader
        self._next = NEXT[n]
        self._everyone = (1 << n) - 1
        self._empty = sum(1 << s for s in range(n) if not self.hands[s])
        self.holders = n - self._empty.bit_count()
        self._readings = _readings_cache(self.rules)

    @property
    def passed(self) -> frozenset[int]:
        """The seats that passed since the top play was made."""
        return frozenset(s for s in range(self.n) if self._passed >> s & 1)

    def holding(self) -> list[int]:
        """Seats that still hold cards, in seat order."""
        return [s for s in range(self.n) if self.hands[s]]

    def is_lead(self) -> bool:
        """True when the seat to act leads: no play is on the table."""
        return self.top is None

    # the log -------------------------------------------------------------------------------------

    def _save(self, seat: int, taker: int | None) -> None:
        self._saved.append(
            (
                self.turn, self.trick, self.turn_in_trick, self.top, self.top_seat,
                self.trick_cards, self._passed, self.final_turn, self.hands[seat],
                0 if taker is None else self.won[taker],
            )
        )  # fmt: skip

    def undo(self) -> Logged:
        """Take back the last action and return its event; raise IndexError if there is none.

        The state afterwards is exactly the state before the action: the hand, the trick, the
        turn, what was won, who went out.

        >>> from zfrec.games.zhengfen.engine.cards import parse_cards
        >>> hs = HandState([parse_cards(h) for h in ("3h 4s 9d", "5s 6s", "7s 8s")], leader=0)
        >>> played, passed = hs.play(0, parse_cards("3h")), hs.pass_(1)
        >>> hs.undo() == passed, hs.turn, len(hs.log)
        (True, 1, 1)
        >>> hs.undo() == played, hs.turn, hs.hands[0] == parse_cards("3h 4s 9d")
        (True, 0, True)
        """
        log = self.log
        if not log or not self.undoable:
            if not log:
                raise IndexError("nothing to undo: no action has been taken in this hand")
            raise ValueError("this hand keeps no undo record: it was made with undoable=False")
        event = log.pop()
        if type(event) is RevealEvent:
            for trade in event.trades:
                self.hands[event.seat] = self.hands[event.seat] & ~trade.card | trade.given
                self.hands[trade.owner] = self.hands[trade.owner] & ~trade.given | trade.card
            self.deal = self._deals.pop()
            return event
        # The events' fields by index (a field's name costs a lookup each time, and a search
        # undoes every move it makes): seat 0, turn 2, a play's out_place 4, and the trick's
        # and the hand's results last in both kinds.
        saved = self._saved.pop()
        seat = event[0]
        if isinstance(saved, int):  # a pass that only handed the turn on (pass_)
            self.turn, self.turn_in_trick, self._passed = seat, event[2], saved
            return event
        (
            self.turn, self.trick, self.turn_in_trick, self.top, self.top_seat,
            self.trick_cards, self._passed, self.final_turn, held, won,
        ) = saved  # fmt: skip
        if type(event) is PlayEvent:
            self.hands[seat] = held
            if event[4] is not None:
                self.out_order.pop()
                self._empty &= ~(1 << seat)
                self.holders += 1
        trick_result = event[-2]
        if trick_result is not None:
            self.won[trick_result[1]] = won  # its winner
            if event[-1] is not None:  # only an action that ends a trick ends the hand
                self.result, self.over = None, False
        return event

    # verify ------------------------------------------------------------------------------------

    def _error(
        self, message: str, rule: str, code: str, seat: int, *seats: int
    ) -> IllegalPlayError:
        return IllegalPlayError(
            message, rule, code, seats=seats, seat=seat, hand=self.number, trick=self.trick,
            turn=self.turn_in_trick,
        )  # fmt: skip

    def _verify_present(self, seat: int) -> None:
        """The hand goes on, and `seat` is a seat that still holds cards (R8, R9)."""
        if self.over:
            raise self._error(
                "the hand is over: no play follows the final trick (RULES.md R9)",
                "R9",
                "ZF204",
                seat,
            )
        if not 0 <= seat < self.n:
            raise self._error(f"there is no seat {seat + 1}", "R1", "ZF201", seat)
        if not self.hands[seat]:
            raise self._error(
                "{0} is out and takes no further part (RULES.md R8)", "R8", "ZF202", seat, seat
            )

    def _out_of_turn(self, seat: int) -> IllegalPlayError:
        turn = self.turn
        if self.top is None:
            return self._error(
                "{0} should lead this trick, not {1} (RULES.md R4, R6, R8)",
                "R4",
                "ZF203",
                seat,
                turn,
                seat,
            )
        if seat in self.pass_chain():  # the seats before it would have to pass first
            return self._error(
                "it is {0}'s turn, not {1}'s (RULES.md R5)", "R5", "ZF201", seat, turn, seat
            )
        return self._error(
            "it is {0}'s turn, not {1}'s: the trick would end before {1} could act "
            "(RULES.md R5, R6)",
            "R5",
            "ZF201",
            seat,
            turn,
            seat,
        )

    def verify_turn(self, seat: int) -> None:
        """Raise unless `seat` may act now: the hand goes on (ZF204), the seat exists and holds
        cards (ZF201, ZF202), and it is its turn: to lead (ZF203) or to follow (ZF201)."""
        self._verify_present(seat)
        if seat != self.turn:
            raise self._out_of_turn(seat)

    def verify_cards(self, seat: int, mask: int, declarations: Declarations | None = None) -> Combo:
        """The reading a play of `mask` by `seat` takes here, whoever's turn it is; raise if the
        seat does not hold the cards (ZF301), they form no combination (ZF101), are ambiguous
        on a lead (ZF102), do not beat the top (ZF103) or are declared wrongly (ZF104)."""
        missing = mask & ~self.hands[seat]
        if missing:
            raise self._error(
                f"{{0}} does not hold {format_cards(missing)} (RULES.md R3)",
                "R3",
                "ZF301",
                seat,
                seat,
            )
        key: object = (mask, tuple(sorted(declarations.items()))) if declarations else mask
        found = self._readings.get(key)
        if found is None:
            found = readings(mask, self.rules, declarations)
            if len(self._readings) >= _READINGS_MAX:
                self._readings.clear()
            self._readings[key] = found
        try:
            return resolve(mask, self.top, self.rules, declarations, found)
        except IllegalPlayError as exc:
            exc.at(seat=seat, hand=self.number, trick=self.trick, turn=self.turn_in_trick)
            raise

    def verify_play(self, seat: int, mask: int, declarations: Declarations | None = None) -> Combo:
        """The reading this play takes, or raise `IllegalPlayError` with the reason.

        >>> from zfrec.games.zhengfen.engine.cards import parse_cards
        >>> hs = HandState([parse_cards(h) for h in ("5s 5h", "4s 4d", "9c")], leader=0)
        >>> hs.verify_play(0, parse_cards("5s 5h")).describe()
        'pair of 5s'
        >>> _ = hs.play(0, parse_cards("5s 5h"))
        >>> hs.verify_play(1, parse_cards("4s 4d"))
        Traceback (most recent call last):
        ...
        zfrec.errors.IllegalPlayError: pair of 4s is lower than pair of 5s (RULES.md R19)
        """
        if seat != self.turn or self.over or not self.hands[seat]:
            self.verify_turn(seat)  # raises: the common case, in turn, is fine
        return self.verify_cards(seat, mask, declarations)

    def can_play(self, seat: int, mask: int, declarations: Declarations | None = None) -> bool:
        """Whether `seat` may play `mask` now (verify_play without the reason)."""
        try:
            self.verify_play(seat, mask, declarations)
        except IllegalPlayError:
            return False
        return True

    def verify_pass(self, seat: int) -> None:
        """Raise unless `seat` may pass now: as verify_turn, and a leader may not pass (ZF105)."""
        self._verify_present(seat)
        if self.top is None:
            raise self._error(
                "{0} passes, but a trick is to be led and a leader may not pass (RULES.md R5)",
                "R5",
                "ZF105",
                seat,
                seat,
            )
        if seat != self.turn:
            raise self._out_of_turn(seat)

    def can_pass(self, seat: int) -> bool:
        """Whether `seat` may pass now."""
        try:
            self.verify_pass(seat)
        except IllegalPlayError:
            return False
        return True

    def pass_chain(self) -> list[int]:
        """The seats that would act, in order, if each of them passed; the trick ends after the
        last. Empty on a lead, where nobody may pass. The replay infers omitted passes from it."""
        if self.over or self.top is None:
            return []
        chain: list[int] = []
        passed, seat = self._passed, self.turn
        while True:
            chain.append(seat)
            passed |= 1 << seat
            after = self._after_pass(seat, passed)
            if after is None or len(chain) > 2 * self.n:
                return chain
            seat = after

    def next_leader(self) -> int | None:
        """Who leads the next trick once every seat of the pass chain has passed: the top
        player, or when they are out the next seat holding cards (R8); None when that would
        end the hand, or no play is on the table."""
        if self.over or self.final_turn or self.top_seat is None:
            return None
        winner = self.top_seat
        return winner if self.hands[winner] else self._next_holder(winner)

    # what is known of the cards ----------------------------------------------------------------

    def mark_known(self, known: Sequence[int]) -> None:
        """Say which of the dealt cards are known to be where they are (`known`, per seat):
        the others were placed by a guess (a deal rebuilt from the plays), and `reveal` may
        move those still in hand. Not an action: nothing to undo."""
        dealt = list(self.hands)
        for event in self.log:
            if type(event) is PlayEvent:
                dealt[event.seat] |= event.combo.mask
        self.deal = Deal.of(dealt, known)

    def reveal(self, seat: int, mask: int, keep: int = 0) -> RevealEvent:
        """`seat` is shown to hold the cards of `mask` (it is about to play them): where the
        guessed deal placed some with another seat, they trade places with the seat's own
        guessed cards (not `keep`). Logged; `undo()` takes it back. Raises IllegalPlayError
        (ZF301) when the cards cannot be its: known elsewhere, already played, or no guessed
        card of its own to give for them."""
        found = None
        if self.deal is not None and 0 <= seat < self.n:
            found = self.deal.reveal(seat, mask, self.hands, keep)
        if found is None:
            missing = mask & ~self.hands[seat] if 0 <= seat < self.n else mask
            raise self._error(
                f"{{0}} does not hold {format_cards(missing)} (RULES.md R3)", "R3", "ZF301",
                seat, seat,
            )  # fmt: skip
        deal, trades = found
        for trade in trades:
            self.hands[seat] = self.hands[seat] & ~trade.given | trade.card
            self.hands[trade.owner] = self.hands[trade.owner] & ~trade.card | trade.given
        self._deals.append(self.deal)
        self.deal = deal
        event = RevealEvent(seat, self.trick, self.turn_in_trick, trades)
        self.log.append(event)
        return event

    # act ---------------------------------------------------------------------------------------

    def play(self, seat: int, mask: int, declarations: Declarations | None = None) -> PlayEvent:
        """Verify and make a play of the cards `mask`; returns its event (also in `log`).

        Raises IllegalPlayError (its `code` the diagnostic's) when the play breaks a rule;
        the state is then unchanged. `declarations` say what wild jokers stand for.

        >>> from zfrec.games.zhengfen.engine.cards import format_cards, parse_cards
        >>> hs = HandState([parse_cards(h) for h in ("3h 4s 9d", "5s 6s", "7s 8s")], leader=0)
        >>> event = hs.play(0, parse_cards("3h"))
        >>> event.combo.text(), event.turn, hs.turn, format_cards(hs.hands[0])
        ('3h', 1, 1, '4s 9d')
        >>> hs.play(1, parse_cards("4s"))
        Traceback (most recent call last):
        ...
        zfrec.errors.IllegalPlayError: seat 2 does not hold 4s (RULES.md R3)
        """
        # verify_play, inline: a replay makes every recorded play through here
        if seat != self.turn or self.over or not self.hands[seat]:
            self.verify_turn(seat)  # raises
        combo = self.verify_cards(seat, mask, declarations)
        if self.undoable:  # self.play_combo(seat, combo), inline
            self._save(seat, seat)
        return self._play(seat, combo)

    def play_combo(self, seat: int, combo: Combo) -> PlayEvent:
        """Make a play already verified (by verify_play, or listed by movegen.physical_plays)."""
        # self._save(seat, seat) and self._play(seat, combo), inline: the solver plays
        # through here at every play of its search
        trick, turn = self.trick, self.turn_in_trick
        hands = self.hands
        held = hands[seat]
        if self.undoable:
            self._saved.append(
                (
                    self.turn, trick, turn, self.top, self.top_seat, self.trick_cards,
                    self._passed, self.final_turn, held, self.won[seat],
                )
            )  # fmt: skip
        mask = combo[3]  # its cards (a field's name costs a lookup)
        left = held & ~mask
        hands[seat] = left
        self.trick_cards |= mask
        self.top, self.top_seat = combo, seat
        self._passed = 0
        self.turn_in_trick = turn + 1
        out_place = None
        if not left and held:
            self.out_order.append(seat)
            out_place = len(self.out_order)
            self._empty |= 1 << seat
            self.holders -= 1
        holders = self.holders
        if self.final_turn or not holders:
            trick_result, hand_result = self._end_trick(final=True)
            event: PlayEvent = _new(
                PlayEvent, (seat, trick, turn, combo, out_place, trick_result, hand_result)
            )
        else:
            if holders == 1:
                last = self._next_holder(seat)
                if last == seat:  # cannot happen, as in _play
                    trick_result, hand_result = self._end_trick(final=True)
                    event = _new(
                        PlayEvent, (seat, trick, turn, combo, out_place, trick_result, hand_result)
                    )
                    self.log.append(event)
                    return event
                self.final_turn = True  # the last holder gets exactly one turn (R9)
                self.turn = last
            else:
                nxt = self._next  # self._next_holder(seat), inline
                s = nxt[seat]
                while not hands[s]:
                    s = nxt[s]
                self.turn = s
            event = _new(PlayEvent, (seat, trick, turn, combo, out_place, None, None))
        self.log.append(event)
        return event

    def pass_(self, seat: int) -> PassEvent:
        """Verify and make a pass; returns its event (also in `log`).

        Raises IllegalPlayError when the seat may not pass now (a leader may not pass, R5;
        out of turn, R6); the state is then unchanged.

        >>> from zfrec.games.zhengfen.engine.cards import parse_cards
        >>> hs = HandState([parse_cards(h) for h in ("3h 4s 9d", "5s 6s", "7s 8s")], leader=0)
        >>> _ = hs.play(0, parse_cards("3h"))
        >>> hs.pass_(1)
        PassEvent(seat=1, trick=1, turn=2, trick_result=None, hand_result=None)
        >>> hs.pass_(1)
        Traceback (most recent call last):
        ...
        zfrec.errors.IllegalPlayError: it is seat 3's turn, not seat 2's: the trick would end \
before seat 2 could act (RULES.md R5, R6)
        """
        if seat != self.turn or self.top is None or self.over or not self.hands[seat]:
            self.verify_pass(seat)  # raises: the common case, in turn and following, is legal
        top = self.top_seat
        trick, turn = self.trick, self.turn_in_trick
        before = self._passed
        passed = before | 1 << seat
        # self._pass(seat), inline: a replay makes every pass through here
        if (
            top is None
            or seat == top
            or self.final_turn
            or passed | self._empty | 1 << top == self._everyone
        ):
            # The pass may end the trick: the whole undo record (self._save(seat, top), inline).
            if self.undoable:
                self._saved.append(
                    (
                        self.turn, trick, turn, self.top, top, self.trick_cards, before,
                        self.final_turn, self.hands[seat], 0 if top is None else self.won[top],
                    )
                )  # fmt: skip
            self.turn_in_trick = turn + 1
            self._passed = passed
            # self._after_pass(seat, passed), inline: here every seat but the top has passed
            # or is out, unless the top seat passes or this is the last holder's one turn
            final = self.final_turn
            if (
                top is not None
                and seat != top
                and not final
                and self.rules.self_overplay
                and self.hands[top]
            ):
                after = top  # may beat their own play (R7)
            else:
                trick_result, hand_result = self._end_trick(final)
                event: PassEvent = _new(PassEvent, (seat, trick, turn, trick_result, hand_result))
                self.log.append(event)
                return event
        else:
            # The common case: the trick goes on to the next holder (the pass is not the last
            # holder's one turn, nor the top player's, and some seat that has not passed since
            # the top still holds cards). It changes only the turn, its number and the passes,
            # so its undo record is the passes before it (the seat and the number are the
            # event's): the search passes through here at most of its nodes.
            if self.undoable:
                self._saved.append(before)
            self.turn_in_trick = turn + 1
            self._passed = passed
            nxt, hands = self._next, self.hands
            after = nxt[seat]
            while not hands[after]:
                after = nxt[after]
        self.turn = after
        event = _new(PassEvent, (seat, trick, turn, None, None))
        self.log.append(event)
        return event

    def force_play(self, seat: int, mask: int, combo: Combo | None) -> PlayEvent:
        """Recovery after an illegal recorded play: apply it as written, so that a replay goes
        on from the state the record shows (DIAGNOSTICS.md, After an error).

        `seat` takes the turn if it was not its turn; the cards of `mask` it holds leave its hand
        and all of them join the trick. `combo` is the reading to go on from (see
        `recorded_reading`), or None for cards that form no combination: the play then stands
        under a placeholder reading in the trick's category, rank -1, that every play of that
        category beats. `combo`, when given, is a reading of the cards of `mask`. Only a seat
        that still holds cards, in a hand not over, can be forced.
        """
        self._verify_present(seat)
        if combo is None:
            category = self.top.category if self.top is not None else Category.single
            combo = Combo(category, -1, None, mask)
        if self.undoable:
            self._save(seat, seat)
        self.turn = seat
        return self._play(seat, combo)

    def force_pass(self, seat: int) -> PassEvent:
        """Recovery after a recorded pass out of turn: `seat` takes the turn and passes.

        A pass where a trick is to be led cannot be applied (it raises, as verify_pass does)."""
        self._verify_present(seat)
        if self.top is None:
            self.verify_pass(seat)
        if self.undoable:
            self._save(seat, self.top_seat)
        self.turn = seat
        return self._pass(seat)

    def recorded_reading(self, mask: int, declarations: Declarations | None = None) -> Combo | None:
        """The reading an illegal recorded play is taken at, so that play can go on: its reading
        here if it has one, else its best reading anywhere (declarations honoured where they
        give one), else None (the cards form no combination)."""
        try:
            return resolve(mask, self.top, self.rules, declarations)
        except IllegalPlayError:  # ambiguous, or does not beat: take its best reading
            return best_reading(mask, self.rules, declarations)

    # internals ------------------------------------------------------------------------------

    def _play(self, seat: int, combo: Combo) -> PlayEvent:
        trick, turn = self.trick, self.turn_in_trick
        hands = self.hands
        held = hands[seat]
        left = held & ~combo.mask
        hands[seat] = left
        self.trick_cards |= combo.mask
        self.top, self.top_seat = combo, seat
        self._passed = 0
        self.turn_in_trick = turn + 1
        out_place = None
        if held and not left:
            self.out_order.append(seat)
            out_place = len(self.out_order)
            self._empty |= 1 << seat
            self.holders -= 1
        trick_result = hand_result = None
        holders = self.holders
        if self.final_turn or not holders:
            trick_result, hand_result = self._end_trick(final=True)
        elif holders == 1:
            last = self._next_holder(seat)
            if last == seat:  # cannot happen: a play that leaves one holder came from another seat
                trick_result, hand_result = self._end_trick(final=True)
            else:
                self.final_turn = True  # the last holder gets exactly one turn (R9)
                self.turn = last
        else:
            nxt = self._next  # self._next_holder(seat), inline
            s = nxt[seat]
            while not hands[s]:
                s = nxt[s]
            self.turn = s
        event: PlayEvent = _new(
            PlayEvent, (seat, trick, turn, combo, out_place, trick_result, hand_result)
        )
        self.log.append(event)
        return event

    def _pass(self, seat: int) -> PassEvent:
        trick, turn = self.trick, self.turn_in_trick
        self.turn_in_trick = turn + 1
        self._passed |= 1 << seat
        after = self._after_pass(seat, self._passed)
        if after is None:
            trick_result, hand_result = self._end_trick(final=self.final_turn)
            event: PassEvent = _new(PassEvent, (seat, trick, turn, trick_result, hand_result))
        else:
            self.turn = after
            event = _new(PassEvent, (seat, trick, turn, None, None))
        self.log.append(event)
        return event

    def _after_pass(self, seat: int, passed: int) -> int | None:
        """Who acts after `seat` passes, or None when that pass ends the trick (R6, R7, R9)."""
        top = self.top_seat
        if self.final_turn or seat == top:
            # The last holder's one turn, or the top player declining to beat their own play.
            return None
        assert top is not None
        if passed | self._empty | 1 << top == self._everyone:
            if self.rules.self_overplay and self.hands[top]:
                return top  # may beat their own play (R7)
            return None
        return self._next_holder(seat)

    def _next_holder(self, seat: int) -> int:
        nxt, hands = self._next, self.hands
        s = nxt[seat]
        while not hands[s]:
            s = nxt[s]
        return s

    def _end_trick(self, final: bool) -> tuple[TrickResult, HandResult | None]:
        winner = self.top_seat
        assert winner is not None
        cards = self.trick_cards
        self.won[winner] |= cards
        number = self.trick
        self.trick = number + 1
        self.turn_in_trick = 1
        self.top, self.top_seat, self.trick_cards = None, None, 0
        self._passed = 0
        # points_of(cards), inline: a search ends a trick at every few of its moves
        points = _POINTS[cards >> 8 & 0xF | cards >> 24 & 0xF0 | cards >> 32 & 0xF00]
        if final:
            self.result = self._score()
            self.over = True
            taken: TrickResult = _new(TrickResult, (number, winner, cards, points, None))
            return taken, self.result
        # The winner leads; if they are out, the lead passes on in play order (R8).
        leader = winner if self.hands[winner] else self._next_holder(winner)
        self.turn = leader
        taken = _new(TrickResult, (number, winner, cards, points, leader))
        return taken, None

    def _score(self) -> HandResult:
        # (a search scores the hand at every line it plays to the end: no list of the holders,
        # and the points by table lookup, as points_of)
        hands = self.hands
        order = list(self.out_order)
        for seat, held in enumerate(hands):
            if held:  # the first seat still holding cards comes last
                order.append(seat)
                break
        first, last = order[0], order[-1]
        taken = list(self.won)
        transfer_tricks, transfer_hand = taken[last], hands[last]
        moved = transfer_tricks | transfer_hand
        taken[first] |= moved
        taken[last] = 0
        return HandResult(
            tuple(order),
            first,
            last,
            transfer_tricks,
            transfer_hand,
            _POINTS[moved >> 8 & 0xF | moved >> 24 & 0xF0 | moved >> 32 & 0xF00],
            tuple(taken),
            tuple([_POINTS[m >> 8 & 0xF | m >> 24 & 0xF0 | m >> 32 & 0xF00] for m in taken]),
        )
