"""Publishing a site: incremental, parallel, atomic; names, fonts and the index's facts.

Browser checks of the same site (phone and desktop widths) are in test_publish_browser.py.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.lanes import unavailable
from tests.test_render import full_steps, page_data
from tests.test_store import store_url  # noqa: F401 - the SQLite and PostgreSQL stores
from zfrec.cli import app
from zfrec.cli.render_cmds import SOLVE_CARDS
from zfrec.games.zhengfen.engine.combos import Category
from zfrec.games.zhengfen.engine.game import PlayEvent
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.pages.charts import game_charts, score_model
from zfrec.games.zhengfen.pages.html import build_game_view
from zfrec.games.zhengfen.pages.viewer import encode_hand
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import Game, dumps, load, loads
from zfrec.render.fonts import font_plan
from zfrec.render.site import MANIFEST, game_files
from zfrec.replay import MoveStep, replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
runner = CliRunner()
RLO = "\u202e"


def simulated(players: int, seed: int, hands: int | None = 2) -> Game:
    return simulate_game(SimConfig(players, preset("pagat"), "greedy", hands), seed)


def renamed(game: Game, names: list[str]) -> Game:
    """The same game with other player names (in the record text, so it stays a record)."""
    text = dumps(game)
    old = re.search(r'^\[Players "(.*)"\]$', text, re.M)
    assert old is not None
    [out] = loads(text.replace(old.group(0), f'[Players "{", ".join(names)}"]'))
    return out


def store_with(tmp_path: Path, games: list[Game], name: str = "club") -> str:
    records = tmp_path / f"{name}.zfn"
    records.write_text(dumps(games), encoding="utf-8")
    db = str(tmp_path / f"{name}.db")
    result = runner.invoke(app, ["import", "--db", db, str(records)])
    assert result.exit_code in (0, 1), result.output  # 1: a record with errors, stored flagged
    return db


def publish(db: str, out: Path, *args: str) -> Any:
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out), "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


# --- incremental, parallel, atomic -----------------------------------------------------------


def test_an_unchanged_game_keeps_its_files_and_is_not_rendered_again(tmp_path: Path) -> None:
    games = [simulated(3, 1), simulated(4, 2, 1), simulated(5, 3, 1)]
    db = store_with(tmp_path, games)
    site = tmp_path / "site"
    first = publish(db, site)
    assert (first["games"], first["rendered"], first["unchanged"]) == (3, 3, 0)
    replay_page = site / "games" / "1" / "hand-1.html"
    inode, content = replay_page.stat().st_ino, replay_page.read_bytes()
    manifest = json.loads((site / MANIFEST).read_text("utf-8"))
    assert sorted(manifest["games"]) == ["1", "2", "3"]
    assert "hand-1.html" in manifest["games"]["1"]["files"]

    again = publish(db, site)
    assert (again["rendered"], again["unchanged"]) == (0, 3)
    assert again["files_reused"] == sum(len(g["files"]) for g in manifest["games"].values())
    # the same file, hard-linked into the new site: neither rendered nor written again
    assert replay_page.stat().st_ino == inode and replay_page.read_bytes() == content

    more = tmp_path / "more.zfn"
    more.write_text(dumps(simulated(6, 4, 1)), encoding="utf-8")
    assert runner.invoke(app, ["import", "--db", db, str(more)]).exit_code == 0
    grown = publish(db, site)
    assert (grown["games"], grown["rendered"], grown["unchanged"]) == (4, 1, 3)
    assert (site / "games" / "4" / "hand-1.html").exists()
    assert "games/4/index.html" in (site / "index.html").read_text("utf-8")

    # a game whose files went missing from the site comes from the store instead
    (site / "games" / "2" / "index.html").unlink()
    mended = publish(db, site)
    assert (mended["rendered"], mended["unchanged"], mended["from_store"]) == (0, 3, 4)
    assert (site / "games" / "2" / "index.html").exists()


def test_two_workers_write_the_same_site_as_one(tmp_path: Path) -> None:
    games = [simulated(n, 10 + n, 2) for n in (3, 4, 5, 6)]
    [broken] = load(SAMPLES / "broken" / "does-not-beat.zfn")
    one = store_with(tmp_path, [*games, broken], "one")
    two = store_with(tmp_path, [*games, broken], "two")
    a = publish(one, tmp_path / "a", "--jobs", "1")
    b = publish(two, tmp_path / "b", "--jobs", "2")
    assert a["rendered"] == b["rendered"] == 5
    site_a, site_b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert site_a.keys() == site_b.keys() and "games/5/audit.html" in site_a
    assert [p for p in site_a if site_a[p] != site_b[p]] == []


def test_publish_refuses_a_folder_that_is_not_a_site(tmp_path: Path) -> None:
    db = store_with(tmp_path, [simulated(3, 1, 1)])
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(mine)])
    assert result.exit_code == 2
    assert "holds no zfrec site" in result.output and "Traceback" not in result.output
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert not list(tmp_path.glob(".mine.publish-*"))


def test_a_second_publish_into_the_same_folder_at_once_is_refused(tmp_path: Path) -> None:
    db = store_with(tmp_path, [simulated(3, 1, 1)])
    with (tmp_path / ".site.publish.lock").open("ab") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = runner.invoke(app, ["publish", "--db", db, "--out", str(tmp_path / "site")])
    assert result.exit_code == 2 and "another publish is writing site" in result.output
    assert not (tmp_path / "site").exists()


def test_index_html_is_there_all_through_a_publish(tmp_path: Path) -> None:
    db = store_with(tmp_path, [simulated(3, 1), simulated(4, 2)])
    site = tmp_path / "site"
    publish(db, site)
    before = (site / "index.html").read_bytes()
    missing: list[float] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            if not (site / "index.html").exists():
                missing.append(time.monotonic())

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        result = runner.invoke(app, ["publish", "--db", db, "--out", str(site), "--title", "New"])
    finally:
        stop.set()
        watcher.join()
    assert result.exit_code == 0, result.output
    assert missing == []
    after = (site / "index.html").read_bytes()
    assert after != before and b"<h1>New</h1>" in after
    assert not list(tmp_path.glob(".site.publish-*"))


@pytest.mark.slow
def test_a_killed_publish_leaves_the_previous_site_whole(tmp_path: Path) -> None:
    db = store_with(tmp_path, [simulated(4, 7, 1)])
    site = tmp_path / "site"
    publish(db, site)
    previous = tree(site)
    big = tmp_path / "big.zfn"
    big.write_text(dumps([simulated(3 + i % 4, 40 + i, None) for i in range(8)]), "utf-8")
    assert runner.invoke(app, ["import", "--db", db, str(big)]).exit_code == 0
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", "zfrec", "publish", "--db", db, "--out", str(site)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        temp: list[Path] = []
        while time.monotonic() < deadline and child.poll() is None:
            temp = list(tmp_path.glob(".site.publish-*/games/2/index.html"))
            if temp:
                break
            time.sleep(0.05)
        assert temp and child.poll() is None, "the publish ended before it could be killed"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
    assert tree(site) == previous  # whole, index.html and all
    assert list(tmp_path.glob(".site.publish-*"))  # the half-written site, beside it
    done = publish(db, site)
    assert done["games"] == 9 and (site / "games" / "9" / "index.html").exists()
    assert not list(tmp_path.glob(".site.publish-*"))  # cleared by the next publish


def test_json_summary_and_progress_only_on_a_terminal(tmp_path: Path) -> None:
    db = store_with(tmp_path, [simulated(3, 1, 1), simulated(4, 2, 1)])
    plain = subprocess.run(
        [sys.executable, "-m", "zfrec", "publish", "--db", db, "--out", str(tmp_path / "a")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert plain.stderr == ""
    assert re.search(
        r"2 game\(s\), 2 rendered, 0 from the store; \d+ file\(s\) written", plain.stdout
    )
    terminal = subprocess.run(
        [sys.executable, "-m", "zfrec", "publish", "--db", db, "--out", str(tmp_path / "b")],
        capture_output=True, text=True, check=True, env={**os.environ, "FORCE_COLOR": "1"},
    )  # fmt: skip
    assert "publishing" in terminal.stderr and "game 2: from the store" in terminal.stderr


# --- fonts for the PNG charts ------------------------------------------------------------------


def _cmap(path: str, index: int) -> set[int]:
    from fontTools.ttLib import TTFont

    font = TTFont(path, fontNumber=index, lazy=True)
    return set(font.getBestCmap())


def test_png_charts_use_a_font_that_covers_chinese_names() -> None:
    found = subprocess.run(
        ["fc-list", ":charset=738b"], capture_output=True, text=True, check=False
    )
    if not found.stdout.strip():
        unavailable("no CJK font installed (CI installs fonts-noto-cjk: .ci/services.sh)")
    game = renamed(simulated(4, 5, 3), ["王芳", "张伟", "Ann", "李娜"])
    view = build_game_view(game)
    charts = game_charts(view)
    assert all(c.png is not None and c.notice is None for c in charts)
    plan = font_plan(score_model(view).text())
    assert plan.missing == "" and plan.faces
    for char in "王芳张伟李娜Ann":
        face = plan.face_of(char)
        assert face is not None and ord(char) in _cmap(face.path, face.index), char


def _uncovered() -> str:
    """A character of a script no installed font covers (fontconfig says), or skip."""
    for char in ("\u0800", "\U0001e900", "\U00016a40", "\U00011400", "\U0001e2c0"):
        found = subprocess.run(
            ["fc-list", f":charset={ord(char):x}"], capture_output=True, text=True, check=False
        )
        if not found.stdout.strip():
            return char
    pytest.skip("every test script has an installed font here")


def test_a_name_no_font_covers_leaves_the_png_out_and_says_so_once(tmp_path: Path) -> None:
    if not shutil.which("fc-list"):
        pytest.skip("no fontconfig")
    char = _uncovered()
    games = [renamed(simulated(3, s, 2), [f"A{char}", "Bo", "Cy"]) for s in (1, 2)]
    files = {f.path for f in game_files(games[0])}
    assert {"scores.svg", "points.svg"} <= files and not {"scores.png", "points.png"} & files
    page = next(f for f in game_files(games[0]) if f.path == "index.html").content.decode()
    assert 'href="scores.svg"' in page and ".png" not in page
    db = store_with(tmp_path, games)
    result = subprocess.run(
        [sys.executable, "-m", "zfrec", "publish", "--db", db, "--out", str(tmp_path / "s")],
        capture_output=True, text=True, check=True, env={**os.environ, "COLUMNS": "300"},
    )  # fmt: skip
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and f"U+{ord(char):04X}" in notes[0] and "SVG" in notes[0]


# --- names: isolated, and cut short where they would push the layout ---------------------------


class _TextNodes(HTMLParser):
    """Text as the browser renders it, with the elements it sits in (scripts and styles out)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.texts: list[tuple[str, tuple[str, ...]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("meta", "link", "br", "input", "img", "path", "rect", "line", "polyline"):
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop() == tag:
                break

    def handle_data(self, data: str) -> None:
        if not {"script", "style"} & set(self.stack):
            self.texts.append((data, tuple(self.stack)))


def unisolated(html: str, name: str) -> list[str]:
    """Where `name` is shown neither in a <bdi> nor between U+2068 and U+2069."""
    parser = _TextNodes()
    parser.feed(html)
    bad = []
    for text, stack in parser.texts:
        for m in re.finditer(re.escape(name), text):
            if "bdi" in stack:
                continue
            before, after = text[: m.start()], text[m.end() :]
            if before.endswith("\u2068") and after.startswith("\u2069"):
                continue
            bad.append(f"{'/'.join(stack)}: {text[:80]!r}")
    return bad


def test_names_are_isolated_and_long_ones_cut_short_on_every_page(tmp_path: Path) -> None:
    turned = f"Eve{RLO}xof"
    long = "Z" * 3000
    game = renamed(simulated(4, 6, 3), [turned, long, "王芳", "Bo"])
    db = store_with(tmp_path, [game])
    site = tmp_path / "site"
    publish(db, site)
    pages = [p for p in site.rglob("*") if p.suffix in (".html", ".svg")]
    assert len(pages) >= 8
    for page in pages:
        text = page.read_text("utf-8")
        for name in (turned, long):
            assert unisolated(text, name) == [], page.name
    game_page = (site / "games" / "1" / "index.html").read_text("utf-8")
    # the long name: shown with an ellipsis class and its full text in a title
    assert f'<bdi class="nm" title="{long}">{long}</bdi>' in game_page
    svg = (site / "games" / "1" / "scores.svg").read_text("utf-8")
    labels = re.findall(r"<text[^>]*>(?:<title>.*?</title>)?([^<]*)</text>", svg)
    assert labels and max(len(label) for label in labels) <= 20
    assert "Z" * 17 + "…" in svg
    # The PNG chart is there when an installed font draws every name (王芳 needs a CJK one);
    # else it is rightly left out, the SVG drawn by the browser's own fonts standing alone.
    png_file = site / "games" / "1" / "scores.png"
    if font_plan(score_model(build_game_view(game)).text()).missing:
        assert not png_file.exists() and (site / "games" / "1" / "scores.svg").exists()
        return
    png = png_file.read_bytes()
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
    assert png.startswith(b"\x89PNG") and width == 800 and height < width


def test_chart_names_are_text_not_tex() -> None:
    """matplotlib reads "$...$" as TeX: a name with dollar signs is drawn as written."""
    names = ["$x^2$", "a$b", "Bo", "$x_1$ ^"]
    game = renamed(simulated(4, 9, 3), names)
    charts = game_charts(build_game_view(game))
    for chart in charts:
        labels = re.findall(r"<text[^>]*>([^<]*)</text>", chart.svg_file)
        assert {f"\u2068{n}\u2069" for n in names} <= set(labels), labels
        assert chart.png is not None and chart.png.startswith(b"\x89PNG")


# --- the index's facts, the viewer link, the audit --------------------------------------------


def test_index_rows_carry_what_the_filters_test(tmp_path: Path) -> None:
    games = [
        *load(SAMPLES / "01-annotated-club-night.zfn"),
        *load(SAMPLES / "10-every-category.zfn"),
    ]
    [broken] = load(SAMPLES / "broken" / "does-not-beat.zfn")
    db = store_with(tmp_path, [*games, broken])
    site = tmp_path / "site"
    publish(db, site)
    index = (site / "index.html").read_text("utf-8")
    rows = re.findall(r"<tr (data-text=[^>]*)>", index)
    assert len(rows) == 3
    for record, row in zip([*games, broken], rows, strict=True):
        disputes = sum(m.disputed for h in record.hands for t in h.tricks for m in t.moves)
        specials = sum(
            isinstance(e, MoveStep)
            and isinstance(e.event, PlayEvent)
            and e.event.combo.category is Category.special
            for _, e in replay(record)
        )
        attrs = dict(re.findall(r'data-([a-z]+)="([^"]*)"', row))
        assert (int(attrs["disputes"]), int(attrs["specials"])) == (disputes, specials)
        assert attrs["valid"] == ("0" if record is broken else "1")
        assert all(p.lower() in attrs["players"] for p in record.players)
    assert sum(int(dict(re.findall(r'data-([a-z]+)="([^"]*)"', r))["disputes"]) for r in rows) > 0
    assert 'href="viewer.html"' in index and (site / "viewer.html").exists()
    assert 'id="f-player"' in index and 'id="f-invalid"' in index


def test_a_viewer_link_carries_the_hand_the_replay_page_holds() -> None:
    game = simulated(4, 9, 1)
    view = build_game_view(game)
    value = encode_hand(view.hands[0])
    assert re.fullmatch(r"[A-Za-z0-9_-]+", value)
    raw = zlib.decompress(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)), wbits=-15)
    made = game_files(game, viewer_href="viewer.html", charts=False, analysis=False)
    files = {f.path: f.content.decode() for f in made}
    assert json.loads(raw) == page_data(files["hand-1.html"])
    assert 'data-viewer="viewer.html"' in files["hand-1.html"]
    assert len(value) < 8000  # a link that mail and chat programs carry whole


def test_the_audit_lists_its_findings_in_play_order_linked_to_their_steps(tmp_path: Path) -> None:
    source = SAMPLES / "broken" / "wrong-total.zfn"
    [game] = load(source)
    files = {f.path: f.content.decode() for f in game_files(game, audit=True, charts=False)}
    audit = files["audit.html"]
    found = re.findall(r'<li class="(?:error|warning)"><span class="code">(ZF\d+)</span>[^<]*'
                       r'<a href="hand-(\d+)\.html#step=(\d+)">([^<]*)</a>', audit)  # fmt: skip
    assert found
    places = []
    for code, hand, step, _where in found:
        steps = full_steps(page_data(files[f"hand-{hand}.html"]))
        assert code in [d["code"] for d in steps[int(step)].get("diagnostics", [])]
        places.append((int(hand), int(step)))
    assert places == sorted(places)


# --- the store keeps each game's files (SQLite and PostgreSQL) ---------------------------------


def test_the_store_keeps_each_games_files_under_its_key(store_url: str, tmp_path: Path) -> None:  # noqa: F811
    from zfrec.render.gamefiles import cache_key, variant
    from zfrec.store.artifacts import current_artifacts
    from zfrec.store.db import open_store, session
    from zfrec.store.store import list_games

    records = tmp_path / "g.zfn"
    records.write_text(dumps([simulated(3, 1, 1), simulated(5, 2, 1)]), encoding="utf-8")
    assert runner.invoke(app, ["import", "--db", store_url, str(records)]).exit_code == 0
    first = publish(store_url, tmp_path / "a", "--jobs", "2")
    elsewhere = publish(store_url, tmp_path / "b")  # a new folder: nothing to keep, all stored
    assert (first["rendered"], elsewhere["rendered"], elsewhere["from_store"]) == (2, 0, 2)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    engine = open_store(store_url)
    try:
        with session(engine) as s:
            for row in list_games(s):
                key = cache_key(row.content_hash, variant("", True, True, SOLVE_CARDS))
                stored = current_artifacts(s, game_id=row.id, source_hash=key)
                assert stored is not None
                names = {a.name for a in stored}
                on_disk = {p.name for p in (tmp_path / "a" / "games" / str(row.id)).iterdir()}
                assert names == on_disk | {"meta.json"}
                assert current_artifacts(s, game_id=row.id, source_hash="other") is None
    finally:
        engine.dispose()


def test_publish_will_not_replace_the_folder_it_runs_in(tmp_path: Path) -> None:
    db = store_with(tmp_path, [simulated(3, 1, 1)])
    inside = tmp_path / "site"
    inside.mkdir()
    here = Path.cwd()
    os.chdir(inside)
    try:
        result = runner.invoke(app, ["publish", "--db", db, "--out", "."])
    finally:
        os.chdir(here)
    assert result.exit_code == 2 and "holds the current folder" in result.output
    assert list(inside.iterdir()) == []


def test_the_site_writer_keeps_every_file_inside_the_site(tmp_path: Path) -> None:
    from zfrec.cli.site_writer import SiteError, SiteWriter
    from zfrec.render.gamefiles import OutputFile

    with SiteWriter(tmp_path / "site") as writer:
        writer.put(OutputFile("games/1/index.html", b"a"))
        writer.put(OutputFile("games/1/hand-1.html", b"b"))
        for bad in ("../escape.html", "/etc/escape.html", "games/../../escape.html", "a//b", ""):
            with pytest.raises(SiteError, match="refusing to write outside"):
                writer.put(OutputFile(bad, b"x"))
        writer.commit()
    assert tree(tmp_path / "site") == {"games/1/index.html": b"a", "games/1/hand-1.html": b"b"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # the lock file removed too
