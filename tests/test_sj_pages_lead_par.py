"""A Sheng ji round's replay page names a tractor or a throw led (the engine's reading), and its
result names the round's par and the distance from it, as the solver finds them
(zfrec.games.shengji.solverecord.round_costs). In Chromium too, at 390x844 and 1280x800:
screenshots go to test-artifacts/sj-lead-*.png and sj-par-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.test_render_browser import ARTIFACTS
from zfrec.cli import app
from zfrec.games.shengji.formats import classify
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.pages import glyphs, match_view
from zfrec.games.shengji.records import SjMatch
from zfrec.games.shengji.solverecord import round_costs
from zfrec.record import load, loads

SJ = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
SIZES = ((390, 844), (1280, 800))
# One deck, no trump: the dealer holds the top three cards of every suit, so every position
# of the round is solved at once (a whole round of real deals is beyond the solver's budget).
SMALL = """[Game "shengji"]
[Players "Ann, Bo, Cy, Di"]
[Rules "dabaifen"]

round 1 dealer 1 rank 2 trump nt
deal 1: As Ks Qs Ah Kh Qh Ad Kd Qd Ac Kc Qc
deal 2: 8s 7s 6s 8h 7h 6h 8d 7d 6d 8c 7c 6c
deal 3: Js Ts 9s Jh Th 9h Jd Td 9d Jc Tc 9c
deal 4: 5s 4s 3s 5h 4h 3h 5d 4d 3d 5c 4c 3c
kitty 2s 2h 2d 2c SJ BJ
discard 2s 2h 2d 2c SJ BJ
1: Qs  2: 6s  3: 9s  4: 3s
1: Qh Kh  2: 6h 7h  3: 9h Th  4: 3h 4h
1: Qd  2: 6d  3: 9d  4: 3d
1: Qc  2: 6c  3: 9c  4: 3c
1: Ks  2: 7s  3: Ts  4: 4s
1: Kd  2: 7d  3: Td  4: 4d
1: Kc  2: 7c  3: Tc  4: 4c
1: As  2: 8s  3: Js  4: 5s
1: Ah  2: 8h  3: Jh  4: 5h
1: Ad  2: 8d  3: Jd  4: 5d
1: Ac  2: 8c  3: Jc  4: 5c
"""


def _match(path: Path) -> SjMatch:
    return match_of(next(iter(load(path))))


def test_a_tractor_or_a_throw_led_is_named() -> None:
    # The page grouped a lead's units but called a tractor "leads 8♥ 8♥ 7♥ 7♥" and a throw
    # that stood "leads A♦ K♦ K♦" (the units' gap lost): neither was named.
    seen: dict[str, int] = {}
    for sample in ("01-bashifen-match.zfn", "03-failed-throw.zfn", "05-dabaifen-match.zfn"):
        match = _match(SJ / sample)
        view = match_view(match)
        for rnd, page in zip(match.rounds, view.rounds, strict=True):
            order = rnd.order()
            assert order is not None
            steps = [s for s in page.data["steps"] if s["kind"] == "play"]
            heads = {(s["trick"], s["turn"]): s["headline"] for s in steps}
            for t, trick in enumerate(rnd.tricks, 1):
                lead = trick.moves[0]
                if lead.failed:
                    continue
                fmt = classify(order, lead.played)
                play = page.data["tricks"][t - 1]["plays"][0]
                assert play["kind"] == fmt.kind
                units = [[c for c in u] for u in play["units"]]
                head = heads[(t, 1)]
                if fmt.kind == "throw":
                    said = f"throws {len(fmt.units)} units: " + " · ".join(map(glyphs, units))
                    assert said in head, head
                elif fmt.kind in ("pair", "tractor"):
                    assert f"leads a {fmt.kind} {glyphs(units[0])}" in head, head
                seen[fmt.kind] = seen.get(fmt.kind, 0) + 1
    assert seen.get("tractor") and seen.get("throw"), seen


def test_the_result_names_the_par_and_the_distance_from_it() -> None:
    # `zfrec analyze` gave a round's par and "N from par"; its replay page did not.
    match = match_of(next(iter(loads(SMALL))))
    costs = round_costs(match, 0, max_cards=48)
    assert costs.par is not None and costs.from_par is not None  # solved: a real figure
    view = match_view(match, solve_cards=48)
    data = view.rounds[0].data
    assert data["par"] == costs.par and data["from_par"] == costs.from_par
    result = data["steps"][-1]["headline"]
    assert result.endswith(f"; par {costs.par}, {costs.from_par:+d} from par"), result
    # a round of real deals: the solver cannot solve it whole at 12 cards; as `analyze`, the
    # page then says nothing of a par (a note on every real round would say nothing new)
    sample = _match(SJ / "03-failed-throw.zfn")
    assert round_costs(sample, 0, max_cards=12).par is None
    solved = match_view(sample, solve_cards=12).rounds[0].data
    assert solved["par"] is None and "par" not in solved["steps"][-1]["headline"]
    # without the solver, nothing of a par
    plain = match_view(sample).rounds[0].data
    assert "par" not in plain and "par" not in plain["steps"][-1]["headline"]


@pytest.mark.slow
@pytest.mark.usefixtures("chromium")
def test_the_replay_shows_the_lead_named_and_the_par(browser: Any, tmp_path: Path) -> None:
    runner = CliRunner()
    small = tmp_path / "small.zfn"
    small.write_text(SMALL, "utf-8")
    par_site, lead_site = tmp_path / "par", tmp_path / "lead"
    done = runner.invoke(app, ["render", str(small), "--out", str(par_site), "--solve-cards", "48"])
    assert done.exit_code == 0, done.output
    sample = SJ / "01-bashifen-match.zfn"
    assert runner.invoke(app, ["render", str(sample), "--out", str(lead_site)]).exit_code == 0
    costs = round_costs(match_of(next(iter(loads(SMALL)))), 0, max_cards=48)
    match = _match(sample)
    # the first round with a tractor led, and the trick
    where = next(
        (i, t)
        for i, rnd in enumerate(match.rounds)
        for t, trick in enumerate(rnd.tricks, 1)
        if rnd.order() is not None
        and not trick.moves[0].failed
        and classify(rnd.order(), trick.moves[0].played).kind == "tractor"  # type: ignore[arg-type]
    )
    rnd = match.rounds[where[0]]
    step = sum(len(tr.moves) for tr in rnd.tricks[: where[1] - 1]) + 1
    errors: list[str] = []
    for w, h in SIZES:
        page = browser.new_page(viewport={"width": w, "height": h})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((lead_site / f"round-{rnd.number}.html").as_uri())
        for _ in range(step):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.body.dataset.step") == str(step)
        lead = page.locator("#log .play").first
        assert lead.locator(".units > .tag").inner_text() == "tractor"
        assert "leads a tractor" in page.locator("#headline").inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"sj-lead-tractor-{w}.png"), full_page=True)
        page.goto((par_site / "round-1.html").as_uri())
        page.keyboard.press("End")
        said = page.locator("#headline").inner_text()
        assert f"par {costs.par}, {costs.from_par:+d} from par" in said, said
        page.keyboard.press("Home")
        for _ in range(5):  # the second trick's lead: a throw of two units that stands
            page.keyboard.press("ArrowRight")
        assert page.locator("#log .play").first.locator(".units > .tag").inner_text() == (
            "throw · 2 units"
        )
        page.screenshot(path=str(ARTIFACTS / f"sj-par-throw-{w}.png"), full_page=True)
        page.keyboard.press("End")
        page.screenshot(path=str(ARTIFACTS / f"sj-par-result-{w}.png"), full_page=True)
        assert errors == []
        page.close()
