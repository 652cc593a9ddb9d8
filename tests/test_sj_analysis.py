"""Sheng ji analyze and audit (ANALYSIS.md, Sheng ji): marks on hand-built rounds whose right
answer follows from the rules, disputes judged both ways, repairs of the broken samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.shengji.analysis import analyze_match
from zfrec.games.shengji.audit import audit_match
from zfrec.games.shengji.cards import card_ids, contains, format_hand, parse_hand
from zfrec.games.shengji.replayer import validate_match
from zfrec.record import loads

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
ALL = "".join(f"{r}{s} " for r in "3456789TJQKA2" for s in "shdc") + "SJ BJ"


def record(hands: dict[int, str], tricks: list[str], voids: dict[int, str] | None = None) -> str:
    """A bashi fen round, rank 2, clubs trump, dealt by seat 1: each seat's `hands` cards
    plus filler (none of a suit in `voids`: `c` clubs, `t` any trump) up to 25; the kitty
    keeps the rest and is put back as it was. Only the `tricks` given are played (the round
    stops there)."""
    voids = voids or {}
    left = parse_hand(ALL + " " + ALL)
    dealt: dict[int, list[int]] = {}
    for s in range(1, 5):
        mine = parse_hand(hands.get(s, ""))
        left -= mine
        dealt[s] = card_ids(mine)
    pool = card_ids(left)
    trump = {c for c in pool if c >= 52 or c >> 2 == 12 or c & 3 == 3}
    for s in sorted(range(1, 5), key=lambda s: -len(voids.get(s, ""))):  # the void first
        void = voids.get(s, "")
        banned = {"shdc".index(x) for x in void if x != "t"}

        def allowed(c: int, void: str = void, banned: set[int] = banned) -> bool:
            return "t" not in void if c in trump else c & 3 not in banned

        while len(dealt[s]) < 25:
            c = next(c for c in pool if allowed(c))
            pool.remove(c)
            dealt[s].append(c)
    kitty = format_hand(sum(1 << 2 * c for c in pool))
    lines = ['[Game "shengji"]', '[Players "Ann, Bo, Cy, Di"]', '[Rules "bashifen"]', "",
             "round 1 dealer 1 rank 2 trump c"]  # fmt: skip
    for s in range(1, 5):
        lines.append(f"deal {s}: " + format_hand(sum(1 << 2 * c for c in dealt[s])))
    lines += [f"kitty {kitty}", f"discard {kitty}", *tricks]
    return "\n".join(lines) + "\n"


def marks(text: str) -> list[tuple[int | None, int | None, str, str, int]]:
    [game] = loads(text)
    a = analyze_match(game)
    return [(n.trick, n.turn, a.players[n.seat], n.kind, n.points) for n in a.notes()]


def test_a_point_card_given_to_the_opponents_winning_trick_is_marked() -> None:
    hands = {1: "Kd", 2: "Td 3d", 3: "4d", 4: "6d"}
    # Ann's Kd is winning when Bo (her opponent) plays the Td; Ann's team takes the trick.
    text = record(hands, ["1: Kd  2: Td  3: 4d  4: 6d"])
    assert marks(text) == [(1, 2, "Bo", "points_given", 10)]
    # Bo gives nothing when he had no cheaper diamond, or when his partner takes the trick.
    assert marks(record({1: "Kd", 2: "Td", 3: "4d", 4: "3d"}, ["1: Kd  2: Td  3: 4d  4: 3d"],
                        voids={2: "d"})) == []  # fmt: skip
    assert marks(record({1: "Kd", 2: "Td 3d", 3: "4d", 4: "Ad"},
                        ["1: Kd  2: Td  3: 4d  4: Ad"])) == []  # fmt: skip


def test_points_given_to_a_long_lead_are_judged_without_listing_every_follow() -> None:
    # Ann's throw (AA KK tractor and Qs) stands: she holds every higher spade. Bo, void in
    # spades, may play any 5 of his 25 cards (too many follows to list) and gives 15.
    hands = {1: "As As Ks Ks Qs", 2: "Kh 3h 3d 4d 5d", 3: "3h 4h 6d 7d 8d",
             4: "4h 6h 9d 7h 8h"}  # fmt: skip
    text = record(hands, ["1: As As Ks Ks Qs  2: Kh 3h 3d 4d 5d  3: 3h 4h 6d 7d 8d  "
                          "4: 4h 6h 9d 7h 8h"], voids={2: "s", 3: "s", 4: "s"})  # fmt: skip
    assert validate_match_errors(text) == 0
    found = marks(text)
    assert (1, 2, "Bo", "points_given", 15) in found
    # The filler deals Bo 3c 3c 4c 4c 5c and Di Qc Qc Kc Kc Ac: each could have ruffed the
    # throw (a trump tractor of two pairs and a single) and taken its 35 points.
    assert [m for m in found if m[3] == "missed_ruff"] == [
        (1, 2, "Bo", "missed_ruff", 35), (1, 4, "Di", "missed_ruff", 35)]  # fmt: skip
    deal = {int(line[5]): parse_hand(line[8:]) for line in text.splitlines()
            if line.startswith("deal ")}  # fmt: skip
    assert contains(deal[2], parse_hand("3c 3c 4c 4c 5c"))
    assert contains(deal[4], parse_hand("Qc Qc Kc Kc Ac"))


def test_a_missed_ruff_is_marked_and_a_made_ruff_is_not() -> None:
    hands = {1: "Ah", 2: "3c 4d", 3: "4h", 4: "Kh"}
    # Di's only heart is the Kh: she must give it.
    missed = record(hands, ["1: Ah  2: 4d  3: 4h  4: Kh"], voids={2: "h", 4: "h"})
    # Bo, void in hearts, could have taken the 10 points with the 3c (trump) and did not.
    assert marks(missed) == [(1, 2, "Bo", "missed_ruff", 10)]
    made = record(hands, ["1: Ah  2: 3c  3: 4h  4: Kh"], voids={2: "h", 4: "h"})
    assert marks(made) == []


def test_a_ruff_of_the_partners_sure_trick_is_wasted() -> None:
    hands = {1: "3h", 2: "Ah", 3: "4h", 4: "3c 4d"}
    # Di plays last, her partner Bo's Ah is winning for sure, and she could have discarded.
    wasted = record(hands, ["1: 3h  2: Ah  3: 4h  4: 3c"], voids={4: "h"})
    assert marks(wasted) == [(1, 4, "Di", "wasted_ruff", 0)]
    assert marks(record(hands, ["1: 3h  2: Ah  3: 4h  4: 4d"], voids={4: "h"})) == []
    # Bo ruffs, Cy over-ruffs: Bo's trump went for nothing and the Kh to the other side.
    over = record({1: "3h", 2: "3c", 3: "4c", 4: "Kh"}, ["1: 3h  2: 3c  3: 4c  4: Kh"],
                  voids={2: "h", 3: "h", 4: "h"})  # fmt: skip
    assert marks(over) == [(1, 2, "Bo", "wasted_ruff", 10)]


def test_a_throw_that_seen_cards_show_to_fail_is_marked() -> None:
    # Ann (the dealer, who knows the kitty) throws Ks Qs while both As are out of her sight:
    # one of them must beat the Qs. With both As in her own hand nothing beats the Ks or Qs.
    sure = record({1: "Ks Qs", 2: "As As", 3: "3s", 4: "4s"},
                  ["1: Ks Qs forced Qs by 2  2: As  3: 3s  4: 4s"])  # fmt: skip
    [(trick, turn, who, kind, _)] = marks(sure)
    assert (trick, turn, who, kind) == (1, 1, "Ann", "sure_fail_throw")
    [game] = loads(sure)
    assert validate_match_errors(sure) == 0, "the hand-built record is legal"
    safe = record({1: "Ks Qs As As Ks Qs", 2: "3s", 3: "4s", 4: "5s"},
                  ["1: Ks Qs  2: 3s 4s  3: 4s 5s  4: 5s 6s"])  # fmt: skip
    assert [m for m in marks(safe) if m[3] == "sure_fail_throw"] == []
    assert game.rounds


def test_a_throw_by_a_seat_that_does_not_know_the_kitty_counts_what_the_kitty_can_hide() -> None:
    # Bo (not the dealer) throws Ad Ad 3d: more higher diamonds than the 8 cards of the
    # kitty are out of his sight, so one of them is in a hand and beats the 3d.
    hands = {1: "4h 6d", 2: "Ah Ad Ad 3d", 3: "5h 4d", 4: "6h 5d"}
    text = record(hands, ["1: 4h  2: Ah  3: 5h  4: 6h",
                          "2: Ad Ad 3d forced 3d  3: 4d  4: 5d  1: 6d"])  # fmt: skip
    assert validate_match_errors(text) == 0
    assert [m[:4] for m in marks(text) if m[3] == "sure_fail_throw"] == [
        (2, 1, "Bo", "sure_fail_throw")]  # fmt: skip
    # Ad Ad Qd: only the two Kd are higher, and the kitty could hold both: not sure.
    hands = {1: "4h 6d", 2: "Ah Ad Ad Qd", 3: "5h 4d", 4: "6h 5d"}
    written = [record(hands, ["1: 4h  2: Ah  3: 5h  4: 6h", f"2: Ad Ad Qd{how}  3: 4d  4: 5d  "
                              "1: 6d"]) for how in ("", " forced Qd")]  # fmt: skip
    [text] = [t for t in written if validate_match_errors(t) == 0]
    assert [m for m in marks(text) if m[3] == "sure_fail_throw"] == []


def validate_match_errors(text: str) -> int:
    from zfrec.games.shengji.kind import match_of

    [game] = loads(text)
    return validate_match(match_of(game)).errors


def test_the_kitty_is_judged_against_the_last_trick() -> None:
    [game] = loads((SAMPLES / "04-kitty-multiplier.zfn").read_text(encoding="utf-8"))
    a = analyze_match(game)
    for r in a.rounds:
        k = r.kitty
        assert k is not None and r.result is not None
        assert k.buried == r.result.kitty_points
        assert k.lost == (not r.result.declarers >> r.result.last_winner & 1)
        assert k.added == r.result.kitty_added
        if k.lost and k.buried:
            assert k.added == k.buried * (k.multiplier or 0)
        assert k.fewest is not None and k.fewest <= k.buried
        kitty_notes = [n for n in r.notes if n.kind == "kitty"]
        if k.lost and k.buried > k.fewest:
            assert [n.points for n in kitty_notes] == [(k.buried - k.fewest) * (k.multiplier or 0)]
        else:
            assert kitty_notes == []


# --- audit ---------------------------------------------------------------------------------


def test_a_disputed_play_is_judged_both_ways() -> None:
    text = (SAMPLES / "10-disputed.zfn").read_text(encoding="utf-8")
    [game] = loads(text)
    r = audit_match(game)
    assert r.legal
    [d] = r.disputes
    rec, qc, seven = d.versions
    assert rec.recorded and rec.first_error is None and rec.total == 75
    assert qc.first_error is not None and qc.first_error.code == "SJ102"
    assert qc.first_error.location.trick == 21  # the Qc is played again at trick 21
    assert seven.first_error is not None and seven.first_error.code == "SJ201"
    assert seven.first_error.location.trick == 20  # a trump lead, and 王芳 held trumps
    # Cut after trick 20, the Qc version is legal: nothing plays the Qc again.
    cut = text[: text.index("1: 7c Kc forced")] + "\n"
    [short] = loads(cut)
    [d2] = audit_match(short).disputes
    assert [v.first_error is None for v in d2.versions] == [True, True, False]
    assert d2.versions[1].points is not None and d2.versions[1].total is None


REPAIRED = sorted(
    p for p in (SAMPLES / "broken").glob("*.zfn")
    # (round-number-skipped is warned only: legal as written, nothing to repair; a trick
    # dropped, like a play, has no edit of the audit's that writes it back)
    if p.stem
    not in ("round-not-finished", "short-trick", "trick-missing", "unreadable-card",
            "round-number-skipped")
)  # fmt: skip


def test_a_skipped_round_number_is_warned_and_legal() -> None:
    from zfrec.games.shengji.kind import match_of

    [game] = loads((SAMPLES / "broken" / "round-number-skipped.zfn").read_text(encoding="utf-8"))
    report = validate_match(match_of(game))
    assert report.errors == 0
    assert [d.code for d in report.diagnostics] == ["SJ508"]
    assert audit_match(game).legal


@pytest.mark.parametrize("path", REPAIRED, ids=lambda p: p.stem)
def test_the_broken_samples_get_a_repair_that_validates_clean(path: Path) -> None:
    [game] = loads(path.read_text(encoding="utf-8"))
    r = audit_match(game)
    assert not r.legal and r.repairs, [x.text() for x in r.repairs]
    best = r.repairs[0]
    assert best.ok and best.text().startswith("legal if ")
    assert validate_match(best.record).errors == 0
    assert len(best.edits) <= 2


def test_the_commands_give_the_generic_envelope_for_sheng_ji() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["analyze", str(SAMPLES / "03-failed-throw.zfn"), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)["games"][0]
    for key in ("file", "game", "players", "rules", "legal", "errors", "scores", "over",
                "winners", "seats", "notes", "points_flow", "hands"):  # fmt: skip
        assert key in doc
    assert doc["kind"] == "shengji" and doc["hands"][0]["kitty"]["buried"] == 10
    kinds = {n["kind"] for n in doc["notes"]}
    assert "sure_fail_throw" in kinds
    res = runner.invoke(app, ["audit", str(SAMPLES / "broken" / "wrong-points.zfn"), "--json"])
    assert res.exit_code == 1
    doc = json.loads(res.stdout)["games"][0]
    assert doc["repaired"] and doc["repairs"][0]["edits"][0]["kind"] == "points"
    res = runner.invoke(app, ["audit", str(SAMPLES / "10-disputed.zfn")])
    assert res.exit_code == 0 and "or 7d: illegal: SJ201" in res.stdout
    res = runner.invoke(app, ["analyze", str(SAMPLES / "03-failed-throw.zfn"), "--hand", "9"])
    assert res.exit_code == 2


def test_an_unreadable_card_is_read_as_the_suggestion_that_makes_the_record_legal() -> None:
    path = SAMPLES / "broken" / "unreadable-card.zfn"
    res = CliRunner().invoke(app, ["audit", str(path), "--json"])
    assert res.exit_code == 1
    doc = json.loads(res.stdout)["games"][0]
    assert not doc["legal"] and doc["repaired"]
    [edit] = doc["repairs"][0]["edits"]
    assert (edit["kind"], edit["before"], edit["after"]) == ("read", "2x", "2s")
    fixed = path.read_text(encoding="utf-8").replace("1: 2x", "1: 2s")
    assert validate_match_errors(fixed) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_every_single_mutation_of_a_self_play_match_gets_a_full_repair(seed: int) -> None:
    import random

    from tests import sj_mutate

    preset = ("bashifen", "dabaifen", "zhaopengyou")[seed % 3]
    match = sj_mutate.simulated(preset, seed, rounds=1 + seed % 2)
    analyze_match(match)  # the analysis of the clean match runs through
    rng = random.Random(seed)
    tried = 0
    for name, mutate in sj_mutate.MUTATIONS.items():
        got = mutate(match, rng)
        if got is None:
            continue
        bad, code = got
        tried += 1
        analyze_match(bad)  # a broken record is analysed as recorded
        r = audit_match(bad, budget=150)
        assert not r.legal and code in {d.code for d in r.report.diagnostics}, name
        assert r.repairs and r.repairs[0].ok, (name, code, [x.text() for x in r.repairs])
        assert validate_match(r.repairs[0].record).errors == 0
    assert tried >= 8


def test_the_solver_marks_what_plays_cost() -> None:
    [game] = loads((SAMPLES / "03-failed-throw.zfn").read_text(encoding="utf-8"))
    plain = analyze_match(game)
    assert all(d.cost is None for r in plain.rounds for d in r.decisions)
    assert all(r.par is None and r.from_par is None for r in plain.rounds)
    solved = analyze_match(game, solve_cards=12, solve_seconds=2.0)
    last = [d for d in solved.rounds[0].decisions if d.trick >= 21]
    # with 12 cards or fewer left every position is solved: each play has its cost
    assert last and all(isinstance(d.cost, dict) and "points" in d.cost for d in last)
    assert [n.text for n in solved.notes()] == [n.text for n in plain.notes()]
    # the round's par needs the whole round solved (25 cards a seat): out of reach at 12
    (summary,) = solved.to_json()["hands"]
    assert summary["par"] is None and summary["from_par"] is None


def test_a_disputed_throw_is_judged_as_the_table_would_have_held_it() -> None:
    # "Ann led the Kd alone" or "she threw Kd Qd": Bo's Ad beats both, so the throw is held to
    # the Qd, and the rest of the trick, played to a single diamond, stands either way.
    text = record({1: "Kd Qd", 2: "Ad 3d", 3: "4d", 4: "6d"},
                  ['1: Kd disputed "a throw?" or Kd Qd  2: 3d  3: 4d  4: 6d'])  # fmt: skip
    [game] = loads(text)
    [d] = audit_match(game).disputes
    recorded, throw = d.versions
    assert recorded.first_error is None and throw.first_error is None
    assert throw.forced == parse_hand("Qd") and recorded.forced is None
    assert throw.points is not None and throw.points[0] == 0  # the Qd and the rest: no points
    assert recorded.points is not None and recorded.points[0] == 10  # the Kd is Ann's 10


@pytest.mark.parametrize(
    ("sample", "option", "number", "kinds"),
    [
        ("shengji/01-bashifen-match.zfn", "--round", 2,
         ("points_given", "missed_ruff", "wasted_ruff", "sure_fail_throw")),
        ("05-full-game-to-500.zfn", "--hand", 3, ("conceded", "missed_beat")),
    ],
)  # fmt: skip
def test_the_players_table_of_one_round_counts_that_round_only(
    sample: str, option: str, number: int, kinds: tuple[str, ...]
) -> None:
    """`analyze --round 2 --summary` printed the whole match's players table under round 2's
    notes; it now sums that round only: each count against the round's own notes (JSON)."""
    path = str(Path(__file__).resolve().parent.parent / "sample_games" / sample)
    runner = CliRunner()
    text = runner.invoke(app, ["analyze", path, option, str(number), "--summary"]).stdout
    data = json.loads(runner.invoke(app, ["analyze", path, option, str(number), "--json"]).stdout)
    game = data["games"][0]
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("players in "))
    assert lines[at].startswith(f"players in {option[2:]} {number} (")
    table = lines[at + 1 : at + 1 + len(game["players"])]
    rows = {
        name: line.strip().removeprefix(name).split()
        for name, line in zip(game["players"], table, strict=True)
    }
    notes = [n for n in game["notes"] if n["hand"] == number]
    assert notes, "the round has notes to count"
    for name, row in rows.items():
        if option == "--round":
            counts = [int(v) for v in row[1:]]
            expected = [sum(n["player"] == name and n["kind"] == k for n in notes) for k in kinds]
        else:
            counts = [int(row[2])]  # missed beats; conceded is in points
            expected = [sum(n["player"] == name and n["kind"] == "missed_beat" for n in notes)]
        assert counts == expected, (name, row)
