"""The fast paths of the .zfn reader read exactly what the general path reads.

zfn.py reads the common line shapes (`hand N shuffler S`, `deal S: cards`, `S: cards  S: -`,
`score ... total ...`) without the lexer, and hands every other line to the general path. Here
both paths read the same texts and must give the same games, down to the position of every
element and the `source` (fields that take no part in `==`), and the same errors at the same
places. The texts are canonical records, simulated games, the sample games, and all of them
mutated at random so that lines fall just inside and just outside the fast shapes.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.record_strategies import games
from zfrec.engine.cards import DECK_SIZE, card_str
from zfrec.engine.rules import preset
from zfrec.errors import NotationError
from zfrec.record.lexer import Lexer, parse_cards_word
from zfrec.record.model import Game, Move, Trick
from zfrec.record.zfn import _CARD_BITS, _Reader, dumps_zfn, lines_of, parse_zfn
from zfrec.simulate import SimConfig, simulate_game

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_games").rglob("*.zfn"))


def snapshot(value: object) -> object:
    """`value` as nested plain data, with every dataclass field, `pos` and `source` included."""
    if is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            tuple((f.name, snapshot(getattr(value, f.name))) for f in fields(value)),
        )
    if isinstance(value, NotationError):
        return ("NotationError", str(value), snapshot(value.location))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(snapshot(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, snapshot(v)) for k, v in value.items()))
    assert value is None or isinstance(value, str | int | bool), value
    return value


def read(text: str, fast: bool) -> list[object]:
    """Snapshots of what the reader yields for `text`: each game, or the error that spoiled it."""
    return [snapshot(item) for item in _Reader("t.zfn", fast).run(lines_of(text))]


def assert_same(text: str) -> list[object]:
    fast = read(text, fast=True)
    assert fast == read(text, fast=False)
    return fast


def lexed(text: str, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Numbers of the body lines that the fast reader handed to the lexer (tag lines left out)."""
    seen: list[int] = []
    feed = Lexer.feed

    def spy(self: Lexer, line: str, number: int, start: int = 0) -> object:
        if start == 0:
            seen.append(number)
        return feed(self, line, number, start)

    with monkeypatch.context() as patch:
        patch.setattr(Lexer, "feed", spy)
        read(text, fast=True)
    return seen


def simulated(players: int, seed: int, hands: int | None = 2, bot: str = "greedy") -> Game:
    return simulate_game(SimConfig(players, preset("pagat"), bot, hands), seed)


def plain(game: Game) -> Game:
    """`game` without annotations, comments and disputes on its moves and tricks.

    Random records nearly always have one of those on some move of a trick, which sends the
    whole trick line to the general path; without them, most trick lines are in the fast shape.
    """
    hands = [
        replace(
            hand,
            tricks=[
                Trick([Move(m.seat, m.is_pass, m.cards, m.declarations) for m in trick.moves])
                for trick in hand.tricks
            ],
        )
        for hand in game.hands
    ]
    return replace(game, hands=hands)


# --- whole records -----------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games())
def test_canonical_records_read_the_same(game: Game) -> None:
    text = dumps_zfn(game)
    [snap] = assert_same(text)
    assert snap == snapshot(parse_zfn(text, "t.zfn")[0])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games().map(plain))
def test_plain_records_read_the_same(game: Game) -> None:
    text = dumps_zfn(game)
    [snap] = assert_same(text)
    assert snap == snapshot(parse_zfn(text, "t.zfn")[0])


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulated_games_read_the_same_and_take_the_fast_path(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = simulated(players, seed=players, hands=3, bot="random" if players % 2 else "greedy")
    text = dumps_zfn(game)
    assert parse_zfn(text) == [game]
    # Only the first hand line goes to the lexer: it ends the header, which the general path
    # checks. Every later line of a simulated game is in a fast shape.
    first_hand = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("hand"))
    assert lexed(text, monkeypatch) == [first_hand]


def test_a_game_to_the_target_reads_the_same() -> None:
    game = simulated(4, seed=11, hands=None)
    assert len(game.hands) > 3
    text = dumps_zfn(game)
    assert_same(text)
    assert parse_zfn(text) == [game]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_games_read_the_same(path: Path) -> None:
    assert_same(path.read_text("utf-8-sig"))


# --- mutated records ---------------------------------------------------------------------------

# Edits use the characters of the fast shapes and the ones that must push a line off them.
EDIT_TEXT = st.sampled_from(
    [
        " ", "  ", ":", "：", "-", "?", "?3", "!", "?!", "=", ",", "0", "1", "2", "7", "9", "10",
        "12", "3s", "Th", "10h", "sj", "BJ=8h", "SJ=", "3x", "pass", "PASS", "过", "disputed",
        'disputed "x"', "total", "score", "deal", "hand", "shuffler", "{c}", "{", "}", "; c",
        '"', "\t", "\u00a0", "١", "[", "1: ", "  2: -", "East", "Zhang 张", "7h7s", "3s,4s",
    ]
)  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` with a few lines edited: characters inserted, deleted or replaced, lines swapped."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        at = draw(st.integers(0, len(line)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "swap"]))
        if op == "insert":
            lines[i] = line[:at] + draw(EDIT_TEXT) + line[at:]
        elif op == "delete":
            lines[i] = line[:at] + line[at + draw(st.integers(1, 4)) :]
        elif op == "replace":
            lines[i] = line[:at] + draw(EDIT_TEXT) + line[at + draw(st.integers(1, 3)) :]
        elif op == "duplicate":
            lines.insert(i, line)
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


SIMULATED_TEXTS = [dumps_zfn(simulated(n, seed=n, hands=1)) for n in (3, 4, 6)]
SAMPLE_TEXTS = [path.read_text("utf-8-sig") for path in SAMPLES]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SIMULATED_TEXTS + SAMPLE_TEXTS).flatmap(mutated))
def test_mutated_records_read_the_same(text: str) -> None:
    assert_same(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games().flatmap(lambda game: mutated(dumps_zfn(game))))
def test_mutated_random_records_read_the_same(text: str) -> None:
    assert_same(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games().map(plain).flatmap(lambda game: mutated(dumps_zfn(game))))
def test_mutated_plain_records_read_the_same(text: str) -> None:
    assert_same(text)


# --- lines at the edge of the fast shapes --------------------------------------------------------

HEAD = '[Players "Ann, Bo, Cy, Di"]\n\nhand 1\n'
# "Bo 2": a colon after `2` might end that name, so lines with `2:` take the general path.
NAMES_HEAD = '[Players "Ann, Bo 2, Cy, Di"]\n\nhand 1\n'
DEAL = "deal 1: 3s 4s\ndeal 2: ?2\ndeal 3: 5s ?\ndeal 4: ?0 6s 7s\n"


@pytest.mark.parametrize(
    "body",
    [
        # Good lines in fast shapes, and spellings the fast paths leave to the lexer.
        "1: 3s  3: -  4: 4s\n",
        "1: 3s 3: - 4: 4s  \n",
        "1:  3s   3: pass  4: PASS\n",
        "1: 10h Th\n",
        "1: 10h 10s  3: 7h7s  4: 3s,4s\n",
        "1: sj=8h bj=8s 8h  3: -\n",
        "1: BJ=8 SJ=8h 8s\n",
        "1: 3s\n{after}\n1: 4s ; after\n",
        "1: 3s  3:-\n",
        "1 : 3s\n",
        "01: 3s\n",
        " 1: 3s\n",
        "1: 3s\t\n",
        "1: 3s\u00a0 3: 4s\n",
        "1: 3s!  3: -?\n",
        '1: 3s disputed "x"  3: -\n',
        "1: 3s disputed\n",
        "Ann: 3s  Bo 2: 4s  2: 5s\n",
        "1: 3s  Bo 2: 4s\n",
        "١: 3s\n",
        "1：3s\n",
        # Errors: each must come from the general path, at the same place.
        "1: 3s  5: 4s\n",
        "1: 3s  0: 4s\n",
        "1: 3s 3s\n",
        "1: 3s3s\n",
        "1: - 3s\n",
        "1: 3s -\n",
        "1: - -\n",
        "1: 3x\n",
        "1: 3s  3:\n",
        "1: 3s  3: \n",
        "1: ,\n",
        "1: =\n",
        "1: 3s=8h\n",
        "1: SJ=\n",
        "1: SJ=1\n",
        "1: 3s  2:: 4s\n",
        "score 1 2 3 4\n1: 3s\n",
        "1: 3s\ndisputed\n",
        ":\n",
        "1:\n",
    ],
)
def test_trick_lines(body: str) -> None:
    for head in (HEAD, NAMES_HEAD):
        assert_same(head + DEAL + body)
        assert_same(head + body)  # no deal


@pytest.mark.parametrize(
    "body",
    [
        "deal 1: 3s 4s\n",
        "deal 1: 3s 4s  \n",
        "deal 1:   3s,4s 5s5h ?  ?12\n",
        "deal 1: ?18\n",
        "deal 1:\n",
        "deal 1: 3s 3s\n",
        "deal 1: 3s 3S\n",
        "deal 1: 3s 3s3h\n",
        "deal 1: SJ=8h\n",
        "deal 1: ?x\n",
        "deal 1: ??\n",
        "deal 1: 3s?\n",
        "deal 1: -\n",
        "deal 5: 3s\n",
        "deal 2: 3s\n",
        "deal 01: 3s\n",
        "deal 1: 3s\ndeal 1: 4s\n",
        "Deal 1: 3s\n",
        "deal Ann: 3s\n",
        "deal Bo 2: 3s\n",
        "1: 3s\ndeal 3: 4s\n",
        "deal 1: 3s {c}\n",
    ],
)
def test_deal_lines(body: str) -> None:
    for head in (HEAD, NAMES_HEAD):
        assert_same(head + body)
        assert_same(head + body + "deal 3: ?\ndeal 4: ?\nhand 2\n")  # a deal missing a seat


@pytest.mark.parametrize(
    "body",
    [
        "hand 2\n",
        "hand 2 shuffler 3\n",
        "hand 2  shuffler  3 \n",
        "hand 0\n",
        "hand 007\n",
        "hand 2 shuffler 5\n",
        "hand 2 shuffler 2\n",
        "hand 2 shuffler 0\n",
        "hand 2 shuffler=3\n",
        "hand 2 shuffler: 3\n",
        "hand 2 shuffler Cy\n",
        "hand 2 shuffler\n",
        "hand shuffler 3\n",
        "HAND 2\n",
        "hand: 3s\n",
        "score 1 2 3 4\n",
        "score 1 2 3 4 total 5 6 7 8\n",
        "score 1 2 3 4  total  5 6 7 8  \n",
        "score 1 2 3\n",
        "score 1 2 3 4 total 5 6 7\n",
        "score 1 2 3 4 total\n",
        "score 1 2 3 4\nscore 1 2 3 4\n",
        "score 1 2 3 4\n1: 3s\n",
        "score 1 2 3 x\n",
        "score 1 2 3 4 ; c\n",
        "SCORE 1 2 3 4\n",
        "score: 1 2 3 4\n",
    ],
)
def test_hand_and_score_lines(body: str) -> None:
    for head in (HEAD, NAMES_HEAD):
        assert_same(head + body + "1: 3s\n")
        assert_same(head + DEAL + body)
        assert_same(head + "deal 1: 3s\n" + body)  # closing a hand whose deal misses seats


def test_lines_before_the_first_hand_and_after_errors() -> None:
    assert_same('[Players "a, b, c"]\n1: 3s\nhand 1\n1: 3s\n')
    assert_same('[Players "a, b, c"]\ndeal 1: 3s\nhand 1\n')
    assert_same('[Players "a, b, c"]\nscore 1 2 3\n')
    assert_same('[Players "a, b, c"]\nhand 1\n1: 3x\n1: 3s\n\n[Players "a, b, c"]\nhand 1\n1: 3s\n')
    assert_same('[Players "a, b"]\nhand 1\n1: 3s\n')
    assert_same('[Players "a, b, c"] {open\n1: 3s\n}\nhand 1\n1: 3s {open\n1: 3s\n}\n2: 4s\n')
    assert_same('[Players "a, b, c"]\nhand 1\n1: 3s\n{never closed\n1: 4s\n')


def test_names_ending_in_a_seat_number_take_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = NAMES_HEAD + "1: 3s  3: 4s\n1: 5s  2: 6s\nscore 1 2 3 4\n"
    assert lexed(text, monkeypatch) == [3, 5]  # the first hand line, and the line with `2:`
    assert lexed(text.replace("Bo 2", "Bo"), monkeypatch) == [3]


def test_card_bits_are_the_canonical_spellings() -> None:
    for card in range(DECK_SIZE):
        assert parse_cards_word(card_str(card)) == (1 << card, ())
        assert _CARD_BITS[card_str(card)] == 1 << card
