"""Sheng ji's pages in Debian's chromium (Playwright, file://), at 390×844 and 1280×800: a
round's replay stepped through (the trick on the felt against the record), a failed throw, a
seat's view, the match page and the index of a site holding both games. On every page: no
element wider than the screen, no text under 9 px, no console error. Screenshots go to
test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_render_browser import ARTIFACTS
from zfrec.cli import app
from zfrec.games.shengji.cards import size as card_count
from zfrec.games.shengji.kind import match_of
from zfrec.record import load

SJ = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
ZF = SJ.parent / "01-annotated-club-night.zfn"
SIZES = ((390, 844), (1280, 800))
pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

WIDE = """() => { const W = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect(); return r.width > 0 && r.right > W + 1; })
  .map(e => e.tagName + '.' + e.className).slice(0, 5); }"""
SMALL = """() => [...document.querySelectorAll('body *')].filter(e =>
  [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) &&
  e.getClientRects().length && parseFloat(getComputedStyle(e).fontSize) < 9)
  .map(e => e.tagName + '.' + e.className + ' ' + getComputedStyle(e).fontSize).slice(0, 5)"""
# chart labels: the SVG's font size times its scale
SVG_SMALL = """() => [...document.querySelectorAll('svg.zf-chart')].filter(s => {
  const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
  return 10 * scale < 9; }).length"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("sjsite")
    db = str(tmp / "club.db")
    runner = CliRunner()
    files = [str(ZF), str(SJ / "01-bashifen-match.zfn"), str(SJ / "03-failed-throw.zfn")]
    assert runner.invoke(app, ["import", "--db", db, *files]).exit_code == 0
    out = tmp / "site"
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _game_dir(site: Path, sample: str) -> Path:
    """The sample's folder: the one with as many round replays as the sample has rounds (the
    two samples the site holds differ in that)."""
    rounds = len(match_of(next(iter(load(SJ / sample)))).rounds)
    for d in sorted((site / "games").iterdir()):
        if len(list(d.glob("round-*.html"))) == rounds:
            return d
    raise AssertionError(f"no game folder for {sample}")


def _open(browser: Any, url: str, size: tuple[int, int]) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    # a replay draws its step once its script has run: wait for that step (the address's or
    # the deal), not a fixed time; the other pages have nothing drawn after their load
    if page.locator("#sj-data").count():
        step = url.split("#step=")[1] if "#step=" in url else "0"
        page.wait_for_function(f"document.body.dataset.step === '{step}'")
    return page, errors


def _check(page: Any, errors: list[str], shot: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{shot}.png"), full_page=True)
    assert page.evaluate(WIDE) == [], shot
    assert page.evaluate(SMALL) == [], shot
    assert page.evaluate(SVG_SMALL) == 0, shot
    assert errors == [], shot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_rounds_replay_step_by_step(browser: Any, site: Path, size: tuple[int, int]) -> None:
    folder = _game_dir(site, "03-failed-throw.zfn")
    match = match_of(next(iter(load(SJ / "03-failed-throw.zfn"))))
    rnd = match.rounds[0]
    page, errors = _open(browser, (folder / "round-1.html").as_uri(), size)
    _check(page, errors, f"sj-round-{size[0]}")
    step = 0
    for t, trick in enumerate(rnd.tricks, 1):
        for turn, move in enumerate(trick.moves, 1):
            step += 1
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.body.dataset.step") == str(step)
            plays = page.locator("#log .play")
            assert plays.count() == turn
            cards = plays.nth(turn - 1).locator(".units:not(.attempt) .card")
            assert cards.count() == card_count(move.played)
            assert page.locator("#where").inner_text().lower().endswith(f"trick {t}")
            if move.failed:
                assert plays.nth(turn - 1).locator(".throw .attempt").count() == 1
                page.screenshot(path=str(ARTIFACTS / f"sj-failed-throw-{size[0]}.png"))
            # trump and rank are always on the felt
            assert page.locator(".sjstatus .trumpchip").is_visible()
    page.keyboard.press("End")
    assert page.locator(".kitty .card").count() == 8  # the kitty revealed at the end
    _check(page, errors, f"sj-round-end-{size[0]}")
    page.keyboard.press("Home")
    assert page.evaluate("document.body.dataset.step") == "0"
    page.close()


def test_a_seats_view_and_the_previous_trick(browser: Any, site: Path) -> None:
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(
        browser, (folder / "round-1.html").as_uri() + "?seat=2#step=6", (1280, 800)
    )
    seats = page.locator("#seats .seat")
    assert seats.count() == 4
    assert page.locator('#seats .seat[data-pos="b"]').get_attribute("data-seat") == "1"
    shown = [seats.nth(i).locator(".hand .card").count() for i in range(4)]
    assert [n > 0 for n in shown] == [False, True, False, False]
    # partners face each other: seat 4 (index 3) sits at the top in seat 2's view
    assert page.locator('#seats .seat[data-pos="t"]').get_attribute("data-seat") == "3"
    page.click("#prevtrick")
    assert page.locator("#prevbox .play").count() == 4
    _check(page, errors, "sj-seat-view-1280")
    # the "As …" menu goes to another seat's view, kept in the address at the same step
    with page.expect_navigation():
        page.select_option("#viewas", "3")
    assert "?seat=4#step=6" in page.url
    assert page.locator('#seats .seat[data-pos="b"]').get_attribute("data-seat") == "3"
    page.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_seats_view_shows_its_own_hand_clear_of_the_controls(
    browser: Any, site: Path, size: tuple[int, int]
) -> None:
    """In seat 2's view the hand panel is seat 2's own hand, face up, whoever is to play, and
    it lies on the screen above the sticky controls at both sizes (on a laptop the viewer's
    seat, at the bottom of the table, can lie under them)."""
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(browser, (folder / "round-1.html").as_uri() + "?seat=2#step=6", size)
    for _ in range(4):  # four steps on: other seats are to play at some of them
        panel = page.locator("#tohand")
        assert panel.get_attribute("data-seat") == "1"
        assert "Hand of" in panel.inner_text()
        assert panel.locator(".card").count() > 0
        assert panel.locator(".back").count() == 0
        top, bottom = page.evaluate(
            """() => { const r = document.getElementById('tohand').getBoundingClientRect();
              return [r.top, r.bottom]; }"""
        )
        controls = page.evaluate("document.querySelector('.controls').getBoundingClientRect().top")
        assert top >= 0 and bottom <= controls, (size, top, bottom, controls)
        page.keyboard.press("ArrowRight")
    _check(page, errors, f"sj-seat-own-hand-{size[0]}")
    # the whole table's view keeps the hand of the seat to play, on a phone only
    page.goto((folder / "round-1.html").as_uri() + "#step=6")
    page.wait_for_function("document.body.dataset.step === '6'")
    assert page.locator("#tohand").is_visible() == (size[0] < 900)
    page.keyboard.press("End")  # no seat to play at the result: no empty panel
    assert not page.locator("#tohand").is_visible()
    page.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_match_page_and_the_index(browser: Any, site: Path, size: tuple[int, int]) -> None:
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(browser, (folder / "index.html").as_uri(), size)
    assert page.locator("svg.zf-chart").count() == 2
    _check(page, errors, f"sj-game-{size[0]}")
    page.close()
    for name in ("index.html", "index-shengji.html"):
        page, errors = _open(browser, (site / name).as_uri(), size)
        _check(page, errors, f"sj-{name[:-5]}-{size[0]}")
        page.fill("#f-text", "李娜")
        count = page.locator("#f-count").inner_text()
        assert count.startswith("2 of") or count == "2 games", count
        page.close()


def test_links_keys_and_a_swipe_drive_the_steps(browser: Any, site: Path) -> None:
    folder = _game_dir(site, "01-bashifen-match.zfn")
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((folder / "round-2.html").as_uri() + "#step=9")
    assert page.evaluate("document.body.dataset.step") == "9"
    assert page.locator("#pos").inner_text() == "step 9 / " + str(
        page.evaluate("document.querySelectorAll('#moves .mv').length") - 1
    )
    assert page.get_attribute("#share", "href") == "#step=9"
    page.keyboard.press("Shift+ArrowRight")  # the next trick's first play
    assert page.locator("#where").inner_text().lower().endswith("trick 4")
    swipe = """dx => { const b = document.getElementById('board');
      const t = (x) => new Touch({identifier: 1, target: b, clientX: x, clientY: 300});
      b.dispatchEvent(new TouchEvent('touchstart', {touches: [t(300)], changedTouches: [t(300)]}));
      b.dispatchEvent(new TouchEvent('touchend', {touches: [],
                                                  changedTouches: [t(300 + dx)]})); }"""
    before = int(page.evaluate("document.body.dataset.step"))
    page.evaluate(swipe, -120)  # a swipe to the left: the next step
    assert int(page.evaluate("document.body.dataset.step")) == before + 1
    page.evaluate(swipe, 120)
    assert int(page.evaluate("document.body.dataset.step")) == before
    assert errors == []
    context.close()


# the current move's row, the move list's box and the top of the sticky controls
MOVE_BOXES = """() => {
  const c = document.querySelector('#moves .mv.current').getBoundingClientRect();
  const l = document.getElementById('moves').getBoundingClientRect();
  return {top: c.top, bottom: c.bottom, list: l.top, controls:
          document.querySelector('.controls').getBoundingClientRect().top}; }"""


def test_on_a_phone_the_current_move_is_clear_of_the_controls(browser: Any, site: Path) -> None:
    """As on Zheng Fen's pages, the move list takes the height left above the sticky controls,
    however tall the hand to play above it is at the step: the current move is never under
    them (it was, half hidden, on a phone). Where the felt and the hand leave no room (a trick
    of pairs at its end), the list keeps its least height below and the page scrolls."""
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(browser, (folder / "round-1.html").as_uri(), (390, 844))
    last = page.evaluate("document.querySelectorAll('#moves .mv').length") - 1
    roomy = 0
    for step in range(last + 1):
        page.evaluate(f"location.hash = '#step={step}'")
        assert page.evaluate("document.body.dataset.step") == str(step)
        box = page.evaluate(MOVE_BOXES)
        if box["list"] + 72 <= box["controls"]:  # room for the list above the controls
            roomy += 1
            assert box["list"] <= box["top"] and box["bottom"] <= box["controls"] + 1, (step, box)
    assert roomy > last // 2
    page.evaluate(f"location.hash = '#step={last}'")
    page.screenshot(path=str(ARTIFACTS / "sj-phone-current-move-390.png"))
    # after "At this move" and back to the moves, the current move is still in view
    page.click("#tab-notes")
    page.click("#tab-moves")
    box = page.evaluate(MOVE_BOXES)
    assert box["list"] <= box["top"] and box["bottom"] <= box["controls"] + 1, box
    assert errors == []
    page.close()


ROWS = """sel => [...document.querySelectorAll(sel + ' tbody tr')].filter(r => !r.hidden)
  .map(r => [...r.cells].map(c => c.textContent.trim()))"""


def test_the_standings_of_a_site_of_both_games_are_zheng_fens(browser: Any, site: Path) -> None:
    """The whole index's standings add up Zheng Fen's measures over the Zheng Fen games shown,
    as its Players table does: a Sheng ji match counted no game or win there (it did: the
    standings said "3 games" and gave Ann two wins the Players table did not)."""
    page, errors = _open(browser, (site / "index.html").as_uri(), (1280, 800))
    page.click("#standings summary")
    standings = {r[0]: r[1:4] + r[5:] for r in page.evaluate(ROWS, "#standings-table")}
    players = {r[0]: r[1:] for r in page.evaluate(ROWS, "#players-table")}
    assert standings == players
    assert set(players) == {"王芳", "Bo Li", "Ann", "Dieter"}  # the Zheng Fen game's seats
    summary = page.inner_text("#standings summary")
    assert "Zheng Fen" in summary and "1 game shown" in summary, summary
    assert page.inner_text("h2#players") == "Zheng Fen: players"
    # a filter that shows only Sheng ji matches leaves the standings empty
    page.fill("#f-text", "李娜")
    assert page.evaluate(ROWS, "#standings-table") == []
    assert "0 games shown" in page.inner_text("#standings summary")
    assert errors == []
    page.close()


def test_a_player_of_both_games_has_each_games_measures(browser: Any, site: Path) -> None:
    """Ann played the Zheng Fen game and two Sheng ji matches: her page's summary counts her
    games and wins over all three, and her hands and their rates over Zheng Fen's alone, said
    as such (it said "3 games · 2 wins · 1 hand")."""
    from zfrec.render.site import player_href

    page, errors = _open(browser, (site / player_href("Ann")).as_uri(), (390, 844))
    _check(page, errors, "sj-player-both-390")
    meta = page.inner_text("header .meta")
    assert meta.startswith("3 games · ") and "1 Zheng Fen hand" in meta, meta
    stats = dict(page.evaluate(ROWS, "table.stats"))
    assert stats["Games"] == "3"
    assert stats["Zheng Fen games"] == "1" and stats["Zheng Fen wins"].startswith("0")
    assert stats["Hands"] == "1"
    page.close()


def test_a_costly_play_says_what_it_cost(browser: Any, site: Path) -> None:
    """The solver's mark is explained at its move: the points and the totals (the page's data,
    checked against the solver in tests/test_sj_pages.py), in "At this move"."""
    import json

    folder = _game_dir(site, "01-bashifen-match.zfn")
    for html in sorted(folder.glob("round-*.html")):
        text = html.read_text(encoding="utf-8")
        data = json.loads(text.split('id="sj-data">', 1)[1].split("</script>", 1)[0])
        marked = [i for i, s in enumerate(data["steps"]) if s.get("mark")]
        if marked:
            break
    else:
        raise AssertionError("no round with a mark")
    step = marked[0]
    page, errors = _open(browser, html.as_uri() + f"#step={step}", (1280, 800))
    note = page.inner_text("#notes-body .k-cost")
    assert note == data["steps"][step]["mark_note"] and "points" in note, note
    assert page.inner_text("#moves .mv.current .k-cost") == data["steps"][step]["mark"]
    page.screenshot(path=str(ARTIFACTS / "sj-cost-note-1280.png"))
    assert errors == []
    page.close()


def test_a_seats_view_is_kept_from_round_to_round(browser: Any, site: Path) -> None:
    """The link "Round 2 →" from seat 2's view (`?seat=2`) opens round 2 in seat 2's view; it opened
    every hand."""
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(browser, (folder / "round-1.html").as_uri() + "?seat=2", (1280, 800))
    with page.expect_navigation():
        page.click("a[rel=next]")
    assert page.url.endswith("round-2.html?seat=2"), page.url
    assert page.locator('#seats .seat[data-pos="b"]').get_attribute("data-seat") == "1"
    with page.expect_navigation():
        page.click("a[rel=prev]")
    assert page.url.endswith("round-1.html?seat=2"), page.url
    # the full page's links stay as they were
    page.goto((folder / "round-1.html").as_uri())
    assert page.get_attribute("a[rel=next]", "href") == "round-2.html"
    assert errors == []
    page.close()


GAME_CELLS = """sel => [...document.querySelectorAll(sel + ' tbody tr')]
  .map(r => [r.cells[1].querySelector('a').textContent.trim(),
             r.cells[1].querySelector('.badge.kind') ? r.cells[1].querySelector('.badge.kind')
               .textContent : null])"""


def test_the_whole_index_says_which_game_each_row_is(browser: Any, site: Path) -> None:
    """In a site of both games, the whole index tags each game with its kind (a Sheng ji match
    and a Zheng Fen game of one club night had the same title and nothing to tell them apart);
    a game's own index, where every row is of one kind, does not."""
    for size in SIZES:
        page, errors = _open(browser, (site / "index.html").as_uri(), size)
        cells = page.evaluate(GAME_CELLS, "#games-table")
        kinds = [kind for _, kind in cells]
        assert sorted(map(str, kinds)) == ["Sheng ji", "Sheng ji", "Zheng Fen"], cells
        _check(page, errors, f"sj-index-kinds-{size[0]}")
        page.close()
    page, errors = _open(browser, (site / "index-shengji.html").as_uri(), (1280, 800))
    assert [k for _, k in page.evaluate(GAME_CELLS, "#games-table")] == [None, None]
    page.close()


HEADS = """() => [...document.querySelectorAll('#games-table thead th')].map(h => h.textContent)
  .concat([...document.querySelectorAll('#games-table tbody td.num')].map(c => c.dataset.label))"""


def test_the_games_lists_call_a_sheng_ji_round_a_round(browser: Any, site: Path) -> None:
    """Sheng ji's index counts its matches' rounds under "Rounds", Zheng Fen's its hands under
    "Hands", and the whole index, holding both, says "Hands / rounds" (Sheng ji's index said
    "Hands" of its matches' rounds, which its pages call rounds)."""
    want = {"index-shengji.html": "Rounds", "index-zhengfen.html": "Hands",
            "index.html": "Hands / rounds"}  # fmt: skip
    for name, word in want.items():
        page, errors = _open(browser, (site / name).as_uri(), (390, 844))
        heads = page.evaluate(HEADS)
        assert heads[4] == word and set(heads[6:]) == {word}, (name, heads)
        assert errors == []
        page.close()


def test_a_player_page_of_both_games_tags_each_game(browser: Any, site: Path) -> None:
    """Ann's page lists her Zheng Fen game and her two Sheng ji matches, each tagged with its
    game as on the whole index (the three rows were all "Friday club..." and nothing more)."""
    from zfrec.render.site import player_href

    page, errors = _open(browser, (site / player_href("Ann")).as_uri(), (1280, 800))
    cells = page.evaluate(GAME_CELLS, "main > table.sortable")
    assert sorted(str(kind) for _, kind in cells) == ["Sheng ji", "Sheng ji", "Zheng Fen"], cells
    assert errors == []
    page.close()
    page, errors = _open(browser, (site / player_href("Dieter")).as_uri(), (1280, 800))
    assert page.evaluate(GAME_CELLS, "main > table.sortable") == [
        ["Friday club night", "Zheng Fen"]
    ]
    page.close()


def test_a_finished_trick_says_who_took_it(browser: Any, site: Path) -> None:
    """While a trick is played its best play is "winning"; once the trick is over (its last
    play, and the previous trick opened later) the same play "took it" (it still said winning)."""
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(browser, (folder / "round-1.html").as_uri() + "#step=3", (1280, 800))
    assert page.locator("#log .play.top .winning").inner_text().strip() == "winning"
    page.keyboard.press("ArrowRight")  # trick 1's fourth and last play
    assert page.locator("#log .play.top .winning").inner_text().strip() == "took it"
    assert page.locator("#seats .badge.win").inner_text() == "took the trick"
    page.keyboard.press("ArrowRight")
    page.click("#prevtrick")
    assert page.locator("#prevbox .play.top .winning").inner_text().strip() == "took it"
    assert errors == []
    page.close()


def test_sheng_jis_index_offers_no_hand_viewer(browser: Any, site: Path) -> None:
    """The one-file hand viewer opens Zheng Fen hands only (Sheng ji's pages share no hand): the
    Sheng ji index does not offer it, the whole index and Zheng Fen's do."""
    offers = "[...document.querySelectorAll('header a')].some(a => a.href.endsWith('viewer.html'))"
    for name, offered in (("index.html", True), ("index-zhengfen.html", True),
                          ("index-shengji.html", False)):  # fmt: skip
        page, errors = _open(browser, (site / name).as_uri(), (390, 844))
        assert page.evaluate(offers) is offered, name
        assert errors == []
        page.close()


OUT_OF_SEAT = """() => { const out = [];
  for (const s of document.querySelectorAll('#seats .seat')) {
    const box = s.getBoundingClientRect();
    for (const b of s.querySelectorAll('.badge')) {
      const r = b.getBoundingClientRect();
      if (r.width && (r.right > box.right + 0.5 || r.left < box.left - 0.5))
        out.push(b.textContent); } }
  return out; }"""


def test_on_a_phone_five_seats_keep_their_badges_inside_their_chips(
    browser: Any, tmp_path: Path
) -> None:
    """Zhao pengyou's five seats sit four to a row on a phone: the winner's "took the trick"
    ran out of its chip over the next seat's side and level."""
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["render", str(SJ / "06-zhaopengyou.zfn"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page, errors = _open(browser, (out / "round-1.html").as_uri(), (390, 844))
    seen = set()
    for _ in range(40):  # the first tricks, each ended by a seat of the top row or the bottom
        seen.update(page.locator("#seats .badge").all_inner_texts())
        assert page.evaluate(OUT_OF_SEAT) == [], page.evaluate("document.body.dataset.step")
        page.keyboard.press("ArrowRight")
    assert "took the trick" in {" ".join(t.split()) for t in seen}
    _check(page, errors, "sj-zhaopengyou-seats-390")
    page.close()


def test_the_round_that_wins_the_match_names_the_winners_not_a_next_dealer(
    browser: Any, site: Path
) -> None:
    """The last round of a whole match: the match page's "Then" and the replay's result name
    the team that won, where they said who would deal a round that never comes."""
    folder = _game_dir(site, "01-bashifen-match.zfn")
    page, errors = _open(browser, (folder / "index.html").as_uri(), (1280, 800))
    bare = str.maketrans("", "", "\u2068\u2069")  # names are isolated for bidi text
    rows = [r.translate(bare) for r in page.locator("td[data-label='Then']").all_inner_texts()]
    assert rows[-1] == "the declarers go up 1; Ann & Bo Li win the match"
    assert all("deals next" in r for r in rows[:-1]) and "win the match" not in "".join(rows[:-1])
    page.close()
    last = max(int(p.stem.split("-")[1]) for p in folder.glob("round-*.html"))
    page, errors = _open(browser, (folder / f"round-{last}.html").as_uri(), (390, 844))
    page.keyboard.press("End")
    assert "Ann & Bo Li win the match" in page.locator("#felt").inner_text().translate(bare)
    _check(page, errors, "sj-match-won-390")
    page.close()


# Each seat chip's name cut short, or a child standing out of its chip.
SEAT_OVERFLOW = """() => [...document.querySelectorAll('#seats .seat')].flatMap(s => {
  const r = s.getBoundingClientRect(); const out = [];
  const nm = s.querySelector('.name .nm');
  if (nm && nm.scrollWidth > nm.clientWidth + 1) out.push('cut: ' + nm.textContent);
  for (const k of s.querySelectorAll('*')) {
    const q = k.getBoundingClientRect();
    const outside = q.right > r.right + 1 || q.left < r.left - 1;
    if (q.width && outside) out.push('out: ' + k.textContent);
  }
  return out; })"""


def test_six_seats_on_a_phone_keep_each_name_and_side_in_its_chip(
    browser: Any, tmp_path: Path
) -> None:
    """A zhao pengyou round of six at 390×844: five chips in one row cut every name to three
    letters ("Chr…") and "opponent" stood out of its chip; two rows of three hold them."""
    record = tmp_path / "six.zfn"
    args = ["simulate", "--game", "shengji", "--rules", "zhaopengyou", "--option", "players=6"]
    runner = CliRunner()
    assert (
        runner.invoke(app, [*args, "--games", "1", "--seed", "3", "--out", str(record)]).exit_code
        == 0
    )
    names = "Zhang Wei, Northwind, Southgate, Li Na, Wang Fang, Christopher"
    text = record.read_text(encoding="utf-8").splitlines()
    text = [f'[Players "{names}"]' if t.startswith("[Players ") else t for t in text]
    record.write_text("\n".join(text) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert runner.invoke(app, ["render", str(record), "--out", str(out)]).exit_code == 0
    for size in SIZES:
        page, errors = _open(browser, (out / "round-1.html").as_uri() + "#step=20", size)
        assert page.evaluate(SEAT_OVERFLOW) == [], size
        _check(page, errors, f"sj-six-seats-{size[0]}")
        page.close()
