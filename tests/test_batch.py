"""Batch validation: files cut into pieces of whole games judge exactly as whole files do;
unreadable and empty files are findings of their own; output is bounded; progress on a tty."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from zfrec import batch
from zfrec.batch import Judged, Options, Piece, _cut, judge, merge, run
from zfrec.cli import app
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps
from zfrec.record.zfn import iter_games
from zfrec.validate import FileSummary, summarize, validate_path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = sorted((ROOT / "sample_games" / "broken").glob("*.zfn"))
runner = CliRunner()


def _whole(path: Path) -> FileSummary:
    return summarize(validate_path(path), str(path), keep_json=True, show_deal=True)


def _in_pieces(path: Path, games_per_piece: int) -> FileSummary:
    total = FileSummary(str(path))
    options = Options(keep_json=True, show_deal=True)
    with open(path, encoding="utf-8-sig", newline=None) as stream:
        for piece in _cut(stream, str(path), games_per_piece):
            merge(total, judge(piece, options))
    return total


@pytest.mark.parametrize(
    "preamble",
    ["", "{a note before the first game}\n\n", "this is not a record\n\n", "{open comment\n"],
)
@pytest.mark.parametrize("games_per_piece", [1, 2, 5])
def test_pieces_judge_exactly_as_the_whole_file(
    tmp_path: Path, preamble: str, games_per_piece: int
) -> None:
    # Every broken sample (syntax errors, unterminated comments, bad plays) in one file.
    path = tmp_path / "all.zfn"
    path.write_text(preamble + "\n".join(p.read_text("utf-8") for p in BROKEN), "utf-8")
    whole, parts = _whole(path), _in_pieces(path, games_per_piece)
    assert [str(d) for d in parts.diagnostics] == [str(d) for d in whole.diagnostics]
    assert (parts.games, parts.hands, parts.moves) == (whole.games, whole.hands, whole.moves)
    assert parts.game_json == whole.game_json
    assert parts.deals == whole.deals
    assert whole.games > len(BROKEN) - 1 and whole.errors >= len(BROKEN)


def test_the_tail_of_a_file_is_cut_finer_for_workers_and_judges_alike(tmp_path: Path) -> None:
    # Forty copies of the broken samples: pieces of 8 games, then halved (4, 2, 1) whenever
    # what is left is under four pieces' worth; what they judge is what the whole file judges.
    path = tmp_path / "all.zfn"
    path.write_text("\n".join(p.read_text("utf-8") for p in BROKEN * 40), "utf-8")
    got = list(batch.pieces(str(path), 8, lambda: "", fine_tail=True))
    sizes = [len(list(iter_games(p.text.splitlines()))) for p in got]
    games = len(list(iter_games(path.read_text().splitlines())))
    assert sum(sizes) == games and "".join(p.text for p in got) == path.read_text()
    cut = next(i for i, n in enumerate(sizes) if n < 8)
    assert set(sizes[:cut]) == {8} and sizes[cut:] == sorted(sizes[cut:], reverse=True)
    assert set(sizes[cut:]) == {4, 2, 1}  # step by step, down to one game
    assert 4 * 8 - 8 <= sum(sizes[cut:]) <= 4 * 8 + 8  # the last 32 games or so, by size
    assert 4 * 2 - 4 <= sizes.count(1) <= 4 * 2 + 4  # one at a time once under 4 pieces of 2
    plain = list(batch.pieces(str(path), 8, lambda: ""))  # without: pieces of 8 to the end
    assert [p.first_line for p in plain[:cut]] == [p.first_line for p in got[:cut]]
    assert {len(list(iter_games(p.text.splitlines()))) for p in plain[:-1]} == {8}
    # of several files, only the last one's tail (the workers go on to the next file)
    both = [
        p for p in batch._all_pieces([str(path)] * 2, 8, lambda: "", True) if isinstance(p, Piece)
    ]
    assert [p.first_line for p in both] == [p.first_line for p in plain + got]
    total = FileSummary(str(path))
    for piece in got:
        merge(total, judge(piece, Options(keep_json=True)))
    whole = summarize(validate_path(path), str(path), keep_json=True)
    assert [str(d) for d in total.diagnostics] == [str(d) for d in whole.diagnostics]
    assert (total.games, total.hands, total.moves) == (whole.games, whole.hands, whole.moves)
    assert total.game_json == whole.game_json


def _cut_line_by_line(lines: list[str], games_per_piece: int) -> list[tuple[int, int, int, int]]:
    """Where the pieces begin, found line by line: a tag line after a line that is not one
    opens a game (FORMAT.md), and a piece closes before the game that would exceed its count.
    Returns (first line, games before, games in the piece, lines in the piece) per piece."""
    starts: list[int] = []
    prev = False
    for number, line in enumerate(lines, 1):
        tag = line.lstrip().startswith("[")
        if tag and not prev:
            starts.append(number)
        prev = tag
    firsts = [1, *starts[games_per_piece::games_per_piece]] if starts else [1]
    out = []
    for i, first in enumerate(firsts):
        end = firsts[i + 1] if i + 1 < len(firsts) else len(lines) + 1
        games = sum(first <= s < end for s in starts)
        out.append((first, i * games_per_piece, games, end - first))
    return out if lines else []


_LINES = st.lists(
    st.sampled_from(
        [
            '[Event "x"]\n',
            '[Players "A, B, C"]\n',
            '  [Site "y"]\n',
            '\u3000[Date "z"]\n',
            '\x0b[Rules "pagat"]\n',
            "\n",
            "hand 1\n",
            "1: 3s  2: -\n",
            "{a [note}\n",
            "x[y\n",
            "score 0 0 0\n",
            "\u2028\n",
            '[Round "1"]\r\n',
            "1: 4s\r",
            "\r\n",
        ]
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[\n a\u3000\x0b\x1c\x85\u2028{", max_size=80))
def test_tag_lines_are_the_lines_is_tag_tells(text: str) -> None:
    # Where each tag line begins, found from one `[` to the next, is where a line-by-line
    # reading finds them: any whitespace before the `[`, several `[` on one line, none at all.
    starts, at = [], 0
    for line in text.split("\n"):
        if batch.is_tag(line):
            starts.append(at)
        at += len(line) + 1
    assert list(batch._tag_lines(text)) == starts


@settings(max_examples=300, deadline=None)
@given(_LINES, st.sampled_from(["", "[x", "hand 3"]), st.integers(1, 4), st.integers(1, 200))
def test_cutting_finds_the_games_a_line_by_line_reading_finds(
    lines: list[str], tail: str, games_per_piece: int, chunk_size: int
) -> None:
    # Tag lines, lines that only look like them, and whitespace str.lstrip() strips, with any
    # line ending and a last line without one, read in chunks small enough to cut games, tag
    # runs and line endings at every place.
    import io

    lines = [*lines, tail]

    stream = io.StringIO("".join(lines), newline=None)
    got: list[Piece] = list(_cut(stream, "x.zfn", games_per_piece, chunk_size))
    assert "".join(p.text for p in got) == io.StringIO("".join(lines), newline=None).read()
    expected = _cut_line_by_line(
        io.StringIO("".join(lines), newline=None).readlines(), games_per_piece
    )
    assert [(p.first_line, p.games_before, len(io.StringIO(p.text).readlines())) for p in got] == [
        (first, before, count) for first, before, _, count in expected
    ]


def test_a_run_with_workers_returns_pieces_in_input_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [
        simulate_game(SimConfig(3 + i % 4, preset("pagat"), "random", 2), i) for i in range(40)
    ]
    big = tmp_path / "big.zfn"
    big.write_text(dumps(games), "utf-8")
    broken = tmp_path / "broken.zfn"
    broken.write_text("\n".join(p.read_text("utf-8") for p in BROKEN), "utf-8")
    files = [str(big), str(broken), str(big)]
    one = list(run(files, Options(keep_json=True), jobs=1))
    two = list(run(files, Options(keep_json=True), jobs=2))
    assert sum(j.summary is not None for j in two) > len(files) * 2  # big files were shared out
    assert _by_file(one) == _by_file(two)
    # where there is no fork, multiprocessing's pool does the same
    monkeypatch.setattr(batch, "fork_available", lambda: False)
    assert _by_file(list(run(files, Options(keep_json=True), jobs=2))) == _by_file(one)
    monkeypatch.undo()
    for flags in ([], ["--show-deal"], ["--json"]):
        printed = [
            runner.invoke(app, ["validate", *flags, "--jobs", jobs, *files]).stdout
            for jobs in ("1", "2")
        ]
        assert printed[0] == printed[1], flags


def _by_file(judged: list[Judged]) -> list[tuple[str, int, list[str]]]:
    out, current = [], FileSummary("")
    for item in judged:
        if item.summary is None:
            out.append((item.path, current.games, [str(d) for d in current.diagnostics]))
            current = FileSummary("")
        else:
            merge(current, item.summary)
    return out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_binary_file_in_a_directory_is_a_finding_and_the_run_goes_on(
    tmp_path: Path, jobs: str
) -> None:
    good = ROOT / "sample_games" / "02-three-players.zfn"
    (tmp_path / "a.zfn").write_text(good.read_text("utf-8"), "utf-8")
    (tmp_path / "b.zfn").write_bytes(b"[Players \xd7\xff\x00 binary")
    (tmp_path / "c.zfn").write_text(good.read_text("utf-8"), "utf-8")
    text = runner.invoke(app, ["validate", "--jobs", jobs, str(tmp_path)])
    assert text.exit_code == 2, text.output  # input that could not be read, as analyze says
    assert f"cannot read {tmp_path / 'b.zfn'}: not UTF-8 text" in text.output
    assert "3 file(s) (1 could not be read), 2 game(s)" in text.output
    assert "Traceback" not in text.output
    data = runner.invoke(app, ["validate", "--json", "--jobs", jobs, str(tmp_path)])
    assert data.exit_code == 2
    report = json.loads(data.stdout)
    assert report["summary"]["files"] == 3 and report["summary"]["unreadable_files"] == 1
    assert report["summary"]["games"] == 2
    [finding] = report["files"][1]["diagnostics"]
    assert (finding["code"], finding["file"]) == ("ZF003", str(tmp_path / "b.zfn"))


def test_an_empty_file_is_warned_about(tmp_path: Path) -> None:
    empty = tmp_path / "empty.zfn"
    empty.write_text("", "utf-8")
    comments = tmp_path / "notes.zfn"
    comments.write_text("{just a note}\n", "utf-8")
    result = runner.invoke(app, ["validate", str(empty), str(comments)])
    assert result.exit_code == 0
    assert f"warning ZF004 {empty} holds no game" in result.output
    assert f"warning ZF004 {comments} holds no game" in result.output
    assert "all legal" not in result.output.splitlines()[-1] or "2 warning(s)" in result.output


def test_a_line_with_a_thousand_errors_prints_a_bounded_report(tmp_path: Path) -> None:
    moves = " ".join(f"1: {card}" for card in ["3h", "4h", "5h", "6h"] * 250)
    path = tmp_path / "long.zfn"
    path.write_text(f'[Players "a, b, c"]\n\nhand 1\n{moves}\n', "utf-8")
    data = json.loads(runner.invoke(app, ["validate", "--json", str(path)]).stdout)
    on_line = [d for d in data["files"][0]["diagnostics"] if d["line"] == 4]
    assert len(on_line) >= 1000  # --json keeps them all
    text = runner.invoke(app, ["validate", str(path)])
    assert text.exit_code == 1
    assert len(text.output.encode()) < 2_000_000
    assert f"{len(on_line) - 20} more diagnostic(s) on line 4 not shown" in text.output


def _on_a_terminal(*args: str) -> str:
    """Run zfrec with stderr on a pseudo-terminal; what the terminal showed."""
    main, other = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from zfrec.cli import main; main()", *args],
        stdout=subprocess.DEVNULL,
        stderr=other,
        env={**os.environ, "COLUMNS": "120", "TERM": "xterm"},
    )
    os.close(other)
    shown = b""
    while True:
        ready, _, _ = select.select([main], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        shown += chunk
    proc.wait(timeout=120)
    os.close(main)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode("utf-8", "replace"))


@pytest.mark.slow
def test_progress_counts_games_on_a_terminal_only(tmp_path: Path) -> None:
    games = [simulate_game(SimConfig(4, preset("pagat"), "random", 2), i) for i in range(30)]
    path = tmp_path / "many.zfn"
    path.write_text(dumps(games), "utf-8")
    shown = _on_a_terminal("validate", str(path))
    assert "validating" in shown and "30/30 games" in shown
    imported = _on_a_terminal("import", "--db", str(tmp_path / "p.db"), str(path))
    assert "importing" in imported and "30/30 games" in imported
    quiet = runner.invoke(app, ["validate", str(path)])
    assert "validating" not in quiet.output


def test_a_line_too_long_is_cut_as_the_reader_cuts_it_in_bounded_memory(tmp_path: Path) -> None:
    import tracemalloc

    from zfrec.record.zfn import MAX_LINE

    head = '[Players "a, b, c"]\nhand 1\n'
    path = tmp_path / "long.zfn"
    long_line = "1: 3h {" + "x" * (30 * MAX_LINE) + "}\n"
    path.write_text(head + long_line + "\n" + head + "1: 4h\n" + head + "1: 5h " + "y" * MAX_LINE)
    tracemalloc.start()
    try:
        with open(path, encoding="utf-8-sig", newline=None) as stream:
            firsts = [piece.first_line for piece in _cut(stream, str(path), 1)]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * MAX_LINE  # a few copies of the part kept, not the line's 30 million
    assert firsts == [1, 5, 8]
    # what the pieces say is what the reader says of the whole file, which skips the same text
    whole, parts = _whole(path), _in_pieces(path, 1)
    assert [str(d) for d in parts.diagnostics] == [str(d) for d in whole.diagnostics]
    first = parts.diagnostics[0]
    assert (first.code, first.location.line, first.location.col) == ("ZF001", 3, MAX_LINE + 1)
    assert (parts.games, parts.hands, parts.moves) == (whole.games, whole.hands, whole.moves)


def test_validate_json_is_written_as_json_dumps_writes_the_whole_document(tmp_path: Path) -> None:
    """The streamed document (zfrec.cli.jsonstream) is byte for byte the one-piece dump it
    replaced: re-dumping what it parses to gives the same text, for every shape a file's
    report takes (games and diagnostics, no games, an unreadable file, --strict's stop)."""
    (tmp_path / "empty.zfn").write_text("", "utf-8")
    (tmp_path / "binary.zfn").write_bytes(b"[Players \xd7\xff")
    samples = ROOT / "sample_games"
    paths = [str(samples / "broken"), str(samples / "12-lead-passes-on.json"), str(tmp_path)]
    for flags in ([], ["--jobs", "2"], ["--strict"]):
        done = runner.invoke(app, ["validate", "--json", *flags, *paths])
        assert done.exit_code == (1 if flags == ["--strict"] else 2)  # 2: the binary file
        data = json.loads(done.stdout)
        assert done.stdout == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        assert data["summary"]["files"] == len(data["files"])
    data = json.loads(runner.invoke(app, ["validate", "--json", *paths]).stdout)
    assert [len(f["games"]) > 0 for f in data["files"]][-3:] == [True, False, False]
    found = [d for f in data["files"] for d in f["diagnostics"]]
    assert any("cause" in d for d in found) and any("fix" in d for d in found)


def test_the_json_writer_writes_each_game_before_the_next_is_judged() -> None:
    import io

    from zfrec.cli.jsonstream import JsonReportWriter
    from zfrec.diagnostics import Diagnostic
    from zfrec.errors import Location

    out = io.StringIO()
    writer = JsonReportWriter(out)
    writer.games("a.zfn", [{"n": 1, "names": ["王芳"]}])
    assert out.getvalue().endswith('"names": [\n            "王芳"\n          ]\n        }')
    writer.diagnostics("a.zfn", [Diagnostic("ZF206", "stops", Location("a.zfn", 3, 1))])
    writer.end_file("a.zfn")
    writer.end_file("b.zfn")  # a file that gave nothing at all
    writer.finish({"files": 2})
    data = json.loads(out.getvalue())
    assert out.getvalue() == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    assert [f["path"] for f in data["files"]] == ["a.zfn", "b.zfn"]
    assert data["files"][0]["diagnostics"][0]["code"] == "ZF206"
    empty = io.StringIO()
    JsonReportWriter(empty).finish({"files": 0})
    assert empty.getvalue() == json.dumps({"files": [], "summary": {"files": 0}}, indent=2) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_json_interrupted_mid_file_still_closes_its_document(
    tmp_path: Path, jobs: str
) -> None:
    """An interrupt (Ctrl-C) part way through a long file: standard output is still one whole
    JSON document, with what was judged and the summary's `error`, never a cut-off one; with
    --jobs 2 no worker is left behind."""
    import signal

    big = tmp_path / "big.zfn"
    made = runner.invoke(app, ["simulate", "--out", str(big), "--games", "1500", "--seed", "5"])
    assert made.exit_code == 0, made.output
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "zfrec", "validate", "--json", "--jobs", jobs, str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdout is not None
    head = proc.stdout.read(4096)  # games are being written: the run is inside the file
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    workers = children.read_text().split() if children.exists() else []
    proc.send_signal(signal.SIGINT)
    rest = proc.stdout.read()
    proc.wait(timeout=60)
    assert len(workers) == int(jobs) - 1 or not children.exists()
    assert not [w for w in workers if Path(f"/proc/{w}").exists()]
    data = json.loads((head + rest).decode("utf-8"))
    assert data["summary"]["error"] == "interrupted" and data["summary"]["ok"] is False
    assert data["files"][0]["path"] == str(big)
    assert 0 < len(data["files"][0]["games"]) < 1500
    assert proc.returncode != 0


# a fault planted in a Sheng ji round's play: an internal error inside a piece of the file
_PLANT_IN_ROUND_2 = """
from zfrec.games.shengji import replayer as r
real_phase = r._Replay.play_phase
def phase(self, rules, rnd, state, rb):
    if rnd.number == 2:
        raise RuntimeError("planted fault")
    return real_phase(self, rules, rnd, state, rb)
r._Replay.play_phase = phase
from zfrec.cli import main
main()
"""


def test_an_internal_error_inside_a_piece_still_counts_the_games_judged_before_it(
    tmp_path: Path,
) -> None:
    """29 games, then a match whose second round raises (a bug): the run stops there with exit
    3, and its summary counts the 29 games and lists them under --json, with --jobs 1 and
    --jobs 2 alike. The match falls in a piece of the file with games before it (one process
    cuts pieces of 8 games, the workers' last ones finer), whose counts were lost with it."""
    samples = ROOT / "sample_games"
    good = (samples / "02-three-players.zfn").read_text("utf-8")  # 2 hands
    match = (samples / "shengji" / "01-bashifen-match.zfn").read_text("utf-8")
    path = tmp_path / "night.zfn"
    path.write_text("\n".join([good] * 29 + [match, good]), "utf-8")
    cuts = {
        ft: [p.games_before for p in batch.pieces(str(path), 8, lambda: "", fine_tail=ft)]
        for ft in (False, True)
    }
    assert cuts[False] != cuts[True] and 29 not in cuts[False] + cuts[True]  # inside a piece
    docs, texts = [], []
    for jobs in ("1", "2"):
        argv = [sys.executable, "-c", _PLANT_IN_ROUND_2, "validate", "--jobs", jobs, str(path)]
        done = subprocess.run([*argv, "--json"], capture_output=True, text=True, check=False)
        assert done.returncode == 3, done.stderr
        doc = json.loads(done.stdout)
        assert {k: doc["summary"][k] for k in ("files", "games", "hands", "errors", "ok")} == {
            "files": 1, "games": 29, "hands": 58, "errors": 0, "ok": False,
        }  # fmt: skip
        assert len(doc["files"][0]["games"]) == 29
        assert doc["summary"]["error"].startswith(
            f"internal error while validating {path}, game 30 (line "
        )
        docs.append(doc)
        text = subprocess.run(argv, capture_output=True, text=True, check=False)
        assert text.returncode == 3
        texts.append((text.stdout, text.stderr))
    assert docs[0] == docs[1]
    assert texts[0] == texts[1]
    # the text ends with the summary it gives otherwise, and the internal error counted
    summary = docs[0]["summary"]
    assert texts[0][0] == (
        f"1 file(s), 29 game(s), 58 hand(s), {summary['moves']} move(s): 0 error(s), 0 "
        "warning(s), 0 note(s), 1 internal error(s) - stopped\n"
    )
    assert summary["moves"] == 29 * 117
