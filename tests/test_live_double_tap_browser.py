"""A double tap that the server answers in between (LIVE.md, "Versions"): in headless Chromium
against a real `zfrec serve`, the first tap's entry goes in and the page shows its answer before
the second tap comes (the test waits for it). The second tap (the click's tap count 2, as the
phone counts a double tap) was made from the table the first tap saw: it carries that version,
and the server refuses it as stale; the page says so and nothing more is entered. A tap the
phone counts as a new one still enters at once. Screenshots go to
test-artifacts/live-double-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_live_phones import DESKTOP, PHONE, at, dealt_table, sent, tap_anew
from tests.test_live_requests_browser import _sj_at_lead
from tests.test_live_server import server
from tests.test_live_tabs_browser import moves, phone, play, tab
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-double-{name}.png"))


def _centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _foot(page: Any, selector: str) -> tuple[float, float]:
    """A spot near the foot of `selector`: still on it when an answer shown above it (the
    outbox's line) moves it down a little, as a finger's second tap of a double tap is."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] - 5


def under(page: Any, x: float, y: float, selector: str) -> bool:
    """Whether the point (x, y) of the screen is on `selector`."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    left, top = float(box["x"]), float(box["y"])
    return left <= x <= left + float(box["width"]) and top <= y <= top + float(box["height"])


def second_tap(page: Any, x: float, y: float) -> None:
    """A tap at (x, y) that the phone counts as the second of a double tap (tap count 2)."""
    page.mouse.move(x, y)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)


def double_tap(page: Any, selector: str, version: int) -> None:
    """Tap `selector`, wait until the page shows the answer (the table at `version`), and tap
    the same spot again as the second tap of a double tap (tap count 2): `selector` is still
    there (the answer left it in place)."""
    page.locator(selector).scroll_into_view_if_needed()
    x, y = _foot(page, selector)
    page.mouse.click(x, y)
    at(page, version)
    sent(page)
    assert under(page, x, y, selector), selector  # the page kept its place (Sheng ji's too)
    second_tap(page, x, y)
    sent(page)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_zhengfen_undo_and_pass_double_tapped_around_their_answer_are_one_entry(
    browser: Any, tmp_path: Path, size: str
) -> None:
    """Ann leads 3h. Pass double-tapped for Bo Li, his pass in before the second tap: one pass
    (the second is not 王芳's pass), and the page says the second was not entered. 王芳 plays
    9h; Undo double-tapped the same way: one undo (her 9h). Then a tap of its own undoes one
    more."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        table = made["id"]
        ctx = phone(browser, PHONE if size == "phone" else DESKTOP)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        play(a, 1, "3h")
        at(a, 2)
        sent(a)

        double_tap(a, "#pass-btn", 3)
        assert moves(client, table) == [(1, "3h"), (2, "pass")]
        assert client.get(f"/api/tables/{table}").json()["version"] == 3
        msg = a.locator("#msg").inner_text()
        assert "Not entered: 王芳: pass, a double tap" in msg, msg
        assert a.locator("#play-text").input_value() == ""  # nothing put back in the box
        shot(a, f"1-pass-{size}")

        play(a, 3, "9h")
        at(a, 4)
        sent(a)
        double_tap(a, "#undo-btn", 5)
        assert moves(client, table) == [(1, "3h"), (2, "pass")]
        assert client.get(f"/api/tables/{table}").json()["version"] == 5
        msg = a.locator("#msg").inner_text()
        assert "Not undone: a double tap" in msg, msg
        shot(a, f"2-undo-{size}")

        tap_anew(a.locator("#undo-btn"))  # a tap of its own: one more undo
        at(a, 6)
        assert moves(client, table) == [(1, "3h")]


def test_sheng_ji_undo_double_tapped_around_its_answer_is_one_undo(
    browser: Any, tmp_path: Path
) -> None:
    """Sheng ji, at the first lead after the exchange: Ann leads As and Bo plays 3s. Undo
    double-tapped, the first undo in before the second tap: Bo's 3s alone is undone."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        auth = {"Authorization": f"Bearer {made['token']}"}
        for body in ({"seat": 1, "play": "As"}, {"seat": 2, "play": "3s"}):
            assert client.post(f"{url}/moves", json=body, headers=auth).is_success
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 4)
        double_tap(a, "#entry button:text-is('Undo')", 5)
        st = client.get(url).json()
        assert st["version"] == 5
        assert [m.get("play") for m in st["moves"] if m.get("play")] == ["As"]
        msg = a.locator("#msg").inner_text()
        assert "Not undone: a double tap" in msg, msg
        shot(a, "3-sj-undo")


def test_a_double_tap_never_undoes_another_phones_move_shown_between_its_taps(
    browser: Any, tmp_path: Path
) -> None:
    """Ann leads 3h, Bo Li passes. This phone double-taps Undo: the first tap's undo (Bo Li's
    pass) is in, then another phone enters Bo Li's 6h, and this page shows it before the second
    tap. The second tap was made from the table the first saw: refused as stale, so the other
    phone's 6h stays (the second tap undid it before)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        table = made["id"]
        url = f"/api/tables/{table}/moves"
        for body in ({"seat": 1, "play": "3h"}, {"seat": 2, "play": "-"}):
            assert client.post(url, json=body, headers=auth).is_success
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 3)
        a.locator("#undo-btn").scroll_into_view_if_needed()
        x, y = _foot(a, "#undo-btn")
        a.mouse.click(x, y)
        at(a, 4)
        other = client.post(url, json={"seat": 2, "play": "6h", "version": 4}, headers=auth)
        assert other.is_success, other.text
        at(a, 5)  # shown by the table's events
        sent(a)
        assert under(a, x, y, "#undo-btn")
        second_tap(a, x, y)
        sent(a)
        assert moves(client, table) == [(1, "3h"), (2, "6h")]
        msg = a.locator("#msg").inner_text()
        assert "Not undone: a double tap" in msg, msg


def test_yes_double_tapped_where_not_so_undo_comes_is_one_entry(
    browser: Any, tmp_path: Path
) -> None:
    """Ann leads 3h; this phone enters Ann's 4h, which means Bo Li and 王芳 passed: the page asks.
    Yes is double-tapped, and its answer puts "Not so: undo" under the finger before the second
    tap: that tap was made from the question's view, so nothing is undone (before, it undid the
    move just entered) and the move is not put back in the box."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        table = made["id"]
        r = client.post(f"/api/tables/{table}/moves", json={"seat": 1, "play": "3h"}, headers=auth)
        assert r.is_success, r.text
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 2)
        play(a, 1, "4h")
        a.wait_for_selector("#confirm-passes")
        x, y = _foot(a, "#confirm-passes")
        a.mouse.click(x, y)
        a.wait_for_selector("#undo-inferred")
        at(a, 3)
        sent(a)
        assert under(a, x, y, "#undo-inferred")  # under the finger now
        second_tap(a, x, y)
        sent(a)
        assert moves(client, table)[-1] == (1, "4h")
        assert client.get(f"/api/tables/{table}").json()["version"] == 3
        msg = a.locator("#msg").inner_text()
        assert "Not undone: a double tap" in msg, msg
        assert a.locator("#play-text").input_value() == ""
        shot(a, "4-yes-then-not-so")


def test_a_quick_tap_on_another_button_is_a_tap_of_its_own(browser: Any, tmp_path: Path) -> None:
    """Ann's 3h is played, and Pass tapped at once for Bo Li once the play is shown. A phone
    counts a quick tap near the last one as its second (by time and distance, whatever the
    button: the click's tap count 2), but this one is off the Play button the first tap hit:
    a tap of its own, entered, not refused as a double tap's second."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        a.locator('#entry button[data-seat="1"]').tap()
        a.locator("#play-text").fill("3h")
        a.locator("#play-btn").scroll_into_view_if_needed()
        x, y = _centre(a, "#play-btn")
        a.mouse.click(x, y)
        at(a, 2)
        sent(a)
        a.locator("#pass-btn").scroll_into_view_if_needed()  # beside Play
        second_tap(a, *_centre(a, "#pass-btn"))
        at(a, 3)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "pass")]
        assert a.locator("#msg .msg.error").count() == 0
