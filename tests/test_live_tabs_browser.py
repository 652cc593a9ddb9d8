"""One phone, two tabs of one table; double taps; the moves kept after a refusal (LIVE.md, "The
outbox"). In headless Chromium at 390x844 (and 1280x800) against a real `zfrec serve`: two
pages of one browser context share its local storage as two tabs of one phone do. Screenshots
go to test-artifacts/live-tabs-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_live_phones import DESKTOP, PHONE, at, dealt_table, sent, tap_anew
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


MOVES = "**/api/tables/*/moves"


def cut(context: Any) -> None:
    """The phone's entries do not get through (its pages still load, as after a reload)."""
    context.route(MOVES, lambda route: route.abort())


def mend(context: Any) -> None:
    context.unroute(MOVES)
    for page in context.pages:  # as when the phone is back online
        page.evaluate("window.dispatchEvent(new Event('online'))")


def moves(client: Any, table: str) -> list[tuple[int, str]]:
    st = client.get(f"/api/tables/{table}").json()
    return [(m["seat"], m["play"]) for m in st["moves"]]


def test_an_entry_typed_in_a_tab_that_closes_is_sent_by_the_other_tab(
    browser: Any, tmp_path: Path
) -> None:
    """Tabs A and B of one table on one phone, offline. A enters Ann's 3h and is closed before
    it could be sent. The outbox was one for both tabs in local storage, the last to save
    winning: B knew nothing of 3h, and its next save (Bo Li's 5d) overwrote it: 3h was lost.
    Now B takes A's stored outbox over when A closes, shows 3h, queues 5d behind it, keeps both
    through a reload, and sends both, in order, once online."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        a, b = tab(ctx, url), tab(ctx, url)
        at(a, 1)
        at(b, 1)
        cut(ctx)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.close()
        b.wait_for_selector("#outbox .out:has-text('Ann: 3h')")
        play(b, 2, "5d")
        assert b.locator("#outbox .out").count() == 2
        b.reload()
        b.wait_for_selector("#outbox .out:has-text('Bo Li: 5d')")
        assert "Ann: 3h" in b.locator("#outbox").inner_text()
        shot(b, "1-adopted-offline")
        mend(ctx)
        sent(b)
        at(b, 3)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "5d")]
        assert b.locator("#msg .msg.error").count() == 0, b.locator("#msg").inner_text()


def test_entries_typed_in_two_tabs_are_neither_lost_nor_entered_twice(
    browser: Any, tmp_path: Path
) -> None:
    """Tabs A and B, offline: A enters Ann's 3h, B Ann's 4h (two people at one phone, say),
    each against the table it shows. Both tabs close; a third is opened and goes online. Of
    the one outbox both tabs wrote, only the last saved was left: one of the plays was lost
    without a word. Now each tab's outbox is its own, the new tab takes both over: 3h goes in
    (it was made first), 4h is refused as stale (the table moved on), said so and put back in
    the entry box. Each went once."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        a, b = tab(ctx, url), tab(ctx, url)
        at(a, 1)
        at(b, 1)
        cut(ctx)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        play(b, 1, "4h")
        b.wait_for_selector('#outbox .out[data-status="retrying"]')
        for page in (a, b):
            page.close()
        c = tab(ctx, url)
        c.wait_for_selector("#outbox .out:has-text('Ann: 4h')")
        assert c.locator("#outbox").inner_text().index("3h") < c.locator(
            "#outbox"
        ).inner_text().index("4h")
        mend(ctx)
        c.wait_for_selector("#msg .msg.error:has-text('Not entered')")
        sent(c)
        at(c, 2)
        assert moves(client, made["id"]) == [(1, "3h")]
        assert "Ann: 4h" in c.locator("#msg").inner_text()
        assert c.locator("#play-text").input_value() == "4h"
        shot(c, "2-two-tabs-one-stale")


def test_a_copy_of_a_tab_takes_an_outbox_of_its_own(browser: Any, tmp_path: Path) -> None:
    """A tab opened as a copy of another carries its session storage, and so its tab id: it
    finds that id's stored outbox not closed (an open tab's), takes an id of its own, and
    claims that outbox as any other: the open tab answers that it is its own. So A's 3h,
    waiting, is sent by A alone, and nothing the copy stores overwrites it."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        a = tab(ctx, url)
        at(a, 1)
        cut(ctx)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        tab_id = a.evaluate("Object.keys(sessionStorage).map(k => sessionStorage[k])[0]")
        copy = ctx.new_page()
        copy.set_default_timeout(20_000)
        copy.add_init_script(
            f"Object.keys(sessionStorage).length || sessionStorage.setItem("
            f"'zfrec-tab:{made['id']}', '{tab_id}')"
        )
        copy.goto(url)
        copy.wait_for_selector('body[data-outbox="0"]', state="attached")
        own = copy.evaluate(f"sessionStorage.getItem('zfrec-tab:{made['id']}')")
        assert own != tab_id
        mend(ctx)
        sent(a)
        at(copy, 2)
        assert moves(client, made["id"]) == [(1, "3h")]
        assert a.locator("#msg .msg.error").count() == 0
        assert copy.locator("#msg .msg").count() == 0


def test_a_double_tap_on_pass_or_start_hand_is_one_entry(browser: Any, tmp_path: Path) -> None:
    """Pass or Start hand tapped twice while the first waits (offline, here): one entry. The
    second pass was queued and, sent, refused (not that seat's turn); the second start was
    queued and refused (a hand in progress). Once the first is in, Pass passes the next seat."""
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
        tap_anew(a.locator("#pass-btn"))  # once the first is in: the next seat's pass
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


def test_a_refused_hand_start_can_be_tapped_again(browser: Any, tmp_path: Path) -> None:
    """Start hand tapped with no shuffler picked: the server refuses it (say who shuffled). The
    button, which said the start was waiting, kept saying so, disabled, with nothing waiting:
    the hand could not be started until the page was loaded again. Now the refusal gives the
    button back; the shuffler picked, the same button starts the hand."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made: dict[str, Any] = client.post(
            "/api/tables", json={"players": ["Ann", "Bo Li", "王芳"]}
        ).json()
        a = tab(phone(browser), str(client.base_url).rstrip("/") + made["join"])
        a.locator("#start-btn").tap()
        a.wait_for_selector("#msg .msg.error:has-text('shuffled')")
        sent(a)
        start = a.locator("#start-btn")
        assert start.is_enabled(), start.inner_text()
        assert start.inner_text() == "Start hand 1"
        shot(a, "6-start-refused")
        a.select_option("#shuffler", "3")
        start.tap()
        at(a, 1)
        assert client.get(f"/api/tables/{made['id']}").json()["status"] == "playing"


def test_a_copy_of_a_tab_with_nothing_waiting_takes_an_id_of_its_own(
    browser: Any, tmp_path: Path
) -> None:
    """A tab copied while its outbox is empty (the usual case) carried its id: nothing was
    stored under it, so the copy took it for its own. Both tabs then wrote one key: A's 3h,
    typed offline, was stored where B's outbox is, and B, taking it for its own, never took it
    over when A closed; B's next save would have overwritten it. Now an open tab's outbox is
    stored even empty: the copy takes an id of its own, and takes A's 3h over when A closes."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        a = tab(ctx, url)
        at(a, 1)
        key = f"zfrec-tab:{made['id']}"
        tab_id = a.evaluate(f"sessionStorage.getItem('{key}')")
        b = ctx.new_page()
        b.set_default_timeout(20_000)
        b.add_init_script(
            f"Object.keys(sessionStorage).length || sessionStorage.setItem('{key}', '{tab_id}')"
        )
        b.goto(url)
        at(b, 1)
        assert b.evaluate(f"sessionStorage.getItem('{key}')") != tab_id
        cut(ctx)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.close()
        b.wait_for_selector("#outbox .out:has-text('Ann: 3h')")
        play(b, 2, "5d")
        mend(ctx)
        sent(b)
        at(b, 3)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "5d")]
        # nothing is left behind but the open tab's own (empty) outbox
        left = b.evaluate("Object.keys(localStorage).filter(k => k.includes(':tab:'))")
        own = b.evaluate(f"sessionStorage.getItem('{key}')")
        assert left == [f"zfrec-outbox:{made['id']}:tab:{own}"]


def test_the_count_of_moves_kept_keeps_the_focus_and_a_plain_name(
    browser: Any, tmp_path: Path
) -> None:
    """The count of the moves kept (a summary: a button to the reader, with its expanded state)
    is drawn anew with the outbox, on every change and every retry. A keyboard's or a screen
    reader's focus on it went to the page's top each time (every few seconds while offline);
    it stays on it now. Its name is the count alone, not the triangle drawn before it."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        a = _held_zhengfen(client, browser, PHONE)
        cdp = a.context.new_cdp_session(a)

        def count_node() -> tuple[str, bool]:
            for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
                name = node.get("name", {}).get("value", "")
                if node.get("role", {}).get("value") == "DisclosureTriangle" and "sent" in name:
                    props = {p["name"]: p["value"].get("value") for p in node["properties"]}
                    return name, bool(props.get("expanded"))
            raise AssertionError("no disclosure in the page")

        assert count_node() == ("2 moves not sent", False)
        a.context.set_offline(True)
        play(a, 1, "3h")
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.locator("#held summary").focus()
        a.keyboard.press("Enter")  # opens the list
        assert count_node() == ("2 moves not sent", True)
        # the phone says it is online: what waits is sent at once, and the outbox drawn anew
        a.evaluate("window.dispatchEvent(new Event('online'))")
        assert a.evaluate("document.activeElement.matches('#held summary')")
        assert a.locator("#held details").get_attribute("open") is not None
        a.locator("#forget-btn").focus()
        a.evaluate("window.dispatchEvent(new Event('online'))")
        assert a.evaluate("document.activeElement.id === 'forget-btn'")


def test_an_empty_outbox_left_from_before_tabs_is_removed(browser: Any, tmp_path: Path) -> None:
    """Pages from before tabs had outboxes of their own stored the table's one outbox even
    empty (`[]`, and `[]` for its kept moves). Claimed on every load, every return to the page
    and every return online, an empty one was never removed: it stayed in the phone's storage
    for good, claimed again each time. It is removed by the tab that claims it now."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        old = f"zfrec-outbox:{made['id']}"
        ctx.add_init_script(
            f"localStorage.getItem('zfrec-old-set') || (localStorage.setItem('{old}', '[]'),"
            f" localStorage.setItem('{old}:held', '[]'),"
            " localStorage.setItem('zfrec-old-set', '1'))"
        )
        a = tab(ctx, url)
        at(a, 1)
        a.wait_for_function("key => localStorage.getItem(key) === null", arg=old)
        assert a.evaluate(f"localStorage.getItem('{old}:held')") is None
        play(a, 1, "3h")
        sent(a)
        assert moves(client, made["id"]) == [(1, "3h")]


def test_a_pass_double_tapped_then_the_next_seats_pass_are_two_entries(
    browser: Any, tmp_path: Path
) -> None:
    """Offline, Bo Li's Pass tapped twice is one pass; 王芳 picked and Pass tapped right after
    is hers, queued behind it (not taken for a second tap), and both go in, in order."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made, _auth = dealt_table(client)
        ctx = phone(browser)
        a = tab(ctx, str(client.base_url).rstrip("/") + made["join"])
        play(a, 1, "3h")
        at(a, 2)
        ctx.set_offline(True)
        a.locator("#pass-btn").tap()
        a.locator("#pass-btn").tap()
        a.locator('#entry button[data-seat="3"]').tap()
        a.locator("#pass-btn").tap()
        assert a.locator("#outbox .out").all_inner_texts()[0].startswith("Bo Li: pass")
        assert a.locator("#outbox .out").count() == 2
        assert "王芳: pass" in a.locator("#outbox").inner_text()
        ctx.set_offline(False)
        a.evaluate("window.dispatchEvent(new Event('online'))")
        sent(a)
        at(a, 4)
        assert moves(client, made["id"]) == [(1, "3h"), (2, "pass"), (3, "pass")]


def test_a_hand_start_taken_over_from_a_closed_tab_shows_on_the_button(
    browser: Any, tmp_path: Path
) -> None:
    """Tab A starts hand 1 offline and is closed; tab B takes the start over (its outbox shows
    it). B's Start hand button still offered to start the hand, and a tap on it did nothing and
    said nothing (a start waits already). It says the start is waiting now, and the start goes
    in once when B is online."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made: dict[str, Any] = client.post(
            "/api/tables", json={"players": ["Ann", "Bo Li", "王芳"]}
        ).json()
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        a, b = tab(ctx, url), tab(ctx, url)
        ctx.set_offline(True)
        a.select_option("#shuffler", "3")
        a.locator("#start-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        a.close()
        b.wait_for_selector("#outbox .out:has-text('start hand 1')")
        start = b.locator("#start-btn")
        assert start.is_disabled()
        assert start.inner_text() == "Hand 1's start is waiting to be sent"
        shot(b, "7-start-taken-over")
        ctx.set_offline(False)
        b.evaluate("window.dispatchEvent(new Event('online'))")
        sent(b)
        at(b, 1)
        assert b.locator("#msg .msg.error").count() == 0, b.locator("#msg").inner_text()


def test_a_frozen_tab_whose_hand_start_was_taken_over_can_start_it_again(
    browser: Any, tmp_path: Path
) -> None:
    """Tab A starts hand 1 offline and is frozen (a phone's background tab): tab B, not
    answered, takes A's outbox over. A, back, finds its outbox taken and lets the start go,
    but its button still said the start was waiting, disabled: the page was stuck so until the
    table changed. It follows what A still has now: A's outbox is empty, Start hand is back."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made: dict[str, Any] = client.post(
            "/api/tables", json={"players": ["Ann", "Bo Li", "王芳"]}
        ).json()
        url = str(client.base_url).rstrip("/") + made["join"]
        ctx = phone(browser)
        a, b = tab(ctx, url), tab(ctx, url)
        ctx.set_offline(True)
        a.select_option("#shuffler", "3")
        a.locator("#start-btn").tap()
        a.wait_for_selector('#outbox .out[data-status="retrying"]')
        life = ctx.new_cdp_session(a)  # A's scripts held still, as a frozen tab's are
        life.send("Debugger.enable")
        life.send("Debugger.pause")
        b.evaluate("window.dispatchEvent(new Event('online'))")  # B looks for gone tabs' outboxes
        b.wait_for_selector("#outbox .out:has-text('start hand 1')")
        life.send("Debugger.resume")
        a.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # A comes into view
        a.wait_for_selector('body[data-outbox="0"]', state="attached")
        start = a.locator("#start-btn")
        assert start.is_enabled(), start.inner_text()
        assert start.inner_text() == "Start hand 1"
        ctx.set_offline(False)
        b.evaluate("window.dispatchEvent(new Event('online'))")
        sent(b)
        at(b, 1)
        at(a, 1)
