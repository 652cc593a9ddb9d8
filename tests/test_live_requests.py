"""Requests sent again (LIVE.md, "Requests sent again"), through the JSON API on SQLite and
PostgreSQL: a change that carries a `request_id` and is sent again (its answer lost, or answered
503) is answered as it was, `repeated`, and never made twice; another change made at the same
entry count is not taken for it (409 stale); an id sent with another change is refused; a
client that sends no id is answered as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.live_helpers import Tab
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.live import Stale, Table
from zfrec.live.app import create_app
from zfrec.store import open_store
from zfrec.store.live import REQUESTS_KEPT

DEAL_1 = "3h 4h 5s 5h 6d 7c 8s 8h 9d Tc Jh Qs Kd Ad 2s 2c SJ BJ"
SJ = {"game": "shengji", "rules": "bashifen", "players": ["Ann", "Bo", "Cy", "Di"]}

pytestmark = pytest.mark.parametrize("store_url", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:  # noqa: F811
    engine = open_store(store_url)
    with TestClient(create_app(engine)) as c:
        yield c
    engine.dispose()


def _ok(r: Any, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_sheng_ji_round_start_sent_again_is_answered_and_another_is_stale(
    client: TestClient,
) -> None:
    t = Tab(client, **SJ)
    first = _ok(t.post("hands", {"dealer": 1, "trump": "s", "version": 0, "request_id": "a1"}), 201)
    assert first["entries"] == 1 and "repeated" not in first
    # Its answer was lost: sent again as it was, it is answered as taken, and nothing changes.
    again = _ok(t.post("hands", {"dealer": 1, "trump": "s", "version": 0, "request_id": "a1"}), 201)
    assert again["repeated"] == 1 and again["entries"] == 1 and again["version"] == 1
    assert {k: v for k, v in again.items() if k != "repeated"} == t.state()
    # Another phone's round start at the same entry count (another trump) is not this one: it
    # meets a table that moved on.
    r = t.post("hands", {"dealer": 1, "trump": "h", "version": 0, "request_id": "b1"})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert r.json()["state"]["trump"] == "s" and t.state()["version"] == 1


def test_an_undo_sent_again_undoes_once_even_after_the_table_moved_on(client: TestClient) -> None:
    t = Tab(client, **SJ)
    _ok(t.post("hands", {"dealer": 1, "trump": "s"}), 201)
    for seat, play in ((1, "3s"), (2, "4s"), (3, "5s")):
        _ok(t.move(seat, play))
    v = t.state()["version"]
    undone = _ok(t.post("undo", {"version": v, "request_id": "u-1"}))
    assert undone["entries"] == 3
    # A second phone's undo made at the same version (and entry count) is not this one.
    r = t.post("undo", {"version": v, "request_id": "u-2"})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    # The table moves on (seat 3 played again), then the first undo comes again: answered as
    # taken, and the new play stays. Without a version as with one.
    _ok(t.move(3, "6s"))
    for body in ({"version": v, "request_id": "u-1"}, {"request_id": "u-1"}):
        again = _ok(t.post("undo", body))
        assert again["repeated"] == v + 1 and again["entries"] == 4
    assert [m["play"] for m in t.state()["moves"]] == ["3s", "4s", "6s"]
    # Without a request id an undo is judged as before: by its version alone.
    assert t.post("undo", {"version": v}).json()["code"] == "stale"
    assert _ok(t.post("undo"))["entries"] == 3


def test_a_zheng_fen_move_sent_again_gets_its_first_answer(client: TestClient) -> None:
    t = Tab(client)
    _ok(t.post("hands", {"shuffler": 3, "deals": {"1": DEAL_1}, "request_id": "h1"}), 201)
    _ok(t.move(1, "3h", request_id="m1"))
    moved = _ok(t.move(3, "9c", request_id="m2", version=2))  # Bo Li passed
    assert moved["inferred"] == [2]
    again = _ok(t.move(3, "9c", request_id="m2", version=2))
    assert again["inferred"] == [2] and again["repeated"] == 3 and again["entries"] == 3
    # the hand start, sent again after the table moved on: not a second hand
    assert (
        _ok(t.post("hands", {"shuffler": 3, "deals": {"1": DEAL_1}, "request_id": "h1"}), 201)[
            "repeated"
        ]
        == 1
    )
    assert t.state()["hand"] == 1 and t.state()["version"] == 3


def test_marks_and_corrections_sent_again_are_made_once(client: TestClient) -> None:
    t = Tab(client)
    _ok(t.post("hands", {"shuffler": 3, "deals": {"1": DEAL_1}}), 201)
    _ok(t.move(1, "3h"))
    _ok(t.move(2, "5d"))
    mark = {"comment": "Bo hesitated", "version": 3, "request_id": "c1"}
    _ok(t.post("marks", mark))
    assert _ok(t.post("marks", mark))["repeated"] == 4
    assert t.state()["moves"][-1]["comments"] == ["Bo hesitated"]  # once
    edit = {"entry": 3, "seat": 2, "play": "7d", "version": 4, "request_id": "e1"}
    assert _ok(t.post("edit", edit))["dropped"] == []
    again = _ok(t.post("edit", edit))
    assert again["repeated"] == 5 and again["dropped"] == []
    delete = {"entry": 3, "action": "delete", "version": 5, "request_id": "d1"}
    _ok(t.post("edit", delete))
    assert _ok(t.post("edit", delete))["repeated"] == 6
    assert [m["play"] for m in t.state()["moves"]] == ["3h"]  # 3h deleted once, not twice


def test_a_request_id_sent_with_another_change_is_refused(client: TestClient) -> None:
    t = Tab(client)
    _ok(t.post("hands", {"shuffler": 3, "deals": {"1": DEAL_1}}), 201)
    _ok(t.move(1, "3h", request_id="x"))
    for path, body in (
        ("moves", {"seat": 1, "play": "4h", "request_id": "x"}),
        ("undo", {"request_id": "x"}),
    ):
        r = t.post(path, body)
        assert r.status_code == 409 and r.json()["code"] == "request-reused", r.text
        assert "request 'x' was another change (moves), taken at version 2" in r.json()["message"]
    assert t.state()["version"] == 2
    for bad in ("", "a b", "x" * 65, "é"):
        r = t.post("undo", {"request_id": bad})
        assert r.status_code == 422 and r.json()["code"] == "request", bad
    assert t.state()["version"] == 2


def test_a_request_is_remembered_for_the_last_changes_only(store_url: str) -> None:  # noqa: F811
    """The library keeps a table's last REQUESTS_KEPT request ids: an older one sent again is
    judged by its version (stale), and the store does not grow by a row per change for ever."""
    engine = open_store(store_url)
    try:
        table, token = Table.create(engine, players=["Ann", "Bo Li", "王芳"])
        table.start_hand(token, shuffler=3, deals={1: DEAL_1}, request_id="start")
        for k in range(REQUESTS_KEPT + 1):  # a move and its undo, over and over
            if k % 2 == 0:
                table.enter(token, seat=1, play="3h", request_id=f"r{k}")
            else:
                table.undo(token, request_id=f"r{k}")
        last = table.enter(token, seat=1, play="3h", request_id=f"r{REQUESTS_KEPT}")
        assert last["repeated"] == REQUESTS_KEPT + 2 and last["entries"] == 2
        with pytest.raises(Stale):
            table.start_hand(token, shuffler=3, deals={1: DEAL_1}, request_id="start", version=0)
        with engine.connect() as conn:
            kept = conn.execute(
                text("SELECT count(*) FROM live_entry WHERE table_id = :t AND seq < 0"),
                {"t": table.id},
            ).scalar_one()
        assert kept == REQUESTS_KEPT
    finally:
        engine.dispose()


def test_a_request_id_taken_already_is_looked_up_even_at_the_current_version(
    client: TestClient,
) -> None:
    """A page that read the table again (its version current) and sends a change under an id
    the table took already: the same change is answered as taken, not made a second time; another
    change under that id is refused, not made."""
    t = Tab(client)
    _ok(t.post("hands", {"shuffler": 3, "deals": {"1": DEAL_1}}), 201)
    _ok(t.move(1, "3h", request_id="m1", version=1))
    again = _ok(t.move(1, "3h", request_id="m1", version=2))
    assert again["repeated"] == 2 and again["entries"] == 2
    assert t.state()["version"] == 2
    r = t.move(2, "5d", request_id="m1", version=2)
    assert r.status_code == 409 and r.json()["code"] == "request-reused", r.text
    _ok(t.move(2, "5d", version=2))
    u = t.post("undo", {"version": 3, "request_id": "u1"})
    assert _ok(u)["entries"] == 2
    r = t.post("undo", {"version": 2, "request_id": "u1"})
    assert _ok(r)["repeated"] == 4 and t.state()["entries"] == 2
    assert [m["play"] for m in t.state()["moves"]] == ["3h"]


def test_a_sheng_ji_play_of_no_cards_is_refused_with_a_sheng_ji_code(client: TestClient) -> None:
    """An empty box sent as a play: Sheng ji's own refusal (no pass), not a notation error of
    Zheng Fen's; nothing changes."""
    t = Tab(client, **SJ)
    _ok(t.post("hands", {"dealer": 1, "trump": "s"}), 201)
    for play in ("", "  ", " , "):
        r = t.move(1, play, version=1)
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "SJ209" and "no pass" in r.json()["message"], r.text
    assert t.state()["version"] == 1
