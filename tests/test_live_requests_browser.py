"""Two phones at one table, one of them losing its connection mid-entry, in Chromium at 390x844
against a real `zfrec serve` (LIVE.md, "Requests sent again"): a round start, a hand start or an
undo that the other phone made first at the same entry count is not taken for this phone's (it
is refused as stale, and the page says what was not done); a Sheng ji entry made offline goes
by itself when the connection is back. Screenshots go to test-artifacts/live-requests-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_live_phones import PHONE, at, dealt_table, device, play, sent
from tests.test_live_server import server
from tests.test_live_shengji_browser import Device
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]
SJ_PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-requests-{name}.png"))


def _sj_table(client: Any) -> tuple[dict[str, Any], dict[str, str]]:
    made: dict[str, Any] = client.post(
        "/api/tables", json={"game": "shengji", "players": SJ_PLAYERS}
    ).json()
    return made, {"Authorization": f"Bearer {made['token']}"}


def _sj_at_lead(client: Any) -> tuple[dict[str, Any], str]:
    """A Sheng ji table whose round 1 (Ann deals, spades; no deal typed) is at its first lead,
    the exchange made: the table as the API made it, and its path."""
    made, auth = _sj_table(client)
    url = f"/api/tables/{made['id']}"
    discard = {"seat": 1, "discard": "3c 4c 5c 6c 7c 8c 9c Tc"}
    for path, body in (("hands", {"dealer": 1, "trump": "s"}), ("moves", discard)):
        r = client.post(f"{url}/{path}", json=body, headers=auth)
        assert r.is_success, r.text
    return made, url


def _two_phones(browser: Any, client: Any, join: str) -> tuple[Device, Device]:
    base = str(client.base_url).rstrip("/")
    phones = Device(browser, PHONE), Device(browser, PHONE)
    for d in phones:
        d.page.goto(base + join)
        d.page.wait_for_selector("#entry:not(.hidden)")
    return phones


def test_sheng_ji_a_round_start_made_offline_is_not_taken_for_another_phones(
    browser: Any, tmp_path: Path
) -> None:
    """A sets round 1 up (Ann deals, spades) while offline: not sent. B starts it with hearts.
    A's connection comes back and its start goes by itself: the table has moved on, so it is
    refused as stale and the page says the round was not started. It was taken for A's own
    (the table one entry on, its last entry a round's start: any round's), and A was told
    nothing while the round went on in hearts."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = _sj_table(client)
        a, b = _two_phones(browser, client, made["join"])
        assert a.page.locator("#entry button:text('Undo')").count() == 0  # nothing to undo
        a.context.set_offline(True)
        a.page.select_option("#sj-dealer", "1")
        a.page.select_option("#sj-trump", "s")
        a.tap("#entry button:text('Start the round')")
        a.page.wait_for_selector('#outbox .out[data-status="retrying"]')
        b.page.select_option("#sj-dealer", "1")
        b.page.select_option("#sj-trump", "h")
        b.tap("#entry button:text('Start the round')")
        b.at(1)
        a.context.set_offline(False)  # A's start goes again by itself
        a.page.wait_for_selector("#msg .msg.error:has-text('Not started')")
        a.at(1)
        assert "stale" in a.page.locator("#msg").inner_text()
        st = client.get(f"/api/tables/{made['id']}").json()
        assert st["trump"] == "h" and st["entries"] == 1
        assert a.page.locator("#entry button:text('Undo')").count() == 1
        a.errors.clear()  # the failed and refused requests are logged by the browser
        shot(a.page, "1-sj-round-start-stale")


def test_sheng_ji_a_play_made_offline_goes_when_the_connection_is_back(
    browser: Any, tmp_path: Path
) -> None:
    """A enters Ann's lead offline: it waits in the outbox, and the box is free for the next
    play. When the connection is back the page sends it by itself (it said "tap again", and
    nothing went until someone did): B sees it, it is in once. Then A undoes offline, B enters
    nothing: the undo goes by itself too, once."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        a, b = _two_phones(browser, client, made["join"])
        a.at(2)
        a.context.set_offline(True)
        a.page.select_option("#sj-seat", "1")
        a.page.locator("#sj-cards").fill("Ah")
        a.tap("#entry button:text('Play')")
        a.page.wait_for_selector('#outbox .out[data-status="retrying"]')
        assert a.page.locator("#sj-cards").input_value() == ""
        shot(a.page, "2-sj-play-offline")
        a.context.set_offline(False)
        b.at(3)
        a.at(3)
        a.page.wait_for_selector('body[data-outbox="0"]', state="attached")
        assert a.page.locator("#msg .msg").count() == 0, a.page.locator("#msg").inner_text()
        assert [m.get("play") for m in client.get(url).json()["moves"]] == [None, "Ah"]
        a.context.set_offline(True)
        a.tap("#entry button:text('Undo')")
        a.page.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.context.set_offline(False)
        b.at(4)
        assert client.get(url).json()["entries"] == 2  # one undone: the discard stays
        a.errors.clear()
        shot(a.page, "3-sj-play-online-again")


def test_zheng_fen_a_hand_start_and_an_undo_made_offline_are_not_taken_for_another_phones(
    browser: Any, tmp_path: Path
) -> None:
    """Zheng Fen's outbox: A starts hand 1 offline (王芳 shuffled), B starts it with Bo Li as
    the shuffler; back online, A's start is refused as stale and the page says the hand was not
    started (it was taken for A's: the table showed hand 1 being played). Then A undoes offline
    while B undoes the same move: A's undo is not taken for B's (the table had one entry fewer,
    as after A's), and nothing more is undone."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made: dict[str, Any] = client.post(
            "/api/tables", json={"players": ["Ann", "Bo Li", "王芳"]}
        ).json()
        url = f"/api/tables/{made['id']}"
        base = str(client.base_url).rstrip("/")
        (_ca, a), (_cb, b) = device(browser), device(browser)
        for page in (a, b):
            page.goto(base + made["join"])
            page.wait_for_selector("#start-btn")
        _ca.set_offline(True)
        a.select_option("#shuffler", "3")
        a.locator("#start-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        b.select_option("#shuffler", "2")
        b.locator("#start-btn").tap()
        at(b, 1)
        _ca.set_offline(False)
        a.wait_for_selector("#msg .msg.error:has-text('Not started')")
        sent(a)
        at(a, 1)
        assert client.get(url).json()["shuffler"] == 2
        shot(a, "4-zf-hand-start-stale")

        play(b, 2, "3h")
        at(a, 2)
        _ca.set_offline(True)
        a.locator("#undo-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        b.locator("#undo-btn").tap()
        at(b, 3)
        _ca.set_offline(False)
        a.wait_for_selector("#msg .msg.error:has-text('Not undone')")
        sent(a)
        at(a, 3)
        st = client.get(url).json()
        assert st["entries"] == 1 and st["status"] == "playing"  # one undo: the hand stays
        shot(a, "5-zf-undo-stale")


def test_the_same_move_entered_by_both_phones_is_in_once_and_said_so(
    browser: Any, tmp_path: Path
) -> None:
    """Two people log the same table. A enters Ann's 3h offline; B enters it too. A's comes
    back stale (the table moved on), but the table's one change since is that very move: A's
    page says it was entered already by another phone, instead of "Not entered" with the move
    put back to be sent again (where it would have been Ann's second play). Sheng ji alike."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        base = str(client.base_url).rstrip("/")
        (ca, a), (_cb, b) = device(browser), device(browser)
        for page in (a, b):
            page.goto(base + made["join"])
            at(page, 1)
        ca.set_offline(True)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        play(b, 1, "3h")
        at(b, 2)
        ca.set_offline(False)
        a.wait_for_selector("#msg .msg.ok:has-text('entered already, by another phone')")
        sent(a)
        at(a, 2)
        assert a.locator("#msg .msg.error").count() == 0
        assert a.locator("#play-text").input_value() == ""
        assert [m["play"] for m in client.get(f"/api/tables/{made['id']}").json()["moves"]] == [
            "3h"
        ]
        shot(a, "6-zf-same-move-twice")

        sj, url = _sj_at_lead(client)
        p, q = _two_phones(browser, client, sj["join"])
        p.at(2)
        p.context.set_offline(True)
        p.page.select_option("#sj-seat", "1")
        p.page.locator("#sj-cards").fill("10h")
        p.tap("#entry button:text('Play')")
        p.page.wait_for_selector('#outbox .out[data-status="retrying"]')
        q.page.select_option("#sj-seat", "1")
        q.page.locator("#sj-cards").fill("Th")
        q.tap("#entry button:text('Play')")
        q.at(3)
        p.context.set_offline(False)
        p.page.wait_for_selector("#msg .msg.ok:has-text('entered already, by another phone')")
        p.at(3)
        assert p.page.locator("#sj-cards").input_value() == ""
        assert [m.get("play") for m in client.get(url).json()["moves"]] == [None, "Th"]
        p.errors.clear()
        shot(p.page, "7-sj-same-play-twice")


def test_a_passes_question_the_table_moved_past_is_taken_back(browser: Any, tmp_path: Path) -> None:
    """Ann led; A enters 王芳's 9c, so the page asks whether Bo Li passed. Before A answers, B
    enters Bo Li's move. The question stayed, and "Yes, enter it" was then refused as stale.
    The page now says the table moved on, keeps 9c in the box, and Play enters it as the table
    is now (王芳's turn: no pass to ask about)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client)
        url = f"/api/tables/{made['id']}"
        assert client.post(f"{url}/moves", json={"seat": 1, "play": "3h"}, headers=auth).is_success
        base = str(client.base_url).rstrip("/")
        (_ca, a), (_cb, b) = device(browser), device(browser)
        for page in (a, b):
            page.goto(base + made["join"])
            at(page, 2)
        play(a, 3, "9c")
        a.wait_for_selector("#confirm-passes")
        play(b, 2, "5d")
        at(a, 3)
        a.wait_for_selector(
            "#msg .msg.error:has-text('The table moved on before this was answered')"
        )
        assert a.locator("#confirm-passes").count() == 0
        assert a.locator("#play-text").input_value() == "9c"
        shot(a, "8-zf-question-moved-past")
        a.locator("#play-btn").tap()
        sent(a)
        at(a, 4)
        st = client.get(url).json()
        assert [(m["seat"], m["play"]) for m in st["moves"]] == [(1, "3h"), (2, "5d"), (3, "9c")]


@pytest.mark.parametrize("game", ["zhengfen", "shengji"])
def test_a_state_answered_late_does_not_take_the_page_back(
    browser: Any, tmp_path: Path, game: str
) -> None:
    """Two moves from another phone come quickly: the page asks for the table after each. The
    first answer (one move) is slow and comes after the second (two moves): the page showed the
    older table, and stayed there until the next change. It now keeps the newer one."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        if game == "shengji":
            made, url = _sj_at_lead(client)
            moves = [{"seat": 1, "play": "Ah"}, {"seat": 2, "play": "3h"}]
        else:
            made, _auth = dealt_table(client)
            url = f"/api/tables/{made['id']}"
            moves = [{"seat": 1, "play": "3h"}, {"seat": 2, "play": "5d"}]
        auth = {"Authorization": f"Bearer {made['token']}"}
        v = client.get(url).json()["version"]
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, v)
        held: list[Any] = []

        def first_answer_late(route: Any) -> None:
            if route.request.method == "GET" and not held:
                held.append(route)  # answered later, with the table as it was asked for
            else:
                route.continue_()

        a.route(f"**{url}", first_answer_late)
        with a.expect_request(lambda r: r.method == "GET" and r.url.endswith(url)):
            assert client.post(f"{url}/moves", json=moves[0], headers=auth).is_success
        older = client.get(url).json()
        assert client.post(f"{url}/moves", json=moves[1], headers=auth).is_success
        at(a, v + 2)
        with a.expect_response(lambda r: r.url.endswith(url)):
            held[0].fulfill(status=200, content_type="application/json", body=json.dumps(older))
        a.evaluate("() => new Promise(r => setTimeout(() => setTimeout(r, 0), 0))")
        assert older["version"] == v + 1
        assert a.evaluate("document.body.getAttribute('data-version')") == str(v + 2)


def test_a_move_queued_behind_one_whose_answer_was_lost_is_not_refused(
    browser: Any, tmp_path: Path
) -> None:
    """Ann's 8s8h is taken but its answer lost, and its tries again fail for a while. The page
    hears of the table meanwhile (8s8h in it) and Bo Li's pass is queued behind. It was made
    against the table shown plus one for the move ahead, which was in already: one too many,
    so the pass was refused as stale ("Not entered") once the move's try came back answered.
    The pass now counts only entries ahead that were not in the table shown: it goes in."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        tries: list[str] = []
        blocked = [True]

        def lost_then_no_connection(route: Any) -> None:
            if json.loads(route.request.post_data or "{}").get("play") != "8s8h":
                route.continue_()
                return
            tries.append("try")
            if len(tries) == 1:
                route.fetch()  # the server takes the move ...
                route.abort()  # ... and its answer is lost
            elif blocked[0]:
                route.abort()  # the next tries do not get through
            else:
                route.continue_()

        a.route("**/api/tables/*/moves", lost_then_no_connection)
        play(a, 1, "8s8h")
        at(a, 2)  # the server's event: the table with 8s8h in it
        play(a, 2, "-")
        a.wait_for_selector('#outbox .out[data-status="waiting"]')
        blocked[0] = False
        sent(a)
        at(a, 3)
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()
        st = client.get(f"/api/tables/{made['id']}").json()
        assert [m["play"] for m in st["moves"]] == ["8s 8h", "pass"]


@pytest.mark.parametrize("game", ["zhengfen", "shengji"])
def test_an_entry_answered_after_a_newer_table_does_not_take_the_page_back(
    browser: Any, tmp_path: Path, game: str
) -> None:
    """The page enters a move; the server takes it, but its answer is slow. Meanwhile another
    phone enters the next move, and the page hears of it and shows the table with both. The
    slow answer (the table with this page's move only) then came in over it: the page showed
    the older table, and stayed there until the next change. It now keeps the newer one."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        if game == "shengji":
            made, url = _sj_at_lead(client)
            mine, theirs = ("1", "Ah"), {"seat": 2, "play": "3h"}
        else:
            made, _auth = dealt_table(client)
            url = f"/api/tables/{made['id']}"
            mine, theirs = ("1", "3h"), {"seat": 2, "play": "5d"}
        auth = {"Authorization": f"Bearer {made['token']}"}
        v = client.get(url).json()["version"]
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, v)
        held: list[tuple[Any, Any]] = []

        def answer_late(route: Any) -> None:
            if route.request.method == "POST" and not held:
                held.append((route, route.fetch()))  # taken by the server; answered later
            else:
                route.continue_()

        a.route(f"**{url}/moves", answer_late)
        if game == "shengji":
            a.select_option("#sj-seat", mine[0])
            a.locator("#sj-cards").fill(mine[1])
            a.locator("#entry button:text('Play')").tap()
        else:
            play(a, int(mine[0]), mine[1])
        at(a, v + 1)  # the server's event: the table with this page's move in it
        assert held and held[0][1].json()["version"] == v + 1
        assert client.post(f"{url}/moves", json=theirs, headers=auth).is_success
        at(a, v + 2)
        route, response = held[0]
        with a.expect_response(lambda r: r.url.endswith(f"{url}/moves")):
            route.fulfill(response=response)
        a.evaluate("() => new Promise(r => setTimeout(() => setTimeout(r, 0), 0))")
        assert a.evaluate("document.body.getAttribute('data-version')") == str(v + 2)
        assert client.get(url).json()["version"] == v + 2


def test_sheng_ji_play_with_an_empty_box_is_caught_on_the_phone(
    browser: Any, tmp_path: Path
) -> None:
    """Play tapped with nothing in the box: the page says to tap or type the cards, as the Zheng
    Fen page does, and sends nothing (it was sent, and refused with a notation code)."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 2)
        posts: list[str] = []

        def count(route: Any) -> None:
            posts.append(route.request.post_data or "")
            route.continue_()

        a.route(f"**{url}/moves", count)
        a.select_option("#sj-seat", "1")
        a.locator("#sj-cards").fill("  ")
        a.locator("#entry button:text('Play')").tap()
        a.wait_for_selector("#msg .msg.error:has-text('Tap the cards played, or type them')")
        assert "ZF001" not in a.locator("#msg").inner_text()
        a.locator("#sj-cards").fill("Ah")
        a.locator("#entry button:text('Play')").tap()
        at(a, 3)
        assert len(posts) == 1 and json.loads(posts[0])["play"] == "Ah"


def test_sheng_ji_entries_not_sent_go_in_order(browser: Any, tmp_path: Path) -> None:
    """Ann's Ah does not go (no connection), and Bo's 3h is tapped after it: it waits behind
    Ah in the outbox, made against the table as it will be with Ah in. When the connection is
    back both go, in order (Bo's 3h took Ah's place, judged at Ann's lead, and Ah never went).
    An entry whose send failed without the phone going offline (no "online" to come) goes again
    by itself too, and the one tapped after it follows."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, url = _sj_at_lead(client)
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 2)

        def enter(seat: str, cards: str) -> None:
            a.select_option("#sj-seat", seat)
            a.locator("#sj-cards").fill(cards)
            a.locator("#entry button:text('Play')").tap()

        a.context.set_offline(True)
        enter("1", "Ah")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        assert a.locator("#sj-seat").input_value() == "2"  # the seat after the play waiting
        enter("2", "3h")
        a.wait_for_selector('#outbox .out[data-status="waiting"]')
        assert a.locator("#outbox").inner_text().index("Ah") < a.locator(
            "#outbox"
        ).inner_text().index("3h")
        a.context.set_offline(False)
        at(a, 4)
        sent(a)
        assert [m.get("play") for m in client.get(url).json()["moves"]] == [None, "Ah", "3h"]
        assert a.locator("#sj-cards").input_value() == ""
        failed: list[str] = []

        def lose_first(route: Any) -> None:
            if not failed:
                failed.append(route.request.post_data or "")
                route.abort()
            else:
                route.continue_()

        a.route(f"**{url}/moves", lose_first)
        enter("3", "5h")
        enter("4", "7h")
        at(a, 6)
        sent(a)
        plays = [m.get("play") for m in client.get(url).json()["moves"]]
        assert plays == [None, "Ah", "3h", "5h", "7h"]
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()
