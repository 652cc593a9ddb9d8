"""The JSON Schema of the record format (schemas/record.schema.json), and validation against it.

The schema checks structure only. What it cannot say (a seat number beyond the player count, a
card list that names a card twice) is checked when jsonio builds the typed record, and legality
is the replay's business: three layers, as in DESIGN.md.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from zfrec.errors import Location, NotationError

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_FILE = "record.schema.json"


@cache
def load_schema() -> dict[str, Any]:
    """The record schema as a dict, read from the installed `zfrec.schemas` data package."""
    text = resources.files("zfrec.schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_id() -> str:
    return str(load_schema()["$id"])


def _whole_number(checker: Any, instance: Any) -> bool:
    """JSON Schema counts 2.0 as an integer; a record's seats and scores are whole numbers
    written as such, so only ints (not bools) pass."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator_class() -> Any:
    # jsonschema is imported here, not at module level: reading .zfn text never needs it.
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number)
    extend: Any = validators.extend  # untyped in jsonschema's stubs
    return extend(Draft202012Validator, type_checker=checker)


@cache
def _validator(definition: str | None) -> Draft202012Validator:
    from referencing import Registry, Resource

    strict = _validator_class()
    schema = load_schema()
    if definition is None:
        validator: Draft202012Validator = strict(schema)
        return validator
    registry: Registry[Any] = Registry().with_resource(
        schema["$id"], Resource.from_contents(schema)
    )
    ref = {"$ref": f"{schema['$id']}#/$defs/{definition}"}
    validator = strict(ref, registry=registry)
    return validator


def pointer(path: Any) -> str:
    """A JSON pointer (RFC 6901) for a path of keys and indices; the whole document is `/`."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts) if parts else "/"


def _check(
    validator: Draft202012Validator, data: Any, prefix: tuple[Any, ...], source: str | None
) -> None:
    from jsonschema.exceptions import best_match

    try:
        error = best_match(validator.iter_errors(data))
        if error is None:
            return
        where = pointer((*prefix, *error.absolute_path))
        message = error.message
    except RecursionError:
        raise NotationError("at /: the JSON is nested too deeply", Location(source)) from None
    # The message quotes the offending value, which hostile input makes huge: keep it short.
    if len(message) > _MESSAGE_LIMIT:
        message = message[:_MESSAGE_LIMIT] + "…"
    raise NotationError(f"at {where}: {message}", Location(source))


_MESSAGE_LIMIT = 300


def validate_game(data: Any, prefix: tuple[Any, ...] = (), source: str | None = None) -> None:
    """Check one game object; raise NotationError naming the JSON path of the first problem.

    `prefix` is the game's own path in the document, e.g. `("games", 3)`.
    """
    _check(_validator("game"), data, prefix, source)


def validate_document(data: Any, source: str | None = None) -> None:
    """Check a whole JSON record document: one game, or `{"games": [...]}`."""
    _check(_validator(None), data, (), source)


@cache
def _wrapper_validator() -> Draft202012Validator:
    shape = copy.deepcopy(load_schema()["$defs"]["collection"])
    del shape["properties"]["games"]["items"]
    validator: Draft202012Validator = _validator_class()(shape)
    return validator


def validate_wrapper(data: Any, source: str | None = None) -> None:
    """Check the `{"games": [...]}` wrapper alone, so each game can then be checked (and fail)
    on its own."""
    _check(_wrapper_validator(), data, (), source)
