"""The charts draw without matplotlib's font warnings on standard error. A winner's label is
bold; the faces a chart draws in are chosen by what they cover (zfrec.render.fonts), and one may
have no bold face (Noto Sans CJK is often installed in its Regular weight only). matplotlib then
draws the label in the face's regular weight, as the chart wants, but logged "findfont: Failed
to find font weight bold for Noto Sans CJK SC, now using 400." for every publish."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

from tests.lanes import unavailable
from tests.test_publish import renamed, simulated
from zfrec.games.zhengfen.pages.charts import score_model
from zfrec.games.zhengfen.pages.html import build_game_view
from zfrec.record import Game, dumps
from zfrec.render.charts import RC, draw, figure_png
from zfrec.render.fonts import font_plan

NAMES = ["王芳", "李娜", "张伟"]


def _won(names: list[str]) -> Game:
    """A game played to the target by players named `names`."""
    game = renamed(simulated(3, 7, None), names)
    assert score_model(build_game_view(game)).winners  # a bold "… wins" label is drawn
    return game


def test_a_bold_label_in_a_face_without_bold_logs_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # cmr10 comes with matplotlib, in one weight: any machine has it (DejaVu Sans, with a bold,
    # draws what it lacks, as it does the Latin letters beside a CJK face's)
    m = score_model(build_game_view(_won(["Ann", "Bo", "Cy"])))
    faces = {**RC, "font.family": ["DejaVu Sans", "cmr10"]}
    with caplog.at_level(logging.WARNING, logger="matplotlib"), matplotlib.rc_context(faces):
        png = figure_png(draw(m))
    assert png.startswith(b"\x89PNG")
    assert [r.getMessage() for r in caplog.records if "findfont" in r.getMessage()] == []


def test_rendering_a_game_of_chinese_names_writes_nothing_on_stderr(tmp_path: Path) -> None:
    if font_plan("".join(NAMES) + " wins").missing:
        unavailable("no CJK font installed (CI installs fonts-noto-cjk: .ci/services.sh)")
    record = tmp_path / "night.zfn"
    record.write_text(dumps(_won(NAMES)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "zfrec", "render", str(record), "--out", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert list((tmp_path / "site").glob("*.png"))  # the PNG charts were drawn
