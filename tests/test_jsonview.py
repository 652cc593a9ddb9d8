"""zfrec.jsonview: dataclasses to JSON data through pydantic's TypeAdapter."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated

import pytest
from pydantic_core import PydanticSerializationError

from tests.test_analyze import GAMES, LONG
from zfrec.games.zhengfen.analysis.analyze import analyze_game
from zfrec.games.zhengfen.engine.cards import format_cards, parse_cards
from zfrec.jsonview import (
    CardsText,
    PerPlayer,
    PlayerName,
    PlayerNames,
    SortedCounts,
    adapter,
    dump,
    hidden,
    key,
)
from zfrec.record.model import Game

PLAYERS = ["Ann", "Bo", "王芳"]


@dataclass(frozen=True, slots=True)
class Row:
    seat: Annotated[PlayerName, key("player")]
    giver: Annotated[PlayerName | None, key("from")]
    seen_by: PlayerNames
    points: PerPlayer[int]
    cards: CardsText
    categories: SortedCounts = field(default_factory=Counter)
    secret: Annotated[str, hidden()] = "not written"


def test_each_annotation_writes_its_value() -> None:
    cards = parse_cards("5s Th Kd")
    row = Row(2, None, (0, 2), (5, 0, 10), cards, Counter(pair=2, full_house=1, single=3))
    assert dump(row, players=PLAYERS) == {
        "player": "王芳",
        "from": None,
        "seen_by": ["Ann", "王芳"],
        "points": {"Ann": 5, "Bo": 0, "王芳": 10},
        "cards": format_cards(cards),
        "categories": {"full_house": 1, "pair": 2, "single": 3},
    }
    assert list(dump(row, players=PLAYERS)["categories"]) == ["full_house", "pair", "single"]


def test_seats_need_the_players() -> None:
    with pytest.raises(PydanticSerializationError, match="pass dump"):
        dump(Row(0, None, (), (), 0))


def test_a_value_of_another_type_is_an_error_not_a_guess() -> None:
    row = Row(0, None, (), (), "5s")  # type: ignore[arg-type]  # cards as text, not a mask
    with pytest.raises(PydanticSerializationError):
        dump(row, players=PLAYERS)


def test_one_adapter_per_class() -> None:
    assert adapter(Row) is adapter(Row)


def test_pydantic_is_imported_on_the_first_dump_not_with_the_cli() -> None:
    code = (
        "import sys, zfrec.cli, zfrec.validate\n"
        "import zfrec.games.zhengfen.analysis.analyze, zfrec.games.zhengfen.analysis.audit\n"
        "print(sorted(m for m in ('pydantic', 'pydantic_core') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game", [*GAMES[:4], LONG])
def test_analysis_json_is_json_and_says_what_the_analysis_says(game: Game) -> None:
    """What the dataclasses hold comes out under the documented keys, seats as names."""
    a = analyze_game(game)
    doc = a.to_json()
    assert json.loads(json.dumps(doc)) == doc
    players = a.players
    assert doc["scores"] == dict(zip(players, a.scores, strict=True))
    assert doc["winners"] == [players[s] for s in a.winners]
    for h, hd in zip(a.hands, doc["hands"], strict=True):
        assert len(hd["decisions"]) == len(h.decisions)
        for d, dd in zip(h.decisions, hd["decisions"], strict=True):
            assert dd["player"] == players[d.seat] and dd["turn"] == d.turn
            assert dd["table_cards"] == format_cards(d.table_cards)
            assert "hand_index" not in dd
        for t, td in zip(h.tricks, hd["tricks"], strict=True):
            assert td["winner"] == players[t.winner]
            assert sum(td["contributed"].values()) == t.points
        assert hd["out_order"] == [players[s] for s in h.out_order]
        if h.transfer is not None:
            assert hd["transfer"]["points"] == h.transfer.points
            assert hd["transfer"]["from"] == players[h.transfer.from_seat]
