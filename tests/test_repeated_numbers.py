"""A record that writes a hand (Sheng ji: round) number twice loses no page: `render` and
`publish` give each its own (`hand-1.html`, `hand-1-2.html`; RENDER.md, Page names), every
link of the written pages reaches a written file, and each `#step=` a step of its page.

The records are tests/data/hand-number-repeated.zfn and sj-round-number-repeated.zfn: the
broken samples hand-number-skipped.zfn and round-number-skipped.zfn with their second hand
(round) written as 1 again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from typer.testing import CliRunner

from tests.test_store import store_url  # noqa: F401 - the SQLite and PostgreSQL stores
from zfrec.cli import app
from zfrec.record import load
from zfrec.render.gamefiles import render_game_files
from zfrec.render.pagenames import nth_page, parse_replay_page, replay_pages

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ZF = DATA / "hand-number-repeated.zfn"
SJ = DATA / "sj-round-number-repeated.zfn"
runner = CliRunner()

_LINK = re.compile(r'(?:href|src)="([^"]*)"')
_DATA = re.compile(r'<script type="application/json" id="(?:zf|sj)-data">(.*?)</script>', re.S)


def page_steps(html: str) -> int | None:
    """The number of steps of a replay page (Zheng Fen's or Sheng ji's), None for other pages."""
    m = _DATA.search(html)
    if m is None:
        return None
    data: dict[str, Any] = json.loads(m.group(1))
    return len(data["steps"])


def broken_links(root: Path) -> list[str]:
    """Every link of every page under `root` to a file that is not there, or to a step
    (`#step=N`) its replay page does not have: `page -> link (why)`. Links out of the site
    (`http:`, `data:`, a fragment of the page itself) are not followed."""
    pages = sorted(root.rglob("*.html"))
    steps = {p.resolve(): page_steps(p.read_text("utf-8")) for p in pages}
    broken = []
    for page in pages:
        for link in _LINK.findall(page.read_text("utf-8")):
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("#", "//")) or not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            where = f"{page.relative_to(root)} -> {link}"
            if root.resolve() not in target.parents or not target.is_file():
                broken.append(f"{where} (no such file)")
                continue
            m = re.fullmatch(r"step=(\d+)", parts.fragment)
            if m is not None:
                count = steps.get(target)
                if count is None or int(m.group(1)) >= count:
                    broken.append(f"{where} (the page has {count} steps)")
    return broken


def _replays(folder: Path) -> dict[str, str]:
    return {
        p.name: p.read_text("utf-8")
        for p in sorted(folder.glob("*.html"))
        if parse_replay_page(p.name) is not None
    }


def test_the_page_names_keep_unique_numbers_and_number_the_repeats() -> None:
    hand = "hand-{}.html".format
    assert replay_pages([1, 2, 3], hand) == ["hand-1.html", "hand-2.html", "hand-3.html"]
    assert replay_pages([1, 3], hand) == ["hand-1.html", "hand-3.html"]  # skipped: as before
    assert replay_pages([2, 1, 2, 2], hand) == [
        "hand-2.html", "hand-1.html", "hand-2-2.html", "hand-2-3.html",
    ]  # fmt: skip
    names = replay_pages([1, 1], "round-{}.html".format)
    assert [parse_replay_page(n) for n in names] == [("round", 1, 1), ("round", 1, 2)]
    assert nth_page("../games/3/hand-12.html#step=4", 2) == "../games/3/hand-12-2.html#step=4"


@pytest.mark.parametrize(
    ("record", "unit", "names"),
    [
        (ZF, "hand", ["hand-1-2.html", "hand-1.html"]),
        (SJ, "round", ["round-1-2.html", "round-1.html"]),
    ],
)
def test_render_writes_a_page_per_hand_and_says_which_numbers_repeat(
    tmp_path: Path, record: Path, unit: str, names: list[str]
) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(record), "-o", str(out), "--solve-cards", "0"])
    assert result.exit_code == 0, result.output
    pages = _replays(out)
    assert sorted(pages) == names
    first, second = pages[names[1]], pages[names[0]]
    assert first != second
    assert f"<h1>{unit.title()} 1 · " in first and f"<h1>{unit.title()} 1 (2nd) · " in second
    # each page replays its own hand: the first's deal is not the second's
    deals = [json.loads(_DATA.search(p).group(1))["steps"][0] for p in (first, second)]  # type: ignore[union-attr]
    assert deals[0] != deals[1]
    written = sorted(p for p in out.rglob("*") if p.is_file())
    lines = result.output.splitlines()
    assert lines == [
        f"{out / 'index.html'}  (2 {unit} replay(s))",
        f"note: {unit} number 1 is written 2 times: its pages are {unit}-1.html and "
        f"{unit}-1-2.html",
        f"wrote {len(written)} file(s) to {out}",
    ]
    # each page links the other as its neighbour, and the game page links both
    assert f'href="{names[0]}" rel="next">{unit.title()} 1 (2nd) →' in first
    assert f'href="{names[1]}" rel="prev">← {unit.title()} 1<' in second
    game = (out / "index.html").read_text("utf-8")
    assert f'href="{names[1]}"' in game and f'href="{names[0]}"' in game
    assert f"{unit.title()} 1 (2nd) ▸ replay" in game
    assert broken_links(out) == []


def test_the_finding_links_to_the_hand_written_again() -> None:
    for record, page in ((ZF, "hand-1-2.html"), (SJ, "round-1-2.html")):
        [game] = load(record)
        files = render_game_files(game, charts=False).files
        index = next(f for f in files if f.path == "index.html")
        # the warning about the number written again is at the second hand's head
        warning = re.search(r'<li class="warning">.*?</li>', index.content.decode(), re.S)
        assert warning is not None and f'href="{page}' in warning.group(0), record


def test_the_analysis_notes_name_the_second_hand_as_its_page_does(tmp_path: Path) -> None:
    """The game page's analysis notes of the second hand 1 say `Hand 1 (2nd)`, as its page's
    heading, so that two notes at the same trick and turn of the two hands read apart; its
    page's analysis section says so too."""
    out = tmp_path / "out"
    assert runner.invoke(app, ["render", str(ZF), "-o", str(out)]).exit_code == 0
    game = (out / "index.html").read_text("utf-8")
    notes = re.findall(r'<li class="zf-[a-z-]+"><a href="([^"#]+)#step=\d+">([^<]+)</a>', game)
    pages = {page for page, _ in notes}
    assert pages == {"hand-1.html", "hand-1-2.html"}, notes
    for page, at in notes:
        assert at.startswith("Hand 1 (2nd), " if page == "hand-1-2.html" else "Hand 1, "), at
    assert "Analysis of hand 1 (2nd)" in (out / "hand-1-2.html").read_text("utf-8")
    assert "(2nd)" not in (out / "hand-1.html").read_text("utf-8").split("<h1>")[1].split("·")[0]


def test_sheng_ji_rounds_numbered_alike_keep_their_own_results(tmp_path: Path) -> None:
    """The round pages take each round's own ledger, not the last of its number's."""
    out = tmp_path / "out"
    assert runner.invoke(app, ["render", str(SJ), "-o", str(out)]).exit_code == 0
    data = [
        json.loads(_DATA.search((out / n).read_text("utf-8")).group(1))  # type: ignore[union-attr]
        for n in ("round-1.html", "round-1-2.html")
    ]
    assert [d["change"].split(";")[0] for d in data] == [
        "the declarers go up 1",
        "the opponents take over, up 1",
    ]


def test_publish_stores_and_links_a_page_per_hand_of_both_games(
    store_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    records = [str(ZF), str(SJ), str(ROOT / "sample_games" / "02-three-players.zfn")]
    result = runner.invoke(app, ["import", "--db", store_url, *records])
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    result = runner.invoke(app, ["publish", "--db", store_url, "-o", str(site), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["repeated"] == [
        {"game": 1, "unit": "hand", "pages": {"1": ["hand-1.html", "hand-1-2.html"]}},
        {"game": 2, "unit": "round", "pages": {"1": ["round-1.html", "round-1-2.html"]}},
    ]
    assert sorted(_replays(site / "games" / "1")) == ["hand-1-2.html", "hand-1.html"]
    assert sorted(_replays(site / "games" / "2")) == ["round-1-2.html", "round-1.html"]
    assert sorted(_replays(site / "games" / "3")) == ["hand-1.html", "hand-2.html"]
    assert broken_links(site) == []
    # the stored records keep no lines: each game page's warning still names its second hand
    for game, finding in (("1", ("ZF406", "hand-1-2.html")), ("2", ("SJ508", "round-1-2.html"))):
        assert _finding_pages(site / "games" / game / "index.html") == [finding], game
    # from the store's artifacts, into a new site: the same pages, and the same summary
    again = tmp_path / "again"
    result = runner.invoke(app, ["publish", "--db", store_url, "-o", str(again), "--json"])
    assert json.loads(result.stdout)["repeated"] == summary["repeated"]
    for game in ("1", "2"):
        assert _replays(again / "games" / game) == _replays(site / "games" / game)
    text = runner.invoke(app, ["publish", "--db", store_url, "-o", str(again)])
    assert (
        "note: game 1: hand number 1 is written 2 times: its pages are games/1/hand-1.html "
        "and games/1/hand-1-2.html"
    ) in text.output.splitlines()


def test_the_links_of_a_site_of_every_sample_resolve(tmp_path: Path) -> None:
    """The link checker over pages whose numbers are unique: the samples of both games."""
    db = f"sqlite:///{tmp_path / 'store.db'}"
    samples = sorted(str(p) for p in (ROOT / "sample_games").glob("*.zfn"))
    samples += sorted(str(p) for p in (ROOT / "sample_games" / "shengji").glob("*.zfn"))
    assert runner.invoke(app, ["import", "--db", db, *samples]).exit_code == 0
    site = tmp_path / "site"
    result = runner.invoke(app, ["publish", "--db", db, "-o", str(site), "--solve-cards", "0"])
    assert result.exit_code == 0, result.output
    assert len(list(site.rglob("round-*.html"))) > 10 and len(list(site.rglob("hand-*.html"))) > 20
    assert broken_links(site) == []
    assert "is written" not in result.output


def test_a_link_checker_finds_a_missing_page_and_a_step_past_the_end(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert runner.invoke(app, ["render", str(ZF), "-o", str(out)]).exit_code == 0
    (out / "hand-1-2.html").unlink()
    page = out / "hand-1.html"
    page.write_text(page.read_text("utf-8") + '<a href="hand-1.html#step=9999">x</a>', "utf-8")
    found = broken_links(out)
    assert "index.html -> hand-1-2.html (no such file)" in found
    assert any(f.startswith("hand-1.html -> hand-1.html#step=9999 (the page has") for f in found)


@pytest.mark.parametrize(
    ("record", "wrong", "page"),
    [
        (ZF, ("score 0 100 0 total 0 110 90", "score 0 90 10 total 0 100 100"), "hand-1-2.html"),
        (SJ, ("points 90 kitty 30x2 total 150", "points 90 kitty 30x2 total 160"), "round-1-2"),
    ],
)
def test_the_audit_of_a_broken_record_links_the_hand_written_again(
    tmp_path: Path, record: Path, wrong: tuple[str, str], page: str
) -> None:
    """The second hand (round) 1 is scored wrong: the audit's findings point at its page."""
    text = record.read_text("utf-8")
    assert text.count(wrong[0]) == 1
    broken = tmp_path / record.name
    broken.write_text(text.replace(*wrong), "utf-8")
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(broken), "-o", str(out), "--solve-cards", "0"])
    assert result.exit_code == 0, result.output
    assert "audit page audit.html" in result.output
    audit = (out / "audit.html").read_text("utf-8")
    errors = re.findall(r'<li class="error"[^>]*>.*?</li>', audit, re.S)
    assert errors and all(f'href="{page}' in e for e in errors), errors
    assert broken_links(out) == []


_FINDING = re.compile(
    r'<li class="(?:error|warning)"[^>]*><span class="code">(\w+)</span>.*?<a href="([^"#]*)'
)


def _finding_pages(page: Path) -> list[tuple[str, str]]:
    """Each finding of a game or audit page: its code and the page its link opens."""
    return _FINDING.findall(page.read_text("utf-8"))


def test_a_sheng_ji_record_without_lines_links_each_finding_to_its_own_round(
    tmp_path: Path,
) -> None:
    """A JSON record (as the store keeps it) says no line: the findings of the first round 1
    still open its page, and the warning of the second round 1 the second's, on the game page
    and on the audit page. (Matched by line, every finding went to one of the two.)"""
    broken = tmp_path / "broken.zfn"
    text = SJ.read_text("utf-8")
    assert text.count("points 75 total 75") == 1  # the first round 1's points
    broken.write_text(text.replace("points 75 total 75", "points 75 total 85"), "utf-8")
    expected = [("SJ501", "round-1.html"), ("SJ508", "round-1-2.html")]
    for record in (SJ, broken):
        converted = tmp_path / f"{record.stem}.json"
        assert runner.invoke(app, ["convert", str(record), str(converted)]).exit_code == 0
        for source in (record, converted):
            out = tmp_path / f"out-{source.name}"
            result = runner.invoke(
                app, ["render", str(source), "-o", str(out), "--solve-cards", "0"]
            )
            assert result.exit_code == 0, result.output
            found = _finding_pages(out / "index.html")
            assert found == (expected if record == broken else expected[1:]), source
            if record == broken:
                assert _finding_pages(out / "audit.html") == expected, source


def test_a_disputed_play_of_the_second_round_1_counts_that_rounds_points(
    tmp_path: Path,
) -> None:
    """The audit's verdict on a disputed play of the second round 1 gives the opponents'
    points of that round (150), not of the first round 1 (75)."""
    text = SJ.read_text("utf-8")
    line = "2: Jc  3: 9c  4: 7c  1: Tc\n"  # the second round 1's fourth trick
    assert text.count(line) == 1 and text.index(line) > text.index("points 75 total 75")
    disputed = tmp_path / "disputed.zfn"
    disputed.write_text(text.replace(line, line[:-1] + " disputed or 4c\n"), "utf-8")
    result = runner.invoke(app, ["audit", "--json", str(disputed)])
    [game] = json.loads(result.stdout)["games"]
    [dispute] = game["disputes"]
    recorded = next(v for v in dispute["versions"] if v["recorded"])
    assert (dispute["round"], recorded["legal"]) == (1, True)
    assert recorded["opponents_points"] == 150


def _first_round_alone(tmp_path: Path) -> Path:
    """The Sheng ji record cut after its first round 1: that round as a record of its own."""
    text = SJ.read_text("utf-8").replace('[Expect "SJ508 42:1"]\n', "")
    alone = tmp_path / "first.zfn"
    alone.write_text(text[: text.index("\nround 1 ", text.index("round 1 ") + 1) + 1], "utf-8")
    return alone


def _marks(page: Path) -> list[tuple[int, str]]:
    data = json.loads(_DATA.search(page.read_text("utf-8")).group(1))  # type: ignore[union-attr]
    return [(i, s["mark"]) for i, s in enumerate(data["steps"]) if s.get("mark")]


def test_the_solvers_marks_of_the_first_round_1_are_its_own(tmp_path: Path) -> None:
    """With --solve-cards, the first round 1's page has the marks it has in a record of its
    own: the solver starts it from its own deal, not from the second round 1's."""
    alone = _first_round_alone(tmp_path)
    pages = {}
    for record in (alone, SJ):
        out = tmp_path / f"out-{record.stem}"
        result = runner.invoke(app, ["render", str(record), "-o", str(out), "--solve-cards", "12"])
        assert result.exit_code == 0, result.output
        pages[record] = out / "round-1.html"
    assert _marks(pages[alone]) != []
    assert _marks(pages[SJ]) == _marks(pages[alone])


def test_sheng_ji_solve_at_a_repeated_number_takes_the_first_round(tmp_path: Path) -> None:
    """`solve --at 1` of a record with two rounds 1 solves the first, as Zheng Fen's `--at`
    takes the first hand of a number."""
    alone = _first_round_alone(tmp_path)
    found = []
    for record in (alone, SJ):
        result = runner.invoke(
            app, ["solve", str(record), "--at", "1", "--max-nodes", "2000", "--json"]
        )
        assert result.exit_code == 1, result.output  # 1: not solved to the end in the budget
        found.append({k: v for k, v in json.loads(result.stdout).items() if k != "ms"})
    assert found[0] == found[1]


SJ_SOLVE_KEYS = ["values", "best", "line", "nodes", "ms", "exact", "bounds"]


def test_sheng_ji_solve_names_the_round_it_solves_with_2nd_where_its_number_repeats() -> None:
    second = runner.invoke(app, ["solve", str(SJ), "--at", "round-1-2.html#step=80", "--json"])
    assert second.exit_code == 0, second.output
    answer = json.loads(second.stdout)
    # every key as before, then the round, and its occurrence where the number repeats
    assert list(answer) == [*SJ_SOLVE_KEYS, "round", "occurrence"]
    assert (answer["round"], answer["occurrence"]) == (1, 2)
    text = runner.invoke(app, ["solve", str(SJ), "--at", "round-1-2.html#step=80"])
    assert text.exit_code == 0, text.output
    player = answer["line"][0]["player"]
    assert text.stdout.splitlines()[0] == f"game 1, round 1 (2nd): {player} to move"
    # the first round 1: no occurrence, nothing added to its name
    first = runner.invoke(app, ["solve", str(SJ), "--at", "1.20.1", "--json"])
    assert first.exit_code == 0, first.output
    answer = json.loads(first.stdout)
    assert list(answer) == [*SJ_SOLVE_KEYS, "round"] and answer["round"] == 1
    text = runner.invoke(app, ["solve", str(SJ), "--at", "1.20.1"])
    player = answer["line"][0]["player"]
    assert text.stdout.splitlines()[0] == f"game 1, round 1: {player} to move"


def _audit(record: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["audit", "--json", str(record)])
    [game] = json.loads(result.stdout)["games"]
    return game  # type: ignore[no-any-return]


def _renumbered(text: str) -> str:
    """The record with its second round 1 written as round 2: each number once."""
    second = text.index("\nround 1 ", text.index("round 1 ")) + 1
    return text[:second] + "round 2 " + text[second + len("round 1 ") :]


@pytest.mark.parametrize(
    "edits",
    [
        # the first round 1's total: the repair reads it from that round's own figures
        [("points 75 total 75", "points 75 total 85")],
        # the second round 1: East revokes (Ts on diamonds, holding 6d), then plays the 6d
        [("2: 9d  3: 8d  4: Qd  1: 6d\n", "2: 9d  3: 8d  4: Qd  1: Ts\n"),
         ("3: Ad  4: 6s  1: Ts  2: Td\n", "3: Ad  4: 6s  1: 6d  2: Td\n")],
    ],
)  # fmt: skip
def test_the_audit_repairs_a_round_as_if_its_number_were_written_once(
    tmp_path: Path, edits: list[tuple[str, str]]
) -> None:
    """The audit of a record with two rounds 1 finds the repairs, and tries the candidates,
    that it finds and tries with the second round numbered 2: each round's figures and hands
    are its own, not those of the other round 1."""
    text = SJ.read_text("utf-8")
    for wrong, right in edits:
        assert text.count(wrong) == 1
        text = text.replace(wrong, right)
    found = {}
    for name, body in (("repeated", text), ("unique", _renumbered(text))):
        record = tmp_path / f"{name}.zfn"
        record.write_text(body, "utf-8")
        found[name] = _audit(record)
    # the edits, less the round's number and the words that name it
    repairs = [
        [[(e["kind"], e["trick"], e["turn"], e["before"], e["after"]) for e in r["edits"]]
         for r in found[k]["repairs"]]
        for k in ("repeated", "unique")
    ]  # fmt: skip
    assert repairs[0] == repairs[1] != []
    assert found["repeated"]["search"]["tried"] == found["unique"]["search"]["tried"]


def test_solve_at_a_page_of_the_hand_written_again() -> None:
    """`solve --at` takes the second hand 1's address (hand-1-2.html#step=N) as its own."""
    first = runner.invoke(app, ["solve", str(ZF), "--at", "hand-1.html#step=40"])
    second = runner.invoke(app, ["solve", str(ZF), "--at", "out/hand-1-2.html#step=40"])
    assert first.exit_code == second.exit_code == 0, (first.output, second.output)
    assert "trick 5, 10 points on the table" in first.output
    assert "trick 4, 0 points on the table" in second.output
    third = runner.invoke(app, ["solve", str(ZF), "--at", "hand-1-3.html#step=40"])
    assert third.exit_code == 2
    assert "the game has 2 hand(s) numbered 1, not 3" in third.output
    # no page is hand-1-0.html (nor hand-1-1.html): refused, not read as the last hand 1
    for name in ("hand-1-0.html", "hand-1-1.html"):
        wrong = runner.invoke(app, ["solve", str(ZF), "--at", f"{name}#step=40"])
        assert wrong.exit_code == 2, (name, wrong.output)
        assert f"--at '{name}#step=40' names no position" in wrong.output


def test_the_charts_place_each_hand_of_a_repeated_number_apart() -> None:
    """Both hands 1 (rounds 1) get their own bar and point on the charts, labelled 1 and 1, in
    record order; numbers that go up keep their places (a skipped number leaves its gap)."""
    from zfrec.games.shengji import charts as sj_charts
    from zfrec.games.shengji.kind import match_of
    from zfrec.games.shengji.pages import match_view
    from zfrec.games.zhengfen.pages import charts as zf_charts
    from zfrec.games.zhengfen.pages.html import build_game_view

    [zf] = load(ZF)
    [sj] = load(SJ)
    view, match = build_game_view(zf), match_view(match_of(sj))
    models = [
        zf_charts.score_model(view),
        zf_charts.points_model(view),
        sj_charts.ladder_model(match),
        sj_charts.points_model(match),
    ]
    for m in models:
        assert len(set(m.xs)) == len(m.xs), m.name
        assert [m.x_text(x) for x in m.xs if x] == ["1", "1"], m.name
    bars = models[1].series
    assert [sum(s.values[i] for s in bars) for i in range(2)] == [100, 100]
    [skipped] = load(ROOT / "sample_games" / "broken" / "hand-number-skipped.zfn")
    m = zf_charts.points_model(build_game_view(skipped))
    assert m.xs == (1, 3) and m.x_texts == ()


def test_sheng_ji_solve_at_a_page_of_the_round_written_again(tmp_path: Path) -> None:
    """`solve --at round-1-2.html` (its address, `#step=K` too) solves the second round 1 as
    `--at 2` (`2.T.U`) solves it in the record with that round numbered 2; the first round 1's
    page and `--at 1` stay the first round's."""
    unique = tmp_path / "unique.zfn"
    unique.write_text(_renumbered(SJ.read_text("utf-8")), "utf-8")

    def solved(record: Path, at: str) -> dict[str, Any]:
        result = runner.invoke(
            app, ["solve", str(record), "--at", at, "--json", "--max-nodes", "3000"]
        )
        assert result.exit_code in (0, 1), (at, result.output)
        # the solve itself: not its time, nor the round's name (which the renumbering changes)
        hidden = ("ms", "round", "occurrence")
        return {k: v for k, v in json.loads(result.stdout).items() if k not in hidden}

    assert solved(SJ, "round-1-2.html") == solved(unique, "2") != solved(SJ, "1")
    assert solved(SJ, "round-1.html") == solved(SJ, "1") == solved(unique, "round-1.html#step=0")
    # step 80 shows the round after 80 plays: before trick 21's first play (20 tricks of 4)
    at_step = solved(SJ, "file:///site/games/2/round-1-2.html?seat=3#step=80")
    assert at_step == solved(unique, "2.21.1") == solved(unique, "round-2.html#step=80")
    assert at_step["exact"] and at_step["line"][0]["player"] == "West"
    # the page's last steps are the round over; past them, and a third round 1, are refused
    for at, said in (
        ("round-1-2.html#step=88", "round 1 (2nd) is over (the opponents took 150 points)"),
        ("round-1-2.html#step=90", "round 1 (2nd) has steps 0 to 89 (its replay page's #step=)"),
        ("round-1-3.html", "the record has 2 round(s) numbered 1, not 3"),
        ("round-1-1.html", "--at 'round-1-1.html' names no Sheng ji position"),
        ("hand-1-2.html", "--at 'hand-1-2.html' names no Sheng ji position"),
    ):
        result = runner.invoke(app, ["solve", str(SJ), "--at", at])
        assert result.exit_code == 2 and said in result.output, (at, result.output)


def test_zheng_fen_solve_at_the_page_of_the_hand_written_again_alone_is_its_deal() -> None:
    """`--at hand-1-2.html` (no step) is that hand's deal, as its page opens; the position's
    heading names the hand as the page does, and the JSON says which hand 1 it is."""
    from zfrec.cli.solve_cmds import parse_at
    from zfrec.games.zhengfen.analysis.position import At

    assert parse_at("hand-1-2.html") == At(hand=1, step=0, occurrence=2)
    assert parse_at("out/hand-1-2.html?seat=2#step=5") == At(hand=1, step=5, occurrence=2)
    assert parse_at("round-1-2.html#step=5") is None
    second = runner.invoke(app, ["solve", str(ZF), "--at", "hand-1-2.html", "--max-nodes", "500"])
    assert second.output.startswith("game 1, hand 1 (2nd), step 0: Hao to lead trick 1\n")
    first = runner.invoke(app, ["solve", str(ZF), "--at", "hand-1.html", "--max-nodes", "500"])
    assert first.output.startswith("game 1, hand 1, step 0: Jun to lead trick 1\n")
    for at, occurrence in (("hand-1-2.html#step=40", 2), ("hand-1.html#step=40", None)):
        result = runner.invoke(app, ["solve", str(ZF), "--at", at, "--json"])
        data = json.loads(result.stdout)
        assert (data["hand"], data.get("occurrence")) == (1, occurrence), at


def test_each_steps_headline_names_the_hand_as_its_page(tmp_path: Path) -> None:
    """The deal's and the result's headlines of the second hand (round) 1 say `(2nd)`; the
    first's do not, and only the second round's data carries a `label`."""
    zf, sj = _rendered(ZF, tmp_path / "zf"), _rendered(SJ, tmp_path / "sj")
    first, second = (_page_data(zf / n)["steps"] for n in ("hand-1.html", "hand-1-2.html"))
    assert first[0]["headline"].startswith("Hand 1. ")
    assert second[0]["headline"].startswith("Hand 1 (2nd). ")
    assert second[-1]["headline"].startswith("Hand 1 (2nd) over. Points: ")
    assert first[-1]["headline"].startswith("Hand 1 over. Points: ")
    rounds = [_page_data(sj / n) for n in ("round-1.html", "round-1-2.html")]
    assert rounds[0]["steps"][0]["headline"].startswith("Round 1: ")
    assert rounds[1]["steps"][0]["headline"].startswith("Round 1 (2nd): ")
    assert "label" not in rounds[0] and rounds[1]["label"] == "Round 1 (2nd)"


def _rendered(record: Path, out: Path) -> Path:
    result = runner.invoke(app, ["render", str(record), "-o", str(out), "--solve-cards", "0"])
    assert result.exit_code == 0, result.output
    return out


def _page_data(page: Path) -> dict[str, Any]:
    found = _DATA.search(page.read_text("utf-8"))
    assert found is not None
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def test_the_pages_findings_and_disputes_name_the_round_written_again(tmp_path: Path) -> None:
    """The game page's and the audit page's findings, and the disputes, of the second round
    (hand) 1 say `(2nd)`, as its page's heading does."""
    line = "2: Jc  3: 9c  4: 7c  1: Tc\n"  # the second round 1's fourth trick
    text = SJ.read_text("utf-8").replace(line, line[:-1] + " disputed or 4c\n")
    sj = tmp_path / "sj.zfn"
    sj.write_text(text.replace("points 90 kitty 30x2 total 150", "points 90 kitty 30x2 total 160"))
    out = _rendered(sj, tmp_path / "sj")
    game, audit = ((out / n).read_text("utf-8") for n in ("index.html", "audit.html"))
    assert re.findall(r"</span> (?:error|warning) at <a [^>]*>([^<]*)</a>", game) == [
        "round 1 (2nd)",
        "round 1 (2nd)",
    ]
    assert "Round 1 (2nd), trick 4, turn 4" in audit and "Round 1, trick 4" not in audit
    text = ZF.read_text("utf-8").replace("3: 6h  1: 7d\n", "3: 6h  1: 7d disputed or Ad\n")
    zf = tmp_path / "zf.zfn"
    zf.write_text(text, "utf-8")
    page = (_rendered(zf, tmp_path / "zf") / "hand-1-2.html").read_text("utf-8")
    assert "<p>Hand 1 (2nd), trick 7, Mei" in page
