"""Two refusals of a Sheng ji live table as a phone shows them (Chromium, 390x844, a real
`zfrec serve`): a discard with one card the dealer does not hold names that card alone, with
the held card a typo may have meant; a throw typed as attempted that cannot stand says how to
enter its block, and entered with the block it is taken. Screenshots go to
test-artifacts/live-sj-refused-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sj_live_helpers import match_steps, send
from tests.test_live_server import server
from tests.test_live_shengji_browser import PHONE, Device
from tests.test_sj_newcomer6 import WRONG_CARDS, put_right

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("chromium")]


def _refusal(d: Device, seat: int, cards: str, button: str) -> str:
    d.page.select_option("#sj-seat", str(seat))
    d.page.locator("#sj-cards").fill(cards)
    d.tap(f"#entry button:text('{button}')")
    d.page.wait_for_selector("#msg .msg.error")
    return str(d.page.locator("#msg .msg.error").inner_text())


def test_a_wrong_discard_and_a_throw_without_its_block(browser: Any, tmp_path: Path) -> None:
    match = put_right()
    steps = list(match_steps(match))
    discard = next(i for i, s in enumerate(steps) if "discard" in s.body)
    block = next(i for i, s in enumerate(steps) if "blocked_by" in s.body)
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/tables", json={"game": "shengji", "rules": "bashifen",
                                                "players": list(match.players)})  # fmt: skip
        assert made.status_code == 201
        table, token, join = made.json()["id"], made.json()["token"], made.json()["join"]
        for s in steps[:discard]:
            assert send(client, table, token, s.kind, s.body).status_code in (200, 201)
        version = discard
        phone = Device(browser, PHONE)
        phone.page.goto(base + join)
        phone.at(version)
        said = _refusal(phone, 1, WRONG_CARDS, "Discard (dealer)")
        assert "王芳 does not hold 5s; did you mean 5h?" in said, said
        assert "4h 5s" not in said and "Th Qh" not in said.split("not entered")[-1], said
        phone.check("refused-discard")
        phone.tap("#entry button:text('Clear')")
        for s in steps[discard:block]:
            assert send(client, table, token, s.kind, s.body).status_code in (200, 201)
        version = block
        phone.at(version)
        said = _refusal(phone, 4, "4s As", "Play")
        assert "the throw 4s As cannot stand: 王芳 holds a higher single than 4s" in said, said
        assert '"A throw that was blocked"' in said, said
        phone.check("refused-throw")
        # entered as the refusal says: the same cards with the block
        body = steps[block].body
        if phone.page.locator("#sj-block").get_attribute("open") is None:
            phone.tap("#sj-block summary")
        phone.page.select_option("#sj-blocker", str(body["blocked_by"]))
        phone.page.locator("#sj-shows").fill(body["shows"])
        phone.page.locator("#sj-cards").fill("4s As")
        phone.tap("#entry button:text('Play')")
        phone.at(version + 1)
        phone.check("throw-blocked")
        assert "4: 4s As forced 4s by 1" in client.get(f"/api/tables/{table}/record.zfn").text
