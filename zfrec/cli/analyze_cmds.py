"""`zfrec analyze`, `zfrec audit`, `zfrec diff`: settle arguments over a recorded game.

analyze and audit also take a directory: every record under it (walk_records: hidden files and
folders left out), each file's games after its name; a file there that cannot be read is
reported by name, the others go on, and the exit code is then 2. In JSON each game names its
`file`, and `unreadable` lists the files not read.

Exit codes:
- analyze: 0 when the analysis is printed (a record that fails validation is analysed as
  recorded, with a warning), 2 on unreadable input or a hand or game that is not there.
- audit: 0 when every game is legal as recorded, 1 when some game fails (whether or not a
  repair was found: the record still fails; the repairs are advice), 2 on unreadable input.
- diff: 0 when the two records hold the same game (they may differ in how it is written), 1 when
  they differ, 2 on unreadable input.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.cells import cell_len
from rich.markup import escape

from zfrec.cli.common import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_OK,
    JSON_HELP,
    err,
    fail,
    file_problem,
    friendly_errors,
    json_on_failure,
    out,
    print_json,
    read_stdin,
    walk_records,
)
from zfrec.errors import NotationError, ZfrecError, processing
from zfrec.numbering import occurrences, repeat_suffix
from zfrec.record import Format, Game, iter_records, iter_records_text

if TYPE_CHECKING:
    from zfrec.diagnostics import Diagnostic
    from zfrec.games.zhengfen.analysis.analyze import Decision, GameAnalysis, HandAnalysis
    from zfrec.games.zhengfen.analysis.audit import AuditReport
    from zfrec.games.zhengfen.analysis.diff import DiffReport
    from zfrec.games.zhengfen.analysis.disputes import DisputeVerdict, VersionVerdict

# The analysis modules load only when their command runs, so that every other command (and the
# --jobs workers) starts without them. Their defaults, shown in --help, are repeated here; a
# test checks that they match COST_CARDS, COST_BUDGET.seconds of zfrec.games.zhengfen.analysis.costs
# and DEFAULT_BUDGET of zfrec.games.zhengfen.analysis.audit.
COST_CARDS = 12
COST_SECONDS = 2.0
AUDIT_BUDGET = 300

RecordArg = Annotated[str, typer.Argument(help="A record file (.zfn or .json), or - for stdin.")]
RecordsArg = Annotated[
    str,
    typer.Argument(
        help="A record file (.zfn or .json), a directory (every record in it), or - for stdin."
    ),
]
GameOpt = Annotated[
    int | None, typer.Option("--game", "-g", min=1, help="Only game N of the file (1-based).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]


class Unreadable(Exception):
    """A record file that cannot be used, with the one-line reason naming it."""


def _looks_like_json(text: str) -> bool:
    """JSON starts with `{` or `[{`; a .zfn record starts with a `[Tag "value"]`."""
    head = text.lstrip()
    return head.startswith("{") or (head.startswith("[") and head[1:].lstrip()[:1] in ("{", "]"))


def load_games(path: str, recover: bool = False) -> list[Game]:
    """Every game of a record file (or stdin), or Unreadable with the reason. With `recover`,
    games with unreadable moves are kept (zfrec.record.iter_records)."""
    games: list[Game] = []
    for item in load_items(path, recover):
        if isinstance(item, NotationError):
            raise Unreadable(str(item))  # names the file, line, column and game
        games.append(item)
    return games


def load_items(path: str, recover: bool = False) -> list[Game | NotationError]:
    """Every game of a record file (or stdin), or the error that spoiled it; Unreadable with
    the reason when the file cannot be read, or holds no game that can."""
    try:
        if path == "-":
            text = read_stdin()
            fmt: Format = "json" if _looks_like_json(text) else "zfn"
            items = list(iter_records_text(text, fmt, "<stdin>", recover=recover))
        else:
            if Path(path).is_dir():
                raise Unreadable(f"{path} is a directory: give a record file")
            if not Path(path).exists():
                raise Unreadable(f"no such file: {path}")
            with processing(path):
                items = list(iter_records(path, recover=recover))
    except ZfrecError as exc:
        raise Unreadable(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Unreadable(file_problem(path, exc)) from None
    if not any(isinstance(item, Game) for item in items):
        spoiled = next((str(item) for item in items if isinstance(item, NotationError)), None)
        raise Unreadable(spoiled or f"{'standard input' if path == '-' else path} holds no game")
    return items


# A game of a file that could not be read, where the others could: file, number, its error.
UnreadGame = tuple[str, int | None, NotationError]


def _judged_items(
    file: str, game: int | None, recover: bool, unread: list[UnreadGame]
) -> tuple[list[tuple[str, int, Game]], int]:
    """The games of `file` (only game `game`, if given) numbered by their place in it, the
    errors of those that cannot be read put in `unread`, as `validate` judges a file; and how
    many games the file holds."""
    found: list[tuple[str, int, Game]] = []
    count = 0
    for item in load_items(file, recover):
        if isinstance(item, NotationError):
            number = item.location.game if item.location and item.location.game else None
            count = number or count
            if game is None or number == game:
                unread.append((file, number, item))
            continue
        count += 1
        if game is None or count == game:
            found.append((file, count, item))
    return found, count


def read_games(path: str, game: int | None = None, recover: bool = False) -> list[Game]:
    """The games of a record file (all, or only game `game`), or exit 2 with the reason."""
    try:
        games = load_games(path, recover)
    except Unreadable as exc:
        fail(str(exc))
    if game is not None:
        if game > len(games):
            fail(f"there is no game {game}: {path} holds {len(games)}")
        return [games[game - 1]]
    return games


def record_files(path: str) -> list[str]:
    """`path` itself, or every record file (.zfn, .json) under a directory, sorted."""
    if path == "-" or not Path(path).is_dir():
        return [path]
    found = walk_records(Path(path))
    if not found:
        fail(f"no record files (.zfn or .json) in {path}")
    return found


def read_many(
    path: str, game: int | None, recover: bool = False, unread: list[UnreadGame] | None = None
) -> tuple[list[tuple[str, int, Game]], list[dict[str, str]]]:
    """(file, game number, game) for one file or every record of a directory, and the files
    that could not be read (path, error). A single file that cannot be read exits 2 at once; in a
    directory each bad file is reported (naming it) and the others go on. With `unread`, a game
    that cannot be read costs only itself, as in `validate`: its error goes there."""
    files = record_files(path)
    single = len(files) == 1 and files[0] == path
    if single and unread is None:
        return [(path, n, g) for n, g in _numbered(read_games(path, game, recover), game)], []
    found: list[tuple[str, int, Game]] = []
    bad: list[dict[str, str]] = []
    for file in files:
        try:
            if unread is not None:
                games_of, count = _judged_items(file, game, recover, unread)
                if single and game is not None and game > count:
                    fail(f"there is no game {game}: {path} holds {count}")
                found += games_of
                continue
            games = load_games(file, recover)
        except Unreadable as exc:
            if single:
                fail(str(exc))
            err.print(f"[bold red]error:[/] {escape(str(exc))}", markup=True)
            bad.append({"path": file, "error": str(exc)})
            continue
        if game is None:
            found += [(file, n, g) for n, g in enumerate(games, 1)]
        elif game <= len(games):
            found.append((file, game, games[game - 1]))
    if not found and not bad and not unread:
        fail(f"no record under {path} holds a game {game}")
    return found, bad


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
    if d.cost is not None and d.cost.points:
        bits.append(d.cost.text)
    return "  ".join(bits)


def _print_hand(h: HandAnalysis, players: list[str], summary: bool, occurrence: int = 1) -> None:
    how = "recorded" if not h.reconstructed else "reconstructed from the plays"
    if not h.deal_known:
        known = [players[s] for s, k in enumerate(h.known_seats) if k]
        how = "only partly known: alternatives and missed beats " + (
            f"for {', '.join(known)} only" if known else "not judged"
        )
    said = f"hand {h.hand}{repeat_suffix(occurrence)}"  # `hand 1 (2nd)`, as its page says
    out.print(f"[bold]{said}[/] (deal {escape(how)})", markup=True)
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
    # 2 for the second hand the record writes with its number (by the hand's place)
    numbers = [h.hand for h in a.hands]
    occurs = {h.hand_index: k for h, k in zip(a.hands, occurrences(numbers), strict=True)}
    for h in a.hands:
        if hand is None or h.hand == hand:
            _print_hand(h, players, summary, occurs.get(h.hand_index, 1))
    notes = [n for n in a.per_move_notes() if hand is None or n.hand == hand]
    if notes:
        out.print("[bold]notes[/]", markup=True)
        for n in notes:
            occurrence = 1 if n.hand_index is None else occurs.get(n.hand_index, 1)
            said = f"hand {n.hand}{repeat_suffix(occurrence)}"
            out.print(f"  {said}, trick {n.trick}, turn {n.turn}: {escape(n.text)}", markup=True)
    scope = "" if hand is None else f" in hand {hand}"  # --hand: that hand's, as above
    heading = f"[bold]players[/]{scope} (captured, conceded, missed beats, categories)"
    out.print(heading, markup=True)
    totals = a.seat_totals(hand)
    for s, name in enumerate(players):
        st = totals[s]
        cats = ", ".join(f"{k} {v}" for k, v in sorted(st.categories.items()))
        out.print(
            f"  {escape(_pad(name, 12))} {st.captured:>4} {st.conceded:>4} {st.missed_beats:>3}  "
            f"{escape(cats)}",
            markup=True,
        )


def _no_games(message: str, params: dict[str, Any]) -> dict[str, Any]:
    """The --json document of `analyze` or `audit` refused (no such file, a file that cannot
    be read, no records in a folder): no games, and `error` says why."""
    return {"games": [], "unreadable": [], "error": message}


@json_on_failure(_no_games)
def analyze_cmd(
    record: RecordsArg,
    hand: Annotated[
        int | None,
        typer.Option(
            "--hand",
            "--round",
            "-H",
            min=1,
            help="Only hand N (its number); --round N is the same, for Sheng ji's rounds.",
        ),
    ] = None,
    game: GameOpt = None,
    summary: Annotated[
        bool, typer.Option("--summary", help="Leave out the line per decision.")
    ] = False,
    solve_cards: Annotated[
        int,
        typer.Option(
            "--solve-cards",
            min=0,
            help="Ask the hindsight solver what each decision cost against perfect play where "
            "at most this many cards are left (0: never).",
        ),
    ] = COST_CARDS,
    solve_seconds: Annotated[
        float,
        typer.Option(
            "--solve-seconds", min=0.01, help="At most this long on one position's solve."
        ),
    ] = COST_SECONDS,
    as_json: JsonOpt = False,
) -> None:
    """Analyse every decision: alternatives, missed beats, conceded points, what it cost
    against perfect play ("cost 15: Kd instead of -", near the end of a hand whose deal is
    known), specials and jokers, the going-out order and the last -> first transfer.

    Sheng ji records get their own marks per play (points given away, a ruff missed or
    wasted, a throw sure to fail) and the kitty judged against the last trick; --round N (or
    --hand N) picks round N there (ANALYSIS.md, Sheng ji).

    Works whenever the deal is known: recorded, or reconstructed from the plays. A directory
    means every record in it; a file there that cannot be read is reported and the others are
    analysed. Exit 0 when the analysis is printed, 2 on unreadable input or a hand or game that
    is not there.
    """
    from zfrec.games import kind_of
    from zfrec.games.zhengfen.analysis.analyze import analyze_game
    from zfrec.games.zhengfen.analysis.costs import COST_BUDGET

    entries, bad = read_many(record, game)
    budget = replace(COST_BUDGET, seconds=solve_seconds)
    analyses: list[tuple[str, int, GameAnalysis]] = []
    own: dict[int, Any] = {}  # by place in analyses: a kind's own analysis (GameKind.analysis)
    for file, number, g in entries:
        with friendly_errors(file):
            mine = kind_of(g).analysis(g, solve_cards=solve_cards, solve_seconds=solve_seconds)
            if mine is not None:
                own[len(analyses)] = mine
                analyses.append((file, number, mine))
                continue
            analyses.append(
                (file, number, analyze_game(g, solve_cards=solve_cards, solve_budget=budget))
            )
    if hand is not None and not any(a.hand(hand) for _, _, a in analyses):
        units = sorted({kind_of(g).unit for _, _, g in entries})  # Sheng ji's are rounds
        fail(f"there is no {' or '.join(units) or 'hand'} {hand} in {record}")
    many = record_files(record) != [record]
    if as_json:
        docs = []
        for i, (file, number, a) in enumerate(analyses):
            if i in own:
                docs.append({"file": file, "game": number, **own[i].to_json(hand)})
                continue
            doc = a.to_json()
            if hand is not None:  # the entries as the whole game writes them (`occurrence` too)
                doc["hands"] = [h for h in doc["hands"] if h["hand"] == hand]
                doc["notes"] = [n for n in doc["notes"] if n["hand"] == hand]
            docs.append({"file": file, "game": number, **doc})
        print_json({"games": docs, "unreadable": bad})
    else:
        shown = None
        for i, (file, number, a) in enumerate(analyses):
            if many and file != shown:
                shown = file
                out.print(f"[bold underline]{escape(file)}[/]", markup=True)
            if i in own:
                if a.errors:
                    err.print(f"warning: {file}, game {number} fails validation ({a.errors} "
                              "error(s)); it is analysed as recorded (see zfrec audit)",
                              markup=False)  # fmt: skip
                for line in own[i].text_lines(number, hand, summary):
                    out.print(line, markup=False, highlight=False)
                continue
            if a.errors:
                err.print(
                    f"warning: {file}, game {number} fails validation ({a.errors} error(s)); it "
                    "is analysed as recorded (see zfrec audit)",
                    markup=False,
                )
            _print_analysis(number, a, hand, summary)
    if bad:
        raise typer.Exit(EXIT_INPUT)


# --- audit -----------------------------------------------------------------------------------


def _print_audit(number: int, r: AuditReport) -> None:
    from zfrec.diagnostics import first_error

    if r.legal:
        out.print(f"[bold]game {number}[/]: [green]legal[/] as recorded", markup=True)
        _print_disputes(r)
        return
    out.print(
        f"[bold]game {number}[/]: [red]fails[/] with {r.report.errors} error(s) under "
        f"{escape(r.report.rules.describe())}",
        markup=True,
    )
    first = first_error(r.report.diagnostics)
    assert first is not None  # only reports with errors come here
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
    _print_disputes(r)


def _print_disputes(r: AuditReport) -> None:
    """Each disputed move, and each of its versions judged by replaying the record with it."""
    players = r.game.players
    explain = False
    for d in r.disputes:
        move = d.move
        where = f"{move.pos}, " if move.pos else ""
        # `hand 1 (2nd)` for the second hand 1, as its page is headed
        hand = f"{r.game.hands[d.hand_index].number}{repeat_suffix(d.occurrence)}"
        note = f': "{move.dispute_note}"' if move.dispute_note is not None else ""
        out.print(
            f"  [bold]disputed[/] at {escape(where)}hand {hand}, trick {d.trick_index} "
            f"({escape(r.game.seat_name(move.seat))}){escape(note)}",
            markup=True,
        )
        for v in d.versions:
            label = f"{v.play} (as recorded)" if v.recorded else f"or {v.play}"
            first = v.first_error
            if first is not None:
                loc = first.location
                at = f"{loc.line}:{loc.col}, " if loc.line is not None else ""
                verdict = (
                    f"[red]illegal[/]: {first.code} at {escape(at)}{escape(loc.play())}: "
                    f"{escape(first.message)}"
                )
            else:
                verdict = "[green]legal[/]; " + escape(_legal_verdict(r, d, v))
            if v.best is not None:
                verdict += f"; best reachable {escape(_per_seat(players, v.best))}"
                explain = True
            out.print(f"    {escape(label)}: {verdict}", markup=True)
    if explain:
        out.print(
            "  (best reachable: the hand points each player can be sure to end the hand with from "
            "the position after the move, playing its best with every card known while all the "
            "others play against it; the hindsight solver, `zfrec solve`)"
        )


def _legal_verdict(r: AuditReport, d: DisputeVerdict, v: VersionVerdict) -> str:
    """A legal version's points and totals; for one that ends the disputed trick elsewhere
    than the record, who takes the trick, and where the record stops fitting it."""
    players = r.game.players
    parts = []
    if v.trick is not None:
        parts.append(
            f"{r.game.seat_name(v.trick.winner)} takes the trick "
            f"({v.trick.points} points in it) and leads next"
        )
    cut = v.unfitting
    if cut is not None:
        loc = cut.location
        at = f" at {loc.line}:{loc.col}" if loc.line is not None else ""
        parts.append(
            f"the record goes on as only the recorded version has it{at} ({cut.code}: "
            f"{cut.message}), so this version's hand points and totals are not known"
        )
        return "; ".join(parts)
    points, totals = d.points(v), d.totals(v)
    parts.append(
        f"hand points {_per_seat(players, points)}"
        if points is not None
        else "the hand does not finish"
    )
    parts.append(f"totals {_per_seat(players, totals)}")
    return "; ".join(parts)


def _per_seat(players: list[str], values: tuple[int, ...] | None) -> str:
    return ", ".join(f"{name} {v}" for name, v in zip(players, values or (), strict=False))


@json_on_failure(_no_games)
def audit_cmd(
    record: RecordsArg,
    game: GameOpt = None,
    budget: Annotated[
        int, typer.Option("--budget", min=1, help="Most candidate records to validate per game.")
    ] = AUDIT_BUDGET,
    html_out: Annotated[
        Path | None, typer.Option("--html", help="Also write an audit page to this file.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """For a record that fails validation: the presets and single options under which it is
    legal, and the smallest edits that repair it, ranked, each one verified. For every
    disputed move with other versions (`2: Qc disputed or Kc`): each version judged by
    replaying the record with it in place, with its first error or its points and totals.

    Sheng ji records are audited alike, with their own repairs (ANALYSIS.md, Sheng ji).
    --html writes the audit as one self-contained page, every game's findings where they are.

    A directory means every record in it; a file there that cannot be read is reported and the
    others are audited. Exit 0 when every game is legal as recorded, 1 when some game fails
    (repaired or not), 2 on unreadable input.
    """
    from zfrec.games import kind_of
    from zfrec.games.zhengfen.analysis.audit import audit
    from zfrec.games.zhengfen.analysis.readfix import audit_as_read

    unread: list[UnreadGame] = []  # games that cannot be read, as validate reports them
    entries, bad = read_many(record, game, recover=True, unread=unread)
    files = record_files(record)
    many = files != [record]
    if html_out is not None and any(f != "-" and Path(f).resolve() == html_out.resolve()
                                    for f in files):  # fmt: skip
        fail(f"--html: {html_out} is a record being audited; the page would replace it")
    reports: list[tuple[str, int, Any]] = []  # AuditReport, or a kind's own (`own`)
    own: dict[int, Any] = {}  # by place in reports: the kind with its own audit (audit_record)
    for file, number, g in entries:
        with friendly_errors(file):
            mine = kind_of(g).audit_record(g, budget=budget)
            if mine is not None:
                own[len(reports)] = kind_of(g)
                reports.append((file, number, mine))
                continue
            # A record with unreadable moves is audited as read: the suggestions come first.
            judged = audit_as_read(g, budget=budget) if g.problems else audit(g, budget=budget)
            reports.append((file, number, judged))
    if html_out is not None:
        _write_audit_page(html_out, str(record), reports, own, many)
        for file, lost, _ in unread:
            err.print(f"warning: game {lost} of {file} cannot be read: it is left out of "
                      f"{html_out}", markup=False)  # fmt: skip
    if as_json:
        doc: dict[str, Any] = {
            "games": [{"file": f, "game": n, **r.to_json()} for f, n, r in reports],
            "unreadable": bad,
        }
        if unread:  # a game a file's others are judged past, as validate reports it (ZF001)
            doc["unread_games"] = [
                {"file": f, "game": n, "diagnostics": [d.to_json() for d in _unread(f, n, e)]}
                for f, n, e in unread
            ]
        print_json(doc)
    else:
        shown = None
        listed = sorted([(f, n or 0, i) for i, (f, n, _) in enumerate(reports)]
                        + [(f, n or 0, -1 - i) for i, (f, n, _) in enumerate(unread)])  # fmt: skip
        for file, number, i in listed:
            if many and file != shown:
                shown = file
                out.print(f"[bold underline]{escape(file)}[/]", markup=True)
            if i < 0:
                _print_unread(*unread[-1 - i])
            elif i in own:
                for line in reports[i][2].text_lines(number):
                    out.print(line, markup=False, highlight=False)
            else:
                _print_audit(number, reports[i][2])
    if bad:
        raise typer.Exit(EXIT_INPUT)
    legal = all(r.legal for _, _, r in reports) and not unread
    raise typer.Exit(EXIT_OK if legal else EXIT_FINDINGS)


def _unread(file: str, number: int | None, exc: NotationError) -> list[Diagnostic]:
    """A game that cannot be read as `validate` reports it: what its reader read past before
    (a misspelt preset read as meant), then the error that cost it (ZF001; JSON: ZF002)."""
    from zfrec.validate import kept_diagnostics, notation_diagnostic

    return [*kept_diagnostics(exc, file, number), notation_diagnostic(exc, file, number)]


def _print_unread(file: str, number: int | None, exc: NotationError) -> None:
    """`game 1: cannot be read`, with the error that cost it where it is (the audit of a file's
    other games goes on)."""
    *_, error = _unread(file, number, exc)
    where = f"{error.location.line}:{error.location.col}: " if error.location.line else ""
    out.print(f"[bold]game {number or '?'}[/]: [red]cannot be read[/]", markup=True)
    out.print(f"  {escape(where)}{escape(error.message)}", markup=True)


def _write_audit_page(
    html_out: Path, title: str, reports: list[tuple[str, int, Any]], own: dict[int, Any],
    many: bool,
) -> None:  # fmt: skip
    """`audit --html`: one page with every game's audit, a kind with its own audit as the
    kind's section (`GameKind.audit_section`); a kind without one is left out, with a warning.
    Written whole or not at all."""
    from markupsafe import Markup

    from zfrec.cli.simulate_cmds import write_atomic
    from zfrec.games.zhengfen.pages.analysis import audit_file  # HTML only when asked for

    if not reports:  # every file unreadable: each said so, and the run exits 2
        err.print(f"error: --html: no game could be read; {html_out} is not written",
                  markup=False)  # fmt: skip
        return
    sections: list[tuple[str, Any]] = []
    styles: list[str] = []
    left_out: dict[str, int] = {}
    for i, (f, n, r) in enumerate(reports):
        heading = f"{f}, game {n}" if many else f"Game {n}"
        kind = own.get(i)
        if kind is None:
            sections.append((heading, r))
            continue
        html = kind.audit_section(r, heading, f"g{i + 1}-")
        if html is None:
            left_out[kind.title] = left_out.get(kind.title, 0) + 1
            continue
        sections.append((heading, Markup(html)))
        if kind.audit_style and kind.audit_style not in styles:
            styles.append(kind.audit_style)
    if not sections:
        fail("--html: audit pages of these records come later; use --json or the text")
    for title_, count in left_out.items():
        err.print(f"warning: {count} {title_} game(s) are left out of {html_out}: "
                  "their audit pages come later", markup=False)  # fmt: skip
    try:
        write_atomic(html_out, audit_file(title, sections, styles))  # never a half page
    except OSError as exc:
        fail(file_problem(str(html_out), exc, "write"))


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


def kind_diff(games_a: list[Game], games_b: list[Game], first: int, as_json: bool) -> NoReturn:
    """`zfrec diff` of records of a kind with its own comparison (`GameKind.diff_records`:
    a report with `same`, `header`, `first` and `to_json()`). Exit 0 same, 1 differ."""
    from zfrec.games import kind_of

    reports: list[tuple[int, Any]] = []
    for i, (x, y) in enumerate(zip(games_a, games_b, strict=False)):
        with friendly_errors(f"game {first + i}"):
            reports.append((first + i, kind_of(x).diff_records(x, y)))
    extra = len(games_a) - len(games_b)
    if as_json:
        print_json({"games": [{"game": n, **r.to_json()} for n, r in reports],
                    "games_a": len(games_a), "games_b": len(games_b)})  # fmt: skip
    else:
        for number, r in reports:
            out.print(f"[bold]game {number}[/]: " + ("same game" if r.same else "differ"))
            for line in r.header:
                out.print(f"  {escape(line)}")
            if r.first is not None:
                where = r.first.where()
                out.print(f"  first divergence{' at ' + escape(where) if where else ''}: "
                          f"{escape(r.first.message)}")  # fmt: skip
            for side in ("a", "b"):
                if r.verdict(side) is not None:
                    out.print(f"  {side.upper()}: {escape(r.verdict(side))}")
        if extra:
            out.print(f"{'A' if extra > 0 else 'B'} holds {abs(extra)} more game(s)")
    raise typer.Exit(0 if not extra and all(r.same for _, r in reports) else 1)


def _no_diff(message: str, params: dict[str, Any]) -> dict[str, Any]:
    """The --json document of `diff` refused: no games compared, and `error` says why."""
    return {"games": [], "games_a": 0, "games_b": 0, "error": message}


@json_on_failure(_no_diff)
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
    from zfrec.games import kind_of
    from zfrec.games.zhengfen.analysis.diff import diff_games

    games_a, games_b = read_games(a, game), read_games(b, game)
    kinds = {kind_of(g).name for g in (*games_a, *games_b)}
    if len(kinds) > 1:
        fail(f"{a} and {b} hold records of different games ({', '.join(sorted(kinds))})")
    if kind_of(games_a[0]).diff_records(games_a[0], games_b[0]) is not None:
        kind_diff(games_a, games_b, game or 1, as_json)  # the kind's own comparison
    first = game or 1
    with friendly_errors(f"{a} and {b}"):
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
