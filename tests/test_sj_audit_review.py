"""Sheng ji records in the hands of those who audit disputed plays: was that legal, who won
that trick, do the scores add up? Each record here is a sample with one dispute written into
it by hand, judged by `zfrec validate`, `audit`, `analyze` and `diff` as a disputant reads
them, against the rule texts (RULES-SHENGJI.md, ../shared/RULINGS-SHENGJI.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from zfrec.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games" / "shengji"
DISPUTED = SAMPLES / "10-disputed.zfn"  # round 1: Ann and Bo Li declare; a dispute at trick 20
KITTY = SAMPLES / "04-kitty-multiplier.zfn"  # the opponents take the last trick with a pair
FRIENDS = SAMPLES / "06-zhaopengyou.zfn"  # 李娜 joins with the 2nd As at trick 5


def _edited(tmp_path: Path, base: Path, *edits: tuple[str, str], name: str = "r.zfn") -> Path:
    """`base` with each (old, new) replaced once; each old must be there."""
    text = base.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _json(*args: str) -> tuple[int, Any]:
    res = runner.invoke(app, [*args, "--json"])
    return res.exit_code, json.loads(res.stdout)


def _diagnostics(path: Path) -> list[dict[str, Any]]:
    _, doc = _json("validate", str(path))
    return [d for f in doc["files"] for g in f["games"] for d in g["diagnostics"]]


def _audit(path: Path) -> dict[str, Any]:
    code, doc = _json("audit", str(path))
    assert code in (0, 1)
    [game] = doc["games"]
    return game  # type: ignore[no-any-return]


# --- disputes in a record that fails before them ----------------------------------------------

# 王芳's six-card throw at trick 10 written as standing: Bo Li holds 6d (R10), so it is held to
# 3d; the replay keeps it whole, and 王芳's later plays of its diamonds follow from that
THROW_STANDS = ("2: 3d 5d 7d Jd Qd Kd forced 3d by 3  3: 6d", "2: 3d 5d 7d Jd Qd Kd  3: 6d")


def test_a_disputed_version_is_not_blamed_for_what_follows_from_an_earlier_error(
    tmp_path: Path,
) -> None:
    game = _audit(_edited(tmp_path, DISPUTED, THROW_STANDS))
    assert game["legal"] is False
    [dispute] = game["disputes"]
    recorded, qc, d7 = dispute["versions"]
    # Tc as written: its later errors (王芳's 7d at trick 23, already thrown) follow from the
    # throw at trick 10, before the dispute; they are not the version's
    assert recorded["recorded"] and recorded["legal"], recorded["first_error"]
    # the replay went on from the levels written (3 2 3 2); the version's own are computed:
    # 90 points swap the teams at no level change (R12), every seat stays at 2
    assert recorded["opponents_points"] == 90
    assert set(recorded["totals"].values()) == {"2"}
    # Qc was never 王芳's: refused where the record plays the Qc it lacks
    assert not qc["legal"] and qc["first_error"]["code"] == "SJ102"
    # the 7d refused at the disputed play itself stays the version's
    assert not d7["legal"] and d7["first_error"]["line"] == dispute["line"]


# --- who won that trick ------------------------------------------------------------------------


def test_a_wrong_leader_is_told_who_won_the_trick_before_and_with_what(tmp_path: Path) -> None:
    # trick 4: Bo Li 6h, 李娜 8h, Ann 5h, 王芳 3h: 李娜's 8h is the highest heart (R8), so
    # 李娜 leads trick 5; the record has Bo Li lead it
    path = _edited(tmp_path, DISPUTED, ("4: Ad  1: 5d  2: 4d  3: 4d", "3: 4d  4: Ad  1: 5d  2: 4d"))
    [d] = _diagnostics(path)
    assert (d["code"], d["line"], d["trick"], d["turn"], d["seat"]) == ("SJ203", 20, 5, 1, "Bo Li")
    assert d["message"].startswith("李娜 leads trick 5, not Bo Li: 李娜 won trick 4 with 8h")
    # the audit puts the plays in the order the table played them
    game = _audit(path)
    assert game["repairs"][0]["ok"]
    order = "trick 5 was played in the order 李娜 Ann 王芳 Bo Li"
    assert game["repairs"][0]["text"].endswith(order)


# --- do the scores add up ----------------------------------------------------------------------

KITTY_LINE = "points 70 kitty 10x4 total 110"  # 李娜 takes the last trick, led with 3d 3d


def test_a_wrong_multiplier_names_the_last_lead_and_the_total_follows_from_it(
    tmp_path: Path,
) -> None:
    # the line adds up by itself (70 + 10 x2 = 90): only its multiplier is wrong; a pair led
    # the last trick, x4 (R11)
    path = _edited(tmp_path, KITTY, (KITTY_LINE, "points 70 kitty 10x2 total 90"))
    kitty, total = _diagnostics(path)
    assert kitty["code"] == "SJ502" and kitty["line"] == 38
    assert kitty["message"].startswith(
        "the kitty's multiplier is 4, not 2: the last trick was led with 3d 3d, its largest "
        "unit a pair"
    )
    assert total["code"] == "SJ501" and total["cause"]["code"] == "SJ502"
    [repair] = _audit(path)["repairs"]
    assert repair["ok"] and repair["text"].endswith("read points 70 kitty 10 x4 total 110")


def test_wrong_kitty_points_name_what_the_dealer_buried(tmp_path: Path) -> None:
    path = _edited(tmp_path, KITTY, (KITTY_LINE, "points 70 kitty 20x4 total 150"))
    kitty, total = _diagnostics(path)
    # the discard 4d 6s 6d 6c Kc Ah 2h 2c holds one point card, the Kc: 10 points
    assert kitty["message"].startswith("the kitty's points are 10, not 20: the dealer buried Kc")
    assert "last trick" not in kitty["message"]  # the lead sets the multiplier, not the points
    assert total["cause"]["code"] == "SJ502"


def test_a_kitty_written_as_counted_when_the_declarers_took_the_last_trick(
    tmp_path: Path,
) -> None:
    # Ann (a declarer) takes trick 23: the kitty does not count (R11), whatever the line says
    path = _edited(tmp_path, DISPUTED, ("points 75 total 75", "points 75 kitty 10x2 total 75"))
    [d] = _diagnostics(path)
    assert d["code"] == "SJ502"
    assert d["message"].startswith("the kitty does not count: Ann (declarers) took the last")
    # and counted into the total: the total is wrong by it
    path = _edited(tmp_path, DISPUTED, ("points 75 total 75", "points 75 kitty 10x2 total 95"))
    kitty, total = _diagnostics(path)
    assert (kitty["code"], total["code"]) == ("SJ502", "SJ501")
    assert total["message"].startswith("the opponents took 75 points, not 95")
    assert total["cause"]["code"] == "SJ502"


def test_a_total_and_its_tricks_both_wrong_are_both_named(tmp_path: Path) -> None:
    path = _edited(tmp_path, KITTY, (KITTY_LINE, "points 60 kitty 10x4 total 100"))
    [d] = _diagnostics(path)
    assert d["message"].startswith(
        "the opponents took 110 points, not 100; 70 of them in tricks, not 60"
    )


# --- zhao pengyou: the calls and who joined ----------------------------------------------------


def test_a_call_of_a_copy_the_decks_lack_is_what_the_join_and_points_follow_from(
    tmp_path: Path,
) -> None:
    # two decks hold two As (R16): a 3rd As is no call, so 李娜's As at trick 5 makes no friend,
    # and the points, computed with 李娜 an opponent, follow from the call too
    path = _edited(tmp_path, FRIENDS, ("call 2nd As", "call 3rd As"))
    call, join, points, levels = _diagnostics(path)
    assert [d["code"] for d in (call, join, points, levels)] == [
        "SJ406", "SJ407", "SJ501", "SJ503"
    ]  # fmt: skip
    assert join["message"].startswith(
        "李娜 does not join here: this As is its 2nd copy; the call is the 3rd"
    )
    assert {join["cause"]["line"], points["cause"]["line"], levels["cause"]["line"]} == {10}


def test_a_join_at_a_copy_not_called_says_which_copy_was(tmp_path: Path) -> None:
    # Chen (the dealer) led the 1st As at trick 1; a call of the 1st As makes no friend of
    # 李娜's, the 2nd
    path = _edited(tmp_path, FRIENDS, ("call 2nd As", "call 1st As"))
    join, points, _ = _diagnostics(path)
    assert join["code"] == "SJ407" and join["line"] == 24
    assert "the 1st As is called, and it was played before (trick 1, Chen)" in join["message"]
    # the points follow from the teams the join changed
    assert points["code"] == "SJ501" and points["cause"]["code"] == "SJ407"


def test_the_audit_repairs_a_call_by_the_copy_the_join_shows(tmp_path: Path) -> None:
    # what a person would fix: the call, not the join, the points and the levels
    for wrong in ("call 3rd As", "call 1st As"):
        game = _audit(_edited(tmp_path, FRIENDS, ("call 2nd As", wrong)))
        assert game["repairs"][0]["text"] == "legal if round 1: the calls were 2nd As", wrong
        [edit] = game["repairs"][0]["edits"]
        assert (edit["kind"], edit["before"], edit["after"]) == ("calls", wrong[5:], "2nd As")


def test_the_same_two_edits_found_in_either_order_are_one_repair(tmp_path: Path) -> None:
    # two slips: the wrong leader of trick 5 and a level change of +2 for 75 points (R12: +1)
    path = _edited(
        tmp_path, DISPUTED,
        ("4: Ad  1: 5d  2: 4d  3: 4d", "3: 4d  4: Ad  1: 5d  2: 4d"),
        ("result declarers +1 next 3", "result declarers +2 next 3"),
        ("levels 3 2 3 2", "levels 4 2 4 2"),
    )  # fmt: skip
    repairs = _audit(path)["repairs"]
    assert [r["size"] for r in repairs] == [2]
    assert {e["kind"] for e in repairs[0]["edits"]} == {"order", "result"}


def test_the_first_error_of_the_whole_record_is_placed_by_its_line() -> None:
    # [Result] is the record's, in no round: the text said "first error: : the final levels"
    res = runner.invoke(app, ["audit", str(SAMPLES / "broken" / "wrong-result.zfn")])
    assert res.exit_code == 1
    assert "  first error: line 5: the final levels are 3 3 3 3, not 4 3 3 3" in res.stdout


def test_a_repair_in_json_gives_each_line_as_written_and_as_repaired(tmp_path: Path) -> None:
    path = _edited(tmp_path, KITTY, (KITTY_LINE, "points 70 kitty 10x2 total 90"))
    [edit] = _audit(path)["repairs"][0]["edits"]
    assert (edit["kind"], edit["round"]) == ("points", 1)
    assert (edit["before"], edit["after"]) == (
        "points 70 kitty 10x2 total 90", "points 70 kitty 10x4 total 110"
    )  # fmt: skip
    # [Result] is no round's
    [edit] = _audit(SAMPLES / "broken" / "wrong-result.zfn")["repairs"][0]["edits"]
    assert (edit["round"], edit["before"], edit["after"]) == (
        None, '[Result "4 3 3 3"]', '[Result "3 3 3 3"]'
    )  # fmt: skip
    # the order of a trick's plays, and a join
    path = _edited(tmp_path, DISPUTED, ("4: Ad  1: 5d  2: 4d  3: 4d", "3: 4d  4: Ad  1: 5d  2: 4d"))
    [edit] = _audit(path)["repairs"][0]["edits"]
    assert (edit["before"], edit["after"]) == ("Bo Li 李娜 Ann 王芳", "李娜 Ann 王芳 Bo Li")
    [edit] = _audit(SAMPLES / "broken" / "wrong-join.zfn")["repairs"][0]["edits"]
    assert (edit["kind"], edit["before"], edit["after"]) == ("join", "2s joins", "2s")


# --- two versions of one match: zfrec diff -----------------------------------------------------


def _diff_line(a: Path, b: Path) -> str:
    res = runner.invoke(app, ["diff", str(a), str(b)])
    assert res.exit_code == 1
    [line] = [x for x in res.stdout.splitlines() if "first divergence" in x]
    return line.strip()


def test_diff_names_both_seats_when_another_seat_plays_at_a_turn(tmp_path: Path) -> None:
    # the two versions disagree about who led trick 5: both seats are named with their plays
    path = _edited(tmp_path, DISPUTED, ("4: Ad  1: 5d  2: 4d  3: 4d", "3: 4d  4: Ad  1: 5d  2: 4d"))
    assert _diff_line(DISPUTED, path) == (
        "first divergence at round 1, trick 5, turn 1 (李娜): A has 李娜 Ad; B has Bo Li 4d"
    )


def test_diff_shows_both_versions_of_a_line_that_differs(tmp_path: Path) -> None:
    path = _edited(tmp_path, KITTY, (KITTY_LINE, "points 70 kitty 10x2 total 90"))
    assert _diff_line(KITTY, path).endswith(
        "the points lines differ: A has points 70 kitty 10x4 total 110; B has points 70 "
        "kitty 10x2 total 90"
    )
    path = _edited(tmp_path, FRIENDS, ("call 2nd As", "call 1st As"))
    assert _diff_line(FRIENDS, path).endswith("the calls differ: A has 2nd As; B has 1st As")
    # a deal: the cards one version has where the other has others
    path = _edited(tmp_path, DISPUTED, ("deal 2: 3s 3h 3d 4d 4c", "deal 2: 3s 3h 3d 4c 4c"))
    assert _diff_line(DISPUTED, path).endswith("(王芳): the deals differ: A has 4d where B has 4c")
    # the JSON keeps each line's text alone
    _, doc = _json(
        "diff",
        str(KITTY),
        str(_edited(tmp_path, KITTY, (KITTY_LINE, "points 70 kitty 10x2 total 90"))),
    )
    first = doc["games"][0]["first_divergence"]
    assert (first["a"], first["b"]) == ("70 kitty 10x4 total 110", "70 kitty 10x2 total 90")


def test_a_trick_written_against_the_wrong_names_is_repaired_by_the_seats_in_turn(
    tmp_path: Path,
) -> None:
    # trick 14 is Bo Li: Ks  李娜: 4s  Ann: Js  王芳: Ks (Bo Li won trick 13 with BJ); written
    # with the names one seat back, each card against the seat before its player's
    path = _edited(
        tmp_path, DISPUTED,
        ("3: Ks  4: 4s  1: Js  2: Ks", "王芳: Ks  Bo Li: 4s  Ann: Js  李娜: Ks"),
    )  # fmt: skip
    game = _audit(path)
    assert game["diagnostics"][0]["message"].startswith(
        "Bo Li leads trick 14, not 王芳: Bo Li won trick 13 with BJ"
    )
    best = game["repairs"][0]
    assert best["ok"], [r["text"] for r in game["repairs"]]
    assert best["text"] == (
        "legal if round 1, trick 14 was played Bo Li: Ks  李娜: 4s  Ann: Js  王芳: Ks"
    )


# --- damaged files -----------------------------------------------------------------------------


def test_a_misspelt_or_cut_statement_is_named_as_such_and_only_its_line_is_lost(
    tmp_path: Path,
) -> None:
    # after the points line it read "a trick comes before the round's points, result and
    # levels", and the whole game was lost
    # a misspelt one is read as meant; a cut one, which cannot be, is skipped
    for line, said in (
        ("levles 3 2 3 2", "unknown line 'levles': did you mean levels? (read as levels)"),
        ("lev", "unknown line 'lev': did you mean levels?"),
    ):
        path = _edited(tmp_path, DISPUTED, ("levels 3 2 3 2", line))
        [d] = _diagnostics(path)
        assert (d["code"], d["line"], d["hand"]) == ("ZF001", 41, 1)
        assert d["message"] == said
    path = _edited(tmp_path, DISPUTED, ("kitty 5s", "kity 5s"))
    [d] = _diagnostics(path)
    assert d["message"] == "unknown line 'kity': did you mean kitty? (read as kitty)"
    # a play without its colon is still a move's problem
    path = _edited(tmp_path, DISPUTED, ("4: 8d  1: Kd  2: 5d  3: 9d", "4 8d  1 Kd  2 5d  3 9d"))
    assert _diagnostics(path)[0]["message"].startswith("a move starts with a seat and a colon")


def test_a_short_trick_follows_from_a_play_the_reader_could_not_read(tmp_path: Path) -> None:
    # `2 5d`: 王芳's seat without its colon is read as a card of Ann's play, so the trick has
    # three plays; that follows from the unreadable word
    path = _edited(tmp_path, DISPUTED, ("4: 8d  1: Kd  2: 5d  3: 9d", "4: 8d  1: Kd  2 5d  3: 9d"))
    read, short = _diagnostics(path)
    assert (read["code"], read["line"], read["col"]) == ("ZF001", 26, 15)
    assert short["code"] == "SJ206"
    assert (short["cause"]["line"], short["cause"]["col"]) == (26, 15)


# --- what follows from a wrong follow -----------------------------------------------------------


def test_what_a_wrong_follow_leaves_in_the_hand_follows_from_it(tmp_path: Path) -> None:
    # trick 3: Bo Li leads As As; Ann holds 9s 9s and must follow with a pair (R7), but is
    # written with 9s 4s; at trick 17 Ann is written with 4s 5s again, so the replay's Ann
    # still holds the second 9s, which blocks Bo Li's throw 6s 8s there: that block, the 4s
    # played again and the round that cannot end all follow from trick 3
    path = _edited(tmp_path, DISPUTED, ("1: 9s 9s  2: Qs Qs", "1: 9s 4s  2: Qs Qs"))
    follow, *rest = _diagnostics(path)
    assert (follow["code"], follow["line"], follow["col"]) == ("SJ201", 18, 21)
    assert [d["code"] for d in rest] == ["SJ103", "SJ102", "SJ205"]
    assert all((d["cause"]["line"], d["cause"]["col"]) == (18, 21) for d in rest), rest
    # and the audit repairs trick 3, as a person would
    assert _audit(path)["repairs"][0]["text"] == (
        "legal if round 1, trick 3, turn 3 (Ann) played 9s 9s, not 4s 9s"
    )


def test_a_seat_that_erred_before_is_still_judged_on_its_own_later_revoke(
    tmp_path: Path,
) -> None:
    # the same slip at trick 3, then at trick 9 (Bo Li leads 9h) Ann, who holds Th and 4h,
    # ruffs with a trump instead: her own error, not one that follows (the Th is played later)
    path = _edited(
        tmp_path, DISPUTED,
        ("1: 9s 9s  2: Qs Qs", "1: 9s 4s  2: Qs Qs"),
        ("3: 9h  4: Kh  1: Th  2: 5c", "3: 9h  4: Kh  1: SJ  2: 5c"),
        ("4: 7c  1: SJ  2: Tc", "4: 7c  1: Th  2: Tc"),
    )  # fmt: skip
    revoke = next(d for d in _diagnostics(path) if d["line"] == 24)
    assert revoke["code"] == "SJ201" and "cause" not in revoke, revoke


def test_a_play_cut_short_is_repaired_by_the_legal_follow_it_began(tmp_path: Path) -> None:
    # the file ends in the middle of Ann's play to Bo Li's 6s 8s: `1: 4s` of `1: 4s 5s`
    text = DISPUTED.read_text(encoding="utf-8")
    path = tmp_path / "cut.zfn"
    path.write_text(text[: text.index("1: 4s 5s") + len("1: 4s")], encoding="utf-8")
    game = _audit(path)
    assert game["diagnostics"][-1]["code"] == "SJ201"  # two cards led, one followed (R7)
    assert game["repairs"][0]["ok"]
    assert (
        game["repairs"][0]["text"]
        == "legal if round 1, trick 17, turn 3 (Ann) played 4s 5s, not 4s"
    )


# --- bids ----------------------------------------------------------------------------------------


def test_a_refused_bid_sets_no_trump(tmp_path: Path) -> None:
    # Ann holds one 2c and no 2s: a bid of either is refused (R15), so no bid stands; the
    # trump then comes from the kitty turned up, whose order a record does not keep: only the
    # bid is wrong (it read "the bids that stand give rank 2, spades trump")
    for bid in ("2s", "2c 2c"):
        path = _edited(tmp_path, DISPUTED, ("bids 1: 2c\n", f"bids 1: {bid}\n"))
        [d] = _diagnostics(path)
        assert (d["code"], d["line"], d["col"]) == ("SJ401", 13, 6), d


def test_a_disputed_bid_is_judged_version_by_version(tmp_path: Path) -> None:
    # bids take disputes as plays do (FORMAT.md); the audit left them out
    path = _edited(
        tmp_path, DISPUTED, ("bids 1: 2c\n", 'bids 1: 2c disputed "was it the 2s?" or 2s\n')
    )
    game = _audit(path)
    bid = game["disputes"][0]
    assert (bid["line"], bid["round"], bid["bid"], bid["trick"], bid["player"]) == (
        13, 1, 1, None, "Ann"
    )  # fmt: skip
    recorded, other = bid["versions"]
    assert recorded["legal"] and recorded["opponents_points"] == 75
    assert other["play"] == "2s" and other["first_error"]["code"] == "SJ401"
    text = runner.invoke(app, ["audit", str(path)]).stdout
    assert '  disputed at 13:6, round 1, bid 1 (Ann): "was it the 2s?"' in text


def test_a_disputed_failed_throw_shows_the_part_it_was_held_to(tmp_path: Path) -> None:
    path = _edited(
        tmp_path, DISPUTED, ("1: 7c Kc forced 7c by 2 ", "1: 7c Kc forced 7c by 2 disputed or Kc ")
    )
    dispute = _audit(path)["disputes"][1]
    recorded, kc = dispute["versions"]
    assert (recorded["play"], recorded["forced"], recorded["legal"]) == ("7c Kc", "7c", True)
    assert kc["forced"] is None and not kc["legal"]
    text = runner.invoke(app, ["audit", str(path)]).stdout
    assert "    7c Kc (as recorded) (a throw held to 7c): legal; opponents' points 75" in text


# --- the deal --------------------------------------------------------------------------------


def test_a_card_written_in_the_wrong_deal_line_is_moved_back(tmp_path: Path) -> None:
    # Bo Li's 6h written in Ann's deal: Ann 26 cards, Bo Li 24 (R15)
    path = _edited(
        tmp_path, DISPUTED,
        ("deal 1: 3h 4s 4h 4h 5s 5d", "deal 1: 3h 4s 4h 4h 5s 5d 6h"),
        ("deal 3: 3c 4d 4c 5h 6s 6h", "deal 3: 3c 4d 4c 5h 6s"),
    )  # fmt: skip
    first, second = _diagnostics(path)[:2]
    assert (first["code"], first["seat"], second["code"], second["seat"]) == (
        "SJ302", "Ann", "SJ302", "Bo Li"
    )  # fmt: skip
    assert _audit(path)["repairs"][0]["text"] == "legal if 6h was in Bo Li's deal, not Ann's deal"


PARTIAL = SAMPLES / "07-partial-deals.zfn"  # only Ann's deal written


def test_a_third_copy_played_is_the_one_played_last_and_is_named_so(tmp_path: Path) -> None:
    # trick 3: Bo Li Kh, 李娜 Kh, Ann Th, and 王芳 written with a third Kh (two decks, R2); the
    # hands are unknown, so it was put on 李娜's, the second, as the rebuilt hands gave the
    # Kh to the seats in seat order
    path = _edited(tmp_path, PARTIAL, ("3: Kh  4: Kh  1: Th  2: Qh", "3: Kh  4: Kh  1: Th  2: Kh"))
    found = _diagnostics(path)
    errors = [d for d in found if d["severity"] == "error"]
    assert [(d["code"], d["line"], d["turn"], d["seat"]) for d in errors] == [
        ("SJ102", 21, 4, "王芳")
    ]
    assert errors[0]["message"].startswith(
        "王芳 does not hold Kh (a third copy: Bo Li and 李娜 played the 2 the decks hold)"
    )
    # the audit offers a heart nobody shows, and only where the hand is not written
    best = _audit(path)["repairs"][0]
    assert best["ok"] and best["text"] == (
        "legal if round 1, trick 3, turn 4 (王芳) played Qh, not Kh"
    )


# --- zfrec analyze: who won each trick ----------------------------------------------------------


def test_analyze_says_who_took_each_trick_and_judges_an_open_last_trick(tmp_path: Path) -> None:
    res = runner.invoke(app, ["analyze", str(DISPUTED), "--solve-cards", "0"])
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    # trick 1: Ann's throw held to 3h, 王芳 7h, Bo Li Qh, 李娜 Kh: the Kh wins (R8), 10 points
    at = lines.index("   1.4 李娜 plays Kh")
    assert lines[at + 1] == "       -> 李娜 takes the trick, 10 points"
    assert lines.count("       -> Ann takes the trick, 10 points") >= 1  # trick 23: Kc
    # a record that stops in trick 17 (a position): its plays so far are listed and judged
    text = DISPUTED.read_text(encoding="utf-8")
    path = tmp_path / "stop.zfn"
    path.write_text(text[: text.index("  1: 4s 5s")] + "\n", encoding="utf-8")
    code, doc = _json("analyze", str(path), "--solve-cards", "0")
    assert code == 0
    last = doc["games"][0]["hands"][0]["decisions"][-2:]
    assert [(d["trick"], d["turn"], d["player"], d["cards"]) for d in last] == [
        (17, 1, "Bo Li", "6s 8s"), (17, 2, "李娜", "Td 2h")
    ]  # fmt: skip
    assert last[1]["legal"] and last[1]["options"] == 28  # void in spades: any two of eight


def test_a_card_a_seat_played_before_is_named_so_not_as_a_third_copy() -> None:
    # the Qc version of the sample's dispute: 王芳 plays the Qc at trick 20, then again at
    # trick 21 as the record has it; Ann's Qc at trick 12 makes it the third played, but it
    # is 王芳's own that is gone
    [dispute] = _audit(DISPUTED)["disputes"]
    qc = dispute["versions"][1]["first_error"]
    assert qc["message"].startswith("王芳 does not hold Qc (played already, trick 20)")


def test_analyze_of_a_round_the_record_lacks_names_it_a_round() -> None:
    res = runner.invoke(app, ["analyze", str(DISPUTED), "--hand", "5"])
    assert res.exit_code == 2
    assert "there is no round 5 in" in res.output
    # Zheng Fen's records have hands
    res = runner.invoke(app, ["analyze", str(ROOT / "sample_games" / "07-parlett.zfn"),
                              "--hand", "99"])  # fmt: skip
    assert res.exit_code == 2 and "there is no hand 99 in" in res.output


def test_a_wrong_next_dealer_says_why_the_other_deals(tmp_path: Path) -> None:
    # 75 points: the declarers (Ann, Bo Li) stay up a level, and Ann's partner deals (R12)
    path = _edited(tmp_path, DISPUTED, ("result declarers +1 next 3", "result declarers +1 next 1"))
    [d] = _diagnostics(path)
    assert d["code"] == "SJ504"
    assert d["message"].startswith(
        "Bo Li deals next, not Ann (75 points keep the declarers, and the next declarer after "
        "the dealer deals)"
    )
    [edit] = _audit(path)["repairs"][0]["edits"]
    assert (edit["before"], edit["after"]) == (
        "result declarers +1 next 1",
        "result declarers +1 next 3",
    )


def test_a_wrong_level_change_names_the_row_of_the_table(tmp_path: Path) -> None:
    # 110 points: ruling 12's row 80-115, the teams swap at no level change
    path = _edited(tmp_path, KITTY, ("result swap next 4", "result opponents +1 next 4"))
    [d] = _diagnostics(path)
    assert d["message"].startswith(
        "110 points (80 to 115) give opponents +0 (the teams swap), not opponents +1"
    )
    from zfrec.games.shengji.verdicts import band

    # rulings 12 (two decks) and 13 (one deck), row by row
    two = {-40: "-75 to -40", -5: "-35 to -5", 0: "0", 35: "5 to 35", 40: "40 to 75",
           120: "120 to 155", 240: "240 to 275"}  # fmt: skip
    assert {p: band(p, 2) for p in two} == two
    one = {15: "5 to 15", 20: "20 to 35", 55: "40 to 55", 60: "60 to 75", 100: "100 to 115"}
    assert {p: band(p, 1) for p in one} == one


def test_a_later_revoke_follows_from_an_earlier_error_only_if_that_error_kept_its_card(
    tmp_path: Path,
) -> None:
    # the same slip at trick 3 (spades: Ann keeps a 9s the record never has her play); at
    # trick 19 (3 leads 5h) Ann, who holds 4h, plays Ad; at trick 22 she is written with a Qd
    # she does not hold. The 4h is kept by that later error, not by the spade slip: the revoke
    # is her own, while the block of trick 17 (by the kept 9s) still follows from trick 3
    path = _edited(
        tmp_path, DISPUTED,
        ("1: 9s 9s  2: Qs Qs", "1: 9s 4s  2: Qs Qs"),
        ("3: 5h  4: 8h  1: 4h  2: Kd", "3: 5h  4: 8h  1: Ad  2: Kd"),
        ("4: 3d  1: Ad  2: Td  3: 9d", "4: 3d  1: Qd  2: Td  3: 9d"),
    )  # fmt: skip
    found = {(d["code"], d["line"]): d for d in _diagnostics(path)}
    revoke = found["SJ201", 34]
    assert "must play every one of the hearts held (4h)" in revoke["message"]
    assert "cause" not in revoke, revoke
    block = found["SJ103", 32]
    assert (block["cause"]["line"], block["cause"]["col"]) == (18, 21)
