"""Replay pages in a real browser: Playwright driving Debian's chromium, from file://.

What the page shows at each step is compared with the engine's state, recomputed here straight
from zfrec.replay (not from the renderer's view-model). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.lanes import CHROMIUM  # noqa: F401  (other browser tests import it from here)
from zfrec.games.zhengfen.engine.cards import card_str, ids, points_of
from zfrec.games.zhengfen.engine.game import PlayEvent
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.pages.html import build_game_view, render_game, render_hand
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game, dumps, loads
from zfrec.replay import HandEnd, HandStart, MoveStep, replay

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.usefixtures("chromium")  # skipped without it (tests/lanes.py)


@dataclass
class Expected:
    """What one step must show, from the engine."""

    log: list[tuple[int, str]]  # (seat, "pass" or the cards) in order
    top: str | None  # the reading of the play on top
    counts: list[int]
    points: list[int]


def expected_steps(game: Game, hand_index: int = 0) -> list[Expected]:
    out: list[Expected] = []
    log: list[tuple[int, str]] = []
    top: str | None = None
    trick_over = False
    for state, event in replay(game):
        if isinstance(event, HandStart | MoveStep | HandEnd) and event.hand_index != hand_index:
            continue
        hs = state.hand
        if hs is None:
            continue
        counts = [h.bit_count() for h in hs.hands]
        if isinstance(event, HandStart):
            out.append(Expected([], None, counts, [0] * hs.n))
        elif isinstance(event, MoveStep):
            if trick_over:
                log, top, trick_over = [], None, False
            ev = event.event
            assert ev is not None, "the browser test uses legal records"
            if isinstance(ev, PlayEvent):
                log.append((ev.seat, " ".join(card_str(c) for c in ids(ev.combo.mask))))
                top = ev.combo.describe()
            else:
                log.append((ev.seat, "pass"))
            trick_over = ev.trick_result is not None
            out.append(Expected(list(log), top, counts, [points_of(w) for w in hs.won]))
        elif isinstance(event, HandEnd):
            assert event.result is not None
            points = list(event.result.points)
            out.append(Expected([], None, counts, points))  # the transfer
            out.append(Expected([], None, counts, points))  # the result
    return out


SHOWN = """() => ({
  step: +document.body.dataset.step,
  log: [...document.querySelectorAll('#log .play')].map(e => [
    +e.dataset.seat,
    e.classList.contains('pass') ? 'pass'
      : [...e.querySelectorAll('.card')].map(c => c.dataset.card).join(' ')]),
  top: (document.querySelector('#detail .reading b') || {}).textContent || null,
  counts: [...document.querySelectorAll('#seats .seat')].map(e => +e.dataset.count),
  points: [...document.querySelectorAll('#seats .seat')].map(e => +e.dataset.points),
  hash: location.hash,
})"""


@dataclass
class Opened:
    page: Any
    requests: list[str]
    errors: list[str]
    dialogs: list[str]


def open_page(
    browser: Any,
    path: Path,
    width: int = 1280,
    hash_: str = "",
    ready: str = "#seats .seat[data-count]",
) -> Opened:
    page = browser.new_page(viewport={"width": width, "height": 900})
    opened = Opened(page, [], [], [])
    page.on("request", lambda r: opened.requests.append(r.url))
    page.on("pageerror", lambda e: opened.errors.append(str(e)))

    def console(message: Any) -> None:
        if message.type == "error":
            opened.errors.append(message.text)

    page.on("console", console)

    def dialog(d: Any) -> None:
        opened.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(path.as_uri() + hash_)
    page.wait_for_selector(ready, state="attached")
    return opened


def game_with_notes() -> Game:
    game = simulate_game(SimConfig(4, preset("pagat"), "greedy", 1), 8)
    text = dumps(game).replace("South", "王芳")
    text = re.sub(r"^(\d: [^:]+?)(\s+\d: )", r"\1!? {an idea}\2", text, count=1, flags=re.M)
    [noted] = loads(text)
    return noted


@pytest.mark.slow
def test_stepping_through_a_hand_shows_the_engines_state(browser: Any, tmp_path: Path) -> None:
    game = game_with_notes()
    path = tmp_path / "hand-1.html"
    path.write_text(render_hand(build_game_view(game).hands[0]), encoding="utf-8")
    expected = expected_steps(game)
    opened = open_page(browser, path)
    page = opened.page
    for index, want in enumerate(expected):
        shown = page.evaluate(SHOWN)
        assert shown["step"] == index
        assert shown["hash"] == ("#step=" + str(index) if index else "")
        top = shown["top"] and shown["top"].replace("10", "T")  # tens in prose are "10"
        got = (shown["log"], top, shown["counts"], shown["points"])
        assert got == ([list(x) for x in want.log], want.top, want.counts, want.points), index
        if index + 1 < len(expected):
            page.click("#next")
    assert page.is_disabled("#next")
    transfer = page.evaluate(SHOWN)
    assert transfer["step"] == len(expected) - 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("location.hash = '#step=1'")  # the first move, which has the comment
    page.wait_for_function("document.body.dataset.step === '1'")
    assert "an idea" in page.inner_text("#notes") and "!?" in page.inner_text("#notes")
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
    phone = open_page(browser, path, width=390, hash_="#step=9")
    phone.page.screenshot(path=str(ARTIFACTS / "replay-phone.png"), full_page=True)
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "no sideways scrolling at phone width"
    for o in (opened, phone):
        assert o.errors == []
        assert set(o.requests) == {path.as_uri()}, "the page loads nothing but itself"
        o.page.close()


def test_keyboard_and_links_to_a_step(browser: Any, tmp_path: Path) -> None:
    game = game_with_notes()
    view = build_game_view(game)
    path = tmp_path / "hand-1.html"
    path.write_text(render_hand(view.hands[0]), encoding="utf-8")
    steps = view.hands[0].steps
    opened = open_page(browser, path, hash_="#step=5")
    page = opened.page
    assert page.evaluate(SHOWN)["step"] == 5  # a link points at one move
    page.keyboard.press("ArrowRight")
    assert page.evaluate(SHOWN)["step"] == 6
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(SHOWN)["step"] == 4
    page.keyboard.press("End")
    assert page.evaluate(SHOWN)["step"] == len(steps) - 1
    assert page.evaluate("location.hash") == f"#step={len(steps) - 1}"
    page.keyboard.press("Home")
    assert page.evaluate(SHOWN)["step"] == 0
    page.keyboard.press("Shift+ArrowRight")  # the first move of trick 1
    page.keyboard.press("Shift+ArrowRight")  # the first move of trick 2
    second = next(s.index for s in steps if s.trick == 2)
    assert page.evaluate(SHOWN)["step"] == second
    page.select_option("#jump", label="Transfer")
    assert page.evaluate(SHOWN)["step"] == len(steps) - 2
    page.fill("#slider", "3")
    assert page.evaluate(SHOWN)["step"] == 3
    page.click(f'#moves button[data-step="{second + 1}"]')
    assert page.evaluate(SHOWN)["step"] == second + 1
    assert opened.errors == []
    page.close()


@pytest.mark.slow
def test_seat_view_hides_the_other_hands(browser: Any, tmp_path: Path) -> None:
    game = game_with_notes()
    path = tmp_path / "seat.html"
    path.write_text(render_hand(build_game_view(game, viewer=1).hands[0]), encoding="utf-8")
    source = path.read_text("utf-8")
    opened = open_page(browser, path)
    page = opened.page
    expected = expected_steps(game)
    assert "13 cards hidden" in page.inner_text('#seats .seat[data-seat="0"]')
    for index in range(len(expected)):
        hands = page.evaluate(
            "[...document.querySelectorAll('#seats .seat')].map(e =>"
            " [...e.querySelectorAll('.hand .card')].map(c => c.dataset.card))"
        )
        assert [len(h) for h in hands] == [0, expected[index].counts[1], 0, 0], index
        if index + 1 < len(expected):
            page.keyboard.press("ArrowRight")
    deal = next(e for _, e in replay(game) if isinstance(e, HandStart)).deal
    hidden_hand = " ".join(card_str(c) for c in ids(deal[0]))
    assert hidden_hand not in source and "王芳" in page.inner_text('#seats .seat[data-seat="1"]')
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "replay-seat.png"), full_page=True)
    assert opened.errors == []
    page.close()


@pytest.mark.slow
def test_hostile_text_stays_text(browser: Any, tmp_path: Path) -> None:
    game = simulate_game(SimConfig(3, preset("pagat"), "greedy", 1), 4)
    text = dumps(game).replace("East", "<script>alert(1)</script>")
    text = re.sub(r"^(\d: \S+)", r"\1 {<img src=x onerror=alert(1)>}", text, count=1, flags=re.M)
    [hostile] = loads(text)
    view = build_game_view(hostile)
    replay_path = tmp_path / "hand-1.html"
    replay_path.write_text(render_hand(view.hands[0]), encoding="utf-8")
    game_path = tmp_path / "index.html"
    game_path.write_text(render_game(view), encoding="utf-8")
    opened = open_page(browser, replay_path)
    page = opened.page
    for _ in range(len(view.hands[0].steps)):
        page.keyboard.press("ArrowRight")
    page.evaluate("location.hash = '#step=1'")
    page.wait_for_function("document.body.dataset.step === '1'")
    assert "<img src=x onerror=alert(1)>" in page.inner_text("#notes")
    assert "<script>alert(1)</script>" in page.inner_text("#seats")
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    game_page = open_page(browser, game_path, ready="main")
    assert "<script>alert(1)</script>" in game_page.page.inner_text("body")
    for o in (opened, game_page):
        assert o.dialogs == [] and o.errors == []
        assert set(o.requests) <= {replay_path.as_uri(), game_path.as_uri()}
        o.page.close()


@pytest.mark.slow
def test_published_index_sorts_and_links(browser: Any, tmp_path: Path) -> None:
    from zfrec.render.site import OutputFile, publish
    from zfrec.store.db import open_store, session
    from zfrec.store.store import import_file

    games = [simulate_game(SimConfig(n, preset("pagat"), "greedy", h), 30 + n) for n, h in
             ((3, 3), (4, 1), (5, 2))]  # fmt: skip
    records = tmp_path / "games.zfn"
    records.write_text(dumps(games), encoding="utf-8")
    engine = open_store(str(tmp_path / "z.db"))
    with session(engine) as s:
        import_file(s, path=records)
        for f in publish(s):
            assert isinstance(f, OutputFile)
            target = tmp_path / "site" / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(f.content)
    engine.dispose()
    index = tmp_path / "site" / "index.html"
    opened = open_page(browser, index, ready="#games-table")
    page = opened.page
    hands = (
        "[...document.querySelectorAll('#games-table tbody tr')].map(r => +r.cells[4].textContent)"
    )
    assert page.evaluate(hands) == [3, 1, 2]
    page.click("#games-table th:nth-child(5)")
    assert page.evaluate(hands) == [1, 2, 3]
    page.focus("#games-table th:nth-child(5)")
    page.keyboard.press("Enter")
    assert page.evaluate(hands) == [3, 2, 1]
    page.click("#games-table tbody tr:first-child a")
    page.wait_for_selector("table.data")
    assert page.url.endswith("/games/1/index.html")
    assert page.evaluate("document.querySelectorAll('svg[role=img]').length") == 2
    assert opened.errors == [] and opened.dialogs == []
    assert all(url.startswith("file://") for url in opened.requests)
    page.close()
