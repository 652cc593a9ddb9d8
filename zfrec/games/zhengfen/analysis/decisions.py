"""One decision at a time: what the seat did, what else it could do, and the notes it earns.

A `Decision` is one turn (inferred passes included); its `alternatives` are the few legal plays
worth showing, each an abstract move of the move generator with one card set that makes it.
`SeatStats` sums a seat's decisions over a hand or a game. `notes_of` turns a decision into the
remarks a replay page shows at its move.

    >>> from zfrec.games.zhengfen.analysis.analyze import analyze_game
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> analysis = analyze_game(example_game())
    >>> bo = next(d for d in analysis.decisions() if d.missed_beat and d.seat == 1)
    >>> bo.top, bo.options, [a.cards for a in bo.alternatives]
    ('5s', 5, ['6s', 'Js'])
    >>> [n.text for n in notes_of(bo, analysis.players)]
    ['Bo passed on 5s but had 5 beating plays, e.g. 6s; 5 points on the table (5s)']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from zfrec.games.zhengfen.analysis.costs import Cost
from zfrec.games.zhengfen.engine.cards import COUNTERS, SJ, format_cards, points_of
from zfrec.games.zhengfen.engine.combos import Category, Combo
from zfrec.games.zhengfen.engine.movegen import Move, expand, move_size
from zfrec.jsonview import CardsText, PlayerName, SortedCounts, dump, hidden, key
from zfrec.record.text import joker_texts as record_joker_texts

NoteKind = Literal["missed_beat", "conceded", "cost", "special", "joker"]
# A cost note is there only when the analysis ran the solver (analyze_game(solve_cards=...)).
DEFAULT_NOTE_KINDS: tuple[NoteKind, ...] = ("missed_beat", "conceded", "cost")
MAX_ALTERNATIVES = 4  # the "most relevant" alternatives shown per decision


@dataclass(frozen=True, slots=True)
class Alternative:
    """A legal play the seat had: the abstract move and one card set that makes it.

    >>> alt = Alternative("pair", "8", None, 1, "8s BJ=8", "pair of 8s, big joker as 8")
    >>> alt.to_json()["cards"]
    '8s BJ=8'
    """

    category: str
    rank: str
    length: int | None
    jokers: int
    cards: str  # an example card set, the one that spends the fewest counters
    description: str

    def to_json(self) -> dict[str, Any]:
        """The alternative as `zfrec analyze --json` writes it: its fields."""
        data: dict[str, Any] = dump(self)
        return data


# Not frozen: a game's analysis makes one per turn, and a frozen dataclass sets each of its 24
# fields through object.__setattr__, which took eight times as long (4% of `zfrec publish`).
# Hashed like a frozen one all the same.
@dataclass(slots=True, unsafe_hash=True)
class Decision:
    """One turn: a play or a pass, with what the seat faced and what else it could do.

    `trick` is the record's trick (1-based) and `turn` the turn within it, inferred passes
    counted, as in diagnostics. `move_index` is the move's index in the record trick's moves,
    None for a pass the record left out. `options` (legal plays, as abstract moves) and
    `could_beat` are None when the seat's hand is not known. `cost` is what the decision cost
    against perfect play (`costs`), when the analysis asked the solver and the position was
    within its reach; else None. In the JSON, seats are written as
    the players' names (`player`, `top_player`) and `table_cards` in the notation.

    >>> from zfrec.games.zhengfen.analysis.analyze import analyze_game
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> analysis = analyze_game(example_game())
    >>> lead = next(analysis.decisions())
    >>> lead.lead, lead.action, lead.cards, lead.options
    (True, 'play', '3h', 25)
    >>> lead.to_json(analysis.players)["player"]
    'Ann'
    """

    hand: int
    hand_index: Annotated[int, hidden()]
    trick: int
    turn: int
    move_index: int | None
    seat: Annotated[PlayerName, key("player")]
    lead: bool
    action: Literal["play", "pass"]
    cards: str | None
    category: str | None
    top: str | None  # the play to beat, None on a lead
    top_seat: Annotated[PlayerName | None, key("top_player")]
    table_points: int  # counters in the trick before this turn
    table_cards: CardsText
    options: int | None
    alternatives: tuple[Alternative, ...]
    could_beat: bool | None
    missed_beat: bool
    conceded: int = 0  # counters this play put into a trick another seat won
    jokers: tuple[str, ...] = ()  # jokers played, with what they stood for: ("BJ=9h",)
    special: bool = False
    out_place: int | None = None
    # What the decision cost against perfect play, where the solver reached it (costs.py).
    cost: Cost | None = None
    # The replay step it was made at: the 0-based number of its MoveStep in the hand, the
    # identity by which a page finds the step that shows it (not in the JSON).
    step: Annotated[int, hidden()] = -1

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The decision as `zfrec analyze --json` writes it (ANALYSIS.md)."""
        data: dict[str, Any] = dump(self, players=players)
        return data


@dataclass(frozen=True, slots=True)
class MoveNote:
    """A remark on one move, for the replay page: where it is, what kind, and the words.

    >>> note = MoveNote(1, 2, 2, 1, "conceded", "Bo put 10 points into a trick", 1, 10)
    >>> note.to_json(["Ann", "Bo", "Cy"])
    {'hand': 1, 'trick': 2, 'turn': 2, 'move_index': 1, 'player': 'Bo', 'kind': 'conceded', \
'points': 10, 'text': 'Bo put 10 points into a trick'}
    """

    hand: int
    trick: int
    turn: int
    seat: int
    kind: NoteKind
    text: str
    move_index: int | None = None
    points: int = 0
    # The decision's replay step: its hand (0-based into the record's hands) and the number
    # of its MoveStep in that hand (`Decision.step`); None for a note made by hand.
    hand_index: int | None = None
    step: int | None = None

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """The note as `zfrec analyze --json` writes it: `player` by name, `text` last."""
        data: dict[str, Any] = dump(NoteJson.of(self), players=players)
        return data


@dataclass(frozen=True, slots=True)
class NoteJson:
    """The JSON of a `MoveNote`: its fields in the order ANALYSIS.md shows them.

    >>> NoteJson.of(MoveNote(1, 2, 2, 1, "conceded", "Bo put 10 points", 1, 10)).player
    1
    """

    hand: int
    trick: int
    turn: int
    move_index: int | None
    player: PlayerName
    kind: NoteKind
    points: int
    text: str

    @classmethod
    def of(cls, n: MoveNote) -> NoteJson:
        """The view of a note."""
        return cls(n.hand, n.trick, n.turn, n.move_index, n.seat, n.kind, n.points, n.text)


@dataclass(slots=True)
class SeatStats:
    """One seat's account for one hand, or summed over hands (see `add`).

    >>> a = SeatStats(decisions=2, plays=1, passes=1, categories=Counter(single=1))
    >>> a.add(SeatStats(decisions=1, plays=1, categories=Counter(pair=1)))
    >>> a.decisions, a.plays, a.to_json()["categories"]
    (3, 2, {'pair': 1, 'single': 1})
    """

    decisions: int = 0
    plays: int = 0
    passes: int = 0
    judged_passes: Annotated[int, hidden()] = 0  # passes whose alternatives were known
    missed_beats: int = 0
    missed_points: int = 0  # counters on the table at the missed beats
    captured: int = 0  # counters taken in tricks, before the transfer
    conceded: int = 0
    specials: int = 0
    jokers: int = 0  # jokers played, wild or as singles
    categories: SortedCounts = field(default_factory=Counter)

    def add(self, other: SeatStats) -> None:
        """Add another account to this one."""
        for name in (
            "decisions", "plays", "passes", "judged_passes", "missed_beats", "missed_points",
            "captured", "conceded", "specials", "jokers",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.categories.update(other.categories)

    def to_json(self) -> dict[str, Any]:
        """The account as `zfrec analyze --json` writes it (categories sorted by name)."""
        data: dict[str, Any] = dump(self)
        return data


# --- choosing what to show -----------------------------------------------------------------------


def abstract_move(combo: Combo) -> Move:
    """The abstract move (movegen) a played combination makes.

    >>> from zfrec.games.zhengfen.engine.combos import resolve
    >>> m = abstract_move(resolve(0b11 << 8, None))  # 5s 5h
    >>> m.category.name, m.rank, m.jokers
    ('pair', 2, 0)
    >>> abstract_move(resolve(1 << SJ, None)).jokers  # the small joker alone
    1
    """
    jokers = len(combo.jokers)
    if combo.category is Category.single and combo.mask >> SJ:
        jokers = 1  # a joker played alone counts as a joker move in movegen
    suit = combo.suit if combo.category is Category.suit_sequence else None
    return Move(combo.category, combo.rank, combo.length, suit, jokers)


def example_play(hand: int, move: Move) -> Combo:
    """The card set making `move` from `hand` that spends the fewest counters (then the lowest
    cards).

    >>> example_play(0b1 << 8 | 0b1 << 36, Move(Category.single, 2, None, None, 0)).text()
    '5s'
    """
    return min(expand(hand, move), key=lambda c: (points_of(c.mask), c.mask))


def relevant_alternatives(
    hand: int, moves: Sequence[Move], lead: bool, played: Move | None
) -> tuple[Alternative, ...]:
    """The few alternatives worth showing, `played` left out.

    Following: the cheapest beat, the cheapest without jokers, the highest of the trick's
    category, a special. Leading: the lowest single, the biggest shed without jokers, the
    highest; and a special. At most MAX_ALTERNATIVES, each with its `example_play`.

    >>> from zfrec.games.zhengfen.engine.movegen import legal_plays
    >>> hand = 0b1 << 8 | 0b11 << 12  # 5s 6s 6h
    >>> [a.cards for a in relevant_alternatives(hand, legal_plays(hand), True, None)]
    ['5s', '6s 6h']
    """
    others = [m for m in moves if m != played]
    if not others:
        return ()
    plain = [m for m in others if m.category is not Category.special]
    specials = [m for m in others if m.category is Category.special]
    cheap = sorted(plain, key=lambda m: (m.jokers, m.rank, m.length or 0))
    picks: list[Move] = []
    if lead and plain:
        picks.append(min(plain, key=lambda m: (move_size(m) != 1, m.jokers, m.rank)))
        picks.append(max(plain, key=lambda m: (m.jokers == 0, move_size(m), -m.rank)))
        picks.append(max(plain, key=lambda m: (-m.jokers, m.rank, move_size(m))))
    elif cheap:
        picks.append(cheap[0])
        pure = [m for m in cheap if m.jokers == 0]
        if pure:
            picks.append(pure[0])
        picks.append(max(plain, key=lambda m: (m.rank, m.length or 0, -m.jokers)))
    if specials:
        picks.append(min(specials, key=lambda m: m.rank))
    out: list[Alternative] = []
    for m in picks:
        if len(out) >= MAX_ALTERNATIVES:
            break
        combo = example_play(hand, m)
        alt = Alternative(
            m.category.name, combo.rank_symbol, m.length, m.jokers, combo.text(), combo.describe()
        )
        if alt not in out:
            out.append(alt)
    return tuple(out)


def joker_texts(combo: Combo) -> tuple[str, ...]:
    """The jokers a play holds, with what each stood for (`BJ=9h`); a joker alone is itself.

    >>> from zfrec.games.zhengfen.engine.combos import resolve
    >>> joker_texts(resolve(1 << 36 | 1 << SJ, None))  # Qs SJ: the small joker as a Queen
    ('SJ=Q',)
    """
    if not combo.mask >> SJ:
        return ()  # most plays: no joker
    return record_joker_texts(combo.mask, dict(combo.jokers))


# --- notes -----------------------------------------------------------------------------------


def notes_of(d: Decision, players: Sequence[str]) -> list[MoveNote]:
    """The remarks on one decision: a missed beat, conceded counters, what it cost against
    perfect play (`Bo: cost 15: Kd instead of -`), a special, jokers.

    >>> from zfrec.games.zhengfen.analysis.analyze import analyze_game
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> analysis = analyze_game(example_game())
    >>> [n.kind for d in analysis.decisions() for n in notes_of(d, analysis.players)]
    ['missed_beat', 'missed_beat', 'missed_beat', 'conceded', 'joker', 'special']
    """
    who = players[d.seat]
    out: list[MoveNote] = []

    def note(kind: NoteKind, text: str, points: int = 0) -> None:
        out.append(
            MoveNote(
                d.hand, d.trick, d.turn, d.seat, kind, text, d.move_index, points, d.hand_index,
                d.step,
            )
        )  # fmt: skip

    if d.missed_beat:
        example = f", e.g. {d.alternatives[0].cards}" if d.alternatives else ""
        table = (
            f"; {d.table_points} points on the table ({format_cards(d.table_cards & COUNTERS)})"
            if d.table_points
            else "; no points on the table"
        )
        plays = "play" if d.options == 1 else "plays"
        note(
            "missed_beat",
            f"{who} passed on {d.top} but had {d.options} beating {plays}{example}{table}",
            d.table_points,
        )
    if d.conceded:
        note(
            "conceded", f"{who} put {d.conceded} points into a trick another player won", d.conceded
        )
    if d.cost is not None and d.cost.points:
        note("cost", f"{who}: {d.cost.text}", d.cost.points)
    if d.special:
        note("special", f"{who} played a special: {d.cards}")
    if d.jokers:
        note("joker", f"{who} played {' '.join(d.jokers)}")
    return out


__all__ = [
    "DEFAULT_NOTE_KINDS",
    "MAX_ALTERNATIVES",
    "Alternative",
    "Decision",
    "MoveNote",
    "NoteJson",
    "NoteKind",
    "SeatStats",
    "abstract_move",
    "example_play",
    "joker_texts",
    "move_size",
    "notes_of",
    "relevant_alternatives",
]
