"""A Sheng ji live table in Chromium (LIVE.md, "Sheng ji"): two writer phones and a spectator,
at 390x844 and 1280x800. A real `zfrec serve` on loopback; the phones start a round, bid,
exchange and play by tapping and typing, a wrong play shows the validator's SJ code, and the
round's end shows the kitty, multiplier, levels and next dealer. On every page: no element is
wider than the screen, no text is under 9 px, the console shows no errors. Screenshots go to
test-artifacts/live-sj-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sj_live_helpers import match_steps, send, simulated
from tests.test_live_server import server
from tests.test_render_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("chromium")]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Elements wider than the viewport, and text drawn under 9 px, on the page as it is.
LAYOUT = """() => {
  const w = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > w + 1 || r.left < -1);
  }).map(e => e.tagName + '.' + e.className);
  const small = [...document.querySelectorAll('body *')].filter(e =>
    [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) &&
    e.getClientRects().length && parseFloat(getComputedStyle(e).fontSize) < 9
  ).map(e => e.tagName + ':' + e.textContent.slice(0, 20));
  return {wide, small, scroll: document.documentElement.scrollWidth - w};
}"""


class Device:
    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        mobile = viewport is PHONE
        self.context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.viewport = viewport

    def _console(self, m: Any) -> None:
        # A refused entry (422) is logged by the browser as a failed resource: it is expected.
        if m.type == "error" and "status of 422" not in m.text:
            self.errors.append(m.text)

    def check(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"live-sj-{name}.png"), full_page=True)
        found = self.page.evaluate(LAYOUT)
        assert found["wide"] == [] and found["scroll"] <= 0, (name, found)
        assert found["small"] == [], (name, found)
        assert self.errors == [], (name, self.errors)

    def at(self, version: int) -> None:
        try:
            self.page.wait_for_selector(f'body[data-version="{version}"]', state="attached")
        except Exception as exc:
            raise AssertionError((version, self.errors)) from exc

    def tap(self, selector: str) -> None:
        if self.viewport is PHONE:
            self.page.locator(selector).first.tap()
        else:
            self.page.locator(selector).first.click()


def test_two_phones_and_a_spectator(browser: Any, tmp_path: Path) -> None:
    match = simulated(tmp_path)
    rnd = match.rounds[0]
    assert rnd.deal is not None and rnd.dealer is not None and rnd.discard is not None
    steps = [s for s in match_steps(match) if s.round == 1]
    with server(f"sqlite:///{tmp_path / 'club.db'}", tmp_path / "s.log") as (_proc, client):
        base = str(client.base_url).rstrip("/")
        made = client.post("/api/tables", json={"game": "shengji", "players": ["Ann", "Bo Li",
                           "王芳", "Dee"], "event": "Club night 俱乐部"})  # fmt: skip
        assert made.status_code == 201
        table, token, join = made.json()["id"], made.json()["token"], made.json()["join"]
        a, b = Device(browser, PHONE), Device(browser, PHONE)
        watcher, wide = Device(browser, PHONE), Device(browser, DESKTOP)
        for d in (a, b, wide):
            d.page.goto(base + join)
        watcher.page.goto(f"{base}/t/{table}")
        a.page.wait_for_selector("#entry:not(.hidden)")
        assert watcher.page.locator("#entry").is_hidden()  # no token: no entry controls
        a.check("1-phone-new")
        wide.check("1-desktop-new")

        # Phone A starts round 1 with every deal typed in; the dealer as the bids will settle it.
        a.page.select_option("#sj-dealer", str(rnd.dealer + 1))
        a.page.select_option("#sj-trump", rnd.trump or "")
        a.tap("#entry details summary")
        for seat, text in steps[0].body["deals"].items():
            a.page.locator(f"#sj-deal-{seat}").fill(text)
        a.tap("#entry button.primary")
        version = 1
        for d in (a, b, watcher):
            d.at(version)
        # Phone B enters the bids, typed; phone A the dealer's discard.
        for bid in rnd.bids:
            b.page.select_option("#sj-seat", str(bid.seat + 1))
            b.page.locator("#sj-cards").fill(steps[1 + rnd.bids.index(bid)].body["bid"])
            b.tap("#entry button:text('Bid')")
            version += 1
            b.at(version)
        a.at(version)
        a.page.select_option("#sj-seat", str(rnd.dealer + 1))
        a.page.locator("#sj-cards").fill(steps[len(rnd.bids) + 1].body["discard"])
        a.tap("#entry button:text('Discard (dealer)')")
        version += 1
        a.at(version)
        plays = steps[len(rnd.bids) + 2 :]
        # Two tricks by tapping (A) and typing (B), in turn; a wrong play first shows its code.
        wrong_shown = False
        for i, step in enumerate(plays[:8]):
            d = a if i % 2 == 0 else b
            d.at(version)
            seat, cards = step.body["seat"], step.body["play"]
            d.page.select_option("#sj-seat", str(seat))
            d.at(version)
            if i == 1 and not wrong_shown:
                d.page.locator("#sj-cards").fill(cards + " " + cards.split()[0])
                d.tap("#entry button:text('Play')")
                d.page.wait_for_selector("#msg .msg.error")
                code = d.page.locator("#msg .code").inner_text()
                assert code.startswith("SJ"), code
                d.check("2-phone-refused")
                wrong_shown = True
                d.tap("#entry button:text('Clear')")
            if d is a:
                picked: list[str] = []
                for card in cards.split():
                    n = picked.count(card)
                    a.page.locator(f'#entry .sjhand button[data-card="{card}"]').nth(n).tap()
                    picked.append(card)
                assert sorted(a.page.locator("#sj-cards").input_value().split()) == sorted(
                    cards.split()
                )
            else:
                b.page.locator("#sj-cards").fill(cards)
            d.tap("#entry button:text('Play')")
            version += 1
            d.at(version)
            if i == 5:
                for dev, name in ((a, "3-phone-a-trick"), (watcher, "3-phone-spectator"),
                                  (wide, "3-desktop-trick")):  # fmt: skip
                    dev.at(version)
                    dev.check(name)
                assert watcher.page.locator(".sjseat.win").count() == 1
                assert "Opponents" in watcher.page.locator(".sjcenter").inner_text()
        # The rest of the round through the API; every page shows its end.
        for step in plays[8:]:
            assert send(client, table, token, step.kind, step.body).status_code == 200, step
            version += 1
        assert client.get(f"/api/tables/{table}").json()["version"] == version
        for dev, name in ((a, "4-phone-round-end"), (watcher, "4-phone-spectator-end"),
                          (wide, "4-desktop-round-end")):  # fmt: skip
            dev.at(version)
            dev.page.wait_for_selector("#roundend:not(.hidden)")
            text = dev.page.locator("#roundend").inner_text()
            assert "Next dealer" in text and "Levels" in text and "Kitty" in text
            dev.check(name)
        # Undo from phone B takes the last play back on every page.
        b.at(version)
        b.tap("#entry button:text('Undo')")
        version += 1
        for dev in (a, watcher):
            dev.at(version)
        assert watcher.page.locator("#roundend").is_hidden()
        watcher.check("5-phone-after-undo")
