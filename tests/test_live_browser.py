"""The live table in Chromium at phone size (390x844): a whole hand entered by tapping.

A real `zfrec serve` process on loopback; Playwright drives Debian's chromium with touch. The
hand is a self-play one; after it the table's record must hold the same plays and score.
Screenshots go to test-artifacts/live-*.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.live_helpers import exported, sim, without_passes
from tests.test_live_phones import tap_anew
from tests.test_live_server import server
from tests.test_render_browser import ARTIFACTS
from zfrec.games.zhengfen.engine.cards import card_str, format_cards, ids

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("chromium"),  # skipped without it (tests/lanes.py)
]
PHONE = {"width": 390, "height": 844}


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-{name}.png"), full_page=True)


def settle(page: Any, version: int) -> None:
    """Wait until the page shows the table at `version` (after an entry was answered)."""
    page.wait_for_selector(f'body[data-version="{version}"]', state="attached")


def test_a_whole_hand_entered_by_tapping(browser: Any, tmp_path: Path) -> None:
    game = sim(3, 701, "pagat", hands=1)
    hand = game.hands[0]
    assert hand.deal is not None and hand.shuffler is not None
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        page = phone(browser)
        page.goto(f"{base}/new")
        inputs = page.locator("input[name=player]")
        for i, name in enumerate(game.players):
            inputs.nth(i).fill(name)
        page.locator("input[name=event]").fill("Club night 俱乐部")
        shot(page, "1-new-table")
        page.locator("button[type=submit]").tap()
        page.wait_for_selector("#handstart:not(.hidden)")
        table = page.url.split("/t/")[1].split("#")[0].split("?")[0]
        assert "#k=" not in page.url  # the token left the address bar for local storage

        # Hand start: the shuffler, and seat 1's cards tapped in the 54-card grid.
        page.select_option("#shuffler", str(hand.shuffler + 1))
        page.locator('button[data-mode="own"]').tap()
        for card in ids(hand.deal[0].known):
            page.locator(f'#handstart .picker button[data-card="{card_str(card)}"]').tap()
        assert page.locator("#deal-count").inner_text().startswith(f"{game.players[0]}: 18 of 18")
        shot(page, "2-hand-start")
        page.locator("#start-btn").tap()
        version = 1
        settle(page, version)

        # Every move: the seat (when it is not the seat to move), the cards, then Play or Pass.
        illegal_shown = False
        passed = False  # the last tap was on Pass
        for t_index, trick in enumerate(hand.tricks):
            for move in trick.moves:
                turn = page.locator("#seats .seat.turn").get_attribute("data-seat")
                if str(move.seat + 1) != turn:
                    page.locator(f'#entry button[data-seat="{move.seat + 1}"]').tap()
                    passed = False
                if move.is_pass:
                    # as a person taps it, having looked at the last pass go in: a tap of its
                    # own (two quick taps on Pass are a double tap, one pass: LIVE.md)
                    if passed:
                        tap_anew(page.locator("#pass-btn"))
                    else:
                        page.locator("#pass-btn").click()
                    passed = True
                else:
                    if not illegal_shown and t_index >= 1:
                        played = client.get(f"/api/tables/{table}").json()["played"]
                        illegal_shown = try_illegal(page, played.split()[0])
                    if move.declarations:  # jokers: typed, with what they stand for
                        page.locator("#play-text").fill(move.play_text())
                    else:
                        for card in ids(move.cards):
                            page.locator(
                                f'#entry .picker button[data-card="{card_str(card)}"]'
                            ).tap()
                    assert set(page.locator("#play-text").input_value().split()) >= {
                        card_str(c) for c in ids(move.cards) if c < 52
                    }
                    page.locator("#play-btn").tap()
                    passed = False
                version += 1
                settle(page, version)
                if version == 12:
                    shot(page, "3-play-entry")
        assert illegal_shown
        page.wait_for_selector("#handend:not(.hidden)")
        shot(page, "5-hand-end")
        assert page.locator("#undo-btn").count() == 1  # the hidden entry box keeps none
        assert page.locator("body").get_attribute("data-status") == "between"
        score = hand.score
        assert score is not None
        rows = page.locator("#score tbody tr")
        assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)] == [
            str(p) for p in score.points
        ]
        got = exported(client, table)
        assert without_passes(got) == without_passes(game)
        assert got.hands[0].score == score

        # A spectator (no token) sees the table and no entry controls; the watch page frames
        # the replay of the hand.
        spectator = phone(browser)
        spectator.goto(f"{base}/t/{table}")
        spectator.wait_for_selector("#seats .seat")
        assert (
            spectator.locator("#entry").is_hidden() and spectator.locator("#handstart").is_hidden()
        )
        spectator.goto(f"{base}/t/{table}/watch?seat=2")
        frame = spectator.frame_locator("#frame")
        frame.locator("#headline").wait_for()
        shot(spectator, "6-watch")
        assert format_cards(hand.deal[0].known).split()[0] not in spectator.content()
        # The watch page follows the table (server-sent events): hand 2 starts elsewhere, and
        # the frame moves to its replay.
        token = page.evaluate(f"localStorage.getItem('zfrec-token:{table}')")
        r = client.post(
            f"/api/tables/{table}/hands", json={}, headers={"Authorization": f"Bearer {token}"}
        )
        assert r.status_code == 201, r.text
        spectator.wait_for_selector('#frame[src*="/replay/2?"]', state="attached")


def try_illegal(page: Any, played: str) -> bool:
    """Type a card already played (the grid will not let one tap it): the server refuses it
    in the validator's words, and nothing changes."""
    version = page.locator("body").get_attribute("data-version")
    assert page.locator(f'#entry .picker button[data-card="{played}"]').is_disabled()
    page.locator("#play-text").fill(played)
    page.locator("#play-btn").tap()
    page.wait_for_selector("#msg .msg.error")
    text = page.locator("#msg").inner_text()
    assert "ZF302" in text and "played a second time" in text
    shot(page, "4-refused")
    assert page.locator("body").get_attribute("data-version") == version
    page.locator("#entry button", has_text="Clear").tap()
    return True


def test_an_ambiguous_joker_play_is_settled_by_tapping_a_reading(
    browser: Any, tmp_path: Path
) -> None:
    """Two jokers with 8h 9h Th read as several suit sequences: the page asks which one, and
    tapping a reading enters that play with its declarations."""
    deal = "3h 8h 9h Th SJ BJ 4h 5s 5h 6d 9d Tc Jh Qs Kd Ad 2s 2c"
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        made = client.post("/api/tables", json={"players": ["Ann", "Bo", "Cy"]}).json()
        table, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
        started = client.post(
            f"/api/tables/{table}/hands", json={"shuffler": 3, "deals": {"1": deal}}, headers=auth
        )
        assert started.status_code == 201 and started.json()["turn"] == 1
        page = phone(browser)
        page.goto(str(client.base_url).rstrip("/") + made["join"])
        settle(page, 1)
        page.locator("#play-text").fill("8h 9h Th SJ BJ")
        page.locator("#play-btn").tap()
        chips = page.locator('[aria-label="Readings"] button.chip')
        chips.first.wait_for()
        shot(page, "4-which-reading")
        assert chips.count() >= 2
        assert client.get(f"/api/tables/{table}").json()["version"] == 1  # nothing entered yet
        offered = chips.last.get_attribute("data-play")
        chips.last.tap()
        settle(page, 2)
        state = client.get(f"/api/tables/{table}").json()
        assert state["top"] == offered and state["version"] == 2
        record = exported(client, table)
        [move] = record.hands[0].tricks[0].moves
        assert move.play_text() == offered
