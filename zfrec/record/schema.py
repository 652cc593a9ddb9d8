"""The JSON Schema of the record format (schemas/record.schema.json), and validation against it.

The schema checks structure only. What it cannot say (a seat number beyond the player count, a
card list that names a card twice) is checked when jsonio builds the typed record, and legality
is the replay's business: three layers, as in DESIGN.md.

Validation runs only on JSON that comes from outside (a file, the store's text): a document
jsonio builds from a typed Game conforms by construction, which a property test checks.
Validity is decided by a validator compiled from the schema with fastjsonschema, some twenty
times faster than walking the schema; jsonschema words the message, and only on failure.
A test checks that the two agree on many mutated documents.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from zfrec.errors import Location, NotationError
from zfrec.games import DEFAULT_KIND, GameKind, find_kind, kind_of_preset, kind_problem

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_FILE = "record.schema.json"
_WRAPPER = "<wrapper>"  # the collection without its games' shape


@cache
def load_schema() -> dict[str, Any]:
    """The record schema as a dict, read from the installed `zfrec.schemas` data package."""
    text = resources.files("zfrec.schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_id() -> str:
    """The `$id` of the JSON record schema (schemas/)."""
    return str(load_schema()["$id"])


def _shape(definition: str | None) -> dict[str, Any]:
    """The schema checked for `definition`: the whole document, one of its $defs, or the
    `{"games": [...]}` wrapper alone."""
    schema = load_schema()
    if definition is None:
        return schema
    if definition == _WRAPPER:
        shape: dict[str, Any] = copy.deepcopy(schema["$defs"]["collection"])
        del shape["properties"]["games"]["items"]
        return shape
    return {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}


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
    # jsonschema is imported here, not at module level: reading .zfn text never needs it.
    shape = _shape(definition)
    if definition is not None and definition != _WRAPPER:
        shape = {**shape, "$schema": load_schema()["$schema"]}
    validator: Draft202012Validator = _validator_class()(shape)
    return validator


@cache
def _compiled(definition: str | None) -> Callable[[Any], Any]:
    import fastjsonschema

    check: Callable[[Any], Any] = fastjsonschema.compile(_shape(definition), use_formats=False)
    return check


def is_valid(data: Any, definition: str | None = "game") -> bool:
    """Whether `data` conforms: to a `$defs` entry ("game", "hand", ...), or, with None, to the
    whole document schema. The fast compiled check alone."""
    from fastjsonschema import JsonSchemaException

    try:
        _compiled(definition)(data)
    except JsonSchemaException:
        return False
    return True


def pointer(path: Any) -> str:
    """A JSON pointer (RFC 6901) for a path of keys and indices; the whole document is `/`."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts) if parts else "/"


def _check(definition: str | None, data: Any, prefix: tuple[Any, ...], source: str | None) -> None:
    from fastjsonschema import JsonSchemaValueException

    try:
        _compiled(definition)(data)
        return
    except JsonSchemaValueException as exc:
        fast = exc
    from jsonschema.exceptions import best_match

    try:
        error = best_match(_validator(definition).iter_errors(data))
    except RecursionError:
        raise NotationError("at /: the JSON is nested too deeply", Location(source)) from None
    if error is not None:
        where, message = pointer((*prefix, *error.absolute_path)), _wording(error)
    else:  # the two never disagree on the test corpus; should they, the compiled check rules
        where, message = pointer((*prefix, *(fast.path or ["data"])[1:])), fast.message
    # The message quotes the offending value, which hostile input makes huge: keep it short.
    if len(message) > _MESSAGE_LIMIT:
        message = message[:_MESSAGE_LIMIT] + "…"
    raise NotationError(f"at {where}: {message}", Location(source))


_MESSAGE_LIMIT = 300


def _wording(error: Any) -> str:
    """The validator's message, except for a pattern: a regular expression tells a user
    nothing, so say what was expected, in the words of the schema's own description."""
    described = error.schema.get("description") if isinstance(error.schema, dict) else None
    if error.validator != "pattern" or not described:
        return str(error.message)
    what = str(error.schema.get("title", "a value")).lower()
    expected = described[:1].lower() + described[1:].rstrip(".")
    said = f"expected {what} ({expected}), got {error.instance!r}"
    if what in _CARD_TITLES and isinstance(error.instance, str):
        said += _bad_card_word(error.instance, str(error.schema["pattern"]))
    return said


# The titles of the schema's strings of cards: a pattern they fail names the word at fault.
_CARD_TITLES = frozenset({"play", "version", "card list", "cards"})


def _bad_card_word(text: str, pattern: str) -> str:
    """`: why` for the first word of `text` that is no card, in the card reader's words
    (`unknown suit 'z' in '4z': ...`), so a long deal says which of its cards is wrong."""
    import re

    from zfrec.cardwords import read_word
    from zfrec.errors import CardError

    for word in re.split(r"[\s,]+", text):
        if not word or re.search(pattern, word):
            continue
        try:
            read_word(word)
        except CardError as exc:
            return f": {exc}"
        return f": {word!r} is not a card"
    return ""


def validate_game(data: Any, prefix: tuple[Any, ...] = (), source: str | None = None) -> None:
    """Check one game object; raise NotationError naming the JSON path of the first problem.

    `prefix` is the game's own path in the document, e.g. `("games", 3)`. The game's `"game"`
    (its kind, zfrec.games; Zheng Fen's when absent) picks the `$defs` entry it is checked by.
    """
    definition = _definition(data, prefix, source)
    try:
        _check(definition, data, prefix, source)
    except NotationError as exc:
        other = _other_kind(data) if definition == "game" else None
        if other is None:
            raise
        hint = f' (its preset is {other.title}\'s: add "game": "{other.name}")'
        raise NotationError(exc.message + hint, exc.location) from None


def _other_kind(data: Any) -> GameKind | None:
    """The kind whose preset a game without `"game"` names, when that is not Zheng Fen's (the
    kind such a game is read as): its `"game"` is missing."""
    rules = data.get("rules") if isinstance(data, dict) else None
    preset = rules.get("preset") if isinstance(rules, dict) else None
    if not isinstance(preset, str):
        return None
    kind = kind_of_preset(preset)
    return kind if preset in kind.presets and kind.name != DEFAULT_KIND else None


def _definition(data: Any, prefix: tuple[Any, ...], source: str | None) -> str:
    """The `$defs` entry of the game's kind; an unknown kind is an error at `/game`."""
    name = data.get("game") if isinstance(data, dict) else None
    if name is None:
        return "game"
    problem = kind_problem(name) if isinstance(name, str) else "the game is a name, e.g. shengji"
    if problem:
        raise NotationError(f"at {pointer((*prefix, 'game'))}: {problem}", Location(source))
    kind = find_kind(name)
    if not kind.schema_def:  # a kind whose JSON part is still to come
        message = f"{kind.title} records cannot be read from JSON yet"
        raise NotationError(f"at {pointer((*prefix, 'game'))}: {message}", Location(source))
    return kind.schema_def


def validate_document(data: Any, source: str | None = None) -> None:
    """Check a whole JSON record document: one game, or `{"games": [...]}`."""
    _check(None, data, (), source)


def validate_wrapper(data: Any, source: str | None = None) -> None:
    """Check the `{"games": [...]}` wrapper alone, so each game can then be checked (and fail)
    on its own."""
    _check(_WRAPPER, data, (), source)
