"""A Zheng Fen replay page with a disputed move, in Chromium at a phone's size and a desktop's:
the "Disputed moves" table (each version of the move and its verdict) is no wider than the
screen. It was: its verdict cell, a validator's message, never wrapped, so the page scrolled
sideways on a phone (1,179 px of 390) and even at 1280 px. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_publish_browser import DESKTOP, PHONE, WIDEST
from tests.test_render_browser import ARTIFACTS
from zfrec.cli import app

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "broken" / "disputed-version.zfn"
pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_disputed_moves_table_fits_the_screen(
    browser: Any, tmp_path: Path, size: dict[str, int]
) -> None:
    result = CliRunner().invoke(
        app, ["render", str(SAMPLE), "--out", str(tmp_path), "--solve-cards", "0"]
    )
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport=size)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "hand-1.html").as_uri())
    table = page.locator("table.zf-versions")
    assert table.count() == 1
    table.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"zf-disputes-{size['width']}.png"))
    widths = page.evaluate(WIDEST)
    assert widths["page"] <= widths["screen"], widths
    assert all(right <= widths["screen"] for right in widths["tables"]), widths
    # the validator's message is there whole, and on a phone each version is a card whose
    # lines say what they are
    assert "played a second time" in table.inner_text()
    if size is PHONE:
        labels = table.locator("td[data-label]")
        assert labels.count() >= 6
    assert errors == []
    page.close()
