"""The typed Sheng ji record: what was written down of a match, with where it was written.

This is data, not rules, as `zfrec.record.model` is for Zheng Fen: nothing here knows whether a
play follows suit or a level change is right; the Sheng ji validator decides that. The model
holds exactly what the notation (FORMAT.md, Sheng ji) and the JSON form can say, so that
text -> record -> JSON -> record -> text is lossless.

Shapes (all plain slotted dataclasses; seats 0-based here, 1-based in both notations):

- `SjMatch`: the header (players, event, site, date, preset and overridden options, the
  `[Result]` final levels and winners, other tags), the game comments and the `rounds`.
- `SjRound`: `number`, `dealer`, `rank` (the dominant rank as a level 2..14), `trump` (`s h d c`,
  `nt` for no-trump, None when not written); `deal` (one `SjCards` per seat, or None),
  `bids` (in the order made), `kitty` (as taken up) and `discard` (as put back), `calls`
  (zhao pengyou), `tricks`, `points`, `outcome` (the level change and next dealer), `levels`
  (each seat's level after the round) and its comments.
- `SjMove`: one bid or one play: `seat`, `cards` (a packed multiset, `zfrec.games.shengji.cards`;
  for a failed throw the attempt), `forced` (the forced part of a failed throw, else None) and
  `blocker` (who could beat it, if written), `joins` (zhao pengyou: this play makes the seat a
  friend), the `!`/`?` annotation, comments, and the `disputed` marker with its note and the
  other versions (`alternatives`, packed multisets).
- `SjCards`: known cards (packed) and a count of unknown ones (`?N`), for deals and the kitty.
- `SjPoints`: the opponents' points: `taken` in tricks, the kitty's points and multiplier
  (None when not written), the throw `penalty` and the `total`.
- `SjOutcome`: `side` (`declarers` or `opponents`) going up `steps` levels (opponents +0 is a
  plain swap) and the `next_dealer`.

Every element carries its source position (`pos`, `zfrec.record.model.Pos`), which never takes
part in equality: a record read from JSON equals the same record read from text.

Read through the generic record layer (`zfrec.record.load`), a Sheng ji record is a `Game` with
`kind == "shengji"` whose `rounds` are these `SjRound`s, the header in the `Game`'s own fields
(`[Result]`'s final levels in `Game.result.scores`, 2..14); `zfrec.games.shengji.kind.match_of`
gives it as an `SjMatch`, which is what the standalone reader (`zfrec.games.shengji.reader`)
gives too.

    >>> from zfrec.games.shengji.cards import parse_hand
    >>> m = SjMove(0, parse_hand("Kd Qd Qd"), forced=parse_hand("Qd Qd"), blocker=2)
    >>> m.failed, m.back == parse_hand("Kd")
    (True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zfrec.games.shengji.order import Order, make_order
from zfrec.games.shengji.rules import SjRules, level_rank, sj_preset
from zfrec.numbering import said_at
from zfrec.record.model import NameMark, Pos, seat_name, seat_of
from zfrec.record.problems import ReadProblem

__all__ = [
    "GAME_KIND",
    "MAX_ROUND_NUMBER",
    "SIDES",
    "TRUMPS",
    "PlainTrick",
    "SjCall",
    "SjCards",
    "SjLevels",
    "SjMatch",
    "SjMatchResult",
    "SjMove",
    "SjOutcome",
    "SjPoints",
    "SjRound",
    "SjTrick",
]

GAME_KIND = "shengji"
TRUMPS = ("s", "h", "d", "c", "nt")  # a round's trump as the record writes it
SIDES = ("declarers", "opponents")
MAX_ROUND_NUMBER = 999_999
MAX_POINTS = 9_999_999  # any points figure of a round, either sign (FORMAT.md, Limits)
MAX_MULTIPLIER = 1024
MIN_PLAYERS, MAX_PLAYERS = 4, 8


@dataclass(slots=True)
class SjMove:
    """One bid or one play as written (see the module docstring)."""

    seat: int
    cards: int
    forced: int | None = None
    blocker: int | None = None
    joins: bool = False
    annotation: str | None = None
    comments: list[str] = field(default_factory=list)
    disputed: bool = False
    dispute_note: str | None = None
    alternatives: tuple[int, ...] = ()
    pos: Pos | None = field(default=None, compare=False)

    @property
    def failed(self) -> bool:
        """A throw written as failed: `cards` is the attempt, `forced` what stayed down."""
        return self.forced is not None

    @property
    def played(self) -> int:
        """The cards that stayed on the table: the forced part of a failed throw, else all."""
        return self.cards if self.forced is None else self.forced

    @property
    def back(self) -> int:
        """The cards a failed throw took back into the hand (0 otherwise)."""
        return 0 if self.forced is None else self.cards - self.forced


# A trick line read whole by the plain reader (zfrec.games.shengji.plain): its plays (seat,
# packed cards) in order, the line, its number and the seat numbers it was read with.
PlainTrick = tuple[list[tuple[int, int]], str, int, dict[str, int]]


@dataclass(slots=True)
class SjTrick:
    """The plays of one trick in order.

    A trick read from a plain line makes its `SjMove`s only when `moves` is first asked for:
    until then `plain` holds the line read and `moves` is not set (`__getattr__` makes it).
    Validation asks for the plays only (`plain[0]`), and a move object with its position costs
    as much as the rest of reading it; once made, `moves` is the trick's and `plain` None.
    Code that replaces a trick's plays reads `moves` first (or sets `plain` to None): while
    `plain` is set, the validator judges the line read.
    """

    moves: list[SjMove] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)
    plain: PlainTrick | None = field(default=None, init=False, repr=False, compare=False)

    if not TYPE_CHECKING:  # (for mypy every attribute is declared: no catch-all)

        def __getattr__(self, name: str) -> Any:
            # only for a slot not set: `moves` of a trick read from a plain line
            if name != "moves":  # (`plain` too, in a copy not yet filled)
                raise AttributeError(name)
            line = self.plain  # read once: another thread may make the moves meanwhile
            if line is None:
                raise AttributeError(name)
            from zfrec.games.shengji.plain import plain_trick_moves

            self.moves = moves = plain_trick_moves(line)
            self.plain = None
            return moves


@dataclass(frozen=True, slots=True)
class SjCards:
    """What is known of some cards: `known` (packed) and how many more are unknown (`?N`)."""

    known: int = 0
    unknown: int = 0
    pos: Pos | None = field(default=None, compare=False)
    # A discard line's cards in written order, each with its column (`pos` gives the line):
    # a card the dealer does not hold is named where it is written. Empty elsewhere.
    written: tuple[tuple[int, int], ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class SjCall:
    """Zhao pengyou: the dealer calls the `ordinal`-th copy of `card` (a card id) played."""

    card: int
    ordinal: int


@dataclass(frozen=True, slots=True)
class SjPoints:
    """The opponents' points of a round (rulings 10 to 12)."""

    taken: int
    kitty: int | None = None  # the kitty's points, when it counted and was written
    multiplier: int | None = None
    penalty: int = 0  # throw penalties' net effect on the total (ruling 10)
    total: int | None = None
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SjOutcome:
    """The level change of a round: `side` goes up `steps` (opponents +0: the teams swap)."""

    side: str
    steps: int
    next_dealer: int | None = None
    pos: Pos | None = field(default=None, compare=False)

    @property
    def swap(self) -> bool:
        """Whether the opponents become the declarers."""
        return self.side == "opponents"


@dataclass(frozen=True, slots=True)
class SjLevels:
    """Each seat's level (2..14) after a round, in seat order."""

    levels: tuple[int, ...]
    pos: Pos | None = field(default=None, compare=False)


@dataclass(slots=True)
class SjRound:
    """One round as written (see the module docstring)."""

    number: int
    dealer: int | None = None
    rank: int | None = None  # the dominant rank as a level, 2..14
    trump: str | None = None  # s h d c, nt, or None when not written
    deal: tuple[SjCards, ...] | None = None
    bids: list[SjMove] = field(default_factory=list)
    kitty: SjCards | None = None
    discard: SjCards | None = None
    calls: tuple[SjCall, ...] = ()
    tricks: list[SjTrick] = field(default_factory=list)
    points: SjPoints | None = None
    outcome: SjOutcome | None = None
    levels: SjLevels | None = None
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)

    def order(self) -> Order | None:
        """The round's order of cards (ruling 3), or None when rank or trump is not written."""
        if self.rank is None or self.trump is None:
            return None
        suit = None if self.trump == "nt" else TRUMPS.index(self.trump)
        return make_order(level_rank(self.rank), suit)


@dataclass(frozen=True, slots=True)
class SjMatchResult:
    """`[Result]`: each seat's final level, then optionally the winning seats."""

    levels: tuple[int, ...]
    winners: tuple[int, ...] = ()
    pos: Pos | None = field(default=None, compare=False)


@dataclass(slots=True)
class SjMatch:
    """One Sheng ji match record: tags, players in seat order, rules, rounds, comments."""

    players: list[str]
    event: str | None = None
    site: str | None = None
    date: str | None = None
    extra_tags: list[tuple[str, str]] = field(default_factory=list)
    preset: str = "bashifen"
    options: dict[str, Any] = field(default_factory=dict)  # overridden options, as written
    result: SjMatchResult | None = None
    rounds: list[SjRound] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    pos: Pos | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)
    problems: list[ReadProblem] = field(default_factory=list, compare=False, repr=False)
    date_pos: Pos | None = field(default=None, compare=False, repr=False)  # the Date's value
    empty_rules_pos: Pos | None = field(default=None, compare=False, repr=False)  # `[Rules ""]`
    # the player names read without characters that cannot be seen (ZF008)
    name_marks: list[NameMark] = field(default_factory=list, compare=False, repr=False)

    game = GAME_KIND  # the record's kind (`[Game "shengji"]`); a class attribute

    def rules(self) -> SjRules:
        """The rules the record states: its preset and options (zhao pengyou: one seat each)."""
        return match_rules(self.preset, self.options, len(self.players))

    def seat_of(self, ref: str | int) -> int:
        """The 0-based seat `ref` names (a 1-based number or a name, any case); SeatError."""
        return seat_of(self.players, ref)

    def seat_name(self, seat: int) -> str:
        """The player at 0-based `seat`."""
        return seat_name(self.players, seat)

    def round_said(self, rnd: SjRound | int) -> str:
        """A round of the record (or its place in `rounds`) as its page is headed: `round 3`,
        or `round 3 (2nd)` for the second round written as round 3 (a round not of this
        record: by its number).

        >>> m = SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1), SjRound(1), SjRound(2)])
        >>> m.round_said(m.rounds[1]), m.round_said(2), m.round_said(SjRound(1))
        ('round 1 (2nd)', 'round 2', 'round 1')
        """
        index = (
            rnd
            if isinstance(rnd, int)
            else next((i for i, r in enumerate(self.rounds) if r is rnd), None)
        )
        if index is None:
            return f"round {rnd.number}" if isinstance(rnd, SjRound) else f"round {rnd}"
        return said_at("round", [r.number for r in self.rounds], index)


def match_rules(preset: str, options: dict[str, Any], players: int) -> SjRules:
    """The rules of a record's preset and options played by `players` (zhao pengyou: one seat
    each, unless an option says otherwise); RulesError where they are not rules."""
    extra: dict[str, Any] = {}
    if preset == "zhaopengyou" and "players" not in options:
        extra["players"] = players
    return sj_preset(preset, **{**extra, **options})
