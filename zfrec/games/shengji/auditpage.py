"""Sheng ji's audit page: the findings of `zfrec audit` (zfrec.games.shengji.audit) as HTML.

    view = audit_view(audit_match(match))              # what the page shows, placed
    html = audit_section(view, "Game 1")               # zfrec audit --html: one game's section
    page = render_audit_page(view)                     # render's audit.html beside the replays

Every finding is shown where it is (round, bid or trick and turn, seat, the play's cards and
the record's line), with the finding it follows from linked; every disputed version of a bid
or a play judged; every repair with each edit's text before and after; and each round's
figures as written against those the validator computed. Nothing here judges anything: the
audit's report (its `SjReport`, repairs and disputes) says it all, this only places it. The
HTML comes from templates/sj_audit*.j2 (autoescape on), in the look of Zheng Fen's audit page
(audit_findings.html.j2) and its style, with templates/sj_audit.css on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup

from zfrec.diagnostics import Cause as DiagCause
from zfrec.diagnostics import Diagnostic
from zfrec.games.shengji.audit import SjAuditReport, SjDispute, SjVersion
from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.records import SjMatch, SjMove
from zfrec.games.shengji.roundpages import RoundLinks, round_ledgers
from zfrec.games.shengji.rules import level_text
from zfrec.render.html import environment
from zfrec.render.pagenames import repeat_suffix, replay_pages

__all__ = [
    "SjAuditView",
    "audit_section",
    "audit_view",
    "render_audit_page",
]

Steps = Mapping[tuple[int, int, int], int]  # (round, trick, turn) -> step of the round's replay


@dataclass(frozen=True, slots=True)
class Cause:
    """A finding another follows from: its code, where, and its anchor on the page (None when
    the cause is no finding of the report)."""

    code: str
    where: str
    anchor: str | None


@dataclass(frozen=True, slots=True)
class Finding:
    """One diagnostic, placed: its anchor, where it is in words, the seat, the play's cards
    (or the bid's), the record's line, a link to its replay step, and the chain of findings it
    follows from, nearest first."""

    anchor: str
    diagnostic: Diagnostic
    where: str
    seat: str | None
    play: str | None
    line: int | None
    href: str | None
    causes: tuple[Cause, ...] = ()
    followers: int = 0  # how many findings follow from this one
    text: str | None = None  # the line itself, where the page shows a text the reader has not


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit of a repair: its phrase, where, and the record's text before and after."""

    kind: str
    text: str
    where: str
    before: str | None
    after: str | None


@dataclass(frozen=True, slots=True)
class Repair:
    ok: bool
    text: str
    errors: int
    warnings: int
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class Version:
    play: str
    recorded: bool
    legal: bool
    error: Diagnostic | None
    error_where: str
    points: int | None  # the opponents' points of the disputed round
    levels: str | None  # final levels, in seat order
    forced: str | None
    later: Diagnostic | None = None  # the record's later error that every version meets
    later_where: str = ""


@dataclass(frozen=True, slots=True)
class Dispute:
    anchor: str
    where: str
    seat: str
    note: str | None
    line: int | None
    versions: tuple[Version, ...]


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of a round as written and as computed (None: not written / not computed)."""

    label: str
    recorded: str | None
    computed: str | None

    @property
    def differs(self) -> bool:
        return None not in (self.recorded, self.computed) and self.recorded != self.computed


@dataclass(frozen=True, slots=True)
class RoundFigures:
    number: int | None  # None: the match's [Result]
    label: str
    href: str | None
    figures: tuple[Figure, ...]
    anchor: str = ""  # the row's id beside the prefix: `round-1`, the second round 1 `round-1-2`

    @property
    def differs(self) -> bool:
        return any(f.differs for f in self.figures)


@dataclass(slots=True)
class SjAuditView:
    """What one Sheng ji audit page (or section) shows."""

    report: SjAuditReport
    prefix: str  # of every anchor: several games share one page
    title: str
    players: list[str]
    rules: str
    findings: list[Finding] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)
    disputes: list[Dispute] = field(default_factory=list)
    rounds: list[RoundFigures] = field(default_factory=list)
    result: tuple[Figure, ...] = ()  # [Result]'s final levels and winners
    game_href: str | None = None
    index_href: str | None = None
    record_text: bool = False  # lines are of the record's .zfn text (not a file it was read from)

    @property
    def legal(self) -> bool:
        return self.report.legal

    @property
    def errors(self) -> int:
        return self.report.report.errors

    @property
    def warnings(self) -> int:
        return self.report.report.warnings

    @property
    def repaired(self) -> bool:
        return any(r.ok for r in self.repairs)

    @property
    def columns(self) -> list[int]:
        """The figures of the rounds' table: those written or computed in some round."""
        width = len(self.rounds[0].figures) if self.rounds else 0
        return [i for i in range(width) if any(
            r.figures[i].recorded is not None or r.figures[i].computed is not None
            for r in self.rounds)]  # fmt: skip


# --- the view ----------------------------------------------------------------------------------


def audit_view(
    report: SjAuditReport,
    *,
    prefix: str = "",
    steps: Steps | None = None,
    round_href: str | None = None,
    record_lines: Sequence[str] | None = None,
    links: RoundLinks | None = None,
) -> SjAuditView:
    """The page's view of one audit. `steps` and `round_href` (`round-{}.html`) link each
    finding to its replay step, where the replays are beside the page (render's audit.html);
    without them findings link only to one another. `record_lines`: the lines of the .zfn
    text the record was read from, where the reader has no such file (a stored game, a JSON
    record): each finding shows its line. `links` (the game view's, `RoundLinks`), where
    given, name the rounds' pages and steps instead, and tell apart rounds written with the
    same number (SJ508)."""
    match = report.match
    players = list(match.players)
    rules = report.report.rules
    title = match.event or " · ".join(players)
    preset = rules.preset if rules else match.preset
    view = SjAuditView(report, prefix, title, players, f"Sheng ji, {preset}")
    places = _places(match)
    view.findings = _findings(report, places, prefix, steps, round_href, links)
    if record_lines is not None:
        view.record_text = True
        view.findings = [_with_text(f, record_lines) for f in view.findings]
    view.repairs = [_repair(r, players) for r in report.repairs]
    view.disputes = [
        dispute_view(d, players, f"{prefix}d{i}", match) for i, d in enumerate(report.disputes, 1)
    ]
    view.rounds, view.result = _figures(report, round_href, links)
    return view


Place = tuple[int, str, SjMove]  # round number, "bid 2" or "trick 3, turn 1", the move


def _places(match: SjMatch) -> dict[tuple[int, int], Place]:
    """Every bid and play of the record by its position in the text (line, column)."""
    out: dict[tuple[int, int], Place] = {}
    for rnd in match.rounds:
        for b, bid in enumerate(rnd.bids, 1):
            if bid.pos is not None:
                out[(bid.pos[0], bid.pos[1])] = (rnd.number, f"bid {b}", bid)
        for t, trick in enumerate(rnd.tricks, 1):
            for u, move in enumerate(trick.moves, 1):
                if move.pos is not None:
                    out[(move.pos[0], move.pos[1])] = (rnd.number, f"trick {t}, turn {u}", move)
    return out


def _where(d: Diagnostic, place: Place | None) -> str:
    """`Round 1, trick 13, turn 2`, `Round 1, bid 2`, `Round 2`, or `the record` (a finding
    of the whole match, as [Result]'s)."""
    loc = d.location
    if place is not None and loc.trick is None and place[1].startswith("bid"):
        return f"Round {place[0]}, {place[1]}"
    words = _words(loc.hand, loc.trick, loc.turn)
    if words and loc.hand is not None and loc.occurrence > 1:  # the second round so numbered
        said = f"Round {loc.hand}"
        words = said + repeat_suffix(loc.occurrence) + words[len(said) :]
    return words or "the record"


def _findings(
    report: SjAuditReport,
    places: dict[tuple[int, int], Place],
    prefix: str,
    steps: Steps | None,
    round_href: str | None,
    links: RoundLinks | None = None,
) -> list[Finding]:
    diags = report.report.diagnostics
    anchors = [f"{prefix}f{i}" for i in range(1, len(diags) + 1)]
    by_key: dict[tuple[int | None, int | None, str], int] = {}
    for i, d in enumerate(diags):
        by_key.setdefault((d.location.line, d.location.col, d.code), i)
    followers = [0] * len(diags)
    chains: list[tuple[Cause, ...]] = []
    for i, d in enumerate(diags):
        chain: list[Cause] = []
        seen = {i}
        c, at_j = d.cause, i
        while c is not None:
            if c.line is not None:
                j = by_key.get((c.line, c.col, c.code))
            else:
                j = _unplaced(diags, c, at_j)
            if j is None:  # the cause is no finding of the report: named by its place only
                at = f"line {c.line}" if c.line is not None else "the record"
                chain.append(Cause(c.code, at, None))
                break
            if j in seen:
                break
            seen.add(j)
            followers[j] += 1
            cd = diags[j]
            at = _where(cd, places.get((cd.location.line or 0, cd.location.col or 0)))
            if cd.location.seat:
                at += f" ({cd.location.seat})"
            chain.append(Cause(cd.code, at, anchors[j]))
            c, at_j = cd.cause, j
        chains.append(tuple(chain))
    out = []
    for i, d in enumerate(diags):
        loc = d.location
        place = places.get((loc.line or 0, loc.col or 0))
        play = None
        move = None
        if place is not None and (
            place[1].startswith("bid") if loc.trick is None else loc.turn is not None
        ):  # the bid or play the finding is at (not the lead whose place a trick's shares)
            move = place[2]
        elif loc.turn is not None:  # a record without places (stored, or JSON rendered)
            move = _move_at(report.match, loc.hand, loc.trick, loc.turn)
        if move is not None:
            play = format_hand(move.cards)
            if move.forced is not None:
                play += f" (held to {format_hand(move.forced)})"
        href = None
        if links is not None:
            href = links.href(loc, whole_round=steps is not None)
        elif round_href is not None and loc.hand is not None:
            href = round_href.format(loc.hand)
            if steps is not None and loc.trick is not None:
                step = steps.get((loc.hand, loc.trick, loc.turn or 1))
                if step is not None:
                    href += f"#step={step}"
            elif steps is not None:  # a finding of the whole round: the round's head, its deal
                href += "#step=0"
        out.append(Finding(anchors[i], d, _where(d, place), loc.seat, play, loc.line, href,
                           chains[i], followers[i]))  # fmt: skip
    return out


def _with_text(f: Finding, lines: Sequence[str]) -> Finding:
    if f.line is None or not 0 < f.line <= len(lines):
        return f
    return replace(f, text=lines[f.line - 1].strip())


def _unplaced(diags: Sequence[Diagnostic], c: DiagCause, i: int) -> int | None:
    """The finding a record without places (stored, or JSON rendered) names as the cause of
    finding `i`, by its code alone: a root of that code in the same round, the nearest
    before `i` first (the first of the code would name round 1's for round 2's findings)."""
    here = diags[i].location.hand
    found = [j for j, e in enumerate(diags) if e.code == c.code and j != i]
    if not found:
        return None
    return max(found, key=lambda j: (diags[j].location.hand == here, diags[j].cause is None,
                                     j < i, j if j < i else -j))  # fmt: skip


def _move_at(match: SjMatch, rnd: int | None, trick: int | None, turn: int) -> SjMove | None:
    """The record's play at round `rnd`, trick `trick`, turn `turn` (1-based), if written."""
    for r in match.rounds:
        if r.number == rnd and trick is not None and 0 < trick <= len(r.tricks):
            moves = r.tricks[trick - 1].moves
            return moves[turn - 1] if 0 < turn <= len(moves) else None
    return None


def _edit_where(e: Any, players: Sequence[str]) -> str:
    text = _words(e.round, e.trick, e.turn)
    if e.seat is not None and e.seat < len(players):
        text = f"{text} ({players[e.seat]})" if text else players[e.seat]
    return text or "The record"


def _words(rnd: int | None, trick: int | None, turn: int | None) -> str:
    """`Round 1, trick 13, turn 2`, with the parts that are known ("" for none)."""
    named = (("round", rnd), ("trick", trick), ("turn", turn))
    text = ", ".join(f"{name} {value}" for name, value in named if value is not None)
    return text[:1].upper() + text[1:]


def _repair(r: Any, players: Sequence[str]) -> Repair:
    edits = tuple(Edit(e.kind, e.text, _edit_where(e, players), e.before, e.after) for e in r.edits)
    return Repair(r.ok, r.text(), r.report.errors, r.report.warnings, edits)


def _levels(levels: Sequence[int] | None, players: Sequence[str]) -> str | None:
    if not levels:
        return None
    return ", ".join(f"{p} {level_text(v)}" for p, v in zip(players, levels, strict=False))


def _version(v: SjVersion, players: Sequence[str]) -> Version:
    e = v.first_error
    where = _version_where(e) if e is not None else ""
    forced = format_hand(v.forced) if v.forced is not None else None
    return Version(format_hand(v.play), v.recorded, e is None, e, where, v.total,
                   _levels(v.levels, players), forced, v.later,
                   _version_where(v.later) if v.later is not None else "")  # fmt: skip


def _version_where(e: Diagnostic) -> str:
    """`round 1, trick 12, turn 1 (North), line 27`: a finding's play and line."""
    where = e.location.play()
    if e.location.line is not None:
        where = f"{where}, line {e.location.line}" if where else f"line {e.location.line}"
    return where


def dispute_view(
    d: SjDispute, players: Sequence[str], anchor: str, match: SjMatch | None = None
) -> Dispute:
    """A dispute as the pages draw it (templates/sj_disputes.html.j2); `match` names a
    repeated round number as the pages do (`round 1 (2nd)`)."""
    said = f"round {d.round}" if match is None or d.index is None else match.round_said(d.index)
    where = f"R{said[1:]}, " + (f"bid {d.bid}" if d.bid is not None else
                                    f"trick {d.trick}, turn {d.turn}")  # fmt: skip
    line = d.move.pos[0] if d.move.pos else None
    versions = tuple(_version(v, players) for v in d.versions)
    return Dispute(anchor, where, players[d.seat], d.move.dispute_note, line, versions)


def _figures(
    report: SjAuditReport, round_href: str | None, links: RoundLinks | None = None
) -> tuple[list[RoundFigures], tuple[Figure, ...]]:
    """Each round's figures as written against those the validator computed, and the match's
    [Result]. The computed levels after a round go on from the levels written after the
    round before (as the validator judges them), so a wrong line shows where it is written."""
    match = report.match
    players = match.players
    ledgers = round_ledgers(match, report.report)  # by place: a number may be written twice
    names = replay_pages([r.number for r in match.rounds], lambda n: f"round-{n}")
    out = []
    for i, rnd in enumerate(match.rounds):
        lg = ledgers[i]
        r = lg.result if lg is not None else None
        p = rnd.points
        kitty_rec = None
        if p is not None and p.kitty is not None:
            kitty_rec = f"{p.kitty} × {p.multiplier}" if p.multiplier is not None else str(p.kitty)
        kitty_comp = None
        # The kitty counts when the opponents took the last trick (ruling 11), even when it
        # holds no points and adds 0 (`kitty 0x2`, as the validator judges it).
        counted = r is not None and not r.declarers >> r.last_winner & 1
        if r is not None and counted:  # as the record writes it: the multiplier if it does
            with_x = p is None or p.kitty is None or p.multiplier is not None
            kitty_comp = f"{r.kitty_points} × {r.multiplier}" if with_x else str(r.kitty_points)
        if r is not None and not counted and kitty_rec is not None:
            kitty_comp = "not counted"
        o = rnd.outcome
        change_rec = None
        next_rec = None
        if o is not None:
            change_rec = f"{o.side} +{o.steps}"
            next_rec = players[o.next_dealer] if o.next_dealer is not None else None
        change_comp = next_comp = None
        if r is not None:
            ch = r.change
            change_comp = f"opponents +{ch.opponents}" if ch.swap else f"declarers +{ch.declarers}"
            next_comp = players[r.next_dealer]
        figures = (
            Figure("Points in tricks", str(p.taken) if p else None, str(r.taken) if r else None),
            Figure("Kitty", kitty_rec, kitty_comp),
            Figure(
                "Penalties",
                f"{p.penalty:+d}" if p and p.penalty else None,
                f"{r.penalty:+d}" if r and r.penalty else None,
            ),
            Figure(
                "Opponents' total",
                str(p.total) if p and p.total is not None else None,
                str(r.total) if r else None,
            ),
            Figure("Level change", change_rec, change_comp),
            Figure("Next dealer", next_rec, next_comp),
            Figure(
                "Levels after",
                _levels(rnd.levels.levels if rnd.levels else None, players),
                _levels(lg.levels if lg is not None and r is not None else None, players),
            ),
        )
        href = round_href.format(rnd.number) if round_href is not None else None
        label = f"Round {rnd.number}"
        if links is not None and i < len(links.pages):
            href, label = links.pages[i], links.label(i)
        out.append(RoundFigures(rnd.number, label, href, figures, names[i]))
    res = match.result
    final = Figure("Final levels", _levels(res.levels, players) if res else None,
                   _levels(report.report.levels, players))  # fmt: skip
    winners = Figure("Winners",
                     ", ".join(players[s] for s in res.winners) if res and res.winners else None,
                     ", ".join(players[s] for s in report.report.winners) or None)  # fmt: skip
    return out, tuple(
        f for f in (final, winners) if f.recorded is not None or f.computed is not None
    )


# --- HTML ---------------------------------------------------------------------------------------


def _render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def audit_section(view: SjAuditView, heading: str) -> Markup:
    """One game's audit as a `<section>` under an `<h2>` (`heading`), for the page of
    `zfrec audit --html`: its anchors start with the view's prefix."""
    return Markup(_render("sj_audit_section.html.j2", a=view, heading=heading))


def render_audit_page(view: SjAuditView) -> str:
    """The self-contained audit page `render` writes beside a failing record's replays."""
    return _render("sj_audit.html.j2", a=view, scripts=())
