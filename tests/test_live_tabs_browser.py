"""Double taps on Pass and Start hand (LIVE.md, "The pages"); the moves kept after a refusal
(LIVE.md, "The outbox"). In headless Chromium at 390x844 (and 1280x800) against a real `zfrec
serve`. Screenshots go to test-artifacts/live-tabs-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_live_phones import DESKTOP, PHONE, at, dealt_table, sent
from tests.test_live_requests_browser import _sj_at_lead
from tests.test_live_server import server
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-tabs-{name}.png"))


def phone(browser: Any, viewport: dict[str, int] = PHONE) -> Any:
    mobile = viewport is PHONE
    return browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)


def tab(context: Any, url: str) -> Any:
    """A tab of the phone `context`, on `url`, its outbox shown."""
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url)
    page.wait_for_selector("body[data-outbox]", state="attached")
    return page


def play(page: Any, seat: int, cards: str) -> None:
    page.locator(f'#entry button[data-seat="{seat}"]').click()
    page.locator("#play-text").fill(cards)
    page.locator("#play-btn").click()


def moves(client: Any, table: str) -> list[tuple[int, str]]:
    st = client.get(f"/api/tables/{table}").json()
    return [(m["seat"], m["play"]) for m in st["moves"]]


def test_a_double_tap_on_pass_or_start_hand_is_one_entry(browser: Any, tmp_path: Path) -> None:
    """Pass or Start hand tapped twice while the first waits (offline, here): one entry. The
    second pass was queued and, sent, entered for the next seat; the second start was queued
    and refused (a hand in progress). Once the first is in, Pass passes the next seat."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made: dict[str, Any] = client.post(
            "/api/tables", json={"players": ["Ann", "Bo Li", "王芳"]}
        ).json()
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        a.wait_for_selector("#start-btn")
        ctx.set_offline(True)
        a.select_option("#shuffler", "3")
        a.locator("#start-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.locator("#start-btn").tap(force=True)  # disabled now: the tap reaches nothing
        a.locator("#start-btn").dispatch_event("click")  # nor does a click that gets through
        assert a.locator("#outbox .out").count() == 1
        assert "waiting" in a.locator("#start-btn").inner_text()
        ctx.set_offline(False)
        sent(a)
        at(a, 1)
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()

        play(a, 1, "3h")
        at(a, 2)
        ctx.set_offline(True)
        a.locator("#pass-btn").tap()
        a.locator("#pass-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        assert a.locator("#outbox .out").count() == 1
        shot(a, "3-double-tap-pass")
        ctx.set_offline(False)
        sent(a)
        at(a, 3)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "pass")]
        a.locator("#pass-btn").tap()  # once the first is in: the next seat's pass
        at(a, 4)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "pass"), (3, "pass")]


def _held_zhengfen(client: Any, browser: Any, viewport: dict[str, int]) -> Any:
    """A Zheng Fen page whose outbox keeps two moves made after a refused one (Ann's 3s, not
    in her hand)."""
    made, _auth = dealt_table(client)
    ctx = phone(browser, viewport)
    a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
    at(a, 1)
    ctx.set_offline(True)
    play(a, 1, "3s")
    a.wait_for_selector('#outbox .out[data-status="retrying"]')
    play(a, 2, "5d")
    play(a, 3, "9c")
    ctx.set_offline(False)
    a.wait_for_selector("#held")
    return a


def _held_shengji(client: Any, browser: Any, viewport: dict[str, int]) -> Any:
    """A Sheng ji page whose outbox keeps two plays made after a refused one (Bo's lead when
    Ann leads)."""
    made, _url = _sj_at_lead(client)
    ctx = phone(browser, viewport)
    a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
    at(a, 2)
    ctx.set_offline(True)
    for seat, cards in (("2", "Ah"), ("3", "3h"), ("4", "5h")):
        a.select_option("#sj-seat", seat)
        a.locator("#sj-cards").fill(cards)
        a.locator("#entry button:text('Play')").click()
    a.wait_for_selector('#outbox .out[data-status="retrying"]')
    ctx.set_offline(False)
    a.wait_for_selector("#held")
    return a


@pytest.mark.parametrize("game", ["zhengfen", "shengji"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_moves_kept_after_a_refusal_take_one_line_until_opened(
    browser: Any, tmp_path: Path, game: str, size: str
) -> None:
    """The moves kept after a refused entry stand in the sticky area over the cards. Listed
    one a line with a heading and the buttons under them, two moves took about 110 px of a
    phone's screen. Now they are one line, with their count and Enter again and Let go; a tap
    on the count lists them. Enter again still sends them."""
    viewport = PHONE if size == "phone" else DESKTOP
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        make = _held_zhengfen if game == "zhengfen" else _held_shengji
        a = make(client, browser, viewport)
        held = a.locator("#held")
        height = held.bounding_box()["height"]
        assert height <= 48, height
        assert "2 moves not sent" in held.inner_text()
        assert a.locator("#held .out.dropped").first.is_visible() is False
        shot(a, f"4-held-{game}-{size}")
        a.locator("#held summary").click()
        assert a.locator("#held .out.dropped").count() == 2
        assert a.locator("#held .out.dropped").first.is_visible()
        shot(a, f"5-held-open-{game}-{size}")
        assert a.locator("#again-btn").is_visible() and a.locator("#forget-btn").is_visible()
