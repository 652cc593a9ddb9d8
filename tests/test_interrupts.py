"""Ctrl-C, a real SIGINT sent to a real child process: `solve` answers with the best it found
so far (not proved, as when its budget runs out) and exits 130; the long commands say in one
line what was done and kept (nothing half-written)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# the child's state is read from /proc (CPU time, what it waits in) and SIGINT sent as at a
# terminal: Linux only
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc (Linux)")

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupted(args: list[str], busy: float, cwd: Path | None = None) -> tuple[int, str, str]:
    """Run `zfrec ARGS`, send it SIGINT once it has worked `busy` CPU seconds (imports take
    about one), and give its exit code, stdout and stderr."""
    proc = _started(args, cwd)
    deadline = time.monotonic() + 120
    while _cpu_seconds(proc.pid) < busy and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


SOLVE = ["--max-seconds", "600", "--max-nodes", "1000000000"]


def test_solve_interrupted_answers_with_the_best_found_so_far() -> None:
    """A Sheng ji round from its start (never solved in minutes) and a Zheng Fen hand."""
    match = str(SAMPLES / "shengji" / "05-dabaifen-match.zfn")
    code, out, err = _interrupted(["solve", match, "--at", "1", "--json", *SOLVE], 3.0)
    assert code == 130, err
    data = json.loads(out)
    assert data["exact"] is False and data["interrupted"] is True and data["values"]
    assert "interrupted: the answer above is the best found so far, not proved" in err
    code, out, err = _interrupted(["solve", match, "--at", "1", *SOLVE], 3.0)
    assert code == 130, err
    assert out.startswith("game 1, round 1: Bo Li to move\nbest found from here (not proved): ")
    assert "not solved: interrupted: " in out
    hand = str(SAMPLES / "04-six-players.zfn")
    code, out, err = _interrupted(["solve", hand, "--at", "1.1.1", "--json", *SOLVE], 3.0)
    assert code == 130, err
    data = json.loads(out)
    assert data["solved"] is False and data["interrupted"] is True
    assert "interrupted: the answer above is the best found so far, not proved" in err


def _started(args: list[str], cwd: Path | None = None) -> subprocess.Popen[str]:
    """`zfrec ARGS` started as a Ctrl-C at a terminal reaches it: with the signal's default
    action, which a shell's & would ignore."""
    return subprocess.Popen(
        [sys.executable, "-m", "zfrec", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_validate_interrupted_says_what_it_validated(tmp_path: Path) -> None:
    """Text output: the findings printed so far stand, and one line says how far it got."""
    broken = (SAMPLES / "broken" / "card-played-twice.zfn").read_text("utf-8")
    many = tmp_path / "many.zfn"
    many.write_text("\n\n".join([broken] * 4000), "utf-8")
    proc = _started(["validate", str(many)])
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the findings are being printed: the run is inside the file
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert first and proc.returncode == 130, err
    [said] = [line for line in err.splitlines() if line.startswith("interrupted")]
    assert said.startswith("interrupted: ") and "game(s) validated (0 of 1 file(s) whole)" in said
    assert said.endswith("the rest was not validated")


def test_a_command_with_no_word_of_its_own_exits_130_in_one_line(tmp_path: Path) -> None:
    """`analyze` keeps nothing, so it has no handler of its own: Ctrl-C is still exit 130 with
    one line, not Click's "Aborted!" and exit 1."""
    game = (SAMPLES / "05-full-game-to-500.zfn").read_text("utf-8")
    many = tmp_path / "many.zfn"
    many.write_text("\n\n".join([game] * 400), "utf-8")
    proc = _started(["analyze", str(many)])
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the analysis is being printed
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert first and proc.returncode == 130, err
    assert err.strip().splitlines() == ["interrupted: zfrec analyze stopped"]


def test_simulate_interrupted_says_what_it_wrote(tmp_path: Path) -> None:
    """One file for all games: nothing written. A folder: the records written, each whole."""
    target = tmp_path / "all.zfn"
    code, _, err = _interrupted(["simulate", "--out", str(target), "--games", "1000000"], 2.5)
    assert code == 130 and not target.exists()
    assert f"interrupted: nothing was written to {target}" in err
    folder = tmp_path / "games"
    code, _, err = _interrupted(["simulate", "--out", str(folder), "--games", "1000000"], 2.5)
    assert code == 130
    made = sorted(p.name for p in folder.iterdir())
    assert made and not [n for n in made if not n.startswith("game-")]  # no temporary file left
    assert f"interrupted: {len(made)} record file(s) written whole to {folder}" in err
    assert f"({made[0]} to {made[-1]})" in err


def test_import_interrupted_stops_between_files_and_says_what_it_stored(tmp_path: Path) -> None:
    """Ctrl-C in an import of many files: exit 130, the files named as imported are stored
    whole and nothing else (a commit the signal cut used to
    give an internal error, exit 3, or a driver's traceback)."""
    import re

    folder = tmp_path / "games"
    made = _started(["simulate", "--out", str(folder), "--games", "600", "--seed", "2"])
    assert made.wait(timeout=120) == 0
    for db in (str(tmp_path / "s.db"),):
        code, _, err = _interrupted(["import", str(folder), "--db", db], 1.3)
        assert code == 130 and "Traceback" not in err, err
        said = re.search(r"interrupted after importing .*: the files up to it were imported; "
                         r"the (\d+) file\(s\) after it were not imported", err)  # fmt: skip
        assert said is not None, err
        listed = subprocess.run(
            [sys.executable, "-m", "zfrec", "games", "--db", db, "--json"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        files = len(list(folder.iterdir()))
        assert len(json.loads(listed)) == files - int(said[1]), err


def _blocked_in_output(args: list[str]) -> tuple[int, str, str]:
    """Run `zfrec ARGS` with its standard output a pipe filled to the brim beforehand, so that
    it stops in its first write (a solve's answer once its search has ended, a publish's
    summary once its site is in place); send SIGINT only then (its kernel wait channel says
    so), and give its exit code, stdout and stderr."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    filler = 0
    try:
        while True:
            filler += os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    os.set_blocking(write_end, True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "zfrec", *args],
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
        # stdout block-buffered, as a pipe's is by default
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(write_end)
    wchan = Path(f"/proc/{proc.pid}/wchan")
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if wchan.read_text().endswith("pipe_write"):  # writing its answer: the search is over
            break
        time.sleep(0.02)
    assert wchan.read_text().endswith("pipe_write")  # (anon_pipe_write on newer kernels)
    proc.send_signal(signal.SIGINT)
    chunks = []
    with os.fdopen(read_end, "rb") as pipe:
        while chunk := pipe.read(65536):
            chunks.append(chunk)
    output = b"".join(chunks)[filler:]
    _, err = proc.communicate(timeout=120)
    return proc.returncode, output.decode("utf-8"), err


def test_solve_interrupted_after_its_search_ended_answers_exactly() -> None:
    """A Ctrl-C that lands once the search has ended (here: while the answer is being written)
    changes nothing in the answer: it is exact, as the same solve's without a signal, with the
    same nodes; exit 130 and one line say the answer stands. (It used to say "not proved",
    "exact": false, for a search that had finished.) A search the signal cuts short is not
    exact, and says so."""
    zf = ["solve", str(SAMPLES / "02-three-players.zfn"), "--at", "1.6.1"]
    sj = ["solve", str(SAMPLES / "shengji" / "05-dabaifen-match.zfn"), "--at", "1.10.1"]
    for args, exact in ((zf, "solved"), (sj, "exact")):
        whole = subprocess.run(
            [sys.executable, "-m", "zfrec", *args, "--json"], capture_output=True, text=True
        )
        assert whole.returncode == 0, whole.stderr
        alone = json.loads(whole.stdout)
        code, out, err = _blocked_in_output([*args, "--json"])
        data = json.loads(out)
        assert code == 130, err
        assert data[exact] is True and "interrupted" not in data
        assert data["nodes"] == alone["nodes"] and data["values"] == alone["values"]
        assert "interrupted after the search had ended: the answer above is proved" in err
        assert "not proved" not in err
    # cut short: a search that does not end in minutes, signalled while it searches
    match = str(SAMPLES / "shengji" / "05-dabaifen-match.zfn")
    code, out, err = _interrupted(["solve", match, "--at", "1", "--json", *SOLVE], 3.0)
    data = json.loads(out)
    assert code == 130 and data["exact"] is False and data["interrupted"] is True
    assert "interrupted: the answer above is the best found so far, not proved" in err


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_publish_interrupted_leaves_the_site_as_it_was(tmp_path: Path) -> None:
    """Ctrl-C in a publish of 200 games, sent once its progress (on a terminal: stderr is a
    pseudo-terminal here) shows games done and games to come, so that it lands while publish
    works: exit 130, one line says the site was left as it was and how many games were done,
    the previous site is there byte for byte, and nothing else is beside it (no temporary
    folder, no lock file)."""
    import fcntl
    import pty
    import re
    import select
    import struct
    import termios

    def run(*args: str) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "zfrec", *args], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr

    folder, db, site = tmp_path / "games", str(tmp_path / "s.db"), tmp_path / "out" / "site"
    run("simulate", "--out", str(folder), "--games", "200", "--seed", "2")
    run("import", str(folder), "--db", db)
    small = str(tmp_path / "small.db")
    run("import", str(SAMPLES / "02-three-players.zfn"), "--db", small)
    run("publish", "--db", small, "--out", str(site))  # the previous site
    before = _tree(site)
    assert "index.html" in before

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 1000, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "zfrec", "publish", "--db", db, "--out", str(site)],
        stdout=subprocess.PIPE,
        stderr=follower,
        env={**os.environ, "TERM": "xterm", "COLUMNS": "1000"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(follower)
    said = b""
    signalled = False
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if not select.select([leader], [], [], 1.0)[0]:
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end closed: the process has ended
            break
        if not chunk:
            break
        said += chunk
        shown = [(int(a), int(b)) for a, b in re.findall(rb"(\d+)/(\d+)", said)]
        if not signalled and any(0 < k < n == 200 for k, n in shown):
            proc.send_signal(signal.SIGINT)  # games done and games to come: publish is working
            signalled = True
    os.close(leader)
    proc.communicate(timeout=120)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", said.decode("utf-8", "replace"))
    assert signalled and proc.returncode == 130, text
    [line] = [x.strip() for x in text.splitlines() if "interrupted" in x]
    done = re.fullmatch(
        rf"interrupted: {re.escape(str(site))} was left as it was \(nothing of this publish was "
        r"put in place\); (\d+) of 200 game\(s\) done, the pages rendered up to the last second "
        r"kept in the store for the next publish",
        line,
    )
    assert done is not None and 0 < int(done[1]) < 200, line
    assert _tree(site) == before  # the previous site, whole and untouched
    assert sorted(p.name for p in site.parent.iterdir()) == ["site"]  # no temporary, no lock


def test_publish_interrupted_once_its_site_is_in_place_says_so(tmp_path: Path) -> None:
    """A Ctrl-C that lands once the new site is in place (here: while the summary is being
    written) says so, exit 130: the new site is whole, nothing beside it. (It used to end in
    click's "Aborted!", exit 1, as if nothing had been done.)"""
    db, site = str(tmp_path / "s.db"), tmp_path / "out" / "site"
    done = subprocess.run(
        [sys.executable, "-m", "zfrec", "import", str(SAMPLES / "02-three-players.zfn"),
         "--db", db], capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    code, _, err = _blocked_in_output(["publish", "--db", db, "--out", str(site)])
    assert code == 130, err
    [line] = [x for x in err.splitlines() if "interrupted" in x]
    assert line == (
        f"interrupted once the new site was put in place: {site} is the whole new site; "
        "1 of 1 game(s) done"
    )
    from zfrec.cli.site_writer import SiteWriter

    assert (site / "index.html").is_file()
    assert list(SiteWriter(site).previous()) == [1]  # the game's files all there, by the manifest
    assert sorted(p.name for p in site.parent.iterdir()) == ["site"]  # no temporary, no lock


def test_ctrl_c_held_in_publish_commit_also_with_other_threads_running() -> None:
    """The exchange of the site folders holds Ctrl-C (`interrupts_held`) also while another
    thread runs, as the progress bar's does on a terminal: the SIGINT, which the system then
    hands to that thread, is felt only once the block is over. (Blocking it for the main
    thread alone let it cut the block.)"""
    script = (
        "import os, signal, threading, time\n"
        "from zfrec.stopping import interrupts_held\n"
        "threading.Thread(target=threading.Event().wait, daemon=True).start()\n"
        "try:\n"
        "    with interrupts_held():\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        for _ in range(200):\n"
        "            time.sleep(0.01)\n"
        "        print('block whole', flush=True)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted after it')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert done.stdout.splitlines() == ["block whole", "interrupted after it"], done.stderr
