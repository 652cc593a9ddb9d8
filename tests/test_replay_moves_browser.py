"""The move list beside the board (1280×800), in Chromium: at every step the current move is
above the sticky controls. The side column is sticky, so a move under the controls could not be
scrolled into view; on Zheng Fen's pages a tall "At this move" (the solver's "Perfect play from
here" table) pushed the list down and the current move went under the controls at 11 steps of
the sample league final's third hand. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_render_browser import ARTIFACTS
from zfrec.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]

BOXES = """() => {
  const c = document.querySelector('#moves .mv.current').getBoundingClientRect();
  const l = document.getElementById('moves').getBoundingClientRect();
  return {top: c.top, bottom: c.bottom, list: l.top, controls:
          document.querySelector('.controls').getBoundingClientRect().top}; }"""


@pytest.mark.parametrize(
    ("sample", "page_name"),
    [
        ("05-full-game-to-500.zfn", "hand-3.html"),
        ("shengji/04-kitty-multiplier.zfn", "round-1.html"),
    ],
    ids=["zhengfen", "shengji"],
)
def test_beside_the_board_the_current_move_is_above_the_controls(
    browser: Any, tmp_path: Path, sample: str, page_name: str
) -> None:
    result = CliRunner().invoke(app, ["render", str(SAMPLES / sample), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / page_name).as_uri())
    page.wait_for_selector("#moves .mv.current")
    steps = page.evaluate("document.querySelectorAll('#moves .mv').length")
    under = []
    for step in range(steps):
        page.evaluate(f"location.hash = '#step={step}'")
        # the step is drawn on the hashchange, after this returns: wait for it, and for its
        # move to be the current one, before measuring
        page.wait_for_function(
            f"document.body.dataset.step === '{step}' && document.querySelector("
            f"'#moves .mv.current').getAttribute('data-step') === '{step}'"
        )
        box = page.evaluate(BOXES)
        if not (box["list"] <= box["top"] + 1 and box["bottom"] <= box["controls"] + 1):
            under.append((step, box))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"moves-beside-{page_name[:-5]}-1280.png"))
    assert under == []
    assert errors == []
    page.close()
