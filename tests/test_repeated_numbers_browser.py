"""The pages of a record that writes a hand (round) number twice, in a real browser: the game
page's finding opens the second hand's own page at its step, and its previous link the first's.
(tests/test_repeated_numbers.py checks the files and links without a browser.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

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
