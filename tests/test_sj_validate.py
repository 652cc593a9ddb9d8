"""The Sheng ji validator (zfrec.games.shengji.replayer): the broken samples, exact messages,
causes, unknown cards, self-play records and a mutation test over the SJ codes."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.sj_mutate import MUTATIONS, revoke, simulated
from zfrec.cli import app
from zfrec.diagnostics import CODES
from zfrec.errors import NotationError
from zfrec.games.shengji.records import SjCards, SjMatch
from zfrec.games.shengji.replayer import SjReport, validate_match
from zfrec.record import iter_records
from zfrec.validate import validate

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "sample_games" / "shengji" / "broken"
EXPECT_RE = re.compile(r'\[Expect "((?:SJ|ZF)\d{3}) (\d+):(\d+)"\]')


def _report(path: Path) -> SjReport:
    """As `zfrec validate` judges the file: the generic reader, the record's kind."""
    [game] = list(iter_records(path, recover=True))
    assert not isinstance(game, NotationError), game
    report = validate(game, game_number=1)
    assert isinstance(report, SjReport)
    return report


def _lines(path: Path) -> list[str]:
    return [str(d).removeprefix(f"{path}:") for d in _report(path).diagnostics]


def test_every_sj_code_has_a_broken_sample() -> None:
    expected = {EXPECT_RE.search(p.read_text()).group(1) for p in BROKEN.glob("*.zfn")}  # type: ignore[union-attr]
    # SJ207 (no such seat) and SJ208, SJ305 (the draw, the exchange by another seat) are the
    # engine's for a live table, SJ209 (a play of no cards) the live table's: a record cannot
    # write them (DIAGNOSTICS.md)
    documented = {c for c in CODES if c.startswith("SJ")} - {"SJ207", "SJ208", "SJ209", "SJ305"}
    assert expected - {"ZF001"} == documented


@pytest.mark.parametrize("path", sorted(BROKEN.glob("*.zfn")), ids=lambda p: p.stem)
def test_broken_sample_reports_its_expected_code(path: Path) -> None:
    found = EXPECT_RE.search(path.read_text(encoding="utf-8"))
    assert found is not None
    code, line, col = found.group(1), int(found.group(2)), int(found.group(3))
    report = _report(path)
    assert any(
        (d.code, d.location.line, d.location.col) == (code, line, col) for d in report.diagnostics
    ), [str(d) for d in report.diagnostics]
    if CODES[code].severity == "error":
        assert not report.ok
    elif code == "SJ205":  # the record only stops early: nothing is wrong
        assert report.ok


VALID = sorted(p for p in BROKEN.parent.glob("*.*") if p.suffix in (".zfn", ".json"))


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_samples_validate_clean(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert '[Expect "valid"]' in text or '{"name": "Expect", "value": "valid"}' in text
    report = _report(path)
    assert report.ok and not report.warnings, [str(d) for d in report.diagnostics]
    assert report.moves > 0


def test_cli_judges_every_sample_as_its_expect_line_says() -> None:
    result = runner.invoke(app, ["validate", str(BROKEN)])
    assert result.exit_code == 1, result.output
    for path in BROKEN.glob("*.zfn"):
        found = EXPECT_RE.search(path.read_text(encoding="utf-8"))
        assert found is not None
        code, line, col = found.groups()
        assert re.search(rf"{line}:{col} (error|warning|info) {code} ", result.output), path.name


def test_a_throw_written_whole_in_unknown_hands_is_the_error_named_first(
    tmp_path: Path,
) -> None:
    """A club's paper record (no deal written) of the disputed sample, with 王芳's failed throw
    written whole (`2: 3s Ks`, its forced part left out): the Ks came back and is played again,
    so 王芳 shows a card more than a hand holds. The rebuilt hand left out her highest card
    (BJ), and the first error was "王芳 does not hold BJ" at trick 12, a play that is right;
    now the hand leaves out the Ks played again after the throw: the throw is the error, and
    every other follows from it."""
    text = (ROOT / "sample_games" / "shengji" / "10-disputed.zfn").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^deal ([1-4]): .*$", r"deal \1: ?25", text)
    assert "2: 3s Ks forced 3s by 3  " in text
    path = tmp_path / "paper.zfn"
    path.write_text(text.replace("2: 3s Ks forced 3s by 3  ", "2: 3s Ks  "), encoding="utf-8")
    found = [d for d in _report(path).diagnostics if d.severity == "error"]
    first = found[0]
    assert (first.code, first.location.line, first.location.col) == ("SJ103", 23, 1), str(first)
    assert [str(d) for d in found[1:] if d.cause is None] == []
    assert {(d.cause.line, d.cause.col) for d in found[1:] if d.cause} == {(23, 1)}
    held = [str(d) for d in found if d.code == "SJ102"]
    assert len(held) == 1 and "王芳 does not hold Ks (played already, trick 8)" in held[0], held
    assert not any("BJ" in str(d) for d in found)


def test_exact_messages_with_causes_and_suggestions() -> None:
    assert _lines(BROKEN / "not-a-lead.zfn")[:3] == [
        "16:1 [game 1, round 1, trick 2, turn 1 (North)]: error SJ101: not a lead: 2s 8h mixes "
        "trumps (2s) and hearts (8h); a lead is one suit (RULES-SHENGJI.md R6)",
        "16:1 [game 1, round 1, trick 2, turn 1 (North)]: info SJ105: the rest of the trick is "
        "not judged against a lead that is no lead (follows from 16:1)",
        "33:8 [game 1, round 1, trick 19, turn 2 (North)]: error SJ102: North does not hold 8h "
        "(played already, trick 4); did you mean Jh? (RULES-SHENGJI.md R2) (follows from 16:1)",
    ]
    assert _lines(BROKEN / "throw-cannot-stand.zfn")[:2] == [
        "30:1 [game 1, round 1, trick 17, turn 1 (North)]: error SJ103: the throw 3d 6d Qd "
        "cannot stand: East holds a higher single than 3d; it is held to 3d "
        "(RULES-SHENGJI.md R10)",
        "30:14 [game 1, round 1, trick 17, turn 2 (East)]: error SJ201: East played 8d to "
        "3d 6d Qd, but must play 3 cards, as many as were led, not 1; did you mean 8d Td Jd or "
        "8d Td Td? (RULES-SHENGJI.md R7) (follows from 30:1)",
    ]
    assert _lines(BROKEN / "wrong-forced-part.zfn")[0] == (
        "30:1 [game 1, round 1, trick 17, turn 1 (North)]: error SJ104: the throw 3d 6d Qd is "
        "held to 3d, not 6d (RULES-SHENGJI.md R10)"
    )
    assert _lines(BROKEN / "does-not-follow.zfn")[0] == (
        "30:36 [game 1, round 1, trick 17, turn 3 (South)]: error SJ201: South played 7s to 3d, "
        "but must play 1 of the 4 diamonds held (RULES-SHENGJI.md R7)"
    )
    assert _lines(BROKEN / "wrong-points.zfn") == [
        "39:1 [game 1, round 1]: error SJ501: the opponents took 95 points, not 105 "
        "(RULES-SHENGJI.md R11, R12)"
    ]
    assert _lines(BROKEN / "wrong-level-change.zfn") == [
        "40:1 [game 1, round 1]: error SJ503: 95 points (80 to 115) give opponents +0 (the "
        "teams swap), not opponents +1 (RULES-SHENGJI.md R12, R13)"
    ]
    assert _lines(BROKEN / "not-a-bid.zfn") == [
        "7:1 [game 1, round 1 (West)]: error SJ304: East deals round 1: the seat whose bid "
        "stands, else seat 1, not West as written (RULES-SHENGJI.md R14) (follows from 12:6)",
        "12:6 [game 1, round 1 (West)]: error SJ402: a bid shows rank cards of the dominant "
        "rank 2 (RULES-SHENGJI.md R15)",
        "14:9 [game 1, round 1 (East)]: error SJ102: East does not hold 4d 6c Kc Ah 2c "
        "(RULES-SHENGJI.md R11) (follows from 12:6)",
    ]
    assert _lines(BROKEN / "wrong-result.zfn") == [
        "5:10 [game 1]: error SJ506: the final levels are 3 3 3 3, not 4 3 3 3 "
        "(RULES-SHENGJI.md R12, R14)"
    ]


def test_json_diagnostics_carry_code_rule_and_cause() -> None:
    result = runner.invoke(app, ["validate", "--json", str(BROKEN / "not-a-lead.zfn")])
    assert result.exit_code == 1
    game = json.loads(result.output)["files"][0]["games"][0]
    assert game["game"] == "shengji" and game["ok"] is False
    first, second = game["diagnostics"][:2]
    assert (first["code"], first["rule"], first["hand"], first["trick"], first["seat"]) == (
        "SJ101", "R6", 1, 2, "North",
    )  # fmt: skip
    assert second["cause"] == {"line": 16, "col": 1, "code": "SJ101"}


# --- unknown cards ----------------------------------------------------------------------------


def _unknown_deals(m: SjMatch) -> SjMatch:
    out = copy.deepcopy(m)
    for rnd in out.rounds:
        assert rnd.deal is not None
        rnd.deal = tuple(SjCards(0, d.unknown + _size(d.known)) for d in rnd.deal)
        rnd.kitty = rnd.discard = None
    return out


def _size(hand: int) -> int:
    from zfrec.games.shengji.cards import size

    return size(hand)


@pytest.mark.parametrize("preset", ["bashifen", "dabaifen", "zhaopengyou"])
def test_unknown_deals_are_rebuilt_and_judged_as_far_as_known(preset: str) -> None:
    m = simulated(preset, 3)
    hidden = _unknown_deals(m)
    report = validate_match(hidden)
    assert report.ok, [str(d) for d in report.diagnostics]
    assert all(r.reconstructed for r in report.rounds) or preset != "zhaopengyou"
    # a record that stops early: the guessed cards make no follow or throw wrong
    cut = copy.deepcopy(hidden)
    for rnd in cut.rounds:
        del rnd.tricks[6:]
        rnd.points = rnd.outcome = rnd.levels = None
    found = validate_match(cut).diagnostics
    codes = {d.code for d in found}
    # (the rounds before the last are closed by the next round's line: plays are missing,
    # SJ210, as Zheng Fen's next hand closing an unfinished one is ZF208; the last one stops)
    assert codes <= {"SJ205", "SJ210"}, codes
    assert [d.location.hand for d in found if d.code == "SJ205"] == [cut.rounds[-1].number]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_guessed_cards_never_make_an_error(seed: int) -> None:
    for preset in ("bashifen", "dabaifen", "zhaopengyou"):
        hidden = _unknown_deals(simulated(preset, seed, 3))
        assert validate_match(hidden).ok
        for cut_at in (3, 9, 14):
            cut = copy.deepcopy(hidden)
            for rnd in cut.rounds:
                del rnd.tricks[cut_at:]
                rnd.points = rnd.outcome = rnd.levels = None
            found = validate_match(cut).diagnostics
            codes = {d.code for d in found}
            # (the rounds before the last are closed by the next one: SJ210, as above)
            assert codes <= {"SJ205", "SJ210"}, (preset, cut_at, codes)
            last = [d.location.hand for d in found if d.code == "SJ205"]
            assert set(last) <= {cut.rounds[-1].number}, (preset, cut_at, last)


def test_a_shown_void_is_binding_with_unknown_deals() -> None:
    for seed in range(60):
        got = revoke(simulated("bashifen", seed), random.Random(seed))
        if got is None:
            continue
        bad, code = got
        report = validate_match(_unknown_deals(bad))
        assert code in {d.code for d in report.diagnostics}, seed
        return
    raise AssertionError("no revoke found")


# --- self-play and mutations ------------------------------------------------------------------


@pytest.mark.slow
def test_simulated_matches_validate_clean(tmp_path: Path) -> None:
    out = tmp_path / "sj.zfn"
    made = runner.invoke(app, ["simulate", "--game", "shengji", "--games", "50", "--seed", "1",
                               "--out", str(out)])  # fmt: skip
    assert made.exit_code == 0, made.output
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 0, result.output
    assert "50 game(s)" in result.output and "0 error(s), 0 warning(s)" in result.output


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    preset=st.sampled_from(["bashifen", "dabaifen", "zhaopengyou"]),
    kind=st.sampled_from(sorted(MUTATIONS)),
)
def test_every_rule_breaking_change_is_caught(seed: int, preset: str, kind: str) -> None:
    m = simulated(preset, seed)
    assert validate_match(m).ok
    got = MUTATIONS[kind](m, random.Random(seed))
    if got is None:
        return
    bad, code = got
    codes = [d.code for d in validate_match(bad).diagnostics]
    assert code in codes, (kind, codes)


def test_plain_tricks_are_judged_from_their_moves_once_asked_for() -> None:
    """A trick read from a plain line is judged from its plays; once its moves are asked for
    (and changed), from them. `joins` written or not, the validator says so (SJ407)."""
    from zfrec.games.shengji.cards import parse_hand
    from zfrec.validate import validate_text

    path = ROOT / "sample_games" / "shengji" / "06-zhaopengyou.zfn"
    text = path.read_text(encoding="utf-8")

    def codes(text: str) -> list[tuple[str, int | None, int | None]]:
        [report] = validate_text(text)
        assert isinstance(report, SjReport)
        found = report.diagnostics
        return [(d.code, d.location.line, d.location.col) for d in found]

    assert codes(text) == []
    dropped = text.replace("4: As joins  5: 5s", "4: As  5: 5s", 1)
    assert ("SJ407", 24, 1) in codes(dropped)
    added = text.replace("4: As joins  5: 5s", "4: As joins  5: 5s joins", 1)
    assert ("SJ407", 24, 14) in codes(added)
    # a move changed after reading is judged as changed: Ann's 3s (line 20) is now a 7s, which
    # she does not hold
    [game] = list(iter_records(path, recover=True))
    assert not isinstance(game, NotationError)
    trick = game.rounds[0].tricks[0]
    trick.moves[1].cards = parse_hand("7s")
    got = [(d.code, d.location.line) for d in validate(game, game_number=1).diagnostics]
    assert ("SJ102", 20) in got


# --- the engine's recovery move -----------------------------------------------------------


def test_force_play_puts_the_written_play_down_and_undoes() -> None:
    from zfrec.games.shengji.cards import parse_hand as cards
    from zfrec.games.shengji.order import parse_trump
    from zfrec.games.shengji.round import RoundState

    hands = [cards(h) for h in ("Kd Qd 3s", "Kd Ad 4s", "5h 6h 7h", "8d 8c 9c")]
    rs = RoundState.from_hands(hands, parse_trump("7c"), leader=0)
    before = rs.snapshot()
    e = rs.force_play(0, cards("Kd Qd"), cards("Kd Qd"))  # a beaten throw written as standing
    assert (e.cards, e.back, rs.hands[0], rs.turn) == (cards("Kd Qd"), 0, cards("3s"), 1)
    assert rs.lead is not None and rs.lead.kind == "throw"
    rs.undo()
    assert rs.snapshot() == before
    e = rs.force_play(0, cards("Kd Qd"), cards("Kd"))  # written as failed, the wrong part
    assert (e.cards, e.back, rs.hands[0]) == (cards("Kd"), cards("Qd"), cards("Qd 3s"))
    rs.undo()
    rs.force_play(0, cards("As 3s"), cards("As 3s"))  # only the copies held leave the hand
    assert rs.hands[0] == cards("Kd Qd") and rs.lead is not None


def test_a_wrong_next_dealer_after_a_dealer_alone_says_the_dealer_deals_again(
    tmp_path: Path,
) -> None:
    """Zhao pengyou: a dealer whose called copy no one else played declares alone; points
    that keep the declarers give the deal back to the dealer (ruling 12), and SJ504 says so,
    not "the next declarer after the dealer" (there is none)."""
    text = (ROOT / "tests" / "data" / "sj-dealer-alone.zfn").read_text("utf-8")
    assert [x for x in _lines_of(tmp_path, text) if "SJ504" in x] == []  # South, again
    wrong = text.replace("result declarers +1 next 2", "result declarers +1 next 3")
    [said] = [x for x in _lines_of(tmp_path, wrong) if "SJ504" in x]
    assert (
        "error SJ504: South deals next, not West (75 points keep the declarers, and the "
        "dealer, who declared alone, deals again)" in said
    )


def _lines_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "round.zfn"
    path.write_text(text, "utf-8")
    return _lines(path)


def test_a_trick_line_written_twice_is_said_to_repeat_the_earlier_trick(tmp_path: Path) -> None:
    """A scribe's line copied twice read `does not hold Ac (played already, trick 5)` for each
    card, which sends the scribe looking for a wrong card: it now says the line repeats trick 5.
    A card played again in a trick not written twice says only where it was played."""
    text = (ROOT / "sample_games" / "shengji" / "10-disputed.zfn").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    fifth = next(i for i, line in enumerate(lines) if line.startswith("4: Ad  1: 5d"))
    path = tmp_path / "copied.zfn"
    path.write_text("".join([*lines[: fifth + 1], lines[fifth], *lines[fifth + 1 :]]), "utf-8")
    held = [str(d) for d in _report(path).diagnostics if d.code == "SJ102"]
    said = "(played already, trick 5: the line repeats trick 5)"
    assert held and all(said in h for h in held[:4])
    assert "repeats" not in " ".join(
        str(d) for d in _report(BROKEN / "not-a-lead.zfn").diagnostics if d.code == "SJ102"
    )


def test_size_errors_say_what_the_record_has_then_what_the_rules_want() -> None:
    # a dabaifen match (one deck: hands of 12, a kitty of 6) judged under bashifen (25, 8)
    path = ROOT / "sample_games" / "shengji" / "05-dabaifen-match.zfn"
    res = runner.invoke(app, ["validate", "--rules", "bashifen", "--json", str(path)])
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    said = {d["message"] for d in found if d["code"] in ("SJ302", "SJ303") and d["hand"] == 1}
    assert said == {
        "Ann's hand has 12 cards; the rules' hand holds 25 (RULES-SHENGJI.md R15)",
        "王芳's hand has 12 cards; the rules' hand holds 25 (RULES-SHENGJI.md R15)",
        "Bo Li's hand has 12 cards; the rules' hand holds 25 (RULES-SHENGJI.md R15)",
        "李娜's hand has 12 cards; the rules' hand holds 25 (RULES-SHENGJI.md R15)",
        "the kitty has 6 cards; the rules' kitty holds 8 (RULES-SHENGJI.md R11)",
    }


def test_what_could_not_be_read_is_reported_in_record_order_with_the_rounds_findings(
    tmp_path: Path,
) -> None:
    text = (ROOT / "sample_games" / "shengji" / "05-dabaifen-match.zfn").read_text("utf-8")
    text = text.replace("levels 3 2 3 2\n", "levles 3 2 3 2\n", 1)  # skipped: its line's ZF001
    text = text.replace("3: Ah  4: 8h", "3: Ah  4: 9d", 1)  # 4 does not hold 9d: SJ102, before
    path = tmp_path / "match.zfn"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["validate", "--json", str(path)])
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    first = [(d["line"], d["code"]) for d in found if d["hand"] == 1]
    assert first[0] == (19, "SJ102") and (33, "ZF001") in first
    assert first == sorted(first, key=lambda x: x[0])
