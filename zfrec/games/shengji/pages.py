"""Sheng ji's pages: one replay per round, the match's page and its charts (RENDER.md, Sheng ji).

    made = render_shengji_files(match)   # RenderedGame: index.html, round-N.html, the charts
    view = match_view(match, viewer=2)   # the views alone (the page data of seat 3's view)

The match is validated once (`validate_match`): its report gives each round's hands at play
(rebuilt where the record lacks them), the kitty, the engine's result and the levels after. The
round's steps are then read off the record, the engine judging what the page shows beside the
cards: the units of each play (`classify`), who is winning the trick (`trick_winner`) and its
points. Nothing here applies a rule itself.

A round's page is the generic replay shell (`templates/base.html.j2`, the step controls of
`templates/controls.html.j2` driven by `templates/stepper.js`) around Sheng ji's own board
(`templates/sj_round.html.j2`, drawn by `templates/sj_replay.js` from the round's JSON). A seat's
view is the same page with `?seat=N` (the other hands hidden), or a file rendered for one seat
(`viewer`), which leaves the other hands out of the data altogether.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from zfrec.cardwords import card_str
from zfrec.diagnostics import Diagnostic
from zfrec.errors import ZfrecError
from zfrec.games.shengji.cards import card_ids, points, size
from zfrec.games.shengji.formats import Format, classify
from zfrec.games.shengji.order import Order, make_order
from zfrec.games.shengji.records import SjMatch, SjMove, SjRound
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.report import SjReport, SjRoundLedger, par_text
from zfrec.games.shengji.roundpages import RoundLinks, round_href, round_ledgers
from zfrec.games.shengji.rules import SjRules, level_rank, level_text
from zfrec.games.shengji.trick import trick_winner
from zfrec.render.views import isolate

if TYPE_CHECKING:
    from zfrec.games.shengji.solverecord import RoundCosts

__all__ = [
    "RoundPage",
    "SjGameView",
    "cost_marks",
    "cost_notes",
    "match_view",
    "render_shengji_files",
    "round_page",
    "solved_round",
]

SUIT_WORDS = {"s": "♠ spades", "h": "♥ hearts", "d": "♦ diamonds", "c": "♣ clubs", "nt": "no trump"}


def cost_marks(
    match: SjMatch, round_index: int, solve_cards: int = 0, report: SjReport | None = None
) -> dict[tuple[int, int], str]:
    """The double-dummy solver's marks of a round's plays, by (trick, turn), 1-based: `?` or
    `??` where a play cost points against perfect play, over the positions with at most
    `solve_cards` cards left in all hands (0: none). They come from the Sheng ji solver
    (`zfrec.games.shengji.solverecord.round_costs(...).marks()`); a round it cannot solve has
    none. The page draws them at the move and in the move list. `report`: the match's
    validation, when the caller has it (else the solver validates the match again)."""
    return {k: mark for k, (mark, _) in cost_notes(match, round_index, solve_cards, report).items()}


def cost_notes(
    match: SjMatch, round_index: int, solve_cards: int = 0, report: SjReport | None = None
) -> dict[tuple[int, int], tuple[str, str]]:
    """`cost_marks` with what each mark stands for, in words, for "At this move": the points
    the play gave away and the opponents' double-dummy total before and after it (a bare `?`
    says neither how much nor against what)."""
    costs = solved_round(match, round_index, solve_cards, report)
    return {} if costs is None else _notes(costs)


def solved_round(
    match: SjMatch, round_index: int, solve_cards: int = 0, report: SjReport | None = None
) -> RoundCosts | None:
    """The solver's costs of a round's plays and its par (`round_costs`, over the positions
    with at most `solve_cards` cards left), or None when not asked for (0) or not solvable."""
    if solve_cards <= 0:
        return None
    from zfrec.games.shengji.solverecord import round_costs

    try:
        return round_costs(match, round_index, max_cards=solve_cards, report=report)
    except ZfrecError:
        return None


def _notes(costs: RoundCosts) -> dict[tuple[int, int], tuple[str, str]]:
    out: dict[tuple[int, int], tuple[str, str]] = {}
    for p in costs.plays:
        mark = costs.mark(p.cost)
        if mark:
            lost = f"{p.cost} point" + ("s" if p.cost != 1 else "")
            out[(p.trick, p.turn)] = (
                mark,
                f"{mark} against perfect play: this play gave away {lost} (with best play"
                f" from here on, the opponents take {p.before} points before it, {p.after}"
                " after it)",
            )
    return out


def glyphs(codes: Sequence[str]) -> str:
    """Card codes as the cards show them: `10♥ A♠ BJ`."""
    out = []
    for c in codes:
        if c in ("SJ", "BJ"):
            out.append(c)
        else:
            out.append(("10" if c[0] == "T" else c[0]) + "♠♥♦♣"["shdc".index(c[1])])
    return " ".join(out)


def _cards(order: Order | None, hand: int) -> list[str]:
    """A card set as codes, in the round's order when known (trump last, high to low), else
    by card id."""
    ids = card_ids(hand)
    if order is not None:
        ids.sort(key=lambda c: (order.esuit[c], -order.level[c], c))
    return [card_str(c) for c in ids]


def _units(order: Order | None, cards: int) -> list[list[str]]:
    """A play's units (tractors, pairs, singles) as the engine reads them; one group of every
    card when the round's order is unknown or the play is no format at all."""
    if order is not None:
        try:
            return [[card_str(c) for c in u.ids] for u in classify(order, cards).units]
        except ZfrecError:
            pass
    return [_cards(order, cards)]


def _mask_seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def teams_of(rules: SjRules | None, n: int) -> list[list[int]] | None:
    """The fixed partnerships (seats 1 and 3 against 2 and 4 with four players), or None in
    zhao pengyou, where the dealer's friends are found in play."""
    if rules is not None and not rules.fixed_partners:
        return None
    return [list(range(0, n, 2)), list(range(1, n, 2))]


def _order(rnd: SjRound, ledger: SjRoundLedger | None) -> Order | None:
    order = rnd.order()
    if order is None and ledger is not None and rnd.rank is not None:
        trump = ledger.trump[-1:] if ledger.trump else ""
        suit = "shdc".index(trump) if trump and trump in "shdc" else None
        order = make_order(level_rank(rnd.rank), suit)
    return order


@dataclass(slots=True)
class RoundSummary:
    """One round as the match's page and its charts list it."""

    number: int
    dealer: int | None
    trump: str | None
    rank: int | None
    declarers: list[int]
    levels_before: tuple[int, ...]
    levels_after: tuple[int, ...] | None
    taken: int | None  # the opponents' points in tricks
    total: int | None  # the opponents' total, kitty and penalties counted
    kitty_points: int | None
    multiplier: int | None
    change: str
    throws: list[tuple[int, bool]]  # (seat, failed) per throw tried
    buried: int | None  # points the dealer put in the kitty
    errors: int
    href: str
    held: bool | None = None  # the declarers kept the deal (None: the round has no result)


@dataclass(slots=True)
class RoundPage:
    """A round's replay: the page's JSON (`data`) and what the template shows around it."""

    number: int
    title: str
    data: dict[str, Any]
    prev_href: str | None = None
    next_href: str | None = None
    game_href: str | None = "index.html"
    meta: str = ""
    # the page's own name (roundpages: `round-1-2.html` for the second round 1), and the
    # neighbours' labels for the links to them
    href: str = ""
    prev_label: str | None = None
    next_label: str | None = None
    disputes: str | None = None  # the section of the disputed versions (`pagedisputes`), HTML


@dataclass(slots=True)
class SjGameView:
    """The match: its header, per-round summaries and replays, and the validator's findings."""

    match: SjMatch
    rules: SjRules | None
    report: SjReport
    title: str
    summaries: list[RoundSummary] = field(default_factory=list)
    rounds: list[RoundPage] = field(default_factory=list)
    viewer: int | None = None
    index_href: str | None = None
    player_hrefs: dict[str, str] = field(default_factory=dict)
    audit_href: str | None = None  # the audit page of a record that fails validation
    links: RoundLinks | None = None  # each round's page, and where findings link to

    @property
    def teams(self) -> list[list[int]] | None:
        return teams_of(self.rules, len(self.match.players))


def _diag(d: Diagnostic) -> dict[str, Any]:
    return {"code": d.code, "severity": d.severity, "message": d.message}


def _first_levels(
    match: SjMatch, ledgers: Sequence[SjRoundLedger | None], n: int
) -> tuple[int, ...]:
    """Each seat's level before the first round: 2, but the first round's declarers play at
    its rank (a record may start from a later round of a match)."""
    levels = [2] * n
    if match.rounds:
        first = match.rounds[0]
        ledger = ledgers[0]
        if first.rank is not None and ledger is not None and ledger.result is not None:
            for s in _mask_seats(ledger.result.declarers, n):
                levels[s] = first.rank
    return tuple(levels)


def match_view(
    match: SjMatch,
    viewer: int | None = None,
    solve_cards: int = 0,
    reading: Sequence[Diagnostic] = (),
) -> SjGameView:
    """The match's view: validated once, each round's page data and summary; `reading` (a
    stored game's reading findings) first among the findings, in their rounds."""
    report = validate_match(match)
    if reading:
        found = (replace(d, location=replace(d.location, unit="round")) for d in reading)
        report = replace(report, diagnostics=(*found, *report.diagnostics))
    rules = report.rules
    n = len(match.players)
    title = match.event or " · ".join(isolate(p) for p in match.players)
    links = RoundLinks.of(match)
    view = SjGameView(match, rules, report, title, viewer=viewer, links=links)
    # by the round's place, not its number: a number may be written twice (SJ508)
    ledgers = round_ledgers(match, report)
    by_round: dict[int | None, list[Diagnostic]] = {}
    for d in report.diagnostics:
        by_round.setdefault(links.index(d.location), []).append(d)
    levels = _first_levels(match, ledgers, n)
    # the round that won the match names its winners: the first whose ledger says so (a round
    # written after it, SJ507, is not the one that won)
    won_in = next((r.index for r in report.rounds if r.won), None)
    for i, rnd in enumerate(match.rounds):
        ledger = ledgers[i]
        solved = solved_round(match, i, solve_cards if viewer is None else 0, report)
        page, summary = round_page(
            match,
            i,
            rnd,
            ledger,
            levels,
            by_round.get(i, []),
            viewer,
            rules,
            solved,  # the solver knows every hand: its marks are not for one seat's view
            ledger.won if ledger is not None and i == won_in else (),
            links.pages[i],
        )
        page.title = links.label(i)
        page.prev_href = links.pages[i - 1] if i > 0 else None
        page.prev_label = links.label(i - 1) if i > 0 else None
        last = i + 1 == len(match.rounds)
        page.next_href = None if last else links.pages[i + 1]
        page.next_label = None if last else links.label(i + 1)
        links.add_steps(i, page.data["steps"])
        view.rounds.append(page)
        view.summaries.append(summary)
        if summary.levels_after is not None:
            levels = summary.levels_after
    return view


def round_page(
    match: SjMatch,
    index: int,
    rnd: SjRound,
    ledger: SjRoundLedger | None,
    levels_before: tuple[int, ...],
    diagnostics: Sequence[Diagnostic],
    viewer: int | None,
    rules: SjRules | None,
    solved: RoundCosts | None = None,
    winners: Sequence[int] = (),
    href: str | None = None,
) -> tuple[RoundPage, RoundSummary]:
    """One round's page data and its summary line; `solved`: the solver's costs of the round
    (`solved_round`), whose marks the plays carry and whose par the result names; `winners`:
    the seats that won the match with this round (its last), whom its change names instead of
    a next dealer. `href`: the round's page (by default `round_href` of its number)."""
    href = href if href is not None else round_href(rnd.number)
    said = match.round_said(index) if 0 <= index < len(match.rounds) else f"round {rnd.number}"
    label = "R" + said[1:]  # `Round 3`, or `Round 3 (2nd)` for the second round 3
    players = list(match.players)
    n = len(players)
    order = _order(rnd, ledger)
    result = ledger.result if ledger is not None else None
    dealer = rnd.dealer if rnd.dealer is not None else (ledger.dealer if ledger else None)
    teams = teams_of(rules, n)
    if result is not None:
        declarers = _mask_seats(result.declarers, n)
    elif dealer is not None and teams is not None:
        declarers = next(t for t in teams if dealer in t)
    else:
        declarers = [dealer] if dealer is not None else []
    trump = rnd.trump or (ledger.trump[-1:] if ledger and ledger.trump[-1:] in "shdc" else None)
    hands: list[int | None]
    if ledger is not None:
        hands = list(ledger.deal)
    elif rnd.deal is not None and all(not c.unknown for c in rnd.deal):
        hands = [c.known for c in rnd.deal]
    else:
        hands = [None] * n
    kitty = ledger.discard if ledger is not None else (rnd.discard.known if rnd.discard else 0)
    marks = {} if solved is None else _notes(solved)
    located: dict[tuple[int | None, int | None], list[dict[str, Any]]] = {}
    for d in diagnostics:
        loc = d.location
        located.setdefault((loc.trick, loc.turn) if loc else (None, None), []).append(_diag(d))

    def shown(seat: int) -> bool:
        return viewer is None or seat == viewer

    steps: list[dict[str, Any]] = []
    bids = [{"seat": b.seat, "cards": _cards(order, b.cards)} for b in rnd.bids]
    calls = [[_ordinal(c.ordinal), card_str(c.card)] for c in rnd.calls]
    rank_text = level_text(rnd.rank) if rnd.rank is not None else "?"
    trump_word = SUIT_WORDS.get(trump or "", "trump not written")
    dealer_name = players[dealer] if dealer is not None else "?"
    steps.append({
        "kind": "deal", "trick": None, "seat": dealer,
        "headline": f"{label}: {isolate(dealer_name)} deals; {trump_word}, "
                    f"rank {rank_text}",
        "notes": list(rnd.comments), "diagnostics": located.pop((None, None), []),
        "taken": 0, "winning": None, "plays": [],
    })  # fmt: skip
    # who is known to declare: in zhao pengyou the dealer's friends show themselves by playing
    # the called card (SjMove.joins); with fixed partners the team is known from the deal
    known = set(declarers) if teams is not None or dealer is None else {dealer}
    steps[0]["declarers"] = sorted(known)
    taken = 0
    tricks_json: list[dict[str, Any]] = []
    throws: list[tuple[int, bool]] = []
    for t, trick in enumerate(rnd.tricks, 1):
        plays_cards: list[int] = []
        plays: list[dict[str, Any]] = []
        lead = _format(order, trick.moves[0].played) if trick.moves else None
        for turn, move in enumerate(trick.moves, 1):
            play = _play_json(order, move, lead if turn == 1 else None)
            if play.get("throw"):
                throws.append((move.seat, move.failed))
            plays_cards.append(move.played)
            plays.append(play)
            if move.joins:
                known.add(move.seat)
                play["joins"] = True
            winner = _winner(order, plays_cards, lead)
            winning = trick.moves[winner].seat if winner is not None else None
            done = turn == len(trick.moves) and turn >= n
            trick_points = points(sum(plays_cards)) if plays_cards else 0
            # counted as the result counts them (a friend not yet shown is on the dealer's side)
            if done and winning is not None and winning not in declarers:
                taken += trick_points
            mark, mark_note = marks.get((t, turn), (None, None))
            # a trick's own comment (written before its first play) goes with that play
            notes = (list(trick.comments) if turn == 1 else []) + list(move.comments)
            if move.disputed:
                notes.append("disputed" + (f": {move.dispute_note}" if move.dispute_note else ""))
            verb = "leads" if turn == 1 else "plays"
            text = "  ".join(glyphs(u) for u in play["units"])
            kind = play.get("kind")
            if kind == "throw":  # a throw that stands: its units told apart
                verb = f"throws {len(play['units'])} units:"
                text = " · ".join(glyphs(u) for u in play["units"])
            elif kind in ("pair", "tractor"):
                verb = f"leads a {kind}"
            if move.failed:
                text = f"throws {glyphs(_cards(order, move.cards))}, which fails: {text} stays"
                verb = ""
            headline = f"{isolate(players[move.seat])} {verb} {text}".replace("  ", " ")
            if done and winning is not None:
                headline += f"; {isolate(players[winning])} takes the trick ({trick_points} points)"
            steps.append({
                "kind": "play", "trick": t, "turn": turn, "seat": move.seat,
                "headline": headline, "annotation": move.annotation, "mark": mark,
                "notes": notes, "diagnostics": located.pop((t, turn), []),
                "taken": taken, "winning": winning, "done": done, "points": trick_points,
                "declarers": sorted(known),
            })  # fmt: skip
            if mark_note:
                steps[-1]["mark_note"] = mark_note
        tricks_json.append({"plays": plays})
    leftovers = [d for ds in located.values() for d in ds]
    summary_change = _change_text(rnd, result, players, winners)
    opp_total = result.total if result is not None else (rnd.points.total if rnd.points else None)
    kitty_points = result.kitty_points if result is not None else None
    multiplier = result.multiplier if result is not None else None
    levels_after = (
        ledger.levels if ledger is not None else (rnd.levels.levels if rnd.levels else None)
    )
    end_bits = [f"The opponents took {result.taken if result else taken} points in tricks"]
    if result is not None:
        if result.kitty_added:
            end_bits.append(
                f"the kitty's {result.kitty_points} × {result.multiplier} = {result.kitty_added}"
            )
        if result.penalty:
            end_bits.append(f"throw penalties {result.penalty:+d}")
        end_bits.append(f"total {result.total}")
    par = None if solved is None else par_text(solved.par, solved.result)
    if par is not None:
        end_bits.append(par)
    steps.append({
        "kind": "result", "trick": None, "seat": None,
        "headline": "; ".join(end_bits),
        "notes": [], "diagnostics": leftovers, "taken": result.total if result else taken,
        "winning": None, "declarers": declarers,
    })  # fmt: skip
    data: dict[str, Any] = {
        "v": 1,
        "round": rnd.number,
        "players": players,
        "viewer": viewer,
        "dealer": dealer,
        "trump": trump,
        "trump_text": trump_word,
        "rank": rank_text,
        "rank_code": "23456789TJQKA"[rnd.rank - 2] if rnd.rank is not None else None,
        "teams": teams,
        "declarers": declarers,
        "levels_before": [level_text(v) for v in levels_before],
        "levels_after": [level_text(v) for v in levels_after] if levels_after else None,
        "hands": [
            _cards(order, h) if h is not None and shown(s) else None for s, h in enumerate(hands)
        ],
        "counts": [size(h) if h is not None else None for h in hands],
        "bids": bids,
        "calls": calls,
        # the kitty: the dealer buries it (a dealer's view shows it from the start); every
        # view reveals it at the round's end, as the table does
        "kitty": _cards(order, kitty) if kitty else None,
        "kitty_points": points(kitty) if kitty else 0,
        "multiplier": multiplier,
        "kitty_added": result.kitty_added if result is not None else None,
        "tricks": tricks_json,
        "steps": steps,
        "change": summary_change,
        "swap_at": rules.swap_at if rules else 80,
    }
    if solved is not None:
        data.update(par=solved.par, from_par=solved.from_par)
    meta = f"{rules.preset if rules else match.preset}; {trump_word}, rank {rank_text}"
    if label != f"Round {rnd.number}":
        data["label"] = label  # the board's heading (sj_replay.js), where the number repeats
    page = RoundPage(rnd.number, label, data, meta=meta, href=href)
    summary = RoundSummary(
        rnd.number, dealer, trump, rnd.rank, declarers, levels_before, levels_after,
        result.taken if result else (rnd.points.taken if rnd.points else None), opp_total,
        kitty_points, multiplier, summary_change, throws, points(kitty) if kitty else None,
        sum(d.severity == "error" for d in diagnostics), href,
        None if result is None else not result.change.swap,
    )  # fmt: skip
    return page, summary


def _format(order: Order | None, cards: int) -> Format | None:
    """A lead's format, or None when the order is unknown or the lead is none (the
    validator's to report)."""
    if order is None:
        return None
    try:
        return classify(order, cards)
    except ZfrecError:
        return None


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _winner(order: Order | None, plays: list[int], lead: Format | None) -> int | None:
    """Who is winning the trick so far (an index into `plays`), judged by the engine."""
    if order is None or lead is None or not plays:
        return None
    try:
        return trick_winner(order, plays, lead)
    except ZfrecError:
        return None


def _play_json(order: Order | None, move: SjMove, lead: Format | None) -> dict[str, Any]:
    """One play: its units; a failed throw's attempt, forced part and blocker too. `lead` is
    the play's format when it leads the trick (read once per trick)."""
    if lead is not None:
        units = [[card_str(c) for c in u.ids] for u in lead.units]
    else:
        units = _units(order, move.played)
    out: dict[str, Any] = {"seat": move.seat, "units": units}
    if move.failed:
        out["attempt"] = _units(order, move.cards)
        out["blocker"] = move.blocker
        out["throw"] = True
    elif lead is not None:
        out["throw"] = lead.kind == "throw"
        out["kind"] = lead.kind
    if move.annotation:
        out["annotation"] = move.annotation
    return out


def _change_text(rnd: SjRound, result: Any, players: list[str], winners: Sequence[int] = ()) -> str:
    if result is not None:
        c = result.change
        if c.swap:
            head = (
                f"the opponents take over, up {c.opponents}"
                if c.opponents
                else "the opponents take over"
            )
        elif c.declarers:
            head = f"the declarers go up {c.declarers}"
        else:
            head = "the declarers hold"
        if winners:  # the match is over: nobody deals next
            won = " & ".join(isolate(players[w]) for w in winners)
            return f"{head}; {won} win the match"
        return f"{head}; {isolate(players[result.next_dealer])} deals next"
    if rnd.outcome is not None:  # the engine has no result: the record's own word
        o = rnd.outcome
        if o.swap:
            return "as written: the opponents take over" + (f", up {o.steps}" if o.steps else "")
        return f"as written: the declarers go up {o.steps}" if o.steps else "as written: held"
    return ""


def _with_places(match: SjMatch) -> tuple[str | None, SjMatch]:
    """A record read without the places of its parts (a stored game, a JSON record), read
    again from its .zfn text (as `zfrec export` and `zfrec convert` write it), so that its
    audit's findings point at lines of that text: (the text, the record with its places).
    A record with places is returned as it is, with no text."""
    if match.pos is not None or any(r.pos is not None for r in match.rounds):
        return None, match
    from zfrec.games.shengji.kind import match_of
    from zfrec.games.shengji.notation import dumps_sj
    from zfrec.record import loads

    text = dumps_sj(match)
    [again] = loads(text)
    located = match_of(again)
    return (text, located) if located == match else (None, match)  # the text holds it all


def render_shengji_files(
    match: SjMatch,
    *,
    viewer: int | None = None,
    index_href: str | None = None,
    player_hrefs: dict[str, str] | None = None,
    charts: bool = True,
    solve_cards: int = 0,
    audit: bool = False,
    reading: Sequence[Diagnostic] = (),
    **_: Any,
) -> Any:
    """The match's files (zfrec.render.gamefiles.RenderedGame): `index.html` with its charts,
    `round-N.html` per round, `levels.svg`/`.png` and `points.svg`/`.png`, and with `audit`
    the audit page (audit.html) of a record that fails validation, not in a seat's view (the
    repairs tell what the hands held). Zheng Fen's options that Sheng ji has no use for yet
    (the analysis, the one-file viewer) are accepted and left aside; `solve_cards` asks the
    solver for its marks (`cost_marks`). `reading`: a stored game's reading findings
    (zfrec.render.gamefiles.stored_reading), shown first among the findings of the game page
    and the audit page, and counted with them."""
    from zfrec.games.shengji.sjhtml import play_steps, render_game_page, render_round_page
    from zfrec.render.gamefiles import AUDIT_PAGE, GameMeta, OutputFile, RenderedGame, chart_files

    text, located = None, match
    numbers = [r.number for r in match.rounds]
    if len(set(numbers)) < len(numbers):
        # a round number written twice: a finding's line tells which of those rounds it is in
        # (RoundLinks.index), so a record read without places (a stored game, a JSON record)
        # is read again from its text, as the audit's is
        text, located = _with_places(match)
    view = match_view(located, viewer, solve_cards, reading)
    from zfrec.games.shengji.pagedisputes import mark_disputes

    mark_disputes(view)  # not in a seat's view
    view.index_href = index_href
    view.player_hrefs = dict(player_hrefs or {})
    files = [OutputFile(p.href, render_round_page(view, p).encode()) for p in view.rounds]
    # the stored record's own errors: no audit when only its reading failed
    failing = view.report.errors - sum(d.severity == "error" for d in reading)
    if audit and viewer is None and failing:
        from zfrec.games.shengji.audit import audit_match
        from zfrec.games.shengji.auditpage import audit_view, render_audit_page

        if located is match:
            text, located = _with_places(match)
        found = audit_match(located)
        if reading:
            own, read = found.report, view.report.diagnostics[: len(reading)]
            found = replace(found, report=replace(own, diagnostics=(*read, *own.diagnostics)))
        page = audit_view(found, steps=play_steps(view), round_href="round-{}.html",
                          record_lines=None if text is None else text.splitlines(),
                          links=view.links)  # fmt: skip
        page.index_href, page.game_href = index_href, "index.html"
        view.audit_href = AUDIT_PAGE
        files.append(OutputFile(AUDIT_PAGE, render_audit_page(page).encode()))
    from zfrec.games.shengji.charts import match_charts

    embeds, notices = chart_files(match_charts(view) if charts and view.summaries else [], files)
    files.append(OutputFile("index.html", render_game_page(view, embeds).encode()))
    from zfrec.games.shengji.stats import match_facts

    disputes = sum(m.disputed for r in match.rounds for t in r.tricks for m in t.moves)
    facts = match_facts(view) if viewer is None else {}
    audited = view.audit_href is not None
    repeated = view.links.repeated() if view.links is not None else {}
    return RenderedGame(files, GameMeta(disputes, 0, audited, tuple(notices), facts, repeated))
