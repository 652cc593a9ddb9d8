"""Sheng ji's outbox (LIVE.md, "Sheng ji"; templates/outbox.js, shared with Zheng Fen's page), in
Chromium against a real `zfrec serve`: an entry made while the server is stopped survives a
reload and goes in once when the server is back; one whose answer was lost goes again after a
reload with its own request id; one the server refuses leaves the outbox with its message; one
answered 503 goes again by itself. Screenshots go to test-artifacts/live-sj-outbox-*.png, at
390x844 and 1280x800.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_live_edges_browser import from_read_only, writer_and_read_only
from tests.test_live_phones import at, dealt_table, device
from tests.test_live_phones import play as zf_play
from tests.test_live_phones import sent as zf_sent
from tests.test_live_requests_browser import _sj_at_lead
from tests.test_live_server import free_port, server
from tests.test_live_shengji_browser import DESKTOP, PHONE, Device
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]
RETRYING = '#outbox .out[data-status="retrying"]'


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-sj-outbox-{name}.png"))


def plays(client: Any, url: str) -> list[Any]:
    return [m.get("play") for m in client.get(url).json()["moves"]]


def enter(d: Device, seat: int, cards: str) -> None:
    d.page.select_option("#sj-seat", str(seat))
    d.page.locator("#sj-cards").fill(cards)
    d.tap("#entry button:text('Play')")


def sent(d: Device) -> None:
    d.page.wait_for_selector('body[data-outbox="0"]', state="attached")


def test_a_play_entered_with_the_server_stopped_survives_a_reload(
    browser: Any, tmp_path: Path
) -> None:
    """Ann's lead is entered while the server is stopped: it waits in the outbox, not sent. The
    page is reloaded while the server is still down (nothing loads), and opened again once it
    is back, its connection still failing: the lead is there, shown as not sent. When the
    connection is back it goes in, once. (It was lost with the page: the Sheng ji page kept it
    in memory only.)"""
    db, port = f"sqlite:///{tmp_path / 'club.db'}", free_port()
    for viewport in (PHONE, DESKTOP):
        with server(db, tmp_path / "a.log", port) as (proc, client):
            base = str(client.base_url).rstrip("/")
            made, url = _sj_at_lead(client)
            a = Device(browser, viewport)
            a.page.goto(base + made["join"])
            a.page.wait_for_selector("#entry:not(.hidden)")
            a.at(2)
            proc.kill()  # the server stops
            proc.wait(timeout=10)
            enter(a, 1, "Ah")
            a.page.wait_for_selector(RETRYING)
            assert "Ann: Ah" in a.page.locator("#outbox").inner_text()
            assert a.page.locator("#sj-cards").input_value() == ""  # free for the next entry
            with pytest.raises(sync_api.Error):
                a.page.reload()  # nothing answers
        with server(db, tmp_path / "b.log", port) as (_proc, client):
            a.page.route("**/moves", lambda route: route.abort())  # entries still do not go
            a.page.goto(f"{base}/t/{made['id']}")  # the token is kept on the phone
            a.page.wait_for_selector(RETRYING)
            assert "Ann: Ah" in a.page.locator("#outbox").inner_text()
            assert a.page.locator("#sj-cards").input_value() == ""
            a.at(2)
            # the felt shows the play as waiting, and the seat picked is the next one's
            waiting = a.page.locator('#felt .sjseat[data-seat="1"] .played.waiting')
            assert "A\u2665" in waiting.inner_text() and "waiting" in waiting.inner_text()
            assert a.page.locator("#sj-seat").input_value() == "2"
            shot(a.page, f"1-waiting-{viewport['width']}")
            a.page.unroute("**/moves")
            a.at(3)
            sent(a)
            assert plays(client, url) == [None, "Ah"]  # once
            assert a.page.locator("#msg .msg").count() == 0, a.page.locator("#msg").inner_text()
            shot(a.page, f"2-sent-{viewport['width']}")
            a.context.close()


def test_an_entry_whose_answer_was_lost_goes_again_after_a_reload_with_its_request_id(
    browser: Any, tmp_path: Path
) -> None:
    """Ann's lead reaches the server, its answer is lost, and the connection keeps failing.
    The page is reloaded: the lead is still in the outbox, and sent again with the request id it
    was first sent with, the server answers it as taken (`repeated`): in once, and nothing is
    said against it (sent with a new id and the version it was made at, it would be refused as
    stale)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        a = Device(browser, PHONE)
        posts: list[dict[str, Any]] = []
        let_through: list[bool] = []

        def lost_then_down(route: Any) -> None:
            posts.append(json.loads(route.request.post_data or "{}"))
            if len(posts) == 1:
                route.fetch()  # the server takes the lead ...
                route.abort()  # ... and its answer is lost
            elif let_through:
                route.continue_()
            else:
                route.abort()

        a.page.route("**/moves", lost_then_down)
        a.page.goto(str(client.base_url).rstrip("/") + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.at(2)
        enter(a, 1, "Ah")
        a.page.wait_for_selector(RETRYING)
        a.page.reload()
        a.page.wait_for_selector(RETRYING)
        assert "Ann: Ah" in a.page.locator("#outbox").inner_text()
        let_through.append(True)
        a.at(3)
        sent(a)
        assert plays(client, url) == [None, "Ah"]  # once
        assert len(posts) >= 3  # the first, one before the reload or after it, and the last
        assert {p["request_id"] for p in posts} == {posts[0]["request_id"]}
        assert {p["version"] for p in posts} == {2}
        assert a.page.locator("#msg .msg").count() == 0, a.page.locator("#msg").inner_text()


def test_an_entry_the_server_refuses_leaves_the_outbox(browser: Any, tmp_path: Path) -> None:
    """With no connection for entries, Ann leads Ah and then Ann again is entered (Kh: not her
    turn). Reloaded and the connection back, Ah goes in and Kh is refused (SJ202, the
    validator's message): it leaves the outbox, goes back into the box with its seat, and is
    not sent again, a reload later too."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        a = Device(browser, PHONE)
        a.page.goto(str(client.base_url).rstrip("/") + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.at(2)
        a.page.route("**/moves", lambda route: route.abort())
        enter(a, 1, "Ah")
        a.page.wait_for_selector(RETRYING)
        enter(a, 1, "Kh")
        a.page.wait_for_selector('#outbox .out[data-status="waiting"]')
        assert a.page.locator("#outbox .out").count() == 2
        shot(a.page, "3-two-waiting")
        a.page.reload()
        a.page.wait_for_selector(RETRYING)
        assert a.page.locator("#outbox .out").count() == 2
        a.page.unroute("**/moves")
        a.page.wait_for_selector("#msg .msg.error:has-text('SJ202')")
        sent(a)
        a.at(3)
        assert plays(client, url) == [None, "Ah"]
        assert a.page.locator("#sj-cards").input_value() == "Kh"  # back in the box
        assert a.page.locator("#sj-seat").input_value() == "1"
        assert "Ann: Kh, not entered" in a.page.locator("#msg").inner_text()  # named: it came late
        # its seat in view below the refusal (the page was at the foot of the form: behind it)
        seat, dock = (a.page.locator(s).bounding_box() for s in ("#sj-seat", "#dock"))
        assert seat is not None and dock is not None
        assert seat["y"] >= dock["y"] + dock["height"], (seat, dock)
        shot(a.page, "4-refused")
        a.page.reload()
        a.at(3)
        sent(a)
        assert client.get(url).json()["version"] == 3
        kept = a.page.evaluate(
            f"Object.keys(localStorage).filter(k => k.startsWith('zfrec-outbox:{made['id']}'))"
            ".map(k => localStorage.getItem(k))"
        )
        # the open tab's own outbox alone is stored (so that a copy of the tab takes an id of
        # its own), and nothing is left in it to send
        assert [json.loads(k) for k in kept] == [{"items": [], "held": []}]
        a.errors.clear()  # the failed and refused requests are logged by the browser


def test_an_entry_answered_503_is_sent_again_without_a_tap(browser: Any, tmp_path: Path) -> None:
    """Ann's lead is answered 503 (a real one: a second server on the same file opens it
    read-only): the page names the store's trouble and sends the lead again by itself, and it
    goes in once. It waited for a second tap."""
    with writer_and_read_only(tmp_path) as (client, client_ro):
        made, url = _sj_at_lead(client)
        a = Device(browser, PHONE)
        tries: list[int] = []

        def read_only_first(route: Any) -> None:
            tries.append(1)
            if len(tries) == 1:
                refused = from_read_only(route, client, client_ro)
                assert refused.status == 503
                route.fulfill(response=refused)
            else:
                route.continue_()

        a.page.route("**/moves", read_only_first)
        a.page.goto(str(client.base_url).rstrip("/") + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.at(2)
        enter(a, 1, "Ah")
        a.page.wait_for_selector("#msg .code:has-text('store')")
        assert "the store is read-only" in a.page.locator("#msg").inner_text()
        a.at(3)  # no second tap
        sent(a)
        assert len(tries) == 2
        assert plays(client, url) == [None, "Ah"]
        a.page.wait_for_selector("#msg .msg", state="detached")  # the store's line goes
        a.errors.clear()  # the 503 is logged by the browser


# A double tap on Undo, and the moves typed after a refused one (both pages) ---------------------


def test_sheng_ji_a_double_tap_on_undo_undoes_one_entry(browser: Any, tmp_path: Path) -> None:
    """Undo is tapped twice before the first is answered (a double tap, here with no
    connection, so the first surely waits): each tap made an undo of its own, with its own
    request id and the version after the other, and the server took both: two entries undone
    where the player meant one. The second tap now does nothing while an undo waits."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        auth = {"Authorization": f"Bearer {made['token']}"}
        r = client.post(f"{url}/moves", json={"seat": 1, "play": "Ah"}, headers=auth)
        assert r.status_code == 200, r.text
        a = Device(browser, PHONE)
        a.page.goto(str(client.base_url).rstrip("/") + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.at(3)
        a.context.set_offline(True)
        a.tap("#entry button:text('Undo')")
        a.page.wait_for_selector(RETRYING)
        a.tap("#entry button:text('Undo')")
        assert a.page.locator("#outbox .out").count() == 1
        a.context.set_offline(False)
        a.at(4)
        sent(a)
        assert client.get(url).json()["entries"] == 2  # one undone: the discard stays
        assert plays(client, url) == [None]
        a.tap("#entry button:text('Undo')")  # answered: Undo undoes one more
        a.at(5)
        assert client.get(url).json()["entries"] == 1


def test_zheng_fen_a_double_tap_on_undo_undoes_one_entry(browser: Any, tmp_path: Path) -> None:
    """As on Sheng ji's page: two taps on Undo with the first waiting undo one entry."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        url = f"/api/tables/{made['id']}"
        for body in ({"seat": 1, "play": "3h"}, {"seat": 2, "play": "9c"}):
            r = client.post(f"{url}/moves", json=body, headers=auth)
            assert r.status_code == 200, r.text
        ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 3)
        ctx.set_offline(True)
        a.locator("#undo-btn").tap()
        a.wait_for_selector(RETRYING)
        a.locator("#undo-btn").tap()
        assert a.locator("#outbox .out").count() == 1
        ctx.set_offline(False)
        at(a, 4)
        zf_sent(a)
        assert [m["play"] for m in client.get(url).json()["moves"]] == ["3h"]
        ctx.close()


def test_sheng_ji_moves_typed_after_a_refused_one_are_kept_to_enter_again(
    browser: Any, tmp_path: Path
) -> None:
    """With no connection for entries, Ann's lead is typed wrong (`Ahh`) and Bo's and Cy's
    plays after it. The server refuses Ann's (ZF001): it goes back into the box, and Bo's and
    Cy's, made after it, leave the outbox too. They were named in the message and gone: to be
    typed again, seat by seat. Now they are kept under the outbox, not sent; Ann's put right
    and sent, one tap on Enter again sends them in order, as they were typed (a reload keeps
    them meanwhile)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        a = Device(browser, PHONE)
        a.page.goto(str(client.base_url).rstrip("/") + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.at(2)
        a.page.route("**/moves", lambda route: route.abort())
        enter(a, 1, "Ahh")
        a.page.wait_for_selector(RETRYING)
        enter(a, 2, "3h")
        enter(a, 3, "5h")
        assert a.page.locator("#outbox .out").count() == 3
        a.page.unroute("**/moves")
        a.page.wait_for_selector("#msg .msg.error:has-text('ZF001')")
        sent(a)
        assert "Bo: 3h" in a.page.locator("#msg").inner_text()  # named
        held = a.page.locator("#outbox .out.dropped")
        assert held.count() == 2
        assert "2 moves not sent" in a.page.locator("#held summary").inner_text()
        a.tap("#held summary")  # listed when their count is tapped
        assert "Bo: 3h" in held.nth(0).inner_text() and "Cy: 5h" in held.nth(1).inner_text()
        shot(a.page, "5-refused-later-kept-390")
        a.page.set_viewport_size(DESKTOP)
        shot(a.page, "5-refused-later-kept-1280")
        a.page.set_viewport_size(PHONE)
        a.page.reload()
        a.page.wait_for_selector("#held")
        assert a.page.locator("#outbox .out.dropped").count() == 2  # a reload keeps them
        assert plays(client, url) == [None]  # nothing sent meanwhile
        enter(a, 1, "Ah")  # put right
        a.at(3)
        a.tap("#again-btn")
        a.at(5)
        sent(a)
        assert plays(client, url) == [None, "Ah", "3h", "5h"]
        assert a.page.locator("#outbox .out.dropped").count() == 0
        a.errors.clear()  # the refused and aborted requests are logged by the browser


def test_sheng_ji_a_refused_blocked_throw_comes_back_with_its_block(
    browser: Any, tmp_path: Path
) -> None:
    """A throw entered as blocked (Cy shows a card) is refused: the cards went back into the
    box, but the blocker and the shown card were gone, to be entered again. They come back with
    it, the block open."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        a = Device(browser, PHONE)
        a.page.goto(str(client.base_url).rstrip("/") + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.at(2)
        a.page.select_option("#sj-seat", "2")  # not Ann's lead: refused (SJ203)
        a.page.locator("#sj-cards").fill("Kh Qh")
        a.page.locator("#sj-block summary").click()
        a.page.select_option("#sj-blocker", "3")
        a.page.locator("#sj-shows").fill("Ah")
        a.tap("#entry button:text('Play')")
        a.page.wait_for_selector("#msg .msg.error")
        sent(a)
        assert a.page.locator("#sj-cards").input_value() == "Kh Qh"
        assert a.page.locator("#sj-block").evaluate("d => d.open")
        assert a.page.locator("#sj-blocker").input_value() == "3"
        assert a.page.locator("#sj-shows").input_value() == "Ah"
        assert plays(client, url) == [None]
        a.errors.clear()


def test_zheng_fen_moves_typed_after_a_refused_one_are_kept_to_enter_again(
    browser: Any, tmp_path: Path
) -> None:
    """Zheng Fen's page, as Sheng ji's: Ann's Kh (not in her hand) is refused, and Bo Li's Ac
    and 王芳's pass typed after it are kept to enter again with one tap."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        url = f"/api/tables/{made['id']}"
        ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        a.route("**/moves", lambda route: route.abort())
        zf_play(a, 1, "Kh")
        a.wait_for_selector(RETRYING)
        zf_play(a, 2, "Ac")
        zf_play(a, 3, "-")
        assert a.locator("#outbox .out").count() == 3
        a.unroute("**/moves")
        a.wait_for_selector("#msg .msg.error")
        zf_sent(a)
        assert a.locator("#outbox .out.dropped").count() == 2
        assert "Bo Li: Ac" in a.locator("#msg").inner_text()
        shot(a, "6-zf-refused-later-kept-390")
        a.set_viewport_size(DESKTOP)
        shot(a, "6-zf-refused-later-kept-1280")
        a.set_viewport_size(PHONE)
        assert a.locator("#play-text").input_value() == "Kh"  # back in the box
        a.locator("#play-text").fill("3h")
        a.locator("#play-btn").tap()
        at(a, 2)
        a.locator("#again-btn").tap()
        at(a, 4)
        zf_sent(a)
        st = client.get(url).json()
        assert [m["play"] for m in st["moves"]] == ["3h", "Ac", "pass"]
        ctx.close()
