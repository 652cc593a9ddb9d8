"""The live table's pages in headless Chromium against a real `zfrec serve` (LIVE.md, "The
pages" and "Versions"): Sheng ji's page keeps its place after this phone's own Undo, a held
key's repeats make no entry, and a phone that counts every tap as a new one (the click's tap
count always 1) gets the double-tap guard too: a second tap on the same spot soon after the
first (its answer shown between) carries the first tap's version and is refused as stale.
Screenshots go to test-artifacts/live-taps-*.png.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.test_live_double_tap_browser import _foot, under
from tests.test_live_phones import DESKTOP, PHONE, at, dealt_table, sent
from tests.test_live_requests_browser import _sj_at_lead, _sj_table
from tests.test_live_server import server
from tests.test_live_tabs_browser import moves, phone, tab
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]

SJ_UNDO = "#entry button:text-is('Undo')"
T0 = datetime(2026, 3, 1, 20, 0, 0)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-taps-{name}.png"))


def in_view(page: Any, selector: str, height: int) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def _sj_two_plays(client: Any) -> tuple[dict[str, Any], str]:
    """Sheng ji at its first lead (_sj_at_lead), Ann's As and Bo's 3s played: version 4."""
    made, url = _sj_at_lead(client)
    auth = {"Authorization": f"Bearer {made['token']}"}
    for body in ({"seat": 1, "play": "As"}, {"seat": 2, "play": "3s"}):
        r = client.post(f"{url}/moves", json=body, headers=auth)
        assert r.is_success, r.text
    return made, url


def _sj_plays(client: Any, url: str) -> list[str]:
    return [m["play"] for m in client.get(url).json()["moves"] if m.get("play")]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sheng_ji_keeps_its_place_after_its_own_undo(
    browser: Any, tmp_path: Path, size: str
) -> None:
    """Undo tapped at the foot of Sheng ji's form, scrolled down to it: once the undo is in,
    Undo is still where it was (the page went to its top: the focused Undo, taken away with
    the form as the page drew it anew, left the page laid out without the form), and it has
    the focus still."""
    viewport = PHONE if size == "phone" else DESKTOP
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_two_plays(client)
        a = tab(phone(browser, viewport), str(client.base_url).rstrip("/") + made["join"])
        at(a, 4)
        a.locator(SJ_UNDO).scroll_into_view_if_needed()
        before = a.evaluate("window.scrollY")
        if size == "phone":
            assert before > 0  # the form is longer than the screen
            a.locator(SJ_UNDO).tap()
        else:
            a.locator(SJ_UNDO).click()
        at(a, 5)
        sent(a)
        assert _sj_plays(client, url) == ["As"]
        assert in_view(a, SJ_UNDO, viewport["height"])
        assert a.evaluate("window.scrollY") >= before
        assert a.evaluate("document.activeElement.textContent") == "Undo"
        shot(a, f"1-sj-undo-{size}")


def test_zhengfen_a_comment_held_down_on_is_one_comment(browser: Any, tmp_path: Path) -> None:
    """Enter held on Add comment while the first comment's answer has not come (held back):
    the key's repeats add nothing (each added the comment again, all entered in order)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        table = made["id"]
        r = client.post(f"/api/tables/{table}/moves", json={"seat": 1, "play": "3h"}, headers=auth)
        assert r.is_success, r.text
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 2)
        a.locator("#comment-btn").tap()
        a.locator("#comment-text").fill("Ann led from the wrong hand")
        held: list[Any] = []  # the answers held back, until `go`
        go: list[bool] = []

        def hold(route: Any) -> None:
            if go:
                route.continue_()
            else:
                held.append(route)

        ctx.route("**/api/tables/*/marks", hold)
        a.locator("#comment-send").focus()
        a.keyboard.down("Enter")
        a.keyboard.down("Enter")  # held: repeats
        a.keyboard.down("Enter")
        a.keyboard.up("Enter")
        assert a.locator("body").get_attribute("data-outbox") == "1"
        while not held:
            a.wait_for_timeout(50)
        go.append(True)
        for route in held:
            route.continue_()
        at(a, 3)
        sent(a)
        st = client.get(f"/api/tables/{table}").json()
        assert st["version"] == 3
        assert st["moves"][-1]["comments"] == ["Ann led from the wrong hand"]
        shot(a, "2-comment-held")


def test_sheng_ji_undo_held_down_on_is_one_undo_a_press(browser: Any, tmp_path: Path) -> None:
    """Enter held on Sheng ji's Undo (the focus kept on it as the page is drawn anew): one undo
    (Bo's 3s); the repeats once it is in undo nothing more. Pressed again, it undoes Ann's As."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_two_plays(client)
        a = tab(phone(browser), str(client.base_url).rstrip("/") + made["join"])
        at(a, 4)
        a.locator(SJ_UNDO).focus()
        a.keyboard.down("Enter")
        at(a, 5)
        sent(a)
        assert a.evaluate("document.activeElement.textContent") == "Undo"
        a.keyboard.down("Enter")  # the key still held: repeats
        a.keyboard.down("Enter")
        assert a.locator("body").get_attribute("data-outbox") == "0"  # nothing queued
        a.keyboard.up("Enter")
        sent(a)
        assert client.get(url).json()["version"] == 5
        assert _sj_plays(client, url) == ["As"]
        a.keyboard.press("Enter")  # a press of its own
        at(a, 6)
        assert _sj_plays(client, url) == []


def test_zhengfen_undo_held_down_on_is_one_undo(browser: Any, tmp_path: Path) -> None:
    """Zheng Fen's Undo the same way: held, one undo (王芳's pass), whatever the repeats."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        table = made["id"]
        for body in ({"seat": 1, "play": "3h"}, {"seat": 2, "play": "-"}, {"seat": 3, "play": "-"}):
            r = client.post(f"/api/tables/{table}/moves", json=body, headers=auth)
            assert r.is_success, r.text
        a = tab(phone(browser), str(client.base_url).rstrip("/") + made["join"])
        at(a, 4)
        a.locator("#undo-btn").focus()
        a.keyboard.down("Enter")
        at(a, 5)
        sent(a)
        assert a.evaluate("document.activeElement.id") == "undo-btn"
        a.keyboard.down("Enter")
        a.keyboard.down("Enter")
        assert a.locator("body").get_attribute("data-outbox") == "0"
        a.keyboard.up("Enter")
        sent(a)
        assert moves(client, table) == [(1, "3h"), (2, "pass")]


def _tap(page: Any, x: float, y: float) -> None:
    """A tap the phone reports as a new one (the click's tap count 1, as some phones report
    every tap)."""
    page.mouse.click(x, y)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_zhengfen_taps_counted_one_each_soon_after_the_first_are_a_double_tap(
    browser: Any, tmp_path: Path, size: str
) -> None:
    """The page's clock stands still (the second tap comes within the double-tap interval,
    however slow the machine). Undo tapped twice on one spot, each tap counted 1, the first
    undo (王芳's 9h) in and shown before the second: the second was made from the table the
    first saw, so it is refused as stale and undoes nothing (it undid Bo Li's pass too). The
    clock moved on past the interval, a tap on the spot is a tap of its own: it undoes Bo Li's
    pass."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        table = made["id"]
        for body in (
            {"seat": 1, "play": "3h"},
            {"seat": 2, "play": "-"},
            {"seat": 3, "play": "9h"},
        ):
            r = client.post(f"/api/tables/{table}/moves", json=body, headers=auth)
            assert r.is_success, r.text
        a = tab(
            phone(browser, PHONE if size == "phone" else DESKTOP),
            str(client.base_url).rstrip("/") + made["join"],
        )
        a.clock.set_fixed_time(T0)
        at(a, 4)
        a.locator("#undo-btn").scroll_into_view_if_needed()
        x, y = _foot(a, "#undo-btn")
        _tap(a, x, y)
        at(a, 5)
        sent(a)
        assert under(a, x, y, "#undo-btn")
        _tap(a, x, y)
        sent(a)
        assert moves(client, table) == [(1, "3h"), (2, "pass")]
        msg = a.locator("#msg").inner_text()
        assert "Not undone: a double tap" in msg, msg
        shot(a, f"3-undo-tapped-twice-{size}")

        a.clock.set_fixed_time(T0 + timedelta(seconds=1))
        # the refusal's line pushed Undo down: the page scrolled to put it under the finger again
        box = a.locator("#undo-btn").bounding_box()
        a.evaluate("d => window.scrollBy(0, d)", box["y"] + box["height"] - 5 - y)
        assert under(a, x, y, "#undo-btn")
        _tap(a, x, y)
        at(a, 6)
        sent(a)
        assert moves(client, table) == [(1, "3h")]


def test_sheng_ji_undo_tapped_twice_counted_one_each_is_one_undo(
    browser: Any, tmp_path: Path
) -> None:
    """Sheng ji, the clock standing still: Undo tapped twice on one spot (each tap counted 1),
    the first undo (Bo's 3s) in and shown before the second: one undo, Ann's As stays."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_two_plays(client)
        a = tab(phone(browser), str(client.base_url).rstrip("/") + made["join"])
        a.clock.set_fixed_time(T0)
        at(a, 4)
        a.locator(SJ_UNDO).scroll_into_view_if_needed()
        x, y = _foot(a, SJ_UNDO)
        _tap(a, x, y)
        at(a, 5)
        sent(a)
        assert under(a, x, y, SJ_UNDO)
        _tap(a, x, y)
        sent(a)
        assert client.get(url).json()["version"] == 5
        assert _sj_plays(client, url) == ["As"]
        msg = a.locator("#msg").inner_text()
        assert "Not undone: a double tap" in msg, msg
        shot(a, "4-sj-undo-tapped-twice")


def test_sheng_ji_the_second_of_two_like_cards_keeps_the_focus(
    browser: Any, tmp_path: Path
) -> None:
    """Bo's hand holds two 3♠ (two decks): the second has the focus (a key pressed on it) when
    Ann's play, entered by another phone, draws the form anew. The second keeps it, not the
    first of that text (a key pressed again then picked the other card)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = _sj_table(client)
        url = f"/api/tables/{made['id']}"
        hand = {"dealer": 1, "trump": "s", "deals": {"2": "3s 3s ?23"}}
        discard = {"seat": 1, "discard": "3c 4c 5c 6c 7c 8c 9c Tc"}
        for path, body in (("hands", hand), ("moves", discard)):
            r = client.post(f"{url}/{path}", json=body, headers=auth)
            assert r.is_success, r.text
        a = tab(phone(browser), str(client.base_url).rstrip("/") + made["join"])
        at(a, 2)
        a.select_option("#sj-seat", "2")
        twins = a.locator(".sjhand button[data-card='3s']")
        assert twins.count() == 2
        twins.nth(1).focus()
        r = client.post(f"{url}/moves", json={"seat": 1, "play": "As"}, headers=auth)
        assert r.is_success, r.text
        at(a, 3)
        focused = "[...document.querySelectorAll('.sjhand button')].indexOf(document.activeElement)"
        assert a.evaluate(focused) == 1  # the second 3♠
        shot(a, "5-sj-twin-focus")


def test_zhengfen_the_next_seats_pass_tapped_within_the_interval_is_refused_by_name(
    browser: Any, tmp_path: Path
) -> None:
    """Pass, as the page is drawn anew after Bo Li's pass, stays where it was and is 王芳's: a
    tap on it within the interval (the clock standing still), counted 1, is the second of a
    double tap (an accidental one passed for 王芳), refused naming her pass. The page was drawn
    anew between the taps (the first's answer in), as it is on a local network, so the guard
    must hold then too. A tap after the interval enters it."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        table = made["id"]
        r = client.post(f"/api/tables/{table}/moves", json={"seat": 1, "play": "3h"}, headers=auth)
        assert r.is_success, r.text
        a = tab(phone(browser), str(client.base_url).rstrip("/") + made["join"])
        a.clock.set_fixed_time(T0)
        at(a, 2)
        a.locator("#pass-btn").scroll_into_view_if_needed()
        x, y = _foot(a, "#pass-btn")
        _tap(a, x, y)
        at(a, 3)
        sent(a)
        assert under(a, x, y, "#pass-btn")
        assert a.locator("#entry .seat-chip.on").inner_text() == "王芳"
        _tap(a, x, y)
        sent(a)
        assert moves(client, table) == [(1, "3h"), (2, "pass")]
        msg = a.locator("#msg").inner_text()
        assert "Not entered: 王芳: pass, a double tap" in msg, msg
        shot(a, "6-next-pass-refused")

        a.clock.set_fixed_time(T0 + timedelta(seconds=1))
        a.locator("#pass-btn").click()
        at(a, 4)
        sent(a)
        assert moves(client, table) == [(1, "3h"), (2, "pass"), (3, "pass")]
