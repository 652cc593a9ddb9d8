"""How a hand (Sheng ji: round) whose number the record writes again is told apart: by its
occurrence, 2 for the second hand numbered 3, said as the pages say it, `Hand 3 (2nd)`
(RENDER.md, Page names). The page names are zfrec.render.pagenames'; the words are here, below
the record and the diagnostics, which say them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["occurrence_at", "occurrences", "repeat_suffix", "said_at", "with_occurrence"]


def repeat_suffix(occurrence: int) -> str:
    """What a hand's (round's) heading adds when its number was written before: the second
    hand 1 is `Hand 1 (2nd)`; the first, or only, one has nothing.

    >>> repeat_suffix(1), repeat_suffix(2), repeat_suffix(3), repeat_suffix(11)
    ('', ' (2nd)', ' (3rd)', ' (11th)')
    """
    if occurrence <= 1:
        return ""
    last = occurrence % 10 if occurrence % 100 not in (11, 12, 13) else 0
    return f" ({occurrence}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(last, 'th') })"


def occurrences(numbers: Sequence[int]) -> list[int]:
    """Each number's occurrence so far, in record order: 1 for the first hand of a number.

    >>> occurrences([1, 1, 2, 1])
    [1, 2, 1, 3]
    """
    seen: dict[int, int] = {}
    out = []
    for number in numbers:
        seen[number] = seen.get(number, 0) + 1
        out.append(seen[number])
    return out


def occurrence_at(numbers: Sequence[int], index: int) -> int:
    """The occurrence of the hand at `index` of the record's `numbers`: how many hands up to
    it, itself included, have its number (1 for the first, or only, one).

    >>> occurrence_at([1, 2, 1, 1], 3), occurrence_at([1, 2, 1, 1], 1)
    (3, 1)
    """
    number = numbers[index]
    return sum(1 for n in numbers[: index + 1] if n == number)


def said_at(unit: str, numbers: Sequence[int], index: int) -> str:
    """The hand (round) at `index` of the record's `numbers`, as its page is headed: `hand 3`,
    or `hand 3 (2nd)` for the second one written as hand 3.

    >>> said_at("round", [1, 1, 2], 1), said_at("hand", [1, 1, 2], 2)
    ('round 1 (2nd)', 'hand 2')
    """
    return f"{unit} {numbers[index]}{repeat_suffix(occurrence_at(numbers, index))}"


def with_occurrence(entry: dict[str, Any], occurrence: int, after: str = "hand") -> dict[str, Any]:
    """A hand's (round's) or a note's JSON `entry`, with `occurrence` put after its `after`
    key where the number was written before (2 for the second hand 3), as the diagnostics'
    JSON says it; the entry as it is for the first, or only, hand of its number.

    >>> with_occurrence({"hand": 3, "trick": 1}, 2), with_occurrence({"hand": 3}, 1)
    ({'hand': 3, 'occurrence': 2, 'trick': 1}, {'hand': 3})
    """
    if occurrence <= 1:
        return entry
    out: dict[str, Any] = {}
    for name, value in entry.items():
        out[name] = value
        if name == after:
            out["occurrence"] = occurrence
    out.setdefault("occurrence", occurrence)
    return out
