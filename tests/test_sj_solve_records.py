"""`zfrec solve` and `zfrec analyze` on Sheng ji records whose deals were rebuilt: what is solved
(hands known, no card guessed) and what is refused, in which words (ANALYSIS.md, solver)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
PARTIAL = SAMPLES / "07-partial-deals.zfn"  # one deal written, `discard ?8`, the round whole


def _zfrec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zfrec", *args], capture_output=True, text=True, check=False
    )


def _unfinished(tmp_path: Path) -> Path:
    """Sample 07 stopped after its tenth trick: the dealer (Bo Li) holds cards it never plays,
    and with `discard ?8` nobody knows which of its cards went back to the kitty."""
    lines = PARTIAL.read_text("utf-8").split("\n")
    first = next(i for i, ln in enumerate(lines) if ln.startswith("3: Ks Ks"))
    cut = tmp_path / "unfinished.zfn"
    cut.write_text("\n".join(lines[: first + 10]) + "\n", "utf-8")
    return cut


def test_a_rebuilt_deal_with_no_guessed_card_is_solved() -> None:
    # every seat plays all its cards, so the rebuild guesses none, and the discard the record
    # leaves unwritten is the cards no hand holds
    done = _zfrec("solve", str(PARTIAL), "--at", "1.18.1", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["exact"] is True
    assert answer["values"] == {"opponents": 15, "declarers": 185}  # as the round ended
    assert answer["line"][0]["player"] == "Ann"


def test_an_unwritten_discard_leaves_the_dealers_last_cards_unknown(tmp_path: Path) -> None:
    cut = _unfinished(tmp_path)
    refused = _zfrec("solve", str(cut), "--json")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    message = json.loads(refused.stdout)["error"]
    assert "the discard is not written, so the dealer's (Bo Li's) last 11 cards are not known" in (
        message
    )
    assert "the discard line (`discard CARDS`)" in message and "FORMAT.md" in message
    # the dealer's deal and the kitty are not written whole either: all three lines are named
    assert "`deal 3: CARDS`" in message and "`kitty CARDS`" in message


def test_solve_errors_name_the_file_and_the_position(tmp_path: Path) -> None:
    cut = _unfinished(tmp_path)
    text = _zfrec("solve", str(cut))
    assert text.returncode == 2
    assert text.stderr.startswith(f"error: {cut}: round 1: the hands are not all known")
    at = _zfrec("solve", str(cut), "--at", "1.3.1", "--json")
    assert at.returncode == 2
    document = json.loads(at.stdout)  # one document, `{"error": ...}` as before
    assert list(document) == ["error"]
    assert document["error"].startswith(f"{cut} (--at 1.3.1): round 1: ")
    over = _zfrec("solve", str(PARTIAL))
    assert over.returncode == 2 and f"error: {PARTIAL}: round 1 is over" in over.stderr
    # a Zheng Fen record's position that is not there, likewise
    club = SAMPLES.parent / "01-annotated-club-night.zfn"
    missing = _zfrec("solve", str(club), "--at", "9.1.1", "--json")
    assert missing.returncode == 2
    assert json.loads(missing.stdout)["error"].startswith(f"{club} (--at 9.1.1): the game has no")
    # a game --game names is named too
    full = SAMPLES.parent / "05-full-game-to-500.zfn"
    game = _zfrec("solve", str(full), "--game", "1", "--at", "99.1.1")
    assert game.returncode == 2 and f"error: {full}, game 1 (--at 99.1.1): " in game.stderr


def test_analyze_says_why_a_round_gets_no_costs(tmp_path: Path) -> None:
    cut = _unfinished(tmp_path)
    solve = _zfrec("solve", str(cut), "--json")
    why = json.loads(solve.stdout)["error"].split(": ", 2)[2]  # less the file and "round 1: "
    assert why.startswith("the hands are not all known: the discard is not written")
    text = _zfrec("analyze", str(cut), "--solve-cards", "12")
    assert text.returncode == 0, text.stderr
    assert f"  not solved: {why}\n" in text.stdout
    document = _zfrec("analyze", str(cut), "--solve-cards", "12", "--json")
    (game,) = json.loads(document.stdout)["games"]
    (round_1,) = game["hands"]  # Sheng ji's rounds, under the key every game shares
    assert round_1["unsolved"] == why and round_1["par"] is None
    # not asked to solve: nothing to say
    quiet = _zfrec("analyze", str(cut), "--solve-cards", "0", "--json")
    assert json.loads(quiet.stdout)["games"][0]["hands"][0]["unsolved"] is None
    assert "not solved" not in _zfrec("analyze", str(cut), "--solve-cards", "0").stdout


def test_a_refusal_names_every_hand_not_known_and_the_lines_that_give_them(
    tmp_path: Path,
) -> None:
    cut = _unfinished(tmp_path)
    refused = _zfrec("solve", str(cut))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    (line,) = refused.stderr.splitlines()
    _, why = line.split(": the hands are not all known: ")
    heads, lines = why.split(": write ")
    # the dealer first, then every other seat whose cards are not all shown
    assert heads.split("; ")[0].startswith("the discard is not written, so the dealer's (Bo Li's)")
    assert heads.split("; ")[1:] == [
        "11 cards of 王芳's hand (seat 2) are never shown",
        "11 cards of 李娜's hand (seat 4) are never shown",
    ]
    assert lines == (
        "the dealer's deal line (`deal 3: CARDS`), the kitty line (`kitty CARDS`), the discard "
        "line (`discard CARDS`), 王芳's deal line (`deal 2: CARDS`) and 李娜's deal line "
        "(`deal 4: CARDS`) in full (FORMAT.md)"
    )


def test_at_text_that_names_no_position_is_said_once_with_what_at_takes(tmp_path: Path) -> None:
    cut = _unfinished(tmp_path)
    for args in ([], ["--json"]):
        done = _zfrec("solve", str(cut), "--at", "zz", *args)
        assert done.returncode == 2
        said = (
            f"{cut}: --at 'zz' names no Sheng ji position: give a round (3: its first lead, "
            "after the kitty exchange), ROUND.TRICK.TURN (3.5.2: before that turn) or a round's "
            "replay page (round-3.html#step=12; round-3-2.html for the second round 3)"
        )
        assert done.stderr == f"error: {said}\n"
        if args:
            assert json.loads(done.stdout) == {"error": said}
    club = SAMPLES.parent / "01-annotated-club-night.zfn"
    done = _zfrec("solve", str(club), "--at", "zz")
    assert done.returncode == 2
    assert done.stderr == (
        f"error: {club}: --at 'zz' names no position: give HAND.TRICK.TURN (2.5.3) or a replay "
        "page's step (40, #step=40, hand-2.html#step=40)\n"
    )
    # a position the text names but the record does not have still names it
    missing = _zfrec("solve", str(cut), "--at", "9")
    assert missing.stderr == f"error: {cut} (--at 9): the record has no round 9\n"


def test_a_refusal_does_not_ask_for_the_dealers_deal_line_when_it_is_written_whole(
    tmp_path: Path,
) -> None:
    # a self-play round with the dealer's (South's) deal and the discard written whole, the
    # kitty and the other deals not, stopped after four tricks: the kitty is what is missing
    full = tmp_path / "match.zfn"
    _zfrec("simulate", "--game", "shengji", "--out", str(full), "-n", "1", "--seed", "3")
    lines = full.read_text("utf-8").split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("round 1 "))
    kept = []
    for ln in lines[start + 1 : start + 12]:
        if ln.startswith(("deal 1:", "deal 3:", "deal 4:")):
            ln = ln.split(":")[0] + ": ?25"
        kept.append("kitty ?8" if ln.startswith("kitty ") else ln)
    cut = tmp_path / "dealer-whole.zfn"
    cut.write_text("\n".join([*lines[: start + 1], *kept]) + "\n", "utf-8")
    assert "deal 2: 3c 4s" in cut.read_text("utf-8") and "discard 4s" in cut.read_text("utf-8")
    refused = _zfrec("solve", str(cut))
    assert refused.returncode == 2, refused.stderr
    assert "5 cards of the dealer's (South's) hand are never shown" in refused.stderr
    assert "`deal 2: CARDS`" not in refused.stderr
    assert refused.stderr.rstrip().endswith(
        ": write the kitty line (`kitty CARDS`), East's deal line (`deal 1: CARDS`), West's deal "
        "line (`deal 3: CARDS`) and North's deal line (`deal 4: CARDS`) in full (FORMAT.md)"
    )
