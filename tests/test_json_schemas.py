"""The JSON Schemas of the commands' `--json` outputs (schemas/<command>.schema.json, README.md).

Each command runs with `--json` on the samples, both games, good and broken records and a SQLite
store they are imported into, and its output must match its schema; the JSON examples of the
docs must match too. A schema that accepts anything would pass all that, so each output is also
checked with each key its schema requires taken out, one at a time: the schema must refuse it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, ValidationError
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.live import Table
from zfrec.store import open_store

ROOT = Path(__file__).resolve().parent.parent
S = ROOT / "sample_games"
SJ = S / "shengji"
runner = CliRunner()
COMMANDS = sorted(
    name.removesuffix(".schema.json")
    for name in (p.name for p in resources.files("zfrec.schemas").iterdir())
    if name.endswith(".schema.json") and name != "record.schema.json"
)


@cache
def schema(command: str) -> dict[str, Any]:
    text = resources.files("zfrec.schemas").joinpath(f"{command}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def validator(command: str) -> Draft202012Validator:
    return Draft202012Validator(schema(command))


def run(args: list[str], codes: tuple[int, ...] = (0,)) -> Any:
    result = runner.invoke(app, args)
    assert result.exit_code in codes, (args, result.output)
    return json.loads(result.stdout)


def assert_valid(command: str, data: Any) -> None:
    errors = sorted(validator(command).iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5]]


def resolve(command: str, node: dict[str, Any], instance: Any) -> dict[str, Any]:
    """The branch of `node` that `instance` is checked by: $ref and if/then/else followed."""
    while True:
        if "$ref" in node:
            node = schema(command)["$defs"][node["$ref"].removeprefix("#/$defs/")]
        elif "if" in node:
            chosen = Draft202012Validator(node["if"]).is_valid(instance)
            node = node["then"] if chosen else node["else"]
        else:
            return node


def required_paths(command: str, data: Any) -> Iterator[tuple[Any, str, str]]:
    """(object, key, where) for each key the schema requires, on the top two levels of objects
    (the first item of a list: a game, a file, a stored game, a player)."""

    def walk(node: dict[str, Any], value: Any, where: str, depth: int) -> Iterator[Any]:
        if isinstance(value, list):
            if value and "items" in node:
                yield from walk(resolve(command, node["items"], value[0]), value[0], where, depth)
            return
        if not isinstance(value, dict):
            return
        for key in node.get("required", []):
            yield value, key, f"{where}.{key}"
        if depth < 2:
            for key, sub in node.get("properties", {}).items():
                if key in value and isinstance(value[key], list | dict) and "$ref" not in sub:
                    inner = resolve(command, sub, value[key])
                    yield from walk(inner, value[key], f"{where}.{key}", depth + 1)

    yield from walk(resolve(command, schema(command), data), data, "$", 0)


def assert_each_required_key_counts(command: str, data: Any) -> None:
    checked = 0
    for obj, key, where in list(required_paths(command, data)):
        value = obj.pop(key)
        try:
            assert not validator(command).is_valid(data), f"{command}: valid without {where}"
        finally:
            obj[key] = value
        checked += 1
    assert checked > 0, command
    assert validator(command).is_valid(data)  # restored


def check(command: str, data: Any) -> None:
    assert_valid(command, data)
    assert_each_required_key_counts(command, data)


# --- the schemas themselves -----------------------------------------------------------------


def test_every_json_command_has_a_packaged_2020_12_schema() -> None:
    expected = "analyze audit beats classify delete diff games import legal publish score show"
    expected += " solve stats tables throw trick unreadable validate"
    assert sorted(expected.split()) == COMMANDS
    for command in COMMANDS:
        doc = schema(command)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"] == f"urn:zfrec:schema:{command}-json:1"
        Draft202012Validator.check_schema(doc)
    # every command whose help offers --json has a schema (export's --json is the record)
    for name in {c.name for c in app.registered_commands} - {"export"}:
        assert name is not None
        helped = runner.invoke(app, [name, "--help"], terminal_width=200).output
        assert ("--json" in helped) == (name in COMMANDS), name


def test_a_schema_refuses_a_wrong_type_and_a_bad_diagnostic() -> None:
    out = run(["validate", str(S / "broken" / "does-not-beat.zfn"), "--json"], (1,))
    assert_valid("validate", out)
    out["summary"]["errors"] = "1"
    assert not validator("validate").is_valid(out)
    out["summary"]["errors"] = 1
    out["files"][0]["diagnostics"][0]["severity"] = "fatal"
    assert not validator("validate").is_valid(out)


# --- the table commands -----------------------------------------------------------------------

SJT = ["--game", "shengji", "--trump", "7c"]
LAST = ["--last", "8d 8d", "--last-winner", "opponents"]
TABLE: dict[str, list[tuple[list[str], tuple[int, ...]]]] = {
    "classify": [
        (["classify", "7s 7h SJ BJ 8c"], (0,)),
        (["classify", "3h 4h 5h 6h 7h"], (0,)),
        (["classify", "3h 9c"], (1,)),
        (["classify", "8d 8d 9d 9d", *SJT], (0,)),
        (["classify", "Ad Kd", *SJT], (0,)),
        (["classify", "Ad Ks", *SJT], (1,)),
    ],
    "beats": [
        (["beats", "5s", "6s"], (0,)),
        (["beats", "5s 5h", "6s"], (1,)),
        (["beats", "3h 4h 5h 6h 7h", "8s 8h 8d 8c"], (0, 1)),
    ],
    "legal": [
        (["legal", "3h 4h 5s 5d SJ"], (0,)),
        (["legal", "3h 4h 5h 6h 7h 5s 5d SJ", "--top", "3c 4c 5c 6c 7c"], (0,)),
        (["legal", "3h 4h 5s 5d SJ", "--top", "3c", "--physical"], (0,)),
        (["legal", "8d 8d 9d Ks", *SJT], (0,)),
        (["legal", "8d 8d 9d Ks", *SJT, "--limit", "2"], (0,)),
        (["legal", "8d 8d 9d Ks", *SJT, "--lead", "Ad Ad"], (0,)),
        (["legal", "8d 8d 9d Ks", *SJT, "--lead", "Ad Ad", "--play", "9d Ks"], (1,)),
        (["legal", "8d 8d 9d Ks", *SJT, "--lead", "Ad Ad", "--play", "8d 8d"], (0,)),
    ],
    "trick": [(["trick", "8d 8d", "Ad Ad", "7c 7c", "3d 4d", *SJT], (0,))],
    "throw": [
        (["throw", "Ad Kd", "--other", "3d 4d", "--other", "5d", "--other", "6s", *SJT], (0,)),
        (["throw", "Kd Qd", "--other", "Ad 4d", "--other", "5d", "--other", "6s", *SJT], (1,)),
    ],
    "score": [
        (["score", "--points", "60", "--game", "shengji"], (0,)),
        (["score", "--points", "130", "--kitty-points", "20", *LAST, *SJT], (0,)),
    ],
}
TABLE_CASES = [(cmd, args, codes) for cmd, cases in TABLE.items() for args, codes in cases]


@pytest.mark.parametrize(("command", "args", "codes"), TABLE_CASES, ids=lambda x: str(x)[:40])
def test_table_commands(command: str, args: list[str], codes: tuple[int, ...]) -> None:
    check(command, run([*args, "--json"], codes))


def test_legal_says_when_its_list_is_cut() -> None:
    out = run(["legal", "8d 8d 9d Ks", *SJT, "--limit", "2", "--json"])
    assert out["truncated"] is True and out["count"] > len(out["plays"]) == 2
    check("legal", out)
    whole = run(["legal", "8d 8d 9d Ks", *SJT, "--json"])
    assert whole["truncated"] is False and whole["count"] == len(whole["plays"])
    check("legal", whole)


@pytest.mark.parametrize("physical", [[], ["--physical"]], ids=["moves", "physical"])
def test_zheng_fen_legal_says_its_list_is_whole(physical: list[str]) -> None:
    """The key Sheng ji's list has, with the same meaning: Zheng Fen's is never cut."""
    out = run(["legal", "3h 4h 4s 5s 5d SJ", *physical, "--json"])
    listed = sum(len(p["physical"]) for p in out["plays"]) if physical else len(out["plays"])
    assert out["truncated"] is False and out["count"] == listed > 0
    check("legal", out)


# --- records ----------------------------------------------------------------------------------

RECORDS = [
    S / "01-annotated-club-night.zfn",
    S / "02-three-players.zfn",
    S / "08-partial-deal.zfn",
    S / "12-lead-passes-on.json",
    S / "broken" / "does-not-beat.zfn",
    S / "broken" / "disputed-version.zfn",
    S / "unfinished" / "no-deal.zfn",  # no hand known: what needs one is null
    SJ / "02-no-trump.zfn",
    SJ / "06-zhaopengyou.zfn",
    SJ / "07-partial-deals.zfn",
    SJ / "08-one-round.json",
    SJ / "10-disputed.zfn",
    SJ / "broken" / "card-not-held.zfn",
    SJ / "broken" / "unreadable-card.zfn",
]
BROKEN = [p for p in RECORDS if p.parent.name == "broken"] + [SJ / "10-disputed.zfn"]


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


def test_validate_of_every_sample() -> None:
    """One run over the whole samples folder: both games, every broken record, the unreadable."""
    out = run(["validate", str(S), "--json"], (1,))
    kinds = {g.get("game", "zhengfen") for f in out["files"] for g in f["games"]}
    assert kinds == {"zhengfen", "shengji"} and out["summary"]["unreadable_files"] == 0
    assert_valid("validate", out)
    one = run(["validate", str(SJ / "broken" / "third-copy.zfn"), "--json"], (1,))
    check("validate", one)
    check("validate", run(["validate", str(S / "broken" / "syntax-error.zfn"), "--json"], (1,)))
    check("validate", run(["validate", str(S / "02-three-players.zfn"), "--json"]))


@pytest.mark.parametrize("path", [p for p in RECORDS if p.stem != "unreadable-card"], ids=_id)
def test_analyze(path: Path) -> None:
    check("analyze", run(["analyze", str(path), "--json", "--solve-cards", "4"]))


@pytest.mark.parametrize("path", BROKEN, ids=_id)
def test_audit(path: Path) -> None:
    check("audit", run(["audit", str(path), "--json"], (0, 1)))


def test_a_finished_sheng_ji_round_has_its_result() -> None:
    out = run(["validate", str(SJ / "02-no-trump.zfn"), "--json"])
    rounds = out["files"][0]["games"][0]["rounds"]
    assert rounds[0]["finished"] is True
    assert_valid("validate", out)
    del rounds[0]["total"]
    assert not validator("validate").is_valid(out)


@pytest.mark.slow
def test_validate_stopped_part_way(tmp_path: Path) -> None:
    """An interrupt part way through: the document still ends, with `error` in its summary."""
    big = tmp_path / "big.zfn"
    made = runner.invoke(app, ["simulate", "--out", str(big), "--games", "1500", "--seed", "5"])
    assert made.exit_code == 0, made.output
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "zfrec", "validate", "--json", str(big)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    head = proc.stdout.read(4096)  # games are being written: the run is inside the file
    proc.send_signal(signal.SIGINT)
    rest = proc.stdout.read()
    proc.wait(timeout=60)
    out = json.loads((head + rest).decode("utf-8"))
    assert out["summary"]["error"] == "interrupted"
    check("validate", out)


def test_analyze_and_audit_of_a_folder_with_unreadable_files(tmp_path: Path) -> None:
    (tmp_path / "good.zfn").write_text((S / "02-three-players.zfn").read_text("utf-8"), "utf-8")
    (tmp_path / "sj.json").write_text((SJ / "08-one-round.json").read_text("utf-8"), "utf-8")
    (tmp_path / "latin.zfn").write_bytes(b"\xff\xfe not text")
    out = run(["analyze", str(tmp_path), "--json", "--solve-cards", "0"], (2,))
    assert [u["path"] for u in out["unreadable"]] == [str(tmp_path / "latin.zfn")]
    check("analyze", out)
    check("audit", run(["audit", str(tmp_path), "--json"], (2,)))


def _refusals(tmp: Path) -> list[tuple[str, list[str]]]:
    """(command, arguments) of each command with --json refused on its input: a path that is
    not there, a file that cannot be read, a folder with no records."""
    (tmp / "empty").mkdir(exist_ok=True)
    (tmp / "latin.zfn").write_bytes(b"\xff\xfe not text")
    missing, empty, latin = str(tmp / "gone.zfn"), str(tmp / "empty"), str(tmp / "latin.zfn")
    db = ["--db", str(tmp / "s.db")]
    return [
        ("validate", [missing]),
        ("validate", [empty]),
        ("validate", ["--rules", "nosuch", missing]),
        ("analyze", [missing]),
        ("analyze", [latin]),
        ("analyze", [empty]),
        ("audit", [missing]),
        ("audit", [empty]),
        ("diff", [missing, str(S / "02-three-players.zfn")]),
        ("diff", [str(S / "02-three-players.zfn"), latin]),
        ("solve", [missing]),
        ("solve", [empty]),
        ("import", [*db, missing]),
        ("import", [*db, empty]),
        ("import", [*db, "--replace", "3", missing]),
        # no store there: `{"error": ...}` alone, where no empty document fits
        *((c, [*db, *more]) for c, more in STORE_READERS),
        # cards that are no cards
        ("classify", ["3h Zz"]),
        ("beats", ["3h", "Zz"]),
        ("legal", ["Zz"]),
        ("trick", ["8d", "Zz", *SJT]),
        ("throw", ["Zz", *SJT]),
        ("score", ["--points", "-3", *SJT]),
        # usage errors, which the command line's parser finds before the command runs
        ("validate", ["--jobs", "0", missing]),
        ("import", [*db, "--jobs", "0", missing]),
        ("show", ["abc"]),
        ("classify", ["3h", "4h"]),
    ]


STORE_READERS = [
    ("games", []),
    ("show", ["1"]),
    ("delete", ["1"]),
    ("stats", []),
    ("unreadable", []),
    ("tables", []),
    ("tables", ["--delete", "x"]),
    ("publish", ["--out", "site"]),
]
REFUSALS = 33


@pytest.mark.parametrize("case", range(REFUSALS))
def test_a_command_refused_under_json_still_prints_its_document(tmp_path: Path, case: int) -> None:
    """Exit 2 with the one line on standard error, and on standard output the command's
    document with nothing in it and `error` (the summary's, for validate and import), or
    `{"error": ...}` alone."""
    cases = _refusals(tmp_path)
    assert len(cases) == REFUSALS
    command, args = cases[case]
    result = runner.invoke(app, [command, *args, "--json"])
    assert result.exit_code == 2, result.output
    out = json.loads(result.stdout)
    said = out.get("summary", out)["error"]
    assert said and said in result.stderr, (said, result.stderr)
    check(command, out)
    assert not (tmp_path / "s.db").exists()  # nothing half-made


def test_export_refused_under_json_writes_no_record(tmp_path: Path) -> None:
    """`export --json` is the record's format, not a document for scripts (README.md): a
    refusal writes nothing that could be taken for a record, only the line on standard error."""
    result = runner.invoke(app, ["export", "1", "--db", str(tmp_path / "s.db"), "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: no such database")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (S / "broken" / "does-not-beat.zfn", S / "02-three-players.zfn"),
        (S / "02-three-players.zfn", S / "02-three-players.zfn"),
        (SJ / "broken" / "card-not-held.zfn", SJ / "03-failed-throw.zfn"),
        (SJ / "03-failed-throw.zfn", SJ / "03-failed-throw.zfn"),
    ],
    ids=["zf-differ", "zf-same", "sj-differ", "sj-same"],
)
def test_diff(a: Path, b: Path) -> None:
    check("diff", run(["diff", str(a), str(b), "--json"], (0, 1)))


@pytest.mark.parametrize(
    ("args", "codes"),
    [
        ([str(S / "08-partial-deal.zfn")], (0,)),
        ([str(S / "unfinished" / "three-players.zfn")], (0,)),
        ([str(S / "unfinished" / "three-players.zfn"), "--only-seat"], (0,)),
        ([str(S / "unfinished" / "three-players.zfn"), "--at", "2", "--nodes", "2000"], (0, 1)),
        ([str(SJ / "01-bashifen-match.zfn"), "--at", "1.20.1"], (0,)),
        ([str(SJ / "01-bashifen-match.zfn"), "--at", "1", "--max-nodes", "300"], (1,)),
    ],
    ids=["zf-over", "zf", "zf-only-seat", "zf-at-step", "sj-exact", "sj-budget"],
)
def test_solve(args: list[str], codes: tuple[int, ...]) -> None:
    check("solve", run(["solve", *args, "--json"], codes))


# --- the store --------------------------------------------------------------------------------

STORED = [
    S / "02-three-players.zfn",
    S / "12-lead-passes-on.json",
    S / "broken" / "does-not-beat.zfn",
    S / "broken" / "syntax-error.zfn",
    SJ / "02-no-trump.zfn",
    SJ / "08-one-round.json",
    SJ / "broken" / "card-not-held.zfn",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('store') / 'club.db'}"
    first = run(["import", "--db", url, "--json", *map(str, STORED)], (1,))
    return url, first


def _ids(imported: dict[str, Any], folder: Path) -> list[int]:
    return [i for f in imported["files"] if Path(f["path"]).parent == folder for i in f["game_ids"]]


def test_import(store: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    url, first = store
    assert first["failed"] == [] and first["summary"]["unreadable"] == 1
    check("import", first)
    check("import", run(["import", "--db", url, "--json", *map(str, STORED)], (1,)))
    (tmp_path / "latin.zfn").write_bytes(b"\xff\xfe not text")
    failed = run(["import", "--db", url, "--json", str(tmp_path)], (2,))
    assert failed["failed"]
    check("import", failed)
    game = _ids(first, S)[0]
    replaced = run(["import", "--db", url, "--json", "--replace", str(game), str(STORED[0])])
    assert replaced["replaced"] is True and replaced["changed"] is False
    check("import", replaced)


def test_games_show_unreadable(store: tuple[str, dict[str, Any]]) -> None:
    url, _ = store
    rows = run(["games", "--db", url, "--json"])
    check("games", rows)
    shown = [run(["show", str(r["id"]), "--db", url, "--json"]) for r in rows]
    assert {s.get("game", "zhengfen") for s in shown} == {"zhengfen", "shengji"}
    assert {s["valid"] for s in shown} == {True, False}
    for one in shown:
        check("show", one)
    check("unreadable", run(["unreadable", "--db", url, "--json"]))


def test_stats(store: tuple[str, dict[str, Any]]) -> None:
    url, _ = store
    check("stats", run(["stats", "--db", url, "--json"]))
    sj = run(["stats", "--db", url, "--game", "shengji", "--json"])
    assert sj and all("rounds" in p for p in sj)
    check("stats", sj)


def test_tables(store: tuple[str, dict[str, Any]]) -> None:
    url, _ = store
    assert run(["tables", "--db", url, "--json"]) == []
    engine = open_store(url)
    table, token = Table.create(engine, players=["Ann", "Bo", "Cy"], target=1, event="Friday")
    table.start_hand(token, shuffler=1)
    Table.create(engine, players=["甲", "乙", "丙", "丁"], game="shengji")
    engine.dispose()
    listed = run(["tables", "--db", url, "--json"])
    named = [(t["players"][0], t["game"]) for t in listed]  # newest first
    assert named == [("甲", "shengji"), ("Ann", "zhengfen")]
    check("tables", listed)
    check("tables", run(["tables", "--db", url, "--delete", table.id, "--json"]))


@pytest.mark.slow
def test_publish(store: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    url, _ = store
    site = tmp_path / "site"
    check("publish", run(["publish", "--db", url, "--out", str(site), "--json"]))
    again = run(["publish", "--db", url, "--out", str(site), "--json"])
    assert again["rendered"] == 0
    check("publish", again)


def test_delete(store: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    """Last of the store's tests: it deletes a game of each kind (pytest keeps file order)."""
    url, first = store
    for game in (_ids(first, S)[-1], _ids(first, SJ)[0]):
        check("delete", run(["delete", str(game), "--db", url, "--json"]))


# --- the docs' examples -----------------------------------------------------------------------

DOCS = ["README.md", "ANALYSIS.md", "DIAGNOSTICS.md", "STORE.md", "RENDER.md", "LIVE.md"]
# "..." shortens an example: `, ...]` in a list is dropped, and an object with a "..." key
# may leave out required keys (its "..." entry itself is not checked).
ELIDED_ITEMS = re.compile(r",\s*\.\.\.(?=\s*[\]}])")


def doc_examples() -> Iterator[tuple[str, str, str]]:
    """(doc:line, command, text) of each ```json block under a heading naming `zfrec CMD`."""
    for name in DOCS:
        text = (ROOT / name).read_text("utf-8")
        for m in re.finditer(r"^```json\n(.*?)^```", text, re.S | re.M):
            head = [h for h in re.findall(r"^#+ .*$", text[: m.start()], re.M)][-1:]
            found = re.search(r"zfrec (\w+)", head[0]) if head else None
            if found and found.group(1) in COMMANDS:
                line = text[: m.start()].count("\n") + 1
                yield f"{name}:{line}", found.group(1), m.group(1)


EXAMPLES = list(doc_examples())


def test_the_docs_examples_are_found() -> None:
    assert sorted(c for _, c, _ in EXAMPLES) == ["analyze", "audit", "diff", "solve", "solve"]


def _elided(error: ValidationError) -> bool:
    if "..." in error.absolute_path:
        return True
    return isinstance(error.instance, dict) and "..." in error.instance


@pytest.mark.parametrize(("where", "command", "text"), EXAMPLES, ids=lambda x: str(x)[:20])
def test_docs_example(where: str, command: str, text: str) -> None:
    data = json.loads(ELIDED_ITEMS.sub("", text))
    errors = [e for e in validator(command).iter_errors(data) if not _elided(e)]
    assert not errors, (where, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors])
    # the unshortened parts are held to the schema: a wrong type there is refused
    broken = json.loads(json.dumps(data).replace('"legal": true', '"legal": "yes"', 1))
    if broken != data:
        assert [e for e in validator(command).iter_errors(broken) if not _elided(e)], where


def test_a_sheng_ji_divergence_has_the_keys_the_docs_name(tmp_path: Path) -> None:
    """ANALYSIS.md's diff JSON names the divergence's `hand`, `trick`, `turn`, `player`, `a` and
    `b` (null when not known), for either game; a Sheng ji round is its `hand` (as in analyze,
    audit and the diagnostics), and also its `round`. Sheng ji's used to leave out what it did
    not know and write the round only as `round`."""
    text = (SJ / "02-no-trump.zfn").read_text("utf-8")
    head = next(line for line in text.splitlines() if line.startswith("round "))
    other = tmp_path / "other-trump.zfn"
    changed = head[:-1] + ("h" if head[-1] != "h" else "s")  # another trump suit
    other.write_text(text.replace(head, changed, 1), "utf-8")
    out = run(["diff", str(SJ / "02-no-trump.zfn"), str(other), "--json"], (1,))
    first = out["games"][0]["first_divergence"]
    assert first["kind"] == "round"
    number = int(head.split()[1])
    where = (first["hand"], first["round"], first["trick"], first["turn"])
    assert where == (number, number, None, None)
    assert first["player"] is None and first["a"] == head
    check("diff", out)


def _undescribed(command: str, node: dict[str, Any], value: Any, where: str) -> Iterator[str]:
    """The keys of `value` that its schema does not name (a key of "..." is a shortening)."""
    node = resolve(command, node, value)
    if isinstance(value, dict):
        props = node.get("properties")
        inner = node.get("additionalProperties")
        for key, item in value.items():
            if key == "...":
                continue
            if props is not None and key not in props:
                yield f"{where}.{key}"
            elif props is not None:
                yield from _undescribed(command, props[key], item, f"{where}.{key}")
            elif isinstance(inner, dict):
                yield from _undescribed(command, inner, item, f"{where}.*")
    elif isinstance(value, list) and "items" in node:
        for item in value:
            yield from _undescribed(command, node["items"], item, f"{where}[]")


@pytest.mark.parametrize(("where", "command", "text"), EXAMPLES, ids=lambda x: str(x)[:20])
def test_every_key_of_a_docs_example_is_in_its_schema(where: str, command: str, text: str) -> None:
    data = json.loads(ELIDED_ITEMS.sub("", text))
    assert list(_undescribed(command, schema(command), data, "$")) == [], where
