"""The plays a Sheng ji table offers to tap (LIVE.md, "Sheng ji", `offer`), in Chromium at 390x844
on a real `zfrec serve`: a follow's chips are exactly the engine's legal follows, a lead's the
singles, pairs and tractors of the hand; a tap fills the cards in and Play enters them. The lead's
units are named on the felt. Screenshots go to test-artifacts/live-sj-offer-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sj_live_helpers import match_steps, send, simulated
from tests.test_live_server import server
from tests.test_live_shengji_browser import DESKTOP, PHONE, Device
from zfrec.games.shengji.cards import card_ids, format_hand, from_ids, parse_hand
from zfrec.games.shengji.follow import count_follows, every_lead, legal_follows
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.order import Order, order_for

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("chromium")]
PLAYERS = ["张伟", "Bo Li", "王芳", "Dee Ramaswamy-Okonkwo"]


def _order(state: dict[str, Any]) -> Order:
    return order_for(state["rank"] + ("" if state["trump"] == "nt" else state["trump"]))


def _chips(page: Any) -> list[str]:
    return [str(c.get_attribute("data-play")) for c in page.locator("#sj-offer .sjchip").all()]


def _chips_on(page: Any) -> list[str]:
    return [str(c.get_attribute("data-play")) for c in page.locator("#sj-offer .sjchip.on").all()]


def _table(client: Any, steps: list[Any]) -> tuple[str, str]:
    made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS}).json()
    for s in steps:
        assert send(client, made["id"], made["token"], s.kind, s.body).status_code in {200, 201}
    return made["id"], made["token"]


# the cards of two decks, by id
_TWO_DECKS = sorted(
    card_ids(parse_hand(" ".join(f"{r}{s}" for r in "3456789TJQKA2" for s in "shdc") + " SJ BJ"))
    * 2
)


def _led(
    client: Any, deals: dict[str, int], kitty: str, lead: int
) -> tuple[str, str, dict[str, Any]]:
    """A table dealt `deals` with clubs trump (seat 1 bids 2c and deals), seat 1's exchange of
    `kitty`, and its lead of `lead`: the table, its token and its state then."""
    made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS}).json()
    table, token = made["id"], made["token"]
    start = {"dealer": 1, "trump": "c", "deals": {k: format_hand(v) for k, v in deals.items()}}
    assert send(client, table, token, "hand", start).status_code == 201
    assert send(client, table, token, "move", {"seat": 1, "bid": "2c"}).status_code == 200
    done = send(client, table, token, "move", {"seat": 1, "discard": kitty, "kitty": kitty})
    assert done.status_code == 200, done.text
    play = {"seat": 1, "play": format_hand(lead)}
    assert send(client, table, token, "move", play).status_code == 200
    return table, token, client.get(f"/api/tables/{table}").json()


def test_a_follow_offers_the_engines_legal_follows(browser: Any, tmp_path: Path) -> None:
    # The server sent `legal` only for 60 plays or fewer and the page never showed it: a
    # Sheng ji follow had to be tapped card by card.
    match = simulated(tmp_path)
    steps = [s for s in match_steps(match) if s.round == 1]
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        # the round's start, the bid, the exchange and the first trick's lead
        table, token = _table(client, steps[:4])
        state = client.get(f"/api/tables/{table}").json()
        order, seat = _order(state), state["turn"]
        lead = classify(order, parse_hand(state["trick_moves"][0]["play"]))
        hand = parse_hand(state["hands"][seat - 1]["cards"])
        engine = sorted(format_hand(p) for p in legal_follows(order, lead, hand))
        assert len(engine) > 1
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/t/{table}#k={token}")
        a.page.wait_for_selector("#sj-offer")
        assert sorted(_chips(a.page)) == engine
        # a play other than the one the record made: tapped, it fills the cards in; Play
        pick = next(p for p in engine if p != steps[4].body["play"])
        a.tap(f'#sj-offer .sjchip[data-play="{pick}"]')
        assert a.page.locator("#sj-cards").input_value() == pick
        picked = a.page.locator("#entry .sjhand button.sel").all()
        assert sorted(b.get_attribute("data-card") for b in picked) == sorted(pick.split())
        # the chip tapped shows it is the play filled in, and it alone
        assert _chips_on(a.page) == [pick]
        a.check("offer-1-follow")
        a.tap("#entry button:text('Play')")
        a.at(state["version"] + 1)
        moves = client.get(f"/api/tables/{table}").json()["moves"]
        assert moves[-1]["seat"] == seat and moves[-1]["play"] == pick


def test_a_lead_offers_its_units_and_the_felt_names_them(browser: Any, tmp_path: Path) -> None:
    match = simulated(tmp_path)
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        table, token = _table(client, [])
        # the round's moves up to the first lead by a hand that holds a tractor
        for step in match_steps(match):
            assert send(client, table, token, step.kind, step.body).status_code in {200, 201}
            state = client.get(f"/api/tables/{table}").json()
            if state["phase"] != "play" or state["trick_moves"]:
                continue
            order, seat = _order(state), state["turn"]
            hand = parse_hand(state["hands"][seat - 1]["cards"])
            units = {
                format_hand(p): classify(order, p).kind
                for p in every_lead(order, hand)
                if classify(order, p).kind != "throw"
            }
            if "tractor" in units.values():
                break
        else:
            raise AssertionError("no hand with a tractor to lead")
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/t/{table}#k={token}")
        a.page.wait_for_selector("#sj-offer")
        chips = a.page.locator("#sj-offer .sjchip")
        offered = {
            format_hand(parse_hand(str(c.get_attribute("data-play")))): c.get_attribute("data-kind")
            for c in chips.all()
        }
        assert offered == units and chips.count() == len(units)
        assert "A throw: tap its cards" in a.page.locator("#sj-offer").inner_text()
        a.check("offer-2-lead")
        wide = Device(browser, DESKTOP)  # a laptop: the same chips beside the felt
        wide.page.goto(f"{base}/t/{table}#k={token}")
        wide.page.wait_for_selector("#sj-offer")
        assert wide.page.locator("#sj-offer .sjchip").count() == len(units)
        wide.check("offer-2-lead-desktop")
        # a single tapped in the folded list: the list stays open, its chip shown picked
        folded = a.page.locator("#sj-offer details.sjoffer")
        folded.locator("summary").tap()
        single = folded.locator(".sjchip").nth(1)
        one = str(single.get_attribute("data-play"))
        single.tap()
        assert a.page.locator("#sj-cards").input_value() == one
        assert _chips_on(a.page) == [one]
        assert a.page.locator("#sj-offer .sjchip.on").is_visible()
        tractor = a.page.locator('#sj-offer .sjchip[data-kind="tractor"]').first
        play = str(tractor.get_attribute("data-play"))
        tractor.tap()
        assert a.page.locator("#sj-cards").input_value() == play
        a.tap("#entry button:text('Play')")
        a.at(state["version"] + 1)
        assert client.get(f"/api/tables/{table}").json()["moves"][-1]["play"] == format_hand(
            parse_hand(play)
        )
        felt = a.page.locator(".sjcenter .sjunits")
        assert felt.get_attribute("data-kind") == "tractor"
        assert felt.locator(".unit i").all_inner_texts() == ["tractor"]
        assert felt.locator(".unit").get_attribute("data-unit") == play
        a.check("offer-3-tractor-led")


def test_a_throw_is_named_on_the_felt(browser: Any, tmp_path: Path) -> None:
    match = simulated(tmp_path)
    steps = list(match_steps(match))
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS}).json()
        table, token = made["id"], made["token"]
        for step in steps:
            assert send(client, table, token, step.kind, step.body).status_code in {200, 201}
            lead = (client.get(f"/api/tables/{table}").json()["trick_moves"] or [{}])[0]
            if len(lead.get("units", [])) > 1 and "blocked_by" not in step.body:
                break
        else:
            raise AssertionError("no throw that stood in the match")
        for viewport, name in ((PHONE, "offer-4-throw"), (DESKTOP, "offer-5-throw-desktop")):
            a = Device(browser, viewport)
            a.page.goto(f"{base}/t/{table}")
            felt = a.page.locator(".sjcenter .sjunits")
            assert felt.get_attribute("data-kind") == "throw"
            text = felt.inner_text()
            assert f"throw of {len(lead['units'])} units" in text, text
            assert felt.locator(".unit").count() == len(lead["units"])
            shown = [u.get_attribute("data-unit") for u in felt.locator(".unit").all()]
            assert shown == lead["units"]
            a.check(name)


def test_a_follow_too_many_to_list_says_what_it_must_hold(browser: Any, tmp_path: Path) -> None:
    # A hand void in the led suit following a tractor has thousands of follows: none listed,
    # the page says how many cards of any suit go (the engine's count of follows).
    diamonds = [c for c in _TWO_DECKS if c % 4 == 2 and c < 48]  # the plain diamonds, 3d..Ad
    lead, bid = parse_hand("3d 3d 4d 4d"), parse_hand("2c")  # the bid makes clubs trump
    rest = [c for c in _TWO_DECKS if c not in diamonds] + diamonds
    for c in card_ids(lead + bid):
        rest.remove(c)
    seat2 = [c for c in rest if c not in diamonds][:25]  # no diamonds at all
    for c in seat2:
        rest.remove(c)
    deals = {"1": from_ids(card_ids(lead + bid) + rest[:20]), "2": from_ids(seat2),
             "3": from_ids(rest[20:45]), "4": from_ids(rest[45:70])}  # fmt: skip
    kitty = format_hand(from_ids(rest[70:]))
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        table, token, state = _led(client, deals, kitty, lead)
        order = _order(state)
        many = count_follows(order, classify(order, lead), deals["2"])
        assert state["turn"] == 2 and many > 240
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/t/{table}#k={token}")
        a.page.wait_for_selector("#sj-offer")
        assert a.page.locator("#sj-offer .sjchip").count() == 0
        said = a.page.locator("#sj-offer-many").inner_text()
        assert f"has {many} legal plays" in said and "any 4 cards" in said, said
        a.check("offer-6-too-many")


# Boxes that stick out of their own panel (the felt's middle, the entry form): inside the
# screen, so LAYOUT does not see them, but over the seats beside or past the form's edge.
OUTSIDE = """() => {
  const out = [];
  const within = (sel, box) => document.querySelectorAll(sel).forEach(e => {
    const r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1) out.push(sel + ' ' + e.textContent);
  });
  within('.sjcenter .sjunits .unit', document.querySelector('.sjcenter'));
  within('#sj-offer .sjchip', document.querySelector('#entry'));
  return out;
}"""


def test_a_long_tractor_and_its_follow_fit_a_phone(browser: Any, tmp_path: Path) -> None:
    # A tractor of six pairs led and a twelve-card follow: their cards could not wrap, so the
    # tractor ran over the seats beside the felt's middle and the chip past the form's edge.
    lead, bid = parse_hand("3h 3h 4h 4h 5h 5h 6h 6h 7h 7h 8h 8h"), parse_hand("2c")
    rest = list(_TWO_DECKS)
    for c in card_ids(lead + bid):
        rest.remove(c)
    hearts = [c for c in rest if c % 4 == 1 and c < 48]  # the twelve plain hearts left
    others = [c for c in rest if c not in hearts]
    seat2 = hearts + others[:13]
    rest = others[13:]
    deals = {"1": from_ids(card_ids(lead + bid) + rest[:12]), "2": from_ids(seat2),
             "3": from_ids(rest[12:37]), "4": from_ids(rest[37:62])}  # fmt: skip
    kitty = format_hand(from_ids(rest[62:]))
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        table, token, state = _led(client, deals, kitty, lead)
        assert state["trick_moves"][0]["kind"] == "tractor"
        assert state["offer"]["plays"] == [format_hand(from_ids(hearts))]  # all its hearts
        a = Device(browser, PHONE)
        a.page.goto(f"{base}/t/{table}#k={token}")
        a.page.wait_for_selector("#sj-offer .sjchip")
        assert a.page.evaluate(OUTSIDE) == []
        a.check("offer-7-long-tractor")
