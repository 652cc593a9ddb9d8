"""`zfrec classify`, `zfrec beats` and `zfrec legal`, through the real command-line app."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.brute import brute_beats, brute_plays
from zfrec.cli import app
from zfrec.games.zhengfen.engine.cards import ids, parse_cards

runner = CliRunner()

CANNOT = "a card is a rank (3-9, 10 or T, J, Q, K, A, 2) and a suit (s h d c or ♠ ♥ ♦ ♣), or SJ/BJ"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> Any:
    code, out, err = run(*args, "--json")
    assert err == ""
    return code, json.loads(out)


# --- classify -------------------------------------------------------------------------------


def test_classify_text_lists_readings_best_first() -> None:
    code, out, err = run("classify", "7s 7h SJ BJ 8c")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("full house of 8s, small joker as 8, big joker as 8 ")
    assert lines[0].endswith(" 7s 7h 8c SJ=8 BJ=8")
    assert lines[1].startswith("full house of 7s, ")
    assert lines[1].endswith(" 7s 7h 8c SJ=7 BJ=8")


def test_classify_json_shape() -> None:
    code, data = run_json("classify", "Ks Kh As Ah 2s 2h")
    assert code == 0
    assert data == {
        "readings": [
            {
                "category": "pair_sequence",
                "rank": "2",
                "length": 3,
                "jokers": {},
                "cards": "Ks Kh As Ah 2s 2h",
            }
        ]
    }


def test_classify_json_with_jokers() -> None:
    code, data = run_json("classify", "SJ BJ")
    assert code == 0
    readings = data["readings"]
    assert [r["rank"] for r in readings] == list("3456789TJQKA2")[::-1]
    for reading in readings:
        assert set(reading) == {"category", "rank", "length", "jokers", "cards"}
        assert reading["category"] == "pair"
        assert reading["length"] is None
        assert reading["jokers"] == {"SJ": reading["rank"], "BJ": reading["rank"]}
    assert readings[0]["cards"] == "SJ=2 BJ=2"


def test_classify_lists_every_reading_of_an_ambiguous_play() -> None:
    code, data = run_json("classify", "8h 9h Th SJ BJ")
    assert code == 0
    assert [(r["category"], r["rank"]) for r in data["readings"]] == [
        ("suit_sequence", "Q"),
        ("suit_sequence", "J"),
        ("suit_sequence", "T"),
        ("full_house", "T"),
        ("full_house", "8"),
    ]
    assert data["readings"][0]["jokers"] == {"SJ": "Jh", "BJ": "Qh"}


def test_classify_special_and_declared() -> None:
    code, data = run_json("classify", "5h Th Kh")
    assert (code, [r["rank"] for r in data["readings"]]) == (0, ["suited"])
    code, data = run_json("classify", "8h 9h Th SJ=T BJ=T")
    assert [(r["category"], r["rank"]) for r in data["readings"]] == [("full_house", "T")]


@pytest.mark.parametrize("spelling", ["7h7s", "7h,7s", "7♥ 7♠", "10h10s", "BJ=7h7s", "7s BJ=7"])
def test_classify_reads_every_spelling_of_the_notation(spelling: str) -> None:
    """The command line reads cards with the parser of .zfn and JSON records (FORMAT.md)."""
    code, data = run_json("classify", spelling)
    assert code == 0
    assert [r["category"] for r in data["readings"]][:1] == ["pair"]


def test_classify_malformed_exits_2() -> None:
    code, out, err = run("classify", "Xs 8h")
    assert (code, out) == (2, "")
    assert err == f"error: cannot read a card at 'Xs': {CANNOT}\n"
    code, out, err = run("classify", "8h 8h")
    assert (code, err) == (2, "error: card 8h is given twice\n")


def test_classify_no_combination_is_a_plain_answer_with_exit_1() -> None:
    # "not a combination" answers the question: it goes to stdout, not as an error (issue 16)
    code, out, err = run("classify", "3h 4h 9s")
    assert (code, out, err) == (1, "3h 4h 9s is not a legal combination (RULES.md R14)\n", "")
    code, out, err = run("classify", "3s 5h")
    assert (code, out, err) == (1, "3s 5h is not a legal combination (RULES.md R14)\n", "")
    code, out, _ = run("classify", "SJ BJ", "--rules", "parlett")
    assert (code, out) == (
        1,
        "jokers are not wild under these rules and can only be played alone (RULES.md R23)\n",
    )
    code, out, _ = run("classify", "9s BJ=8")
    assert (code, out) == (1, "the declaration BJ=8 gives no legal combination (RULES.md R21)\n")
    code, data = run_json("classify", "3h 4h 9s")
    assert (code, data) == (
        1,
        {"readings": [], "reason": "3h 4h 9s is not a legal combination (RULES.md R14)"},
    )


def test_bad_rules_exit_2() -> None:
    code, _, err = run("classify", "8s 8h", "--rules", "nope")
    assert (code, err) == (2, "error: unknown preset 'nope': presets are pagat, poppel, parlett\n")
    code, _, err = run("classify", "8s 8h", "-o", "target=abc")
    assert (code, err) == (2, "error: target must be a positive whole number, not 'abc'\n")


# --- beats ----------------------------------------------------------------------------------


def test_beats_yes_exits_0() -> None:
    code, out, err = run("beats", "8s 8h", "9c 9d")
    assert (code, out, err) == (0, "yes: pair of 9s beats pair of 8s\n", "")


def test_beats_no_exits_1_with_the_reason() -> None:
    code, out, _ = run("beats", "9s 9h", "8c 8d")
    assert (code, out) == (1, "no: pair of 8s is lower than pair of 9s (RULES.md R19)\n")
    code, out, _ = run("beats", "8s 8h 8d", "8c SJ BJ")
    assert (code, out) == (
        1,
        "no: triple of 8s, small joker as 8, big joker as 8 only equals triple of 8s; "
        "a play must be higher (RULES.md R19)\n",
    )
    code, out, _ = run("beats", "5s Th Kd", "BJ")
    assert (code, out) == (
        1,
        "no: special: mixed 5-T-K can only be beaten by a higher special (RULES.md R18)\n",
    )


def test_beats_json_reads_a_play_that_does_not_beat() -> None:
    """A "no" still says what the play is: its highest reading of the top's kind."""
    code, out, _ = run("beats", "9s 9h 9d", "8c 8h 8d", "--json")
    found = json.loads(out)
    assert (code, found["beats"]) == (1, False)
    assert (found["play"]["category"], found["play"]["rank"]) == ("triple", "8")
    code, out, _ = run("beats", "8s 8h 8d", "8c SJ BJ", "--json")
    play = json.loads(out)["play"]
    assert (code, play["rank"], play["jokers"]) == (1, "8", {"SJ": "8", "BJ": "8"})


def test_beats_takes_the_rules_options() -> None:
    top, play = "5d 5c 6d 6c 7d 7c", "4s 4h 5s 5h 6s 6h 7s 7h"
    assert run("beats", top, play)[0] == 0
    code, out, _ = run("beats", top, play, "-o", "sequence_lengths=equal")
    assert (code, out) == (
        1,
        "no: with sequence_lengths=equal a sequence of 4 cannot follow one of 3 (RULES.md R16)\n",
    )


def test_beats_follows_with_the_best_reading() -> None:
    code, out, _ = run("beats", "9s 9c 9d 4d 4c", "8h 9h Th SJ BJ")
    assert (code, out) == (
        0,
        "yes: full house of Ts, small joker as 10, big joker as 10 beats full house of 9s\n",
    )


def test_beats_json() -> None:
    code, data = run_json("beats", "8s 8h", "9c SJ")
    assert code == 0
    assert data["beats"] is True
    assert data["reason"] == "pair of 9s, small joker as 9 beats pair of 8s"
    assert data["top"]["category"] == "pair" and data["top"]["rank"] == "8"
    assert data["play"]["cards"] == "9c SJ=9"
    assert data["play"]["jokers"] == {"SJ": "9"}
    code, data = run_json("beats", "9s 9h", "8c 8d")
    assert code == 1
    assert data["beats"] is False
    assert data["play"]["category"] == "pair" and data["play"]["rank"] == "8"
    assert data["reason"] == "pair of 8s is lower than pair of 9s (RULES.md R19)"


def test_beats_bad_input_exits_2() -> None:
    code, out, err = run("beats", "8s 8x", "9c 9d")
    assert (code, out) == (2, "")
    assert err == "error: unknown suit 'x' in '8x': suits are s h d c (or ♠ ♥ ♦ ♣)\n"
    code, out, err = run("beats", "8s 8h", "9c Td")
    assert (code, out) == (2, "")
    assert err == "error: 9c Td is not a legal combination (RULES.md R14)\n"
    code, out, err = run("beats", "8h 9h Th SJ BJ", "2s 2h 2d 2c")
    assert (code, out) == (2, "")
    assert err.startswith("error: 8h 9h Th SJ BJ is ambiguous on the lead: it reads as ")
    assert err.endswith("Declare the jokers to choose (RULES.md R22)\n")


# --- legal ----------------------------------------------------------------------------------

HAND = "3h 5h 5s 6h SJ"


def brute_counts(hand: str, top: tuple[str, int, int] | None = None) -> tuple[int, int]:
    """Abstract moves and physical plays by the brute force (suits do not matter here)."""
    plays = {
        (m, k) for m, k in brute_plays(ids(parse_cards(hand))) if top is None or brute_beats(k, top)
    }
    moves = {(k, (m >> 52).bit_count()) for m, k in plays}
    return len(moves), len(plays)


def test_legal_text_on_the_lead() -> None:
    code, out, err = run("legal", HAND)
    assert (code, err) == (0, "")
    moves, physical = brute_counts(HAND)
    lines = out.splitlines()
    assert lines[-1] == f"{moves} abstract moves, {physical} distinct card sets"
    assert len(lines) == moves + 1
    for line in lines[:-1]:  # "(1 card set)", "(2 card sets)": the count is the brute force's
        sets = int(line.rsplit("(", 1)[1].split()[0])
        assert line.endswith(f"({sets} card set)" if sets == 1 else f"({sets} card sets)")
    assert any(line.endswith("(1 card set)") for line in lines)
    assert any(line.startswith("full house of 5s, 1 joker ") for line in lines)
    code, out, _ = run("legal", HAND, "--physical")
    assert code == 0
    assert len(out.splitlines()) == physical + 1


def test_legal_counts_in_the_singular() -> None:
    code, out, _ = run("legal", "3h 4d", "--top", "Ts")
    assert (code, out) == (0, "0 abstract moves, 0 distinct card sets\n")
    assert brute_counts("3h 4d", ("single", 7, 0)) == (0, 0)
    code, out, _ = run("legal", "3h 5s", "--top", "4d")
    moves, physical = brute_counts("3h 5s", ("single", 1, 0))
    assert (moves, physical) == (1, 1)
    lines = out.splitlines()
    assert lines[0].split() == ["single", "5", "e.g.", "5s", "(1", "card", "set)"]
    assert lines[1:] == ["1 abstract move, 1 distinct card set"]


def test_legal_with_top_and_json() -> None:
    code, data = run_json("legal", HAND, "--top", "4d 4c")
    assert code == 0
    moves, physical = brute_counts(HAND, ("pair", 1, 0))
    assert data["count"] == len(data["plays"]) == moves
    assert sum(p["physical"] for p in data["plays"]) == physical
    assert {(p["category"], p["rank"], p["jokers"]) for p in data["plays"]} == {
        ("pair", "5", 0),
        ("pair", "5", 1),
        ("pair", "6", 1),
    }
    for p in data["plays"]:
        assert set(p) == {"category", "rank", "length", "suit", "jokers", "physical", "example"}
    code, data = run_json("legal", HAND, "--top", "4d 4c", "--physical")
    assert data["count"] == physical
    cards = sorted(c for p in data["plays"] for c in p["physical"])
    assert cards == sorted(["5s 5h", "5s SJ=5", "5h SJ=5", "6h SJ=6"])


def test_legal_suit_sequence_json_names_the_suit() -> None:
    top = "3c 4c 5c 6c 7c"
    code, data = run_json("legal", "3h 4h 5h 6h 7h 9s", "--top", top)
    assert (code, data) == (0, {"count": 0, "plays": [], "truncated": False})  # only an equal one
    code, data = run_json("legal", "4h 5h 6h 7h 8h 9s", "--top", top)
    assert code == 0
    assert [(p["category"], p["rank"], p["suit"], p["length"]) for p in data["plays"]] == [
        ("suit_sequence", "8", "h", 5)
    ]
    assert data["plays"][0]["example"] == "4h 5h 6h 7h 8h"


def test_legal_bad_input_exits_2() -> None:
    code, _, err = run("legal", "3h BJ=5")
    assert (code, err) == (2, "error: joker declarations are not allowed here\n")
    code, _, err = run("legal", "3h 4h", "--top", "3s 5d")
    assert (code, err) == (2, "error: 3s 5d is not a legal combination (RULES.md R14)\n")
    code, _, err = run("legal", "3h 4h", "--top", "8h 9h Th SJ BJ")
    assert code == 2
    assert err.startswith("error: 8h 9h Th SJ BJ is ambiguous on the lead")
