"""Sheng ji's audit pages in Debian's chromium (Playwright, file://), at 390×844 and 1280×800:
the audit.html `zfrec render` writes beside a failing record's replays and the page of
`zfrec audit --html`, from real audits of faulty records. On each: no horizontal scroll, no
element wider than the screen, no text under 9 px, no console error, every finding shown; a
"follows from" link lands on its root finding, and a finding's link opens its round's replay at
the step that shows the play. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_render_browser import ARTIFACTS
from tests.test_sj_audit_page import BROKEN, ZF_BROKEN, disputed_and_wrong_total, faulty_play
from tests.test_sj_pages_browser import SIZES, SMALL, WIDE
from zfrec.cli import app
from zfrec.games.shengji.audit import audit_match
from zfrec.games.shengji.kind import match_of
from zfrec.record import load

pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Render's audit.html of two faulty records, and one `audit --html` page of a directory
    holding a faulty Zheng Fen record and two faulty Sheng ji ones."""
    tmp = tmp_path_factory.mktemp("sjaudit")
    runner = CliRunner()
    out: dict[str, Path] = {}
    for name, path in (("dealer", BROKEN / "wrong-dealer.zfn"), ("total", None)):
        if path is None:
            path = tmp / "total.zfn"
            path.write_text(disputed_and_wrong_total(), encoding="utf-8")
        res = runner.invoke(app, ["render", str(path), "-o", str(tmp / name)])
        assert res.exit_code == 0, res.output
        out[name] = tmp / name / "audit.html"
    both = tmp / "both"
    both.mkdir()
    (both / "a-zhengfen.zfn").write_text(ZF_BROKEN.read_text(encoding="utf-8"), encoding="utf-8")
    (both / "b-play.zfn").write_text(faulty_play()[0], encoding="utf-8")
    (both / "c-throw.zfn").write_text(
        (BROKEN / "throw-cannot-stand.zfn").read_text(encoding="utf-8"), encoding="utf-8"
    )
    out["file"] = tmp / "audit.html"
    res = runner.invoke(app, ["audit", str(both), "--html", str(out["file"])])
    assert res.exit_code == 1, res.output
    return out


def _open(browser: Any, path: Path, size: tuple[int, int]) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return page, errors


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["dealer", "total", "file"])
def test_audit_page_fits_and_shows_every_finding(
    browser: Any, pages: dict[str, Path], name: str, size: tuple[int, int]
) -> None:
    page, errors = _open(browser, pages[name], size)
    try:
        assert page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        assert page.evaluate(WIDE) == []
        assert page.evaluate(SMALL) == []
        shown = page.locator("ul.sj-findings > li").count()
        if name == "dealer":
            match = match_of(next(iter(load(BROKEN / "wrong-dealer.zfn"))))
            assert shown == len(audit_match(match).report.diagnostics) > 10
            assert page.locator("ol.sj-repairs table.sj-edits").first.is_visible()
        elif name == "total":
            assert shown >= 1
            assert page.locator(".zf-dispute").count() == 2  # the bid and the play
            cell = page.locator("td.sj-differs").first
            assert cell.is_visible() and "computed 75" in cell.inner_text()
        else:  # the Zheng Fen game's findings, then each Sheng ji game's
            assert page.locator("section.sj-audit").count() == 2 and shown >= 2
            assert page.locator("li.zf-repair").count() >= 3
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"sj-audit-{name}-{size[0]}.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def test_follows_from_lands_on_the_root_finding(browser: Any, pages: dict[str, Path]) -> None:
    page, errors = _open(browser, pages["dealer"], (390, 844))
    try:
        page.locator("#f9 .sj-follows a").click()
        assert page.evaluate("location.hash") == "#f1"
        assert page.evaluate("document.querySelector(':target').id") == "f1"
        top = page.evaluate("document.getElementById('f1').getBoundingClientRect().top")
        assert 0 <= top < 844  # scrolled to it
        assert "SJ304" in page.locator("#f1").inner_text()
        assert errors == []
    finally:
        page.close()


def test_a_finding_opens_its_replay_at_the_play(browser: Any, pages: dict[str, Path]) -> None:
    page, errors = _open(browser, pages["dealer"], (1280, 800))
    try:
        finding = page.locator("#f3")
        play = finding.locator(".sj-play").inner_text()  # the cards the finding is about
        link = finding.locator("a").first
        href = link.get_attribute("href")
        assert href is not None and href.startswith("round-2.html#step=")
        link.click()
        page.wait_for_load_state()
        assert page.url.endswith(href)
        headline = page.locator("#headline").inner_text()
        assert play in headline, (play, headline)
        assert errors == []
    finally:
        page.close()


def test_a_finding_of_a_whole_round_opens_the_round_at_its_head(
    browser: Any, tmp_path: Path
) -> None:
    """The opponents' points written wrong (SJ501, no trick) opens round 1's replay at step 0,
    the deal, on a phone; the page with the link shown is kept as a screenshot."""
    out = tmp_path / "points"
    res = CliRunner().invoke(app, ["render", str(BROKEN / "wrong-points.zfn"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    page, errors = _open(browser, out / "audit.html", (390, 844))
    try:
        finding = page.locator("ul.sj-findings > li", has_text="SJ501")
        assert finding.count() == 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "sj-audit-points-390.png"), full_page=True)
        link = finding.locator("a").first
        assert link.inner_text() == "Round 1" and link.is_visible()
        link.click()
        page.wait_for_load_state()
        assert page.url.endswith("round-1.html#step=0")
        assert page.locator("#pos").inner_text().startswith("step 0 / ")
        assert page.locator("#slider").input_value() == "0"
        assert errors == []
    finally:
        page.close()


def test_a_json_records_audit_page_shows_its_zfn_lines_on_a_phone(
    browser: Any, tmp_path: Path
) -> None:
    """render of a JSON record: each finding shows its line of the .zfn text, which wraps
    within the phone's width; the note says whose lines they are."""
    record = tmp_path / "throw.json"
    runner = CliRunner()
    throw = BROKEN / "throw-cannot-stand.zfn"
    assert runner.invoke(app, ["convert", str(throw), str(record)]).exit_code == 0
    res = runner.invoke(app, ["render", str(record), "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    page, errors = _open(browser, tmp_path / "out" / "audit.html", (390, 844))
    try:
        lines = page.locator("ul.sj-findings code.sj-line")
        assert lines.count() == page.locator("ul.sj-findings > li").count() == 7
        assert lines.first.is_visible() and "3♦ 6♦ Q♦" in lines.first.inner_text()
        assert page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        assert page.evaluate(WIDE) == []
        assert page.locator(".sj-text-note").is_visible()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "sj-audit-json-390.png"), full_page=True)
        assert errors == []
    finally:
        page.close()
