"""The names of the replay pages, one per hand (Sheng ji: per round), for every page that links
to them: the game page, the replays' previous and next, the analysis and audit pages, the
findings' links, the site and the store's artifacts.

A hand is named by its number, `hand-3.html`, as long as the record writes that number once, so
published addresses stay as they were. A number written again (a merged log, an excerpt: ZF406,
SJ508) still gets a page of its own: the second hand numbered 3 is `hand-3-2.html`, the third
`hand-3-3.html`, in record order. No name reads as another: `hand-N.html` holds one `-`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zfrec.numbering import occurrences, repeat_suffix

__all__ = [
    "REPLAY_PAGE",
    "hand_page",
    "nth_page",
    "occurrences",
    "parse_page_address",
    "parse_replay_page",
    "repeat_suffix",
    "repeated_pages",
    "repeats_line",
    "replay_pages",
]

REPLAY_PAGE = re.compile(r"([a-z]+)-(\d+)(?:-(\d+))?\.html")


def hand_page(number: int) -> str:
    """A Zheng Fen hand's page, the first (or only) hand written with that number."""
    return f"hand-{number}.html"


def nth_page(href: str, occurrence: int) -> str:
    """The page of the `occurrence`-th hand (round) of a number, from the first one's `href`:
    `-K` before the page's extension (or before its query or fragment, where it has none).

    >>> nth_page("hand-3.html", 1), nth_page("hand-3.html", 2), nth_page("round-1.html#step=4", 3)
    ('hand-3.html', 'hand-3-2.html', 'round-1-3.html#step=4')
    >>> nth_page("3?seat=2", 2)
    '3-2?seat=2'
    """
    if occurrence <= 1:
        return href
    cut = min((i for i in (href.find("?"), href.find("#")) if i >= 0), default=len(href))
    path, rest = href[:cut], href[cut:]
    slash = path.rfind("/")
    dot = path.rfind(".")
    if dot <= slash:
        dot = len(path)
    return f"{path[:dot]}-{occurrence}{path[dot:]}{rest}"


def replay_pages(numbers: Sequence[int], page: Callable[[int], str]) -> list[str]:
    """Each hand's (round's) page, in record order, from the hands' numbers and `page`, the
    page of a number written once (`hand_page`): a number written again gets `nth_page`.

    >>> replay_pages([1, 2, 3], hand_page)
    ['hand-1.html', 'hand-2.html', 'hand-3.html']
    >>> replay_pages([1, 1, 2, 1], hand_page)
    ['hand-1.html', 'hand-1-2.html', 'hand-2.html', 'hand-1-3.html']
    """
    return [nth_page(page(n), k) for n, k in zip(numbers, occurrences(numbers), strict=True)]


def repeated_pages(numbers: Sequence[int], names: Sequence[str]) -> dict[int, tuple[str, ...]]:
    """The numbers written more than once, each with its pages in record order.

    >>> repeated_pages([1, 1, 2], replay_pages([1, 1, 2], hand_page))
    {1: ('hand-1.html', 'hand-1-2.html')}
    """
    pages: dict[int, list[str]] = {}
    for number, name in zip(numbers, names, strict=True):
        pages.setdefault(number, []).append(name)
    return {n: tuple(p) for n, p in pages.items() if len(p) > 1}


def repeats_line(unit: str, repeats: dict[int, tuple[str, ...]] | dict[str, list[str]]) -> str:
    """What `render` says of the numbers written more than once, in one line.

    >>> repeats_line("hand", {1: ("hand-1.html", "hand-1-2.html")})
    'hand number 1 is written 2 times: its pages are hand-1.html and hand-1-2.html'
    """
    parts = []
    for number, pages in repeats.items():
        names = ", ".join(pages[:-1]) + f" and {pages[-1]}"
        parts.append(f"{unit} number {number} is written {len(pages)} times: its pages are {names}")
    return "; ".join(parts)


def parse_replay_page(path: str) -> tuple[str, int, int] | None:
    """A replay page's unit, number and occurrence (1: the first hand of that number), or
    None for any other file.

    >>> parse_replay_page("hand-3.html"), parse_replay_page("round-1-2.html")
    (('hand', 3, 1), ('round', 1, 2))
    >>> parse_replay_page("index.html") is None, parse_replay_page("games/1/hand-1.html") is None
    (True, True)
    """
    m = REPLAY_PAGE.fullmatch(path)
    if m is None:
        return None
    return m.group(1), int(m.group(2)), int(m.group(3) or 1)


def parse_page_address(text: str) -> tuple[str, int, int, int | None] | None:
    """A replay page named as a browser's address bar shows it (a bare name, a path, a whole
    address; `?seat=N` left aside) and the step its `#step=K` names: the unit, number,
    occurrence and step (None: no step named), or None when the text names no replay page.
    `zfrec solve --at` reads a page's address so.

    >>> parse_page_address("hand-3.html"), parse_page_address("out/round-1-2.html#step=7")
    (('hand', 3, 1, None), ('round', 1, 2, 7))
    >>> parse_page_address("https://club.example/games/2/hand-10-2.html?seat=1#step=0")
    ('hand', 10, 2, 0)
    >>> [parse_page_address(t) for t in ("hand-1-1.html", "hand-3.html#z=A", "hand-3.html40")]
    [None, None, None]
    """
    path, hashed, fragment = text.strip().partition("#")
    name = re.split(r"[/\\]", path.split("?", 1)[0])[-1]
    m = REPLAY_PAGE.fullmatch(name)
    if m is None or (m.group(3) is not None and int(m.group(3)) < 2):
        return None  # hand-2-1.html, hand-2-0.html: no page is named so (hand-2.html is)
    step = None
    if hashed:
        found = _STEP_FRAGMENT.fullmatch(fragment)
        if found is None:
            return None
        step = int(found.group(1))
    return m.group(1), int(m.group(2)), int(m.group(3) or 1), step


_STEP_FRAGMENT = re.compile(r"step=([0-9]{1,9})")
