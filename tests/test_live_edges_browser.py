"""The live table's pages at the edges (LIVE.md), in Chromium against a real `zfrec serve`: the
answer to an undo or a mark lost on the way back (the server took it) and the change sent again.
Screenshots go to test-artifacts/live-edges-*.png.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.sj_live_helpers import Step, match_steps, simulated
from tests.test_live_phones import DESKTOP, PHONE, at, dealt_table, device, play, sent
from tests.test_live_server import server
from tests.test_live_shengji_browser import Device
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]


def shot(page: Any, name: str, full: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-edges-{name}.png"), full_page=full)


@contextmanager
def writer_and_read_only(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """Two servers on one store file: its writer's client, and the client of one that opens
    it read-only (a write asked of it is answered a real 503)."""
    db = tmp_path / "club.db"
    with (
        server(f"sqlite:///{db}", tmp_path / "a.log") as (_proc, client),
        server(f"sqlite:///file:{db}?mode=ro&uri=true", tmp_path / "b.log") as (_ro, client_ro),
    ):
        yield client, client_ro


def from_read_only(route: Any, client: Any, client_ro: Any) -> Any:
    """The read-only server's own answer to the request `route` holds for `client`'s."""
    base, ro = (str(c.base_url).rstrip("/") for c in (client, client_ro))
    return route.fetch(url=ro + route.request.url.split(base, 1)[1])


def read_only_while(client: Any, client_ro: Any, held: list[int]) -> Callable[[Any], None]:
    """A route handler: while `held` is not empty, a POST is answered by the read-only server
    (its 503), and `held` counts it; every other request goes to the writer."""

    def handle(route: Any) -> None:
        if route.request.method == "POST" and held:
            held.append(1)
            refused = from_read_only(route, client, client_ro)
            assert refused.status == 503
            route.fulfill(response=refused)
        else:
            route.continue_()

    return handle


def lose_answers(page: Any, path: str) -> None:
    """The next POST to `path` reaches the server, and its answer never comes back."""
    lost: list[str] = []

    def answer_lost(route: Any) -> None:
        if route.request.method == "POST" and not lost:
            lost.append(route.request.url)
            route.fetch()  # the server takes the change ...
            route.abort()  # ... and its answer is lost
        else:
            route.continue_()

    page.route(f"**/api/tables/*/{path}", answer_lost)


def test_an_undo_a_mark_or_a_correction_whose_answer_was_lost_is_not_made_twice(
    browser: Any, tmp_path: Path
) -> None:
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        table = made["id"]
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        play(a, 1, "3h")
        at(a, 2)
        play(a, 2, "5d")
        at(a, 3)

        # Undo: the server takes it, the answer is lost; sent again it is 409 stale, and the
        # table one version on with one entry fewer shows it was made: nothing more is undone,
        # and no refusal is shown.
        lose_answers(a, "undo")
        a.locator("#undo-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        sent(a)
        at(a, 4)
        st = client.get(f"/api/tables/{table}").json()
        assert st["version"] == 4 and st["entries"] == 2
        assert [m["play"] for m in st["moves"]] == ["3h"]
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()
        shot(a, "1-undo-lost-answer")

        # A comment: the same, and the comment is in the record once.
        lose_answers(a, "marks")
        a.locator("#comment-btn").tap()
        a.locator("#comment-text").fill("Ann led from the wrong hand")
        a.locator("#comment-send").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        sent(a)
        at(a, 5)
        st = client.get(f"/api/tables/{table}").json()
        assert st["version"] == 5 and st["moves"][-1]["comments"] == ["Ann led from the wrong hand"]
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()
        shot(a, "2-comment-lost-answer")

        # A correction (Bo Li's 5d was a 7d), then a deletion of that move: the same.
        play(a, 2, "5d")
        at(a, 6)
        lose_answers(a, "edit")
        a.locator("#moves summary").tap()
        a.locator('button[data-correct="3"]').tap()
        a.wait_for_selector("#editing")
        play(a, 2, "7d")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        sent(a)
        at(a, 7)
        assert [m["play"] for m in client.get(f"/api/tables/{table}").json()["moves"]] == [
            "3h",
            "7d",
        ]
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()
        lose_answers(a, "edit")
        a.locator('button[data-delete="3"]').tap()
        a.locator('button[data-delete="3"]').tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        sent(a)
        at(a, 8)
        st = client.get(f"/api/tables/{table}").json()
        assert st["version"] == 8 and [m["play"] for m in st["moves"]] == ["3h"]
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()


LONG3 = ["王" * 60, "欧阳" * 30, "李小龙" * 20]  # 60 characters each: the most a name may have
LONG4 = ["张" * 60, "司马" * 30, "诸葛亮" * 20, "东方不败" * 15]


def test_names_of_sixty_chinese_characters_leave_the_cards_in_view(
    browser: Any, tmp_path: Path
) -> None:
    """On a phone the dock (whose turn, the top play, the trick) stays one line per item with
    the longest names, so that it, the card grid and Play fit on the screen together; the felt
    of Sheng ji likewise; the header holds two lines of the event and of the names. The whole
    names are in the titles."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, auth = dealt_table(client, LONG3, event="俱乐部之夜" * 40)
        r = client.post(
            f"/api/tables/{made['id']}/moves", json={"seat": 1, "play": "3h"}, headers=auth
        )
        assert r.status_code == 200
        body = {"game": "shengji", "rules": "bashifen", "players": LONG4}
        sj = client.post("/api/tables", json=body).json()
        r = client.post(
            f"/api/tables/{sj['id']}/hands",
            json={"dealer": 1, "trump": "s"},
            headers={"Authorization": f"Bearer {sj['token']}"},
        )
        assert r.status_code == 201
        base = str(client.base_url).rstrip("/")
        for viewport in (PHONE, DESKTOP):
            _ctx, a = device(browser, viewport)
            size = f"{viewport['width']}"
            a.goto(base + made["join"])
            at(a, 2)
            assert a.evaluate("document.documentElement.scrollWidth") == viewport["width"]
            box = {
                s: a.locator(s).bounding_box()
                for s in ("#dock", "#turn", "#entry .picker", "#play-btn", "header.bar h1")
            }
            line = a.evaluate(
                "parseFloat(getComputedStyle(document.querySelector('#turn')).lineHeight)"
            )
            assert box["#turn"]["height"] < 1.5 * line, box["#turn"]
            assert box["header.bar h1"]["height"] < 2.5 * line, box["header.bar h1"]
            if viewport is PHONE:
                cards_and_play = box["#play-btn"]["y"] + box["#play-btn"]["height"]
                cards_and_play -= box["#entry .picker"]["y"]
                assert box["#dock"]["height"] + cards_and_play <= PHONE["height"], box
            assert a.locator("#turn .pname").get_attribute("title") == LONG3[1]
            assert a.locator('#entry button[data-seat="2"]').get_attribute("title") == LONG3[1]
            shot(a, f"3-long-names-{size}", full=True)
            a.goto(base + sj["join"])
            a.wait_for_selector("#felt .head")
            head = a.locator("#felt .head").bounding_box()
            assert head is not None and head["height"] < 5 * line, head
            assert LONG4[0] in a.locator("#felt .head .pname").first.get_attribute("title")
            assert a.evaluate("document.documentElement.scrollWidth") == viewport["width"]
            shot(a, f"4-long-names-sj-{size}", full=True)


def _sj_table_at_lead(
    client: Any, players: Sequence[str], steps: Sequence[Step]
) -> tuple[dict[str, Any], dict[str, str]]:
    """A Sheng ji table on the server with round 1 begun (dealer 2) and its next two entries
    made (`steps[1:3]`, up to the first lead): the table as the API made it, and its writer's
    header."""
    made: dict[str, Any] = client.post(
        "/api/tables", json={"game": "shengji", "players": list(players)}
    ).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    for kind, body in [("hand", {"dealer": 2}), *((s.kind, s.body) for s in steps[1:3])]:
        r = client.post(f"/api/tables/{made['id']}/{'hands' if kind == 'hand' else 'moves'}",
                        json=body, headers=auth)  # fmt: skip
        assert r.status_code in (200, 201), r.text
    return made, auth


def test_sheng_ji_another_phones_play_for_the_same_seat_is_not_taken_for_this_ones(
    browser: Any, tmp_path: Path
) -> None:
    """Two phones log the same seat's lead differently. The one answered 409 says so (stale),
    whether it was its first send (its page had not yet heard of the other entry) or a send
    again of an entry that never reached the server: its play was not entered. It was counted
    as taken, silently, because the table's last move was by the same seat."""
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made, auth = _sj_table_at_lead(client, match.players, steps)
        url = f"/api/tables/{made['id']}"
        lead = steps[3].body
        other = "3s" if lead["play"] != "3s" else "4s"  # no deal typed: any single leads
        b = Device(browser, PHONE)
        b.page.route("**/events", lambda route: route.abort())  # B hears of no change
        b.page.goto(base + made["join"])
        b.page.wait_for_selector("#entry:not(.hidden)")
        b.at(3)

        # The other phone enters the lead first; B, still at version 3, enters another one.
        r = client.post(f"{url}/moves", json={**lead, "version": 3}, headers=auth)
        assert r.status_code == 200, r.text
        b.page.select_option("#sj-seat", str(lead["seat"]))
        b.page.locator("#sj-cards").fill(other)
        b.tap("#entry button:text('Play')")
        b.page.wait_for_selector("#msg .msg.error")
        assert "stale" in b.page.locator("#msg").inner_text()
        b.at(4)
        b.errors.clear()  # the 409 is logged by the browser

        # B offline enters the next play; it never reaches the server. The other phone enters
        # that seat's play; B, back online, sends it again by itself: answered 409.
        follow = steps[4].body
        other = "3h" if follow["play"] != "3h" else "4h"
        b.context.set_offline(True)
        b.page.select_option("#sj-seat", str(follow["seat"]))
        b.page.locator("#sj-cards").fill(other)
        b.tap("#entry button:text('Play')")
        b.page.wait_for_selector('#outbox .out[data-status="retrying"]')
        r = client.post(f"{url}/moves", json={**follow, "version": 4}, headers=auth)
        assert r.status_code == 200, r.text
        b.context.set_offline(False)  # the page sends the play again when the connection is back
        b.page.wait_for_selector("#msg .msg.error:has-text('stale')")
        b.at(5)
        assert [m["play"] for m in client.get(url).json()["moves"][-2:]] == [
            lead["play"],
            follow["play"],
        ]
        shot(b.page, "5-sj-other-phones-play")


def test_a_glued_play_whose_answer_was_lost_is_found_taken(browser: Any, tmp_path: Path) -> None:
    """Zheng Fen: a pair typed glued (`8s8h`, which the server reads as `8s 8h`) is taken and
    its answer lost; sent again it is 409 stale with the table one on, its move the last. It
    was not found (the page read no card in a glued word): it showed "Not entered", went back
    into the box, and the pass queued after it was dropped too. It is found taken now."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        lose_answers(a, "moves")
        play(a, 1, "8s8h")
        play(a, 2, "-")  # queued behind it (no wait for its retry, which may be over by then)
        sent(a)
        at(a, 3)
        st = client.get(f"/api/tables/{made['id']}").json()
        assert [m["play"] for m in st["moves"]] == ["8s 8h", "pass"]
        assert a.locator("#msg .msg.error").count() == 0, a.locator("#msg").inner_text()
        shot(a, "13-glued-play-lost-answer")


def test_a_store_that_takes_no_writes_is_named_on_the_page(browser: Any, tmp_path: Path) -> None:
    """The server answers 503 with one line (the store read-only, locked, full): the page keeps
    the entry in its outbox and says why, not only "not sent, retrying"."""
    db = tmp_path / "club.db"
    with server(f"sqlite:///{db}", tmp_path / "a.log") as (_proc, client):
        made, _auth = dealt_table(client)
    read_only = f"sqlite:///file:{db}?mode=ro&uri=true"  # the database refuses every write
    with server(read_only, tmp_path / "b.log") as (_proc, client):
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.wait_for_selector("#msg .code:has-text('store')")
        assert "the store is read-only" in a.locator("#msg").inner_text()
        assert "sent again" in a.locator("#msg").inner_text()
        assert client.get(f"/api/tables/{made['id']}").json()["version"] == 1
        shot(a, "6-read-only-store")


def test_an_entry_taken_after_all_clears_the_stores_refusal(browser: Any, tmp_path: Path) -> None:
    """A move meets a store that takes no writes (a real 503, from a second server on the same
    file, read-only), which the page names; its next try is taken, but its answer is lost; the
    try after that is 409 stale with the table one on: the move was in. The 503's line goes
    with it: nothing is wrong any more."""
    with writer_and_read_only(tmp_path) as (client, client_ro):
        made, _auth = dealt_table(client)
        _ctx, a = device(browser)
        a.goto(str(client.base_url).rstrip("/") + made["join"])
        at(a, 1)
        tries: list[int] = []

        def first_lost_then_read_only(route: Any) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            tries.append(1)
            if len(tries) == 1:  # the same request, to the read-only server: its own 503
                route.fulfill(response=from_read_only(route, client, client_ro))
            elif len(tries) == 2:
                route.fetch()  # the server takes the move ...
                route.abort()  # ... and its answer is lost
            else:
                route.continue_()

        a.route("**/api/tables/*/moves", first_lost_then_read_only)
        play(a, 1, "3h")
        a.wait_for_selector("#msg .code:has-text('store')")
        assert "the store is read-only" in a.locator("#msg").inner_text()
        shot(a, "8-read-only-then-taken-before")
        sent(a)
        at(a, 2)
        assert len(tries) == 3
        st = client.get(f"/api/tables/{made['id']}").json()
        assert [m["play"] for m in st["moves"]] == ["3h"]  # once
        assert a.locator("#msg .msg").count() == 0, a.locator("#msg").inner_text()
        shot(a, "9-read-only-then-taken")


def test_sheng_ji_an_entry_answered_503_yet_taken_is_not_refused_when_sent_again(
    browser: Any, tmp_path: Path
) -> None:
    """A Sheng ji lead is answered 503 (a real one, from a second server on the same file,
    read-only) though it went in (the server behind took it: the 503 was not the last word).
    Sent again by itself, with its request id, it is answered as taken: the 503's line goes
    and the play counts as done. It was shown as another phone's entry (stale), the lead being
    sent as a first send; and it waited for a second tap."""
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with writer_and_read_only(tmp_path) as (client, client_ro):
        base = str(client.base_url).rstrip("/")
        made, _auth = _sj_table_at_lead(client, match.players, steps)
        url = f"/api/tables/{made['id']}"
        lead = steps[3].body
        b = Device(browser, PHONE)
        b.page.route("**/events", lambda route: route.abort())  # B hears of no change
        tries: list[int] = []

        def read_only_yet_taken(route: Any) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            tries.append(1)
            if len(tries) == 1:
                refused = from_read_only(route, client, client_ro)
                assert refused.status == 503  # the read-only server's own answer ...
                route.fetch()  # ... while the store's writer takes the lead
                route.fulfill(response=refused)
            else:
                route.continue_()

        b.page.route("**/api/tables/*/moves", read_only_yet_taken)
        b.page.goto(base + made["join"])
        b.page.wait_for_selector("#entry:not(.hidden)")
        b.at(3)
        b.page.select_option("#sj-seat", str(lead["seat"]))
        b.page.locator("#sj-cards").fill(lead["play"])
        b.tap("#entry button:text('Play')")
        b.page.wait_for_selector("#msg .code:has-text('store')")
        assert "the store is read-only" in b.page.locator("#msg").inner_text()
        assert "sent again" in b.page.locator("#msg").inner_text()
        shot(b.page, "10-sj-503-yet-taken-before")
        b.at(4)  # sent again by itself: no second tap
        b.page.wait_for_selector('body[data-outbox="0"]', state="attached")
        assert len(tries) == 2
        assert b.page.locator("#msg .msg").count() == 0, b.page.locator("#msg").inner_text()
        assert b.page.locator("#sj-cards").input_value() == ""
        moves = client.get(url).json()["moves"]
        assert [m["play"] for m in moves if m.get("play")] == [lead["play"]]  # once
        shot(b.page, "11-sj-503-yet-taken")


def test_sheng_ji_another_phones_play_after_a_503_is_not_taken_for_a_glued_one(
    browser: Any, tmp_path: Path
) -> None:
    """Two pages on one table. A types a pair glued (`3s3s`, as the server reads it) for the
    leading seat and is answered 503 (a real one, a read-only server's), again and again: not
    entered. B enters another lead for that seat. The store takes writes again, and A's page
    sends the pair again by itself: 409 with the table one on, by the same seat, with
    other cards. It was counted as A's entry, taken (an unreadable word made the seat alone
    decide), so A's pair was dropped silently; it is shown stale, the pair kept in the box."""
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with writer_and_read_only(tmp_path) as (client, client_ro):
        base = str(client.base_url).rstrip("/")
        made, _auth = _sj_table_at_lead(client, match.players, steps)
        url = f"/api/tables/{made['id']}"
        seat = str(steps[3].body["seat"])
        a, b = Device(browser, PHONE), Device(browser, PHONE)
        a.page.route("**/events", lambda route: route.abort())  # A hears of no change
        held = [1]  # A's entries meet the read-only server until B's is in
        a.page.route("**/api/tables/*/moves", read_only_while(client, client_ro, held))
        for d in (a, b):
            d.page.goto(base + made["join"])
            d.page.wait_for_selector("#entry:not(.hidden)")
            d.at(3)
        a.page.select_option("#sj-seat", seat)
        a.page.locator("#sj-cards").fill("3s3s")
        a.tap("#entry button:text('Play')")
        a.page.wait_for_selector("#msg .code:has-text('store')")
        b.page.select_option("#sj-seat", seat)
        b.page.locator("#sj-cards").fill("4s")
        b.tap("#entry button:text('Play')")
        b.at(4)
        held.clear()
        a.page.wait_for_selector("#msg .msg.error:has-text('stale')")
        a.at(4)
        assert a.page.locator("#sj-cards").input_value() == "3s3s"
        assert [m["play"] for m in client.get(url).json()["moves"] if m.get("play")] == ["4s"]
        a.errors.clear()  # the 503 and the 409 are logged by the browser
        shot(a.page, "12-sj-glued-after-503-other-phone")


def test_sheng_ji_another_phones_calls_after_a_503_are_not_taken_for_these(
    browser: Any, tmp_path: Path
) -> None:
    """Zhao pengyou, two pages on one table. A enters the dealer's calls and is answered 503
    (a read-only server's), again and again: not entered. B enters other calls. The store takes
    writes again, and A's page sends them again by itself: 409 with the table one on, the
    dealer's calls its last entry. They were counted as A's (the calls were told by the seat
    alone), so A's calls were dropped silently; they are shown stale now, and kept."""
    match = simulated(tmp_path, 38, "--rules", "zhaopengyou")
    steps = [s for s in match_steps(match) if s.round == 1]
    assert "calls" in steps[3].body
    dealer = str(steps[3].body["seat"])
    with writer_and_read_only(tmp_path) as (client, client_ro):
        base = str(client.base_url).rstrip("/")
        made = client.post(
            "/api/tables",
            json={"game": "shengji", "rules": match.preset, "players": list(match.players)},
        ).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        url = f"/api/tables/{made['id']}"
        dealt = {"dealer": steps[0].body["dealer"]}
        assert client.post(f"{url}/hands", json=dealt, headers=auth).status_code == 201
        for step in steps[1:3]:
            r = client.post(f"{url}/moves", json=step.body, headers=auth)
            assert r.status_code == 200, r.text
        a, b = Device(browser, PHONE), Device(browser, PHONE)
        a.page.route("**/events", lambda route: route.abort())  # A hears of no change
        held = [1]  # A's entries meet the read-only server until B's is in
        a.page.route("**/api/tables/*/moves", read_only_while(client, client_ro, held))
        for d in (a, b):
            d.page.goto(base + made["join"])
            d.page.wait_for_selector("#entry:not(.hidden)")
            d.at(3)
        a.page.select_option("#sj-seat", dealer)
        a.page.locator("#sj-cards").fill("1st Kd")
        a.tap("#entry button:text('Calls (dealer)')")
        a.page.wait_for_selector("#msg .code:has-text('store')")
        b.page.select_option("#sj-seat", dealer)
        b.page.locator("#sj-cards").fill("2nd As")
        b.tap("#entry button:text('Calls (dealer)')")
        b.at(4)
        held.clear()
        a.page.wait_for_selector("#msg .msg.error:has-text('stale')")
        a.at(4)
        assert a.page.locator("#sj-cards").input_value() == "1st Kd"
        calls = [m["calls"] for m in client.get(url).json()["moves"] if m.get("calls")]
        assert calls == ["2nd As"]
        a.errors.clear()  # the 503 and the 409 are logged by the browser
        shot(a.page, "14-sj-other-phones-calls-after-503")


def test_sheng_ji_a_refusal_is_in_view_where_play_was_tapped(browser: Any, tmp_path: Path) -> None:
    """Play sits at the foot of a long form: a refusal showed above the screen, unseen, on a
    phone and on a laptop. It stays at the top of the screen now."""
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made, _auth = _sj_table_at_lead(client, match.players, steps)
        wrong = steps[3].body["seat"] % 4 + 1  # not the seat that leads
        for viewport in (PHONE, DESKTOP):
            d = Device(browser, viewport)
            d.page.goto(base + made["join"])
            d.page.wait_for_selector("#entry:not(.hidden)")
            d.page.select_option("#sj-seat", str(wrong))
            d.page.locator("#sj-cards").fill("3s")
            play_button = d.page.locator("#entry button:text('Play')").first
            play_button.scroll_into_view_if_needed()
            d.tap("#entry button:text('Play')")
            d.page.wait_for_selector("#msg .msg.error:has-text('SJ203')")
            box = d.page.locator("#msg .msg.error").bounding_box()
            assert box is not None and box["y"] >= 0, box
            assert box["y"] + box["height"] <= viewport["height"], box
            shown = play_button.bounding_box()
            assert shown is not None and shown["y"] + shown["height"] <= viewport["height"]
            shot(d.page, f"7-sj-refusal-{viewport['width']}")
