"""What a new user met logging a bashi fen round (tests/data/sj-discard-one-wrong.zfn: the
dealer 王芳's discard with one card she does not hold, 5s for 9s): the validator and the live
table name only the card not held, where it is written, with the held card a typo may have
meant; and a throw typed as attempted that cannot stand is refused with a word of how to
enter it (its block)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.sj_live_helpers import match_steps, new_sj_table, send
from tests.test_json_schemas import assert_valid
from zfrec.cli import app
from zfrec.errors import IllegalPlayError
from zfrec.games.shengji.cards import card_ids, parse_hand
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.records import SjMatch
from zfrec.games.shengji.round import RoundState
from zfrec.games.shengji.rules import level_rank
from zfrec.live.app import create_app
from zfrec.record import loads
from zfrec.store import open_store

runner = CliRunner()
DATA = Path(__file__).resolve().parent / "data"
WRONG = DATA / "sj-discard-one-wrong.zfn"
WRONG_CARDS = "4h 6h 6h 5s Th Qh Kh 2d"  # 5s for 9s
DISCARD = f"discard {WRONG_CARDS}"


def put_right() -> SjMatch:
    """The record with the discard as meant (9s): a live table is fed it up to the discard."""
    return match_of(loads(WRONG.read_text("utf-8").replace(" 5s Th", " 9s Th", 1))[0])


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = WRONG.read_text("utf-8")
    assert old in text
    out = tmp_path / "edited.zfn"
    out.write_text(text.replace(old, new, 1), "utf-8")
    return out


def test_a_discard_with_one_card_not_held_names_that_card_where_written() -> None:
    r = runner.invoke(app, ["validate", str(WRONG)])
    assert r.exit_code == 1
    first = r.output.splitlines()[1]
    assert first.split()[:3] == ["14:18", "error", "SJ102"], r.output
    assert first.endswith("王芳 does not hold 5s; did you mean 5h? (RULES-SHENGJI.md R11)")
    assert "4h 5s" not in r.output
    # the later errors follow from it, at its place
    assert "(follows from 14:18)" in r.output and "(follows from 14:1)" not in r.output
    r = runner.invoke(app, ["validate", "--json", str(WRONG)])
    assert r.exit_code == 1
    [d] = [d for d in json.loads(r.stdout)["files"][0]["diagnostics"] if d["code"] == "SJ102"]
    assert (d["line"], d["col"]) == (14, 18)
    assert d["message"].startswith("王芳 does not hold 5s; did you mean 5h?")


def test_the_copy_too_many_is_the_one_named(tmp_path: Path) -> None:
    """A third 6h (she holds two): the third is the card not held, written last; the lexer's
    reading (two spaces) places it as the plain reading does."""
    for line in ("discard 4h 6h 6h Th Qh Kh 2d 6h", "discard 4h 6h 6h  Th Qh Kh 2d 6h"):
        r = runner.invoke(app, ["validate", str(_edited(tmp_path, DISCARD, line))])
        first = r.output.splitlines()[1]
        assert first.split()[:3] == [f"14:{line.rindex('6h') + 1}", "error", "SJ102"], r.output
        assert "王芳 does not hold 6h; did you mean 6s or 6d? (RULES" in first, first


def test_the_engine_names_only_the_cards_not_held() -> None:
    match = match_of(loads(WRONG.read_text("utf-8"))[0])
    rnd = match.rounds[0]
    assert rnd.deal is not None and rnd.kitty is not None
    hands = [card_ids(d.known) for d in rnd.deal]
    deck = [hands[i % 4][i // 4] for i in range(100)] + card_ids(rnd.kitty.known)
    st = RoundState.start(match.rules(), deck, level_rank(2), 0)
    st.draw_rest()
    for b in rnd.bids:
        st.bid(b.seat, b.cards)
    st.settle()
    with pytest.raises(IllegalPlayError) as caught:
        st.exchange(0, parse_hand(WRONG_CARDS))
    assert caught.value.code == "SJ102"
    assert caught.value.render(lambda s: match.players[s]) == "王芳 does not hold 5s"


def _table(tmp_path: Path) -> tuple[TestClient, str, str, list[Any]]:
    """A live table of the record with the discard put right (9s), its steps not yet sent."""
    match = put_right()
    client = TestClient(create_app(open_store(f"sqlite:///{tmp_path / 'club.db'}")))
    table, token = new_sj_table(client, match)
    return client, table, token, list(match_steps(match))


def test_live_a_discard_with_one_card_not_held_is_refused_naming_it(tmp_path: Path) -> None:
    client, table, token, steps = _table(tmp_path)
    discard = next(i for i, s in enumerate(steps) if "discard" in s.body)
    for s in steps[:discard]:
        assert send(client, table, token, s.kind, s.body).status_code in (200, 201)
    body = {**steps[discard].body, "discard": WRONG_CARDS}
    r = send(client, table, token, "move", body)
    assert r.status_code == 422
    assert r.json()["code"] == "SJ102"
    assert r.json()["message"] == "王芳 does not hold 5s; did you mean 5h? (RULES-SHENGJI.md R11)"


LATER = DATA / "sj-dispute-later-error.zfn"  # a throw at trick 12 that cannot stand


def test_a_later_error_every_version_meets_is_not_the_disputed_plays(tmp_path: Path) -> None:
    """The pair follow disputed at trick 8 is legal; the throw at trick 12 (27:1), wrong in
    every version, is the record's and said apart; the other versions stay illegal at once."""
    r = runner.invoke(app, ["audit", str(LATER)])
    assert r.exit_code == 1  # the record still fails
    lines = r.output.splitlines()
    [written] = [ln for ln in lines if "Js Js (as recorded)" in ln]
    assert written.startswith(
        "    Js Js (as recorded): legal; the record has a later error, which every version "
        "meets: SJ103 at 27:1, round 1, trick 12, turn 1 (North): the throw 6s 9s Ts Qs As "
        "cannot stand"
    ), written
    assert written.endswith("it is not this version's, but the round's points and the levels "
                            "are not known with it")  # fmt: skip
    assert "    or 8s Js: illegal: SJ201 at 23:31" in r.output
    assert "    or Js Qs: illegal: SJ201 at 23:31" in r.output
    r = runner.invoke(app, ["audit", "--json", str(LATER)])
    assert_valid("audit", json.loads(r.stdout))
    [dispute] = json.loads(r.stdout)["games"][0]["disputes"]
    recorded, *others = dispute["versions"]
    assert recorded["legal"] is True and recorded["first_error"] is None
    assert recorded["points"] is None and recorded["totals"] is None
    assert (recorded["later_error"]["code"], recorded["later_error"]["line"]) == ("SJ103", 27)
    assert [v["legal"] for v in others] == [False, False]
    assert all("later_error" not in v for v in others)
    page = tmp_path / "audit.html"
    assert runner.invoke(app, ["audit", str(LATER), "--html", str(page)]).exit_code == 1
    assert "the record has a later error, which every version meets" in page.read_text("utf-8")


def test_without_the_later_error_the_version_gets_its_points(tmp_path: Path) -> None:
    fixed = tmp_path / "fixed.zfn"
    text = LATER.read_text("utf-8")
    throw = "4: 6s 9s Ts Qs As  1:"
    assert throw in text
    fixed.write_text(text.replace(throw, "4: 6s 9s Ts Qs As forced 6s by 2  1:"), "utf-8")
    r = runner.invoke(app, ["audit", "--json", str(fixed)])
    assert r.exit_code == 0
    [dispute] = json.loads(r.stdout)["games"][0]["disputes"]
    recorded = dispute["versions"][0]
    assert recorded["legal"] is True and recorded["opponents_points"] == 120
    assert "later_error" not in recorded


def test_live_a_throw_typed_as_attempted_is_refused_with_how_to_enter_its_block(
    tmp_path: Path,
) -> None:
    """Trick 15: 刘洋 throws 4s As and 王芳 blocks it with a higher single; typed without the
    block, the refusal says how to enter the block; with it, the throw is taken."""
    client, table, token, steps = _table(tmp_path)
    block = next(i for i, s in enumerate(steps) if "blocked_by" in s.body)
    for s in steps[:block]:
        assert send(client, table, token, s.kind, s.body).status_code in (200, 201)
    body = steps[block].body
    assert (body["seat"], body["play"], body["blocked_by"]) == (4, "4s As", 1)
    r = send(client, table, token, "move", {"seat": 4, "play": "4s As"})
    assert r.status_code == 422 and r.json()["code"] == "SJ103"
    message = r.json()["message"]
    assert message.startswith("the throw 4s As cannot stand: 王芳 holds a higher single than 4s")
    assert '"A throw that was blocked"' in message and "blocked_by and shows" in message
    assert send(client, table, token, "move", body).status_code == 200
    assert "4: 4s As forced 4s by 1" in client.get(f"/api/tables/{table}/record.zfn").text


def test_a_later_error_that_differs_by_version_is_each_versions_own(tmp_path: Path) -> None:
    """Disputed at trick 10: North's 8s, or 9s, Qs or Ts, each a legal follow there. At the
    throw of trick 12 (27:1) every version errs, but not alike: the record's throw cannot
    stand (SJ103), and 9s, Qs or Ts were played already (SJ102). That is each version's own
    error (the record plays that card again), not one every version meets."""
    text = LATER.read_text("utf-8")
    line = "2: 4s  3: Ks  4: 8s  1: 8s"
    assert line in text
    edited = tmp_path / "differs.zfn"
    edited.write_text(text.replace(line, '2: 4s  3: Ks  4: 8s disputed "which spade" or 9s or Qs '
                                         "or Ts  1: 8s"), "utf-8")  # fmt: skip
    r = runner.invoke(app, ["audit", "--json", str(edited)])
    assert r.exit_code == 1
    dispute = next(d for d in json.loads(r.stdout)["games"][0]["disputes"]
                   if d["note"] == "which spade")  # fmt: skip
    got = [(v["play"], v["legal"], v["first_error"] and v["first_error"]["code"],
            v["first_error"] and v["first_error"]["line"], "later_error" in v)
           for v in dispute["versions"]]  # fmt: skip
    assert got == [
        ("8s", False, "SJ103", 27, False),
        ("9s", False, "SJ102", 27, False),
        ("Qs", False, "SJ102", 27, False),
        ("Ts", False, "SJ102", 27, False),
    ]


def test_versions_past_the_move_that_meet_the_same_later_error(tmp_path: Path) -> None:
    """Disputed at trick 9: North leads 8c, or SJ, or 7c, each a legal lead. Every version
    meets the same SJ103 at 27:1: it is the record's, and 8c is legal; SJ fails at its own
    error before it (played again at trick 11), 7c at its own after it (trick 18)."""
    text = LATER.read_text("utf-8")
    line = "4: 8c  1: 7c  2: BJ  3: BJ"
    assert line in text
    edited = tmp_path / "alike.zfn"
    edited.write_text(
        text.replace(line, '4: 8c disputed "the lead" or SJ or 7c  1: 7c  2: BJ  3: BJ'), "utf-8"
    )
    r = runner.invoke(app, ["audit", "--json", str(edited)])
    dispute = next(
        d for d in json.loads(r.stdout)["games"][0]["disputes"] if d["note"] == "the lead"
    )
    recorded, sj, seven = dispute["versions"]
    assert recorded["legal"] is True
    assert (recorded["later_error"]["code"], recorded["later_error"]["line"]) == ("SJ103", 27)
    assert (sj["legal"], sj["first_error"]["code"], sj["first_error"]["line"]) == (
        False, "SJ102", 26
    )  # fmt: skip
    assert (seven["legal"], seven["first_error"]["code"], seven["first_error"]["line"]) == (
        False, "SJ102", 33
    )  # fmt: skip
