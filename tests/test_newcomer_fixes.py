"""Stumbles a newcomer met writing a Sheng ji record by hand: full-width cards, a skipped round
number, the unit word of the summaries, `analyze --round`, a wrong "shows" card at the live
table, and `diff` wording about unknown deals."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.errors import NotationError
from zfrec.live.app import create_app
from zfrec.record.text import dumps_zfn
from zfrec.record.zfn import parse_zfn
from zfrec.store import open_store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
runner = CliRunner()
SJ_SAMPLE = SAMPLES / "shengji" / "01-bashifen-match.zfn"
ZF_SAMPLE = SAMPLES / "02-three-players.zfn"

# Full-width forms as Chinese input methods type them (NFKC reads them as the plain ones).
_WIDE = {c: chr(ord(c) + 0xFEE0) for c in "0123456789TJQKAshdc"}


def _widen(line: str, prefix: str) -> str:
    """`line` (which starts with `prefix`) with the cards after the prefix typed full-width."""
    assert line.startswith(prefix)
    return prefix + "".join(_WIDE.get(c, c) for c in line[len(prefix) :])


def test_full_width_cards_read_as_plain_in_both_games() -> None:
    for path, prefix in ((ZF_SAMPLE, "deal 1: "), (SJ_SAMPLE, "discard ")):
        text = path.read_text(encoding="utf-8")
        line = next(x for x in text.splitlines() if x.startswith(prefix))
        wide = text.replace(line, _widen(line, prefix), 1)
        assert wide != text
        assert dumps_zfn(parse_zfn(wide)) == dumps_zfn(parse_zfn(text)), path.name


def test_full_width_names_and_comments_stay_as_written() -> None:
    text = SJ_SAMPLE.read_text(encoding="utf-8")
    text = text.replace("Ann,", "Ａｎｎ,", 1).replace("{李娜 kept", "{Ｑｃ 李娜 kept", 1)
    out = dumps_zfn(parse_zfn(text))
    assert "Ａｎｎ," in out and "{Ｑｃ 李娜 kept" in out


def _wide_seats(text: str) -> str:
    """`text` with its seat references typed full-width: `２:`, `dealer ２`, `shuffler ２`,
    `next ２`, `forced ... by ２` and the `[Result]` winners."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("[Result"):
            line = re.sub(r"(winners? )([\d, ]+)", lambda m: m[1] + _digits(m[2]), line)
        elif not line.startswith(("[", "{")):
            line = re.sub(r"(?<![\w?=])([1-8])(?=\s*[:：])", lambda m: _digits(m[1]), line)
            line = re.sub(
                r"\b(dealer|next|by|shuffler)(\s+)([1-8])\b",
                lambda m: m[1] + m[2] + _digits(m[3]),
                line,
            )
        out.append(line)
    return "".join(out)


def _digits(text: str) -> str:
    return "".join(_WIDE.get(c, c) for c in text)


def test_full_width_seat_references_read_as_plain_in_both_games(tmp_path: Path) -> None:
    """Every readable sample of both games reads the same with its seats typed `２` etc."""
    wide_by = 0
    for path in sorted(SAMPLES.rglob("*.zfn")):
        text = path.read_text(encoding="utf-8")
        try:
            plain = dumps_zfn(parse_zfn(text))
        except NotationError:  # the broken samples that cannot be read at all
            continue
        wide = _wide_seats(text)
        assert wide != text, path.name
        wide_by += bool(re.search(" by [１-８]", wide))
        assert dumps_zfn(parse_zfn(wide)) == plain, path.name
    assert wide_by > 3  # Sheng ji's failed throws: `forced 3h by ２  ２: 7h`
    throw = (SAMPLES / "shengji" / "03-failed-throw.zfn").read_text(encoding="utf-8")
    code, out = _validate_text(tmp_path, _wide_seats(throw))
    last = "1 file(s), 1 game(s), 1 round(s), 92 move(s): 0 error(s), 0 warning(s), 0 note(s)"
    assert (code, out.splitlines()[-1]) == (0, last + " - all legal")


def _validate_text(tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "rec.zfn"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    return result.exit_code, result.output


def test_a_skipped_or_repeated_round_number_is_reported_where_it_is(tmp_path: Path) -> None:
    text = SJ_SAMPLE.read_text(encoding="utf-8")
    code, out = _validate_text(tmp_path, text)
    assert "SJ508" not in out and code == 0
    lines = text.splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if x.startswith("round 2 "))
    lines[at] = "round 3 " + lines[at][len("round 2 ") :]
    code, out = _validate_text(tmp_path, "".join(lines))
    assert f"{at + 1}:1 warning SJ508 game 1, round 3: round 3 follows round 1: " in out
    assert "(is round 2 missing?)" in out
    # the round after is the second round 3: said as its page (round-3-2.html) is headed
    assert (
        "game 1, round 3 (2nd): round 3 (2nd) follows round 3: rounds are numbered one by " in out
    )
    assert code == 0  # a warning: the rounds are judged as written


def test_a_skipped_or_repeated_hand_number_is_reported_where_it_is(tmp_path: Path) -> None:
    """Zheng Fen's hands as Sheng ji's rounds (SJ508): ZF406, a warning; judged as written."""
    text = ZF_SAMPLE.read_text(encoding="utf-8")
    code, out = _validate_text(tmp_path, text)
    assert "ZF406" not in out and code == 0
    lines = text.splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if x.startswith("hand 2 "))
    lines[at] = "hand 3 " + lines[at][len("hand 2 ") :]
    code, out = _validate_text(tmp_path, "".join(lines))
    assert f"{at + 1}:1 warning ZF406 game 1, hand 3: hand 3 follows hand 1: hands are " in out
    assert "numbered one by one (is hand 2 missing?)\n" in out
    assert code == 0 and "0 error(s), 1 warning(s)" in out
    lines[at] = "hand 1 " + lines[at][len("hand 3 ") :]
    code, out = _validate_text(tmp_path, "".join(lines))
    said = "game 1, hand 1 (2nd): hand 1 (2nd) follows hand 1: hands are numbered one by one\n"
    assert said in out and code == 0


def test_summaries_count_each_games_units_in_its_own_word(tmp_path: Path) -> None:
    sj, zf = str(SJ_SAMPLE), str(ZF_SAMPLE)
    out = runner.invoke(app, ["validate", sj]).output
    assert " game(s), 17 round(s), " in out and "hand(s)" not in out
    out = runner.invoke(app, ["validate", zf]).output
    assert "1 file(s), 1 game(s), 2 hand(s), 117 move(s)" in out and "round" not in out
    out = runner.invoke(app, ["validate", sj, zf]).output
    assert "2 file(s), 2 game(s), 17 round(s), 2 hand(s), " in out
    db = str(tmp_path / "t.db")
    out = runner.invoke(app, ["import", "--db", db, sj]).output
    assert ": 1 game(s) added (17 round(s)), " in out
    games = runner.invoke(app, ["games", "--db", db]).output
    assert games.splitlines()[0].split()[-2:] == ["rounds", "valid"]
    out = runner.invoke(app, ["import", "--db", db, zf, sj]).output
    assert ": 1 game(s) added (2 hand(s)), 1 already stored" in out
    games = runner.invoke(app, ["games", "--db", db]).output
    assert games.splitlines()[0].split()[-2:] == ["played", "valid"]
    assert "17 rounds" in games and "2 hands" in games
    json_out = runner.invoke(app, ["games", "--db", db, "--json"]).output
    assert '"hands": 17' in json_out and "kind" not in json_out  # the JSON keeps its shape
    out = runner.invoke(app, ["delete", "--db", db, "1"]).output
    assert "; 17 rounds)" in out


def test_analyze_round_is_the_same_option_as_hand() -> None:
    for path, unit in ((SJ_SAMPLE, "round"), (ZF_SAMPLE, "hand")):
        by_hand = runner.invoke(app, ["analyze", "--hand", "2", str(path)])
        by_round = runner.invoke(app, ["analyze", "--round", "2", str(path)])
        assert by_round.exit_code == 0, by_round.output
        assert by_round.output == by_hand.output
        assert f"\n{unit} 2" in by_round.output and f"\n{unit} 1" not in by_round.output
    help_text = runner.invoke(app, ["analyze", "--help"], env={"COLUMNS": "200"}).output
    assert "--round N is the same" in help_text


def test_the_live_table_refuses_a_shown_card_that_does_not_beat_the_throw(
    tmp_path: Path,
) -> None:
    client = TestClient(create_app(open_store(f"sqlite:///{tmp_path / 'club.db'}")))
    r = client.post("/api/tables", json={"game": "shengji", "players": ["A", "B", "C", "D"]})
    assert r.status_code == 201, r.text
    table, token = r.json()["id"], r.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post(f"/api/tables/{table}/hands", json={"dealer": 1, "trump": "s"}, headers=auth)
    assert r.status_code == 201, r.text

    def throw(shows: str) -> Any:
        body = {"seat": 1, "play": "Kd Qd", "blocked_by": 2, "shows": shows}
        return client.post(f"/api/tables/{table}/moves", json=body, headers=auth)

    version = client.get(f"/api/tables/{table}").json()["version"]
    # besides the Ad that beats the Qd: a card of another suit, a lower diamond, a pair
    for shows in ("Ad 5c", "Jd Ad", "Ad Ad"):
        r = throw(shows)
        assert r.status_code == 422, (shows, r.text)
        assert r.json()["code"] == "SJ104"
        assert r.json()["message"].startswith("B shows ")
        assert "one unit of the throw's suit" in r.json()["message"]
        assert client.get(f"/api/tables/{table}").json()["version"] == version
    r = throw("Ad")
    assert r.status_code in (200, 201), r.text
    assert "1: Qd Kd forced Qd by 2" in client.get(f"/api/tables/{table}/record.zfn").text


def test_diff_says_in_words_that_a_side_leaves_cards_unknown(tmp_path: Path) -> None:
    text = SJ_SAMPLE.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if x.startswith("deal 1: "))
    hand = lines[at][len("deal 1: ") :].strip()
    unknown = [*lines[:at], "deal 1: ?25\n", *lines[at + 1 :]]
    part = [*lines[:at], f"deal 1: {hand.split()[0]} ?24\n", *lines[at + 1 :]]
    a, b, c = tmp_path / "a.zfn", tmp_path / "b.zfn", tmp_path / "c.zfn"
    a.write_text("".join(unknown), encoding="utf-8")
    b.write_text(text, encoding="utf-8")
    c.write_text("".join(part), encoding="utf-8")
    out = runner.invoke(app, ["diff", str(a), str(b)]).output
    assert f"the deals differ: A leaves the hand unknown (?25) where B has {hand}\n" in out
    assert "nothing" not in out and "?0" not in out
    out = runner.invoke(app, ["diff", str(c), str(b)]).output
    rest = " ".join(hand.split()[1:])
    assert f"A leaves 24 of its cards unknown (?24) where B has {rest}\n" in out


def test_the_live_table_refuses_a_shown_card_every_copy_of_which_is_gone(
    tmp_path: Path,
) -> None:
    """No deal written: the blocker's hand is a guess, but both Ad were played in trick 1."""
    client = TestClient(create_app(open_store(f"sqlite:///{tmp_path / 'club.db'}")))
    r = client.post("/api/tables", json={"game": "shengji", "players": ["A", "B", "C", "D"]})
    table, token = r.json()["id"], r.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post(f"/api/tables/{table}/hands", json={"dealer": 1, "trump": "s"}, headers=auth)
    assert r.status_code == 201, r.text
    for seat, play in ((1, "3d"), (2, "4d"), (3, "Ad"), (4, "Ad"), (3, "5h"), (4, "6h")):
        body = {"seat": seat, "play": play}
        r = client.post(f"/api/tables/{table}/moves", json=body, headers=auth)
        assert r.status_code in (200, 201), r.text
    for seat, play in ((1, "7h"), (2, "8h")):  # B wins trick 2 and leads
        body = {"seat": seat, "play": play}
        assert client.post(f"/api/tables/{table}/moves", json=body, headers=auth).is_success

    def throw(shows: str) -> Any:
        body = {"seat": 2, "play": "Kd Qd", "blocked_by": 3, "shows": shows}
        return client.post(f"/api/tables/{table}/moves", json=body, headers=auth)

    r = throw("Ad")
    assert r.status_code == 422 and r.json()["code"] == "SJ102", r.text
    assert r.json()["message"].startswith("C cannot hold Ad: every copy is played")
    r = throw("Kd")  # the other Kd may be C's
    assert r.is_success, r.text
