"""A scribe's typo costs as little of a record as it can, and the finding says what was read
(FORMAT.md, Errors and recovery; DIAGNOSTICS.md, After an error): a misspelt player name on a
Sheng ji deal line, a bad card in a JSON record's deal, kitty or discard, a mistyped joker, a
glued run with one bad card, header findings kept when a later one costs the game, the turn of
a Sheng ji card problem, and the seat SJ304 says the record picked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from tests.test_store import _import, engine, store_url
from zfrec.cli import app
from zfrec.diagnostics import Diagnostic
from zfrec.errors import NotationError
from zfrec.record import loads
from zfrec.validate import Report, validate_path, validate_text

__all__ = ["engine", "store_url"]  # fixtures, shared with tests/test_store.py

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
MATCH = (SAMPLES / "shengji" / "05-dabaifen-match.zfn").read_text("utf-8")  # one deck
BASHI = (SAMPLES / "shengji" / "01-bashifen-match.zfn").read_text("utf-8")  # two decks
TRAIN = (SAMPLES / "02-three-players.zfn").read_text("utf-8")  # Zheng Fen, three seats


def _edited(text: str, old: str, new: str, count: int = 1) -> str:
    assert old in text
    return text.replace(old, new, count)


def _found(tmp_path: Path, text: str, name: str = "match.zfn") -> list[Diagnostic]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [d for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]


# 1. a misspelt player name on a Sheng ji deal line ------------------------------------------


def test_a_misspelt_name_on_a_sheng_ji_deal_line_is_read_as_the_close_player(
    tmp_path: Path,
) -> None:
    text = _edited(MATCH, "王芳", "Wang Fang")
    found = _found(tmp_path, _edited(text, "deal 2: 3s 3h", "deal Wnag Fang: 3s 3h"))
    (typo,) = found  # the 13 rounds are judged, and nothing else is wrong
    assert (typo.code, typo.location.line, typo.location.col, typo.location.hand) == (
        "ZF001", 13, 6, 1,
    )  # fmt: skip
    assert typo.message.endswith("did you mean Wang Fang? (read as Wang Fang)")
    assert typo.fix is not None and (typo.fix.col, typo.fix.end_col, typo.fix.text) == (
        6, 15, "Wang Fang",
    )  # fmt: skip


def test_a_sheng_ji_deal_name_close_to_no_player_still_costs_the_game(tmp_path: Path) -> None:
    (lost,) = _found(tmp_path, _edited(MATCH, "deal 2: 3s 3h", "deal Xavier: 3s 3h"))
    assert lost.code == "ZF001" and "no player is called 'Xavier'" in lost.message


# 3. a mistyped joker --------------------------------------------------------------------------


@pytest.mark.parametrize("typo", ["BK", "bk", "BJx", "B"])
def test_a_mistyped_big_joker_in_a_zheng_fen_deal_is_read_as_the_joker_the_decks_lack(
    typo: str,
) -> None:
    text = _edited(TRAIN, "Ad Ac 2d BJ", f"Ad Ac 2d {typo}")
    (report,) = validate_text(text)
    assert isinstance(report, Report)
    (found,) = report.diagnostics  # the BJ played in the first trick is seat 2's, as dealt
    assert found.code == "ZF001" and found.message.endswith("did you mean BJ? (read as BJ)")
    assert found.fix is not None and found.fix.text == "BJ"
    assert report.scores == (0, 110, 90)


@pytest.mark.parametrize(
    ("old", "new", "joker"), [("SJ BJ", "SJ BK", "BJ"), ("SJ BJ", "SJx BJ", "SJ")]
)
def test_a_mistyped_joker_in_a_sheng_ji_deal_is_read_as_the_joker_the_decks_lack(
    tmp_path: Path, old: str, new: str, joker: str
) -> None:
    (found,) = _found(tmp_path, _edited(MATCH, f"Jc Kd {old}", f"Jc Kd {new}"))
    assert (found.code, found.location.line) == ("ZF001", 12)
    assert found.message.endswith(f"did you mean {joker}? (read as {joker})")


def test_a_word_close_to_a_joker_is_no_joker_the_decks_hold_already(tmp_path: Path) -> None:
    # the decks lack the 3h, not a joker: `BK` is read as an unknown card (and the seat plays
    # a 3h it was not dealt)
    found = _found(tmp_path, _edited(MATCH, "deal 2: 3s 3h", "deal 2: 3s BK"))
    assert found[0].code == "ZF001" and found[0].message.endswith("; read as an unknown card")


# 4. a glued run with one bad card -------------------------------------------------------------


def test_a_glued_run_with_one_bad_card_loses_only_that_card(tmp_path: Path) -> None:
    # two decks: `9h9h9x` is two 9h and a card read as the 9c the decks lack
    found = _found(tmp_path, _edited(BASHI, "9h 9h 9c Th", "9h9h9x Th"))
    (typo,) = found
    assert (typo.code, typo.location.line, typo.location.col) == ("ZF001", 13, 40)
    assert typo.message.endswith("did you mean 9c? (read as 9c)")
    assert typo.fix is not None and (typo.fix.col, typo.fix.end_col) == (40, 42)


# 2. a bad card in a JSON record's deal, kitty or discard -------------------------------------


def _json_of(tmp_path: Path, text: str) -> str:
    source = tmp_path / "record.zfn"
    source.write_text(text, encoding="utf-8")
    target = tmp_path / "record.json"
    done = CliRunner().invoke(app, ["convert", str(source), str(target)])
    assert done.exit_code == 0, done.output
    return target.read_text("utf-8")


def test_a_zheng_fen_json_deal_typo_costs_only_that_card(tmp_path: Path) -> None:
    text = _edited(_json_of(tmp_path, TRAIN), '"3h 4h 4c', '"3x 4h 4c')
    (typo,) = _found(tmp_path, text, "typo.json")  # judged, not ZF002
    assert (typo.code, typo.location.hand) == ("ZF001", 1)
    assert typo.message == (
        "at /hands/0/deal/1/cards: unknown suit 'x' in '3x': suits are s h d c (or ♠ ♥ ♦ ♣); "
        "did you mean 3h? (read as 3h)"
    )
    line = text.splitlines()[(typo.location.line or 0) - 1]  # placed on the card itself
    assert typo.fix is not None and line[typo.fix.col - 1 : typo.fix.end_col - 1] == "3x"
    (report,) = validate_text(text, "json")
    assert isinstance(report, Report) and report.scores == (0, 110, 90)


@pytest.mark.parametrize(
    ("old", "typo", "path", "meant"),
    [
        ('"3s 3h 3c 8s', "3z", "/rounds/0/deal/1/cards", "3s"),
        ('"4d 9d 9c Ks', "4x", "/rounds/0/kitty/cards", "4d"),
        ('"4h 4c 6c 7c 8c 9c"', "4q", "/rounds/0/discard/cards", "4h"),
        ("Kd SJ BJ", "BK", "/rounds/0/deal/0/cards", "BJ"),
    ],
)
def test_a_sheng_ji_json_deal_kitty_or_discard_typo_costs_only_that_card(
    tmp_path: Path, old: str, typo: str, path: str, meant: str
) -> None:
    new = old.replace(meant, typo, 1)
    text = _edited(_json_of(tmp_path, MATCH), old, new)
    (found,) = _found(tmp_path, text, "typo.json")  # the 13 rounds are judged
    assert (found.code, found.location.hand) == ("ZF001", 1)
    assert found.message.startswith(f"at {path}: ")
    assert found.message.endswith(f"did you mean {meant}? (read as {meant})")
    line = text.splitlines()[(found.location.line or 0) - 1]
    assert found.fix is not None and line[found.fix.col - 1 : found.fix.end_col - 1] == typo


def test_a_sheng_ji_json_deal_typo_on_one_line_is_its_own_round_s(tmp_path: Path) -> None:
    pretty = _edited(_json_of(tmp_path, MATCH), '"3s 3h 3c 8s', '"3z 3h 3c 8s')
    text = json.dumps(json.loads(pretty), ensure_ascii=False)  # the whole record on one line
    (found,) = _found(tmp_path, text, "typo.json")
    assert (found.code, found.location.line, found.location.hand) == ("ZF001", 1, 1)
    assert found.fix is not None and text[found.fix.col - 1 : found.fix.end_col - 1] == "3z"


def test_a_json_deal_of_many_unreadable_words_is_still_refused_by_the_schema(
    tmp_path: Path,
) -> None:
    record = json.loads(_json_of(tmp_path, MATCH))
    record["rounds"][0]["deal"][0]["cards"] += " zz" * 1000  # past the schema's 2000 characters
    (lost,) = _found(tmp_path, json.dumps(record), "typo.json")
    assert lost.code == "ZF002" and lost.message.startswith("at /rounds/0/deal/0/cards: ")


def test_the_strict_json_reader_still_refuses_a_deal_typo(tmp_path: Path) -> None:
    text = _edited(_json_of(tmp_path, TRAIN), '"3h 4h 4c', '"3x 4h 4c')
    with pytest.raises(NotationError, match="at /hands/0/deal/1/cards"):
        loads(text, format="json")


def test_a_json_deal_typo_in_a_play_is_still_the_game_s_error(tmp_path: Path) -> None:
    # only a deal's cards are read past: a bad card in a play is still ZF002
    text = _json_of(tmp_path, TRAIN).replace('"play": "3h"', '"play": "3x"', 1)
    (lost,) = _found(tmp_path, text, "typo.json")
    assert lost.code == "ZF002"


def test_a_json_record_with_a_deal_typo_is_stored_flagged(engine: Engine, tmp_path: Path) -> None:
    zf = tmp_path / "zf.json"
    zf.write_text(_edited(_json_of(tmp_path, TRAIN), '"3h 4h 4c', '"3x 4h 4c'), "utf-8")
    sj = tmp_path / "sj.json"
    sj.write_text(_edited(_json_of(tmp_path, MATCH), '"4d 9d 9c Ks', '"4x 9d 9c Ks'), "utf-8")
    for path in (zf, sj):
        result = _import(engine, path)
        assert (result.games, result.added, result.unreadable, result.flagged) == (1, 1, 0, 1)


# 5. header findings kept when a later header error costs the game -----------------------------


def _misspelt_header(rules: str, extra: str = "") -> str:
    text = _edited(MATCH, '[Game "shengji"]', '[Game "shengij"]')
    return _edited(text, '[Rules "dabaifen"]', f'[Rules "{rules}"]{extra}')


def test_a_misspelt_game_and_preset_are_said_when_the_target_tag_costs_the_game(
    tmp_path: Path,
) -> None:
    found = _found(tmp_path, _misspelt_header("dabaifne", '\n[Target "500"]'))
    said = [(d.code, d.location.line, d.message.split("\n")[0].rpartition(" (")[2]) for d in found]
    assert said == [
        ("ZF001", 1, "read as shengji)"),
        ("ZF001", 4, "read as dabaifen)"),
        ("ZF001", 5, "a Sheng ji record has no Target tag"),
    ]
    assert found[0].fix is not None and found[0].fix.text == "shengji"


def test_a_misspelt_game_and_preset_are_said_when_the_rules_cost_the_match(
    tmp_path: Path,
) -> None:
    found = _found(tmp_path, _misspelt_header("zhaopengyuo"))  # zhao pengyou, four players
    assert [(d.code, d.message.split("\n")[0].rpartition(" (")[2]) for d in found] == [
        ("ZF001", "read as shengji)"),
        ("ZF001", "read as zhaopengyou)"),
        ("SJ207", "zhaopengyou takes 5 to 8 players, not 4"),
    ]


def test_a_game_lost_at_its_header_counts_once_with_its_kept_findings(tmp_path: Path) -> None:
    path = tmp_path / "match.zfn"
    path.write_text(_misspelt_header("dabaifne", '\n[Target "500"]'), encoding="utf-8")
    done = CliRunner().invoke(app, ["validate", "--json", str(path)])
    assert done.exit_code != 0
    doc = json.loads(done.stdout)
    assert doc["summary"]["games"] == 1 and doc["summary"]["errors"] == 3


def test_strict_stops_after_the_error_that_cost_the_game_not_at_its_kept_findings(
    tmp_path: Path,
) -> None:
    path = tmp_path / "match.zfn"
    lost = _misspelt_header("dabaifne", '\n[Target "500"]')
    path.write_text(lost + "\n" + lost, encoding="utf-8")  # a second game, not looked at
    done = CliRunner().invoke(app, ["validate", "--strict", str(path)])
    assert done.exit_code == 1
    assert "read as shengji" in done.stdout and "read as dabaifen" in done.stdout
    assert "a Sheng ji record has no Target tag" in done.stdout  # what cost the game
    assert "game 2" not in done.stdout


# 6. a Sheng ji card problem carries its turn and seat ----------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "trick", "turn", "seat"),
    [
        ("3: Ks  4: 4s  1: 6s  2: As", "3: Ks  4: 4s  1: 6x  2: As", 2, 3, "Ann"),  # line skipped
        ("3: Kh  4: Qh  1: 6h  2: Jd", "3: Kh  4: Qh  1: 6h  2: Jd Jx", 4, 4, "王芳"),  # read on
        ("3: Ks  4: 4s  1: 6s  2: As", "3: Ks  4: 4s  An: 6s  2: As", 2, 3, "Ann"),  # misspelt
    ],
)
def test_a_sheng_ji_card_problem_is_placed_at_its_play(
    tmp_path: Path, old: str, new: str, trick: int, turn: int, seat: str
) -> None:
    found = _found(tmp_path, _edited(MATCH, old, new))
    at = found[0].location
    assert (found[0].code, at.trick, at.turn, at.seat) == ("ZF001", trick, turn, seat)
    path = tmp_path / "match.zfn"
    done = CliRunner().invoke(app, ["validate", "--json", str(path)])
    first = json.loads(done.stdout)["files"][0]["games"][0]["diagnostics"][0]
    assert (first["trick"], first["turn"], first["seat"]) == (trick, turn, seat)
    text = CliRunner().invoke(app, ["validate", str(path)]).stdout
    said = "no player is called" if "An:" in new else "unknown suit"
    assert f"trick {trick}, turn {turn} ({seat}): {said}" in text


def test_a_bid_s_card_problem_has_no_turn(tmp_path: Path) -> None:
    (found, *_) = _found(tmp_path, _edited(MATCH, "bids 3: 2d", "bids 3: 2d 2x"))
    assert found.code == "ZF001" and (found.location.trick, found.location.turn) == (None, None)


def test_an_audit_says_how_a_json_deal_card_was_read(tmp_path: Path) -> None:
    path = tmp_path / "train.json"
    path.write_text(_edited(_json_of(tmp_path, TRAIN), '"3h 4h 4c', '"3x 4h 4c'), "utf-8")
    done = CliRunner().invoke(app, ["audit", "--json", str(path)])
    assert done.exit_code == 1, done.output
    (game,) = json.loads(done.stdout)["games"]
    edits = [e["text"] for e in game["repairs"][0]["edits"]]
    assert edits[0] == "at /hands/0/deal/1/cards: 3x was read as 3h" and game["repairs"][0]["ok"]
