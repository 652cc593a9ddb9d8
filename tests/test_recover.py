"""Every mistake of a record in one run (issue 15, items 2-5): the reader recovers at the move,
suggestions for cards and names, causes before consequences, and RULINGS 24-26.

The records are the train game of sample_games/02-three-players.zfn with mistakes put in; what
each mistake must give is read off the rule texts (RULINGS.md) and the sample itself, not off
the code under test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.diagnostics import Diagnostic, first_error
from zfrec.errors import NotationError
from zfrec.games.zhengfen.analysis.audit import audit
from zfrec.games.zhengfen.analysis.diff import diff_games
from zfrec.games.zhengfen.analysis.readfix import as_read
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.record import iter_records_text, loads
from zfrec.render.site import game_files
from zfrec.validate import Report, validate, validate_path, validate_text

ROOT = Path(__file__).resolve().parent.parent / "sample_games"
TRAIN = (ROOT / "02-three-players.zfn").read_text(encoding="utf-8")
FOUR = ROOT / "broken" / "four-mistakes.zfn"
runner = CliRunner()


def _report(text: str) -> Report:
    (item,) = validate_text(text)
    assert isinstance(item, Report), item
    return item


def _where(d: Diagnostic) -> tuple[str, int | None, int | None]:
    return d.code, d.location.line, d.location.col


def _train(*edits: tuple[str, str], players: str = "Mei, Jun, Hao") -> str:
    text = TRAIN.replace('[Players "Mei, Jun, Hao"]', f'[Players "{players}"]')
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def _line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


# --- the four-mistakes sample: the "done when" ------------------------------------------


def test_four_mistakes_on_four_lines_in_one_run() -> None:
    (report,) = validate_path(FOUR)
    assert isinstance(report, Report)
    text = FOUR.read_text(encoding="utf-8")
    errors = [d for d in report.diagnostics if d.severity == "error"]
    lines = {d.location.line for d in errors}
    card1 = _line_of(text, "tomás: 9j")
    name = _line_of(text, "zhou wie: 9c")
    score = _line_of(text, "score 0 20 80")
    card2 = _line_of(text, "2: Ax")
    assert lines == {card1, name, score, card2}
    # record order: by line, then column
    positions = [(d.location.line, d.location.col) for d in report.diagnostics]
    assert positions == sorted(positions)
    by_line = {d.location.line: d for d in errors}
    # Tomás was dealt one 9 (9d), Zhou Wei holds one Ace at the end of hand 2 (Ac).
    assert by_line[card1].message.startswith("unknown suit 'j' in '9j'")
    assert "did you mean 9d?" in by_line[card1].message
    assert "did you mean Zhou Wei?" in by_line[name].message
    assert "did you mean Ac?" in by_line[card2].message
    fix = by_line[card1].fix
    assert fix is not None and fix.text == "9d" and fix.line == card1
    assert text.splitlines()[card1 - 1][fix.col - 1 : fix.end_col - 1] == "9j"
    name_fix = by_line[name].fix
    assert name_fix is not None and name_fix.text == "Zhou Wei"
    assert text.splitlines()[name - 1][name_fix.col - 1 : name_fix.end_col - 1] == "zhou wie"
    # replayed past the first mistake: both hands end, with the sample's own points
    assert [h.result is not None for h in report.hands] == [True, True]
    assert [h.result.points for h in report.hands if h.result] == [(0, 10, 90), (0, 100, 0)]
    # the wrong score is one mistake: its totals follow from it, hand 2 goes on from them
    score_errors = [d for d in errors if d.location.line == score]
    assert [d.code for d in score_errors] == ["ZF401", "ZF402"]
    assert score_errors[0].cause is None
    assert score_errors[1].cause is not None and score_errors[1].cause.code == "ZF401"
    assert report.scores == (0, 120, 80)


def test_four_mistakes_text_and_json_output() -> None:
    result = runner.invoke(app, ["validate", str(FOUR)])
    assert result.exit_code == 1
    assert "did you mean 9d? (replayed as 9d)" in result.output
    assert "(follows from 22:1)" in result.output
    assert "0 hand(s)" not in result.output and "2 hand(s)" in result.output
    data = json.loads(runner.invoke(app, ["validate", "--json", str(FOUR)]).stdout)
    diags = data["files"][0]["diagnostics"]
    assert [d["cause"] for d in diags if "cause" in d] == [{"line": 22, "col": 1, "code": "ZF401"}]
    fixes = [d["fix"] for d in diags if "fix" in d]
    assert [f["text"] for f in fixes] == ["9d", "Zhou Wei", "Ac"]
    assert set(fixes[0]) == {"line", "col", "end_col", "text", "alternatives"}


def test_strict_readers_still_refuse_unreadable_moves() -> None:
    with pytest.raises(NotationError, match="unknown suit 'j' in '9j'"):
        loads(FOUR.read_text(encoding="utf-8"))


# --- names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "typed", "meant"),
    [
        ("2: 9c  tomas: Qd", "tomas", "Tomás"),
        ("zhou wie: 9c  1: Qd", "zhou wie", "Zhou Wei"),
        ("zhouwei: 9c  1: Qd", "zhouwei", "Zhou Wei"),
        ("2: 9c  Tomasz: Qd", "Tomasz", "Tomás"),
    ],
)
def test_names_match_loosely(written: str, typed: str, meant: str) -> None:
    text = _train(("2: 9c  1: Qd", written), players="Tomás, Zhou Wei, Hao")
    report = _report(text)
    (d,) = [d for d in report.diagnostics if d.severity == "error"]
    assert d.code == "ZF001"
    assert d.message.startswith(f"no player is called {typed!r}")
    assert d.message.endswith(f"did you mean {meant}? (replayed as {meant})")
    assert report.hands[0].result is not None  # the move was replayed by the player meant


def test_a_name_in_another_case_is_the_name() -> None:
    assert _report(_train(("2: 9c  1: Qd", "2: 9c  TOMÁS: Qd"), players="Tomás, Zhou Wei, Hao")).ok


def test_a_line_starting_with_an_unknown_name_is_never_read_as_cards() -> None:
    text = _train(("2: 9c  1: Qd", "zhou wie: 9c  1: Qd"), players="Tomás, Zhou Wei, Hao")
    with pytest.raises(NotationError) as caught:
        loads(text)
    message = caught.value.message
    assert message.startswith("no player is called 'zhou wie'")
    assert "did you mean Zhou Wei?" in message and "card" not in message.split("\n")[0]
    # the same two words after a move of the line
    text = _train(("2: 9c  1: Qd", "1: Qd  zhou wie: 9c"), players="Tomás, Zhou Wei, Hao")
    with pytest.raises(NotationError, match="no player is called 'zhou wie'"):
        loads(text)


def test_an_unknown_name_is_read_as_the_one_seat_holding_the_cards() -> None:
    report = _report(_train(("2: 9c  1: Qd", "xavier: 9c  1: Qd")))
    (d,) = [d for d in report.diagnostics if d.severity == "error"]
    assert "no player is called 'xavier'" in d.message and "did you mean" not in d.message
    assert d.message.endswith("(replayed as Jun)")  # Jun was dealt the 9c
    assert report.hands[0].result is not None


# --- cards --------------------------------------------------------------------------------------


def test_a_card_typo_with_two_fitting_cards_suggests_both_and_skips_the_move() -> None:
    # Jun still holds 8s and 8h when he plays 8s on the first trick.
    text = _train(("2: 8s  3: 9s", "2: 8x  3: 9s"))
    report = _report(text)
    first = report.diagnostics[0]
    assert first.code == "ZF001"
    assert first.message.endswith("did you mean 8s or 8h? (the move is skipped)")
    assert first.fix is not None and (first.fix.text, first.fix.alternatives) == ("8s", ("8h",))
    # Jun kept the 8s, so the hand cannot end as written: its score line closes it early,
    # an error that follows from the skipped move (RULINGS 24).
    closed = [d for d in report.diagnostics if d.code == "ZF208"]
    assert len(closed) == 1 and closed[0].cause is not None
    assert (closed[0].cause.line, closed[0].cause.code) == (first.location.line, "ZF001")


def test_a_suit_without_a_rank_suggests_the_cards_of_that_suit() -> None:
    # Jun's last card of hand 1 is the 9c: written "1c", only the suit can be read.
    report = _report(_train(("2: 9c  1: Qd", "2: 1c  1: Qd")))
    (d,) = [d for d in report.diagnostics if d.severity == "error"]
    assert "did you mean 9c? (replayed as 9c)" in d.message


def test_a_card_typo_in_a_rebuilt_deal_is_suggested_from_it() -> None:
    text = (ROOT / "09-no-deal.zfn").read_text(encoding="utf-8")
    text = text.replace("2: 7d  1: 9c", "2: 7x  1: 9c")
    report = _report(text)
    # Nobody else played a 7 of diamonds: the rebuilt deal gives it to Jack, who played it.
    assert [d.code for d in report.diagnostics] == ["ZF001"]
    assert report.diagnostics[0].message.startswith("unknown suit 'x' in '7x'")
    assert report.diagnostics[0].message.endswith("did you mean 7d? (replayed as 7d)")


def test_a_glued_word_loses_only_its_unreadable_card() -> None:
    # Jun's pair of tens written glued, the second with a typo: the Ts is read, and the other
    # ten Jun holds (the deal gives him only Ts and Td) is the one suggestion.
    text = _train(("2: Ts Td  3: As Ah", "2: TsTx  3: As Ah"))
    report = _report(text)
    (d,) = report.diagnostics
    assert d.code == "ZF001" and d.message.startswith("unknown suit 'x' in 'Tx'")
    assert d.message.endswith("did you mean Td? (replayed as Td)")
    assert d.fix is not None
    line = text.splitlines()[d.fix.line - 1]
    assert line[d.fix.col - 1 : d.fix.end_col - 1] == "Tx"
    assert report.hands[0].result == _report(TRAIN).hands[0].result


# --- causes before consequences -----------------------------------------------------------------


def test_a_wrong_card_names_it_as_the_cause_of_what_follows() -> None:
    # Jun's Ad written as Kc: Hao, who holds the Kc, plays it later in the same trick line.
    text = _train(("1: Ks  2: Ad  3: 2s", "1: Ks  2: Kc  3: 2s"))
    report = _report(text)
    line = _line_of(text, "2: Kc")
    wrong = next(d for d in report.diagnostics if d.code == "ZF301")
    assert wrong.location.line == line and wrong.cause is None
    assert wrong.message == "Jun does not hold Kc (RULES.md R3)"
    twice = next(d for d in report.diagnostics if d.code == "ZF302")
    assert twice.cause is not None
    assert (twice.cause.line, twice.cause.col, twice.cause.code) == (
        line,
        wrong.location.col,
        "ZF301",
    )
    # record order: the cause comes first
    assert report.diagnostics.index(wrong) < report.diagnostics.index(twice)
    # every later error follows from the wrong card; hand 2 has none of its own
    later = [d for d in report.diagnostics if d.severity == "error" and d is not wrong]
    assert later and all(d.cause is not None and d.cause.code == "ZF301" for d in later)
    assert not [d for d in report.diagnostics if d.location.hand == 2 and d.severity == "error"]
    assert not [d for d in report.diagnostics if d.code == "ZF206"]
    # audit's and diff's first error is the root
    assert first_error(report.diagnostics) is wrong
    [game] = [g for g in iter_records_text(text) if not isinstance(g, NotationError)]
    verdict = diff_games(game, loads(TRAIN)[0]).verdict("a")
    assert "Jun does not hold Kc" in verdict
    audited = first_error(audit(game, budget=20).report.diagnostics)
    assert audited is not None and _where(audited) == _where(wrong)


def test_pages_say_what_each_error_follows_from() -> None:
    text = _train(("1: Ks  2: Ad  3: 2s", "1: Ks  2: Kc  3: 2s"))
    [game] = loads(text)
    report = _report(text)
    followers = [d for d in report.diagnostics if d.cause is not None]
    assert followers
    files = {f.path: f.content.decode() for f in game_files(game, charts=False)}
    for d in followers:
        said = f"(follows from {d.cause} {d.cause.code})" if d.cause else ""
        assert said in files["index.html"]
    hand_pages = "".join(v for k, v in files.items() if k.startswith("hand-"))
    causes = re.findall(r'"cause":"([^"]+)"', hand_pages)  # the replay's step data
    assert {f"{d.cause} {d.cause.code}" for d in followers if d.cause} <= set(causes)


def test_a_total_written_wrong_is_one_error_and_later_hands_go_on_from_it() -> None:
    text = _train(
        ("score 0 10 90 total 0 10 90", "score 0 10 90 total 0 10 95"),
        ("score 0 100 0 total 0 110 90", "score 0 100 0 total 0 110 95"),
    )
    report = _report(text)
    assert [d.code for d in report.diagnostics] == ["ZF402"]
    assert report.scores == (0, 110, 95)
    # the ledger still shows what hand 1 computes
    assert report.hands[0].totals == (0, 10, 90)


# --- RULINGS 24-26 ------------------------------------------------------------------------------


def test_a_scored_hand_that_did_not_reach_its_end_is_an_error() -> None:
    text = _train(("2: 9c  1: Qd\n", ""), ("1: 3c  2: 6d  1: 7s  2: 8h  1: 9d  2: 2d\n", ""))
    report = _report(text)
    closed = [d for d in report.diagnostics if d.severity == "error"]
    assert [d.code for d in closed] == ["ZF208"]
    assert closed[0].location.line == _line_of(text, "score 0 10 90")
    assert closed[0].message == (
        "hand 1 is closed by a score line before it ended: Mei, Jun still hold cards (RULES.md R24)"
    )
    assert closed[0].cause is None
    assert not [d for d in report.diagnostics if d.code == "ZF206"]
    # hand 2 is checked from what its own record says, starting from the recorded totals
    assert report.hands[1].result is not None and report.scores == (0, 110, 90)
    result = runner.invoke(app, ["validate", "-"], input=text)
    assert result.exit_code == 1


def test_a_hand_closed_by_the_next_hand_is_an_error_and_a_stopped_record_a_warning() -> None:
    text = _train(("2: 9c  1: Qd\nscore 0 10 90 total 0 10 90\n", ""))
    report = _report(text)
    assert [(d.code, d.location.hand) for d in report.diagnostics] == [("ZF208", 1)]
    assert "closed by the next hand" in report.diagnostics[0].message
    last = TRAIN[: TRAIN.index("hand 2")].replace("2: 9c  1: Qd\nscore 0 10 90 total 0 10 90\n", "")
    stopped = _report(last)
    assert [d.code for d in stopped.diagnostics] == ["ZF206"] and stopped.ok


PASSES = """[Players "Ann, Bo, Cy"]

hand 1 shuffler 3
deal 1: 3s 3h 3d 4h 5s 5h 5d 6h 7h 8h 9s 9h 9d Th Jh Ks Kd SJ
deal 2: 4s 4d 6s 6d 7s 7d 8s 8d Ts Td Js Jd Qs Qh Qd As Ah BJ
deal 3: 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kh Kc Ad Ac 2s 2h 2d 2c
1: 3h  2: -  3: -  1: -
1: 4h
"""


def test_a_pass_after_the_trick_ended_is_reported_as_exactly_that() -> None:
    [game] = loads(PASSES)
    report = validate(game)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    line = PASSES.splitlines()[6]
    assert [_where(d) for d in errors] == [("ZF209", 7, line.rindex("1: -") + 1)]
    assert errors[0].message == (
        "Ann passes, but the trick had already ended: every other seat holding cards had "
        "passed (RULES.md R6, R26)"
    )
    # With self_overplay the top player's pass is the choice to take the trick: legal.
    poppel = validate(game, preset("poppel"))
    assert poppel.ok, [str(d) for d in poppel.diagnostics]


def test_documented_codes() -> None:
    doc = (ROOT.parent / "DIAGNOSTICS.md").read_text(encoding="utf-8")
    for code, rules in (("ZF208", "R24"), ("ZF209", "R6, R26")):  # (test_diagnostics: all)
        assert f"| {code} | error | {rules} |" in doc, code
    assert '"cause"' in doc and '"fix"' in doc


# --- audit --------------------------------------------------------------------------------------


def test_audit_reads_unreadable_moves_as_suggested_instead_of_refusing() -> None:
    result = runner.invoke(app, ["audit", "--json", "--budget", "60", str(FOUR)])
    assert result.exit_code == 1, result.output  # a finding, not unreadable input (2)
    [game] = json.loads(result.stdout)["games"]
    assert game["legal"] is False
    assert [d["code"] for d in game["diagnostics"]][:2] == ["ZF001", "ZF001"]
    assert game["diagnostics"][0]["fix"]["text"] == "9d"
    edits = game["repairs"][0]["edits"]
    assert [(e["kind"], e["after"]) for e in edits[:3]] == [
        ("read", "9d"),
        ("read", "9c"),
        ("read", "Ac"),
    ]
    # the record as read has only the wrong score left
    [written] = iter_records_text(FOUR.read_text("utf-8"), recover=True)
    assert not isinstance(written, NotationError)
    clean, _ = as_read(written)
    assert [d.code for d in validate(clean).diagnostics] == ["ZF401", "ZF402"]


def test_audit_tries_each_card_suggested_for_a_skipped_move() -> None:
    result = runner.invoke(app, ["audit", "--json", str(ROOT / "broken" / "syntax-error.zfn")])
    assert result.exit_code == 1
    first = json.loads(result.stdout)["games"][0]
    texts = [r["text"] for r in first["repairs"]]
    # Bo holds 7s and 7d; either beats Ann's 3h, and leaving the move out works too.
    assert texts[:2] == [
        "legal if trick 1, turn 2 (Bo) was read as 7s",
        "legal if trick 1, turn 2 (Bo) was read as 7d",
    ]
    assert "legal if trick 1, turn 2 (Bo) was not played" in texts


def test_a_one_off_wrong_total_is_one_error_when_the_record_comes_back() -> None:
    # Hand 1's total is miswritten, hand 2's is right again: one error, not two.
    text = _train(("score 0 10 90 total 0 10 90", "score 0 10 90 total 0 10 95"))
    report = _report(text)
    assert [(d.code, d.location.hand) for d in report.diagnostics] == [("ZF402", 1)]
    assert report.scores == (0, 110, 90)
