"""The replay page's layout as a publisher's readers meet it, in Chromium (file://): a keyboard
reader in the move list keeps their place as they step; on a phone (390×844) the move list
under a tall Sheng ji table shows the current move among its neighbours; on a wide screen
(1280×800) no seat's cards lie under the sticky controls. Both games, every seat count the
samples have (and a simulated Sheng ji round of six). No console error on any page.
Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_render_browser import ARTIFACTS
from zfrec.cli import app

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
pytestmark = [pytest.mark.usefixtures("chromium"), pytest.mark.slow]


def _render(tmp_path: Path, record: Path) -> Path:
    out = tmp_path / record.stem
    result = CliRunner().invoke(app, ["render", str(record), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _six_seats(tmp_path: Path) -> Path:
    """A zhao pengyou match of six seats (no sample has six)."""
    record = tmp_path / "six.zfn"
    args = ["simulate", "--game", "shengji", "--rules", "zhaopengyou", "--option", "players=6"]
    result = CliRunner().invoke(app, [*args, "--games", "1", "--seed", "3", "--out", str(record)])
    assert result.exit_code == 0, result.output
    return record


def _open(browser: Any, url: str, size: tuple[int, int], step: int) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}#step={step}")
    page.wait_for_function(f"document.body.dataset.step === '{step}'")
    return page, errors


def _go(page: Any, step: int) -> None:
    page.evaluate(f"location.hash = '#step={step}'")
    page.wait_for_function(f"document.body.dataset.step === '{step}'")


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


FOCUSED = """() => { const a = document.activeElement;
  return a && a.classList.contains('mv') ? a.getAttribute('data-step') : null; }"""


@pytest.mark.parametrize(
    ("sample", "page_name"),
    [("shengji/04-kitty-multiplier.zfn", "round-1.html"), ("02-three-players.zfn", "hand-1.html")],
    ids=["shengji", "zhengfen"],
)
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["wide", "phone"])
def test_a_keyboard_reader_in_the_move_list_keeps_their_place(
    browser: Any, tmp_path: Path, sample: str, page_name: str, size: tuple[int, int]
) -> None:
    """Tabbed into the list, the reader steps with the arrows (and Shift for a trick): the
    focus stayed on the move they had tabbed to, so the next Enter took them back there. It
    follows the current move now, found by its step index."""
    out = _render(tmp_path, SAMPLES / sample)
    page, errors = _open(browser, (out / page_name).as_uri(), size, 3)
    page.focus('#moves .mv[data-step="3"]')
    page.keyboard.press("Enter")
    for key in ("ArrowRight", "ArrowRight", "Shift+ArrowRight", "ArrowLeft", "Enter", "End"):
        page.keyboard.press(key)
        step = page.evaluate("document.body.dataset.step")
        assert page.evaluate(FOCUSED) == step, (key, step)
    # Enter on the focused move stays there; Tab goes on from it, to the move after
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert page.evaluate("document.body.dataset.step") == "1"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "2"
    # the focused move is the current one, in the list's view
    page.keyboard.press("Enter")
    box = page.evaluate(
        """() => { const b = document.activeElement.getBoundingClientRect();
        const l = document.getElementById('moves').getBoundingClientRect();
        return [b.top >= l.top - 1, b.bottom <= l.bottom + 1]; }"""
    )
    assert box == [True, True]
    assert errors == []
    page.close()


# Each seat's hand against the sticky controls: covered (the two boxes meet) where it lies, and
# once scrolled into view as a reader would (the seat's whole box, nearest edge).
COVERED = """() => { const bar = document.querySelector('.controls');
  const meets = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  for (const s of document.querySelectorAll('#seats .seat')) {
    const hand = s.querySelector('.hand');
    if (meets(hand.getBoundingClientRect(), bar.getBoundingClientRect()))
      out.push('at rest: ' + s.dataset.pos);
  }
  const y = window.scrollY;
  for (const s of document.querySelectorAll('#seats .seat')) {
    s.scrollIntoView({block: 'nearest'});
    const h = s.querySelector('.hand').getBoundingClientRect();
    if (meets(h, bar.getBoundingClientRect()) || h.top < 0 || h.bottom > innerHeight)
      out.push('scrolled to: ' + s.dataset.pos);
  }
  window.scrollTo(0, y);
  return out; }"""


@pytest.mark.parametrize(
    "sample",
    [
        "shengji/04-kitty-multiplier.zfn",
        "shengji/06-zhaopengyou.zfn",
        "six",
        "01-annotated-club-night.zfn",
    ],
    ids=["shengji-4", "shengji-5", "shengji-6", "zhengfen-4"],
)
def test_on_a_wide_screen_no_seat_lies_under_the_controls(
    browser: Any, tmp_path: Path, sample: str
) -> None:
    """The whole table's view at 1280×800, every step: the controls spanned the page's width,
    and the bottom seat of a tall Sheng ji table (its hand three rows of cards, under a trick of
    four to six plays) lay under them at one step in five, at the top of the page and scrolled
    to alike. They sit under the move list now, beside the table."""
    record = _six_seats(tmp_path) if sample == "six" else SAMPLES / sample
    out = _render(tmp_path, record)
    page_name = "hand-1.html" if sample.startswith("0") and "/" not in sample else "round-1.html"
    page, errors = _open(browser, (out / page_name).as_uri(), (1280, 800), 0)
    steps = page.evaluate("document.querySelectorAll('#moves .mv').length")
    covered = []
    for step in range(steps):
        _go(page, step)
        found = page.evaluate(COVERED)
        if found:
            covered.append((step, found))
    _go(page, steps // 4)
    _shot(page, f"layout-wide-{sample.split('/')[-1].split('.')[0]}-1280")
    assert covered == []
    assert errors == []
    page.close()


# The move list on a phone at one step: the current move whole in the list's view and above the
# controls, how many moves are seen so, a move cut at the list's top edge, the felt's top.
PHONE = """() => { const list = document.getElementById('moves');
  const l = list.getBoundingClientRect();
  const bar = document.querySelector('.controls').getBoundingClientRect().top;
  const seen = r => r.top >= l.top - 1 && r.bottom <= Math.min(l.bottom, bar) + 1;
  const moves = [...document.querySelectorAll('#moves .mv')].map(b => b.getBoundingClientRect());
  const c = document.querySelector('#moves .mv.current').getBoundingClientRect();
  return {current: seen(c), seen: moves.filter(seen).length,
          cut: moves.some(r => r.top < l.top - 1 && r.bottom > l.top + 1),
          end: list.scrollTop + list.clientHeight >= list.scrollHeight - 1,
          felt: document.getElementById('felt').getBoundingClientRect().top,
          contain: getComputedStyle(document.getElementById('moves')).overscrollBehaviorY}; }"""


@pytest.mark.parametrize(
    "sample",
    [
        "shengji/04-kitty-multiplier.zfn",
        "shengji/06-zhaopengyou.zfn",
        "six",
        "02-three-players.zfn",
        "01-annotated-club-night.zfn",
        "03-five-players.zfn",
        "04-six-players.zfn",
    ],
    ids=[
        "shengji-4",
        "shengji-5",
        "shengji-6",
        "zhengfen-3",
        "zhengfen-4",
        "zhengfen-5",
        "zhengfen-6",
    ],
)
def test_on_a_phone_the_move_list_shows_the_current_move_among_its_neighbours(
    browser: Any, tmp_path: Path, sample: str
) -> None:
    """A reader steps through a round at 390×844, from the deal to the result. Under a tall
    Sheng ji table the list had two or three rows, the first cut, and at a trick's last play
    (six seats: at most steps) the current move lay under the controls: the reader had to
    scroll the page, then the list. The list writes a trick a line now, several moves seen
    together (the current one and one more at least), no row cut at its top (but where the list
    is scrolled to its end), and where the table leaves it less than its least height
    the page moves up, never past the felt's top. A Zheng Fen felt taller than the screen (a
    long trick of passes) keeps its top in view: there, and only there, the list may wait
    below."""
    record = _six_seats(tmp_path) if sample == "six" else SAMPLES / sample
    out = _render(tmp_path, record)
    page_name = "round-1.html" if sample.startswith(("shengji", "six")) else "hand-1.html"
    page, errors = _open(browser, (out / page_name).as_uri(), (390, 844), 0)
    steps = page.evaluate("document.querySelectorAll('#moves .mv').length")
    unseen, few, cut, felt_cut = [], [], [], []
    for step in range(1, steps):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.body.dataset.step === '{step}'")
        box = page.evaluate(PHONE)
        assert box["contain"] == "contain"  # the list's end does not scroll the page on
        if box["felt"] < 0:
            felt_cut.append(step)
        held = box["felt"] <= 9  # the page went as far as the felt's top
        if not box["current"] and not (held and not sample.startswith(("shengji", "six"))):
            unseen.append(step)
        if box["current"] and box["seen"] < 2:
            few.append((step, box["seen"]))
        if box["cut"] and not box["end"]:  # scrolled to its end, the list shows its last line whole
            cut.append(step)
        if step in (1, steps // 4):
            _shot(page, f"layout-phone-{sample.split('/')[-1].split('.')[0]}-step{step}-390")
    assert unseen == [] and felt_cut == [], (unseen, felt_cut)
    assert few == [] and cut == [], (few, cut)
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    ("sample", "page_name"),
    [("02-three-players.zfn", "hand-1.html"), ("shengji/04-kitty-multiplier.zfn", "round-1.html")],
    ids=["zhengfen", "shengji"],
)
def test_on_a_phone_the_moves_tab_opened_again_shows_the_current_move(
    browser: Any, tmp_path: Path, sample: str, page_name: str
) -> None:
    """A reader on a phone steps with "At this move" open, then opens the moves again: on Zheng
    Fen's pages the list, fitted while hidden, ran the height of the page under the controls
    and the current move lay under them (Sheng ji's pages fitted it on the tab's tap)."""
    out = _render(tmp_path, SAMPLES / sample)
    page, errors = _open(browser, (out / page_name).as_uri(), (390, 844), 0)
    page.click("#tab-notes")
    for step in range(1, 13):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.body.dataset.step === '{step}'")
    page.click("#tab-moves")
    box = page.evaluate(PHONE)
    assert box["current"], box
    assert errors == []
    page.close()


def _long_names(tmp_path: Path, sample: str, names: tuple[str, str]) -> Path:
    """A sample whose first player has a long Chinese name (7 characters, wider than the move
    list's column of names)."""
    record = tmp_path / Path(sample).name
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    assert names[0] in text
    record.write_text(text.replace(names[0], names[1]), encoding="utf-8")
    return record


# Every name the move list cuts: how far its box runs past the name's column (0 where the name
# ends, with its ellipsis, inside the column; the name was clipped mid-glyph with no ellipsis).
CUT_NAMES = """() => [...document.querySelectorAll('#moves .mv .who')]
  .filter(w => w.firstElementChild).filter(w => w.scrollWidth > w.clientWidth + 1
    || w.firstElementChild.scrollWidth > w.firstElementChild.clientWidth + 1)
  .map(w => w.firstElementChild.getBoundingClientRect().right - w.getBoundingClientRect().right)"""


@pytest.mark.parametrize(
    ("sample", "names", "page_name"),
    [
        ("01-annotated-club-night.zfn", ('"王芳, Bo Li', '"欧阳明远长名字, Bo Li'), "hand-1.html"),
        ("shengji/09-annotated.zfn", ('"Ann, 王芳', '"欧阳明远长名字, 王芳'), "round-1.html"),
    ],
    ids=["zhengfen", "shengji"],
)
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["wide", "phone"])
def test_a_long_name_in_the_move_list_ends_with_an_ellipsis(
    browser: Any,
    tmp_path: Path,
    sample: str,
    names: tuple[str, str],
    page_name: str,
    size: tuple[int, int],
) -> None:
    """A name wider than the move list's column of names was clipped by the column, mid-glyph
    and with no ellipsis ("欧阳明远长名" read as a whole name); it is cut within the column now,
    its ellipsis shown (the full name is on the seat's chip or card)."""
    out = _render(tmp_path, _long_names(tmp_path, sample, names))
    page, errors = _open(browser, (out / page_name).as_uri(), size, 5)
    overruns = page.evaluate(CUT_NAMES)
    assert overruns, "no name is cut: the test would prove nothing"
    assert all(o <= 0.5 for o in overruns), overruns
    assert errors == []
    page.close()


def test_on_a_phone_the_page_scrolled_back_to_its_top_still_follows_the_move(
    browser: Any, tmp_path: Path
) -> None:
    """At a six-seat table's trick end the page moves up to keep the current move in view; a
    reader who scrolled back to the page's top (to see the header and the seats above the felt)
    had made the page theirs for good, and the current move lay under the controls at every
    trick's end after. The page's top is where the page rests: it follows the move again."""
    out = _render(tmp_path, _six_seats(tmp_path))
    page, errors = _open(browser, (out / "round-1.html").as_uri(), (390, 844), 59)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.step === '60'")
    assert page.evaluate("scrollY") > 0  # the trick's end: the page moved up
    page.mouse.wheel(0, -2000)
    page.wait_for_function("() => window.scrollY === 0")
    unseen = []
    for step in range(61, 80):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"document.body.dataset.step === '{step}'")
        if not page.evaluate(PHONE)["current"]:
            unseen.append(step)
    assert unseen == []
    # a reader who scrolled down, below the list, keeps their place
    page.mouse.wheel(0, 600)
    page.wait_for_function("() => window.scrollY > 300")
    y = page.evaluate("scrollY")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.step === '80'")
    assert page.evaluate("scrollY") == y
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    ("sample", "page_name"),
    [("01-annotated-club-night.zfn", "hand-1.html"), ("shengji/09-annotated.zfn", "round-1.html")],
    ids=["zhengfen", "shengji"],
)
def test_on_a_phone_at_this_move_keeps_the_controls_at_the_foot(
    browser: Any, tmp_path: Path, sample: str, page_name: str
) -> None:
    """A reader on a phone taps through a round with "At this move" open: where its notes were
    short the page ended above the screen's foot and the controls rose with it, the next step's
    button away from the reader's finger (by 170 px and more, after a trick's end had moved the
    page up). The panel reaches down to the controls now, as the move list does."""
    out = _render(tmp_path, SAMPLES / sample)
    page, errors = _open(browser, (out / page_name).as_uri(), (390, 844), 0)
    page.click("#tab-notes")
    foot = 844 - page.evaluate("document.querySelector('.controls').offsetHeight")
    risen = []
    for step in range(1, 30):
        page.click("#next")
        page.wait_for_function(f"document.body.dataset.step === '{step}'")
        top = page.evaluate("document.querySelector('.controls').getBoundingClientRect().top")
        if abs(top - foot) > 1:
            risen.append((step, round(foot - top)))
    assert risen == []
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    ("sample", "page_name", "step"),
    [
        ("shengji/04-kitty-multiplier.zfn", "round-1.html", 10),
        ("02-three-players.zfn", "hand-1.html", 23),
    ],
    ids=["shengji", "zhengfen"],
)
def test_on_a_phone_the_previous_trick_opened_leaves_the_current_move_in_view(
    browser: Any, tmp_path: Path, sample: str, page_name: str, step: int
) -> None:
    """A reader on a phone opens "Previous trick" and steps on: the box was brought into view
    by scrolling the page, which made the page the reader's, and the list, pushed down by the
    taller felt and no longer followed, ran under the controls with its current move. The page
    still follows the move (as far as the felt's top), the previous trick in view above it."""
    out = _render(tmp_path, SAMPLES / sample)
    page, errors = _open(browser, (out / page_name).as_uri(), (390, 844), step)
    page.click("#prevtrick")
    unseen = []
    for k in range(step, step + 4):
        box = page.evaluate(PHONE)
        prev = page.evaluate(
            """() => { const b = document.getElementById('prevbox');
              const r = b.getBoundingClientRect(); return b.hidden || r.top >= -1; }"""
        )
        # the current move seen, or the page gone as far as the felt's top (a felt taller than
        # the screen, the previous trick's box open over a long trick)
        if not (box["current"] or 0 <= box["felt"] <= 9) or not prev:
            unseen.append((k, box["current"], box["felt"], prev))
        page.click("#next")
        page.wait_for_function(f"document.body.dataset.step === '{k + 1}'")
    assert unseen == []
    assert errors == []
    page.close()
