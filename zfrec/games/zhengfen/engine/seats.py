"""Seats: how the engine counts them, and the `Seat` type that public events and reports use.

The engine numbers the seats of a table of `n` players 0..n-1 in play order (RULES.md R1).
Records and people number them from 1. A `Seat` is both: an `int` holding the 0-based index,
so it indexes lists and compares with the engine's numbers, whose `str()` and `repr()` show the
record's 1-based number.

    >>> s = Seat(0)
    >>> s == 0, ["Ann", "Bo", "Cy"][s], s.number, str(s), s
    (True, 'Ann', 1, '1', seat 1)
    >>> seat(2) is seat(2)
    True
"""

from __future__ import annotations

MIN_SEATS, MAX_SEATS = 3, 6


class Seat(int):
    """A seat: the 0-based index as an int, shown as the 1-based number records use.

    Arithmetic gives plain ints (`Seat(1) + 1 == 2`). JSON writes the int value, the 0-based
    index; use `.number` for the record's number.
    """

    __slots__ = ()

    @property
    def number(self) -> int:
        """The seat's number as records write it: 1 for the first seat."""
        return int(self) + 1

    @property
    def index(self) -> int:
        """The 0-based index, as a plain int."""
        return int(self)

    def __str__(self) -> str:
        return str(int(self) + 1)

    def __repr__(self) -> str:
        return f"seat {int(self) + 1}"


_SEATS = tuple(Seat(i) for i in range(MAX_SEATS))


def seat(index: int) -> Seat:
    """The `Seat` of a 0-based index (shared objects for the six seats a table can have)."""
    if 0 <= index < MAX_SEATS:
        return _SEATS[index]
    return Seat(index)


def seats(n: int) -> tuple[Seat, ...]:
    """The seats of a table of `n` players, in play order."""
    return tuple(seat(i) for i in range(n))


# NEXT[n][s] is the seat after s at a table of n (the right-hand neighbour, R1).
NEXT: dict[int, tuple[int, ...]] = {
    n: tuple((s + 1) % n for s in range(n)) for n in range(1, MAX_SEATS + 1)
}
