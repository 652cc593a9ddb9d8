"""Zheng Fen's hand replays and game pages: view-models built from the replay stream,
rendered by Jinja2 (the environment is zfrec.render.html's).

    >>> view = build_game_view(game)            # one pass over zfrec.replay.replay(game)
    >>> page = render_hand(view.hands[0])       # a self-contained HTML string
    >>> page = render_game(view, charts)        # the game page, charts inlined

Every number a page shows is read off the engine's state as the replay stream goes by; nothing
here applies a rule. The replay page is a list of steps (one per action, plus the transfer and
the result) serialised as JSON into the page; a small inline script draws the current step.
Renderers return strings: only the CLI writes files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zfrec.diagnostics import Diagnostic
from zfrec.games.zhengfen.engine.cards import card_ids, points_of
from zfrec.games.zhengfen.engine.combos import Category, Combo
from zfrec.games.zhengfen.engine.game import PlayEvent
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.pages.views import (
    ANNOTATION_WORDS,
    CARD_ALPHABET,
    CARD_TABLE,
    COUNTERS,
    DiagnosticView,
    ExtraSection,
    Finding,
    GameHeader,
    GameView,
    HandSummary,
    HandView,
    PlayView,
    StepNote,
    StepView,
    TransferView,
    glyphs,
    packed,
)
from zfrec.record.model import Game, Move
from zfrec.render.html import environment
from zfrec.render.pagenames import replay_pages
from zfrec.render.views import ChartEmbed, isolate, place_word, rank_prose
from zfrec.replay import GameEnd, HandEnd, HandStart, MoveStep, ReplayState, ReplayVisitor, walk

__all__ = [
    "ANNOTATION_WORDS",
    "CARD_ALPHABET",
    "CARD_TABLE",
    "ChartEmbed",
    "DiagnosticView",
    "ExtraSection",
    "Finding",
    "GameHeader",
    "GameView",
    "HandSummary",
    "HandView",
    "PlayView",
    "StepNote",
    "StepView",
    "TransferView",
    "build_game_view",
    "packed",
    "render_game",
    "render_hand",
    "render_hands",
]


# --- building the views from the replay stream ----------------------------------------------


def build_game_view(
    record: Game,
    *,
    viewer: int | None = None,
    rules: Ruleset | None = None,
    hand_href: Callable[[int], str] = lambda number: f"hand-{number}.html",
    visitors: Iterable[object] = (),
) -> GameView:
    """Every hand's replay and the game's summary, from one pass over the replay stream.

    `hand_href` names the page of a hand by its number; a number the record writes again gets
    a page of its own (`zfrec.render.pagenames.replay_pages`: `hand-1-2.html` for the second
    hand numbered 1), and every link of the views (`HandView.href`) follows it.

    `visitors` (zfrec.replay.ReplayVisitor) are fed by the same pass, after the page's own,
    so an analysis of the game costs no second replay
    (zfrec.games.zhengfen.pages.analysis.analysed_view).
    """
    builder = _Builder(record, viewer, rules or record.ruleset(), hand_href)
    end = walk(record, [builder, *visitors], builder.rules)
    return builder.finish(end)


def header_of(record: Game, rules: Ruleset) -> GameHeader:
    title = record.event or " · ".join(isolate(p) for p in record.players)
    return GameHeader(
        title=title,
        players=tuple(record.players),
        event=record.event,
        site=record.site,
        date=record.date,
        rules=rules.describe(),
        target=rules.target,
        comments=tuple(record.comments),
    )


@dataclass(slots=True)
class _Builder(ReplayVisitor):
    record: Game
    viewer: int | None
    rules: Ruleset
    hand_href: Callable[[int], str]
    header: GameHeader = field(init=False)
    hands: list[HandView] = field(default_factory=list)
    summaries: list[HandSummary] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # the hand in progress
    view: HandView | None = None
    log: list[PlayView] = field(default_factory=list)
    top: int | None = None
    trick_over: bool = False
    totals_before: tuple[int, ...] = ()
    last_trick_comments: int = 0
    disputes: int = 0
    specials: int = 0
    _ids: dict[int, tuple[int, ...]] = field(default_factory=dict)
    _names: dict[int | None, str] = field(default_factory=dict)  # name() of each seat
    # a reading in words, by all a Combo holds but its cards: what the words depend on
    _readings: dict[tuple[Any, ...], str] = field(default_factory=dict)
    # the engine's table at the last step, to reuse while it does not change
    _hands_list: list[int] = field(default_factory=list)  # the engine's lists, as last seen
    _won_list: list[int] = field(default_factory=list)
    _hands: tuple[tuple[int, ...] | None, ...] = ()
    _counts: tuple[int, ...] = ()
    _captured: tuple[tuple[int, ...], ...] = ()
    _points: tuple[int, ...] = ()
    _out: tuple[int, ...] = (-1,)
    _places: tuple[int | None, ...] = ()

    pages: list[str] = field(default_factory=list)  # each hand's page, by its index

    def __post_init__(self) -> None:
        self.header = header_of(self.record, self.rules)
        self.pages = replay_pages([h.number for h in self.record.hands], self.hand_href)

    def page(self, hand: HandView) -> str:
        """The hand's page (a number written twice gets two)."""
        if hand.index < len(self.pages):
            return self.pages[hand.index]
        return self.hand_href(hand.number)

    def diags(self, diagnostics: tuple[Diagnostic, ...]) -> list[DiagnosticView]:
        """The diagnostics as pages show them, the players' names isolated in their text."""
        if not diagnostics:
            return []
        names = tuple(self.record.players)
        return [DiagnosticView.of(d, names) for d in diagnostics]

    def visit_hand_start(self, state: ReplayState, event: HandStart) -> None:
        self._start(state, event, self.diags(event.diagnostics))

    def visit_move(self, state: ReplayState, step: MoveStep) -> None:
        self._move(state, step, self.diags(step.diagnostics))

    def visit_hand_end(self, state: ReplayState, event: HandEnd) -> None:
        self._end(state, event, self.diags(event.diagnostics))

    def visit_game_end(self, state: ReplayState, event: GameEnd) -> None:
        self._game_end(event, self.diags(event.diagnostics))

    def finish(self, end: GameEnd) -> GameView:
        for i, hv in enumerate(self.hands):
            hv.prev_href = self.page(self.hands[i - 1]) if i else None
            hv.prev_label = self.hands[i - 1].label if i else None
            last = i + 1 == len(self.hands)
            hv.next_href = None if last else self.page(self.hands[i + 1])
            hv.next_label = None if last else self.hands[i + 1].label
        view = GameView(
            self.header, self.hands, self.summaries, end.scores, end.winners, end.over,
            self.findings,
        )  # fmt: skip
        view.disputes, view.specials = self.disputes, self.specials
        return view

    # helpers -----------------------------------------------------------------------------------

    def name(self, seat: int | None) -> str:
        """A seat's name for prose, isolated so that no name can turn the sentence around."""
        found = self._names.get(seat)
        if found is None:
            found = "nobody" if seat is None else isolate(self.record.seat_name(seat))
            self._names[seat] = found
        return found

    def cards(self, mask: int) -> tuple[int, ...]:
        got = self._ids.get(mask)
        if got is None:
            got = self._ids[mask] = card_ids(mask)
        return got

    def _table(self, state: ReplayState) -> None:
        """Bring the table's tuples (hands, counts, captures, points, places) up to the engine's
        now: only what changed is made again, the rest is shared with the step before."""
        hs = state.hand
        assert hs is not None
        if hs.hands != self._hands_list:  # a pass changes no hand: reuse the last tuples
            before, now = self._hands_list, list(hs.hands)
            self._hands_list = now
            viewer = self.viewer
            hands: list[tuple[int, ...] | None]
            if len(before) == len(now):  # a play changes one hand: the others keep their tuples
                hands, counts = list(self._hands), list(self._counts)
            else:  # the first step: every seat's (no mask is -1)
                before, hands, counts = [-1] * len(now), [None] * len(now), [0] * len(now)
            for s, m in enumerate(now):
                if m != before[s]:
                    hands[s] = self.cards(m) if viewer is None or s == viewer else None
                    counts[s] = m.bit_count()
            self._hands, self._counts = tuple(hands), tuple(counts)
        if hs.won != self._won_list:  # only the end of a trick changes what was won
            self._won_list = list(hs.won)
            won_key = tuple(hs.won)
            self._captured = tuple(self.cards(w & COUNTERS) for w in won_key)
            self._points = tuple(points_of(w) for w in won_key)
        if len(hs.out_order) != len(self._out):
            self._out = tuple(hs.out_order)
            self._places = _places(self._out, hs.n)

    def _snapshot(self, state: ReplayState, **fields: Any) -> StepView:
        """A step whose table (hands, counts, places, captures, points) is the engine's now."""
        hs = state.hand
        assert hs is not None and self.view is not None
        self._table(state)
        fields.setdefault("totals", self.totals_before)
        fields.setdefault("captured", self._captured)
        fields.setdefault("points", self._points)
        fields.setdefault("places", self._places)
        step = StepView(
            index=len(self.view.steps),
            hands=self._hands,
            counts=self._counts,
            to_act=None if hs.over else hs.turn,
            trick_log=tuple(self.log),
            top=self.top,
            **fields,
        )
        return self._add(step)

    def _add(self, step: StepView) -> StepView:
        assert self.view is not None
        self.view.steps.append(step)
        if step.diagnostics:
            href = f"{self.view.href}#step={step.index}"
            self.findings.extend(Finding(d, href) for d in step.diagnostics)
        return step

    # the stream --------------------------------------------------------------------------------

    def _start(self, state: ReplayState, event: HandStart, diags: list[DiagnosticView]) -> None:
        hand = self.record.hands[event.hand_index]
        self.view = HandView(
            self.header, event.number, event.hand_index, self.viewer, event.reconstructed,
            event.shuffler, event.leader,
        )  # fmt: skip
        self.view.href = self.page(self.view)
        self.view.occurrence = sum(h.number == event.number for h in self.hands) + 1
        self.hands.append(self.view)
        self.log, self.top, self.trick_over, self.last_trick_comments = [], None, False, 0
        self.totals_before = tuple(state.game.scores)
        shuffled = f"{self.name(event.shuffler)} shuffled; " if event.shuffler is not None else ""
        dealt = "Deal reconstructed from the plays. " if event.reconstructed else ""
        self._snapshot(
            state,
            kind="deal",
            trick=None,
            turn=None,
            seat=None,
            label="deal",
            headline=f"{self.view.label}. {dealt}{shuffled}{self.name(event.leader)} leads.",
            comments=tuple(hand.comments),
            diagnostics=diags,
        )

    def _move(self, state: ReplayState, step: MoveStep, diags: list[DiagnosticView]) -> None:
        hs = state.hand
        assert hs is not None
        if self.trick_over:
            self.log, self.top, self.trick_over = [], None, False
        move, ev = step.written, step.event
        comments: list[str] = []
        if step.trick_index > self.last_trick_comments:
            self.last_trick_comments = step.trick_index
            written = self.record.hands[step.hand_index].tricks[step.trick_index - 1]
            comments.extend(written.comments)
        if move is not None:
            comments.extend(move.comments)
        errors = bool(diags) and any(d.severity == "error" for d in diags)
        self.disputes += move is not None and move.disputed
        if isinstance(ev, PlayEvent) and ev.combo.category is Category.special:
            self.specials += 1
        if ev is None:
            assert move is not None
            entry = self._rejected(move)
            label = _play_glyphs(move)
            kind, seat, trick, turn = "rejected", move.seat, hs.trick, None
            reasons = "; ".join(d.message for d in diags if d.severity == "error")
            headline = f"{self.name(seat)}: {label} was not applied: {reasons}"
        elif isinstance(ev, PlayEvent):
            entry = self._play(ev.seat, ev.combo, move, errors)
            self.top = len(self.log)
            kind, seat, trick, turn = "play", ev.seat, ev.trick, ev.turn
            label = glyphs(ev.combo.mask)
            headline = f"{self.name(seat)} plays {label}: {entry.reading}"
            if ev.out_place is not None:
                headline += f"; {self.name(seat)} goes out {place_word(ev.out_place)}"
            if errors:  # applied as written, so the replay can go on; say why it is wrong
                headline += ". Illegal: " + "; ".join(
                    d.message for d in diags if d.severity == "error"
                )
        else:
            entry = PlayView(ev.seat, (), True, None, (), move is None, False, errors)
            kind, seat, trick, turn, label = "pass", ev.seat, ev.trick, ev.turn, "pass"
            inferred = " (not written in the record)" if move is None else ""
            headline = f"{self.name(seat)} passes{inferred}"
        self.log.append(entry)
        won = None
        result = ev.trick_result if ev is not None else None
        if result is not None:
            self.trick_over = True
            won = (result.winner, result.points, self.cards(result.cards))
            headline += f". {self.name(result.winner)} takes trick {result.number}"
            headline += f" ({result.points} points)" if result.points else ""
            if result.next_leader is not None:
                headline += f"; {self.name(result.next_leader)} leads"
        view = self.view
        assert view is not None
        index = len(view.steps)
        view.actions.append(index)
        self._table(state)
        # a StepView per move: made here in its fields' order, not through _snapshot's keywords
        self._add(
            StepView(
                index, kind, trick, turn, seat, label, headline + ".", tuple(self.log), self.top,
                self._hands, self._counts, self._places, None if hs.over else hs.turn,
                self._captured, self._points, self.totals_before, won, tuple(comments),
                move.annotation if move else None, move.disputed if move else False,
                move.dispute_note if move else None, None, diags,
            )
        )  # fmt: skip

    def _play(self, seat: int, combo: Combo, move: Move | None, flagged: bool) -> PlayView:
        jokers: tuple[tuple[int, str, bool], ...] = ()
        if combo.jokers:
            declared = {j for j, _ in move.declarations} if move is not None else set()
            jokers = tuple((j, s.glyph(), j in declared) for j, s in combo.jokers)
        key = combo[:3] + combo[4:]  # category, rank, length, jokers, suit
        reading = self._readings.get(key)
        if reading is None:
            reading = self._readings[key] = (
                "a play that could not be read" if combo.rank < 0 else rank_prose(combo.describe())
            )
        return PlayView(seat, self.cards(combo.mask), False, reading, jokers, flagged=flagged)

    def _rejected(self, move: Move) -> PlayView:
        jokers = tuple((j, s.glyph(), True) for j, s in move.declarations)
        cards = self.cards(move.cards)
        return PlayView(move.seat, cards, move.is_pass, None, jokers, rejected=True)

    def _end(self, state: ReplayState, event: HandEnd, diags: list[DiagnosticView]) -> None:
        hv = self.view
        assert hv is not None
        if self.trick_over:
            self.log, self.top, self.trick_over = [], None, False
        r = event.result
        hv.finished = r is not None
        base: dict[str, Any] = {"trick": None, "turn": None, "seat": None}
        if r is not None:
            base["captured"] = tuple(self.cards(t & COUNTERS) for t in r.taken)
            base["points"] = r.points
            base["places"] = _places(r.out_order, len(r.points))
            transfer = TransferView(
                r.last,
                r.first,
                self.cards(r.transfer_tricks),
                self.cards(r.transfer_hand),
                points_of(r.transfer_tricks),
                points_of(r.transfer_hand),
            )
            self._snapshot(
                state,
                **base,
                kind="transfer",
                label="transfer",
                headline=(
                    f"{self.name(r.last)} came last: {self.name(r.first)}, first out, takes "
                    f"{self.name(r.last)}'s tricks and hand, {transfer.points} points."
                ),
                transfer=transfer,
            )
            scores = ", ".join(f"{self.name(s)} {p}" for s, p in enumerate(r.points))
            headline = f"{hv.label} over. Points: {scores}."
        else:
            headline = f"{hv.label} is not finished in the record; it scores nothing."
        self._snapshot(
            state, **base, kind="result", label="result", headline=headline, totals=event.totals,
            diagnostics=diags,
        )  # fmt: skip
        errors = sum(d.severity == "error" for s in hv.steps for d in s.diagnostics)
        warnings = sum(d.severity == "warning" for s in hv.steps for d in s.diagnostics)
        self.summaries.append(
            HandSummary(
                number=hv.number,
                href=hv.href,
                finished=r is not None,
                first=None if r is None else r.first,
                last=None if r is None else r.last,
                transfer=None if r is None else r.transfer_points,
                points=None if r is None else r.points,
                totals=event.totals,
                errors=errors,
                warnings=warnings,
                occurrence=hv.occurrence,
            )
        )

    def _game_end(self, event: GameEnd, diags: list[DiagnosticView]) -> None:
        """The game's result goes on the last hand's result step, and its findings with it."""
        last = self.hands[-1].steps[-1] if self.hands and self.hands[-1].steps else None
        if last is None:
            self.findings.extend(Finding(d, None) for d in diags)
            return
        last.diagnostics.extend(diags)
        href = f"{self.hands[-1].href}#step={last.index}"
        self.findings.extend(Finding(d, href) for d in diags)
        if event.over and event.winners:
            names = " and ".join(self.name(s) for s in event.winners)
            verb = "win" if len(event.winners) > 1 else "wins"
            best = event.scores[event.winners[0]]
            last.headline += f" Game over: {names} {verb} with {best}."


def _play_glyphs(move: Move) -> str:
    return "pass" if move.is_pass else glyphs(move.cards)


def _places(out_order: Sequence[int], n: int) -> tuple[int | None, ...]:
    places: list[int | None] = [None] * n
    for place, seat in enumerate(out_order, 1):
        places[seat] = place
    return tuple(places)


def render_hand(view: HandView) -> str:
    """The self-contained replay page of one hand."""
    template = environment().get_template("replay.html.j2")
    return template.render(view=view, data=view.data(), scripts=("movelist.js", "replay.js"))


def render_game(view: GameView, charts: Sequence[ChartEmbed] = ()) -> str:
    """The game page: summary table, charts (SVG that zfrec generated) and links to replays."""
    template = environment().get_template("game.html.j2")
    return template.render(view=view, charts=charts, scripts=())


def render_hands(record: Game, *, viewer: int | None = None) -> list[str]:
    """Every hand's replay page of a record (no charts): what the benchmark measures."""
    return [render_hand(h) for h in build_game_view(record, viewer=viewer).hands]
