"""The pages of a record that writes a hand (round) number twice, in a real browser: the game
page's finding opens the second hand's own page at its step, and its previous link the first's.
The board's heading of the second round 1 says `Round 1 (2nd)`, and the one-file viewer that a
replay shares its hand to heads the second hand 1 as its page.
(tests/test_repeated_numbers.py checks the files and links without a browser.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_repeated_numbers import SJ, ZF
from zfrec.cli import app

DATA = Path(__file__).resolve().parent / "data"
pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.usefixtures("chromium")  # skipped without it (tests/lanes.py)


@pytest.mark.parametrize(
    ("record", "unit"),
    [("hand-number-repeated.zfn", "Hand"), ("sj-round-number-repeated.zfn", "Round")],
)
def test_the_finding_opens_the_second_page_and_it_leads_back_to_the_first(
    browser: Any, tmp_path: Path, record: str, unit: str
) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["render", str(DATA / record), "-o", str(out), "--solve-cards", "0"]
    )
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / "index.html").as_uri())
    second = f"{unit.lower()}-1-2.html"
    page.locator("li.warning a").first.click()
    page.wait_for_load_state()
    assert page.url.split("/")[-1].startswith(second), page.url
    assert page.locator("h1").inner_text().startswith(f"{unit} 1 (2nd) · ")
    assert page.locator("#pos").inner_text().startswith("step 0 / ")
    page.locator('a[rel="prev"]').click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/{unit.lower()}-1.html"), page.url
    heading = page.locator("h1").inner_text()
    assert heading.startswith(f"{unit} 1 · ") and "(2nd)" not in heading
    page.locator('a[rel="next"]').click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/{second}"), page.url
    page.keyboard.press("End")
    last = page.locator("#pos").inner_text()
    assert last.startswith("step ") and not last.startswith("step 0 ")
    assert errors == []
    page.close()


def _render(record: Path, out: Path) -> Path:
    result = CliRunner().invoke(app, ["render", str(record), "-o", str(out), "--solve-cards", "0"])
    assert result.exit_code == 0, result.output
    return out


def test_the_boards_heading_says_which_round_1_it_shows(browser: Any, tmp_path: Path) -> None:
    out = _render(SJ, tmp_path / "sj")
    page = browser.new_page()
    try:
        for name, said in (("round-1-2.html", "Round 1 (2nd)"), ("round-1.html", "Round 1")):
            page.goto((out / name).as_uri() + "#step=3")
            page.wait_for_function("document.getElementById('where').textContent.length > 0")
            where = page.eval_on_selector("#where", "e => e.textContent")
            assert where == f"{said} · trick 1", name
            page.goto((out / name).as_uri() + "#step=0")
            page.wait_for_function("document.getElementById('where').textContent.endsWith('deal')")
            assert page.inner_text("#headline").startswith(f"{said}: "), name
    finally:
        page.close()


def test_the_boards_heading_says_which_hand_1_it_shows(browser: Any, tmp_path: Path) -> None:
    """The Zheng Fen board's heading (`#where`) of the second hand 1 says `Hand 1 (2nd)`, on
    its page and in the one-file viewer its `Share as one link` opens; the first says `Hand 1`."""
    out = _render(ZF, tmp_path / "zf")
    page = browser.new_page()
    try:
        for name, said in (("hand-1-2.html", "Hand 1 (2nd)"), ("hand-1.html", "Hand 1")):
            page.goto((out / name).as_uri() + "#step=3")
            page.wait_for_function("document.getElementById('where').textContent.length > 0")
            assert page.eval_on_selector("#where", "e => e.textContent") == f"{said} · trick 1"
            page.wait_for_function("(document.getElementById('share').href || '').includes('#z=')")
            link = page.get_attribute("#share", "href")
            assert link is not None
            page.goto((out / "viewer.html").as_uri() + link[link.index("#") :])
            page.wait_for_function("document.getElementById('where').textContent.length > 0")
            where = page.eval_on_selector("#where", "e => e.textContent")
            assert where.startswith(f"{said} · "), (name, where)
    finally:
        page.close()


def test_the_one_file_viewer_heads_the_second_hand_1_as_its_page(
    browser: Any, tmp_path: Path
) -> None:
    """A replay's `Share as one link` opens the viewer on its hand: the viewer's heading and
    the deal's headline say `Hand 1 (2nd)` for the second hand 1."""
    out = _render(ZF, tmp_path / "zf")
    page = browser.new_page()
    try:
        for name, said in (("hand-1-2.html", "Hand 1 (2nd)"), ("hand-1.html", "Hand 1")):
            page.goto((out / name).as_uri())
            page.wait_for_function("(document.getElementById('share').href || '').includes('#z=')")
            link = page.get_attribute("#share", "href")
            assert link is not None
            page.goto((out / "viewer.html").as_uri() + link[link.index("#") :])
            page.wait_for_function("document.getElementById('headline').textContent.length > 0")
            assert page.inner_text("#viewer-title").startswith(f"{said} · "), name
            assert page.eval_on_selector("#headline", "e => e.textContent").startswith(
                f"{said}. "
            ), name
    finally:
        page.close()
