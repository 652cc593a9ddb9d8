"""The command line as a user meets it (issue 16): messages that name the file and the problem,
exit codes 0/1/2/3, `--help` and `--version`, file permissions, convert's refusals, the demo.

The store commands' part of the same issue is in tests/test_cli_store.py.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.record import dumps, loads

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
GOOD = '[Players "Ann, Bo, Cy"]\nhand 1\n1: 3h\n2: 4h\n3: 5h\n'
BAD = '[Players "a, b, c"]\nhand\n1: 3x [x]\n'
BAD_FIRST_LINE = "{}:3:5 [game 1]: unknown suit 'x' in '3x': suits are s h d c (or ♠ ♥ ♦ ♣)"
NOT_UTF8 = b"\xd7\xff\x00 hand 1\n"


def run(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """The real app in this process; an exception other than an exit fails the test."""
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = runner.invoke(app, list(args))
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.zfn"
    good.write_text(GOOD, encoding="utf-8")
    bad = tmp_path / "bad.zfn"
    bad.write_text(BAD, encoding="utf-8")
    binary = tmp_path / "binary.zfn"
    binary.write_bytes(NOT_UTF8)
    folder = tmp_path / "folder"
    folder.mkdir()
    return {"good": good, "bad": bad, "binary": binary, "folder": folder}


# --- unreadable input names the file and the problem -------------------------------------------


@pytest.mark.parametrize(
    "command",
    [["analyze"], ["audit"], ["render", "--out", "out"], ["diff", "{good}"]],
    ids=["analyze", "audit", "render", "diff"],
)
def test_a_file_that_is_not_utf8_is_named_with_the_problem(
    tmp_path: Path, files: dict[str, Path], command: list[str]
) -> None:
    name, *rest = command
    rest = [str(tmp_path / r) if r == "out" else r.format(good=files["good"]) for r in rest]
    code, out, err = run(name, str(files["binary"]), *rest, cwd=tmp_path)
    assert (code, out, err) == (2, "", f"error: cannot read {files['binary']}: not UTF-8 text\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "command", [["validate", "-"], ["validate", "-", "--json"], ["audit", "-"], ["analyze", "-"]]
)
def test_standard_input_not_in_utf8_is_refused_not_read_with_its_bytes_replaced(
    command: list[str],
) -> None:
    text = (SAMPLES / "02-three-players.zfn").read_text("utf-8").replace("Mei", "王芳")
    done = subprocess.run([sys.executable, "-m", "zfrec", *command], input=text.encode("gb18030"),
                          capture_output=True, check=False)  # fmt: skip
    assert done.returncode == 2, done
    said = (done.stdout + done.stderr).decode("utf-8")
    assert "cannot read standard input: not UTF-8 text" in said and "\ufffd" not in said, said
    done = subprocess.run([sys.executable, "-m", "zfrec", *command],
                          input=text.encode("utf-8-sig"),
                          capture_output=True, check=False)  # fmt: skip
    assert done.returncode == 0, done  # the same record in UTF-8 (its byte order mark read past)


def test_a_missing_file_is_named(tmp_path: Path, files: dict[str, Path]) -> None:
    missing = tmp_path / "none.zfn"
    for args in (
        ["analyze", str(missing)],
        ["audit", str(missing)],
        ["diff", str(files["good"]), str(missing)],
        ["render", str(missing), "--out", str(tmp_path / "o")],
        ["convert", str(missing), "-"],
    ):
        assert run(*args) == (2, "", f"error: no such file: {missing}\n"), args


def test_diff_and_render_of_a_directory_ask_for_a_record_file(files: dict[str, Path]) -> None:
    folder = files["folder"]
    code, _, err = run("diff", str(files["good"]), str(folder))
    assert (code, err) == (2, f"error: {folder} is a directory: give a record file\n")
    code, _, err = run("render", str(folder), "--out", str(folder / "o"))
    assert (code, err) == (
        2,
        f"error: {folder} is a directory: give a record file or a stored game's id\n",
    )
    code, _, err = run("convert", str(folder), "-", "--from", "zfn")
    assert (code, err) == (2, f"error: {folder} is a directory: give a record file\n")


def test_analyze_and_audit_take_every_record_of_a_directory(files: dict[str, Path]) -> None:
    folder = files["folder"]
    code, _, err = run("analyze", str(folder))
    assert (code, err) == (2, f"error: no record files (.zfn or .json) in {folder}\n")
    shutil.copy(SAMPLES / "broken" / "does-not-beat.zfn", folder / "a-broken.zfn")
    shutil.copy(SAMPLES / "02-three-players.zfn", folder / "b-legal.zfn")
    (folder / "sub").mkdir()
    shutil.copy(SAMPLES / "07-parlett.zfn", folder / "sub" / "c.zfn")
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")

    code, out, err = run("audit", str(folder))
    assert (code, err) == (1, "")  # one game fails: a finding
    heads = [line for line in out.splitlines() if line.startswith(str(folder))]
    assert heads == [str(folder / "a-broken.zfn"), str(folder / "b-legal.zfn"),
                     str(folder / "sub" / "c.zfn")]  # fmt: skip
    assert "game 1: fails with 1 error(s)" in out and out.count("legal as recorded") == 2

    code, out, err = run("analyze", str(folder), "--summary", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [(g["file"], g["game"]) for g in doc["games"]] == [
        (str(folder / "a-broken.zfn"), 1),
        (str(folder / "b-legal.zfn"), 1),
        (str(folder / "sub" / "c.zfn"), 1),
    ]
    assert doc["unreadable"] == []

    # one bad file is reported by name; the others are still analysed; the exit code says so
    shutil.copy(files["binary"], folder / "d-binary.zfn")
    code, out, err = run("audit", str(folder), "--json")
    assert code == 2
    assert err == f"error: cannot read {folder / 'd-binary.zfn'}: not UTF-8 text\n"
    doc = json.loads(out)
    assert len(doc["games"]) == 3
    assert doc["unreadable"] == [
        {"path": str(folder / "d-binary.zfn"), "error": f"cannot read {folder / 'd-binary.zfn'}: "
         "not UTF-8 text"}
    ]  # fmt: skip
    code, out, err = run("analyze", str(folder), "--summary")
    assert code == 2 and err.startswith(f"error: cannot read {folder / 'd-binary.zfn'}")
    assert out.count("players (captured, conceded, missed beats, categories)") == 3


def test_a_syntax_error_is_shown_once_without_a_rich_escape(files: dict[str, Path]) -> None:
    bad = files["bad"]
    # audit reads past an unreadable move, as validate does: a finding, not unreadable input
    code, out, _ = run("audit", str(bad))
    assert code == 1 and "unknown suit 'x' in '3x'" in out and "\\[" not in out
    for args in (["analyze", str(bad)], ["diff", str(bad), str(bad)]):
        code, out, err = run(*args)
        assert (code, out) == (2, ""), args
        lines = err.splitlines()
        assert lines[0] == "error: " + BAD_FIRST_LINE.format(bad), args
        assert "\\[" not in err and "\\" not in err
        assert [line.strip() for line in lines[1:]][-1] == "|     ^"  # one caret, under 3x
        assert sum(line.rstrip().endswith("^") for line in lines) == 1


def test_validate_shows_the_caret_of_a_syntax_error_once() -> None:
    path = SAMPLES / "broken" / "syntax-error.zfn"
    code, out, _ = run("validate", str(path))
    assert code == 1
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if " ZF001 " in line)
    source_line = path.read_text(encoding="utf-8").splitlines()[11]
    assert lines[at + 1].endswith(f"12 | {source_line}")
    assert lines[at + 2].rstrip().endswith("^")
    # the caret sits under column 12 of the source line
    assert lines[at + 2].index("^") - lines[at + 1].index("|") == 12 + 1
    assert " ZF" in lines[at + 3]  # the next diagnostic, not a second caret
    # ZF001 and the ZF206 of each game (the first is replayed past its unreadable move) once each
    assert sum(line.rstrip().endswith("^") for line in lines) == 3


# --- exit codes --------------------------------------------------------------------------------


def test_convert_refuses_input_without_a_game(tmp_path: Path) -> None:
    for text in ("", "\n\n", "{just a comment}\n"):
        source = tmp_path / "empty.zfn"
        source.write_text(text, encoding="utf-8")
        target = tmp_path / "empty.json"
        code, out, err = run("convert", str(source), str(target))
        assert (code, out, err) == (
            2,
            "",
            f"error: {source} holds no game: nothing to convert\n",
        ), text
        assert not target.exists()
    result = runner.invoke(app, ["convert", "-", "-"], input="")
    assert result.exit_code == 2
    assert result.stderr == "error: standard input holds no game: nothing to convert\n"
    assert result.stdout == ""


def _crash(
    args: list[str], target: str = "zfrec.games.zhengfen.analysis.analyze.analyze_game", **env: str
) -> subprocess.CompletedProcess[str]:
    """Run the real entry point with a fault planted in `target` (module.function): every real
    crash found so far is fixed, so an internal error has to be made on purpose to see how it
    is reported."""
    module, name = target.rsplit(".", 1)
    plant = (
        f"import {module} as m\n"
        "def boom(*a, **k):\n"
        "    raise RuntimeError('planted fault')\n"
        f"m.{name} = boom\n"
        "from zfrec.cli import main\n"
        "main()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", plant, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


def test_an_internal_error_exits_3_with_one_line_naming_the_file(files: dict[str, Path]) -> None:
    done = _crash(["analyze", str(files["good"])])
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr == (
        f"internal error while processing {files['good']}: RuntimeError: planted fault "
        "(a bug in zfrec; ZFREC_TRACEBACK=1 shows the traceback)\n"
    )
    done = _crash(["analyze", str(files["good"])], ZFREC_TRACEBACK="1")
    assert done.returncode == 3
    assert done.stderr.startswith("Traceback (most recent call last):")
    assert done.stderr.endswith("(a bug in zfrec; ZFREC_TRACEBACK=1 shows the traceback)\n")
    # the entry point still passes ordinary exit codes through
    assert _crash(["classify", "3h 4h 9s"]).returncode == 1
    assert _crash(["classify", "3x"]).returncode == 2


@pytest.mark.parametrize(
    ("args", "target", "place"),
    [
        (["validate"], "zfrec.batch.validate_games", ""),
        (["validate", "--jobs", "2"], "zfrec.batch.validate_games", ""),  # raised in a worker
        # the game being judged is named (zfrec.errors.placing)
        (["import", "--db", "{db}"], "zfrec.store.firstpass.validate", ", game 1 (line 1)"),
        (
            ["import", "--db", "{db}", "--jobs", "2"],
            "zfrec.store.firstpass.validate",
            ", game 1 (line 1)",
        ),
    ],
    ids=["validate", "validate-jobs2", "import", "import-jobs2"],
)
def test_an_internal_error_in_a_batch_names_the_file(
    tmp_path: Path, files: dict[str, Path], args: list[str], target: str, place: str
) -> None:
    argv = [a.format(db=tmp_path / "club.db") for a in args]
    done = _crash([*argv, str(files["good"])], target)
    assert done.returncode == 3
    assert done.stderr.endswith(
        f"internal error while processing {files['good']}{place}: RuntimeError: planted fault "
        "(a bug in zfrec; ZFREC_TRACEBACK=1 shows the traceback)\n"
    )


# a fault planted in a round's play (Sheng ji's replayer) and in a hand's end (a visitor of
# Zheng Fen's replay), each raised only at one round or hand, so the report has to say which
_PLANT_AT = """
from zfrec.games.shengji import replayer as r
from zfrec.games.zhengfen import validator as v
real_phase, real_end = r._Replay.play_phase, v.Validator.visit_hand_end
def phase(self, rules, rnd, state, rb):
    if rnd.number == 2:
        raise RuntimeError("planted fault")
    return real_phase(self, rules, rnd, state, rb)
def end(self, state, event):
    if len(self.hands) == 2:
        raise RuntimeError("planted fault")
    return real_end(self, state, event)
r._Replay.play_phase, v.Validator.visit_hand_end = phase, end
from zfrec.cli import main
main()
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_names_the_game_and_round_an_internal_error_broke_in(
    tmp_path: Path, jobs: str
) -> None:
    """Exit 3 under --json: the summary's `error` names the exception's message, the file, the
    game (and its first line) and the round or hand; `internal` gives them field by field. The
    report is on standard error, and the traceback with ZFREC_TRACEBACK=1."""
    from tests.test_json_schemas import assert_valid

    samples = Path(__file__).resolve().parent.parent / "sample_games"
    two = tmp_path / "two.zfn"  # the match is the file's second game
    two.write_text(
        (samples / "02-three-players.zfn").read_text("utf-8")
        + "\n"
        + (samples / "shengji" / "01-bashifen-match.zfn").read_text("utf-8"),
        "utf-8",
    )
    line = 1 + next(
        i for i, text in enumerate(two.read_text("utf-8").splitlines()) if "shengji" in text
    )
    argv = [sys.executable, "-c", _PLANT_AT, "validate", "--jobs", jobs, str(two), "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 3, done.stderr
    doc = json.loads(done.stdout)
    assert_valid("validate", doc)
    where = f"{two}, game 2 (line {line}), round 2"
    assert doc["summary"]["error"] == (
        f"internal error while validating {where}: RuntimeError: planted fault"
    )
    assert doc["summary"]["internal"] == {
        "type": "RuntimeError", "message": "planted fault", "file": str(two), "game": 2,
        "line": line, "hand": 2, "unit": "round",
    }  # fmt: skip
    assert doc["summary"]["ok"] is False
    assert done.stderr == (
        f"internal error while processing {where}: RuntimeError: planted fault (a bug in zfrec; "
        "ZFREC_TRACEBACK=1 shows the traceback)\n"
    )
    # a Zheng Fen game: the third hand, where a visitor of the replay broke; the traceback
    full = samples / "05-full-game-to-500.zfn"
    argv = [sys.executable, "-c", _PLANT_AT, "validate", "--jobs", jobs, str(full)]
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "ZFREC_TRACEBACK": "1"},
    )
    assert done.returncode == 3
    assert done.stderr.startswith("Traceback (most recent call last):")
    assert done.stderr.endswith(
        f"internal error while processing {full}, game 1 (line 1), hand 3: RuntimeError: "
        "planted fault (a bug in zfrec; ZFREC_TRACEBACK=1 shows the traceback)\n"
    )


@pytest.mark.parametrize(
    ("command", "args", "target"),
    [
        ("analyze", ["{good}"], "zfrec.games.zhengfen.analysis.analyze.analyze_game"),
        ("audit", ["{good}"], "zfrec.games.zhengfen.analysis.audit.audit"),
        (
            "classify",
            ["--game", "shengji", "--trump", "7c", "8d"],
            "zfrec.games.shengji.commands.classify",
        ),
        ("games", ["--db", "{db}"], "zfrec.store.list_games"),
        ("show", ["1", "--db", "{db}"], "zfrec.store.get_game"),
    ],
)
def test_an_internal_error_under_json_still_prints_one_json_document(
    tmp_path: Path, files: dict[str, Path], command: str, args: list[str], target: str
) -> None:
    """Exit 3 under --json: the command's document of a failure on standard output (valid by
    its schema, `error` the internal error's report), the one line on standard error."""
    from tests.test_json_schemas import assert_valid

    db = tmp_path / "club.db"
    assert runner.invoke(app, ["import", str(files["good"]), "--db", str(db)]).exit_code in (0, 1)
    argv = [a.format(good=files["good"], db=db) for a in args]
    done = _crash([command, *argv, "--json"], target)
    assert done.returncode == 3, done.stderr
    doc = json.loads(done.stdout)  # one document, nothing else
    assert_valid(command, doc)
    assert doc["error"] == done.stderr.strip()
    assert "RuntimeError: planted fault (a bug in zfrec; " in doc["error"]


# --- convert: same file, messages, permissions -------------------------------------------------


def test_convert_never_rewrites_its_input(tmp_path: Path, files: dict[str, Path]) -> None:
    good = files["good"]
    (tmp_path / "link.zfn").symlink_to(good)
    for target in (str(good), f"{tmp_path}/./good.zfn", str(tmp_path / "link.zfn")):
        code, _, err = run("convert", str(good), target)
        assert code == 2, target
        assert err == (
            f"error: {good} and {target} are the same file: convert never rewrites its input "
            f"(zfrec fmt {good} puts it in canonical form in place)\n"
        )
        assert good.read_text(encoding="utf-8") == GOOD
    relative = run("convert", "good.zfn", "good.zfn", "--to", "json", cwd=tmp_path)
    assert relative[0] == 2 and good.read_text(encoding="utf-8") == GOOD
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.zfn", "binary.zfn", "folder", "good.zfn", "link.zfn",
    ]  # fmt: skip


def test_convert_names_the_file_it_cannot_write(tmp_path: Path, files: dict[str, Path]) -> None:
    target = tmp_path / "no" / "such" / "dir" / "g.json"
    code, _, err = run("convert", str(files["good"]), str(target))
    assert (code, err) == (2, f"error: cannot write {target}: its directory does not exist\n")
    folder = files["folder"] / "x.json"
    folder.mkdir()
    code, _, err = run("convert", str(files["good"]), str(folder))
    assert (code, err) == (2, f"error: cannot write {folder}: it is a directory\n")
    assert list(files["folder"].iterdir()) == [folder]  # no temporary file left behind
    code, _, err = run("convert", str(files["binary"]), str(tmp_path / "x.json"))
    assert (code, err) == (2, f"error: cannot read {files['binary']}: not UTF-8 text\n")


@contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_written_records_respect_the_umask(
    tmp_path: Path, files: dict[str, Path], mask: int, expected: int
) -> None:
    with umask(mask):
        assert run("convert", str(files["good"]), str(tmp_path / "g.json"))[0] == 0
        assert run("simulate", "--games", "1", "--out", str(tmp_path / "sim.zfn"))[0] == 0
        assert run("simulate", "--games", "2", "--out", str(tmp_path / "simdir"))[0] == 0
    written = [tmp_path / "g.json", tmp_path / "sim.zfn", *(tmp_path / "simdir").iterdir()]
    assert len(written) == 4
    assert {p.name: mode(p) for p in written} == {p.name: expected for p in written}


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path, files: dict[str, Path]) -> None:
    target = tmp_path / "g.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    loose = tmp_path / "loose.zfn"
    loose.write_text('[players "a, b, c"]\nhand\n1: 3h\n', encoding="utf-8")
    loose.chmod(0o604)
    with umask(0o077):
        assert run("convert", str(files["good"]), str(target))[0] == 0
        assert run("fmt", str(loose))[0] == 0
    assert loads(target.read_text("utf-8"), "json") == loads(GOOD)
    assert (mode(target), mode(loose)) == (0o640, 0o604)
    assert loose.read_text("utf-8") == dumps(loads('[players "a, b, c"]\nhand\n1: 3h\n'))


# --- help and version --------------------------------------------------------------------------


def _commands() -> list[str]:
    return sorted(info.name for info in app.registered_commands if info.name)


def _help(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_help_keeps_paragraphs_whole_and_shows_flags_as_flags() -> None:
    assert len(_commands()) >= 17
    for name in _commands():
        info = next(i for i in app.registered_commands if i.name == name)
        assert info.callback is not None
        doc = inspect.getdoc(info.callback) or ""
        text = _help(name)
        lines = [line.strip() for line in text.splitlines()]
        for paragraph in doc.split("\n\n"):
            if paragraph.lstrip().startswith("- "):
                continue
            joined = " ".join(paragraph.split())
            # on a wide terminal each paragraph of the docstring is one line of the help
            assert joined in lines, (name, joined)
        assert "<bool>" not in text, name
        assert re.search(r"--help\s+-h\s+Show this message and exit\.", text), name
    assert "<bool>" not in _help()
    # options that take a value still say which
    assert re.search(r"--budget\s+<int range>", _help("audit"))
    assert re.search(r"--json\s+Print JSON", _help("validate"))


def test_fmt_help_reads_as_sentences_on_a_narrow_terminal() -> None:
    result = runner.invoke(app, ["fmt", "--help"], env={"COLUMNS": "80"})
    lines = [line.strip() for line in result.stdout.splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith("Formatting is idempotent"))
    paragraph = []
    for line in lines[at:]:
        if not line:
            break
        paragraph.append(line)
    # rewrapped to the terminal: every line but the last is filled, none stops mid-paragraph
    assert " ".join(paragraph).endswith("the exit code is then 2.")
    assert all(len(line) > 60 for line in paragraph[:-1]), paragraph


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["show", "abc"], "zfrec show: error: Invalid value for 'game_id': "),
        (["show"], "zfrec show: error: Missing argument 'game_id'."),
        (["validate", "--jobs", "0", "x.zfn"], "zfrec validate: error: Invalid value for '--jobs'"),
        (["analyze", "--bogus", "x.zfn"], "zfrec analyze: error: No such option: --bogus"),
        (["nosuch"], "zfrec: error: No such command 'nosuch'."),
        (["--bogus"], "zfrec: error: No such option: --bogus"),
        # Click's parser raises these with no context: still the command's name and its hint
        (["validate", "--jobs"], "zfrec validate: error: Option '--jobs' requires an argument."),
        (["show", "1", "--json=3"], "zfrec show: error: Option '--json' does not take a value."),
        (["--version=3"], "zfrec: error: Option '--version' does not take a value."),
    ],
)
def test_a_usage_error_is_one_line_and_a_hint(args: list[str], says: str) -> None:
    """Click's usage errors read like ours: one line (no box, no usage block) and one hint,
    exit code 2."""
    code, out, err = run(*args)
    command = "zfrec" if args[0].startswith("-") or args[0] == "nosuch" else f"zfrec {args[0]}"
    assert (code, out) == (2, "")
    assert err.startswith(says) and err.endswith(f"\nTry '{command} --help'.\n"), err
    assert err.count("\n") == 2, err


def test_every_command_refuses_an_unknown_option_in_two_lines() -> None:
    for name in _commands():
        code, out, err = run(name, "--no-such-option")
        assert (code, out) == (2, ""), name
        first, hint = err.split("\n", 1)  # Click may add "(Possible options: ...)"
        assert first.startswith(f"zfrec {name}: error: No such option: --no-such-option"), name
        assert hint == f"Try 'zfrec {name} --help'.\n", name


def test_a_usage_error_of_the_installed_command_is_two_plain_lines() -> None:
    """Through the console entry point (zfrec.cli.main), on a terminal's width."""
    done = subprocess.run(
        [sys.executable, "-m", "zfrec", "show", "abc"],
        capture_output=True,
        text=True,
        env={**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}, "COLUMNS": "80"},
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    first, hint = done.stderr.splitlines()
    assert first == (
        "python -m zfrec show: error: Invalid value for 'game_id': Input should be a valid "
        "integer, unable to parse string as an integer"
    )
    assert hint == "Try 'python -m zfrec show --help'."


def test_version() -> None:
    code, out, err = run("--version")
    assert (code, out, err) == (0, f"zfrec {importlib.metadata.version('zfrec')}\n", "")
    assert "--version" in _help()


# --- the demo ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_demo_prints_each_caret_and_the_site_path_once(tmp_path: Path) -> None:
    for name in (".venv", "sample_games"):
        (tmp_path / name).symlink_to(ROOT / name)
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "demo.sh")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line for line in lines if "index.html" in line] == [
        f"open {tmp_path.resolve() / 'site' / 'index.html'}"
    ]
    sections: dict[str, list[str]] = {}
    for line in lines:
        if "$ zfrec " in line:
            command = line.split("$ zfrec ", 1)[1].split()[0]
            current = sections.setdefault(command, [])
        elif sections:
            current.append(line)
    shown = sections["validate"]
    at = next(i for i, line in enumerate(shown) if " ZF001 " in line and "'7x'" in line)
    assert shown[at + 1].rstrip().endswith("12 | 1: 3h  2: 7x")
    # the caret under column 12: the `7x` is read as a move, so the excerpt is the file's
    assert shown[at + 2].rstrip().endswith("^")
    assert shown[at + 2].index("^") - shown[at + 1].index("|") == 12 + 1
    assert " ZF206 " in shown[at + 3]  # the next diagnostic, not a second excerpt and caret
    # the syntax error, the schema error and the four mistakes; Sheng ji's unreadable card
    # (sample_games/shengji/broken/unreadable-card.zfn) is stored as validate reads it (its
    # line skipped), flagged with its errors
    assert "unreadable games in 3 files" in done.stdout
    assert (tmp_path / "site" / "index.html").is_file()


def test_paths_with_brackets_are_printed_as_they_are(tmp_path: Path) -> None:
    out_dir = tmp_path / "site [red]x[/]"
    code, out, _ = run("render", str(SAMPLES / "02-three-players.zfn"), "--out", str(out_dir))
    assert code == 0
    assert out.splitlines() == [
        f"{out_dir / 'index.html'}  (2 hand replay(s))",
        f"wrote {len(list(out_dir.iterdir()))} file(s) to {out_dir}",
    ]
    target = tmp_path / "[b]games[/b].zfn"
    code, out, _ = run("simulate", "--games", "1", "--out", str(target))
    assert (code, out) == (0, f"wrote 1 game(s), 1 hand(s) to {target}\n")


def test_render_never_overwrites_files_it_did_not_write(tmp_path: Path) -> None:
    """A render into a folder of the user's own used to overwrite its index.html; an --out
    that is a file gave 'cannot write FILE/hand-1.html: file exists'."""
    record = str(SAMPLES / "02-three-players.zfn")
    home = tmp_path / "home"
    home.mkdir()
    (home / "index.html").write_text("<h1>my homepage</h1>", encoding="utf-8")
    code, _, err = run("render", record, "--out", str(home))
    assert code == 2 and "is not empty and holds no pages zfrec wrote" in err, err
    assert "--force" in err and [p.name for p in home.iterdir()] == ["index.html"]
    assert (home / "index.html").read_text(encoding="utf-8") == "<h1>my homepage</h1>"
    notes = tmp_path / "notes.txt"
    notes.write_text("mine", encoding="utf-8")
    code, _, err = run("render", record, "--out", str(notes))
    assert code == 2 and f"--out {notes} is a file" in err, err
    # a folder zfrec rendered before is rendered again; --force writes anywhere
    pages = tmp_path / "pages"
    assert run("render", record, "--out", str(pages))[0] == 0
    (pages / "hand-1.html").write_text("stale", encoding="utf-8")
    assert run("render", record, "--out", str(pages))[0] == 0
    assert "stale" not in (pages / "hand-1.html").read_text(encoding="utf-8")
    assert run("render", record, "--out", str(home), "--force")[0] == 0
    assert "my homepage" not in (home / "index.html").read_text(encoding="utf-8")
    assert not list(tmp_path.rglob(".*.tmp"))  # written whole, no temporary file left


def test_analyze_audit_and_diff_read_either_format_from_stdin(tmp_path: Path) -> None:
    record = SAMPLES / "02-three-players.zfn"
    text = record.read_text(encoding="utf-8")
    assert text.startswith("[")  # a .zfn record opens with a tag, as a JSON array would
    as_json = dumps(loads(text), "json")
    for given in (text, as_json):
        result = runner.invoke(app, ["analyze", "-", "--json"], input=given)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["games"][0]["players"] == ["Mei", "Jun", "Hao"]
        result = runner.invoke(app, ["audit", "-"], input=given)
        assert (result.exit_code, result.stdout) == (0, "game 1: legal as recorded\n")
        result = runner.invoke(app, ["diff", "-", str(record)], input=given)
        assert result.exit_code == 0 and result.stdout.startswith("game 1: same game\n")


def test_fmt_takes_a_directory(tmp_path: Path) -> None:
    loose = '[players "a, b, c"]\nhand\n1: 3h\n'
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.zfn").write_text(loose, encoding="utf-8")
    shutil.copy(SAMPLES / "02-three-players.zfn", tmp_path / "a.zfn")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    code, out, err = run("fmt", "--check", str(tmp_path))
    assert (code, out) == (1, f"would reformat {tmp_path / 'sub' / 'x.zfn'}\n")
    assert err == "1 file would be reformatted, 1 unchanged\n"
    assert run("fmt", str(tmp_path))[0] == 0
    assert (tmp_path / "sub" / "x.zfn").read_text("utf-8") == dumps(loads(loose))
    assert run("fmt", "--check", str(tmp_path)) == (
        0,
        "",
        "0 files would be reformatted, 2 unchanged\n",
    )


def test_every_folder_walk_leaves_out_hidden_files_and_folders(tmp_path: Path) -> None:
    """validate, import, analyze, audit and fmt walk a folder alike (zfrec.cli.common
    walk_records): a published site's manifest `.zfrec-site.json`, an editor's lock `.#x.zfn`
    (a link to nowhere), a `.git` folder and a hidden folder's records are not records. A
    hidden file named on the command line is still read."""
    records = tmp_path / ".club"  # the folder given may itself be hidden
    (records / "site").mkdir(parents=True)
    shutil.copy(SAMPLES / "02-three-players.zfn", records / "night.zfn")
    (records / "site" / ".zfrec-site.json").write_text('{"zfrec_site": 1}', encoding="utf-8")
    (records / ".#night.zfn").symlink_to("someone@laptop.4242:1700000000")
    (records / ".git").mkdir()
    (records / ".git" / "stash.json").write_text("{}", encoding="utf-8")
    (records / ".trash").mkdir()
    (records / ".trash" / "old.zfn").write_text('[players "a, b, c"]\nhand\n1: 3h\n', "utf-8")
    hidden = (".zfrec-site", ".#night", ".git", ".trash")
    night = str(records / "night.zfn")
    db = str(tmp_path / "club.db")
    for command in (
        ["validate", str(records)],
        ["import", str(records), "--db", db],
        ["analyze", str(records), "--summary"],
        ["audit", str(records)],
        ["fmt", "--check", str(records)],
    ):
        code, out, err = run(*command)
        assert code == 0, (command, out, err)
        assert not [name for name in hidden if name in out + err], (command, out, err)
    code, out, _ = run("audit", str(records), "--json")
    assert [g["file"] for g in json.loads(out)["games"]] == [night]
    assert run("fmt", "--check", str(records))[2] == "0 files would be reformatted, 1 unchanged\n"
    # named on the command line, a hidden file is read
    stash = records / ".git" / "stash.json"
    code, _, err = run("analyze", str(stash))
    assert (code, err) == (2, f"error: {stash}: at /: 'players' is a required property\n")
    code, out, _ = run("fmt", "--check", str(records / ".trash" / "old.zfn"))
    assert (code, out) == (1, f"would reformat {records / '.trash' / 'old.zfn'}\n")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["validate", "--rules", "dabaifn"], "; did you mean dabaifen?"),
        (["validate", "--rules", "pagt"], "; did you mean pagat?"),
        (["classify", "--rules", "dabaifn", "3h"],
         "unknown preset 'dabaifn'; did you mean dabaifen (Sheng ji's: add --game shengji)?"),
        (["classify", "--rules", "dabaifen", "3h"],
         "dabaifen is a Sheng ji preset: add --game shengji"),
        (["classify", "--game", "shengji", "--trump", "2d", "--rules", "dabaifn", "3h"],
         "presets are bashifen, dabaifen, zhaopengyou; did you mean dabaifen?"),
        (["classify", "--rules", "pagt", "3h"],
         "presets are pagat, poppel, parlett; did you mean pagat?"),
    ],
)  # fmt: skip
def test_a_misspelt_rules_preset_on_the_command_line_is_refused_with_a_suggestion(
    args: list[str], said: str
) -> None:
    record = [str(ROOT / "sample_games" / "02-three-players.zfn")] if args[0] == "validate" else []
    code, _, err = run(*args, *record)
    assert code == 2 and err.startswith("error: ") and err.rstrip("\n").endswith(said), err


def test_summaries_count_a_sheng_ji_file_read_as_nothing_in_rounds(tmp_path: Path) -> None:
    # round 1 has no deal line for seat 4: the match cannot be read, and no round is counted
    text = (SAMPLES / "shengji" / "05-dabaifen-match.zfn").read_text("utf-8")
    lost = tmp_path / "lost.zfn"
    lost.write_text(text.replace("deal 4: 4s 5s 5h 5c 6d 7s 8h 9s Js Qh 2h 2c\n", "", 1), "utf-8")
    code, out, _ = run("validate", str(lost))
    assert code == 1 and out.splitlines()[-1].startswith(
        "1 file(s), 1 game(s), 0 round(s), 0 move(s): 1 error(s)"
    )
    code, out, _ = run("import", "--db", str(tmp_path / "club.db"), str(lost))
    assert code == 1 and "0 game(s) added (0 round(s))" in out and "hand(s)" not in out
