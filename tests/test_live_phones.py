"""Two writer phones and a spectator at one table, in Chromium at 390x844 (issue 27).

A real `zfrec serve` on loopback. Phone A goes offline mid-entry and comes back (its moves go
in once, in order, none becomes a pass), keeps an entry through a reload, keeps its half-typed
move when phone B's move arrives, has an entry made against a stale version refused (and keeps
it), confirms one inferred pass and undoes another, and marks a move disputed, commented and
annotated; the exported record holds all of it and the date. Screenshots at 390x844 and
1280x800 go to test-artifacts/live-phones-*.png.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.test_live_server import server
from tests.test_render_browser import ARTIFACTS
from zfrec.record import loads

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
DEAL_ANN = "3h 4h 5s 5h 6d 7c 8s 8h 9d Tc Jh Qs Kd Ad 2s 2c SJ BJ"


def dealt_table(
    client: Any, players: Sequence[str] = ("Ann", "Bo Li", "王芳"), **extra: Any
) -> tuple[dict[str, Any], dict[str, str]]:
    """A Zheng Fen table on the server (`extra`: more of its fields) with hand 1 begun, the
    first seat's deal typed (`DEAL_ANN`, seat 3 shuffled): the table as the API made it, and
    its writer's header."""
    made: dict[str, Any] = client.post(
        "/api/tables", json={"players": list(players), **extra}
    ).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    r = client.post(
        f"/api/tables/{made['id']}/hands",
        json={"shuffler": 3, "deals": {"1": DEAL_ANN}},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    return made, auth


def device(browser: Any, viewport: dict[str, int] = PHONE) -> tuple[Any, Any]:
    mobile = viewport is PHONE
    context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


def shot(page: Any, name: str, full: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-phones-{name}.png"), full_page=full)


def at(page: Any, version: int) -> None:
    page.wait_for_selector(f'body[data-version="{version}"]', state="attached")


def sent(page: Any) -> None:
    """Wait until the phone's outbox is empty (everything answered)."""
    page.wait_for_selector('body[data-outbox="0"]', state="attached")


# outbox.js: a tap on the spot of the last one within this interval is a double tap's second,
# also where the phone counts each tap as a new one (the click's `detail` 1)
DOUBLE_TAP_MS = 400


def tap_anew(locator: Any) -> None:
    """A tap the phone counts as one of its own, as a person's tap after looking at the answer
    to the last one: not the second of a double tap (two quick taps on one spot are counted as
    one double tap, the click's `detail` 2, or a tap on the spot of the last within
    DOUBLE_TAP_MS, and made from the first tap's view: LIVE.md, "Versions"). A test taps far
    quicker than a person looks: it lets the interval go by first (a wait, not a timing the
    test depends on: longer changes nothing)."""
    locator.page.wait_for_timeout(DOUBLE_TAP_MS + 100)
    locator.click()


def play(page: Any, seat: int, cards: str, tap: bool = False) -> None:
    """Pick the seat, tap or type the cards, and tap Play."""
    page.locator(f'#entry button[data-seat="{seat}"]').tap()
    if tap:
        for card in cards.split():
            page.locator(f'#entry .picker button[data-card="{card}"]').tap()
    else:
        page.locator("#play-text").fill(cards)
    page.locator("#play-btn").tap()


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def one_undo_button(page: Any) -> None:
    assert page.locator("#undo-btn").count() <= 1


def test_two_phones_and_a_spectator(browser: Any, tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        ctx_a, a = device(browser)
        _ctx_b, b = device(browser)
        _ctx_c, c = device(browser)
        missing: list[str] = []
        for page in (a, b, c):
            page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)

        # Phone A sets the table up, with the date the game is played.
        a.goto(f"{base}/new")
        assert a.locator("input[name=date]").input_value()  # today, by default
        for i, name in enumerate(["Ann", "Bo Li", "王芳"]):
            a.locator("input[name=player]").nth(i).fill(name)
        a.locator("input[name=date]").fill("2026-11-20")
        a.locator("button[type=submit]").tap()
        a.wait_for_selector("#handstart:not(.hidden)")
        table = a.url.split("/t/")[1].split("?")[0].split("#")[0]

        # The Invite panel: its QR code renders, and the join link has Copy.
        ctx_a.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        a.locator("#invite summary").tap()
        a.wait_for_selector(".qr img")
        a.wait_for_function("document.querySelector('.qr img').naturalWidth > 100")
        join = a.locator("#join-link").inner_text()
        a.locator("#copy-link").tap()
        a.wait_for_selector("#copied:has-text('Copied')")
        assert a.evaluate("navigator.clipboard.readText()") == join
        shot(a, "1-invite", full=True)
        a.locator("#invite summary").tap()

        b.goto(join)
        c.goto(f"{base}/t/{table}")
        at(b, 0)

        # Hand 1: 王芳 shuffled; Ann's cards typed in.
        a.select_option("#shuffler", "3")
        a.locator('button[data-mode="own"]').tap()
        a.locator("#deal-text").fill(DEAL_ANN)
        a.locator("#start-btn").tap()
        at(a, 1)
        one_undo_button(a)

        # Offline mid-entry: Ann's 3h tapped, then Play; Bo Li's 5d typed and Play. Both wait
        # in the outbox, visibly not sent; back online they go in once each, in order.
        ctx_a.set_offline(True)
        a.locator('#entry .picker button[data-card="3h"]').tap()
        a.locator("#play-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        play(a, 2, "5d")
        assert a.locator("#outbox .out").count() == 2
        shot(a, "2-offline")
        assert client.get(f"/api/tables/{table}").json()["version"] == 1
        ctx_a.set_offline(False)
        sent(a)
        at(a, 3)
        assert [
            (m["seat"], m["play"]) for m in client.get(f"/api/tables/{table}").json()["moves"]
        ] == [
            (1, "3h"),
            (2, "5d"),
        ]

        # An entry survives a reload while the server cannot be reached.
        a.route("**/api/tables/*/moves", lambda route: route.abort())
        play(a, 3, "9c")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.reload()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        assert "9c" in a.locator("#outbox").inner_text()
        a.unroute("**/api/tables/*/moves")
        sent(a)
        at(a, 4)
        at(b, 4)
        at(c, 4)

        # A starts Ann's move (Jh tapped); B enters Ann's Tc. A's page follows the table and
        # keeps the half-typed move and the seat it chose.
        a.locator('#entry button[data-seat="1"]').tap()
        a.locator('#entry .picker button[data-card="Jh"]').tap()
        play(b, 1, "Tc")
        at(a, 5)
        assert a.locator("#play-text").input_value() == "Jh"
        assert a.locator('#entry button[data-seat="1"]').get_attribute("aria-pressed") == "true"
        assert "Bo Li to play" in a.locator("#turn").inner_text()

        # A sends it: a play by Ann now means Bo Li and 王芳 passed. The page asks first.
        a.locator("#play-btn").tap()
        a.wait_for_selector("#confirm-passes")
        assert "Bo Li and 王芳 passed?" in a.locator("#msg").inner_text()
        assert in_view(a, "#msg") and in_view(a, "#turn")
        shot(a, "3-passed-question")
        a.locator("#confirm-passes").tap()
        at(a, 6)
        a.wait_for_selector('#msg[data-inferred="2,3"]')

        # An inferred pass undone in one tap: 王芳's Qh would mean Bo Li passed; it did not.
        play(a, 3, "Qh")
        a.locator("#confirm-passes").tap()
        a.wait_for_selector('#msg[data-inferred="2"]')
        at(a, 7)
        tap_anew(a.locator("#undo-inferred"))  # where Yes was: not a double tap on it
        at(a, 8)
        assert a.locator("#play-text").input_value() == "Qh"
        a.locator("#entry button", has_text="Clear").tap()
        play(a, 2, "Kh")
        at(a, 9)
        one_undo_button(a)

        # A stale entry: A is offline while B enters 王芳's Ah; A, still at version 9, enters
        # 王芳's 2h. Back online it is refused (409), nothing changes, and A's page shows the
        # table as it is, with the 2h kept in the entry box.
        ctx_a.set_offline(True)
        at(b, 9)
        play(b, 3, "Ah")
        at(b, 10)
        play(a, 3, "2h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        ctx_a.set_offline(False)
        a.wait_for_selector("#msg .code:has-text('stale')")
        at(a, 10)
        sent(a)
        assert client.get(f"/api/tables/{table}").json()["version"] == 10
        assert a.locator("#play-text").input_value() == "2h"
        a.locator("#play-btn").scroll_into_view_if_needed()
        assert in_view(a, "#msg") and in_view(a, "#play-btn") and in_view(a, "#turn")
        shot(a, "4-stale-refused")
        a.locator("#entry button", has_text="Clear").tap()

        # A typo gets the validator's "did you mean" (Ann's cards are known).
        play(a, 1, "2x")
        a.wait_for_selector("#msg .code:has-text('ZF001')")
        assert "did you mean 2s or 2c?" in a.locator("#msg").inner_text()
        a.locator("#entry button", has_text="Clear").tap()

        # Marks on B's Ah: disputed (the other version 2h), a comment, and !?.
        a.locator("#dispute-btn").tap()
        a.locator("#dispute-or").fill("2h")
        a.locator("#dispute-note").fill("Ann saw the 2h")
        a.locator("#dispute-send").tap()
        at(a, 11)
        a.locator("#comment-btn").tap()
        a.locator("#comment-text").fill("Bo Li's hand fell open")
        a.locator("#comment-send").tap()
        at(a, 12)
        a.locator("#annotate-btn").tap()
        a.locator('#mark-form button[data-annotation="!?"]').tap()
        at(a, 13)
        at(c, 13)
        one_undo_button(a)
        shot(a, "5-marked")

        record = loads(client.get(f"/api/tables/{table}/record.zfn").text)[0]
        assert record.date == "2026.11.20"
        lines = [[(m.seat + 1, m.play_text()) for m in t.moves] for t in record.hands[0].tricks]
        assert lines == [
            [(1, "3h"), (2, "5d"), (3, "9c"), (1, "Tc")],
            [(1, "Jh"), (2, "Kh"), (3, "Ah")],
        ]
        ah = record.hands[0].tricks[1].moves[-1]
        assert ah.annotation == "!?" and ah.disputed and ah.dispute_note == "Ann saw the 2h"
        assert [v.play_text() for v in ah.alternatives] == ["2h"]
        assert ah.comments == ["Bo Li's hand fell open"]

        # The spectator follows, with no entry controls and no outbox.
        assert c.locator("#entry").is_hidden() and c.locator("#marks").is_hidden()
        assert c.locator("#outbox .out").count() == 0
        shot(c, "6-spectator")

        # The same table on a laptop screen, from the writer's link.
        _ctx_d, d = device(browser, DESKTOP)
        d.goto(join)
        at(d, 13)
        shot(d, "7-desktop")
        d.locator("#moves summary").click()
        shot(d, "8-desktop-moves", full=True)
        assert not missing, missing


def test_a_joker_declared_by_tapping_and_a_move_corrected(browser: Any, tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        table = made["id"]
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        # A pair of threes: the 3h and the small joker as the 3d (tap its chip, then the 3d).
        for card in ("3h", "SJ"):
            a.locator(f'#entry .picker button[data-card="{card}"]').tap()
        a.locator('#jokers button[data-declare="SJ"]').tap()
        a.locator('#entry .picker button[data-card="3d"]').tap()
        assert a.locator("#play-text").input_value() == "3h SJ=3d"
        shot(a, "9-joker")
        a.locator("#play-btn").tap()
        at(a, 2)
        assert client.get(f"/api/tables/{table}").json()["top"] == "3h SJ=3d"
        play(a, 2, "6s 6c")
        at(a, 3)
        # Ann's lead was the 3h alone: corrected from the move list. Bo Li's pair no longer
        # fits, and is listed to be entered again.
        a.locator("#moves summary").tap()
        a.locator('button[data-correct="2"]').tap()
        a.wait_for_selector("#editing")
        assert a.locator("#play-text").input_value() == "3h SJ=3d"
        a.locator("#entry button", has_text="Clear").tap()
        a.locator('#entry .picker button[data-card="3h"]').tap()
        a.locator("#play-btn").tap()
        at(a, 4)
        a.wait_for_selector("#msg:has-text('left out')")
        assert "Bo Li: 6s 6c" in a.locator("#msg").inner_text()
        assert a.locator("#editing").count() == 0
        shot(a, "10-corrected")
        record = loads(client.get(f"/api/tables/{table}/record.zfn").text)[0]
        assert [[m.play_text() for m in t.moves] for t in record.hands[0].tricks] == [["3h"]]
        one_undo_button(a)
        # Delete takes two taps; then Bo Li's move is gone and nothing after it is lost.
        play(a, 2, "5d")
        at(a, 5)
        a.locator('button[data-delete="3"]').tap()
        assert a.locator('button[data-delete="3"]').inner_text() == "Tap again to delete"
        assert client.get(f"/api/tables/{table}").json()["version"] == 5
        a.locator('button[data-delete="3"]').tap()
        at(a, 6)
        assert client.get(f"/api/tables/{table}").json()["moves"] == [
            {"hand": 1, "line": 1, "seat": 1, "play": "3h", "entry": 2}
        ]

        # The answer to an entry is lost (the server took it): sent again with its request id,
        # the server answers it as taken, so it counts as sent, once, with no refusal shown.
        # Answers are lost until the page shows the entry as not sent; then its retries pass.
        # The route stays until the outbox is empty: unrouted while a retry (set off at once by
        # the table's events) was inside the handler, Playwright let that retry through itself
        # and the handler's abort failed ("Route is already handled!").
        lose, tries = [True], []

        def lose_answer(route: Any) -> None:
            tries.append(route.request.post_data_json["request_id"])
            if lose[0]:
                route.fetch()
                route.abort()
            else:
                route.continue_()

        a.route("**/api/tables/*/moves", lose_answer)
        play(a, 2, "5d")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        lose[0] = False
        a.evaluate("window.dispatchEvent(new Event('online'))")  # tried again at once
        sent(a)
        a.unroute("**/api/tables/*/moves")  # nothing in flight: every entry is answered
        at(a, 7)
        assert len(tries) >= 2 and len(set(tries)) == 1, tries  # one entry, sent again
        assert a.locator("#msg .msg.error").count() == 0
        assert [m["play"] for m in client.get(f"/api/tables/{table}").json()["moves"]] == [
            "3h",
            "5d",
        ]
