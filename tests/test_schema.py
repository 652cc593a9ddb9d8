"""The JSON Schema of records: well-formed, documented, and in step with what jsonio writes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.record_strategies import games
from zfrec.errors import NotationError
from zfrec.record.jsonio import document, dumps_json, game_to_json, parse_json_text
from zfrec.record.model import Game
from zfrec.record.schema import (
    _validator,
    is_valid,
    load_schema,
    pointer,
    schema_id,
    validate_document,
    validate_game,
    validate_wrapper,
)


def test_schema_is_packaged_and_valid_2020_12() -> None:
    text = resources.files("zfrec.schemas").joinpath("record.schema.json").read_text("utf-8")
    assert '"$id"' in text
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema_id() == "urn:zfrec:schema:record:1"
    Draft202012Validator.check_schema(schema)


def all_properties(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{path}/{name}", sub
        for key, value in node.items():
            yield from all_properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from all_properties(value, f"{path}/{i}")


def test_every_property_and_definition_has_a_title_and_description() -> None:
    schema = load_schema()
    found = list(all_properties(schema))
    assert len(found) > 30
    for where, prop in found:
        assert prop.get("title") and prop.get("description"), where
    for name, definition in schema["$defs"].items():
        assert definition.get("title") and definition.get("description"), name


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(games())
def test_generated_records_validate_as_documents(game: Game) -> None:
    # Writing does not validate at run time: this is the proof that it need not.
    full = Draft202012Validator(load_schema())
    for doc in (document(game), document([game, game])):
        full.validate(doc)
        validate_document(doc)
        full.validate(json.loads(dumps_json([game] if "games" in doc else game)))


def test_both_document_shapes_validate() -> None:
    game = game_to_json(Game(["a", "b", "c"]))
    validate_document(game)
    validate_document({"games": [game, game]})
    validate_document({"games": []})
    validate_wrapper({"games": [1]})  # the wrapper alone does not look inside the games


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": ["a", "b", "c"]}, "at /: 'rules' is a required property"),
        (
            {"players": ["a", "b"], "rules": {"preset": "pagat"}, "target": 500, "hands": []},
            "at /players: ['a', 'b'] is too short",
        ),
        (
            {
                "players": ["a", "b", "c"],
                "rules": {"preset": "pagat", "options": {"target": 600}},
                "target": 500,
                "hands": [],
            },
            "at /rules/options: Additional properties are not allowed ('target' was unexpected)",
        ),
        (
            {
                "players": ["a", "b", "c"],
                "rules": {"preset": "pagat"},
                "target": 500,
                "hands": [{"number": 1, "tricks": [{"moves": []}]}],
            },
            "at /hands/0/tricks/0/moves: [] should be non-empty",
        ),
        (
            {
                "players": ["a", "b", "c"],
                "rules": {"preset": "pagat"},
                "target": 500,
                "hands": [{"number": 1, "tricks": [{"moves": [{"seat": 0, "play": "3h"}]}]}],
            },
            "at /hands/0/tricks/0/moves/0/seat: 0 is less than the minimum of 1",
        ),
    ],
)
def test_validation_errors_carry_the_json_path(data: Any, message: str) -> None:
    with pytest.raises(NotationError) as info:
        validate_game(data, source="x.json")
    assert str(info.value) == f"x.json: {message}"


def test_paths_inside_a_collection_and_pointer_escapes() -> None:
    with pytest.raises(NotationError, match=r"^<input>: at /games/2/target: 'x' is not of type"):
        validate_game(
            {"players": ["a", "b", "c"], "rules": {"preset": "pagat"}, "target": "x", "hands": []},
            ("games", 2),
        )
    assert pointer(()) == "/"
    assert pointer(("a/b", "c~d", 0)) == "/a~1b/c~0d/0"


# The compiled check decides validity; jsonschema only words the message. They must agree. ------

ODD_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 2.0, 2.5, 7, 10**20, "", "x", "x\n", "3h", "3h\n", "pass",
    "7s 7h BJ=8h", "a\x01b", " pad", "\t", "王芳", "12", [], {}, [1], ["a"], {"a": 1},
    {"moves": []}, {"seat": 1, "play": "pass"},
]  # fmt: skip


def _paths(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*at, i))


def _mutate(doc: Any, path: tuple[Any, ...], how: int, value: Any) -> Any:
    """A copy of `doc` with the node at `path` replaced, removed, or given an extra key."""
    out = json.loads(json.dumps(doc))
    if not path:
        return value
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == 0:
        parent[last] = value
    elif how == 1:
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last]["colour"] = value
    elif isinstance(parent[last], list):
        parent[last].append(value)
    else:
        parent[last] = [value]
    return out


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(games(), st.data())
def test_the_compiled_check_and_jsonschema_agree_on_mutated_documents(
    game: Game, data: st.DataObject
) -> None:
    doc = game_to_json(game)
    paths = list(_paths(doc))
    for _ in range(3):
        path = data.draw(st.sampled_from(paths))
        how = data.draw(st.integers(0, 2))
        value = data.draw(st.sampled_from(ODD_VALUES) | st.text(max_size=4) | st.integers())
        # as the reader sees it: a number with a fraction stays a marker no schema type takes
        mutated = parse_json_text(json.dumps(_mutate(doc, path, how, value)))
        for definition, wrapped in (("game", mutated), (None, {"games": [mutated]})):
            expected = _validator(definition).is_valid(wrapped)
            assert is_valid(wrapped, definition) == expected, (path, how, value)
            if not expected:
                with pytest.raises(NotationError):
                    (validate_game if definition else validate_document)(wrapped)


@pytest.mark.parametrize("value", ["Ann\n", "3h\n", "x\n"])
def test_a_value_ending_in_a_newline_is_refused_by_both_checks(value: str) -> None:
    doc = game_to_json(Game(["Ann", "Bo", "Cy"], event="x", hands=[]))
    for where in ("players", "event"):
        bad = dict(doc)
        bad[where] = ["Ann", "Bo", value] if where == "players" else value
        assert not is_valid(bad)
        assert not _validator("game").is_valid(bad)
