"""The live table's answers to a real table's troubles (issue 27), through the JSON API: entries
made against a stale version are refused with the current state, inferred passes are named,
moves are marked (dispute, comment, annotation) in the notation's own words, a typo gets the
validator's "did you mean", and a game is corrected at any entry with the later ones replayed.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.live_helpers import Tab, exported, sim, steps, without_passes
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.live.app import create_app
from zfrec.record import loads
from zfrec.store import open_store
from zfrec.validate import validate

DEAL_1 = "3h 4h 5s 5h 6d 7c 8s 8h 9d Tc Jh Qs Kd Ad 2s 2c SJ BJ"


# Every test on SQLite and, where ZFREC_TEST_PG_URL is set, on PostgreSQL.
pytestmark = pytest.mark.parametrize("store_url", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:  # noqa: F811
    engine = open_store(store_url)
    with TestClient(create_app(engine)) as c:
        yield c
    engine.dispose()


@pytest.fixture
def tab(client: TestClient) -> Tab:
    t = Tab(client)
    assert t.post("hands", {"shuffler": 3, "deals": {"1": DEAL_1}}).status_code == 201
    return t


def test_an_entry_made_against_a_stale_version_is_refused_with_the_current_state(
    tab: Tab,
) -> None:
    v = tab.state()["version"]
    assert tab.move(1, "3h", version=v).status_code == 200
    # Another phone, still at version v, enters the next seat's move: refused, not applied to
    # the position after 3h, and told what the table is now.
    r = tab.move(2, "5d", version=v)
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert r.json()["state"] == tab.state() and r.json()["state"]["version"] == v + 1
    assert tab.state()["moves_total"] == 1
    # The same entry made against the current version goes in; so does one without a version.
    assert tab.move(2, "5d", version=v + 1).status_code == 200
    assert tab.move(3, "9c").status_code == 200
    assert tab.post("undo", {"version": v}).status_code == 409
    assert tab.post("undo", {"version": v + 3}).status_code == 200
    assert tab.post("hands", {"version": 0}).json()["code"] == "stale"


def test_the_answer_names_the_inferred_passes_and_one_undo_takes_them_back(tab: Tab) -> None:
    assert tab.move(1, "3h").json()["inferred"] == []
    before = tab.state()
    assert before["pass_chain"] == [2, 3] and before["next_leader"] == 1
    r = tab.move(3, "9c")  # Bo Li passed
    assert r.status_code == 200 and r.json()["inferred"] == [2]
    assert "1: 3h  2: -  3: 9c" in tab.zfn() or "1: 3h  3: 9c" in tab.zfn()
    undone = tab.post("undo").json()
    assert undone["version"] == before["version"] + 2 and "inferred" not in undone
    assert {k: v for k, v in undone.items() if k != "version"} == {
        k: v for k, v in before.items() if k != "version"
    }
    # A play the top beats, by the seat that would lead next: the others passed, and it leads.
    assert tab.move(2, "Kh").json()["inferred"] == []
    r = tab.move(2, "4d")
    assert r.json()["inferred"] == [3, 1] and r.json()["trick"] == 2


def test_marks_are_written_in_the_notation_and_the_game_is_dated(tab: Tab) -> None:
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert tab.state()["date"] == today
    tab.move(1, "3h")
    tab.move(2, "Qc")
    assert tab.post("marks", {"annotation": "!?"}).status_code == 200
    r = tab.post("marks", {"disputed": True, "note": "Bo says it was the Kc", "or": ["Kc", "-"]})
    assert r.status_code == 200, r.text
    assert tab.post("marks", {"entry": 2, "comment": "Ann shuffled twice"}).status_code == 200
    last = tab.state()["moves"][-1]
    assert last["annotation"] == "!?" and last["or"] == ["Kc", "pass"] and last["entry"] == 3
    zfn = tab.zfn()
    assert f'[Date "{today}"]' in zfn
    assert '1: 3h {Ann shuffled twice}  2: Qc!? disputed "Bo says it was the Kc" or Kc or -' in zfn
    game = loads(zfn)[0]
    assert game.hands[0].tricks[0].moves[1].alternatives
    assert validate(game).ok
    # The next move goes on from the play as written; marks change no position.
    assert tab.move(3, "Ac").status_code == 200
    for bad, code in (
        ({"disputed": True, "or": ["Ac"]}, "request"),  # the play as recorded
        ({"disputed": True, "or": ["Qx"]}, "ZF001"),
        ({"entry": 1, "comment": "x"}, "entry"),  # a hand start is no move
        ({"annotation": "?!?"}, "request"),
        ({"comment": "  "}, "request"),
    ):
        r = tab.post("marks", bad)
        assert r.status_code == 422 and r.json()["code"] == code, (bad, r.text)
    assert tab.post("marks", {"disputed": False, "entry": 3}).status_code == 200
    assert "disputed" not in tab.zfn()


def test_a_typo_gets_the_validators_did_you_mean(tab: Tab) -> None:
    r = tab.move(1, "3x")
    assert r.status_code == 422 and r.json()["code"] == "ZF001"
    assert r.json()["message"] == (
        "unknown suit 'x' in '3x': suits are s h d c (or ♠ ♥ ♦ ♣); did you mean 3h? "
        "(replayed as 3h)"
    )
    tab.move(1, "3h")
    r = tab.move(2, "Kx")  # Bo Li's cards are not known: nothing to suggest from
    assert r.json()["message"].endswith("; the move is skipped")
    assert tab.state()["moves_total"] == 1


def test_a_game_is_corrected_at_any_entry_and_the_later_entries_replayed(tab: Tab) -> None:
    for seat, play in ((1, "3h"), (2, "5d"), (3, "9c"), (1, "Jh"), (2, "-"), (3, "-"),
                       (1, "Qs"), (2, "Kh"), (3, "-")):  # fmt: skip
        assert tab.move(seat, play).status_code == 200, (seat, play)
    assert tab.state()["entries"] == 10
    # Ann's Jh was her Qs: entry 5 replaced. The passes after it still stand; her Qs lead
    # (entry 8) is now a card played twice, so it and the entries after it are left out.
    v = tab.state()["version"]
    r = tab.post("edit", {"entry": 5, "seat": 1, "play": "Qs", "version": v})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["version"] == v + 1 and answer["entries"] == 7
    assert [(d["entry"], d["seat"], d["play"]) for d in answer["dropped"]] == [
        (8, 1, "Qs"),
        (9, 2, "Kh"),
        (10, 3, "pass"),
    ]
    assert answer["dropped"][0]["code"] == "ZF302" and "code" not in answer["dropped"][1]
    assert "1: 3h  2: 5d  3: 9c  1: Qs  2: -  3: -\n" in tab.zfn()
    assert answer["turn"] == 1 and answer["trick"] == 2
    # Delete a move, insert it again: the later entries are entered again each time.
    tab.move(1, "4h")
    r = tab.post("edit", {"entry": 6, "action": "delete"})
    assert r.status_code == 200 and r.json()["dropped"] == [] and r.json()["entries"] == 7
    assert "1: 3h  2: 5d  3: 9c  1: Qs  3: -\n1: 4h\n" in tab.zfn()  # Bo Li's pass inferred
    r = tab.post("edit", {"entry": 6, "action": "insert", "seat": 2, "play": "-"})
    assert r.status_code == 200 and r.json()["dropped"] == [] and r.json()["entries"] == 8
    assert "1: 3h  2: 5d  3: 9c  1: Qs  2: -  3: -\n1: 4h\n" in tab.zfn()
    # A refused correction changes nothing.
    before = tab.state()
    for body, code in (
        ({"entry": 5, "seat": 1, "play": "4d"}, "ZF301"),  # Ann does not hold it
        ({"entry": 5, "seat": 1, "play": "3x"}, "ZF001"),
        ({"entry": 1, "seat": 1, "play": "3h"}, "entry"),  # the hand start is no move
        ({"entry": 99, "seat": 1, "play": "3h"}, "entry"),
        ({"entry": 5, "action": "replace"}, "request"),
    ):
        r = tab.post("edit", body)
        assert r.status_code == 422 and r.json()["code"] == code, (body, r.text)
        assert tab.state() == before
    assert tab.post("edit", {"entry": 5, "seat": 1, "play": "Qs", "version": 1}).status_code == 409


@pytest.mark.slow
def test_a_finished_game_corrected_in_its_first_trick_is_stored_again(client: TestClient) -> None:
    game = sim(3, 11, "pagat", hands=1)
    t = Tab(client, players=game.players, target=1)
    for step in steps(game):
        r = t.post("hands" if step.kind == "hand" else "moves", step.body)
        assert r.status_code in (200, 201), r.text
    assert t.state()["status"] == "over"
    played = without_passes(exported(client, t.id))
    first_pass = next(m for m in t.state()["moves"] if m["play"] == "pass")
    r = t.post("edit", {"entry": first_pass["entry"], "action": "delete"})
    assert r.status_code == 200 and r.json()["dropped"] == [], r.text
    assert r.json()["status"] == "over" and without_passes(exported(client, t.id)) == played
    listed = client.get("/api/tables").json()
    assert listed[0]["over"] and listed[0]["game_id"] is not None


def test_the_qr_code_is_a_standalone_svg_and_the_favicon_is_served(client: TestClient) -> None:
    r = client.post("/api/qr", json={"text": "http://192.168.1.5:8765/t/abc#k=x"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert 'xmlns="http://www.w3.org/2000/svg"' in r.text and r.text.startswith("<svg")
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.text.startswith("<svg")
