"""Round 1 of a Sheng ji live table whose dealer was picked in the form and whose bids name
another seat (LIVE.md, "Sheng ji"; rulings 14: the seat whose bid stands deals round 1, SJ304).
In headless Chromium at 390x844 and 1280x800 against a real `zfrec serve`: the seats are labelled
as the rules judge them at every moment (the dealer and its partner the declarers), and the
felt names the pick the bids overrule before the exchange is refused. Screenshots go to
test-artifacts/live-sj-dealer-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_live_phones import at
from tests.test_live_server import server
from tests.test_live_shengji_browser import DESKTOP, PHONE, Device

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("chromium")]
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def labels(page: Any) -> dict[int, str]:
    """Each seat's label on the felt (`dealer · declarer · level 2 · 25 cards`)."""
    out: dict[int, str] = {}
    for seat in range(1, 5):
        out[seat] = page.locator(f'#felt .sjseat[data-seat="{seat}"] .team').inner_text()
    return out


def roles(page: Any) -> dict[int, tuple[bool, str]]:
    """Per seat: whether it is labelled the dealer, and declarer or opponent."""
    out = {}
    for seat, text in labels(page).items():
        words = [w.strip() for w in text.split("\u00b7")]
        out[seat] = ("dealer" in words, "declarer" if "declarer" in words else "opponent")
    return out


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_round_one_dealer_picked_and_another_seats_bid_label_the_seats_as_the_rules_judge(
    browser: Any, tmp_path: Path, size: str
) -> None:
    """Ann is picked to deal round 1 in the form; Bo bids 2h. The labels said "dealer ·
    opponent" for Ann and "declarer" for Bo until the exchange was judged (and then SJ304 named
    Bo the dealer). Now: Ann's pick alone, Ann deals with Cy; Bo's bid in, Bo deals (dealer ·
    declarer) with Di, Ann and Cy are opponents, and the felt says Ann's pick is overruled;
    Bo's exchange is refused with the clash (SJ304), not as "Ann deals"; Ann outbidding with a
    pair, she deals again and the note goes."""
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made = client.post("/api/tables", json={"game": "shengji", "players": PLAYERS}).json()
        url = f"/api/tables/{made['id']}"
        auth = {"Authorization": f"Bearer {made['token']}"}
        d = Device(browser, PHONE if size == "phone" else DESKTOP)
        page = d.page
        page.goto(str(client.base_url).rstrip("/") + made["join"])
        page.select_option("#sj-dealer", "1")
        page.locator("#entry button:text('Start the round')").click()
        at(page, 1)
        assert roles(page) == {
            1: (True, "declarer"), 2: (False, "opponent"),
            3: (False, "declarer"), 4: (False, "opponent"),
        }  # fmt: skip
        assert page.locator("#sj-picked").count() == 0

        page.select_option("#sj-seat", "2")
        page.locator("#sj-cards").fill("2h")
        page.locator("#entry button:text-is('Bid')").click()
        at(page, 2)
        d.check(f"dealer-1-bid-{size}")
        assert roles(page) == {
            1: (False, "opponent"), 2: (True, "declarer"),
            3: (False, "opponent"), 4: (False, "declarer"),
        }, labels(page)  # fmt: skip
        st = client.get(url).json()
        assert (st["dealer"], st["declarers"], st["picked_dealer"]) == (2, [2, 4], 1)
        note = page.locator("#sj-picked").inner_text()
        assert "Ann was picked to deal, but Bo's bid stands" in note, note
        assert "SJ304" in note, note

        r = client.post(
            f"{url}/moves", json={"seat": 2, "discard": "3c 4c 5c 6c 7c 8c 9c Tc"}, headers=auth
        )
        assert r.status_code == 422 and r.json()["code"] == "SJ304", r.text
        assert r.json()["message"].startswith("Bo deals round 1: the seat whose bid stands")

        page.select_option("#sj-seat", "1")
        page.locator("#sj-cards").fill("2s 2s")
        page.locator("#entry button:text-is('Bid')").click()
        at(page, 3)
        d.check(f"dealer-2-outbid-{size}")
        assert roles(page) == {
            1: (True, "declarer"), 2: (False, "opponent"),
            3: (False, "declarer"), 4: (False, "opponent"),
        }, labels(page)  # fmt: skip
        assert page.locator("#sj-picked").count() == 0
        assert client.get(url).json()["picked_dealer"] is None
