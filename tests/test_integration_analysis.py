"""The analyser wired into the store, the CLI and the pages: stats, show, replay notes, audits."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from tests.lanes import CHROMIUM, require_chromium
from tests.test_render_browser import ARGS
from zfrec.cli import app
from zfrec.games.zhengfen.analysis.analyze import analyze_game, player_aggregates
from zfrec.games.zhengfen.engine.game import PassEvent, PlayEvent
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.pages.analysis import AUDIT_PAGE, analysed_view, annotate
from zfrec.games.zhengfen.pages.html import build_game_view, render_game, render_hand
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game, dumps, load, loads
from zfrec.render.gamefiles import _sources
from zfrec.render.site import game_files, stored_game_files
from zfrec.render.views import card_prose
from zfrec.replay import HandStart, MoveStep, replay
from zfrec.store import list_games, load_record, open_store, session

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
BROKEN = SAMPLES / "broken" / "does-not-beat.zfn"
VALID = [SAMPLES / "02-three-players.zfn", SAMPLES / "05-full-game-to-500.zfn"]
runner = CliRunner()

# Ann leads 5s; Bo passes although any of his singles 7d..Jc beats it (a missed beat, with 5
# points on the table); Cy takes the trick with Qs, so Ann conceded her 5.
MISSED_BEAT = """[Event "A missed beat"]
[Players "Ann, Bo, Cy"]
[Rules "pagat"]

hand 1 shuffler 1
deal 1: 3s 3h 3d 3c 4s 4h 4d 4c 5s 5h 5d 5c 6s 6h 6d 6c 7s 7h
deal 2: 7d 7c 8s 8h 8d 8c 9s 9h 9d 9c Ts Th Td Tc Js Jh Jd Jc
deal 3: Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d 2c SJ BJ
1: 5s  2: -  3: Qs  1: -  2: -
"""


def as_codes(text: str) -> str:
    """A page's note as the analysis wrote it: isolates out, cards back to their codes."""
    text = text.replace("\u2068", "").replace("\u2069", "")
    text = re.sub(r"(?<![\d])10(?=[♠♥♦♣])|(?<==)10\b", "T", text)
    return text.translate(str.maketrans("♠♥♦♣", "shdc"))


def missed_beat_game() -> Game:
    [game] = loads(MISSED_BEAT)
    return game


def page_data(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="zf-data">(.*?)</script>', html, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def step_of_move(game: Game, hand_index: int, trick_index: int, seat: int) -> int:
    """The replay page's step index of a seat's first action in a record trick, counted
    straight from the replay stream (the deal is step 0, then one step per action)."""
    step = 0
    for _, ev in replay(game):
        if isinstance(ev, HandStart) and ev.hand_index == hand_index:
            step = 0
        elif isinstance(ev, MoveStep) and ev.hand_index == hand_index:
            step += 1
            seat_of = ev.event.seat if ev.event is not None else None
            if ev.trick_index == trick_index and seat_of == seat:
                return step
    raise AssertionError("no such move")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    """A SQLite store holding two valid sample files and a broken record."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    result = runner.invoke(app, ["import", "--db", url, *map(str, [*VALID, BROKEN])])
    assert result.exit_code == 1, result.output  # the broken record is stored flagged: a finding
    assert "3 game(s) added" in result.output and "1 flagged with errors" in result.output
    yield url


# --- zfrec stats and zfrec show ---------------------------------------------------------------


def test_stats_json_has_the_analysis_equal_to_player_aggregates(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    stats = {p["name"]: p for p in json.loads(result.output)}
    engine = open_store(db)
    try:
        with session(engine, readonly=True) as s:
            records = [load_record(s, row.id) for row in list_games(s)]
    finally:
        engine.dispose()
    expected = player_aggregates(records)
    assert set(stats) == set(expected)
    for name, a in expected.items():
        p = stats[name]
        assert p["win_rate"] == a.win_rate
        assert p["counters_captured"] == a.counters_captured
        assert p["counters_conceded"] == a.counters_conceded
        assert p["missed_beats"] == a.missed_beats
        assert p["missed_beats_per_hand"] == a.missed_beats_per_hand
        assert p["categories_played"] == a.categories_played
        assert p["analysis"] == json.loads(json.dumps(a.to_json()))
        # the store's own measures agree with the analysis where both count the same thing
        assert p["first_out_rate"] == pytest.approx(a.first_rate or 0.0)
        assert p["last_rate"] == pytest.approx(a.last_rate or 0.0)
        assert p["mean_points_per_hand"] == pytest.approx(a.mean_points or 0.0)
    # the analysis is computed in the fast mode, and the records are the files' records
    files = player_aggregates(g for path in [*VALID, BROKEN] for g in load(path))
    assert {n: a.to_json() for n, a in files.items()} == {
        n: a.to_json() for n, a in expected.items()
    }
    assert stats["North"]["win_rate"] == 1.0 and stats["Ann"]["win_rate"] is None
    assert stats["Bo"]["missed_beats"] == 0 and stats["Cy"]["missed_beats"] == 1


def test_stats_for_one_player_and_only_valid_games(db: str) -> None:
    one = json.loads(runner.invoke(app, ["stats", "--db", db, "--json", "-p", "NORTH"]).output)
    assert [p["name"] for p in one] == ["North"]
    records = [g for g in load(VALID[1])]
    assert one[0]["analysis"] == json.loads(
        json.dumps(player_aggregates(records)["North"].to_json())
    )
    valid = json.loads(runner.invoke(app, ["stats", "--db", db, "--json", "--valid-only"]).output)
    assert "Ann" not in {p["name"] for p in valid}  # Ann sits only in the broken record


def test_stats_text_shows_rates_and_a_table_for_the_analysis(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db])
    assert result.exit_code == 0, result.output
    text = result.output
    for heading in ("win rate", "points/hand", "first out", "last", "decision analysis"):
        assert heading in text
    for heading in ("captured", "conceded", "missed beats", "per hand", "categories played"):
        assert heading in text
    north = next(line for line in text.splitlines() if line.startswith("North"))
    assert "100.0%" in north  # North won the one game that reached the target
    assert re.search(r"single \d+", text)


def test_show_adds_the_points_flow(db: str) -> None:
    detail = json.loads(runner.invoke(app, ["show", "2", "--db", db, "--json"]).output)
    [record] = load(VALID[1])
    flow = analyze_game(record, alternatives=False).points_flow()
    assert detail["points_flow"] == [r.to_json(record.players) for r in flow]
    last = detail["points_flow"][-1]
    assert last["kind"] == "transfer" and last["scores"] == detail["scores"]
    text = runner.invoke(app, ["show", "2", "--db", db]).output
    assert "points flow by trick" in text and "transfer" in text
    assert "trick(s) without counters not shown" in text


# --- replay pages -------------------------------------------------------------------------------


def test_replay_page_marks_a_missed_beat_at_its_step(tmp_path: Path) -> None:
    game = missed_beat_game()
    files = {f.path: f.content.decode() for f in game_files(game, charts=False)}
    steps = page_data(files["hand-1.html"])["steps"]
    bo_pass = step_of_move(game, 0, 1, seat=1)
    ann_lead = step_of_move(game, 0, 1, seat=0)
    assert (bo_pass, ann_lead) == (2, 1)
    # cards as the cards show them, names isolated (U+2068 ... U+2069)
    assert steps[bo_pass]["notes"] == [
        {
            "text": "\u2068Bo\u2069 passed on 5♠ but had 5 beating plays, e.g. 7♦; 5 points on"
            " the table (5♠)",
            "kind": "missed_beat",
        }
    ]
    assert steps[ann_lead]["notes"] == [
        {"text": "\u2068Ann\u2069 put 5 points into a trick another player won", "kind": "conceded"}
    ]
    assert [i for i, s in enumerate(steps) if "notes" in s] == [ann_lead, bo_pass]
    # the hand's section links the note to its step; the game page links it to the replay
    assert f'<a href="#step={bo_pass}">Trick 1, turn 2</a>' in files["hand-1.html"]
    game_page = files["index.html"]
    assert f'href="hand-1.html#step={bo_pass}"' in game_page
    assert 'class="zf-analysis"' in game_page and "zf-missed-beat" in game_page
    # the render command writes the same pages
    record = tmp_path / "mb.zfn"
    record.write_text(MISSED_BEAT, encoding="utf-8")
    result = runner.invoke(app, ["render", str(record), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    rendered = page_data((tmp_path / "out" / "hand-1.html").read_text("utf-8"))
    assert rendered["steps"][bo_pass]["notes"][0]["kind"] == "missed_beat"


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_every_note_lands_on_the_step_of_its_move(seed: int) -> None:
    game = simulate_game(SimConfig(3 + seed % 4, preset("pagat"), "random", 3), seed)
    analysis = analyze_game(game)
    notes = analysis.per_move_notes()
    assert any(n.kind == "missed_beat" for n in notes)
    view = build_game_view(game)
    annotate(view, analysis)
    shown = [(hv.index, s) for hv in view.hands for s in hv.steps if s.notes]
    assert sum(len(s.notes) for _, s in shown) == len(notes)
    # the engine's events, in page order: which seat acted, and how
    events: dict[tuple[int, int], PlayEvent | PassEvent] = {}
    step = 0
    for _, ev in replay(game):
        if isinstance(ev, HandStart):
            step = 0
        elif isinstance(ev, MoveStep):
            step += 1
            assert ev.event is not None
            events[(ev.hand_index, step)] = ev.event
    for hand_index, s in shown:
        event = events[(hand_index, s.index)]
        for note in s.notes:
            match = [n for n in notes if n.text == as_codes(note.text) and n.kind == note.kind]
            assert match and all(n.seat == event.seat for n in match)
            expected = PassEvent if note.kind == "missed_beat" else PlayEvent
            assert isinstance(event, expected)


def _placed(view: Any) -> list[tuple[int, int, str, str]]:
    return [
        (hv.index, s.index, n.kind, n.text) for hv in view.hands for s in hv.steps for n in s.notes
    ]


@pytest.mark.parametrize(
    "path",
    [
        *sorted(SAMPLES.glob("*.zfn")),
        *(
            SAMPLES / "broken" / n
            for n in (
                "does-not-beat.zfn",
                "out-of-turn.zfn",
                "leader-passes.zfn",
                "play-after-hand-end.zfn",
                "card-not-held.zfn",
            )
        ),
    ],
    ids=lambda p: p.name,
)
def test_one_pass_view_places_notes_at_the_step_of_their_move(path: Path) -> None:
    """The one-pass page (page builder and analyser fed by one walk) puts every note where the
    two-pass way does, on a step of the note's seat and kind of action, rejected moves and
    inferred passes included."""
    for game in load(path):
        one = analysed_view(game)
        two = build_game_view(game)
        analysis = analyze_game(game, alternatives=False)  # the pages' mode, as analysed_view
        annotate(two, analysis)
        assert _placed(one) == _placed(two)
        assert len(_placed(one)) == len(analysis.per_move_notes())
        for hv in one.hands:
            for s in hv.steps:
                for note in s.notes:
                    expected = "pass" if note.kind == "missed_beat" else "play"
                    shown = tuple(game.players)  # the page writes cards and names as prose
                    assert s.kind == expected and s.seat == next(
                        n.seat
                        for n in analysis.per_move_notes()
                        if card_prose(n.text, shown) == note.text
                    )


def test_a_seat_view_keeps_the_other_players_missed_beats_out() -> None:
    game = missed_beat_game()
    as_ann = {f.path: f.content.decode() for f in game_files(game, viewer=0, charts=False)}
    notes = [n for s in page_data(as_ann["hand-1.html"])["steps"] for n in s.get("notes", [])]
    assert [n["kind"] for n in notes] == ["conceded"]
    for page in as_ann.values():
        assert "Bo passed" not in page and "e.g. 7d" not in page
    assert AUDIT_PAGE not in as_ann
    as_bo = {f.path: f.content.decode() for f in game_files(game, viewer=1, charts=False)}
    assert "Bo\u2069 passed on 5♠" in as_bo["hand-1.html"]


def test_analysis_sections_escape_record_text() -> None:
    hostile = "<script>alert(1)</script>"
    game = missed_beat_game()
    [game] = loads(dumps(game).replace("Bo", hostile))
    view = build_game_view(game)
    annotate(view, analyze_game(game))
    for page in (render_game(view), render_hand(view.hands[0])):
        assert hostile not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;\u2069 passed on 5♠" in page
    steps = page_data(render_hand(view.hands[0]))["steps"]
    assert steps[2]["notes"][0]["text"].startswith("\u2068" + hostile)  # JSON text, drawn as text


# --- audit pages and the site -------------------------------------------------------------------


def test_publish_writes_and_links_an_audit_page_for_a_broken_record(
    db: str, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 game(s), 3 rendered" in result.output
    broken = out / "games" / "3"
    audit_page = (broken / AUDIT_PAGE).read_text("utf-8")
    assert "Broken: does not beat" in audit_page and 'class="zf-repair"' in audit_page
    assert "legal if trick 1, turn 2 (\u2068Bo\u2069) was a pass" in audit_page
    assert 'href="index.html"' in audit_page and 'href="../../index.html"' in audit_page
    assert f'href="{AUDIT_PAGE}"' in (broken / "index.html").read_text("utf-8")
    assert not any((out / "games" / str(n) / AUDIT_PAGE).exists() for n in (1, 2))
    index = (out / "index.html").read_text("utf-8")
    assert index.count(f"/{AUDIT_PAGE}") == 1 and f'href="games/3/{AUDIT_PAGE}"' in index
    player = next((out / "players").glob("bo-*.html")).read_text("utf-8")
    assert f'href="../games/3/{AUDIT_PAGE}"' in player
    # the broken game's replay marks the analysis at its moves too
    steps = page_data((broken / "hand-1.html").read_text("utf-8"))["steps"]
    assert any(n["kind"] == "missed_beat" for s in steps for n in s.get("notes", []))
    for page in [*out.rglob("*.html")]:
        for link in re.findall(r'href="([^"#]+)', page.read_text("utf-8")):
            assert not link.startswith(("/", "http")), (page, link)
            assert (page.parent / unquote(link)).exists(), (page, link)
    again = runner.invoke(app, ["publish", "--db", db, "--out", str(out)])
    assert "3 game(s), 0 rendered, 3 from the store" in again.output
    assert (broken / AUDIT_PAGE).read_text("utf-8") == audit_page


def test_the_artifact_key_covers_the_options_and_the_code(db: str) -> None:
    engine = open_store(db)
    try:
        with session(engine) as s:
            row = list_games(s)[2]
            files, cached = stored_game_files(s, row)
            assert not cached and AUDIT_PAGE in {f.path for f in files}
            assert stored_game_files(s, row)[1]
            plain, cached = stored_game_files(s, row, analysis=False, audit=False)
            assert not cached and AUDIT_PAGE not in {f.path for f in plain}
            assert (
                b'class="zf-analysis"' not in dict((f.path, f.content) for f in plain)["index.html"]
            )
            assert stored_game_files(s, row, analysis=False, audit=False)[1]
            assert not stored_game_files(s, row, salt="other hook")[1]
    finally:
        engine.dispose()
    names = {name for name, _ in _sources()}
    for shaping in (
        "zfrec/games/zhengfen/analysis/analyze.py",
        "zfrec/games/zhengfen/analysis/audit.py",
        "zfrec/games/zhengfen/engine/combos.py",
        "zfrec/games/zhengfen/pages/analysis.py",
        "templates/analysis_game.html.j2", "templates/audit.html.j2", "templates/replay.js",
    ):  # fmt: skip
        assert shaping in names
    assert not any(n.startswith(("zfrec/cli/", "zfrec/store/")) for n in names)


def test_render_command_writes_an_audit_page_for_a_broken_record(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(BROKEN), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert AUDIT_PAGE in result.output and (out / AUDIT_PAGE).exists()
    assert f'href="{AUDIT_PAGE}"' in (out / "index.html").read_text("utf-8")
    seat = runner.invoke(
        app, ["render", str(BROKEN), "--out", str(tmp_path / "s"), "--seat", "Ann"]
    )
    assert seat.exit_code == 0 and not (tmp_path / "s" / AUDIT_PAGE).exists()


# --- in a browser (skipped without Debian's chromium and Playwright) ----------------------------


@pytest.mark.slow
def test_a_browser_shows_the_notes_at_their_step_and_marks_the_move_list(tmp_path: Path) -> None:
    require_chromium()
    import playwright.sync_api as sync_api

    game = missed_beat_game()
    for f in game_files(game, charts=False):
        (tmp_path / f.path).write_bytes(f.content)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((tmp_path / "hand-1.html").as_uri() + "#step=2")
            page.wait_for_function("document.body.dataset.step === '2'")
            assert "Bo\u2069 passed on 5♠" in page.inner_text("#notes")
            marks = page.evaluate(
                "[...document.querySelectorAll('#moves .mark[class*=k-]')]"
                ".map(m => [m.className, m.title])"
            )
            assert marks == [
                ["mark k-conceded", "counters conceded"],
                ["mark k-missed_beat", "missed beat"],
            ]
            page.click("text=Trick 1, turn 1")  # the hand's analysis section links the step
            page.wait_for_function("document.body.dataset.step === '1'")
            assert "Ann\u2069 put 5 points" in page.inner_text("#notes")
        finally:
            browser.close()
    assert errors == []
