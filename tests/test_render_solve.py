"""The hindsight solver on the replay pages: cost notes and the "perfect play from here" table,
checked against zfrec.games.zhengfen.analysis.costs and, in Chromium, as the page shows them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_render_browser import open_page
from zfrec.games.zhengfen.analysis.costs import perfect_play_tables
from zfrec.games.zhengfen.pages.analysis import analysed_view
from zfrec.games.zhengfen.pages.html import render_hand
from zfrec.record import load
from zfrec.render.site import game_files
from zfrec.render.views import card_prose

SAMPLE = Path(__file__).resolve().parent.parent / "sample_games" / "02-three-players.zfn"
CARDS = 10


def test_steps_carry_the_solvers_values_and_costs() -> None:
    (game,) = load(SAMPLE)
    found = perfect_play_tables(game, max_cards=CARDS)
    view = analysed_view(game, solve_cards=CARDS)
    n = len(game.players)
    shown = 0
    for i, hand in enumerate(view.hands):
        # The deal step shows the position before the first move; a move's step the one after.
        positions = [
            (hand.steps[0], 0),
            *((hand.steps[p], k + 1) for k, p in enumerate(hand.actions)),
        ]
        for step, k in positions:
            values = found.values.get((i, k))
            expected = None if values is None else tuple(values[s] for s in range(n))
            assert step.perfect == expected
            shown += expected is not None
        for c in (c for c in found.costs.values() if c.hand_index == i and c.points):
            notes = hand.steps[hand.actions[c.step]].notes
            text = card_prose(f"{game.players[c.seat]}: {c.text}", tuple(game.players))
            assert text in [note.text for note in notes]
    assert shown > 10
    # A seat's view shows neither: the solver knows every hand.
    seat_view = analysed_view(game, viewer=0, solve_cards=CARDS)
    assert all(s.perfect is None for h in seat_view.hands for s in h.steps)
    assert not any(n.kind == "cost" for h in seat_view.hands for s in h.steps for n in s.notes)
    # Without the solver, the pages are as before.
    plain = analysed_view(game)
    assert all(s.perfect is None for h in plain.hands for s in h.steps)


def test_page_json_and_files() -> None:
    (game,) = load(SAMPLE)
    view = analysed_view(game, solve_cards=CARDS)
    page = render_hand(view.hands[0])
    assert '"perfect":[' in page
    files = {f.path: f.content for f in game_files(game, solve_cards=CARDS)}
    assert b'"perfect":[' in files["hand-1.html"]
    assert b'"perfect":[' not in dict((f.path, f.content) for f in game_files(game))["hand-1.html"]


@pytest.mark.slow
def test_the_table_and_the_cost_note_in_chromium(browser: Any, tmp_path: Path) -> None:
    (game,) = load(SAMPLE)
    found = perfect_play_tables(game, max_cards=CARDS)
    view = analysed_view(game, solve_cards=CARDS)
    hand = view.hands[0]
    cost = next(c for c in found.costs.values() if c.hand_index == 0 and c.points)
    for f in game_files(game, solve_cards=CARDS):
        (tmp_path / f.path).write_bytes(f.content)
    index = hand.actions[cost.step]
    opened = open_page(browser, tmp_path / "hand-1.html", hash_=f"#step={index}")
    page = opened.page
    page.wait_for_selector("#notes-body table.perfect")
    rows = page.eval_on_selector_all(
        "#notes-body table.perfect tr",
        "rows => rows.map(r => [r.querySelector('th').textContent,"
        " r.querySelector('td').textContent])",
    )
    values = found.values[(0, cost.step + 1)]
    assert [(re.sub("[\u2068\u2069]", "", name), int(v)) for name, v in rows] == [
        (game.players[s], values[s]) for s in range(len(game.players))
    ]
    text = re.sub("[\u2068\u2069]", "", page.inner_text("#notes-body"))
    shown = card_prose(f"{game.players[cost.seat]}: {cost.text}", tuple(game.players))
    assert re.sub("[\u2068\u2069]", "", shown) in text
    assert "Perfect play from here" in text
    assert opened.errors == [] and all(u.startswith("file:") for u in opened.requests)
    page.screenshot(path=str(tmp_path / "perfect.png"), full_page=True)
    print(json.dumps({"screenshot": str(tmp_path / "perfect.png")}))


def test_render_command_and_the_publish_cache_key(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from zfrec.cli import app
    from zfrec.render.gamefiles import variant

    done = CliRunner().invoke(
        app, ["render", str(SAMPLE), "-o", str(tmp_path), "--solve-cards", str(CARDS)]
    )
    assert done.exit_code == 0, done.output
    assert '"perfect":[' in (tmp_path / "hand-1.html").read_text(encoding="utf-8")
    # A site published with the solver is not taken for one published without it.
    assert variant("", True, True, CARDS) != variant("", True, True)
    assert variant("", True, True, 0) == variant("", True, True)
