"""Hostile and broken input for the readers and the validator, and the check they must pass.

Used by tests/test_hostile.py (a bounded run in `make test`) and scripts/fuzz.py (a long run).
The inputs are random bytes and text, token soup in the notation's alphabet, real records
(sample games, simulated games, random records) with random edits, random JSON, and the JSON of
real records with values replaced at random. `check` reads them as a user's file would be read
and judges every game read; anything raised but a ZfrecError is a bug.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.record_strategies import games
from zfrec.diagnostics import Diagnostic
from zfrec.engine.rules import preset
from zfrec.record import FORMATS, Format, dumps, iter_records_text, loads
from zfrec.record.jsonio import game_to_json
from zfrec.simulate import SimConfig, simulate_game
from zfrec.validate import summarize, validate_games

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_ZFN = [p.read_text("utf-8-sig") for p in sorted((ROOT / "sample_games").rglob("*.zfn"))]
SAMPLE_JSON = [p.read_text("utf-8-sig") for p in sorted((ROOT / "sample_games").rglob("*.json"))]
SIMULATED = [
    simulate_game(SimConfig(n, preset(name), "greedy", 2), seed)
    for seed, (n, name) in enumerate([(3, "pagat"), (4, "poppel"), (5, "parlett"), (6, "pagat")])
]
RECORD_TEXTS = SAMPLE_ZFN + [dumps(g) for g in SIMULATED]
# JSON records are checked against the schema, which takes a while for a long game: short ones.
RECORD_JSON = SAMPLE_JSON + [
    dumps(simulate_game(SimConfig(n, preset("pagat"), "greedy", 1), n), "json") for n in (3, 5)
]

# Pieces that matter to the grammar or have broken readers before: delimiters, keywords, card
# spellings, huge numbers, control characters, quotes, comment marks, and long runs.
PIECES = [
    " ", "  ", "\t", "\n", "\r", "\r\n", ":", "：", "-", "?", "?3", "!", "?!", "=", ",", "0", "1",
    "2", "7", "9", "10", "12", "١", "3s", "Th", "10h", "♥", "\ufe0f", "sj", "BJ=8h", "SJ=", "3x",
    "pass", "过", "disputed", 'disputed "x"', "total", "score", "deal", "hand", "shuffler",
    "{c}", "{", "}", "\\", "\\}", "; c", '"', "“", "”", "[", "]", '[Players "a, b, c"]',
    "[Rules \"pagat target=0\"]", '[Target "0"]', '[Result "1 2 3 winner 9"]', "1: ", "  2: -",
    "East", "Zhang 张", "7h7s", "3s,4s", "9" * 30, "9" * 5000, "?" + "9" * 5000, "\x00", "\x01",
    "\x1b[31m", "\x7f", "\u202e", "\u2028", "\ufeff", "x" * 3000, "{" + "x" * 3000, "\\" * 99,
]  # fmt: skip

piece = st.sampled_from(PIECES)
soup = st.lists(piece | st.text(max_size=5), max_size=60).map("".join)
HEAD = '[Players "Ann, Bo Li, 王芳"]\nhand 1\n'


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    """`text` with a few edits: pieces inserted, characters deleted or replaced, lines moved."""
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "line", "swap"]))
        at = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:at] + draw(piece | st.text(max_size=8)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif op == "replace":
            text = text[:at] + draw(piece) + text[at + draw(st.integers(1, 4)) :]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def _decoded(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


zfn_texts = st.one_of(
    st.binary(max_size=400).map(_decoded),
    st.text(max_size=300),
    soup,
    soup.map(lambda s: HEAD + s),
    st.sampled_from(RECORD_TEXTS).flatmap(edited),
    games().map(dumps).flatmap(edited),
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**18, max_value=10**40)
    | st.floats(allow_nan=True)
    | st.text(max_size=20)
    | piece,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def json_edited(draw: st.DrawFn, text: str) -> str:
    """The JSON of a real record with one to three values replaced by random JSON."""
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        node: Any = data
        path: list[Any] = []
        while isinstance(node, dict | list) and node and draw(st.integers(0, 3)):
            key = draw(
                st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node)))
            )
            path.append(key)
            node = node[key]
        if not path:
            continue
        parent: Any = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = draw(json_values)
    return json.dumps(data, ensure_ascii=draw(st.booleans()))


json_texts = st.one_of(
    json_values.map(json.dumps),
    st.sampled_from(RECORD_JSON).flatmap(json_edited),
    games().map(lambda g: json.dumps(game_to_json(g))).flatmap(json_edited),
    st.sampled_from(RECORD_JSON).flatmap(edited),
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
)


def check(text: str, format: Format) -> int:
    """Read `text` (.zfn or JSON) and validate every game as `zfrec validate` does, then write
    each game back both ways; returns how many games were read. Raises only if something is
    wrong with zfrec: an exception other than ZfrecError, or a game that does not survive being
    written and read again."""
    games_read = 0
    reports = []
    for item in validate_games(iter_records_text(text, format, "fuzz"), "fuzz"):
        if isinstance(item, Diagnostic):
            str(item)  # the message must be printable
            continue
        games_read += 1
        reports.append(item)
        for form in FORMATS:
            assert loads(dumps(item.game, form), form) == [item.game], form
    summarize(iter(reports), "fuzz", keep_json=True, show_deal=True)
    return games_read
