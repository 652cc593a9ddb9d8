"""`zfrec analyze`, `zfrec audit`, `zfrec diff`: settle arguments over a recorded game.

Exit codes:
- analyze: 0 when the analysis is printed (a record that fails validation is analysed as
  recorded, with a warning), 2 on unreadable input or a hand or game that is not there.
- audit: 0 when every game is legal as recorded, 1 when some game fails (whether or not a
  repair was found: the record still fails; the repairs are advice), 2 on unreadable input.
- diff: 0 when the two records hold the same game (they may differ in how it is written), 1 when
  they differ, 2 on unreadable input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.markup import escape

from zfrec.analysis.analyze import Decision, GameAnalysis, HandAnalysis, analyze_game
from zfrec.analysis.audit import DEFAULT_BUDGET, AuditReport, audit
from zfrec.analysis.diff import DiffReport, diff_games
from zfrec.cli.common import JSON_HELP, err, fail, friendly_errors, out, print_json
from zfrec.errors import NotationError
from zfrec.record import Format, Game, iter_records, iter_records_text

RecordArg = Annotated[str, typer.Argument(help="A record file (.zfn or .json), or - for stdin.")]
GameOpt = Annotated[
    int | None, typer.Option("--game", "-g", min=1, help="Only game N of the file (1-based).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


def read_games(path: str, game: int | None = None) -> list[Game]:
    """The games of a record file, or exit 2 with the reason."""
    with friendly_errors():
        if path == "-":
            text = sys.stdin.read()
            fmt: Format = "json" if text.lstrip().startswith(("{", "[")) else "zfn"
            items = list(iter_records_text(text, fmt, "<stdin>"))
        else:
            if not Path(path).is_file():
                fail(escape(f"no such file: {path}"))
            items = list(iter_records(path))
    games: list[Game] = []
    for number, item in enumerate(items, 1):
        if isinstance(item, NotationError):
            fail(escape(f"game {number} cannot be read: {item}"))
        games.append(item)
    if not games:
        fail(escape(f"{path} holds no games"))
    if game is not None:
        if game > len(games):
            fail(f"there is no game {game}: {escape(path)} holds {len(games)}")
        return [games[game - 1]]
    return games


def _pad(text: str, width: int) -> str:
    """Pad to a width in terminal cells: CJK names take two cells a character."""
    return text + " " * max(0, width - cell_len(text))


def _numbered(games: list[Game], game: int | None) -> list[tuple[int, Game]]:
    first = game or 1
    return [(first + i, g) for i, g in enumerate(games)]


# --- analyze ---------------------------------------------------------------------------------


def _decision_line(d: Decision, players: list[str]) -> str:
    who = players[d.seat]
    verb = "leads" if d.lead else "plays"
    act = "passes" if d.action == "pass" else f"{verb} {d.cards}"
    bits = [f"{d.turn:>3} {_pad(who, 12)} {act}"]
    if d.options is not None:
        shown = " | ".join(a.cards for a in d.alternatives)
        bits.append(f"[{d.options} option{'s' if d.options != 1 else ''}" + (
            f"; also {shown}]" if shown else "]"
        ))  # fmt: skip
    if d.missed_beat:
        bits.append(f"MISSED BEAT ({d.table_points} pts on the table)")
    if d.conceded:
        bits.append(f"conceded {d.conceded}")
    if d.special:
        bits.append("special")
    if d.jokers:
        bits.append("jokers " + " ".join(d.jokers))
    if d.out_place:
        bits.append(f"goes out #{d.out_place}")
    return "  ".join(bits)


def _print_hand(h: HandAnalysis, players: list[str], summary: bool) -> None:
    how = "recorded" if not h.reconstructed else "reconstructed from the plays"
    if not h.deal_known:
        known = [players[s] for s, k in enumerate(h.known_seats) if k]
        how = "only partly known: alternatives and missed beats " + (
            f"for {', '.join(known)} only" if known else "not judged"
        )
    out.print(f"[bold]hand {h.hand}[/] (deal {escape(how)})", markup=True)
    if not summary:
        trick = None
        tricks = {t.trick: t for t in h.tricks}
        for d in h.decisions:
            if d.trick != trick:
                trick = d.trick
                out.print(f"  trick {trick}")
            out.print("    " + escape(_decision_line(d, players)), markup=True)
            flow = tricks.get(d.trick)
            if flow is not None and d is _last_of_trick(h, d.trick):
                out.print(
                    f"    -> {escape(players[flow.winner])} takes the trick, {flow.points} points",
                    markup=True,
                )
    order = [players[s] for s in h.out_order]
    if order:
        out.print(f"  going out: {escape(', '.join(order))}", markup=True)
    tr = h.transfer
    if tr is not None:
        out.print(
            f"  transfer: {escape(players[tr.from_seat])} (last) -> "
            f"{escape(players[tr.to_seat])} (first): {tr.points} points",
            markup=True,
        )
    if h.result is not None:
        pts = ", ".join(f"{p} {v}" for p, v in zip(players, h.result.points, strict=True))
        out.print(f"  points: {escape(pts)}", markup=True)
    else:
        out.print("  the record stops before the hand ends")


def _last_of_trick(h: HandAnalysis, trick: int) -> Decision | None:
    found = None
    for d in h.decisions:
        if d.trick == trick:
            found = d
    return found


def _print_analysis(number: int, a: GameAnalysis, hand: int | None, summary: bool) -> None:
    players = a.players
    verdict = "legal" if a.errors == 0 else f"{a.errors} validation error(s)"
    out.print(
        f"[bold]game {number}[/]: {escape(', '.join(players))} ({escape(a.rules.describe())}), "
        f"{len(a.hands)} hand(s), {verdict}",
        markup=True,
    )
    for h in a.hands:
        if hand is None or h.hand == hand:
            _print_hand(h, players, summary)
    notes = [n for n in a.per_move_notes() if hand is None or n.hand == hand]
    if notes:
        out.print("[bold]notes[/]", markup=True)
        for n in notes:
            out.print(
                f"  hand {n.hand}, trick {n.trick}, turn {n.turn}: {escape(n.text)}", markup=True
            )
    out.print("[bold]players[/] (captured, conceded, missed beats, categories)", markup=True)
    totals = a.seat_totals()
    for s, name in enumerate(players):
        st = totals[s]
        cats = ", ".join(f"{k} {v}" for k, v in sorted(st.categories.items()))
        out.print(
            f"  {escape(_pad(name, 12))} {st.captured:>4} {st.conceded:>4} {st.missed_beats:>3}  "
            f"{escape(cats)}",
            markup=True,
        )


def analyze_cmd(
    record: RecordArg,
    hand: Annotated[
        int | None, typer.Option("--hand", "-H", min=1, help="Only hand N (its number).")
    ] = None,
    game: GameOpt = None,
    summary: Annotated[
        bool, typer.Option("--summary", help="Leave out the line per decision.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Analyse every decision: alternatives, missed beats, conceded points, specials and
    jokers, the going-out order and the last -> first transfer.

    Works whenever the deal is known: recorded, or reconstructed from the plays. Exit 0 when the
    analysis is printed, 2 on unreadable input or a hand or game that is not there.
    """
    games = read_games(record, game)
    analyses: list[tuple[int, GameAnalysis]] = []
    with friendly_errors():
        for number, g in _numbered(games, game):
            analyses.append((number, analyze_game(g)))
    if hand is not None and not any(a.hand(hand) for _, a in analyses):
        fail(f"there is no hand {hand} in {escape(record)}")
    if as_json:
        docs = []
        for number, a in analyses:
            doc = a.to_json()
            if hand is not None:
                doc["hands"] = [h.to_json(a.players) for h in a.hands if h.hand == hand]
                doc["notes"] = [n.to_json(a.players) for n in a.per_move_notes() if n.hand == hand]
            docs.append({"game": number, **doc})
        print_json({"games": docs})
        return
    for number, a in analyses:
        if a.errors:
            err.print(
                f"warning: game {number} fails validation ({a.errors} error(s)); it is analysed "
                "as recorded (see zfrec audit)"
            )
        _print_analysis(number, a, hand, summary)


# --- audit -----------------------------------------------------------------------------------


def _print_audit(number: int, r: AuditReport) -> None:
    if r.legal:
        out.print(f"[bold]game {number}[/]: [green]legal[/] as recorded", markup=True)
        return
    out.print(
        f"[bold]game {number}[/]: [red]fails[/] with {r.report.errors} error(s) under "
        f"{escape(r.report.rules.describe())}",
        markup=True,
    )
    first = next(d for d in r.report.diagnostics if d.severity == "error")
    out.print(
        f"  first error: {escape(first.location.play())}: {escape(first.message)}", markup=True
    )
    if r.rulesets:
        good = [v.label for v in r.legal_under]
        out.print(
            "  legal under: " + (escape(", ".join(good)) if good else "none of the presets "
            "or single option flips"),
            markup=True,
        )  # fmt: skip
        for v in r.rulesets:
            if not v.ok:
                out.print(f"    {escape(v.label)}: {v.errors} error(s)", markup=True)
    if r.repairs:
        out.print("  smallest repairs, each checked by validating the edited record:")
        for i, rep in enumerate(r.repairs, 1):
            out.print(f"    {i}. {escape(rep.text())}", markup=True)
    else:
        out.print("  no repair found within the search bound (try --budget)")
    bound = " (bound reached)" if r.budget_hit else ""
    out.print(f"  searched {r.tried} candidate record(s) in {r.seconds:.2f} s{bound}")


def audit_cmd(
    record: RecordArg,
    game: GameOpt = None,
    budget: Annotated[
        int, typer.Option("--budget", min=1, help="Most candidate records to validate per game.")
    ] = DEFAULT_BUDGET,
    html_out: Annotated[
        Path | None, typer.Option("--html", help="Also write an audit page to this file.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """For a record that fails validation: the presets and single options under which it is
    legal, and the smallest edits that repair it, ranked, each one verified.

    Exit 0 when every game is legal as recorded, 1 when some game fails (repaired or not),
    2 on unreadable input.
    """
    games = read_games(record, game)
    reports: list[tuple[int, AuditReport]] = []
    with friendly_errors():
        for number, g in _numbered(games, game):
            reports.append((number, audit(g, budget=budget)))
    if html_out is not None:
        from zfrec.render.analysis import audit_file  # the HTML machinery only when asked for

        try:
            html_out.write_text(audit_file(record, reports), encoding="utf-8")
        except OSError as exc:
            fail(escape(f"cannot write {html_out}: {exc}"))
    if as_json:
        print_json({"games": [{"game": n, **r.to_json()} for n, r in reports]})
    else:
        for number, r in reports:
            _print_audit(number, r)
    raise typer.Exit(0 if all(r.legal for _, r in reports) else 1)


# --- diff ------------------------------------------------------------------------------------


def _print_diff(number: int, d: DiffReport) -> None:
    out.print(f"[bold]game {number}[/]: " + ("same game" if d.same else "differ"), markup=True)
    for line in d.header:
        out.print(f"  {escape(line)}", markup=True)
    if d.first is not None:
        where = d.first.where()
        out.print(
            f"  first divergence{' at ' + escape(where) if where else ''}: "
            f"{escape(d.first.message)}",
            markup=True,
        )
    out.print(f"  A: {escape(d.verdict('a'))}", markup=True)
    out.print(f"  B: {escape(d.verdict('b'))}", markup=True)


def diff_cmd(
    a: Annotated[str, typer.Argument(help="One record of the game (.zfn or .json).")],
    b: Annotated[str, typer.Argument(help="Another record of the same game.")],
    game: GameOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Where two records of one game first part (hand, trick, turn), and a verdict on each.

    Games are paired in file order. Exit 0 when the records hold the same games (written
    alike or not), 1 when they differ, 2 on unreadable input.
    """
    games_a, games_b = read_games(a, game), read_games(b, game)
    first = game or 1
    with friendly_errors():
        reports = [
            (first + i, diff_games(x, y))
            for i, (x, y) in enumerate(zip(games_a, games_b, strict=False))
        ]
    extra = len(games_a) - len(games_b)
    if as_json:
        print_json(
            {
                "games": [{"game": n, **r.to_json()} for n, r in reports],
                "games_a": len(games_a),
                "games_b": len(games_b),
            }
        )
    else:
        for number, r in reports:
            _print_diff(number, r)
        if extra:
            which = "A" if extra > 0 else "B"
            out.print(f"{which} holds {abs(extra)} more game(s)")
    same = not extra and all(r.same for _, r in reports)
    raise typer.Exit(0 if same else 1)


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_cmd)
    app.command("audit")(audit_cmd)
    app.command("diff")(diff_cmd)
