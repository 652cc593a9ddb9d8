"""The analyser on the pages: notes at the moves, analysis sections, and the audit page.

    >>> decorate = analysis_decorator(record)           # the renderer's decorate hook
    >>> files = game_files(record, decorate=decorate)   # game_files(record) does this itself
    >>> page = render_audit(view, audit(record))        # the audit page of a failing record

Every note comes from zfrec.analysis.analyze (`GameAnalysis.per_move_notes()`,
`points_flow()`), every repair from zfrec.analysis.audit: nothing here judges a move. A note is
put on the step of the replay page that shows its move. The sections are rendered by Jinja2
templates with autoescape on, so the markup handed to `ExtraSection.html` holds record text
only escaped.

A seat's view (`viewer`) must not tell what the other hands held: it keeps the notes anyone at
the table could make (conceded counters) and the viewer's own missed beats, and shows no missed
beats for the other seats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup

from zfrec.analysis.analyze import Decision, GameAnalysis, MoveNote, SeatStats, analyze_game
from zfrec.analysis.audit import AuditReport
from zfrec.record.model import Game
from zfrec.render.html import environment
from zfrec.render.views import (
    DiagnosticView,
    ExtraSection,
    GameView,
    StepNote,
    StepView,
    card_prose,
)

AUDIT_PAGE = "audit.html"
Decorate = Callable[[GameView], None]  # the renderer's hook: add notes and sections to a view


@dataclass(frozen=True, slots=True)
class PlacedNote:
    """A note of the analysis and where the pages show it."""

    note: MoveNote
    hand_number: int
    step: int  # the step's index in its hand's replay page
    href: str  # relative to the game page: hand-N.html#step=K


@dataclass(frozen=True, slots=True)
class SeatRow:
    name: str
    seat: int
    stats: SeatStats
    missed_shown: bool  # False in another seat's view: it would tell what this seat held


def analysis_decorator(
    record: Game, *, viewer: int | None = None, analysis: GameAnalysis | None = None
) -> Decorate:
    """The decorate hook that marks the analysis on a game's pages (see `annotate`).

    The record is analysed when the hook runs, unless `analysis` is given. The pages show no
    play's alternatives, only a missed beat's example, so the fast mode does.
    """

    def decorate(view: GameView) -> None:
        annotate(view, analysis or analyze_game(record, alternatives=False), viewer=viewer)

    return decorate


def annotate(view: GameView, analysis: GameAnalysis, *, viewer: int | None = None) -> None:
    """Notes at the moves (missed beats, conceded counters), a section on each replay page and
    one on the game page: per-seat totals, the notes linked to their steps, the points flow."""
    hrefs = [s.href for s in view.summaries]
    placed: dict[int, list[PlacedNote]] = {}  # by hand index
    names = tuple(analysis.players)
    for i, found, step in _locate(view, analysis):
        if not _visible(found, viewer):
            continue
        note = replace(found, text=card_prose(found.text, names))  # 10♠, names isolated
        step.notes.append(StepNote(note.text, note.kind))
        number = view.hands[i].number
        href = f"{hrefs[i] if i < len(hrefs) else ''}#step={step.index}"
        placed.setdefault(i, []).append(PlacedNote(note, number, step.index, href))
    players = analysis.players
    env = environment()
    hand_template = env.get_template("analysis_hand.html.j2")
    for i, (hv, ha) in enumerate(zip(view.hands, analysis.hands, strict=False)):
        html = hand_template.render(
            seats=_seat_rows(players, ha.seats, viewer),
            notes=placed.get(i, []),
            finished=ha.finished,
        )
        hv.sections.append(ExtraSection(f"Analysis of hand {hv.number}", html=Markup(html)))
    html = env.get_template("analysis_game.html.j2").render(
        players=players,
        seats=_seat_rows(players, analysis.seat_totals(), viewer),
        notes=[n for i in sorted(placed) for n in placed[i]],
        flow=analysis.points_flow(),
        errors=analysis.errors,
        viewer=None if viewer is None else players[viewer],
    )
    view.sections.append(ExtraSection("Analysis", html=Markup(html)))


def render_audit(view: GameView, report: AuditReport, *, game_href: str = "index.html") -> str:
    """The audit page of a record that fails validation: its diagnostics, the rules it would be
    legal under, and the smallest verified repairs. Links back to the game page."""
    return (
        environment()
        .get_template("audit.html.j2")
        .render(
            view=view,
            report=report,
            diagnostics=[DiagnosticView.of(d) for d in report.report.diagnostics],
            findings=view.findings,  # the same diagnostics, in play order, linked to their steps
            game_href=game_href,
            scripts=(),
        )
    )


# --- matching notes to steps -----------------------------------------------------------------


def _locate(view: GameView, analysis: GameAnalysis) -> list[tuple[int, MoveNote, StepView]]:
    """Each note with the hand (index) and the step that shows its move.

    The analysis and the view are read off the same replay stream: hand by hand, a hand's
    decisions are its play and pass steps, in order. Notes come in decision order, and each
    is matched to its decision by place (hand, trick, turn, seat, move index) and content.
    """
    notes = analysis.per_move_notes()
    out: list[tuple[int, MoveNote, StepView]] = []
    k = 0
    for i, (hv, ha) in enumerate(zip(view.hands, analysis.hands, strict=False)):
        moves = [s for s in hv.steps if s.kind in ("play", "pass")]
        for decision, step in zip(ha.decisions, moves, strict=False):
            while k < len(notes) and _belongs(notes[k], decision):
                out.append((i, notes[k], step))
                k += 1
    return out


def _belongs(note: MoveNote, d: Decision) -> bool:
    where = (note.hand, note.trick, note.turn, note.seat, note.move_index)
    if where != (d.hand, d.trick, d.turn, d.seat, d.move_index):
        return False
    if note.kind == "missed_beat":
        return d.missed_beat
    if note.kind == "conceded":
        return d.conceded == note.points
    return d.special if note.kind == "special" else bool(d.jokers)


def _visible(note: MoveNote, viewer: int | None) -> bool:
    """A missed beat tells what the seat held: only its own seat's view may show it."""
    return viewer is None or note.kind != "missed_beat" or note.seat == viewer


def _seat_rows(
    players: Sequence[str], seats: Sequence[SeatStats], viewer: int | None
) -> list[SeatRow]:
    return [SeatRow(players[s], s, st, viewer is None or viewer == s) for s, st in enumerate(seats)]


__all__ = [
    "AUDIT_PAGE",
    "Decorate",
    "PlacedNote",
    "analysis_decorator",
    "annotate",
    "render_audit",
]
