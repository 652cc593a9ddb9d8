"""Reports as JSON data: dataclasses dumped by pydantic's `TypeAdapter`, through one helper.

A report's JSON is its dataclass's fields, in order. Where a field is written otherwise, its
type says how:

- `PlayerName`: a seat (0-based) written as its player's name; `PlayerNames`, several seats;
- `PerPlayer[T]`: one value per seat, written as an object keyed by the players' names;
- `CardsText`: a card mask written in the notation (`5s Th`);
- `SortedCounts`: a Counter written as an object sorted by key;
- `Annotated[..., key("from")]`: the JSON key, where it is not the attribute's name;
- `Annotated[..., hidden()]`: a field left out of the JSON.

The players' names come from `dump(obj, players=...)`. Where the JSON is built from a report
rather than copied from it (properties, flattened parts), the module defining the report has a
small view dataclass to dump instead.

pydantic is imported on the first dump, not with the reports: the annotations stay strings
until a `TypeAdapter` resolves them, which keeps `import zfrec` and the CLI quick to start.

    >>> @dataclass
    ... class Taken:
    ...     winner: PlayerName
    ...     cards: CardsText
    ...     points: PerPlayer[int]
    ...     seen_by: Annotated[PlayerNames, key("seen by")]
    ...     note: Annotated[str, hidden()] = ""
    >>> dump(Taken(1, 0b11, (5, 0), (0, 1), "kept out"), players=["Ann", "Bo"])
    {'winner': 'Bo', 'cards': '3s 3h', 'points': {'Ann': 5, 'Bo': 0}, 'seen by': ['Ann', 'Bo']}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, TypeVar, cast

from zfrec.games.zhengfen.engine.cards import format_cards

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter
    from pydantic.fields import FieldInfo
    from pydantic_core import CoreSchema

T = TypeVar("T")


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def adapter(kind: type[T]) -> TypeAdapter[T]:
    """The `TypeAdapter` of a dataclass, built once per class (building one takes milliseconds;
    dumping with it, microseconds)."""
    found = _ADAPTERS.get(kind)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[kind] = TypeAdapter(kind)
    return found


def dump(obj: object, *, players: Sequence[str] | None = None) -> Any:
    """A dataclass as plain JSON data (dicts, lists, str, int, float, bool, None).

    `players` names the seats for the fields typed `PlayerName`, `PlayerNames`, `PerPlayer`.
    A field holding a value of another type than its annotation is an error, not a guess.

    >>> @dataclass
    ... class Point:
    ...     x: int
    ...     y: tuple[int, ...]
    >>> dump(Point(1, (2, 3)))
    {'x': 1, 'y': [2, 3]}
    """
    context = None if players is None else {"players": list(players)}
    return adapter(type(obj)).dump_python(
        obj, mode="json", by_alias=True, context=context, warnings="error"
    )


def key(name: str) -> FieldInfo:
    """Field metadata: the field's JSON key is `name` (for keys that are Python keywords, or
    where the JSON's word differs from the attribute's)."""
    from pydantic import Field

    info: FieldInfo = Field(serialization_alias=name)
    return info


def hidden() -> FieldInfo:
    """Field metadata: the field is left out of the JSON."""
    from pydantic import Field

    info: FieldInfo = Field(exclude=True)
    return info


def omitted_if_none() -> FieldInfo:
    """Field metadata: the field is left out of the JSON where it is None (a key that only
    some objects have, so that the others are written as before it was added)."""
    from pydantic import Field

    info: FieldInfo = Field(exclude_if=lambda value: value is None)
    return info


# --- writing a value otherwise -------------------------------------------------------------------


def _players(info: Any) -> list[str]:
    context = info.context
    if not isinstance(context, dict) or "players" not in context:
        raise ValueError("seats are written as names: pass dump(..., players=[...])")
    players: list[str] = context["players"]
    return players


def _name(seat: int, info: Any) -> str:
    return _players(info)[seat]


def _names(seats: Sequence[int], info: Any) -> list[str]:
    players = _players(info)
    return [players[s] for s in seats]


def _by_name(values: Sequence[Any], handler: Callable[[Any], Any], info: Any) -> dict[str, Any]:
    # zip, not strict: a game that stopped before its first hand has no scores yet.
    return dict(zip(_players(info), handler(values), strict=False))


def _sorted_counts(counts: Counter[str]) -> dict[str, int]:
    return dict(sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class _WrittenAs:
    """Annotated metadata: serialise the value with `function` (plain, or wrapping the value's
    own serialisation); pydantic calls `__get_pydantic_core_schema__` when it builds an adapter,
    so pydantic_core is imported then, not here."""

    function: Callable[..., Any]
    returns: Callable[[], CoreSchema]
    info: bool = False
    wrap: bool = False

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        schema = cast(dict[str, Any], handler(source))
        make = (
            cs.wrap_serializer_function_ser_schema
            if self.wrap
            else cs.plain_serializer_function_ser_schema
        )
        schema["serialization"] = make(
            self.function, info_arg=self.info, return_schema=self.returns()
        )
        return cast("CoreSchema", schema)


def written_with(function: Callable[[Any], Any]) -> _WrittenAs:
    """Annotated metadata: the value is written as `function(value)`, which returns JSON data
    (for a type whose JSON is a view of it, such as `Diagnostic`)."""
    return _WrittenAs(function, _any)


def _any() -> CoreSchema:
    from pydantic_core import core_schema as cs

    return cs.any_schema()


def _str() -> CoreSchema:
    from pydantic_core import core_schema as cs

    return cs.str_schema()


def _str_list() -> CoreSchema:
    from pydantic_core import core_schema as cs

    return cs.list_schema(cs.str_schema())


def _object() -> CoreSchema:
    from pydantic_core import core_schema as cs

    return cs.dict_schema(cs.str_schema(), cs.any_schema())


PlayerName: TypeAlias = Annotated[int, _WrittenAs(_name, _str, info=True)]
"""A seat (0-based), written as its player's name."""

PlayerNames: TypeAlias = Annotated[tuple[int, ...], _WrittenAs(_names, _str_list, info=True)]
"""Seats, written as a list of the players' names."""

PerPlayer: TypeAlias = Annotated[tuple[T, ...], _WrittenAs(_by_name, _object, True, True)]
"""One value per seat, written as an object keyed by the players' names."""

CardsText: TypeAlias = Annotated[int, _WrittenAs(format_cards, _str)]
"""A card mask, written in the notation: `5s Th Kd`."""

SortedCounts: TypeAlias = Annotated[Counter[str], _WrittenAs(_sorted_counts, _object)]
"""Counts by name, written as an object sorted by name."""


__all__ = [
    "CardsText",
    "PerPlayer",
    "PlayerName",
    "PlayerNames",
    "SortedCounts",
    "adapter",
    "dump",
    "hidden",
    "key",
    "written_with",
]
