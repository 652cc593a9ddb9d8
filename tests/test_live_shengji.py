"""Sheng ji at the live table (LIVE.md, "Sheng ji"): a whole simulated match entered through
the HTTP API move by move against a real `zfrec serve` (SQLite and PostgreSQL), killed with
kill -9 mid-round; wrong entries refused with the validator's SJ codes; what the screen gets;
undo; judging as far as the cards seen allow; two servers on one PostgreSQL."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.sj_live_helpers import (
    exported,
    match_steps,
    new_sj_table,
    send,
    simulated,
    try_wrong,
)
from tests.test_live_server import server
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.games.shengji.kind import match_of
from zfrec.games.shengji.records import SjMatch
from zfrec.live import EntryRefused, Table
from zfrec.live.app import create_app
from zfrec.record import loads
from zfrec.store import open_store


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> SjMatch:
    return simulated(tmp_path_factory.mktemp("sim"))


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(open_store(f"sqlite:///{tmp_path / 'club.db'}")))


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- the whole match, a real server, kill -9 -----------------------------------------------------


@pytest.mark.slow
def test_whole_match_through_the_api_with_a_kill(
    tmp_path: Path,
    match: SjMatch,
    store_url: str,  # noqa: F811
) -> None:
    assert len(match.rounds) >= 4 and match.result is not None
    steps = list(match_steps(match, wrong_every=9))
    # kill -9 in round 2, mid-trick: the entry being sent when the server dies
    kill_at = next(i for i, s in enumerate(steps) if s.round == 2 and s.kind == "move") + 42
    tried = blocks = 0
    with server(store_url, tmp_path / "a.log") as (proc, client):
        table, token = new_sj_table(client, match)
        for step in steps[:kill_at]:
            tried += try_wrong(client, table, token, step)
            r = send(client, table, token, step.kind, step.body)
            assert r.status_code in (200, 201), (step, r.text)
        # The next entry goes in from a thread while the server is killed under it.
        answer: list[int] = []

        def enter() -> None:
            try:
                answer.append(send(client, table, token, "move", steps[kill_at].body).status_code)
            except Exception:
                answer.append(0)

        worker = threading.Thread(target=enter)
        worker.start()
        os.kill(proc.pid, signal.SIGKILL)
        worker.join(timeout=30)
        proc.wait(timeout=10)
    with server(store_url, tmp_path / "b.log") as (_proc, client):
        st = client.get(f"/api/tables/{table}").json()
        # nothing accepted is lost; the entry in flight is there only if it was answered 200
        assert st["entries"] in (kill_at, kill_at + 1)
        if answer == [200]:
            assert st["entries"] == kill_at + 1
        done = st["entries"]
        assert exported(client, table).rounds[:1] == match.rounds[:1]
        for step in steps[done:]:
            tried += try_wrong(client, table, token, step)
            blocks += "blocked_by" in step.body
            r = send(client, table, token, step.kind, step.body)
            assert r.status_code in (200, 201), (step, r.text)
        got = exported(client, table)
        assert got.rounds == match.rounds
        assert got.result == match.result
        st = client.get(f"/api/tables/{table}").json()
        assert st["status"] == "over" and st["winners"] == [s + 1 for s in match.result.winners]
        listed = [t for t in client.get("/api/tables").json() if t["id"] == table]
        assert listed[0]["over"] is True
    assert tried > 100 and blocks > 0


# --- the screen's state, undo, refusals ----------------------------------------------------------


def test_state_shows_trick_winner_points_and_round_end(tmp_path: Path, match: SjMatch) -> None:
    client = _client(tmp_path)
    table, token = new_sj_table(client, match)
    steps = [s for s in match_steps(match) if s.round == 1]
    for step in steps[:-1]:
        assert send(client, table, token, step.kind, step.body).status_code in (200, 201)
    st = client.get(f"/api/tables/{table}").json()
    rnd = match.rounds[0]
    assert rnd.dealer is not None
    assert st["game"] == "shengji" and st["round"] == 1 and st["phase"] == "play"
    assert st["dealer"] == rnd.dealer + 1 and st["trump"] == rnd.trump
    assert st["teams"] == [[1, 3], [2, 4]] and st["levels"] == ["2"] * 4
    assert len(st["trick_moves"]) == 3 and st["winning"] in (1, 2, 3, 4)
    assert st["trick_moves"][0]["units"]
    assert st["turn"] == rnd.tricks[-1].moves[-1].seat + 1
    assert st["hands"][st["turn"] - 1]["cards"] and st["legal"]
    st = send(client, table, token, "move", steps[-1].body).json()
    assert st["status"] == "between" and st["last_round"]["round"] == 1
    end = st["last_round"]
    assert rnd.points is not None and rnd.outcome is not None and rnd.levels is not None
    assert rnd.outcome.next_dealer is not None
    assert end["total"] == rnd.points.total and end["next_dealer"] == rnd.outcome.next_dealer + 1
    assert end["kitty"] and end["multiplier"] == rnd.points.multiplier
    assert end["kitty_points"] == rnd.points.kitty  # None: the declarers took the last trick
    assert st["levels"] == [str(v) for v in rnd.levels.levels]
    assert st["next"]["dealer"] == rnd.outcome.next_dealer + 1
    # a spectator of seat 1 sees only seat 1's cards
    seen = client.get(f"/api/tables/{table}?seat=1").json()
    assert seen["hands"][1:] == [None, None, None]
    # ... and, while a round is played, another seat's discard only as hidden
    assert send(client, table, token, "hand", {}).status_code == 201
    second = [s for s in match_steps(match) if s.round == 2]
    for step in second[1:]:
        if "discard" in step.body:
            assert send(client, table, token, "move", step.body).status_code == 200
            mover = step.body["seat"]
            break
        assert send(client, table, token, "move", step.body).status_code == 200
    other = mover % 4 + 1
    hidden = client.get(f"/api/tables/{table}?seat={other}").json()
    assert hidden["moves"][-1]["discard"] == "(hidden)" and hidden["discard"] is None
    own = client.get(f"/api/tables/{table}?seat={mover}").json()
    assert own["moves"][-1]["discard"] == step.body["discard"]


def test_undo_any_number_of_entries(tmp_path: Path, match: SjMatch) -> None:
    client = _client(tmp_path)
    table, token = new_sj_table(client, match)
    every = list(match_steps(match))
    second = next(i for i, s in enumerate(every) if s.round == 2)  # round 2's start
    steps = every[: second + 40]
    for step in steps:
        assert send(client, table, token, step.kind, step.body).status_code in (200, 201)
    full = client.get(f"/api/tables/{table}/record.zfn").text
    for _ in range(45):  # back across the start of round 2 and the end of round 1
        assert client.post(f"/api/tables/{table}/undo", headers=_auth(token)).status_code == 200
    st = client.get(f"/api/tables/{table}").json()
    assert st["entries"] == second - 5 and st["round"] == 1 and st["status"] == "playing"
    assert st["last_round"] is None and st["next"] is None
    for step in steps[second - 5 :]:
        assert send(client, table, token, step.kind, step.body).status_code in (200, 201)
    assert client.get(f"/api/tables/{table}/record.zfn").text == full


def test_refusals_and_conflicts(tmp_path: Path, match: SjMatch) -> None:
    client = _client(tmp_path)
    bad = client.post("/api/tables", json={"game": "shengji", "players": ["A", "B", "C"]})
    assert bad.status_code == 422 and bad.json()["code"] == "players"
    assert "4 to 8 players, not 3" in bad.json()["message"]
    bad = client.post("/api/tables", json={"game": "shengij", "players": ["A", "B", "C", "D"]})
    assert bad.status_code == 422 and "did you mean shengji" in bad.json()["message"]
    table, token = new_sj_table(client, match)
    r = send(client, table, token, "move", {"seat": 1, "play": "3s"})
    assert r.status_code == 409 and r.json()["code"] == "no-hand"
    # tokens as for Zheng Fen: none is 401, another table's is 403
    r = client.post(f"/api/tables/{table}/hands", json={"dealer": 1})
    assert r.status_code == 401
    _other, other_token = new_sj_table(client, match)
    assert send(client, table, other_token, "hand", {"dealer": 1}).status_code == 403
    steps = list(match_steps(match))
    at = next(i for i, s in enumerate(steps) if "discard" in s.body)  # the bids entered
    for step in steps[:at]:
        assert send(client, table, token, step.kind, step.body).status_code in (200, 201)
    # unreadable cards, a Zheng Fen field, two kinds of move at once, a discard by another seat
    r = send(client, table, token, "move", {"seat": 1, "play": "3x"})
    assert r.status_code == 422 and r.json()["code"] == "ZF001"
    r = send(client, table, token, "hand", {"shuffler": 1})
    assert r.status_code == 409 and r.json()["code"] == "hand-in-progress"
    r = send(client, table, token, "move", {"seat": 1, "play": "3s", "bid": "3s"})
    assert r.status_code == 422 and r.json()["code"] == "request"
    dealer = match.rounds[0].dealer
    assert dealer is not None
    other = (dealer + 1) % 4 + 1
    r = send(client, table, token, "move", {"seat": other, "discard": "3s"})
    assert r.status_code == 422 and r.json()["code"] == "seat"
    # a stale version is refused with the state
    version = client.get(f"/api/tables/{table}").json()["version"]
    r = send(client, table, token, "move", {**steps[at].body, "version": version - 1})
    assert r.status_code == 409 and r.json()["code"] == "stale"
    # a bid after the first play
    for step in steps[at : at + 3]:
        assert send(client, table, token, step.kind, step.body).status_code in (200, 201)
    r = send(client, table, token, "move", {"seat": 1, "bid": "2c"})
    assert r.status_code == 409 and r.json()["code"] == "phase"
    # the round's replay page comes with Sheng ji's pages: a plain 404 meanwhile, never a 500
    for path in (f"/t/{table}/replay/1", f"/t/{table}/watch"):
        r = client.get(path)
        assert r.status_code == 404 and "Sheng ji" in r.json()["message"]
    assert client.get(f"/t/{table}").status_code == 200
    # the record as JSON reads back as the .zfn one
    as_json = loads(client.get(f"/api/tables/{table}/record.json").text, format="json")[0]
    assert match_of(as_json).rounds == exported(client, table).rounds
    # marks and corrections are Zheng Fen's only, for now
    r = client.post(f"/api/tables/{table}/marks", json={"annotation": "!"}, headers=_auth(token))
    assert r.status_code == 422 and r.json()["code"] == "request"


def test_a_shown_void_is_held_against_a_later_play(tmp_path: Path) -> None:
    """No deal known: a seat that did not follow hearts cannot play a heart later on a heart
    lead; one that followed may."""
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    table, token = Table.create(engine, players=["A", "B", "C", "D"], game="shengji")
    table.start_hand(token, dealer=1, trump="s")
    for seat, play in ((1, "3h"), (2, "4d"), (3, "5h"), (4, "Ah")):
        table.enter(token, seat=seat, play=play)
    st = table.state()
    assert st["turn"] == 4 and st["points"] == 5 and st["declarers"] == [1, 3]  # D took the 5h
    for seat, play in ((4, "6h"), (1, "7h")):
        table.enter(token, seat=seat, play=play)
    with pytest.raises(EntryRefused) as refused:
        table.enter(token, seat=2, play="8h")  # B showed a void in hearts in trick 1
    assert refused.value.code == "SJ201"
    table.enter(token, seat=2, play="8c")
    table.enter(token, seat=3, play="9h")
    st = table.state()
    assert st["trick_moves"] == [] and [m["play"] for m in st["last_trick"]] == [
        "6h", "7h", "8c", "9h"
    ]  # fmt: skip
    assert "2: 8c" in table.export("zfn")


def test_a_throw_stands_or_is_blocked(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    table, token = Table.create(engine, players=["A", "B", "C", "D"], game="shengji")
    table.start_hand(token, dealer=1, trump="s")
    # A throws Kd Qd; B shows the Ad: the throw is held to its lowest unit, the Qd
    state = table.enter(token, seat=1, play="Kd Qd", blocked_by=2, shows="Ad")
    assert state["trick_moves"][0]["play"] == "Qd"
    assert "1: Qd Kd forced Qd by 2" in table.export("zfn")
    table.undo(token)
    with pytest.raises(EntryRefused) as refused:
        table.enter(token, seat=1, play="Kd Qd", blocked_by=2, shows="Jd")
    assert refused.value.code == "SJ104"
    state = table.enter(token, seat=1, play="Kd Qd")  # nobody blocks: it stands
    assert state["trick_moves"][0]["units"] == ["Kd", "Qd"] and state["winning"] == 1
    with pytest.raises(EntryRefused) as refused:
        table.enter(token, seat=2, play="4d")  # two cards were led
    assert refused.value.code == "SJ201" and "must play 2 cards" in refused.value.message


def test_zhao_pengyou_calls_and_friends(tmp_path: Path) -> None:
    """Five seats: the dealer's calls, and the plays that make friends, as the engine says."""
    match = simulated(tmp_path, 4, "--rules", "zhaopengyou", "--option", "players=5")
    assert len(match.players) == 5 and match.rounds[0].calls
    client = _client(tmp_path)
    table, token = new_sj_table(client, match)
    steps = [s for s in match_steps(match) if s.round <= 2]
    joined = False
    for step in steps:
        r = send(client, table, token, step.kind, step.body)
        assert r.status_code in (200, 201), (step, r.text)
        joined = joined or len(r.json().get("declarers") or []) > 1
    assert joined and r.json()["teams"] is None
    assert exported(client, table).rounds == match.rounds[:2]
    bad = send(client, table, token, "move", {"seat": 1, "calls": "2nd As"})
    assert bad.status_code == 409  # round 2 is over: no calls now


# --- two servers on one PostgreSQL ---------------------------------------------------------------


@pytest.fixture
def pg_url(store_url: str) -> str:  # noqa: F811
    if not store_url.startswith("postgresql"):
        pytest.skip("this test is about PostgreSQL")
    return store_url


@pytest.mark.slow
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_two_servers_on_one_postgresql(tmp_path: Path, pg_url: str, match: SjMatch) -> None:
    open_store(pg_url).dispose()  # migrate once, before two servers race to
    steps = [s for s in match_steps(match) if s.round == 1]
    with (
        server(pg_url, tmp_path / "a.log") as (_a, a),
        server(pg_url, tmp_path / "b.log") as (_b, b),
    ):
        table, token = new_sj_table(a, match)
        send(a, table, token, steps[0].kind, steps[0].body)
        for step in steps[1:]:
            answers: list[int] = []
            # as the phones do: each entry made against the version it saw
            body = {**step.body, "version": a.get(f"/api/tables/{table}").json()["version"]}

            def send_to(client: Any, answers: list[int] = answers, body: Any = body) -> None:
                answers.append(send(client, table, token, "move", body).status_code)

            pair = [threading.Thread(target=send_to, args=(c,)) for c in (a, b)]
            for t in pair:
                t.start()
            for t in pair:
                t.join(timeout=60)
            assert sorted(answers) == [200, 409], answers  # exactly one is taken

        assert exported(b, table).rounds[0] == match.rounds[0]
        assert a.get(f"/api/tables/{table}").json() == b.get(f"/api/tables/{table}").json()
