"""A new scribe's Sheng ji match, written by hand (tests/data/sj_scribe: night.zfn is the clean
record, the others carry one usual mistake each): what the validator says of each, and what
`zfrec import` stores of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from tests.test_sj_newcomer import zfrec
from tests.test_store import _import, engine, games, store_url
from zfrec.cli import app
from zfrec.diagnostics import Diagnostic
from zfrec.errors import NotationError
from zfrec.record import loads
from zfrec.validate import validate_path

__all__ = ["engine", "games", "store_url"]  # fixtures, shared with tests/test_store.py

DATA = Path(__file__).resolve().parent / "data" / "sj_scribe"


def _found(name: str) -> list[tuple[str, int | None, str]]:
    found = []
    for item in validate_path(DATA / name):
        for d in getattr(item, "diagnostics", [item]):
            found.append((d.code, d.location.line, str(d)))
    return found


def test_the_clean_record_is_legal() -> None:
    assert _found("night.zfn") == []


def test_a_trick_dropped_before_the_rounds_written_end_is_an_error() -> None:
    # round 2 has no deal lines, its 7th trick is dropped, and its points line says 999
    found = _found("mt2.zfn")
    assert [(c, line) for c, line, _ in found] == [("SJ210", 60), ("SJ501", 60)]
    assert found[0][2].endswith(
        "error SJ210: the round's end is written after trick 18, but each seat plays 24 cards "
        "of the 25 a hand holds: a trick is missing; no score is computed for it "
        "(RULES-SHENGJI.md R7, R11)"
    )
    assert "the opponents cannot take 999 points in tricks: the decks hold 200" in found[1][2]


def test_a_record_that_stops_with_no_end_written_is_only_unfinished(tmp_path: Path) -> None:
    # the same round without its points, result and levels lines: it may still be written
    text = (DATA / "mt2.zfn").read_text(encoding="utf-8").splitlines()
    cut = "\n".join(line for line in text[:-3]) + "\n"
    path = tmp_path / "sj_scribe_cut.zfn"
    path.write_text(cut, encoding="utf-8")
    codes = [d.code for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]
    assert codes == ["SJ205"]


def test_a_wrong_next_dealer_does_not_blame_the_right_dealer_line() -> None:
    # `next 3` where 王芳 (seat 2) deals next: round 2's `dealer 2` is right
    found = _found("n6.zfn")
    assert [(c, line) for c, line, _ in found] == [("SJ504", 37)]


def test_a_dealer_line_following_the_wrong_next_follows_from_it(tmp_path: Path) -> None:
    text = (DATA / "n6.zfn").read_text(encoding="utf-8")
    path = tmp_path / "n6c.zfn"
    path.write_text(text.replace("round 2 dealer 2", "round 2 dealer 3"), encoding="utf-8")
    found = [d for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]
    sj304 = [d for d in found if d.code == "SJ304"]
    assert [str(d.cause) for d in sj304] == ["37:1"]
    assert "王芳 deals round 2, not 李娜" in sj304[0].message


def test_a_record_read_in_part_is_stored_flagged_as_validate_judged(engine: Engine) -> None:
    # 李娃 for 李娜 (read as 李娜), a card `5x` (its line skipped), `levles`: validate judges on,
    # and so the store keeps the match, flagged with the same errors
    result = _import(engine, DATA / "n3.zfn")
    assert (result.games, result.added, result.unreadable, result.flagged) == (1, 1, 0, 1)
    codes = sorted(d.code for r in validate_path(DATA / "n3.zfn")
                   for d in getattr(r, "diagnostics", [r]) if d.severity == "error")  # fmt: skip
    assert codes.count("ZF001") == 3 and "SJ210" in codes


def test_a_trick_dropped_is_flagged_by_import(engine: Engine) -> None:
    result = _import(engine, DATA / "mt2.zfn")
    assert (result.added, result.flagged) == (1, 1)


SJ = ("--game", "shengji", "--trump", "2d")


def test_score_refuses_points_no_round_gives(tmp_path: Path) -> None:
    for args, said in [
        (("--points", "300"), "cannot take 300 points in tricks with 0 in the kitty: the decks "
         "hold 200 (ruling 2); more only by throw penalties: --option throw_penalty=N"),
        (("--points", "-20"), "the opponents' points are below 0 (-20) only by throw "
         "penalties: --option throw_penalty=N (ruling 10)"),
        (("--points", "60", "--kitty-points", "250", "--last-winner", "opponents", "--last",
          "Kd"), "a kitty of 8 cards holds at most 80 points, not 250 (ruling 2)"),
        (("--points", "150", "--kitty-points", "60", "--last-winner", "declarers"),
         "cannot take 150 points in tricks with 60 in the kitty"),
    ]:  # fmt: skip
        res = zfrec("score", "--game", "shengji", *args, cwd=tmp_path)
        assert (res.returncode, res.stdout) == (2, ""), args
        assert said in res.stderr, (args, res.stderr)
    # throw penalties can take the opponents below 0
    res = zfrec("score", "--game", "shengji", "--points", "-20", "-o", "throw_penalty=10",
                cwd=tmp_path)  # fmt: skip
    assert (res.returncode, res.stdout.split(":")[0]) == (0, "opponents' total -20")


def test_trick_of_fewer_plays_than_seats_is_not_said_to_be_won(tmp_path: Path) -> None:
    res = zfrec("trick", *SJ, "Ah", "9s", "9d", cwd=tmp_path)
    assert (res.returncode, res.stdout.strip()) == (0, (
        "play 3 (9d) holds the trick so far, with 0 points in it (3 of 4 plays given: the "
        "trick is not over)"))  # fmt: skip
    res = zfrec("trick", *SJ, "Ah", "9s", "9d", "Th", cwd=tmp_path)
    assert res.stdout.strip() == "play 3 (9d) wins 10 points"


def test_legal_says_what_the_hand_lacks(tmp_path: Path) -> None:
    res = zfrec("legal", *SJ, "--lead", "8d 8d", "9d", cwd=tmp_path)
    assert (res.returncode, res.stdout) == (2, "")
    assert res.stderr.strip() == (
        "error: the hand holds 1 card, fewer than the lead's 2: a seat holds as many cards as "
        "the one who led, so give the whole hand (ruling 7)"
    )
    res = zfrec("legal", *SJ, "--lead", "8d 8d", "9d 3s", "--play", "Ad", cwd=tmp_path)
    assert (res.returncode, res.stdout.strip()) == (1, "illegal: the hand does not hold Ad")


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "edited.zfn"
    text = (DATA / "night.zfn").read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _all(path: Path) -> list[Diagnostic]:
    return [d for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]


def test_a_misspelt_preset_is_suggested_and_judged_on(tmp_path: Path) -> None:
    path = _edited(tmp_path, '[Rules "bashifen"]', '[Rules "bashfen"]')
    reports = list(validate_path(path))
    # both rounds judged, as bashifen
    assert [getattr(r, "moves", None) for r in reports] == [156]
    (d,) = _all(path)
    assert (d.code, d.location.line, d.location.col) == ("ZF001", 5, 9)
    assert d.message == (
        "unknown preset 'bashfen': presets are bashifen, dabaifen, zhaopengyou; did you mean "
        "bashifen? (read as bashifen)"
    )
    # a strict reader (loads) refuses it, with the suggestion
    with pytest.raises(NotationError, match="did you mean bashifen\\?"):
        loads(path.read_text(encoding="utf-8"))


def test_a_bad_option_value_is_judged_with_the_presets_value(tmp_path: Path) -> None:
    path = _edited(tmp_path, '[Rules "bashifen"]', '[Rules "bashifen, throw_penalty=ten"]')
    reports = list(validate_path(path))
    assert [getattr(r, "moves", None) for r in reports] == [156]
    (d,) = _all(path)
    assert (d.code, d.location.col) == ("ZF001", 19)
    assert d.message == (
        "throw_penalty takes a whole number, not 'ten' (judged with the preset's value of the "
        "option)"
    )


def test_a_short_trick_names_the_seat_whose_play_is_missing(tmp_path: Path) -> None:
    path = _edited(tmp_path, "2: Ac  3: 8c  4: 6c  1: 6c", "2: Ac  3: 8c  1: 6c")
    (d,) = [d for d in _all(path) if d.code == "SJ206"]
    assert d.message == (
        "a trick has 4 plays, one by each seat, not 3 (刘洋's play is missing); the rest of "
        "the round is not judged (RULES-SHENGJI.md R7)"
    )


def _causes(name: str) -> dict[tuple[str, int | None], str | None]:
    causes: dict[tuple[str, int | None], str | None] = {}
    for d in _all(DATA / name):  # the first of a code on a line
        causes.setdefault((d.code, d.location.line), None if d.cause is None else str(d.cause))
    return causes


def test_a_wrong_leader_after_a_wrong_winning_play_follows_from_it() -> None:
    # 王芳 wrote 9d (a trump) for a heart in trick 4 and so wins it; the record has 刘洋 lead
    causes = _causes("night-broken2.zfn")
    assert causes[("SJ201", 19)] is None
    assert causes[("SJ203", 20)] == "19:15"


def test_a_levels_line_wrong_by_its_own_result_line_is_independent() -> None:
    # a trick written twice (21) alters round 1; its levels line `2 3 2 2` is wrong by the
    # written `result declarers +1` as well: a slip of its own
    causes = _causes("n11.zfn")
    assert causes[("SJ102", 21)] is None
    assert causes[("SJ503", 39)] is None


def test_a_wrong_kitty_figure_does_not_blame_the_next_rounds_trump() -> None:
    causes = _causes("n5.zfn")
    assert causes[("SJ502", 37)] is None
    assert causes[("SJ405", 41)] is None


def test_a_misspelt_preset_is_said_also_in_a_game_of_no_rounds(tmp_path: Path) -> None:
    for text, preset in [
        ('[Game "shengji"]\n[Players "a, b, c, d"]\n[Rules "bashfen"]\n', "bashifen"),
        ('[Players "a, b, c"]\n[Rules "popel"]\n', "poppel"),  # and Zheng Fen's, no hands
    ]:
        path = tmp_path / "bare.zfn"
        path.write_text(text, encoding="utf-8")
        (d,) = _all(path)
        assert d.code == "ZF001" and d.message.endswith(f"(read as {preset})"), d


def _validate_text(tmp_path: Path, text: str) -> list[Diagnostic]:
    path = tmp_path / "record.zfn"
    path.write_text(text, encoding="utf-8")
    return [d for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]


def test_a_trick_missing_is_no_consequence_of_the_wrong_leader_it_makes(tmp_path: Path) -> None:
    # the dabaifen sample without round 1's 7th trick: the record's next leader is wrong
    # (SJ203, the gap's symptom), and the gap is the record's own, following from nothing
    sample = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
    lines = (sample / "05-dabaifen-match.zfn").read_text(encoding="utf-8").splitlines()
    assert lines[24] == "3: Qs  4: 7s  1: Kd  2: 3s"
    found = _validate_text(tmp_path, "\n".join(lines[:24] + lines[25:]) + "\n")
    assert [(d.code, d.location.line) for d in found] == [("SJ203", 25), ("SJ210", 30)]
    assert found[1].cause is None


def test_levels_after_a_gap_with_no_levels_line_follow_from_the_gap(tmp_path: Path) -> None:
    # round 1 loses its 10th trick and writes only its points: no score, no levels, so the
    # levels round 2 goes on from are not known, and its levels line differing follows from it
    lines = (DATA / "night.zfn").read_text(encoding="utf-8").splitlines()
    assert lines[24] == "1: Ks  2: Qs  3: 5s  4: 5s" and lines[36:38] == [
        "result declarers +1 next 2",
        "levels 2 3 2 3",
    ]
    found = _validate_text(tmp_path, "\n".join(lines[:24] + lines[25:36] + lines[38:]) + "\n")
    codes = [(d.code, d.location.line) for d in found]
    assert ("SJ210", 35) in codes and codes[-1] == ("SJ503", 60)
    assert found[-1].cause is not None and found[-1].cause.line == 35


def test_a_preset_read_as_meant_suggests_it_as_a_fix(tmp_path: Path) -> None:
    # as a misspelt name's (read as ...) does: the fix an editor applies, over the word
    sample = Path(__file__).resolve().parent.parent / "sample_games" / "01-annotated-club-night.zfn"
    text = sample.read_text(encoding="utf-8").replace('[Rules "pagat"]', '[Rules "Pagta"]')
    found = [d for d in _validate_text(tmp_path, text) if d.code == "ZF001"]
    assert len(found) == 1 and found[0].message.endswith("(read as pagat)")
    fix = found[0].fix
    assert fix is not None and (fix.line, fix.col, fix.end_col, fix.text) == (5, 9, 14, "pagat")


@pytest.mark.parametrize("game", ["zhengfen", "shengji"])
def test_a_header_read_past_is_the_games_not_its_first_hands(tmp_path: Path, game: str) -> None:
    # as in a game with no hand: the header precedes every hand, so none is named
    if game == "shengji":
        text = (DATA / "night.zfn").read_text(encoding="utf-8")
        text = text.replace('[Rules "bashifen"]', '[Rules "bashifne"]')
    else:
        sample = Path(__file__).resolve().parent.parent / "sample_games"
        text = (sample / "01-annotated-club-night.zfn").read_text(encoding="utf-8")
        text = text.replace('[Rules "pagat"]', '[Rules "pagta"]')
    found = [d for d in _validate_text(tmp_path, text) if d.code == "ZF001"]
    assert len(found) == 1 and (found[0].location.line, found[0].location.hand) == (5, None)
    assert "[game 1]: error ZF001: unknown preset" in str(found[0])


def test_a_trick_missing_in_a_round_the_next_round_ends_is_an_error(tmp_path: Path) -> None:
    # round 1 loses its 10th trick and its points, result and levels lines, and round 2
    # follows: the record does not stop there, so plays are missing (SJ210), not a warning
    lines = (DATA / "night.zfn").read_text(encoding="utf-8").splitlines()
    assert lines[24] == "1: Ks  2: Qs  3: 5s  4: 5s" and lines[35].startswith("points")
    found = _validate_text(tmp_path, "\n".join(lines[:24] + lines[25:35] + lines[38:]) + "\n")
    codes = [(d.code, d.location.line) for d in found]
    assert ("SJ205", 34) not in codes and ("SJ210", 34) in codes
    (gap,) = [d for d in found if d.code == "SJ210"]
    assert gap.message.startswith("round 2 is written after trick 19, but each seat plays 24")
    assert str(found[-1].cause) == "34:1"  # round 2's levels, not known after the gap


def test_a_trick_missing_in_a_record_read_without_places(tmp_path: Path) -> None:
    """A stored game or a JSON record has its points line but no places: SJ210 took the line's
    missing place for "no end line written" and looked for the next round (IndexError, exit 3,
    in `publish` of the demo's store)."""
    sample = Path(__file__).resolve().parent.parent / "sample_games" / "shengji" / "broken"
    target = tmp_path / "trick-missing.json"
    runner = CliRunner()
    converted = runner.invoke(app, ["convert", str(sample / "trick-missing.zfn"), str(target)])
    assert converted.exit_code == 0, converted.output
    result = runner.invoke(app, ["validate", str(target), "--json"])
    assert result.exit_code == 1, result.output
    codes = [d["code"] for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]]
    assert "SJ210" in codes, codes


def test_a_skipped_trick_line_is_placed_in_its_trick(tmp_path: Path) -> None:
    # round 2's seventh trick line, with a card that cannot be read: the line costs only
    # itself, and its finding says which trick it is, as the reader numbers the round's tricks
    path = _edited(tmp_path, "2: Ac  3: 8c  4: 6c  1: 6c", "2: Ac  3: qq  4: 6c  1: 6c")
    (d,) = [d for d in _all(path) if d.code == "ZF001"]
    where = d.location
    assert (where.line, where.col, where.hand, where.trick, where.turn) == (48, 11, 2, 7, 2)
    assert str(d).startswith(f"{path}:48:11 [game 1, round 2, trick 7, turn 2")
    # a card that cannot be read in a line read on (the move goes on without it): its trick too
    path = _edited(tmp_path, "2: Jh Jh  3: Qh Qh", "2: Jh Jh  3: Qh Qx")
    (d,) = [d for d in _all(path) if d.code == "ZF001"]
    assert (d.location.line, d.location.col, d.location.hand, d.location.trick) == (44, 17, 2, 3)
    # a bids line skipped is no trick: its round only
    path = _edited(tmp_path, "bids 3: 3d  2: SJ SJ", "bids 3: 3d  2: SJ SQ")
    (d,) = [d for d in _all(path) if d.code == "ZF001"]
    assert (d.location.line, d.location.hand, d.location.trick) == (41, 2, None)
