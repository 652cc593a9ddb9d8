"""The analyser on the pages: notes at the moves, analysis sections, and the audit pages.

    decorate = analysis_decorator(record)           # the renderer's decorate hook
    files = game_files(record, decorate=decorate)   # game_files(record) does this itself
    page = render_audit(view, audit(record))        # the site's audit page of a failing record
    html = analysis_html(analyze_game(record))      # sections to embed in any page
    html = audit_html(audit(record))
    page = audit_file("club.zfn", [("Game 1", audit(record))])  # zfrec audit --html

All the HTML is made by the templates (templates/analysis_*.j2, audit*.j2).

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> game = example_game()
    >>> view = build_game_view(game)
    >>> analysis_decorator(game)(view)
    >>> [n.kind for s in view.hands[0].steps for n in s.notes]
    ['missed_beat', 'missed_beat', 'missed_beat', 'conceded']

Every note comes from zfrec.games.zhengfen.analysis.analyze (`GameAnalysis.per_move_notes()`,
`points_flow()`), every repair from its `audit`: nothing here judges a move. A note is put on the
step of the replay page that shows its move. The sections are rendered by Jinja2 templates with
autoescape on, so the markup handed to `ExtraSection.html` holds record text only escaped.

A seat's view (`viewer`) must not tell what the other hands held: it keeps the notes anyone at
the table could make (conceded counters) and the viewer's own missed beats, and shows no missed
beats for the other seats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup, escape

from zfrec.games.zhengfen.analysis.analyze import (
    GameAnalyser,
    GameAnalysis,
    MoveNote,
    SeatStats,
    analyze_game,
)
from zfrec.games.zhengfen.analysis.audit import AuditReport
from zfrec.games.zhengfen.analysis.costs import COST_BUDGET, CostFinder
from zfrec.games.zhengfen.analysis.flow import FlowRow
from zfrec.games.zhengfen.pages.html import build_game_view
from zfrec.games.zhengfen.pages.views import (
    DiagnosticView,
    ExtraSection,
    GameView,
    StepNote,
    StepView,
)
from zfrec.record.model import Game
from zfrec.render.gamefiles import AUDIT_PAGE
from zfrec.render.html import environment
from zfrec.render.pagenames import repeat_suffix
from zfrec.render.views import card_prose

PAGE_SECONDS = 10.0  # a game's solving for its pages, in all (analysed_view's solve_cards)
Decorate = Callable[[GameView], None]  # the renderer's hook: add notes and sections to a view


@dataclass(frozen=True, slots=True)
class PlacedNote:
    """A note of the analysis and where the pages show it (nowhere: `href` None).

    >>> from zfrec.games.zhengfen.analysis.analyze import MoveNote
    >>> note = MoveNote(1, 1, 5, 1, "missed_beat", "Bo passed")
    >>> PlacedNote(note, 1, 5, "hand-1.html#step=5").href, PlacedNote(note, 1).href
    ('hand-1.html#step=5', None)
    """

    note: MoveNote
    hand_number: int
    step: int | None = None  # the step's index in its hand's replay page
    href: str | None = None  # relative to the game page: hand-N.html#step=K
    # the hand as its page's heading names it (`Hand 1 (2nd)` for a second hand 1); by default
    # `Hand N`
    hand_label: str | None = None

    @property
    def at(self) -> str:
        """Where the note is, in words: `Hand 1, trick 5, turn 1`."""
        hand = self.hand_label or f"Hand {self.hand_number}"
        return f"{hand}, trick {self.note.trick}, turn {self.note.turn}"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A row of the per-seat tables; another seat's view hides its missed beats.

    >>> from zfrec.games.zhengfen.analysis.analyze import SeatStats
    >>> [r.missed_shown for r in _seat_rows(["Ann", "Bo"], [SeatStats(), SeatStats()], 1)]
    [False, True]
    """

    name: str
    seat: int
    stats: SeatStats
    missed_shown: bool  # False in another seat's view: it would tell what this seat held


def analysed_view(
    record: Game,
    *,
    viewer: int | None = None,
    hand_href: Callable[[int], str] = lambda number: f"hand-{number}.html",
    solve_cards: int = 0,
    visitors: Iterable[object] = (),
) -> GameView:
    """The game's view with its analysis marked on it (as `annotate` does), from one replay
    pass that feeds the page and the analysis together (and any other `visitors`). The pages
    show no play's alternatives, only a missed beat's example, so the analysis runs in its fast
    mode.

    `solve_cards` > 0 asks the hindsight solver, in the same pass, about every position of a
    hand's end with at most that many cards left (zfrec.games.zhengfen.analysis.costs): each
    decision's cost becomes a note, and each step shows the "perfect play from here" table
    (`StepView.perfect`). Not in a seat's view: the solver knows every hand.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> view = analysed_view(example_game())
    >>> [n.kind for s in view.hands[0].steps for n in s.notes]
    ['missed_beat', 'missed_beat', 'missed_beat', 'conceded']
    """
    rules = record.ruleset()
    solver = None
    if solve_cards > 0 and viewer is None:
        solver = CostFinder(rules, solve_cards, COST_BUDGET, PAGE_SECONDS, tables=True)
    analyser = GameAnalyser(record, rules, alternatives=False, costs=solver)
    view = build_game_view(record, viewer=viewer, rules=rules, hand_href=hand_href,
                           visitors=[analyser, *visitors])  # fmt: skip
    annotate(view, analyser.result(), viewer=viewer)
    if solver is not None:
        mark_perfect_play(view, solver.values)
    return view


def mark_perfect_play(view: GameView, values: dict[tuple[int, int], dict[int, int]]) -> None:
    """Put each seat's value on the steps whose position the solver reached: a page step that
    shows replay step k of hand i shows the position before step k + 1, the deal step the
    position before the first (`CostFinder.values` keys).

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> view = analysed_view(example_game())
    >>> mark_perfect_play(view, {(0, 1): {0: 5, 1: 0, 2: 10}})
    >>> [(s.index, s.perfect) for s in view.hands[0].steps if s.perfect]
    [(1, (5, 0, 10))]
    """
    for i, hand in enumerate(view.hands):
        n = len(hand.steps[0].counts) if hand.steps else 0
        shown = [(0, 0), *((page, k + 1) for k, page in enumerate(hand.actions))]
        for page, position in shown:
            found = values.get((i, position))
            if found is not None and page < len(hand.steps):
                hand.steps[page].perfect = tuple(found.get(s) for s in range(n))


def analysis_decorator(
    record: Game, *, viewer: int | None = None, analysis: GameAnalysis | None = None
) -> Decorate:
    """The decorate hook that marks the analysis on a game's pages (see `annotate`).

    The record is analysed when the hook runs, unless `analysis` is given. The pages show no
    play's alternatives, only a missed beat's example, so the fast mode does.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> view = build_game_view(example_game())
    >>> analysis_decorator(example_game(), viewer=0)(view)  # as Ann saw the game
    >>> [n.kind for s in view.hands[0].steps for n in s.notes]
    ['conceded']
    """

    def decorate(view: GameView) -> None:
        annotate(view, analysis or analyze_game(record, alternatives=False), viewer=viewer)

    return decorate


def annotate(view: GameView, analysis: GameAnalysis, *, viewer: int | None = None) -> None:
    """Notes at the moves (missed beats, conceded counters), a section on each replay page and
    one on the game page: per-seat totals, the notes linked to their steps, the points flow.

    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> view = build_game_view(example_game())
    >>> annotate(view, analyze_game(example_game()))
    >>> [s.title for s in view.sections], [s.title for s in view.hands[0].sections]
    (['Analysis'], ['Analysis of hand 1'])
    """
    hrefs = [s.href for s in view.summaries]
    placed: dict[int, list[PlacedNote]] = {}  # by hand index
    names = tuple(analysis.players)
    for i, found, step in _locate(view, analysis):
        if not _visible(found, viewer):
            continue
        note = replace(found, text=card_prose(found.text, names))  # 10♠, names isolated
        step.notes.append(StepNote(note.text, note.kind))
        hand = view.hands[i]
        href = f"{hrefs[i] if i < len(hrefs) else ''}#step={step.index}"
        placed.setdefault(i, []).append(PlacedNote(note, hand.number, step.index, href, hand.label))
    players = analysis.players
    env = environment()
    hand_template = env.get_template("analysis_hand.html.j2")
    for i, (hv, ha) in enumerate(zip(view.hands, analysis.hands, strict=False)):
        html = hand_template.render(
            seats=_seat_rows(players, ha.seats, viewer),
            notes=placed.get(i, []),
            finished=ha.finished,
        )
        title = f"Analysis of hand {hv.number}{repeat_suffix(hv.occurrence)}"
        hv.sections.append(ExtraSection(title, html=Markup(html)))
    flow = analysis.points_flow()
    html = env.get_template("analysis_game.html.j2").render(
        players=players,
        seats=_seat_rows(players, analysis.seat_totals(), viewer),
        notes=[n for i in sorted(placed) for n in placed[i]],
        flow=flow,
        flow_rows=_flow_rows(flow, players),
        errors=analysis.errors,
        viewer=None if viewer is None else players[viewer],
    )
    view.sections.append(ExtraSection("Analysis", html=Markup(html)))


def _flow_rows(flow: Sequence[FlowRow], players: Sequence[str]) -> Markup:
    """The rows of the points-flow table (analysis_game.html.j2), a row per trick of the game:
    written here, where the template's escaping of each of their cells was a third of the
    time of the game's analysis sections. The players' names are escaped; the rest are
    numbers."""
    names = [str(escape(p)) for p in players]
    score_cells = [f'<td class="num" data-label="{n}">' for n in names]
    rows = []
    for r in flow:
        to = f'<bdi class="nm">{names[r.seat]}</bdi>'
        if r.from_seat is not None:
            to = f'<bdi class="nm">{names[r.from_seat]}</bdi> → {to}'
        scores = "".join(
            [f"{cell}{v}</td>" for cell, v in zip(score_cells, r.scores, strict=False)]
        )
        kind = ' class="zf-transfer"' if r.kind == "transfer" else ""
        rows.append(
            f"        <tr{kind}>"
            f'<td class="num key" data-label="Hand">{r.hand}</td>'
            f'<td data-label="Trick">{"transfer" if r.trick is None else r.trick}</td>'
            f'<td data-label="To">{to}</td><td class="num" data-label="Points">{r.points}</td>'
            f"{scores}</tr>\n"
        )
    return Markup("".join(rows))


def render_audit(view: GameView, report: AuditReport, *, game_href: str = "index.html") -> str:
    """The audit page of a record that fails validation: its diagnostics, the rules it would be
    legal under, and the smallest verified repairs. Links back to the game page.

    >>> from zfrec.games.zhengfen.analysis.audit import audit
    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> from zfrec.games.zhengfen.pages.html import build_game_view
    >>> page = render_audit(build_game_view(broken_example()), audit(broken_example()))
    >>> page.startswith("<!DOCTYPE html>"), "legal if trick 1, turn 5 (\u2068Bo\u2069) was" in page
    (True, True)
    """
    return (
        environment()
        .get_template("audit.html.j2")
        .render(
            view=view,
            report=report,
            diagnostics=_diagnostics(report),
            findings=view.findings,  # the same diagnostics, in play order, linked to their steps
            game_href=game_href,
            scripts=(),
        )
    )


def analysis_html(analysis: GameAnalysis) -> str:
    """A `<section class="zf-analysis">` to embed in any page: per-seat totals, the notes (not
    linked to steps) and the points flow, as on the game page. Record text is escaped.

    >>> from zfrec.games.zhengfen.analysis.analyze import analyze_game
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> html = analysis_html(analyze_game(example_game()))
    >>> html.startswith('<section class="zf-analysis">'), html.count('class="zf-missed-beat"')
    (True, 3)
    """
    players = analysis.players
    flow = analysis.points_flow()
    return (
        environment()
        .get_template("analysis_section.html.j2")
        .render(
            players=players,
            seats=_seat_rows(players, analysis.seat_totals(), None),
            notes=[PlacedNote(n, n.hand) for n in analysis.per_move_notes()],
            flow=flow,
            flow_rows=_flow_rows(flow, players),
            errors=analysis.errors,
            viewer=None,
        )
    )


def audit_html(report: AuditReport) -> str:
    """A `<section class="zf-audit">` to embed in any page: the findings of one audit, as on
    the audit page. Record text is escaped.

    >>> from zfrec.games.zhengfen.analysis.audit import audit
    >>> from zfrec.games.zhengfen.analysis.example import example_game
    >>> "legal as recorded" in audit_html(audit(example_game()))
    True
    """
    return (
        environment()
        .get_template("audit_section.html.j2")
        .render(report=report, diagnostics=_diagnostics(report))
    )


def audit_file(
    title: str, reports: Sequence[tuple[str, AuditReport | Markup]], styles: Sequence[str] = ()
) -> str:
    """The self-contained page of `zfrec audit --html`, titled `title`: the audit of each
    game, under its heading ("Game 1", "club.zfn, game 2"). Another game's audit comes as its
    kind's own section (`GameKind.audit_section`, Markup with its heading), with the templates
    of the CSS it needs in `styles`.

    >>> from zfrec.games.zhengfen.analysis.audit import audit
    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> page = audit_file("club <night>.zfn", [("Game 1", audit(broken_example()))])
    >>> "<h1>Audit: club &lt;night&gt;.zfn</h1>" in page, page.count('class="zf-repair"')
    (True, 2)
    """
    games = [
        (heading, r, _diagnostics(r), None)
        if isinstance(r, AuditReport)
        else (heading, None, [], r)
        for heading, r in reports
    ]
    return (
        environment()
        .get_template("audit_file.html.j2")
        .render(title=title, games=games, styles=styles, scripts=())
    )


def _diagnostics(report: AuditReport) -> list[DiagnosticView]:
    return [DiagnosticView.of(d) for d in report.report.diagnostics]


# --- matching notes to steps -----------------------------------------------------------------


def _locate(view: GameView, analysis: GameAnalysis) -> list[tuple[int, MoveNote, StepView]]:
    """Each note with the hand (index into `view.hands`) and the step that shows its move.

    A note knows its replay step (`MoveNote.hand_index`, `.step`: the number of its MoveStep
    in the hand) and a hand's view knows which page step each MoveStep made (`actions`).
    """
    where = {hv.index: i for i, hv in enumerate(view.hands)}
    out: list[tuple[int, MoveNote, StepView]] = []
    for note in analysis.per_move_notes():
        i = where.get(note.hand_index) if note.hand_index is not None else None
        if i is None or note.step is None:
            continue
        actions = view.hands[i].actions
        if 0 <= note.step < len(actions):
            out.append((i, note, view.hands[i].steps[actions[note.step]]))
    return out


def _visible(note: MoveNote, viewer: int | None) -> bool:
    """A missed beat tells what the seat held: only its own seat's view may show it. A cost
    comes from every hand: no seat's view shows it."""
    if note.kind == "cost":
        return viewer is None
    return viewer is None or note.kind != "missed_beat" or note.seat == viewer


def _seat_rows(
    players: Sequence[str], seats: Sequence[SeatStats], viewer: int | None
) -> list[SeatRow]:
    return [SeatRow(players[s], s, st, viewer is None or viewer == s) for s, st in enumerate(seats)]


__all__ = [
    "AUDIT_PAGE",
    "Decorate",
    "PlacedNote",
    "SeatRow",
    "analysed_view",
    "analysis_decorator",
    "analysis_html",
    "annotate",
    "audit_file",
    "audit_html",
    "mark_perfect_play",
    "render_audit",
]
