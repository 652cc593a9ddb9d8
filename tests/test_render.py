"""The renderer: view-models from the replay stream, pages, charts, the CLI and the site."""

from __future__ import annotations

import base64
import gc
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.cli.render_cmds import SOLVE_CARDS
from zfrec.errors import SeatError
from zfrec.games.zhengfen.engine.cards import format_cards, ids, points_of
from zfrec.games.zhengfen.engine.game import PlayEvent
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.pages.charts import game_charts
from zfrec.games.zhengfen.pages.html import build_game_view, render_game, render_hand
from zfrec.games.zhengfen.pages.views import ExtraSection, StepNote
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game, dumps, loads
from zfrec.render.site import cache_key, game_files, slug
from zfrec.replay import HandEnd, HandStart, MoveStep, replay

XSS_NAME = "<script>alert(1)</script>"
XSS_COMMENT = "<img src=x onerror=alert(1)>"
# A hand made by hand: seat 1 holds 3s..7h, seat 2 7d..Qh, seat 3 Qd..BJ (ids 0-17, 18-35,
# 36-53). It has a comment, annotations, a dispute, a leader's pass (not applied), a play that
# does not beat the top (applied, flagged), a declared joker, and it stops before the hand ends.
HANDMADE = """[Event "Club night"]
[Players "Ann, 王芳, Bo"]
{Played at Bo's.}

hand 1 shuffler 3
deal 1: 3s 3h 3d 3c 4s 4h 4d 4c 5s 5h 5d 5c 6s 6h 6d 6c 7s 7h
deal 2: 7d 7c 8s 8h 8d 8c 9s 9h 9d 9c Ts Th Td Tc Js Jh Jd Jc
deal 3: Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d 2c SJ BJ
1: 3h  2: 7d!? {why so high?}  3: Qd  1: -  2: -
3: -  3: Ks  1: 4s?? disputed "Ann says it was a 4 of a kind"  2: -  3: -
1: 5s 5h  2: -  3: Ac BJ=A
"""


def handmade() -> Game:
    [game] = loads(HANDMADE)
    return game


def simulated(players: int = 4, seed: int = 3, hands: int | None = 1) -> Game:
    return simulate_game(SimConfig(players, preset("pagat"), "greedy", hands), seed)


def page_data(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="zf-data">(.*?)</script>', html, re.S)
    assert m is not None
    data: dict[str, Any] = json.loads(m.group(1))
    return data


TABLE = ("hands", "counts", "places", "captured", "points", "totals")


def full_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's steps with the table written out at every step: a step leaves out what did
    not change since the one before, and names only the seats whose hand changed."""
    out: list[dict[str, Any]] = []
    for step in data["steps"]:
        full = dict(step)
        if out:
            for key in TABLE:
                if key not in step:
                    full[key] = out[-1][key]
            hands = list(out[-1]["hands"])
            for seat, cards in step.get("hands", {}).items():
                hands[int(seat)] = cards
            full["hands"] = hands
        out.append(full)
    return out


def plain(text: str) -> str:
    """Text without the isolates around names (U+2068, U+2069)."""
    return text.replace("\u2068", "").replace("\u2069", "")


# --- the view-model follows the engine ---------------------------------------------------------


def test_steps_follow_the_replay_stream() -> None:
    game = simulated(5, seed=11, hands=3)
    view = build_game_view(game)
    hand_steps: list[list[tuple[str, tuple[int, ...], tuple[int, ...]]]] = []
    for state, event in replay(game):
        if isinstance(event, HandStart):
            hand_steps.append([])
        if isinstance(event, HandStart | MoveStep):
            hs = state.hand
            assert hs is not None
            counts = tuple(h.bit_count() for h in hs.hands)
            points = tuple(points_of(w) for w in hs.won)
            hand_steps[-1].append(("step", counts, points))
        elif isinstance(event, HandEnd):
            assert event.result is not None
            hs = state.hand
            assert hs is not None
            counts = tuple(h.bit_count() for h in hs.hands)
            hand_steps[-1].append(("transfer", counts, event.result.points))
            hand_steps[-1].append(("result", counts, event.result.points))
    assert len(view.hands) == len(hand_steps) == 3
    for hv, expected in zip(view.hands, hand_steps, strict=True):
        assert [(s.counts, s.points) for s in hv.steps] == [(c, p) for _, c, p in expected]
        assert [s.index for s in hv.steps] == list(range(len(hv.steps)))
        assert hv.steps[0].kind == "deal"
        assert [s.kind for s in hv.steps[-2:]] == ["transfer", "result"]


def test_transfer_step_moves_the_last_players_points_to_the_first() -> None:
    game = simulated(4, seed=5)
    view = build_game_view(game)
    steps = view.hands[0].steps
    transfer, result = steps[-2], steps[-1]
    [(_, end)] = [(s, e) for s, e in replay(game) if isinstance(e, HandEnd)]
    r = end.result
    assert r is not None and transfer.transfer is not None
    assert (transfer.transfer.giver, transfer.transfer.receiver) == (r.last, r.first)
    assert transfer.transfer.points == r.transfer_points
    assert transfer.points == r.points and transfer.points[r.last] == 0
    before = steps[-3].points
    handed = before[r.last] + points_of(r.transfer_hand)
    assert transfer.points[r.first] == before[r.first] + handed
    assert result.totals == end.totals
    assert result.places[r.last] == len(game.players)


def test_trick_log_shows_each_play_and_pass_in_order_and_the_top() -> None:
    view = build_game_view(handmade())
    steps = view.hands[0].steps
    log = steps[5].trick_log  # Ann 3h, 王芳 7d, Bo Qd, Ann -, 王芳 - (takes nothing: Bo wins)
    assert [(p.seat, p.is_pass, format_cards(sum(1 << c for c in p.cards))) for p in log] == [
        (0, False, "3h"),
        (1, False, "7d"),
        (2, False, "Qd"),
        (0, True, ""),
        (1, True, ""),
    ]
    assert steps[5].top == 2 and steps[5].trick_won is not None
    assert steps[5].trick_won[0] == 2
    assert (
        steps[5].headline
        == "\u2068王芳\u2069 passes. \u2068Bo\u2069 takes trick 1; \u2068Bo\u2069 leads."
    )
    assert steps[6].trick_log[0].rejected  # the next trick starts afresh


def test_comments_annotations_disputes_and_diagnostics_sit_at_their_moves() -> None:
    view = build_game_view(handmade())
    steps = view.hands[0].steps
    assert steps[0].comments == () and view.hands[0].header.comments == ("Played at Bo's.",)
    assert steps[2].annotation == "!?" and steps[2].comments == ("why so high?",)
    rejected = steps[6]
    assert rejected.kind == "rejected"
    assert [d.code for d in rejected.diagnostics] == ["ZF105"]
    assert plain(rejected.headline).startswith(
        "Bo: pass was not applied: Bo passes, but a trick is"
    )
    flagged = steps[8]
    assert flagged.kind == "play" and flagged.annotation == "??" and flagged.disputed
    assert flagged.dispute_note == "Ann says it was a 4 of a kind"
    assert [d.code for d in flagged.diagnostics] == ["ZF103", "ZF005"]  # the error, the note
    assert flagged.trick_log[-1].flagged
    joker = next(s for s in steps if s.kind == "play" and 53 in s.trick_log[-1].cards)
    assert joker.trick_log[-1].jokers == ((53, "A", True),)
    assert joker.trick_log[-1].reading == "pair of As, big joker as A"
    assert steps[-1].kind == "result" and [d.code for d in steps[-1].diagnostics] == ["ZF206"]
    assert view.findings and all(
        f.href is not None and f.href.startswith("hand-1.html#step=") for f in view.findings
    )


def test_seat_view_leaves_the_other_hands_out_of_the_page() -> None:
    game = simulated(4, seed=9)
    view = build_game_view(game, viewer=2)
    page = render_hand(view.hands[0])
    data = page_data(page)
    steps = full_steps(data)
    assert len(steps) == len(view.hands[0].steps)
    for step in steps:
        hands = step["hands"]
        assert [h is None for h in hands] == [True, True, False, True]
    assert "South\u2069" not in page.split("<main")[0] and "seen by \u2068West\u2069" in page


def test_seat_of_accepts_names_and_numbers() -> None:
    game = handmade()
    assert game.seat_of("王芳") == 1 and game.seat_of("bo") == 2 and game.seat_of("1") == 0
    with pytest.raises(
        SeatError, match="no player is called 'Cy': the seats are 1 Ann, 2 王芳, 3 Bo"
    ):
        game.seat_of("Cy")


# --- pages are self-contained and safe -------------------------------------------------------


def xss_game() -> Game:
    game = simulated(3, seed=4)
    text = dumps(game).replace("East", XSS_NAME)
    text = re.sub(r"^(1: \S+)", r"\1 {" + XSS_COMMENT + "}", text, count=1, flags=re.M)
    [hostile] = loads(text)
    return hostile


def test_hostile_names_and_comments_are_text() -> None:
    game = xss_game()
    view = build_game_view(game)
    assert any(XSS_COMMENT in s.comments for s in view.hands[0].steps)
    for page in (render_hand(view.hands[0]), render_game(view)):
        assert "<script>alert" not in page
        assert "<img" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    data_page = render_hand(view.hands[0])
    # the JSON block and the page's own scripts (movelist.js, replay.js): no other
    assert data_page.count("</script>") == 3
    assert XSS_NAME in str(page_data(data_page)["players"])


def test_replay_page_is_one_file_with_a_strict_content_security_policy() -> None:
    page = render_hand(build_game_view(simulated()).hands[0])
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert csp is not None
    policy = csp.group(1)
    assert "default-src 'none'" in policy and "connect-src 'none'" in policy
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 2  # movelist.js and replay.js
    allowed = re.findall(r"'sha256-[^']*'", policy.split("script-src")[1].split(";")[0])
    assert allowed == [  # only our own scripts may run
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in scripts
    ]
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert not re.search(r"\b(src|href)=\"?(https?:)?//", page)
    assert "http:" not in page and "https:" not in page and "@import" not in page
    assert re.search(r"url\((?!data:)", page) is None


def test_analysis_hooks_render_as_text() -> None:
    view = build_game_view(simulated())
    hand = view.hands[0]
    hand.steps[3].notes.append(StepNote("<b>only</b> text"))
    hand.sections.append(ExtraSection("Analysis", ("A plain <i>paragraph</i>.",)))
    view.sections.append(ExtraSection("Summary", ("fine",)))
    page = render_hand(hand)
    assert "&lt;i&gt;paragraph&lt;/i&gt;" in page and "<h2>Analysis</h2>" in page
    notes = page_data(page)["steps"]
    assert isinstance(notes, list) and notes[3]["notes"] == [
        {"text": "<b>only</b> text", "kind": "analysis"}
    ]
    assert "<h2>Summary</h2>" in render_game(view)


def test_game_page_charts_and_files() -> None:
    game = simulated(4, seed=7, hands=None)
    files = {f.path: f.content for f in game_files(game)}
    hands = len(game.hands)
    assert set(files) == {
        "index.html",
        *(f"hand-{n}.html" for n in range(1, hands + 1)),
        "scores.svg",
        "scores.png",
        "points.svg",
        "points.png",
    }
    assert files["scores.png"].startswith(b"\x89PNG") and files["points.png"].startswith(b"\x89PNG")
    page = files["index.html"].decode()
    assert page.count('class="zf-chart"') == 2 and 'aria-label="Cumulative scores"' in page
    assert all(f'href="hand-{n}.html"' in page for n in range(1, hands + 1))
    assert "<?xml" not in page
    replay_page = files["hand-2.html"].decode()
    assert 'href="index.html"' in replay_page and 'href="hand-1.html"' in replay_page
    # the same record renders to the same bytes, so stored artifacts stay valid
    assert {f.path: f.content for f in game_files(game) if f.path.endswith((".html", ".svg"))} == {
        k: v for k, v in files.items() if k.endswith((".html", ".svg"))
    }


def test_charts_name_the_winner_and_draw_the_target() -> None:
    view = build_game_view(simulated(3, seed=2, hands=None))
    assert view.over and view.winners
    scores, points = game_charts(view)
    winner = view.header.players[view.winners[0]]
    assert f"\u2068{winner}\u2069 wins" in scores.svg and "target 500" in scores.svg
    assert points.name == "points" and "<svg" in points.svg


def test_chinese_names_render() -> None:
    view = build_game_view(handmade())
    assert "王芳" in render_hand(view.hands[0]) and "王芳" in render_game(view)


def test_unfinished_hand_has_no_transfer() -> None:
    view = build_game_view(handmade())
    kinds = [s.kind for s in view.hands[0].steps]
    assert "transfer" not in kinds and kinds[-1] == "result"
    assert view.summaries[0].points is None and not view.summaries[0].finished


def test_slugs_are_safe_file_names_and_distinct() -> None:
    assert re.fullmatch(r"[\w-]+", slug(XSS_NAME))
    assert slug("王芳").startswith("王芳-")
    assert slug("Ann") == slug("ANN") and slug("Ann") != slug("Ann!")
    assert cache_key("a") != cache_key("b") and cache_key("a") != cache_key("a", "analysis")


# --- the CLI --------------------------------------------------------------------------------------

runner = CliRunner()


def test_render_command_writes_a_game_directory(tmp_path: Path) -> None:
    record = tmp_path / "g.zfn"
    record.write_text(dumps(simulated(3, seed=1, hands=2)), encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(record), "--out", str(out)])
    assert result.exit_code == 0, result.output
    charts = ["scores.svg", "scores.png", "points.svg", "points.png"]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["index.html", "hand-1.html", "hand-2.html", "viewer.html", *charts]
    )
    seat = runner.invoke(app, ["render", str(record), "--out", str(tmp_path / "s"), "--seat", "2"])
    assert seat.exit_code == 0, seat.output
    data = page_data((tmp_path / "s" / "hand-1.html").read_text("utf-8"))
    assert data["viewer"] == 1


def test_render_command_errors_are_messages(tmp_path: Path) -> None:
    record = tmp_path / "g.zfn"
    record.write_text(dumps(simulated(3, seed=1)), encoding="utf-8")
    bad = tmp_path / "bad.zfn"
    bad.write_text('[Players "A, B, C"]\nhand 1\n1: 7x\n', encoding="utf-8")
    cases = [
        (["render", str(record), "--out", str(tmp_path / "o"), "--seat", "Zed"], "no player"),
        (["render", str(bad), "--out", str(tmp_path / "o")], "unknown suit"),
        (["render", str(tmp_path / "none.zfn"), "--out", str(tmp_path / "o")], "no such file"),
        (["render", "nonsense", "--out", str(tmp_path / "o")], "neither a record file"),
        (
            ["render", "42", "--out", str(tmp_path / "o"), "--db", str(tmp_path / "z.db")],
            "no such database",
        ),
        (
            ["render", "42", "--out", str(tmp_path / "o"), "--db", str(tmp_path / "y.db")],
            "no game '42' in the store",
        ),
    ]
    from zfrec.store.db import open_store

    open_store(str(tmp_path / "y.db")).dispose()
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_publish_builds_a_linked_site_and_reuses_artifacts(tmp_path: Path) -> None:
    from zfrec.render.site import publish
    from zfrec.store.db import open_store, session
    from zfrec.store.store import import_file, list_artifacts

    records = tmp_path / "games.zfn"
    games = [simulated(3, seed=21, hands=2), simulated(4, seed=22, hands=1), handmade()]
    records.write_text(dumps(games), encoding="utf-8")
    db = tmp_path / "z.db"
    engine = open_store(str(db))
    with session(engine) as s:
        import_file(s, path=records)
    out = tmp_path / "site"
    result = runner.invoke(app, ["publish", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 game(s), 3 rendered, 0 from the store" in result.output
    index = (out / "index.html").read_text("utf-8")
    links = re.findall(r'href="([^"]+)"', index)
    assert links and not any(link.startswith(("/", "http")) for link in links)
    for page in [out / "index.html", *out.glob("games/*/index.html"), *out.glob("players/*")]:
        for link in re.findall(r'href="([^"#]+)', page.read_text("utf-8")):
            from urllib.parse import unquote

            assert (page.parent / unquote(link)).exists(), (page, link)
    assert "王芳" in index and "sortable" in index
    assert len(list((out / "players").iterdir())) == len({*games[0].players, *games[1].players}) + 3
    with session(engine) as s:
        stored = list_artifacts(s)
        kinds = {a.kind for a in stored}
        assert kinds == {"replay_html", "chart_svg", "chart_png", "page"}
        cached = [c for _, c in _publish_flags(publish, s)]
    assert cached == [True, True, True]
    engine.dispose()


def _publish_flags(publish: object, s: object) -> list[tuple[int, bool]]:
    flags: list[tuple[int, bool]] = []
    assert callable(publish)
    # as the command publishes: with the solver's marks from SOLVE_CARDS cards left
    done = publish(s, solve_cards=SOLVE_CARDS, on_game=lambda row, c: flags.append((row.id, c)))
    for _ in done:
        pass
    return flags


def test_plays_are_shown_with_the_engines_reading() -> None:
    game = simulated(4, seed=13)
    view = build_game_view(game)
    readings = [
        e.event.combo.describe()
        for _, e in replay(game)
        if isinstance(e, MoveStep) and isinstance(e.event, PlayEvent)
    ]
    shown = [s.trick_log[-1].reading or "" for s in view.hands[0].steps if s.kind == "play"]
    # tens are written as the cards show them: "pair of 10s", "up to 10", never "T"
    assert [r.replace("10", "T") for r in shown] == readings
    assert not any(re.search(r"\bTs?\b", r) for r in shown)
    assert all(s.label == " ".join(_glyphs(s)) for s in view.hands[0].steps if s.kind == "play")


def _glyphs(step: object) -> list[str]:
    from zfrec.games.zhengfen.engine.cards import card_glyph

    log = getattr(step, "trick_log")  # noqa: B009
    return [card_glyph(c) for c in ids(sum(1 << c for c in log[-1].cards))]


def _views_alive() -> int:
    from zfrec.games.zhengfen.pages.views import GameView, HandView, StepView

    return sum(type(o) in (GameView, HandView, StepView) for o in gc.get_objects())


def test_a_rendered_page_lets_go_of_the_view_it_was_given() -> None:
    # Freed by its last reference, not left in a cycle for the garbage collector to find
    # (zfrec publish renders thousands of pages: zfrec.gctuning.collected_after).
    game = simulate_game(SimConfig(4, preset("pagat"), "greedy", 2), 31)
    gc.collect()
    before = _views_alive()
    gc.disable()
    try:
        view = build_game_view(game)
        assert _views_alive() > before
        render_game(view)
        for hand in view.hands:
            render_hand(hand)
        del view, hand
        after = _views_alive()
    finally:
        gc.enable()
    assert after == before
