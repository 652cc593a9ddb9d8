"""Stumbles a newcomer met writing a Sheng ji record by hand: full-width cards, a skipped round
number, the unit word of the summaries, `analyze --round`, a wrong "shows" card at the live
table, and `diff` wording about unknown deals."""

from __future__ import annotations

from pathlib import Path

from zfrec.record.text import dumps_zfn
from zfrec.record.zfn import parse_zfn

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
SJ_SAMPLE = SAMPLES / "shengji" / "01-bashifen-match.zfn"
ZF_SAMPLE = SAMPLES / "02-three-players.zfn"

# Full-width forms as Chinese input methods type them (NFKC reads them as the plain ones).
_WIDE = {c: chr(ord(c) + 0xFEE0) for c in "0123456789TJQKAshdc"}


def _widen(line: str, prefix: str) -> str:
    """`line` (which starts with `prefix`) with the cards after the prefix typed full-width."""
    assert line.startswith(prefix)
    return prefix + "".join(_WIDE.get(c, c) for c in line[len(prefix) :])


def test_full_width_cards_read_as_plain_in_both_games() -> None:
    for path, prefix in ((ZF_SAMPLE, "deal 1: "), (SJ_SAMPLE, "discard ")):
        text = path.read_text(encoding="utf-8")
        line = next(x for x in text.splitlines() if x.startswith(prefix))
        wide = text.replace(line, _widen(line, prefix), 1)
        assert wide != text
        assert dumps_zfn(parse_zfn(wide)) == dumps_zfn(parse_zfn(text)), path.name


def test_full_width_names_and_comments_stay_as_written() -> None:
    text = SJ_SAMPLE.read_text(encoding="utf-8")
    text = text.replace("Ann,", "Ａｎｎ,", 1).replace("{李娜 kept", "{Ｑｃ 李娜 kept", 1)
    out = dumps_zfn(parse_zfn(text))
    assert "Ａｎｎ," in out and "{Ｑｃ 李娜 kept" in out
