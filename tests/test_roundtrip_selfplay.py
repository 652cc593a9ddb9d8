"""Random legal games from engine self-play go text -> JSON -> text unchanged (issue 3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zfrec.games.zhengfen.engine.rules import PRESETS, preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps, loads


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 6),
    name=st.sampled_from(sorted(PRESETS)),
    bot=st.sampled_from(["random", "greedy"]),
)
@pytest.mark.slow
def test_self_play_round_trips_through_text_and_json(
    seed: int, players: int, name: str, bot: str
) -> None:
    game = simulate_game(SimConfig(players, preset(name), bot, 2), seed)
    text = dumps(game)
    from_text = loads(text)
    assert from_text == [game]
    as_json = dumps(from_text[0], "json")
    from_json = loads(as_json, "json")
    assert from_json == [game]
    assert dumps(from_json[0]) == text
    assert dumps(loads(as_json, "json")[0], "json") == as_json
