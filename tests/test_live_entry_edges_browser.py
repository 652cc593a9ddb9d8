"""Entries a scribe makes where the page's view is behind or a refused throw is left in the box:
in headless Chromium against a real `zfrec serve`.

- Zheng Fen, offline: a lead entered (waiting to be sent) leaves the page showing the trick
  empty, where no pass could be made; Pass stays open for the next seat (the server judges it
  when it is sent), and both go in, in order, once online.
- Sheng ji: a throw refused for its block (a shown card that cannot be read) comes back to the
  box with its block open; a single typed after it is no throw, so it goes without the block
  (the block's fields once went with every later play, each refused in turn).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_live_phones import DESKTOP, PHONE, at, dealt_table, sent
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
    page.screenshot(path=str(ARTIFACTS / f"live-entry-{name}.png"))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_zhengfen_a_pass_after_a_lead_waiting_offline(
    browser: Any, tmp_path: Path, size: str
) -> None:
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        ctx = phone(browser, PHONE if size == "phone" else DESKTOP)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        ctx.set_offline(True)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.locator('#entry button[data-seat="2"]').click()
        assert a.locator("#pass-btn").is_enabled()
        a.locator("#pass-btn").click()
        assert a.locator("#outbox .out").count() == 2
        shot(a, f"1-offline-pass-{size}")
        ctx.set_offline(False)
        sent(a)
        at(a, 3)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "pass")]
        # with nothing waiting, the table shown again: no pass for the leader
        a.locator('#entry button[data-seat="3"]').click()
        a.locator("#play-text").fill("9h")
        a.locator("#play-btn").click()
        at(a, 4)
        sent(a)
        ctx.close()


def test_sheng_ji_a_single_after_a_refused_blocked_throw_goes_without_the_block(
    browser: Any, tmp_path: Path
) -> None:
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        a.wait_for_selector("#entry:not(.hidden)")
        at(a, 2)
        a.select_option("#sj-seat", "1")
        a.locator("#sj-cards").fill("Kh Qh")
        a.locator("#sj-block summary").click()
        a.select_option("#sj-blocker", "3")
        a.locator("#sj-shows").fill("?")
        assert a.locator("#entry button:text-is('Play, blocked')").count() == 1
        a.locator("#entry button:text('Play')").click()
        a.wait_for_selector("#msg .msg.error")
        sent(a)
        assert a.locator("#sj-block").evaluate("d => d.open")  # back to be put right
        a.locator("#sj-cards").fill("As")
        a.locator("#entry button:text('Play')").click()
        at(a, 3)
        sent(a)
        st = client.get(url).json()
        assert [m.get("play") for m in st["moves"] if m.get("play")] == ["As"]
        assert not a.locator("#sj-block").evaluate("d => d.open")
        assert a.locator("#entry button:text-is('Play')").count() == 1
        shot(a, "2-sj-single-after-block")
        ctx.close()
