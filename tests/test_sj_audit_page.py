"""Sheng ji's audit page (zfrec.games.shengji.auditpage): from real audits of faulty records
(the samples' broken ones, and valid ones edited here), `zfrec audit --html` and the audit.html
that `zfrec render` writes beside a failing record's replays. The browser half (Debian's
chromium, 390×844 and 1280×800) is tests/test_sj_audit_page_browser.py."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.shengji.audit import audit_match
from zfrec.games.shengji.auditpage import audit_view, render_audit_page
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.records import SjMatch
from zfrec.record import load, loads

SJ = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
BROKEN = SJ / "broken"
ZF_BROKEN = SJ.parent / "broken" / "card-not-held.zfn"


def _match(path: Path, text: str | None = None) -> SjMatch:
    game = next(iter(loads(text))) if text is not None else next(iter(load(path)))
    return match_of(game)


def faulty_play() -> tuple[str, str, str]:
    """The valid sample 10 with 王芳's 7d of round 1, trick 23 (its last line) written as 7s,
    a card 王芳 never held: the record's text, the old play and the new."""
    text = (SJ / "10-disputed.zfn").read_text(encoding="utf-8")
    old = "1: Kc  2: 7d  3: 3c  4: Jh"
    assert old in text
    return text.replace(old, "1: Kc  2: 7s  3: 3c  4: Jh"), "7d", "7s"


def disputed_and_wrong_total() -> str:
    """Sample 10 with its bid disputed too, and its written total 85 where the plays give 75."""
    text = (SJ / "10-disputed.zfn").read_text(encoding="utf-8")
    text = text.replace("bids 1: 2c\n", 'bids 1: 2c disputed "no bid, says Ann" or 2d\n')
    assert "points 75 total 75" in text
    return text.replace("points 75 total 75", "points 75 total 85")


def _anchors_resolve(html: str) -> list[str]:
    """Every in-page link `href="#x"` whose target `id="x"` is not on the page."""
    ids = set(re.findall(r'id="([^"]+)"', html))
    return [h for h in re.findall(r'href="#([^"]+)"', html) if h not in ids]


def test_every_finding_is_placed_and_chained_to_its_root() -> None:
    report = audit_match(_match(BROKEN / "wrong-dealer.zfn"))
    view = audit_view(report)
    diags = report.report.diagnostics
    assert len(view.findings) == len(diags) > 10
    root = view.findings[0]
    assert root.diagnostic.code == "SJ304" and root.where == "Round 2" and root.seat == "North"
    assert root.causes == () and root.followers == len(diags) - 1
    for f in view.findings[1:]:  # each follows from the wrong dealer, linked to it
        assert [c.anchor for c in f.causes] == [root.anchor], f
        trick = f.diagnostic.location.trick
        assert f.where.startswith("Round 2, trick " if trick else "Round 2"), f
    plays = [f for f in view.findings if f.diagnostic.code == "SJ102"]
    assert plays and all(f.play for f in plays)
    html = render_audit_page(view)
    assert _anchors_resolve(html) == []
    assert html.count('class="sj-follows">follows from <a href="#f1">SJ304 at Round 2 (') == (
        len(diags) - 1
    )


def test_a_play_edited_wrong_is_found_where_it_is_and_repaired_back() -> None:
    text, old, new = faulty_play()
    report = audit_match(_match(SJ, text))
    assert not report.legal
    view = audit_view(report)
    first = next(f for f in view.findings if f.diagnostic.severity == "error")
    assert (first.diagnostic.code, first.where, first.seat) == (
        "SJ102",
        "Round 1, trick 23, turn 2",
        "王芳",
    )
    assert first.play == new
    # the round left unfinished (a warning, placed at the round) follows from it, linked
    (warning,) = [f for f in view.findings if f.diagnostic.code == "SJ205"]
    assert warning.where == "Round 1" and warning.play is None
    assert [(c.code, c.anchor) for c in warning.causes] == [("SJ102", first.anchor)]
    repair = view.repairs[0]
    assert repair.ok
    edit = repair.edits[0]
    assert (edit.before, edit.after) == (new, old)
    assert edit.where == "Round 1, trick 23, turn 2 (王芳)"
    html = render_audit_page(view)
    assert '<td data-label="Before" class="wrap-cell sj-before"><code>7♠</code>' in html
    assert '<td data-label="After" class="wrap-cell sj-after"><code>7♦</code>' in html
    assert "王芳" in html and '<meta charset="utf-8">' in html


def test_disputed_bid_and_play_judged_and_the_total_as_written_against_computed() -> None:
    report = audit_match(_match(SJ, disputed_and_wrong_total()))
    view = audit_view(report, round_href="round-{}.html")
    assert [d.where for d in view.disputes] == ["Round 1, bid 1", "Round 1, trick 20, turn 3"]
    bid = view.disputes[0]
    assert [(v.play, v.recorded, v.legal) for v in bid.versions] == [
        ("2c", True, True),
        ("2d", False, False),
    ]
    assert bid.versions[1].error is not None and bid.versions[1].error.code == "SJ401"
    (r1,) = view.rounds
    total = next(f for f in r1.figures if f.label == "Opponents' total")
    assert (total.recorded, total.computed, total.differs) == ("85", "75", True)
    taken = next(f for f in r1.figures if f.label == "Points in tricks")
    assert (taken.recorded, taken.computed, taken.differs) == ("75", "75", False)
    html = render_audit_page(view)
    assert 'written <span class="sj-rec">85</span> · computed <strong class="sj-comp">75' in html
    assert 'id="d1"' in html and 'id="d2"' in html and "no bid, says Ann" in html
    assert '<a href="round-1.html">Round 1</a> <span class="badge error">differs</span>' in html


def test_audit_html_on_sheng_ji_records_and_mixed_directories(tmp_path: Path) -> None:
    runner = CliRunner()
    page = tmp_path / "audit.html"
    res = runner.invoke(app, ["audit", str(BROKEN / "wrong-points.zfn"), "--html", str(page)])
    assert res.exit_code == 1, res.output
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<h2>Game 1</h2>" in html
    assert "SJ501" in html and 'id="g1-f1"' in html and "sj-figures" in html
    assert _anchors_resolve(html) == []
    assert "http://" not in html and "https://" not in html  # nothing fetched
    # a directory holding both games: each game's audit, Sheng ji's with its style
    both = tmp_path / "both"
    both.mkdir()
    (both / "a.zfn").write_text(ZF_BROKEN.read_text(encoding="utf-8"), encoding="utf-8")
    (both / "b.zfn").write_text(faulty_play()[0], encoding="utf-8")
    mixed = tmp_path / "mixed.html"
    res = runner.invoke(app, ["audit", str(both), "--html", str(mixed)])
    assert res.exit_code == 1, res.output
    assert "left out" not in res.output
    html = mixed.read_text(encoding="utf-8")
    assert html.count('class="zf-repair"') >= 2  # both games repaired
    assert 'id="g2-f1"' in html and ".sj-findings" in html and "ZF" in html
    assert html.index("a.zfn, game 1") < html.index("b.zfn, game 1")


def test_audit_html_of_zheng_fen_records_is_their_own_page(tmp_path: Path) -> None:
    """Zheng Fen's page is the one its renderer makes, nothing of Sheng ji's in it."""
    from zfrec.games.zhengfen.analysis.audit import audit
    from zfrec.games.zhengfen.pages.analysis import audit_file

    page = tmp_path / "zf.html"
    res = CliRunner().invoke(app, ["audit", str(ZF_BROKEN), "--html", str(page)])
    assert res.exit_code == 1
    game = next(iter(load(ZF_BROKEN)))
    assert page.read_text(encoding="utf-8") == audit_file(str(ZF_BROKEN), [("Game 1", audit(game))])
    assert "sj-" not in page.read_text(encoding="utf-8")


def test_render_writes_the_audit_page_of_a_failing_record_only(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.zfn"
    bad.write_text(disputed_and_wrong_total(), encoding="utf-8")
    out = tmp_path / "out"
    res = runner.invoke(app, ["render", str(bad), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "audit page audit.html" in res.output
    audit = (out / "audit.html").read_text(encoding="utf-8")
    assert '<a href="index.html">↑ Game</a>' in audit
    assert 'href="round-1.html' in audit and "SJ501" in audit
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="audit.html"' in index
    # a seat's view has none (the repairs tell what the hands held), nor has a valid record
    seat = tmp_path / "seat"
    assert runner.invoke(app, ["render", str(bad), "-o", str(seat), "--seat", "Ann"]).exit_code == 0
    assert not (seat / "audit.html").exists()
    good = tmp_path / "good"
    res = runner.invoke(app, ["render", str(SJ / "10-disputed.zfn"), "-o", str(good)])
    assert res.exit_code == 0 and not (good / "audit.html").exists()
    assert 'href="audit.html"' not in (good / "index.html").read_text(encoding="utf-8")


def test_finding_links_name_the_step_that_shows_the_play(tmp_path: Path) -> None:
    """Each finding's link goes to the replay step whose headline is its play."""
    import json

    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["render", str(BROKEN / "wrong-dealer.zfn"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    audit = (out / "audit.html").read_text(encoding="utf-8")
    links = re.findall(
        r'href="round-2\.html#step=(\d+)">Round 2, trick (\d+), turn (\d+)</a>', audit
    )
    assert len(links) > 10
    replay = (out / "round-2.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', replay, re.S)
    assert found is not None
    data = json.loads(found[1])
    for step, trick, turn in links:
        st = data["steps"][int(step)]
        assert (st["trick"], st["turn"]) == (int(trick), int(turn))


def test_publish_links_a_failing_sheng_ji_game_to_its_audit_page(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "club.db")
    files = [str(BROKEN / "wrong-points.zfn"), str(SJ / "10-disputed.zfn")]
    res = runner.invoke(app, ["import", "--db", db, *files])
    assert res.exit_code == 1 and "1 flagged with errors" in res.output  # stored all the same
    site = tmp_path / "site"
    res = runner.invoke(app, ["publish", "--db", db, "--out", str(site)])
    assert res.exit_code == 0, res.output
    audits = list((site / "games").glob("*/audit.html"))
    assert len(audits) == 1  # the failing game's only
    page = audits[0].read_text(encoding="utf-8")
    assert '<a href="../../index.html">← All games</a>' in page and "SJ501" in page
    game_id = audits[0].parent.name
    index = (site / "index.html").read_text(encoding="utf-8")
    assert f'href="games/{game_id}/audit.html"' in index


def test_a_json_record_is_placed_by_line_as_its_text_is(tmp_path: Path) -> None:
    """A Sheng ji JSON record's findings carry the line and column of the `{` that opens the
    play (Game.locate, as for Zheng Fen), and so do its audit's page and repairs."""
    import json

    runner = CliRunner()
    record = tmp_path / "bad.json"
    res = runner.invoke(app, ["convert", str(BROKEN / "card-not-held.zfn"), str(record)])
    assert res.exit_code == 0, res.output
    lines = record.read_text(encoding="utf-8").splitlines()
    res = runner.invoke(app, ["validate", "--json", str(record)])
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    error = next(d for d in found if d["code"] == "SJ102")
    assert lines[error["line"] - 1][error["col"] - 1 :].startswith('{"seat": 2, "cards": "3d"}')
    warning = next(d for d in found if d["code"] == "SJ205")
    assert warning["line"] is not None
    assert warning["cause"] == {"line": error["line"], "col": error["col"], "code": "SJ102"}
    page = tmp_path / "audit.html"
    res = runner.invoke(app, ["audit", str(record), "--html", str(page)])
    assert res.exit_code == 1, res.output
    html = page.read_text(encoding="utf-8")
    assert '<span class="sj-play">3♦</span>' in html
    assert f"(record line {error['line']})" in html


def test_a_kitty_that_counts_for_nothing_is_as_written() -> None:
    """`kitty 0x2`: the opponents took the last trick and the kitty held no points. It counts
    (adding 0), as the validator judges it, so the rounds' table marks nothing as differing
    on a legal record; a kitty written where the declarers took the last trick does not."""
    text = (SJ / "01-bashifen-match.zfn").read_text(encoding="utf-8")
    report = audit_match(_match(SJ, text))
    assert report.legal
    view = audit_view(report)
    kitties = [f for r in view.rounds for f in r.figures if f.label == "Kitty"]
    assert [f.computed for f in kitties if f.recorded == "0 × 2"] == ["0 × 2"] * 8
    assert not any(r.differs for r in view.rounds)
    assert 'badge error">differs' not in render_audit_page(view)
    # round 1's declarers took the last trick: a kitty written there is not counted
    assert "points 100 total 100\n" in text
    wrong = text.replace("points 100 total 100\n", "points 100 kitty 0x2 total 100\n", 1)
    view = audit_view(audit_match(_match(SJ, wrong)))
    kitty = next(f for f in view.rounds[0].figures if f.label == "Kitty")
    assert (kitty.recorded, kitty.computed, kitty.differs) == ("0 × 2", "not counted", True)


def test_audit_html_when_no_record_can_be_read(tmp_path: Path) -> None:
    """Every file unreadable: each is named, no page is written, and the message says why
    (not that the records' pages come later)."""
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.zfn").write_bytes(b"\xff\xfe not text")
    page = tmp_path / "audit.html"
    res = CliRunner().invoke(app, ["audit", str(folder), "--html", str(page)])
    assert res.exit_code == 2
    assert "not UTF-8 text" in res.output and "no game could be read" in res.output
    assert "come later" not in res.output and "Traceback" not in res.output
    assert not page.exists()


def test_a_json_records_levels_are_placed_at_their_array(tmp_path: Path) -> None:
    """The levels after a round, written wrong in JSON, are found at their `"levels": [`, as
    the .zfn reader finds them at their line, and so sort after the round's plays."""
    import json

    runner = CliRunner()
    record = tmp_path / "calls.json"
    res = runner.invoke(app, ["convert", str(BROKEN / "too-many-calls.zfn"), str(record)])
    assert res.exit_code == 0, res.output
    lines = record.read_text(encoding="utf-8").splitlines()
    res = runner.invoke(app, ["validate", "--json", str(record)])
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    levels = next(d for d in found if "the levels after the round" in d["message"])
    line = lines[levels["line"] - 1]
    assert line.lstrip().startswith('"levels": [') and line[levels["col"] - 1] == "["
    assert [d["line"] for d in found] == sorted(d["line"] for d in found)


def test_a_finding_of_the_whole_record_is_at_the_record() -> None:
    """[Result] written wrong: no round, trick or turn, so the finding is 'at the record',
    placed by the record's line all the same."""
    view = audit_view(audit_match(_match(BROKEN / "wrong-result.zfn")))
    (finding,) = view.findings
    assert (finding.diagnostic.code, finding.where, finding.line) == ("SJ506", "the record", 5)
    assert "SJ506</span> error at the record: " in render_audit_page(view)


def test_audit_html_never_replaces_a_record_it_audits(tmp_path: Path) -> None:
    record = tmp_path / "club.zfn"
    text = (BROKEN / "wrong-points.zfn").read_text(encoding="utf-8")
    record.write_text(text, encoding="utf-8")
    runner = CliRunner()
    for args in ([str(record)], [str(tmp_path)]):  # the file, or the folder holding it
        res = runner.invoke(app, ["audit", *args, "--html", str(record)])
        assert res.exit_code == 2 and "is a record being audited" in res.output, res.output
        assert record.read_text(encoding="utf-8") == text


def zfn_and_json_audit_pages(text: Path, tmp_path: Path) -> list[str]:
    """The audit pages `render` writes for the .zfn record `text` and for its JSON copy (read
    without the places of its parts)."""
    runner = CliRunner()
    record = tmp_path / f"{text.stem}.json"
    assert runner.invoke(app, ["convert", str(text), str(record)]).exit_code == 0
    pages = []
    for source, out in ((text, tmp_path / "zfn"), (record, tmp_path / "json")):
        res = runner.invoke(app, ["render", str(source), "-o", str(out), "--solve-cards", "0"])
        assert res.exit_code == 0, res.output
        pages.append((out / "audit.html").read_text(encoding="utf-8"))
    return pages


def test_a_record_without_places_still_shows_each_findings_play(tmp_path: Path) -> None:
    """render reads a JSON record (and publish a stored game) without the places of its parts:
    each finding's play is then found by its round, trick and turn, the same cards as the
    .zfn record's page shows."""
    pages = zfn_and_json_audit_pages(BROKEN / "throw-cannot-stand.zfn", tmp_path)
    plays = [re.findall(r'<span class="sj-play">([^<]*)</span>', page) for page in pages]
    assert plays[0] == plays[1] and len(plays[0]) == 7
    assert plays[1][0] == "3♦ 6♦ Q♦" and "6♦ 6♦ 7♦ (held to 7♦)" in plays[1]


def two_roots() -> str:
    """Sample 1 with a card not held played in round 1 and another in round 2: two roots of
    the same code (SJ102), each with its own followers."""
    lines = (SJ / "01-bashifen-match.zfn").read_text(encoding="utf-8").split("\n")
    assert lines[20].startswith("2: Kh  3: 6h") and lines[53].startswith("3: Jh Jh  4: 7h")
    lines[20] = lines[20].replace("2: Kh", "2: 5s", 1)
    lines[53] = lines[53].replace("3: Jh Jh", "3: 9s 9s", 1)
    return "\n".join(lines)


def test_a_record_without_places_links_each_finding_to_its_own_root(tmp_path: Path) -> None:
    """A cause without a place is named by its code alone: round 2's findings follow from
    round 2's SJ102, not from round 1's (as the .zfn's page, placed, says)."""
    text = tmp_path / "two.zfn"
    text.write_text(two_roots(), encoding="utf-8")
    pages = zfn_and_json_audit_pages(text, tmp_path)
    follows = [re.findall(r'follows from <a href="#f\d+">([^<]*)</a>', page) for page in pages]
    assert follows[0] == follows[1]
    assert follows[1].count("SJ102 at Round 2, trick 1, turn 1 (Bo Li)") == 5
    assert follows[1].count("SJ102 at Round 1, trick 2, turn 1 (王芳)") == 4


def test_a_finding_of_a_trick_names_no_play() -> None:
    """A trick of three plays (SJ206) is placed at its line, which its lead shares: the finding
    is the trick's, so no play's cards are shown with it (as for a JSON record or a stored
    game, where the trick has a place of its own)."""
    view = audit_view(audit_match(_match(BROKEN / "short-trick.zfn")))
    (finding,) = [f for f in view.findings if f.diagnostic.code == "SJ206"]
    assert (finding.where, finding.play, finding.line) == ("Round 1, trick 4", None, 18)


def test_a_finding_of_a_whole_round_links_the_rounds_head(tmp_path: Path) -> None:
    """The opponents' points written wrong is a finding of the round, of no trick: its link
    opens the round's replay at its head (step 0, the deal), as a play's opens at its step."""
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["render", str(BROKEN / "wrong-points.zfn"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    audit = (out / "audit.html").read_text(encoding="utf-8")
    assert re.search(r'<span class="code">SJ501</span> error at <a href="round-1\.html#step=0">'
                     r"Round 1</a>", audit), audit  # fmt: skip


def test_audit_html_replaces_its_page_whole(tmp_path: Path) -> None:
    """`audit --html` writes a new page beside the old and renames it over: another name of
    the old page (a hard link, a reader's open file) keeps the old page whole, and the page
    keeps its permissions."""
    import os
    import stat

    page, other = tmp_path / "audit.html", tmp_path / "yesterday.html"
    page.write_text("<p>yesterday's audit</p>", encoding="utf-8")
    page.chmod(0o640)
    os.link(page, other)
    res = CliRunner().invoke(app, ["audit", str(BROKEN / "wrong-points.zfn"), "--html", str(page)])
    assert res.exit_code == 1, res.output
    assert "SJ501" in page.read_text(encoding="utf-8")
    assert other.read_text(encoding="utf-8") == "<p>yesterday's audit</p>"
    assert stat.S_IMODE(page.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_audit_html_under_a_file_says_the_path_is_no_folder(tmp_path: Path) -> None:
    """`audit --html` into a folder that is a file: the path, not the page, is what is wrong."""
    (tmp_path / "audit.html").write_text("<p>yesterday's audit</p>", encoding="utf-8")
    page = tmp_path / "audit.html" / "new.html"
    res = CliRunner().invoke(app, ["audit", str(BROKEN / "wrong-points.zfn"), "--html", str(page)])
    assert res.exit_code == 2, res.output
    assert f"cannot write {page}: a part of the path is not a directory" in res.output
    assert [p.name for p in tmp_path.iterdir()] == ["audit.html"]


def _lines_shown(page: str) -> list[tuple[int, str | None]]:
    """Each finding's record line on an audit page, with the line's text where it is shown
    (its suits written back as letters)."""
    glyphs = str.maketrans("♠♥♦♣", "shdc")
    found = re.findall(r'\(record line (\d+)(?:\)|:</span> <code class="sj-line">([^<]*)</code>)',
                       page)  # fmt: skip
    return [
        (int(n), re.sub(r"10(?=[shdc])", "T", text.translate(glyphs)) if text else None)
        for n, text in found
    ]


def test_pages_of_records_read_without_their_text_show_the_lines_of_its_zfn(
    tmp_path: Path,
) -> None:
    """A stored game (publish) and a JSON record (render) have no text of their own: their
    audit pages show the lines of the .zfn text that `zfrec export` and `zfrec convert` give,
    each line's text beside its number; the numbers are those of that text's own page."""
    runner = CliRunner()
    loose = tmp_path / "loose.zfn"  # not in canonical form: the export's lines are others
    text = (BROKEN / "throw-cannot-stand.zfn").read_text(encoding="utf-8")
    loose.write_text(text.replace("\n\n", "\n\n\n\n", 1).replace(":  ", ":   "), encoding="utf-8")
    db = str(tmp_path / "club.db")
    assert runner.invoke(app, ["import", "--db", db, str(loose)]).exit_code == 1
    exported = tmp_path / "exported.zfn"
    assert runner.invoke(app, ["export", "1", "--db", db, "--out", str(exported)]).exit_code == 0
    res = runner.invoke(app, ["publish", "--db", db, "--out", str(tmp_path / "site")])
    assert res.exit_code == 0, res.output
    stored = (tmp_path / "site" / "games" / "1" / "audit.html").read_text(encoding="utf-8")
    as_json = tmp_path / "loose.json"
    assert runner.invoke(app, ["convert", str(loose), str(as_json)]).exit_code == 0
    for source, out in ((exported, "zfn"), (as_json, "json"), (loose, "loose")):
        res = runner.invoke(app, ["render", str(source), "-o", str(tmp_path / out)])
        assert res.exit_code == 0, res.output
    pages = {n: (tmp_path / n / "audit.html").read_text(encoding="utf-8")
             for n in ("zfn", "json", "loose")}  # fmt: skip
    lines = exported.read_text(encoding="utf-8").splitlines()
    of_text = _lines_shown(pages["zfn"])
    assert len(of_text) == 7 and all(t is None for _, t in of_text)
    expect = [(n, lines[n - 1].strip()) for n, _ in of_text]
    assert _lines_shown(stored) == _lines_shown(pages["json"]) == expect
    assert "its lines are those of its .zfn text" in stored
    assert "its lines are those of its .zfn text" not in pages["zfn"]
    loose_lines = _lines_shown(pages["loose"])  # the file's own lines: two further down
    assert [n for n, _ in loose_lines] == [n + 2 for n, _ in of_text]
