"""A Sheng ji round logged on a phone the way a table does it (LIVE.md, "Sheng ji"), in Chromium
at 390x844 on a real `zfrec serve`: no deal typed, round 1's dealer left to the bids, the
dealer's exchange with the kitty, a double tap on Play, entries whose answers were lost.
Screenshots go to test-artifacts/live-sj-phone-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sj_live_helpers import match_steps, new_sj_table, send, simulated
from tests.test_live_server import server
from tests.test_live_shengji_browser import PHONE, Device

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("chromium")]
PLAYERS = ["张伟", "Bo Li", "王芳", "Dee Ramaswamy-Okonkwo"]


def _table(client: Any, entries: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """A new table of PLAYERS with `entries` (kind, body) entered through the API (`send`):
    the API's answer (id, token, join)."""
    made: dict[str, Any] = client.post(
        "/api/tables", json={"game": "shengji", "players": PLAYERS}
    ).json()
    for kind, body in entries:
        done = send(client, made["id"], made["token"], kind, body)
        assert done.status_code == (201 if kind == "hand" else 200), done.text
    return made


def test_a_round_from_the_bids_on_a_phone(browser: Any, tmp_path: Path) -> None:
    match = simulated(tmp_path)
    rnd = match.rounds[0]
    assert rnd.dealer == 1 and [b.seat for b in rnd.bids] == [1]  # Bo Li bids and deals
    steps = [s for s in match_steps(match) if s.round == 1]
    bid, exchange, lead = steps[1].body, steps[2].body, steps[3].body
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS})
        table, join = made.json()["id"], made.json()["join"]
        a = Device(browser, PHONE)
        a.page.goto(base + join)
        a.page.wait_for_selector("#entry:not(.hidden)")
        # Round 1 started as it comes: no deal, the dealer left to the bids.
        assert a.page.locator("#sj-dealer").input_value() == ""
        a.tap("#entry button:text('Start the round')")
        a.at(1)
        a.page.select_option("#sj-seat", str(bid["seat"]))
        a.page.locator("#sj-cards").fill(bid["bid"])
        a.tap("#entry button:text('Bid')")
        a.at(2)
        assert client.get(f"/api/tables/{table}").json()["dealer"] == 2  # the bid made Bo Li deal
        # An entry taken leaves the box empty: nothing to send again by mistake.
        assert a.page.locator("#sj-cards").input_value() == ""
        a.page.select_option("#sj-seat", "2")
        a.page.locator("#sj-cards").fill(exchange["discard"])
        a.tap("#entry button:text('Discard (dealer)')")
        a.at(3)
        assert a.page.locator("#msg .msg.error").count() == 0
        a.check("phone-1-exchanged")
        # Without the kitty typed the dealer's hand is unknown; once typed in, partly known:
        # either way every card can be tapped for them.
        state = client.get(f"/api/tables/{table}").json()
        assert state["turn"] == lead["seat"] == 2
        a.page.select_option("#sj-seat", "2")
        assert a.page.locator("#entry .sjgrid button").count() == 54
        # A double tap on Play enters the lead once, and says nothing is wrong.
        for card in lead["play"].split():
            a.page.locator(f'#entry .sjgrid button[data-card="{card}"]').tap()
        posts: list[str] = []
        a.page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        with a.page.expect_response(lambda r: r.request.method == "POST") as answer:
            a.page.locator("#entry button:text('Play')").dblclick()
        assert answer.value.status == 200
        a.at(4)
        # A request made after the taps: its request event comes after any the taps made.
        assert a.page.evaluate(f"fetch('/api/tables/{table}').then(r => r.status)") == 200
        assert len(posts) == 1, posts
        assert client.get(f"/api/tables/{table}").json()["version"] == 4
        assert a.page.locator("#msg .msg.error").count() == 0, a.page.locator("#msg").inner_text()
        assert a.page.locator("#sj-cards").input_value() == ""
        a.check("phone-2-led")


def test_a_partly_known_hand_keeps_the_whole_grid(browser: Any, tmp_path: Path) -> None:
    # The dealer's hand is partly known once the kitty taken up is typed: its known cards alone
    # were offered, and the cards of the hand not typed could not be tapped.
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    exchange = steps[2].body
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = _table(
            client, [("hand", {"dealer": 2}), ("move", steps[1].body), ("move", exchange)]
        )
        join, url = made["join"], f"/api/tables/{made['id']}"
        hand = client.get(url).json()["hands"][1]
        assert hand["cards"] and hand["unknown"] > 0
        a = Device(browser, PHONE)
        a.page.goto(base + join)
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.page.select_option("#sj-seat", "2")
        # most of the hand is not known: the other cards stand open
        assert a.page.locator("#sj-more").get_attribute("open") is not None
        known = a.page.locator("#entry .sjhand button")
        assert known.count() == len(hand["cards"].split())
        assert a.page.locator("#entry .sjgrid button").count() == 54
        # a card the dealer was dealt (not known here) and one of the kitty, tapped
        unknown = next(c for c in steps[3].body["play"].split() if c not in hand["cards"].split())
        a.tap(f'#entry .sjgrid button[data-card="{unknown}"]')
        known.first.tap()
        picked = a.page.locator("#sj-cards").input_value().split()
        assert picked == [unknown, hand["cards"].split()[0]], picked
        a.check("phone-3-partly-known")


def test_new_table_page_makes_a_sheng_ji_table_with_an_invite(browser: Any, tmp_path: Path) -> None:
    # The New table page offered Zheng Fen's presets only, and a Sheng ji table's page had no
    # join link: a second phone could not be invited from it.
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/new")
        for i, player in enumerate(PLAYERS):
            a.page.locator("input[name=player]").nth(i).fill(player)
        a.page.select_option("select[name=rules]", "bashifen")
        assert a.page.locator("input[name=target]").is_hidden()  # Zheng Fen's, not Sheng ji's
        assert a.page.locator("details:has(select[name=jokers_wild])").is_hidden()
        a.page.select_option("select[name=rules]", "parlett")  # Zheng Fen's fields come back
        assert a.page.locator("input[name=target]").is_visible()
        a.page.select_option("select[name=rules]", "bashifen")
        a.check("phone-4-new-table")
        a.tap("button[type=submit]")
        a.page.wait_for_selector("body[data-page=sjtable] #entry:not(.hidden)")
        table = a.page.url.split("/t/")[1].split("#")[0]
        state = client.get(f"/api/tables/{table}").json()
        assert state["game"] == "shengji" and state["rules"] == "bashifen"
        assert state["players"] == PLAYERS
        a.tap("#invite summary")
        a.page.wait_for_selector(".qr img")
        a.page.wait_for_function("document.querySelector('.qr img').naturalWidth > 100")
        assert a.page.locator(".qr img").evaluate("img => img.naturalWidth") > 100
        join = a.page.locator("#join-link").inner_text()
        assert join.startswith(f"{base}/t/{table}#k=")
        a.check("phone-5-invite")
        record = a.page.locator("nav a:text('Record (.zfn)')").get_attribute("href")
        assert client.get(str(record)).status_code == 200
        # A second phone joins by the link and starts the round.
        b = Device(browser, PHONE)
        b.page.goto(join)
        b.page.wait_for_selector("#entry:not(.hidden)")
        b.tap("#entry button:text('Start the round')")
        b.at(1)
        a.at(1)


def test_an_entry_whose_answer_was_lost_is_sent_again_once(browser: Any, tmp_path: Path) -> None:
    # The play reaches the server but its answer is lost (the phone's connection drops). The
    # page said nothing of it being taken; tapped again, it went with the table's new version
    # and was judged afresh: refused (SJ202, not that seat's turn) or, for a seat that leads
    # again, entered twice. Now it goes again by itself as it was made (its request id), and
    # the server answers it as taken.
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = _table(client, [("hand", {"dealer": 2}), *((s.kind, s.body) for s in steps[1:3])])
        url = f"/api/tables/{made['id']}"
        a = Device(browser, PHONE)
        a.page.goto(base + made["join"])
        a.page.wait_for_selector("#entry:not(.hidden)")
        lose = {"left": 1}

        def answer_lost(route: Any) -> None:
            if lose["left"]:
                lose["left"] -= 1
                route.fetch()  # the server takes the entry ...
                route.abort()  # ... and its answer never comes
            else:
                route.continue_()

        a.page.route("**/moves", answer_lost)
        lead = steps[3].body
        a.page.select_option("#sj-seat", str(lead["seat"]))
        a.page.locator("#sj-cards").fill(lead["play"])
        a.tap("#entry button:text('Play')")
        a.at(4)  # the server's event brings the table with the entry in it
        a.page.wait_for_selector('body[data-outbox="0"]', state="attached")  # sent again
        a.errors.clear()  # the aborted request is logged by the browser
        assert not lose["left"]
        assert a.page.locator("#msg .msg.error").count() == 0, a.page.locator("#msg").inner_text()
        assert client.get(url).json()["version"] == 4
        assert a.page.locator("#sj-cards").input_value() == ""
        assert [m["seat"] for m in client.get(url).json()["moves"]] == [2, 2, lead["seat"]]


def test_the_last_trick_stays_in_view(browser: Any, tmp_path: Path) -> None:
    # Between tricks the felt was empty: who played what to the trick just won (and at the
    # round's end, the last trick with the kitty) could not be seen at the table.
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        # the round's start, the bid, the exchange and the first trick
        made = _table(client, [(s.kind, s.body) for s in steps[:7]])
        trick = [s.body for s in steps[3:7]]
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/t/{made['id']}")
        a.at(7)
        for move in trick:
            shown = a.page.locator(f'.sjseat[data-seat="{move["seat"]}"] .played.last .card')
            assert shown.count() == len(move["play"].split()), move
        assert "the last trick" in a.page.locator(".sjcenter").inner_text()
        listed = a.page.locator("#moves").inner_text()  # the moves name their players
        for move in trick:
            assert f"1\u00b7{PLAYERS[move['seat'] - 1]}: {move['play']}" in listed, listed
        a.check("phone-6-last-trick")
        # the next lead takes its place
        assert send(client, made["id"], made["token"], "move", steps[7].body).status_code == 200
        a.at(8)
        assert a.page.locator(".sjseat .played.last").count() == 0
        assert a.page.locator(".sjseat .played .card").count() == len(steps[7].body["play"].split())


def test_the_match_won_names_the_winners_not_a_next_dealer(browser: Any, tmp_path: Path) -> None:
    # At the match's end the round's box said "Next dealer: ..." of a round never played.
    match = simulated(tmp_path)
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS}).json()
        for step in match_steps(match):
            assert send(client, made["id"], made["token"], step.kind, step.body).status_code in {
                200,
                201,
            }, step
        state = client.get(f"/api/tables/{made['id']}").json()
        assert state["status"] == "over" and state["winners"]
        table = next(t for t in client.get("/api/tables").json() if t["id"] == made["id"])
        assert table["game_id"] is not None  # stored as a game of the store
        a = Device(browser, PHONE)
        a.page.goto(base + made["join"])
        a.page.wait_for_selector("#roundend:not(.hidden)")
        text = a.page.locator("#roundend").inner_text()
        winners = " & ".join(PLAYERS[s - 1] for s in state["winners"])
        assert f"The match is won by {winners}" in text and "Next dealer" not in text, text
        a.check("phone-7-match-won")
        # the writer's page keeps Undo: the last play can be taken back
        assert a.page.locator("#entry button:text('Undo')").count() == 1


def test_the_felt_says_what_the_phase_and_a_blocked_throw_are(browser: Any, tmp_path: Path) -> None:
    # During the bids and the exchange the felt said "<dealer> to play · trick 1"; a blocked
    # throw showed only the part it was held to, with nothing saying a throw failed.
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    throw = next(i for i, s in enumerate(steps) if "blocked_by" in s.body)
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS}).json()
        tid, token = made["id"], made["token"]
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/t/{tid}")
        start = {"deals": steps[0].body["deals"]}  # the dealer and the trump: the bids'
        assert send(client, tid, token, "hand", start).status_code == 201
        a.at(1)
        assert "Bids, in the order made" in a.page.locator(".sjcenter").inner_text()
        assert send(client, tid, token, "move", steps[1].body).status_code == 200
        a.at(2)
        center = a.page.locator(".sjcenter").inner_text()
        assert "Bids, then the dealer's exchange" in center and "to play" not in center
        for step in steps[2 : throw + 1]:
            assert send(client, tid, token, step.kind, step.body).status_code == 200
        a.at(throw + 1)
        body = steps[throw].body
        text = a.page.locator(".sjcenter").inner_text()
        assert f"{PLAYERS[body['seat'] - 1]} threw {body['play']}" in text, text
        assert f"{PLAYERS[body['blocked_by'] - 1]} blocked it, held to" in text, text
        assert f" by {PLAYERS[body['blocked_by'] - 1]}" in a.page.locator("#moves").inner_text()
        a.check("phone-8-blocked-throw")


def test_a_lost_answer_is_found_by_the_entry_count(browser: Any, tmp_path: Path) -> None:
    # An entry whose answer was lost and that was sent again was found taken only for a move
    # with a seat and the same text: Start the round, Undo, calls typed with commas and cards
    # typed 10h (stored Th) got the 409 "nothing was entered" although they were. The page now
    # sends it again by itself with its request id, and the server answers it as taken.
    match = simulated(tmp_path, 4, "--rules", "zhaopengyou", "--option", "players=6")
    steps = [s for s in match_steps(match) if s.round == 1]
    start = steps[0].body
    calls = next(i for i, s in enumerate(steps) if "calls" in s.body)
    ten = next(i for i, s in enumerate(steps) if "T" in s.body.get("play", ""))
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        table, token = new_sj_table(client, match)
        url = f"/api/tables/{table}"
        a = Device(browser, PHONE)
        lose: list[str] = []

        def answer_lost(route: Any) -> None:
            if route.request.url.endswith("/events"):
                return  # no events either: the page learns of its entries from answers only
            if route.request.method == "POST" and lose and route.request.url.endswith(lose[0]):
                lose.pop()
                route.fetch()  # the server takes the entry ...
                route.abort()  # ... and its answer never comes
            else:
                route.continue_()

        a.page.route(f"**{url}/*", answer_lost)

        def twice(path: str, button: str) -> None:
            lose.append(path)
            a.tap(f"#entry button:text('{button}')")
            a.page.wait_for_selector('body[data-outbox="0"]', state="attached")  # sent again
            assert not lose
            a.page.wait_for_selector(f'body[data-version="{client.get(url).json()["version"]}"]')
            said = a.page.locator("#msg").inner_text()
            assert a.page.locator("#msg .msg.error").count() == 0, said

        a.page.goto(f"{base}/t/{table}#k={token}")
        a.page.wait_for_selector("#entry:not(.hidden)")
        a.page.select_option("#sj-dealer", str(start["dealer"]))
        a.page.select_option("#sj-trump", start["trump"])
        a.tap("#entry summary:text('Deals')")
        for seat, cards in start["deals"].items():
            a.page.locator(f"#sj-deal-{seat}").fill(cards)
        twice("/hands", "Start the round")
        a.at(1)
        assert client.get(url).json()["entries"] == 1
        for step in steps[1:calls]:
            assert send(client, table, token, step.kind, step.body).status_code == 200
        a.page.reload()
        a.page.select_option("#sj-seat", str(steps[calls].body["seat"]))
        a.page.locator("#sj-cards").fill("2nd As, 1st Kh")
        twice("/moves", "Calls (dealer)")
        a.at(calls + 1)
        assert client.get(url).json()["moves"][-1]["calls"] == "2nd As 1st Kh"
        for step in steps[calls + 1 : ten]:
            assert send(client, table, token, step.kind, step.body).status_code == 200
        a.page.reload()
        play = steps[ten].body
        a.page.select_option("#sj-seat", str(play["seat"]))
        a.page.locator("#sj-cards").fill(play["play"].replace("T", "10").lower())
        twice("/moves", "Play")
        a.at(ten + 1)
        assert client.get(url).json()["moves"][-1]["play"] == play["play"]
        # An undo whose answer was lost is said to be done, and done once.
        twice("/undo", "Undo")
        a.at(ten + 2)
        assert client.get(url).json()["entries"] == ten
        assert "the undo was done" in a.page.locator("#msg .msg.ok").inner_text()
        a.page.unroute(f"**{url}/*")


def test_cards_picked_stay_lit_when_another_phone_plays_from_the_hand(
    browser: Any, tmp_path: Path
) -> None:
    # A picks the leader's last card in the hand; B enters another lead from that hand (its
    # first card). A's pick stays in the box, as a move this phone started does, but the hand
    # lit the card at the old position (a pick was kept by position, and the hand had moved
    # along one): none, here. The hand now lights the box's cards.
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    first = next(i for i, s in enumerate(steps) if "play" in s.body)
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = _table(client, [(s.kind, s.body) for s in steps[:first]])
        url = f"/api/tables/{made['id']}"
        seat = steps[first].body["seat"]
        hand = client.get(url).json()["hands"][seat - 1]["cards"].split()
        a, b = Device(browser, PHONE), Device(browser, PHONE)
        for d in (a, b):
            d.page.goto(base + made["join"])
            d.page.wait_for_selector("#entry:not(.hidden)")
            d.page.select_option("#sj-seat", str(seat))
        a.tap(f"#entry .sjhand button:nth-child({len(hand)})")
        assert a.page.locator("#sj-cards").input_value() == hand[-1] != hand[0]
        b.tap("#entry .sjhand button:nth-child(1)")
        b.tap("#entry button:text('Play')")
        b.at(first + 1)
        a.at(first + 1)
        assert a.page.locator("#sj-cards").input_value() == hand[-1]  # A's pick stays
        lit = a.page.locator("#entry .sjhand button.sel")
        assert [lit.nth(i).get_attribute("data-card") for i in range(lit.count())] == [hand[-1]]
        a.check("phone-9-pick-kept-lit")
