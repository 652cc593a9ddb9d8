"""Hostile and broken input for the readers and the validator, and the check they must pass.

Used by tests/test_hostile.py (a bounded hypothesis run in `make test`) and scripts/fuzz.py (a
long run). The inputs are random bytes and text, token soup in the notation's alphabet, real
records (sample games, simulated games, random records) with random edits, random JSON, and the
JSON of real records with values replaced at random. The generators take a `random.Random`, so
hypothesis drives them in the tests (`st.randoms()`) and the script drives them directly, much
faster. `check` reads an input as `zfrec validate` reads a file and judges every game read;
anything raised but a ZfrecError is a bug.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.record_strategies import games
from zfrec.diagnostics import Diagnostic
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import FORMATS, Format, dumps, iter_records_text, loads
from zfrec.record.jsonio import game_to_json
from zfrec.validate import summarize, validate_games

ROOT = Path(__file__).resolve().parent.parent
_ZF = [p for p in sorted((ROOT / "sample_games").rglob("*")) if "shengji" not in p.parts]
SAMPLE_ZFN = [p.read_text("utf-8-sig") for p in _ZF if p.suffix == ".zfn"]
SAMPLE_JSON = [p.read_text("utf-8-sig") for p in _ZF if p.suffix == ".json"]
SIMULATED = [
    simulate_game(SimConfig(n, preset(name), bot, 2), seed)
    for seed, (n, name, bot) in enumerate(
        [(3, "pagat", "greedy"), (4, "poppel", "random"), (5, "parlett", "greedy"),
         (6, "pagat", "random")]
    )
]  # fmt: skip
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
    "pass", "过", "disputed", 'disputed "x"', " or ", "or -", 'disputed "x" or 3s or -', "total",
    "score", "deal", "hand", "shuffler",
    "{c}", "{", "}", "\\", "\\}", "; c", '"', "“", "”", "[", "]", '[Players "a, b, c"]',
    "[Rules \"pagat target=0\"]", '[Target "0"]', '[Result "1 2 3 winner 9"]', "1: ", "  2: -",
    "East", "Zhang 张", "7h7s", "3s,4s", "9" * 30, "9" * 5000, "?" + "9" * 5000, "\x00", "\x01",
    "\x1b[31m", "\x7f", "\u202e", "\u2028", "\ufeff", "x" * 3000, "{" + "x" * 3000, "\\" * 99,
]  # fmt: skip
HEAD = '[Players "Ann, Bo Li, 王芳"]\nhand 1\n'


def random_text(rng: random.Random, size: int) -> str:
    """Short runs of characters from all over Unicode, weighted toward ASCII."""
    out = []
    for _ in range(rng.randrange(size + 1)):
        top = rng.choice((0x80, 0x80, 0x800, 0x3000, 0x110000))
        code = rng.randrange(top)
        out.append(chr(code) if not 0xD800 <= code < 0xE000 else "?")
    return "".join(out)


def soup(rng: random.Random) -> str:
    """Pieces of the notation and random characters, run together."""
    return "".join(
        rng.choice(PIECES) if rng.random() < 0.8 else random_text(rng, 5)
        for _ in range(rng.randrange(60))
    )


def edit(text: str, rng: random.Random) -> str:
    """`text` with a few edits: pieces inserted, characters deleted or replaced, lines moved."""
    for _ in range(rng.randint(1, 6)):
        op = rng.choice(("insert", "delete", "replace", "line", "swap"))
        at = rng.randint(0, len(text))
        if op == "insert":
            text = (
                text[:at]
                + (rng.choice(PIECES) if rng.random() < 0.7 else random_text(rng, 8))
                + text[at:]
            )
        elif op == "delete":
            text = text[:at] + text[at + rng.randint(1, 40) :]
        elif op == "replace":
            text = text[:at] + rng.choice(PIECES) + text[at + rng.randint(1, 4) :]
        else:
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if op == "line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def random_zfn(rng: random.Random) -> str:
    """One .zfn input of any of the kinds above."""
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randbytes(rng.randrange(400)).decode("utf-8", errors="replace")
    if kind == 1:
        return random_text(rng, 300)
    if kind == 2:
        return soup(rng)
    if kind == 3:
        return HEAD + soup(rng)
    return edit(rng.choice(RECORD_TEXTS), rng)


def json_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value, with the kinds that break readers: huge and fractional numbers,
    NaN, booleans for numbers, odd strings, and nesting."""
    kind = rng.randrange(10 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randint(-10, 100)
    if kind == 3:
        return rng.choice((10**18, 10**40, 2**63, -(2**63), 10**7, 999_999, 55, 7))
    if kind == 4:
        return rng.choice((2.0, 0.5, -1.0, 1e308, float("nan"), float("inf")))
    if kind in (5, 6):
        return rng.choice(PIECES)
    if kind == 7:
        return random_text(rng, 20)
    if kind == 8:
        return [json_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {random_text(rng, 8): json_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def json_edit(text: str, rng: random.Random) -> str:
    """The JSON of a real record with one to three values replaced by random JSON."""
    data = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        node: Any = data
        path: list[Any] = []
        while isinstance(node, dict | list) and node and rng.randrange(4):
            key = rng.choice(sorted(node) if isinstance(node, dict) else range(len(node)))
            path.append(key)
            node = node[key]
        if not path:
            continue
        parent: Any = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = json_value(rng)
    return json.dumps(data, ensure_ascii=rng.random() < 0.5)


def random_json(rng: random.Random) -> str:
    """One JSON input of any of the kinds above."""
    kind = rng.randrange(5)
    if kind == 0:
        return json.dumps(json_value(rng))
    if kind in (1, 2):
        return json_edit(rng.choice(RECORD_JSON), rng)
    if kind == 3:
        return edit(rng.choice(RECORD_JSON), rng)
    depth = rng.randint(1, 3000)
    return "[" * depth + "]" * depth


# Hypothesis drives the same generators, and adds random records (tests/record_strategies).
zfn_texts = st.one_of(
    st.randoms(use_true_random=False).map(random_zfn),
    st.tuples(games(), st.randoms(use_true_random=False)).map(lambda g: edit(dumps(g[0]), g[1])),
)
json_texts = st.one_of(
    st.randoms(use_true_random=False).map(random_json),
    st.tuples(games(), st.randoms(use_true_random=False)).map(
        lambda g: json_edit(json.dumps(game_to_json(g[0])), g[1])
    ),
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
