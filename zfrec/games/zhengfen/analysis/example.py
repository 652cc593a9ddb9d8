"""A small record to try the analysis on; the examples in this package's docstrings use it.

Ann leads 3h; Bo plays 4c and Cy passes though a Queen would beat it; Ann's 5s is left to her
by Bo and Cy, who both could have beaten it (missed beats, with 5 points on the table). Bo's
Ten goes into the trick Cy takes (10 points conceded); Cy leads a pair of Queens with the small
joker as a Queen, then the special four 2s. The record stops before the hand ends.

`broken_example()` is the same record with one error: Bo plays 5h on Ann's 5s, which only
equals it (RULES.md R19).

    >>> game = example_game()
    >>> game.players, len(game.hands[0].tricks)
    (['Ann', 'Bo', 'Cy'], 4)
    >>> broken_example().hands[0].tricks[0].moves[4].play_text()
    '5h'
"""

from __future__ import annotations

from zfrec.record import Game, loads

EXAMPLE = """[Players "Ann, Bo, Cy"]
[Rules "pagat"]

hand 1 shuffler 3
deal 1: 3h 3s 3d 3c 4h 4s 4d 5s 6h 6d 6c 7s 7h 7d 7c 8s 8h 8d
deal 2: 4c 5h 5d 5c 6s 8c 9s 9h 9d 9c Ts Th Td Tc Js Jh Jd Jc
deal 3: Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d 2c SJ BJ
1: 3h  2: 4c  3: -  1: 5s  2: -  3: -
1: 4h  2: Th  3: Qs  1: -  2: -
3: Qh SJ=Q  1: -  2: -
3: 2s 2h 2d 2c
"""


def example_game() -> Game:
    """The example record (see the module's docstring), read afresh.

    >>> from zfrec.validate import validate
    >>> [d.code for d in validate(example_game()).diagnostics]  # it stops before the hand ends
    ['ZF206']
    """
    [game] = loads(EXAMPLE)
    return game


def broken_example() -> Game:
    """The example record with Bo's pass at trick 1, turn 5 written as a play of 5h.

    >>> from zfrec.validate import validate
    >>> [d.code for d in validate(broken_example()).diagnostics]
    ['ZF103', 'ZF203', 'ZF206']
    """
    [game] = loads(EXAMPLE.replace("1: 5s  2: -", "1: 5s  2: 5h"))
    return game


__all__ = ["EXAMPLE", "broken_example", "example_game"]
