"""A new scribe's Sheng ji match, written by hand (tests/data/sj_scribe: night.zfn is the clean
record, the others carry one usual mistake each): what the validator says of each, and what
`zfrec import` stores of them."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine

from tests.test_store import _import, engine, games, store_url
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


def test_a_record_that_stops_with_no_end_written_is_only_unfinished() -> None:
    # the same round without its points, result and levels lines: it may still be written
    text = (DATA / "mt2.zfn").read_text(encoding="utf-8").splitlines()
    cut = "\n".join(line for line in text[:-3]) + "\n"
    path = DATA.parent / "sj_scribe_cut.zfn"
    try:
        path.write_text(cut, encoding="utf-8")
        codes = [d.code for r in validate_path(path) for d in getattr(r, "diagnostics", [r])]
    finally:
        path.unlink()
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
