"""Zheng Fen's view-models of replay and game pages: plain dataclasses, filled from the replay
stream. The helpers every game's pages share (names and cards in prose, `ChartEmbed`) are
zfrec.render.views'.

zfrec/games/zhengfen/pages/html.py builds them (one pass over zfrec.replay.replay) and renders
them. A later stage (the analyser) may add to them before rendering: `StepView.notes`,
`HandView.sections` and `GameView.sections` (RENDER.md, "Hooks for the analyser").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any, TypeAlias

from markupsafe import Markup

from zfrec.diagnostics import Diagnostic
from zfrec.games.zhengfen.engine.cards import (
    BJ,
    DECK_SIZE,
    RANK_NAMES,
    RANK_SYMBOLS,
    SJ,
    SUIT_GLYPHS,
    SUIT_NAMES,
    card_glyph,
    card_str,
    ids,
)
from zfrec.jsonview import dump, hidden, written_with
from zfrec.render.pagenames import repeat_suffix
from zfrec.render.views import isolate_names

COUNTERS = 0xF << 8 | 0xF << 28 | 0xF << 40  # every 5, Ten and King
ANNOTATION_WORDS = {
    "!": "good move",
    "?": "poor move",
    "!!": "brilliant move",
    "??": "blunder",
    "!?": "interesting move",
    "?!": "dubious move",
}
DATA_VERSION = 2  # of the replay data a page (or a viewer link) carries


# --- view-models --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiagnosticView:
    severity: str
    code: str
    message: str
    rule: str | None
    where: Annotated[str, hidden()]  # "hand 2, trick 3, turn 1 (Ann)"; not in the page's JSON
    line: int | None
    cause: str | None = None  # "22:1": the finding this one follows from (DIAGNOSTICS.md)

    @staticmethod
    def of(d: Diagnostic, names: tuple[str, ...] = ()) -> DiagnosticView:
        """The diagnostic as pages show it; `names` (the players) are isolated in its text."""
        loc = d.location
        message, where = isolate_names(d.message, names), isolate_names(loc.play(), names)
        cause = None if d.cause is None else f"{d.cause} {d.cause.code}"
        return DiagnosticView(d.severity, d.code, message, d.rule, where, loc.line, cause)

    def to_json(self) -> dict[str, object]:
        """The diagnostic as the page's script reads it (`where` left out)."""
        data: dict[str, object] = dump(self)
        return data


@dataclass(slots=True, unsafe_hash=True)  # not frozen: one per move, made faster (Decision)
class PlayView:
    """One entry of the trick as shown: a play, a pass, or a move the engine could not apply."""

    seat: int
    cards: tuple[int, ...] = ()
    is_pass: bool = False
    reading: str | None = None
    jokers: tuple[tuple[int, str, bool], ...] = ()  # joker id, what it stands for, declared
    inferred: bool = False  # a pass the record left out
    rejected: bool = False  # not applied: the engine could not accept it at all
    flagged: bool = False  # applied, but with an error

    def to_json(self) -> dict[str, object]:
        """JSON for the page, without the keys that are empty (PLAY_DEFAULTS in replay.js)."""
        out: dict[str, object] = {"seat": self.seat, "cards": packed(self.cards)}
        if self.is_pass:
            out["pass"] = True
        if self.reading is not None:
            out["reading"] = self.reading
        if self.jokers:
            out["jokers"] = self.jokers
        for key, value in (
            ("inferred", self.inferred),
            ("rejected", self.rejected),
            ("flagged", self.flagged),
        ):
            if value:
                out[key] = True
        return out


@dataclass(frozen=True, slots=True)
class TransferView:
    """The last player's cards going to the first player out (RULES.md R10)."""

    giver: int
    receiver: int
    trick_cards: tuple[int, ...]
    hand_cards: tuple[int, ...]
    trick_points: int
    hand_points: int

    @property
    def points(self) -> int:
        return self.trick_points + self.hand_points

    def to_json(self) -> dict[str, object]:
        """The transfer as the page's script reads it, its total included."""
        data: dict[str, object] = dump(_TransferJson.of(self))
        return data


@dataclass(frozen=True, slots=True)
class _TransferJson:
    giver: int
    receiver: int
    trick_cards: Packed
    hand_cards: Packed
    trick_points: int
    hand_points: int
    points: int

    @classmethod
    def of(cls, t: TransferView) -> _TransferJson:
        return cls(t.giver, t.receiver, t.trick_cards, t.hand_cards, t.trick_points,
                   t.hand_points, t.points)  # fmt: skip


@dataclass(frozen=True, slots=True)
class StepNote:
    """A note attached to one step by a later stage (the analyser); shown as plain text."""

    text: str
    kind: str = "analysis"

    def to_json(self) -> dict[str, object]:
        """The note as the page's script reads it."""
        data: dict[str, object] = dump(self)
        return data


@dataclass(slots=True)
class StepView:
    """What the page shows at one step of a hand."""

    index: int
    kind: str  # deal | play | pass | rejected | transfer | result
    trick: int | None
    turn: int | None  # the turn within the trick, as the engine numbers it
    seat: int | None  # who acted
    label: str  # short, for the move list
    headline: str  # one sentence
    trick_log: tuple[PlayView, ...]
    top: int | None  # index into trick_log of the play on top
    hands: tuple[tuple[int, ...] | None, ...]  # None: hidden from this view
    counts: tuple[int, ...]
    places: tuple[int | None, ...]
    to_act: int | None
    captured: tuple[tuple[int, ...], ...]  # counters each seat has taken so far
    points: tuple[int, ...]  # points each seat has taken so far in this hand
    totals: tuple[int, ...]  # game scores: before the hand, after it at the result step
    trick_won: tuple[int, int, tuple[int, ...]] | None = None  # winner, points, cards
    comments: tuple[str, ...] = ()
    annotation: str | None = None
    disputed: bool = False
    dispute_note: str | None = None
    transfer: TransferView | None = None
    diagnostics: list[DiagnosticView] = field(default_factory=list)
    notes: list[StepNote] = field(default_factory=list)  # hook for the analyser
    # Each seat's best reachable points from this step's position, by the hindsight solver
    # (zfrec.games.zhengfen.analysis.costs): the "perfect play from here" table; None where not
    # solved.
    perfect: tuple[int | None, ...] | None = None

    def table(self, pack: Callable[[tuple[int, ...]], str] | None = None) -> dict[str, Any]:
        """The engine's table at this step, as the page's script reads it. `pack` packs a card
        list (`packed`, or a memo of it: steps share the tuples of what did not change)."""
        pack = pack or packed
        return {
            "hands": [None if h is None else pack(h) for h in self.hands],
            "counts": self.counts,
            "places": self.places,
            "captured": [pack(c) for c in self.captured],
            "points": self.points,
            "totals": self.totals,
        }

    def changes(
        self, before: StepView | None, pack: Callable[[tuple[int, ...]], str] | None = None
    ) -> dict[str, Any]:
        """The part of `table()` that changed since the step `before` (all of it without one),
        and of the hands only the seats whose hand changed: the script carries the rest
        forward. The builder hands a step the very tuples of the step before while they do not
        change (html._Builder._snapshot), so most are told apart by identity, unpacked."""
        pack = pack or packed
        if before is None:
            return self.table(pack)
        out: dict[str, Any] = {}
        if self.hands is not before.hands:
            hands: dict[str, str | None] = {}
            for seat, (now, then) in enumerate(zip(self.hands, before.hands, strict=True)):
                if now is not then:
                    text = None if now is None else pack(now)
                    if text != (None if then is None else pack(then)):
                        hands[str(seat)] = text
            if hands:
                out["hands"] = hands
        if self.counts != before.counts:
            out["counts"] = self.counts
        if self.places != before.places:
            out["places"] = self.places
        if self.captured is not before.captured:
            captured = [pack(c) for c in self.captured]
            if captured != [pack(c) for c in before.captured]:
                out["captured"] = captured
        if self.points != before.points:
            out["points"] = self.points
        if self.totals != before.totals:
            out["totals"] = self.totals
        return out

    def to_json(self, log: list[int], changes: dict[str, Any]) -> dict[str, object]:
        """JSON for the page; `log` numbers the trick's plays in the hand's table of plays,
        `changes` is what changed of the table (`changes()`).

        Written by hand, as `PlayView.to_json`: these run for every step of every page, and
        the same JSON through a `TypeAdapter` (with its keys left out when empty) took seven
        times as long (measured on 05-full-game-to-500: 80 ms against 11 ms per game).

        Keys whose value is empty (None, false, no items) are left out; the script fills them
        in (STEP_DEFAULTS in replay.js).
        """
        out: dict[str, object] = {"kind": self.kind, "headline": self.headline, "log": log}
        out.update(changes)
        optional = (
            ("trick", self.trick),
            ("seat", self.seat),
            ("top", self.top),
            ("to_act", self.to_act),
            ("comments", self.comments),
            ("annotation", self.annotation),
            ("disputed", self.disputed),
            ("dispute_note", self.dispute_note),
        )
        for key, value in optional:
            if value is not None and value is not False and value != ():
                out[key] = value
        if self.annotation:
            out["annotation_words"] = ANNOTATION_WORDS.get(self.annotation)
        if self.trick_won is not None:
            winner, points, cards = self.trick_won
            out["won"] = (winner, points, packed(cards))
        if self.transfer is not None:
            out["transfer"] = self.transfer.to_json()
        if self.diagnostics:
            out["diagnostics"] = [d.to_json() for d in self.diagnostics]
        if self.notes:
            out["notes"] = [n.to_json() for n in self.notes]
        if self.perfect is not None:
            out["perfect"] = self.perfect
        return out


@dataclass(frozen=True, slots=True)
class ExtraSection:
    """An extra section for a replay or game page (the analyser's hook).

    `paragraphs` are plain text and are escaped. `html`, if given, is inserted as it is: it must
    be markup that zfrec code generated (like a chart's SVG), with any record text in it escaped
    (markupsafe.escape); never text from a record or a user.
    """

    title: str
    paragraphs: tuple[str, ...] = ()
    html: Markup | None = None


@dataclass(frozen=True, slots=True)
class GameHeader:
    title: str
    players: tuple[str, ...]
    event: str | None
    site: str | None
    date: str | None
    rules: str
    target: int
    comments: tuple[str, ...]

    @property
    def meta(self) -> str:
        bits = [b for b in (self.date, self.site) if b]
        return " · ".join([*bits, f"rules {self.rules}", f"target {self.target}"])


@dataclass(slots=True)
class HandView:
    """One hand's replay: its steps and what surrounds them."""

    header: GameHeader
    number: int
    index: int
    viewer: int | None  # the seat whose view this is; None shows every hand face up
    reconstructed: bool
    shuffler: int | None
    leader: int
    steps: list[StepView] = field(default_factory=list)
    finished: bool = False
    game_href: str | None = None  # link back to the game page, relative
    prev_href: str | None = None
    next_href: str | None = None
    viewer_href: str | None = None  # the single-file viewer, to share this hand as one link
    # the hand's own page (zfrec.render.pagenames), and the neighbours' labels for the links
    href: str = ""
    prev_label: str | None = None
    next_label: str | None = None
    occurrence: int = 1  # 2: the second hand the record numbers so
    sections: list[ExtraSection] = field(default_factory=list)  # hook for the analyser
    # The index in `steps` of each replay MoveStep of the hand, in replay order: how a note
    # made at a step (`MoveNote.step`) finds the step of the page that shows it.
    actions: list[int] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"{self.label} · {self.header.title}"

    @property
    def label(self) -> str:
        """`Hand 3`; the second hand written as hand 3: `Hand 3 (2nd)`."""
        return f"Hand {self.number}{repeat_suffix(self.occurrence)}"

    def data(self) -> dict[str, Any]:
        """What the page's script needs, JSON-ready (the viewer page takes the same).

        A play stays in the trick for several steps: it is written once, in `plays`, and each
        step's `log` lists the numbers of the plays on the table. Each step writes only what
        changed since the step before (StepView.to_json).
        """
        plays: list[dict[str, object]] = []
        number: dict[int, int] = {}
        steps = []
        before: StepView | None = None
        memo: dict[int, str] = {}  # by identity: the steps, alive throughout, share the tuples

        def pack(cards: tuple[int, ...]) -> str:
            got = memo.get(id(cards))
            if got is None:
                got = memo[id(cards)] = packed(cards)
            return got

        for step in self.steps:
            log = []
            for play in step.trick_log:
                k = number.get(id(play))
                if k is None:
                    k = number[id(play)] = len(plays)
                    plays.append(play.to_json())
                log.append(k)
            steps.append(step.to_json(log, step.changes(before, pack)))
            before = step
        data: dict[str, Any] = {
            "v": DATA_VERSION,
            "players": self.header.players,
            "viewer": self.viewer,
            "hand": self.number,
            "title": self.title,
            "meta": self.header.meta,
            "counters": packed(tuple(c for c in range(DECK_SIZE) if COUNTERS >> c & 1)),
            "plays": plays,
            "steps": steps,
        }
        if self.occurrence > 1:
            data["label"] = self.label  # the board's heading (replay.js), where the number repeats
        return data


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One row of the game page's table."""

    number: int
    href: str
    finished: bool
    first: int | None
    last: int | None
    transfer: int | None
    points: tuple[int, ...] | None
    totals: tuple[int, ...]
    errors: int
    warnings: int
    occurrence: int = 1  # 2: the second hand the record numbers so

    @property
    def label(self) -> str:
        """`Hand 3`, or `Hand 3 (2nd)` for the second hand written as hand 3."""
        return f"Hand {self.number}{repeat_suffix(self.occurrence)}"


@dataclass(frozen=True, slots=True)
class Finding:
    """A diagnostic on the game page, linked to the step of the replay it concerns."""

    diagnostic: DiagnosticView
    href: str | None


@dataclass(slots=True)
class GameView:
    header: GameHeader
    hands: list[HandView]
    summaries: list[HandSummary]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    over: bool
    findings: list[Finding]
    index_href: str | None = None
    player_hrefs: dict[str, str] = field(default_factory=dict)
    sections: list[ExtraSection] = field(default_factory=list)  # hook for the analyser
    # The index in `steps` of each replay MoveStep of the hand, in replay order: how a note
    # made at a step (`MoveNote.step`) finds the step of the page that shows it.
    actions: list[int] = field(default_factory=list)
    audit_href: str | None = None  # the audit page of a record that fails validation
    disputes: int = 0  # moves marked disputed
    specials: int = 0  # specials played

    @property
    def errors(self) -> int:
        return sum(f.diagnostic.severity == "error" for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.diagnostic.severity == "warning" for f in self.findings)

    @property
    def winner_names(self) -> list[str]:
        return [self.header.players[s] for s in self.winners]


def _card_entry(cid: int) -> tuple[str, str, str, str, str, bool]:
    """rank text, suit glyph, colour, spoken name, code, counter."""
    if cid == SJ:
        return ("SJ", "★", "black", "small joker", "SJ", False)
    if cid == BJ:
        return ("BJ", "★", "red", "big joker", "BJ", False)
    rank, suit = cid >> 2, cid & 3
    text = "10" if RANK_SYMBOLS[rank] == "T" else RANK_SYMBOLS[rank]
    colour = "red" if suit in (1, 2) else "black"
    spoken = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
    return (text, SUIT_GLYPHS[suit], colour, spoken, card_str(cid), bool(COUNTERS >> cid & 1))


CARD_TABLE = tuple(_card_entry(c) for c in range(DECK_SIZE))
# Card lists go into the page as strings, one character per card: a tenth of the JSON of
# number lists, which keeps pages small and rendering fast (bench/render_bench.py).
CARD_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR"
assert len(CARD_ALPHABET) == DECK_SIZE


@lru_cache(maxsize=8192)
def packed(cards: tuple[int, ...]) -> str:
    """A card list as the page's script reads it: one CARD_ALPHABET character per card."""
    return "".join([CARD_ALPHABET[c] for c in cards])


Packed: TypeAlias = Annotated[tuple[int, ...], written_with(packed)]
"""Card ids, written in the page's JSON as `packed` text."""


@lru_cache(maxsize=8192)  # a play's label, made again for every page that shows the play
def glyphs(mask: int) -> str:
    return " ".join([card_glyph(c) for c in ids(mask)])
