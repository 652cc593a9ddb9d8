"""Writes tests/data/sj_perft.json: Sheng ji perft counts from fixed deals, through the engine's
round state machine (`zfrec.games.shengji.perft`), for tests/test_sj_perft.py and for the
separate brute-force referee (tests/sj_ref.py) to check.

    .venv/bin/python -m tests.data.make_sj_perft

Each position: its rules preset and options, the trump as `--trump` writes it, each seat's cards
in play order, the 1-based leader, and perft(1), perft(2), ... up to the round's end (or to
`depth` for the larger positions). The file's "definition" says what a node is.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from zfrec.games.shengji.cards import parse_hand
from zfrec.games.shengji.order import parse_trump
from zfrec.games.shengji.perft import DEFINITION, RoundState, perft_counts
from zfrec.games.shengji.rules import sj_preset

OUT = Path(__file__).resolve().parent / "sj_perft.json"

# name, rules, options, trump, hands, leader (1-based), depth (None: to the round's end)
POSITIONS: list[tuple[str, str, dict[str, Any], str, list[str], int, int | None]] = [
    ("singles", "bashifen", {}, "7c", ["Ad 3s Kc", "Kd 5s 7h", "Td 4h 2c", "6d 8s SJ"], 1, None),
    ("no-trump", "bashifen", {}, "2", ["2s 2h BJ", "2d 2d Ah", "SJ SJ 3c", "Kh 5h 2c"], 1, None),
    (
        "pairs-tractor", "bashifen", {}, "7c",
        ["8d 8d 6d 6d", "9d 9d Jd 3s", "Jc Qc 5c 5c", "Td 2s Kh Kh"], 1, None,
    ),
    (
        "throw-fails", "bashifen", {}, "7c",
        ["Kd Qd Qd 3h", "Ad 3s 4s Td", "Jd Jd 5c 5c", "Tc Tc 4c Kd"], 1, None,
    ),
    (
        "rank-card-tractor", "bashifen", {}, "7c",
        ["Ac Ac 7d 7d", "7s 7s 7c 3c", "BJ SJ Kc 5d", "9c 9c 8c 8c"], 1, None,
    ),
    ("dabaifen", "dabaifen", {}, "Qh", ["Qs Ah Kh", "Jh 9h 3c", "Qh SJ Td", "BJ 8h 2h"], 2, None),
    (
        "zhaopengyou-5", "zhaopengyou", {"players": 5}, "5s",
        ["As As 3h", "5d 5h Kh", "Ks Qs Qs", "Th 9h 8h", "SJ 2s Jd"], 1, None,
    ),
    (
        "larger", "bashifen", {}, "9h",
        [
            "Ah Ah Kh Qh Qh 9s 9s 5d Td 3c",
            "Jh Jh Th Th 9c As Ks Ks 4d 4d",
            "BJ SJ 9h 6h 6h 5h 5s 5s Jd 2c",
            "8h 8h 7h 2h Qs Qs Ad Kd Kc Kc",
        ],
        1, 5,
    ),
]  # fmt: skip


def position(
    name: str, rules: str, options: dict[str, Any], trump: str, hands: list[str], leader: int,
    depth: int | None,
) -> dict[str, Any]:  # fmt: skip
    rs = sj_preset(rules, **options)
    held = [parse_hand(h, rs.decks) for h in hands]
    state = RoundState.from_hands(held, parse_trump(trump), leader - 1, rs)
    full = depth is None
    counts = perft_counts(state, depth or sum(len(h.split()) for h in hands) + 1)
    if full:
        counts = counts[: max(i for i, c in enumerate(counts) if c) + 1]
    return {
        "name": name, "rules": rules, "options": options, "trump": trump, "hands": hands,
        "leader": leader, "to_end": full, "counts": counts,
    }  # fmt: skip


def main() -> None:
    out = []
    for spec in POSITIONS:
        start = time.perf_counter()
        out.append(position(*spec))
        print(f"{spec[0]}: {out[-1]['counts']} ({time.perf_counter() - start:.1f} s)")
    data = {
        "about": "Sheng ji perft counts from fixed deals, made by tests/data/make_sj_perft.py "
        "through zfrec.games.shengji's round state machine. Seats and the leader are 1-based, "
        "in play order; hands are written as Zheng Fen writes cards, a card of two decks "
        "as often as it is held. 'to_end': the counts run to the round's end (the last entry "
        "is the deepest depth any sequence reaches); else to the depth given.",
        "definition": DEFINITION,
        "positions": out,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
