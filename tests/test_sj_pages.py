"""Sheng ji's pages, charts, site and statistics: the round pages' data against the record and
the validator's ledger, the files, the one site for both games, and the statistics against
counts made here straight from the validator's report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_store import store_url  # noqa: F401 - the SQLite and PostgreSQL stores
from zfrec.cli import app
from zfrec.games.shengji.cards import format_hand, parse_hand, points
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.pages import match_view
from zfrec.games.shengji.replayer import validate_match
from zfrec.games.shengji.stats import match_facts, sj_stats
from zfrec.record import load
from zfrec.render.gamefiles import render_game_files

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
SJ = SAMPLES / "shengji"
runner = CliRunner()


def first(path: Path):  # type: ignore[no-untyped-def]
    return next(iter(load(path)))


def _codes(units: list[list[str]]) -> int:
    return parse_hand(" ".join(c for u in units for c in u), 3)


def test_round_pages_show_every_play_of_the_record_with_the_engines_result() -> None:
    match = match_of(first(SJ / "03-failed-throw.zfn"))
    report = validate_match(match)
    view = match_view(match)
    assert [p.number for p in view.rounds] == [r.number for r in match.rounds]
    failed_seen = 0
    for rnd, page, ledger in zip(match.rounds, view.rounds, report.rounds, strict=True):
        data = page.data
        plays = [s for s in data["steps"] if s["kind"] == "play"]
        moves = [m for t in rnd.tricks for m in t.moves]
        assert len(plays) == len(moves)
        for step, move in zip(plays, moves, strict=True):
            play = data["tricks"][step["trick"] - 1]["plays"][step["turn"] - 1]
            assert play["seat"] == move.seat == step["seat"]
            assert _codes(play["units"]) == move.played  # the units are the cards that stayed
            if move.failed:
                failed_seen += 1
                assert _codes(play["attempt"]) == move.cards
                assert play["blocker"] == move.blocker
        # the hands at play are the ledger's, the kitty revealed is the one buried
        assert [parse_hand(" ".join(h), 3) for h in data["hands"]] == list(ledger.deal)
        assert parse_hand(" ".join(data["kitty"] or []), 3) == ledger.discard
        result = data["steps"][-1]
        assert result["kind"] == "result"
        if ledger.result is not None:
            assert result["taken"] == ledger.result.total
            assert data["declarers"] == [s for s in range(4) if ledger.result.declarers >> s & 1]
        # the opponents' points never fall and reach what they took in tricks
        taken = [s["taken"] for s in plays]
        assert taken == sorted(taken)
        if ledger.result is not None and plays:
            assert taken[-1] == ledger.result.taken
    assert failed_seen == sum(m.failed for r in match.rounds for t in r.tricks for m in t.moves)
    assert failed_seen > 0


def test_a_seats_file_holds_no_other_hand() -> None:
    match = match_of(first(SJ / "01-bashifen-match.zfn"))
    data = match_view(match, viewer=2).rounds[0].data
    assert data["viewer"] == 2
    assert [h is not None for h in data["hands"]] == [False, False, True, False]


def test_the_match_files_and_charts() -> None:
    made = render_game_files(first(SJ / "01-bashifen-match.zfn"))
    paths = {f.path for f in made.files}
    rounds = len(match_of(first(SJ / "01-bashifen-match.zfn")).rounds)
    assert {f"round-{i}.html" for i in range(1, rounds + 1)} <= paths
    assert {"index.html", "levels.svg", "points.svg"} <= paths
    files = {f.path: f.content for f in made.files}
    # the PNGs are there when an installed font draws every name (王芳 needs a CJK one); else
    # they are rightly left out, with a notice, and the SVGs stand alone
    from zfrec.render.fonts import font_plan

    if font_plan("".join(match_of(first(SJ / "01-bashifen-match.zfn")).players)).missing:
        assert not {"levels.png", "points.png"} & paths and made.meta.notices
    else:
        assert {"levels.png", "points.png"} <= paths
        assert files["levels.png"][:4] == b"\x89PNG"
    page = files["index.html"].decode()
    # both charts inline, the 80/120/160 lines, the levels 2..A as the ladder's ticks
    assert page.count('<svg viewBox="0 0 340') == 2
    for label in ("80 swap", "120 +1", "160 +2"):
        assert label in page
    assert re.search(r">A</text>", page) and re.search(r">K</text>", page)
    replay = files["round-1.html"].decode()
    assert "Content-Security-Policy" in replay and 'id="sj-data"' in replay


def test_statistics_against_the_validators_report() -> None:
    matches = [(i, match_of(first(p))) for i, p in enumerate(sorted(SJ.glob("0[1-5]*.zfn")))]
    players, pairs = sj_stats((i, match_facts(match_view(m))) for i, m in matches)
    by = {p.name: p for p in players}
    declared: dict[str, int] = {}
    held: dict[str, int] = {}
    buried: dict[str, int] = {}
    failed: dict[str, int] = {}
    for _, m in matches:
        report = validate_match(m)
        for ledger in report.rounds:
            dealer = m.players[ledger.dealer]
            buried[dealer] = buried.get(dealer, 0) + points(ledger.discard)
            if ledger.result is None:
                continue
            for s, name in enumerate(m.players):
                if ledger.result.declarers >> s & 1:
                    declared[name] = declared.get(name, 0) + 1
                    held[name] = held.get(name, 0) + (not ledger.result.change.swap)
        for r in m.rounds:
            for trick in r.tricks:
                for mv in trick.moves:
                    if mv.failed:
                        name = m.players[mv.seat]
                        failed[name] = failed.get(name, 0) + 1
    for name, t in by.items():
        assert t.declared == declared.get(name, 0), name
        assert t.held == held.get(name, 0), name
        assert t.buried == buried.get(name, 0), name
        assert t.failed == failed.get(name, 0), name
        assert t.throws >= t.failed
    assert any(t.failed for t in players)
    # a partnership declares exactly when each of its partners does
    for pair in pairs:
        a, b = (by[m] for m in pair.members)
        assert pair.declared <= min(a.declared, b.declared)


def test_one_site_for_both_games(store_url: str, tmp_path: Path) -> None:  # noqa: F811
    db = store_url
    files = [str(SAMPLES / "01-annotated-club-night.zfn"), str(SJ / "01-bashifen-match.zfn"),
             str(SJ / "03-failed-throw.zfn")]  # fmt: skip
    result = runner.invoke(app, ["import", "--db", db, *files])
    assert result.exit_code == 0, result.output
    out = tmp_path / "site"
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 3
    again = runner.invoke(app, ["publish", "--db", db, "--out", str(out), "--json"])
    assert json.loads(again.stdout)["unchanged"] == 3  # kept, the statistics from the manifest
    pages = {p: (out / p).read_text(encoding="utf-8") for p in
             ("index.html", "index-shengji.html", "index-zhengfen.html")}  # fmt: skip
    rows = {p: len(re.findall(r"<tr data-text=", t)) for p, t in pages.items()}
    assert rows == {"index.html": 3, "index-shengji.html": 2, "index-zhengfen.html": 1}
    assert "Zheng Fen and Sheng ji games" in pages["index.html"]
    assert 'id="sj-players"' in pages["index.html"] and 'id="sj-players"' not in pages[
        "index-zhengfen.html"]  # fmt: skip
    # Zheng Fen's Players table and standings are on the whole index and Zheng Fen's, not
    # Sheng ji's (whose measures are its own section's)
    has_table = {p: 'id="players-table"' in t for p, t in pages.items()}
    assert has_table == {"index.html": True, "index-shengji.html": False,
                         "index-zhengfen.html": True}  # fmt: skip
    # the Sheng ji games have their round replays; their players their statistics
    sj_ids = [d.name for d in (out / "games").iterdir() if (d / "round-1.html").exists()]
    assert len(sj_ids) == 2
    ann = next((out / "players").glob("ann-*.html")).read_text(encoding="utf-8")
    assert 'id="sj-players-one"' in ann and "Partners" in ann
    # in sight: the statistics of each game before the list of the player's games
    assert ann.index('id="sj-players-one"') < ann.index("<h2>Games</h2>")
    # search finds players of both games: the Players menu lists them all
    assert 'value="dieter"' in pages["index.html"] and 'value="李娜"' in pages["index.html"]
    # but Zheng Fen's Players table (hands, points, first out) lists only its own players
    table = pages["index.html"].split('id="players-table"')[1].split("</table>")[0]
    assert "Dieter" in table and "李娜" not in table
    page = next(
        p.read_text(encoding="utf-8") for p in (out / "players").glob("*.html")
        if "<h1>" in p.read_text(encoding="utf-8") and "李娜" in p.read_text(encoding="utf-8")
        .split("<h1>")[1].split("</h1>")[0]
    )  # fmt: skip
    assert "Mean points per hand" not in page and "2 games" in page  # no Zheng Fen hands


def test_render_a_sheng_ji_record(tmp_path: Path) -> None:
    result = runner.invoke(app, ["render", str(SJ / "02-no-trump.zfn"), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "round-1.html").exists() and (tmp_path / "index.html").exists()
    assert "(2 round replay(s))" in result.output  # its two rounds
    assert format_hand(0) == ""


@pytest.mark.parametrize(
    ("sample", "fixed"), [("02-no-trump.zfn", True), ("06-zhaopengyou.zfn", False)]
)
def test_the_legend_says_partners_face_each_other_only_where_they_are_fixed(
    tmp_path: Path, sample: str, fixed: bool
) -> None:
    result = runner.invoke(app, ["render", str(SJ / sample), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "round-1.html").read_text(encoding="utf-8")
    assert ("Partners sit facing each other" in page) == fixed
    assert ("No partners are fixed" in page) == (not fixed)


def test_zhao_pengyou_friends_show_themselves_when_they_join() -> None:
    from zfrec.games.shengji.charts import points_model

    match = match_of(first(SJ / "06-zhaopengyou.zfn"))
    view = match_view(match)
    assert view.teams is None
    for rnd, page in zip(match.rounds, view.rounds, strict=True):
        steps = page.data["steps"]
        assert rnd.dealer is not None
        assert steps[0]["declarers"] == [rnd.dealer]
        plays = [s for s in steps if s["kind"] == "play"]
        moves = [m for t in rnd.tricks for m in t.moves]
        known: set[int] = {rnd.dealer}
        for step, move in zip(plays, moves, strict=True):
            if move.joins:
                known.add(move.seat)
            assert step["declarers"] == sorted(known)
        assert set(steps[-1]["declarers"]) >= known
        assert page.data["calls"]  # the dealer's call is on the deal step
    # one bar a round, the opponents' total: the opponents change from round to round
    model = points_model(view)
    assert len(model.series) == 1
    assert list(model.series[0].values) == [max(0, s.total or 0) for s in view.summaries]


@pytest.mark.slow
def test_the_sheng_ji_publish_benchmark_publishes_every_round(tmp_path: Path) -> None:
    from bench.sj_publish_bench import sj_publish_figures

    figures = sj_publish_figures(tmp_path, quick=True)
    rounds = int(figures["sj_publish_rounds"])
    assert rounds > 0 and figures["sj_publish_hands_per_s"] > 0
    site = tmp_path / "sj-publish" / "site"
    assert len(list(site.glob("games/*/round-*.html"))) == rounds


@pytest.mark.slow
def test_a_rounds_page_marks_the_plays_the_solver_finds_costly() -> None:
    """With the solver's marks on (publish's default), each play's `?`/`??` on the page is the
    mark zfrec.games.shengji.solverecord gives that play, and no other play has one."""
    from zfrec.games.shengji.solverecord import round_costs

    match = match_of(first(SAMPLES / "shengji" / "01-bashifen-match.zfn"))
    view = match_view(match, solve_cards=12)
    seen = 0
    for index, page in enumerate(view.rounds):
        want = round_costs(match, index, max_cards=12).marks()
        got = {(s["trick"], s["turn"]): s["mark"] for s in page.data["steps"]
               if s["kind"] == "play" and s["mark"]}  # fmt: skip
        assert got == want
        seen += len(got)
    assert seen > 0  # the greedy samples do give points away at the end of a round
    plain = match_view(match)
    assert not any(s.get("mark") for p in plain.rounds for s in p.data["steps"])


def test_a_costly_plays_note_says_what_it_cost_and_against_what() -> None:
    """What "At this move" says of a marked play: the points it gave away and the opponents'
    double-dummy totals before and after it, as the solver found them (it said only "?? against
    perfect play")."""
    from zfrec.games.shengji.solverecord import round_costs

    match = match_of(first(SAMPLES / "shengji" / "04-kitty-multiplier.zfn"))
    view = match_view(match, solve_cards=10)
    seen = 0
    for index, page in enumerate(view.rounds):
        costs = {(p.trick, p.turn): p for p in round_costs(match, index, max_cards=10).plays}
        for s in page.data["steps"]:
            if s["kind"] != "play" or not s["mark"]:
                assert "mark_note" not in s
                continue
            p = costs[(s["trick"], s["turn"])]
            assert p.cost is not None and p.cost > 0
            # the note's figures are the solver's, in the order it gives them: the points
            # given away, then the opponents' totals before and after the play
            note = s["mark_note"]
            assert note.startswith(f"{s['mark']} against perfect play: "), note
            assert [int(x) for x in re.findall(r"\d+", note)] == [p.cost, p.before, p.after]
            assert "point" in note and "before" in note and "after" in note
            assert abs(p.after - p.before) == p.cost  # type: ignore[operator]
            seen += 1
    assert seen > 0


def test_the_points_charts_line_labels_stay_readable_over_a_bar() -> None:
    """The labels of the reference lines (80 swap, 120 +1, ...) sit at the right end, where a
    tall bar may run behind them: each has a white outline under its letters (the 8 of "80
    swap" was lost in a blue bar of the sample match). Zheng Fen's charts have no such lines."""
    import xml.etree.ElementTree as ET

    from zfrec.games.shengji.charts import points_model
    from zfrec.render.svgchart import chart_svg

    view = match_view(match_of(first(SAMPLES / "shengji" / "01-bashifen-match.zfn")))
    model = points_model(view)
    _, file = chart_svg(model)
    texts = {t.text: t for t in ET.fromstring(file).iter("{http://www.w3.org/2000/svg}text")}
    assert model.lines
    for _, label in model.lines:
        t = texts[label]
        assert (t.get("stroke"), t.get("paint-order")) == ("#fff", "stroke"), label
    assert sum(t.get("stroke") is not None for t in texts.values()) == len(model.lines)


@pytest.mark.parametrize(
    ("sample", "swap", "step"),
    [("01-bashifen-match.zfn", 80, 40), ("05-dabaifen-match.zfn", 40, 20)],
)
def test_the_match_page_states_its_own_rules_thresholds(sample: str, swap: int, step: int) -> None:
    """The note under the rounds gives the match's own swap and step, as its rounds apply them
    (a da bai fen match, one deck, said "80 points ... every 40 more" beside a round where 75
    points lifted the opponents a level)."""
    game = first(SJ / sample)
    rules = match_view(match_of(game)).rules
    assert rules is not None and (rules.swap_at, rules.step) == (swap, step)
    page = {f.path: f.content for f in render_game_files(game, charts=False).files}["index.html"]
    text = page.decode()
    assert (
        f"{swap} points make the declarers lose the deal; every {step} more lift the"
        " opponents a level." in text
    )
    assert text.count("points make the declarers lose the deal") == 1


@pytest.mark.parametrize("sample", sorted(p.name for p in SJ.glob("*.zfn")))
def test_every_comment_of_the_record_is_on_its_rounds_page(sample: str) -> None:
    """A round's, a trick's and a move's comments each appear in "At this move": a trick's at
    its first play (a trick's comment, `{...}` before its first play, was left out)."""
    match = match_of(first(SJ / sample))
    view = match_view(match)
    for rnd, page in zip(match.rounds, view.rounds, strict=True):
        steps = page.data["steps"]
        assert steps[0]["notes"][: len(rnd.comments)] == list(rnd.comments)
        for t, trick in enumerate(rnd.tricks, 1):
            at = {s["turn"]: s for s in steps if s["kind"] == "play" and s["trick"] == t}
            assert at[1]["notes"][: len(trick.comments)] == list(trick.comments), (t, at[1])
            for turn, move in enumerate(trick.moves, 1):
                assert set(move.comments) <= set(at[turn]["notes"])


def test_a_tricks_comment_is_shown() -> None:
    page = match_view(match_of(first(SJ / "09-annotated.zfn"))).rounds[0]
    first_of_3 = next(s for s in page.data["steps"] if s.get("trick") == 3)
    assert first_of_3["notes"] == ["the table argued about the third trick"]


def test_the_round_that_won_the_match_names_the_winners_even_with_a_round_written_after_it(
    tmp_path: Path,
) -> None:
    # the record goes on after the match was won in round 17 (SJ507): round 17 still names the
    # winners, not who would deal next, and the round written after it does not claim the win
    text = (SJ / "01-bashifen-match.zfn").read_text(encoding="utf-8")
    text = text.replace('[Result "A 4 A 4 winners 1, 3"]\n', "")
    path = tmp_path / "after.zfn"
    path.write_text(text + "\nround 18 dealer 3 rank 4 trump s\n", encoding="utf-8")
    view = match_view(match_of(first(path)))
    assert "SJ507" in {d.code for d in view.report.diagnostics}
    bare = str.maketrans("", "", "\u2068\u2069")  # names are isolated for bidi text
    changes = [(s.number, s.change.translate(bare)) for s in view.summaries]
    assert changes[-2] == (17, "the declarers go up 1; Ann & Bo Li win the match")
    assert all("win the match" not in c for _, c in changes[:-2] + changes[-1:])


def test_a_valid_records_disputes_are_judged_on_its_rounds_page(tmp_path: Path) -> None:
    """A valid record gets no audit page, so its round's replay showed only "disputed: note":
    now each version and the audit's verdict on it, as `zfrec audit` judges them, in a section
    and at the step; a disputed bid at the deal step; nothing in a seat's view."""
    text = (SJ / "10-disputed.zfn").read_text(encoding="utf-8")
    text = text.replace("bids 1: 2c\n", 'bids 1: 2c disputed "was it the 2s?" or 2s\n')
    path = tmp_path / "disputed.zfn"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["audit", str(path), "--json"])
    audited = json.loads(result.stdout)
    (game,) = audited["games"] if "games" in audited else audited["files"][0]["games"]
    expected = [
        [(v["play"], v["legal"], (v["first_error"] or {}).get("code")) for v in d["versions"]]
        for d in game["disputes"]
    ]
    assert len(expected) == 2 and expected[1][0] == ("Tc", True, None)
    assert any(not legal for _, legal, _ in expected[1])  # the other versions are judged too
    files = {f.path: f.content for f in render_game_files(first(path)).files}
    page = files["round-1.html"].decode()
    assert page.count('class="zf-dispute"') == 2 and "Disputed bids and plays" in page
    data = json.loads(re.search(r'id="sj-data">(.*?)</script>', page, re.S)[1])  # type: ignore[index]
    noted = [n for s in data["steps"] for n in s["notes"] if n.startswith("Disputed: ")]
    for versions, note in zip(expected, noted, strict=True):
        parts = note.removeprefix("Disputed: ").split("; ")
        assert len(parts) == len(versions), note
        for part, (play, legal, code) in zip(parts, versions, strict=True):
            assert part.removeprefix("or ").split()[0] == play, part
            assert part.endswith(" legal") if legal else f"illegal ({code}" in part, part
    deal = data["steps"][0]
    assert any(n.startswith("Disputed: 2c (as recorded)") for n in deal["notes"]), deal["notes"]
    seat = render_game_files(first(path), viewer=1).files
    assert not any(b"zf-dispute" in f.content for f in seat if f.path.endswith(".html"))
