"""A published site in Chromium at a phone's size (390×844) and a desktop's (1280×800).

No table is wider than the screen, no chart label is under 9 px, the replay's felt, hand to play
and move list share a phone's screen, autoplay runs and pauses, the one-file viewer shows a
shared hand as its replay page does, the index filters, and no page requests anything but
itself. Screenshots go to test-artifacts/ (publish-*.png).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_publish import renamed, simulated
from tests.test_render_browser import ARTIFACTS, SHOWN, expected_steps
from zfrec.cli import app
from zfrec.record import dumps, load

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
runner = CliRunner()

# Every table's right edge, and the page's own width, against the screen's.
WIDEST = """() => ({
  screen: window.innerWidth,
  page: document.documentElement.scrollWidth,
  tables: [...document.querySelectorAll('table')].filter(t => t.offsetParent !== null)
    .map(t => Math.ceil(Math.max(t.getBoundingClientRect().right, t.scrollWidth))),
})"""
# The size each chart label is drawn at, in CSS pixels: font size times the SVG's scale.
CHART_LABELS = """() => [...document.querySelectorAll('svg.zf-chart text')]
  .filter(t => t.getBBox().width > 0)
  .map(t => { const m = t.getScreenCTM();
    return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); })"""


@dataclass
class Site:
    root: Path
    game: Path  # a four-player game with a Chinese name and a very long one
    broken: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    tmp = tmp_path_factory.mktemp("site")
    long = "Zhang " * 60
    games = [
        renamed(simulated(4, 8, None), ["王芳", long.strip(), "Ann", "Bo"]),
        *load(SAMPLES / "01-annotated-club-night.zfn"),
        *load(SAMPLES / "broken" / "does-not-beat.zfn"),
        simulated(6, 3, 2),
    ]
    records = tmp / "games.zfn"
    records.write_text(dumps(games), encoding="utf-8")
    db = str(tmp / "club.db")
    assert runner.invoke(app, ["import", "--db", db, str(records)]).exit_code == 1  # one broken
    root = tmp / "site"
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(root), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    return Site(root, root / "games" / "1", root / "games" / "3")


@dataclass
class Opened:
    page: Any
    requests: list[str]
    errors: list[str]


def open_page(browser: Any, url: str, size: dict[str, int]) -> Opened:
    page = browser.new_page(viewport=size)
    opened = Opened(page, [], [])
    page.on("request", lambda r: opened.requests.append(r.url))
    page.on("pageerror", lambda e: opened.errors.append(str(e)))
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)

    def dialog(d: Any) -> None:
        opened.errors.append("dialog " + d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(url)
    page.wait_for_load_state("load")
    return opened


def wait_step(page: Any, ok: Callable[[int], bool], seconds: float = 10) -> None:
    """Until the replay's step satisfies `ok` (polled: the pages' policy forbids eval)."""
    deadline = time.monotonic() + seconds
    while True:
        step = page.evaluate("+document.body.dataset.step")
        if ok(step):
            return
        assert time.monotonic() < deadline, f"the replay stayed at step {step}"
        time.sleep(0.05)


def at(i: int) -> Callable[[int], bool]:
    return lambda step: step == i


def only_itself(opened: Opened, url: str) -> None:
    """The page loaded nothing but its own file: no request left it."""
    own = url.split("#")[0]
    assert {r.split("#")[0] for r in opened.requests} == {own}, opened.requests
    assert opened.errors == []


def shot(page: Any, name: str, full: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"publish-{name}.png"), full_page=full)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_table_is_wider_than_the_screen_and_chart_labels_are_9px_or_more(
    browser: Any, site: Site, size: dict[str, int]
) -> None:
    pages = {
        "index": site.root / "index.html",
        "game": site.game / "index.html",
        "replay": site.game / "hand-2.html",
        "result": site.game / "hand-1.html",
        "audit": site.broken / "audit.html",
        "player": next((site.root / "players").glob("zhang-*.html")),
        "analysis": site.root / "games" / "2" / "index.html",
    }
    label = "phone" if size is PHONE else "desktop"
    for name, path in pages.items():
        url = path.as_uri() + ("#step=999" if name == "result" else "")
        opened = open_page(browser, url, size)
        page = opened.page
        if name in ("replay", "result"):
            page.wait_for_selector("#seats .seat[data-count]", state="attached")
        widths = page.evaluate(WIDEST)
        assert widths["page"] <= widths["screen"], (name, widths)
        assert all(w <= widths["screen"] for w in widths["tables"]), (name, widths)
        if name == "game":
            sizes = page.evaluate(CHART_LABELS)
            assert len(sizes) > 20 and min(sizes) >= 9, (label, min(sizes))
            assert page.evaluate("document.querySelectorAll('svg.zf-chart').length") == 2
        if name in ("index", "game", "replay", "audit"):
            shot(page, f"{name}-{label}", full=name != "replay")
        only_itself(opened, url)
        page.close()


# Per games-table row: the table's right edge against its container's content edge, and every
# separator of the Players cell against the character before it (the same line, or a line that
# starts with a comma).
SEPARATORS = """() => {
  const table = document.getElementById('games-table');
  const box = table.parentElement.getBoundingClientRect();
  const pad = parseFloat(getComputedStyle(table.parentElement).paddingRight);
  const orphans = [];
  for (const cell of table.querySelectorAll('td.players')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let prev = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
        const rect = r.getClientRects()[0];
        if (!rect || !node.data[i].trim()) continue;
        if (node.data[i] === ',' && prev && Math.abs(prev.top - rect.top) > 2)
          orphans.push(cell.textContent);
        prev = rect;
      }
    }
  }
  return {right: table.getBoundingClientRect().right, content: box.right - pad, orphans};
}"""


def test_the_games_table_keeps_inside_the_page_and_names_keep_their_commas(
    browser: Any, tmp_path: Path
) -> None:
    """The site of every sample, at 1280×800: the games table stood 17 px out of the page's
    column (its cells did not wrap) and squeezed the players to one a line, a comma starting
    the next."""
    db = str(tmp_path / "samples.db")
    runner.invoke(app, ["import", "--db", db, str(SAMPLES)])
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    for size in (DESKTOP, PHONE):
        opened = open_page(browser, (tmp_path / "site" / "index.html").as_uri(), size)
        found = opened.page.evaluate(SEPARATORS)
        assert found["right"] <= found["content"] + 1, (size, found)
        assert found["orphans"] == [], (size, found["orphans"])
        opened.page.close()


def test_a_phone_shows_the_felt_the_hand_to_play_and_the_moves_together(
    browser: Any, site: Site
) -> None:
    url = site.game.joinpath("hand-1.html").as_uri() + "#step=6"
    opened = open_page(browser, url, PHONE)
    page = opened.page
    wait_step(page, lambda k: k == 6)
    boxes = page.evaluate(
        """() => Object.fromEntries(['felt', 'tohand', 'moves-panel', 'seats'].map(id => {
             const r = document.getElementById(id).getBoundingClientRect();
             return [id, [r.top, r.bottom, r.height]]; }).concat([['controls',
             document.querySelector('.controls').getBoundingClientRect().top]]))"""
    )
    screen_end = boxes["controls"]  # the controls stay at the foot of the screen
    assert boxes["felt"][1] <= screen_end and boxes["tohand"][1] <= screen_end, boxes
    assert boxes["moves-panel"][0] + 40 <= screen_end, boxes
    current = page.evaluate(
        "(() => { const r = document.querySelector('#moves .mv.current').getBoundingClientRect();"
        " return [r.top, r.bottom]; })()"
    )
    assert boxes["moves-panel"][0] <= current[0] and current[1] <= screen_end, (current, boxes)
    # the hand to play is the seat to act's, in full; the seats around the felt are chips
    to_act = page.evaluate("document.querySelector('#seats .seat.to-act').dataset.seat")
    assert page.evaluate("document.getElementById('tohand').dataset.seat") == to_act
    count = int(
        page.evaluate(
            f"document.querySelector('#seats .seat[data-seat=\"{to_act}\"]').dataset.count"
        )
    )
    assert page.evaluate("document.querySelectorAll('#tohand .card').length") == count
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#seats .hand')).display") == "none"
    )
    # the notes at this move are one tap away
    assert not page.is_visible("#notes-body")
    page.click("#tab-notes")
    assert page.is_visible("#notes-body") and not page.is_visible("#moves")
    # tapping a seat's name shows that hand below the felt
    page.click('#seats .seat[data-seat="2"] .name')
    assert page.evaluate("document.getElementById('tohand').dataset.seat") == "2"
    shot(page, "replay-phone")
    only_itself(opened, url)
    page.close()


def test_seats_sit_around_the_felt_and_the_previous_trick_is_one_tap_away(
    browser: Any, site: Site
) -> None:
    path = site.game / "hand-1.html"
    [game] = [g for g in load(SAMPLES / "01-annotated-club-night.zfn")]
    opened = open_page(browser, path.as_uri() + "#step=0", DESKTOP)
    page = opened.page
    page.wait_for_selector("#seats .seat[data-count]", state="attached")
    box = "const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
    felt = page.evaluate(f"(e => {{ {box} }})(document.getElementById('felt'))")
    seats = page.evaluate(
        "[...document.querySelectorAll('#seats .seat')]"
        f".map(e => [e.dataset.pos, (() => {{ {box} }})()])"
    )
    where = {pos: edges for pos, edges in seats}
    assert where["b"][1] >= felt[3] and where["t"][3] <= felt[1]  # below and above the felt
    assert where["l"][2] <= felt[0] and where["r"][0] >= felt[2]  # left and right of it
    assert page.is_hidden("#prevtrick")  # no trick has ended yet
    # the step after the first trick ends: the previous trick shows what that step showed
    steps = page.evaluate("document.querySelectorAll('#moves button').length")
    ended = None
    for i in range(steps):
        page.evaluate(f"location.hash = '#step={i}'")
        wait_step(page, at(i))
        if page.is_visible("#detail .won"):
            ended = page.evaluate(SHOWN)["log"]
            break
    assert ended
    page.keyboard.press("ArrowRight")
    page.click("#prevtrick")
    shown = page.evaluate(
        "[...document.querySelectorAll('#prevbox .play')].map(e => [+e.dataset.seat,"
        " e.classList.contains('pass') ? 'pass' : [...e.querySelectorAll('.card')]"
        ".map(c => c.dataset.card).join(' ')])"
    )
    assert shown == ended and page.is_visible("#prevbox .won")
    page.click("#prevtrick")
    assert page.is_hidden("#prevbox")
    assert game.players[0] in page.inner_text('#seats .seat[data-pos="b"]')
    shot(page, "replay-desktop")
    only_itself(opened, path.as_uri())
    page.close()


def test_autoplay_runs_to_the_end_and_pauses(browser: Any, site: Site) -> None:
    path = site.root / "games" / "4" / "hand-1.html"
    opened = open_page(browser, path.as_uri(), DESKTOP)
    page = opened.page
    page.wait_for_selector("#seats .seat[data-count]", state="attached")
    last = page.evaluate("document.querySelectorAll('#moves button').length") - 1
    page.select_option("#speed", "8")
    page.click("#play")
    assert page.get_attribute("#play", "aria-pressed") == "true"
    wait_step(page, lambda k: k >= 3, 20)
    page.click("#play")  # pause
    paused = page.evaluate("+document.body.dataset.step")
    page.wait_for_timeout(800)  # several steps' time at 8×
    assert page.evaluate("+document.body.dataset.step") == paused
    assert page.get_attribute("#play", "aria-pressed") == "false"
    page.keyboard.press("Space")  # the keyboard plays too
    wait_step(page, lambda k: k == last, 60)
    deadline = time.monotonic() + 10
    while page.get_attribute("#play", "aria-pressed") != "false" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert page.get_attribute("#play", "aria-pressed") == "false"
    assert page.evaluate("location.hash") == f"#step={last}"
    only_itself(opened, path.as_uri())
    page.close()


def test_the_viewer_shows_a_shared_hand_as_its_replay_page_does(browser: Any, site: Site) -> None:
    [game] = load(SAMPLES / "01-annotated-club-night.zfn")
    path = site.root / "games" / "2" / "hand-1.html"
    opened = open_page(browser, path.as_uri(), PHONE)
    page = opened.page
    page.wait_for_selector("#share:not([hidden])", state="attached")
    link = page.get_attribute("#share", "href")
    assert link and link.startswith("../../viewer.html#z=")
    expected = expected_steps(game)
    replayed = []
    for i in (0, 5, 17, len(expected) - 1):
        page.evaluate(f"location.hash = '#step={i}'")
        wait_step(page, at(i))
        replayed.append(
            page.evaluate(SHOWN) | {"hash": None, "headline": page.inner_text("#headline")}
        )
    only_itself(opened, path.as_uri())
    page.close()
    # the viewer page, from a copy elsewhere: the link carries the whole hand
    alone = site.root.parent / "elsewhere"
    alone.mkdir(exist_ok=True)
    copy = alone / "viewer.html"
    copy.write_bytes((site.root / "viewer.html").read_bytes())
    url = copy.as_uri() + link[len("../../viewer.html") :]
    viewer = open_page(browser, url, PHONE)
    vpage = viewer.page
    vpage.wait_for_selector("#seats .seat[data-count]", state="attached")
    assert "Friday club night" in vpage.inner_text("#viewer-title")
    for i, want in zip((0, 5, 17, len(expected) - 1), replayed, strict=True):
        vpage.evaluate(f"location.hash = location.hash.replace(/&step=\\d+$/, '') + '&step={i}'")
        wait_step(vpage, at(i))
        got = vpage.evaluate(SHOWN) | {"hash": None, "headline": vpage.inner_text("#headline")}
        assert got == want, i
    vpage.click("#prev")
    assert re.search(r"^#z=[A-Za-z0-9_-]+&step=\d+$", vpage.evaluate("location.hash"))
    shot(vpage, "viewer-phone")
    only_itself(viewer, url)
    vpage.close()
    wide = open_page(browser, url, DESKTOP)
    wide.page.wait_for_selector("#seats .seat[data-count]", state="attached")
    assert wide.page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    shot(wide.page, "viewer-desktop")
    wide.page.close()
    # a damaged link: a message, nothing run, nothing drawn
    bad = open_page(browser, copy.as_uri() + "#z=AAAAbm90IGEgaGFuZA", PHONE)
    bad.page.wait_for_selector("#viewer-error:not([hidden])")
    assert "does not hold a hand" in bad.page.inner_text("#viewer-error")
    assert bad.page.is_hidden("#board")
    crafted = "#j=" + _b64('{"v":2,"players":["<img src=x onerror=alert(1)>","B","C"],"plays":[],'
                          '"steps":[{"kind":"deal","headline":"<b>x</b>","log":[],"hands":["0","1","2"],'
                          '"counts":[1,1,1],"places":[null,null,null],"captured":["","",""],'
                          '"points":[0,0,0],"totals":[0,0,0]}]}')  # fmt: skip
    evil = open_page(browser, copy.as_uri() + crafted, PHONE)
    evil.page.wait_for_selector("#seats .seat[data-count]", state="attached")
    assert "<img src=x onerror=alert(1)>" in evil.page.inner_text("#seats")
    assert evil.page.evaluate("document.querySelectorAll('img, b').length") == 0
    for o in (bad, evil):
        assert o.errors == []
        o.page.close()


def _b64(text: str) -> str:
    import base64

    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def test_the_index_searches_and_filters(browser: Any, site: Site) -> None:
    url = site.root.joinpath("index.html").as_uri()
    opened = open_page(browser, url, PHONE)
    page = opened.page
    rows = "[...document.querySelectorAll('#games-table tbody tr')].filter(r => !r.hidden).length"
    assert page.evaluate(rows) == 4
    page.fill("#f-text", "王芳")
    assert page.evaluate(rows) == 2  # the four-player game and the club night
    page.fill("#f-text", "#3")  # a stored game's number, shown beside its title
    assert page.evaluate(rows) == 1
    assert page.inner_text("#games-table tbody tr:not([hidden]) .gameno") == "#3"
    page.fill("#f-text", "#")  # a number's part is not the number
    assert page.evaluate(rows) == 0
    page.fill("#f-text", "")
    page.check("#f-invalid")
    assert page.evaluate(rows) == 1 and "does not beat" in page.inner_text(
        "#games-table tbody tr:not([hidden])"
    )
    page.uncheck("#f-invalid")
    page.check("#f-dispute")
    assert page.evaluate(rows) == 1 and "Friday club night" in page.inner_text(
        "#games-table tbody tr:not([hidden])"
    )
    page.uncheck("#f-dispute")
    page.select_option("#f-player", "ann")
    assert page.evaluate(rows) == 3
    page.fill("#f-from", "2026-03-01")
    assert page.evaluate(rows) == 1  # only the club night carries a date
    assert "1 of 4 games" in page.inner_text("#f-count")
    only_itself(opened, url)
    page.close()


# --- issue 27: links to a step, the previous trick, sorting and standings on a phone --------


def test_a_link_to_a_step_and_its_label_and_the_share_link_agree(browser: Any, site: Site) -> None:
    """`#step=40` is the step labelled "step 40" (steps count from the deal, step 0), its move
    is the current one in the list, and Share carries it: the viewer opens at that step."""
    path = site.root / "games" / "2" / "hand-1.html"
    url = path.as_uri() + "#step=40"
    opened = open_page(browser, url, DESKTOP)
    page = opened.page
    wait_step(page, at(40))
    last = page.evaluate("document.querySelectorAll('#moves button').length") - 1
    assert page.inner_text("#pos") == f"step 40 / {last}"
    assert page.get_attribute("#moves .mv.current", "data-step") == "40"
    assert page.evaluate("location.hash") == "#step=40"
    page.wait_for_selector("#share:not([hidden])", state="attached")
    assert (page.get_attribute("#share", "href") or "").endswith("&step=40")
    page.keyboard.press("ArrowRight")
    wait_step(page, at(41))
    link = page.get_attribute("#share", "href") or ""
    assert link.endswith("&step=41") and page.inner_text("#pos").startswith("step 41 /")
    assert page.evaluate("location.hash") == "#step=41"
    headline = page.inner_text("#headline")
    page.keyboard.press("Home")
    wait_step(page, at(0))
    assert page.inner_text("#pos") == f"step 0 / {last}"
    assert "&step=" not in (page.get_attribute("#share", "href") or "&step=")
    only_itself(opened, url)
    page.close()
    shared = (path.parent / link.split("#")[0]).resolve().as_uri() + "#" + link.split("#", 1)[1]
    viewer = open_page(browser, shared, DESKTOP)
    viewer.page.wait_for_selector("#seats .seat[data-count]", state="attached")
    wait_step(viewer.page, at(41))
    assert viewer.page.inner_text("#headline") == headline
    assert viewer.page.inner_text("#pos").startswith("step 41 /")
    viewer.page.close()


def test_the_previous_trick_is_clear_of_the_controls_at_1280x800(browser: Any, site: Site) -> None:
    path = site.root / "games" / "2" / "hand-1.html"
    opened = open_page(browser, path.as_uri(), DESKTOP)
    page = opened.page
    page.wait_for_selector("#seats .seat[data-count]", state="attached")
    steps = page.evaluate("document.querySelectorAll('#moves button').length")
    for i in range(steps):  # the first step with a previous trick: the club night's long one
        page.evaluate(f"location.hash = '#step={i}'")
        wait_step(page, at(i))
        if page.is_visible("#prevtrick"):
            break
    page.click("#prevtrick")
    page.wait_for_selector("#prevbox .won", state="visible")  # drawn and scrolled to
    boxes = page.evaluate(
        """() => ({
          controls: document.querySelector('.controls').getBoundingClientRect().top,
          rows: [...document.querySelectorAll('#prevbox .play, #prevbox .won')].map(e => {
            const r = e.getBoundingClientRect(); return [r.top, r.bottom]; }),
        })"""
    )
    assert len(boxes["rows"]) >= 4
    for top, bottom in boxes["rows"]:  # every row of the previous trick is on the screen
        assert top >= 0 and bottom <= boxes["controls"], boxes
    shot(page, "prevtrick-desktop")
    only_itself(opened, path.as_uri())
    page.close()


ROWS = """sel => [...document.querySelectorAll(sel + ' tbody tr')].filter(r => !r.hidden)
  .map(r => [...r.cells].map(c => c.textContent.trim()))"""


def test_a_phone_sorts_the_games_with_a_menu(browser: Any, site: Site) -> None:
    url = site.root.joinpath("index.html").as_uri()
    opened = open_page(browser, url, PHONE)
    page = opened.page
    # each row is a card: the headings are there for screen readers only, a pixel wide
    assert (
        page.evaluate("document.querySelector('#games-table thead').getBoundingClientRect().width")
        <= 1
    )
    menu = "#sortby-games-table"
    assert page.is_visible(menu)
    box = page.evaluate(f"document.querySelector('{menu}').getBoundingClientRect().right")
    assert box <= PHONE["width"]
    page.select_option(menu, label="Hands")
    hands = [int(r[4]) for r in page.evaluate(ROWS, "#games-table")]
    assert hands == sorted(hands) and len(set(hands)) > 1
    assert page.get_attribute("#games-table th:nth-child(5)", "aria-sort") == "ascending"
    page.click(".sortbar:has(#sortby-games-table) .order")
    hands = [int(r[4]) for r in page.evaluate(ROWS, "#games-table")]
    assert hands == sorted(hands, reverse=True)
    page.select_option(menu, label="Game")
    ids = page.evaluate(
        "[...document.querySelectorAll('#games-table tbody tr')].map(r => +r.cells[1].dataset.sort)"
    )
    assert ids == sorted(ids)
    shot(page, "index-sort-phone")
    only_itself(opened, url)
    page.close()


def _standings(page: Any) -> dict[str, list[str]]:
    """The standings as shown, less the Points column: the Players table's columns."""
    return {r[0]: r[1:4] + r[5:] for r in page.evaluate(ROWS, "#standings-table")}


def _stats(stats: Any) -> dict[str, list[str]]:
    """What the Players table shows for these PlayerStats (index.html.j2's formats)."""
    return {
        p.name: [str(p.games), str(p.wins), str(p.hands), f"{p.mean_points_per_hand:.1f}",
                 f"{100 * p.first_out_rate:.0f}%", f"{100 * p.last_rate:.0f}%"]
        for p in stats
    }  # fmt: skip


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_index_shows_standings_of_the_games_the_filters_show(
    browser: Any, site: Site, tmp_path: Path, size: dict[str, int]
) -> None:
    from zfrec.store.db import open_store, session
    from zfrec.store.store import export_game, import_file, player_stats

    url = site.root.joinpath("index.html").as_uri()
    opened = open_page(browser, url, size)
    page = opened.page
    page.click("#standings summary")
    # every game shown: the standings are the Players table, player for player
    every = _standings(page)
    players = {r[0]: r[1:] for r in page.evaluate(ROWS, "#players-table")}
    assert every == players
    assert "4 games" in page.inner_text("#standings summary")
    # filtered: the standings of the games shown, as the store counts them over those alone
    page.select_option("#f-player", "ann")
    shown = page.evaluate(
        "[...document.querySelectorAll('#games-table tbody tr')].filter(r => !r.hidden)"
        ".map(r => +r.cells[1].dataset.sort)"
    )
    assert len(shown) == 3 and "3 games" in page.inner_text("#standings summary")
    records = tmp_path / "shown.json"
    with session(open_store(str(site.root.parent / "club.db"), create=False)) as s:
        texts = [export_game(s, game_id=i, format="zfn") for i in shown]
    records = tmp_path / "shown.zfn"
    records.write_text("\n".join(texts), encoding="utf-8")
    engine = open_store(str(tmp_path / "shown.db"))
    with session(engine) as s:
        import_file(s, path=records)
        want = _stats(player_stats(s))
    engine.dispose()
    got = _standings(page)
    assert got == want and got != every
    ranked = [(int(v[1]), float(v[3])) for v in got.values()]
    assert ranked == sorted(ranked, reverse=True)  # wins first, then points per hand
    page.select_option("#f-player", "")
    assert _standings(page) == players
    label = "phone" if size is PHONE else "desktop"
    page.select_option("#f-player", "ann")
    page.evaluate("document.getElementById('standings').scrollIntoView()")
    shot(page, f"index-standings-{label}")
    widths = page.evaluate(WIDEST)
    assert widths["page"] <= widths["screen"], widths
    only_itself(opened, url)
    page.close()
