"""A club referee's disputes, each a short Sheng ji record written by hand
(tests/data/sj_disputes/), judged by `zfrec validate` and `audit` against answers worked out
by hand from the rulings (../shared/RULINGS-SHENGJI.md; RULES-SHENGJI.md restates them), not
from the engine's own output.

The full rounds (k*, m1, p1) share one deal, written out card by card: rank 2, clubs trump,
赵磊 deals and declares with 孙强; 钱静 and 李娜 oppose. Their tricks give the opponents 60
points (20 in m1: 孙强 takes the last trick), and the dealer buries 5c and Kc, 15 points."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.verdicts import stops

runner = CliRunner()
DATA = Path(__file__).resolve().parent / "data" / "sj_disputes"


def _edited(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    """The record `name` with each (old, new) replaced once; each old must be there."""
    text = (DATA / name).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _findings(path: Path) -> list[tuple[str, int, int, str]]:
    """validate --json's diagnostics: (code, line, col, message), warnings included."""
    res = runner.invoke(app, ["validate", str(path), "--json"])
    assert res.exit_code in (0, 1), res.output
    doc = json.loads(res.stdout)
    return [
        (d["code"], d["line"], d["col"], d["message"])
        for f in doc["files"]
        for g in f["games"]
        for d in g["diagnostics"]
    ]


def _errors(path: Path) -> list[tuple[str, int, int, str]]:
    return [f for f in _findings(path) if f[0] != "SJ205"]  # SJ205: the record stops early


def _audit(path: Path) -> dict[str, Any]:
    res = runner.invoke(app, ["audit", str(path), "--json"])
    assert res.exit_code in (0, 1), res.output
    [game] = json.loads(res.stdout)["games"]
    return game  # type: ignore[no-any-return]


R7, R10, R11 = "(RULES-SHENGJI.md R7)", "(RULES-SHENGJI.md R10)", "(RULES-SHENGJI.md R11)"


# --- following (ruling 7) ------------------------------------------------------------------


def test_two_singles_on_a_pair_lead_while_holding_a_pair_of_the_suit() -> None:
    # 8d 8d led; 王芳's sheet shows 9d 9d Jd Qd: she owes the pair, not Jd Qd
    assert _errors(DATA / "d01-pair-follow.zfn") == [
        ("SJ201", 13, 11, f"王芳 played Jd Qd to 8d 8d, but must play the pair 9d 9d {R7}")
    ]


def test_the_repair_of_a_follow_offers_the_pair_the_sheet_shows_before_guessed_cards() -> None:
    # the rebuild fills 王芳's 21 unwritten cards with filler (7d 7d among them): the pair the
    # sheet shows her holding is the repair a referee looks for, so it comes first
    game = _audit(DATA / "d01-pair-follow.zfn")
    assert [r["edits"][0]["after"] for r in game["repairs"]][:1] == ["9d 9d"]


def test_a_tractor_led_without_the_rank_is_followed_by_the_tractor_held() -> None:
    # round 2 at rank 4, diamonds trump: 5h 5h 3h 3h is a tractor (the 4 is trump); 李娜
    # follows with her tractor 9h 9h 8h 8h, 赵磊 with his one pair; 钱静, void, plays
    # 4s 4s 4c 4c: two pairs of off-suit rank cards are equal, no tractor, so they cannot win,
    # and 李娜 (the higher heart tractor) leads trick 2
    assert _errors(DATA / "d03-tractor-rank-removed.zfn") == []
    assert _errors(DATA / "d03b-wrong-winner.zfn") == [
        (
            "SJ203",
            49,
            1,
            "李娜 leads trick 2, not 钱静: 李娜 won trick 1 with 8h 8h 9h 9h, and "
            "who wins a trick leads the next; 钱静's 4s 4s 4c 4c could not win: its pairs "
            "are not consecutive, and only a tractor beats a tractor (RULES-SHENGJI.md R8)",
        )
    ]


def test_a_follow_that_hides_a_second_pair_is_found_by_its_later_play(tmp_path: Path) -> None:
    # 赵磊 follows the heart tractor with Ah Ah Jh 7h and plays another 7h later: he held
    # 7h 7h and owed both pairs
    path = _edited(
        tmp_path, "d03-tractor-rank-removed.zfn", ("4: 6h  1: 2h  2: Ad", "4: 6h  1: 7h  2: Ad")
    )
    assert _errors(path) == [
        (
            "SJ201",
            48,
            33,
            "赵磊 played 7h Jh Ah Ah to 3h 3h 5h 5h, but must play 2 pairs of hearts (held: "
            "Ah Ah, 7h 7h); did you mean "
            f"7h 7h Ah Ah? {R7}",
        )
    ]


def test_no_trump_rank_pairs_owed_to_a_trump_lead() -> None:
    # no-trump at 4: 4h 4h SJ SJ is a tractor; 赵磊 holds 4d 4d 4s 4s, all trump, and may not
    # play a heart while he holds them; 钱静's BJ BJ 4c 4c is no tractor (SJ lies between)
    assert _errors(DATA / "n1-notrump.zfn") == []
    assert _errors(DATA / "n2-notrump-follow.zfn") == [
        (
            "SJ201",
            48,
            33,
            "赵磊 played 4s 4d 4d 5h to 4h 4h SJ SJ, but must play every one of the trumps "
            "held (4s 4s 4d 4d) before "
            f"cards of other suits {R7}",
        )
    ]


# --- winning a trick (rulings 4, 8) ---------------------------------------------------------


def test_ruffs_with_rank_card_tractors_the_higher_wins_and_equal_plays_go_to_the_first(
    tmp_path: Path,
) -> None:
    # hearts tractor led at rank 4, diamonds trump: 赵磊 ruffs 4s 4s 4d 4d and 钱静
    # Ad Ad 4c 4c, both tractors (the 4s between A♦ and 4♦); 赵磊's is higher and leads next
    assert _errors(DATA / "d04-ruff-rank-tractor.zfn") == []
    # 钱静 leading trick 2 instead is the wrong leader
    path = _edited(
        tmp_path,
        "d04-ruff-rank-tractor.zfn",
        ("1: 3s  2: 5s  3: 6s  4: 7s", "2: 5s  3: 6s  4: 7s  1: 3s"),
    )
    assert [f[:2] for f in _errors(path)] == [("SJ203", 49)]
    # no-trump: Ah against Ah, the first played wins; 孙强 leads trick 3
    assert _errors(DATA / "n1-notrump.zfn") == []


def _leader_said(tmp_path: Path, name: str, *edits: tuple[str, str]) -> str:
    """What the (first) SJ203 of `name` edited says after who won the trick before."""
    msg = next(f[3] for f in _errors(_edited(tmp_path, name, *edits)) if f[0] == "SJ203")
    return msg.split("; ", 1)[1]


def test_a_wrong_leader_is_told_why_the_play_written_for_them_did_not_win(
    tmp_path: Path,
) -> None:
    # each claim to the trick before, against rulings 4, 8 and 9; in d01 刘洋 ruffed the
    # 8d 8d lead with 5c 5c, over 王芳's Jd Qd and 李娜's 3d 4s
    d01_next = [
        "5c 5c\n李娜: 3s  刘洋: 4s  张伟: 5s  王芳: 6s\n",
        "5c 5c\n王芳: 6s  李娜: 3s  刘洋: 4s  张伟: 5s\n",
    ]
    cases: list[tuple[str, tuple[tuple[str, str], ...]]] = [
        ("d01-pair-follow.zfn", (("5c 5c\n", d01_next[0]),)),
        ("d01-pair-follow.zfn", (("5c 5c\n", d01_next[1]),)),
        ("n1-notrump.zfn", (("3: Ah  4: Ah  1: Kh  2: Qh", "2: Qh  3: Ah  4: Ah  1: Kh"),)),
        ("n1-notrump.zfn", (("3: 3d  4: 3d  1: 5d  2: 6d", "4: 3d  1: 5d  2: 6d  3: 3d"),)),
        ("n1-notrump.zfn", (("3: 3d  4: 3d  1: 5d  2: 6d", "1: 5d  2: 6d  3: 3d  4: 3d"),)),
        # round 1, hearts trump: 李娜 plays 5c to 赵磊's 4h, a trump lead, and leads next
        (
            "n1-notrump.zfn",
            (
                ("1: 4h  2: Kh  3: 2h  4: 2c", "1: 4h  2: Kh  3: 2h  4: 5c"),
                ("3: 6c  4: 5c  1: 8c  2: 4c", "4: 2c  1: 8c  2: 4c  3: 6c"),
            ),
        ),
    ]
    said = [_leader_said(tmp_path, name, *edits) for name, edits in cases]
    r4, r8 = "(RULES-SHENGJI.md R4)", "(RULES-SHENGJI.md R8)"
    assert said == [
        f"李娜's 3d 4s could not win: it is neither all diamonds nor all trumps {r8}",
        f"王芳's Jd Qd could not win: two singles never beat a pair {r8}",
        "钱静's 4c 4c BJ BJ could not win: its pairs are not consecutive, and only a tractor "
        f"beats a tractor {r8}",  # no-trump at 4: SJ SJ lies between 4c 4c and BJ BJ
        # a tie is lost by the later play: ruling 4, not 8
        f"李娜's Ah ties with it, and the one played first wins {r4}",
        f"赵磊's Kh is lower {r8}",
        f"李娜's 5c could not win: it is not all trumps {r8}",
    ]


# --- throws (ruling 10) -------------------------------------------------------------------


def test_a_throw_that_stands_and_one_held_to_its_lowest_single() -> None:
    # As As Ks stands: 张伟 holds both A♠, so nobody can beat the pair or the K♠; then
    # Qs Qs 3s: the other K♠ is out and beats 3s too, so it is held to 3s, the unit with the
    # fewest cards, and 刘洋, who plays the K♠ on it, could beat it
    assert _errors(DATA / "t1-throws.zfn") == []


def test_a_throw_written_as_standing_that_the_sheet_shows_beaten() -> None:
    assert _errors(DATA / "t2-throw-written-standing.zfn") == [
        (
            "SJ103",
            16,
            1,
            "the throw 3s Qs Qs cannot stand: 王芳 holds a higher single than 3s; "
            f"it is held to 3s {R10}",
        )
    ]


def test_a_failed_throw_written_with_the_wrong_forced_part() -> None:
    found = _errors(DATA / "t3-throw-wrong-forced.zfn")
    assert found[0] == ("SJ104", 16, 1, f"the throw 3s Qs Qs is held to 3s, not Qs Qs {R10}")
    assert all(f[0] == "SJ201" and f[1] == 16 for f in found[1:])  # the follows, one card short


def test_a_throw_challenged_with_hidden_hands() -> None:
    # K♠ Q♠ thrown; nobody shows an A♠. With the dealer's deal and discard written, both A♠
    # are in other hands, so the throw cannot stand; with the discard unwritten they may lie
    # in the kitty, and the record stands as written
    assert _errors(DATA / "t4-throw-hidden.zfn") == [
        (
            "SJ103",
            15,
            1,
            "the throw Qs Ks cannot stand: a higher single than Qs (As) must be in "
            f"another hand, as the written cards leave it no other place; it is held to Qs {R10}",
        )
    ]
    assert _errors(DATA / "t5-throw-hidden-kitty-unknown.zfn") == []


def test_a_blocker_who_showed_out_of_the_suit_cannot_block(tmp_path: Path) -> None:
    # nobody's hand is written; 王芳 played 4h to the spade lead of trick 1, so she holds no
    # spades (ruling 7) and cannot be who beat 张伟's K♠ Q♠ at trick 5; 李娜 or 刘洋 may
    assert _errors(DATA / "t7-void-blocker.zfn") == [
        ("SJ104", 17, 1, "王芳 cannot block the throw Qs Ks: 王芳 played 4h to the spade lead of "
         f"trick 1, so holds no spades {R10}"),
    ]  # fmt: skip
    for blocker in ("3", "4"):
        path = _edited(tmp_path, "t7-void-blocker.zfn", ("by 2", f"by {blocker}"))
        assert _errors(path) == []


def test_an_off_suit_play_found_wrong_proves_no_void(tmp_path: Path) -> None:
    # 王芳's deal written to hold 4s: her 4h to the spade lead of trick 1 was a revoke
    # (ruling 7), so it does not show she holds no spades, and she still holds 4s at trick 5:
    # one of her unseen cards may be the A♠ that beats Qs, so naming her blocker is no error
    path = _edited(tmp_path, "t7-void-blocker.zfn", ("deal 2: ?25", "deal 2: 4s ?24"))
    assert [(f[0], f[1]) for f in _errors(path)] == [
        ("SJ201", 13),  # 4h to 3s
        ("SJ201", 14),  # 5h to 7s
        ("SJ201", 17),  # 6h to Qs
    ]


def test_a_throw_of_equal_trumps_is_held_to_the_one_written_first() -> None:
    # rank 2, clubs trump: 2h and 2s are equal trumps; 孙强 throws 2h 2s at trick 17 and
    # 赵磊's 2c beats either, so the one written first, 2h, stays (ruling 10) and 2s goes back
    # (he plays it at trick 19); the round is right as written
    assert _findings(DATA / "q1-equal-singles-throw.zfn") == []


def _sure_fail_notes(name: str) -> list[str]:
    res = runner.invoke(app, ["analyze", str(DATA / name), "--json"])
    assert res.exit_code == 0, res.output
    [game] = json.loads(res.stdout)["games"]
    return [n["text"] for n in game["notes"] if n["kind"] == "sure_fail_throw"]


def test_a_throw_is_sure_to_fail_only_by_what_the_thrower_is_shown_to_know() -> None:
    # 张伟 deals with his deal and discard written: the A♠s are in other hands, he knew it
    assert _sure_fail_notes("t4-throw-hidden.zfn") == [
        "张伟's throw Qs Ks was sure to fail: 2 higher card(s) of the suit were in other hands"
    ]
    # the discard unwritten, he may have taken up both A♠ from the kitty; his deal unwritten
    # too (t7), he may have held them all along: neither record shows the throw was sure to fail
    assert _sure_fail_notes("t5-throw-hidden-kitty-unknown.zfn") == []
    assert _sure_fail_notes("t7-void-blocker.zfn") == []


def test_throw_penalties_go_each_way(tmp_path: Path) -> None:
    # throw_penalty=10: 赵磊 (declarer) takes back K♠ (+10 onto the opponents), 钱静
    # (opponent) takes back Q♥ 4♥ (-20 off them): net -10; 60 in tricks, kitty 15 x4 (the last
    # lead A♥A♥K♥Q♥'s largest unit is a pair) = 60; total 110: the teams swap, no level
    right = _edited(
        tmp_path,
        "p1-throw-penalty.zfn",
        ("points 60 kitty 15x4 penalty 30 total 150", "points 60 kitty 15x4 penalty -10 total 110"),
        ("result opponents +1 next 2", "result swap next 2"),
        ("levels 2 3 2 3", "levels 2 2 2 2"),
    )
    assert _errors(right) == []
    found = _errors(DATA / "p1-throw-penalty.zfn")
    assert [f[:3] for f in found] == [("SJ501", 37, 1), ("SJ503", 38, 1), ("SJ503", 39, 1)]
    assert found[0][3] == (
        "the opponents took 110 points, not 150; the throw penalties come to -10, not 30: "
        "赵磊 (declarers) took back 1 card, +10; 钱静 (opponents) took back 2 cards, -20 "
        "(tricks 60, kitty 15 x4 = 60, penalties -10) (RULES-SHENGJI.md R10, R11, R12)"
    )


# --- the kitty and the levels (rulings 11, 12, 14) ------------------------------------------

# (record, written line, right lines): 60 points in tricks, a kitty of 15
KITTY_CASES = [
    (
        "k1-tractor-last.zfn",  # Ah Ah Kh Kh: a tractor of 2 pairs, 2^3 = 8: 60 + 120 = 180
        ("points 60 kitty 15x4 total 120", "result opponents +1 next 2", "levels 2 3 2 3"),
        ("points 60 kitty 15x8 total 180", "result opponents +2 next 2", "levels 2 4 2 4"),
    ),
    (
        "k2-throw-pair-last.zfn",  # Ah Ah Kh Qh: largest unit a pair, x4: 120, exactly +1
        ("points 60 kitty 15x2 total 90", "result swap next 2", "levels 2 2 2 2"),
        ("points 60 kitty 15x4 total 120", "result opponents +1 next 2", "levels 2 3 2 3"),
    ),
    (
        "k3-throw-singles-last.zfn",  # Ah Kh Qh Jh: singles, x2: 90, swap
        ("points 60 kitty 15x8 total 180", "result opponents +2 next 2", "levels 2 4 2 4"),
        ("points 60 kitty 15x2 total 90", "result swap next 2", "levels 2 2 2 2"),
    ),
    (
        "k4-declarers-last.zfn",  # 孙强 (declarer) takes the last trick: no kitty; 20: +2
        ("points 20 kitty 15x8 total 140", "result opponents +1 next 2", "levels 2 3 2 3"),
        ("points 20 total 20", "result declarers +2 next 3", "levels 4 2 4 2"),
    ),
]


def test_the_kitty_multiplier_follows_the_last_lead_and_who_took_it(tmp_path: Path) -> None:
    for name, wrong, right in KITTY_CASES:
        path = _edited(tmp_path, name, *zip(wrong, right, strict=True))
        assert _errors(path) == [], name
    said = {name: _errors(DATA / name)[0] for name, _, _ in KITTY_CASES}
    assert said == {
        "k1-tractor-last.zfn": (
            "SJ502",
            37,
            1,
            "the kitty's multiplier is 8, not 4: the last "
            "trick was led with Kh Kh Ah Ah, its largest unit a tractor of 2 "
            f"pairs {R11}",
        ),
        "k2-throw-pair-last.zfn": (
            "SJ502",
            37,
            1,
            "the kitty's multiplier is 4, not 2: the "
            "last trick was led with Qh Kh Ah Ah, its largest unit a pair "
            f"{R11}",
        ),
        "k3-throw-singles-last.zfn": (
            "SJ502",
            37,
            1,
            "the kitty's multiplier is 2, not 8: the "
            "last trick was led with Jh Qh Kh Ah, its largest unit a "
            f"single {R11}",
        ),
        "k4-declarers-last.zfn": (
            "SJ502",
            37,
            1,
            f"the kitty does not count: 孙强 (declarers) took the last trick {R11}",
        ),
    }


def test_the_linear_kitty_multiplier_for_a_tractor(tmp_path: Path) -> None:
    # kitty_multiplier=linear: a tractor of 2 pairs gives 2 x (2 + 1) = 6: 60 + 90 = 150, +1
    path = _edited(tmp_path, "k1-tractor-last.zfn",
                   ('[Rules "bashifen"]', '[Rules "bashifen kitty_multiplier=linear"]'),
                   ("kitty 15x4 total 120", "kitty 15x6 total 150"))  # fmt: skip
    assert _errors(path) == []


def test_score_at_the_table_shows_how_the_kitty_counted() -> None:
    # the seed's example at rank 9: A-10-10-8-8-5-5-4-4-3-3 counts its tractor of three pairs,
    # x16, not the 10-10-8-8 one (x8); 40 + 10 x16 = 200: opponents +3 (ruling 12)
    last = ("--last", "Ad Td Td 8d 8d 5d 5d 4d 4d 3d 3d", "--trump", "9c")
    base = ("score", "--game", "shengji", "--points", "40", "--kitty-points", "10")
    res = runner.invoke(app, [*base, *last, "--last-winner", "opponents"])
    assert res.exit_code == 0 and res.stdout == (
        "opponents' total 200 (40 + kitty 10 x16 = 160: the last lead's largest unit is a "
        "tractor of 3 pairs): opponents +3; the teams swap; next dealer seat 2\n"
    )
    res = runner.invoke(app, [*base, "--last-winner", "declarers"])  # exactly 40: +1
    assert res.exit_code == 0 and res.stdout == (
        "opponents' total 40 (the kitty does not count: the declarers took the last trick): "
        "declarers +1; the declarers stay; next dealer seat 3\n"
    )


def test_a_level_the_declarers_must_defend_stops_them_and_the_message_says_so(
    tmp_path: Path,
) -> None:
    # must_defend=5,10,K,A: 赵磊 and 孙强 win twice by 20 points (declarers +2 each time):
    # 2 -> 4, then 4 -> 5, not 6: they must win a round at 5 as declarers to pass it
    assert _errors(DATA / "m1-must-defend-5.zfn") == [
        (
            "SJ503",
            73,
            1,
            "the levels after the round are 5 2 5 2, not 6 2 6 2 (赵磊 and 孙强 "
            "stop at 5, which +2 from 4 would pass: they must win a round there as declarers to "
            "pass it; must_defend=5,10,K,A) (RULES-SHENGJI.md R12, R14)",
        ),
    ]
    # under the default (only A to defend) the same record is right as written
    path = _edited(
        tmp_path,
        "m1-must-defend-5.zfn",
        ('[Rules "bashifen must_defend=5,10,K,A"]', '[Rules "bashifen"]'),
    )
    assert _errors(path) == []


def test_a_team_that_wins_the_match_at_a_is_not_told_it_stays_there() -> None:
    # bashifen, only A to defend: 赵磊 and 孙强 at A win as declarers with the opponents at
    # 40 to 75 (declarers +1): that wins the match (ruling 14), so a wrong levels line after
    # it says nothing of staying at A; 钱静 and 李娜 at A winning +1 as opponents stay there
    names = ["赵磊", "钱静", "孙强", "李娜"]
    rules = sj_preset("bashifen")
    assert stops(names, rules, [14, 2, 14, 2], [14, 2, 14, 2], [1, 0, 1, 0], won=(0, 2)) == ""
    assert stops(names, rules, [2, 14, 2, 14], [2, 14, 2, 14], [0, 1, 0, 1]) == (
        " (钱静 and 李娜 stay at A until they win a round there as declarers; must_defend=A)"
    )


def test_a_wrong_levels_line_after_the_match_is_won_at_a(tmp_path: Path) -> None:
    # a self-played one-deck match: East and West win its last round as declarers at A
    # (declarers +1), which wins the match (ruling 14); the levels line written as A J A J
    # is wrong (South and North, opponents, stay at 10), and the message does not say the
    # winners stay at A until they win a round there as declarers: they just did
    from zfrec.games.shengji.match import play_match
    from zfrec.games.shengji.notation import dumps_sj
    from zfrec.games.shengji.simrecords import match_to_record

    m = match_to_record(play_match(sj_preset("dabaifen"), 1, ["greedy"] * 4, max_rounds=300))
    text = dumps_sj(m)
    assert '[Result "A 10 A 10 winners 1, 3"]' in text and text.endswith(
        "result declarers +1 next 3\nlevels A 10 A 10\n"
    )
    path = tmp_path / "won.zfn"
    path.write_text(text.removesuffix("levels A 10 A 10\n") + "levels A J A J\n", "utf-8")
    assert [(f[0], f[3]) for f in _errors(path)] == [
        (
            "SJ503",
            "the levels after the round are A 10 A 10, not A J A J (RULES-SHENGJI.md R12, R14)",
        ),
        # the Result tag, A 10 A 10, against the levels line
        ("SJ506", "the final levels are A J A J, not A 10 A 10 (RULES-SHENGJI.md R12, R14)"),
    ]


# --- where the mistake is -----------------------------------------------------------------


def test_slips_on_a_sheet_with_chinese_names_are_placed_by_line_and_column() -> None:
    found = _findings(DATA / "e1-typo.zfn")
    assert [f[:3] for f in found] == [
        ("ZF001", 12, 30),  # the 4x, in characters, the names counted one each
        ("ZF001", 12, 34),  # 刘阳 for 刘洋, read as 刘洋
        ("SJ201", 12, 23),  # 李娜's play, one card short once the 4x is lost
        ("SJ203", 13, 1),  # 刘洋's 5c 5c ruff won trick 1, so 刘洋 leads trick 2
        ("SJ205", 13, 1),
    ]
    assert "did you mean 刘洋? (read as 刘洋)" in found[1][3]
