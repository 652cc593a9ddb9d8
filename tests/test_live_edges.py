"""The live table at the edges where real use meets it (LIVE.md), through the real app
(FastAPI's TestClient) over a real store: a finished game corrected from a file and then undone
and finished again at the table, and the like.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from typer.testing import CliRunner

import zfrec.store.db as store_db
from tests.live_helpers import Tab, sim, steps
from tests.sj_live_helpers import match_steps, simulated
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.cli import app as cli
from zfrec.live import Table
from zfrec.live.app import create_app
from zfrec.store import open_store

runner = CliRunner()


@pytest.fixture
def engine(store_url: str) -> Iterator[Engine]:  # noqa: F811
    eng = open_store(store_url)
    yield eng
    eng.dispose()


@pytest.fixture
def client(engine: Engine) -> Iterator[TestClient]:
    with TestClient(create_app(engine)) as c:
        yield c


def cli_json(*args: str) -> Any:
    result = runner.invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def stored(db: str) -> dict[int, str]:
    """Every stored game's id and its exported record."""
    ids = [g["id"] for g in cli_json("games", "--db", db)]
    out = {}
    for gid in ids:
        result = runner.invoke(cli, ["export", str(gid), "--db", db])
        assert result.exit_code == 0, result.output
        out[gid] = result.stdout
    return out


# --- a finished game corrected from a file, then undone and finished again at the table ------


def _corrected(db: str, tmp_path: Path, game_id: int, zfn: str) -> str:
    """`zfrec import --replace` of the table's record with a Site tag added: the corrected text."""
    fixed = zfn.replace('[Event "Club night"]\n', '[Event "Club night"]\n[Site "Room 2"]\n', 1)
    assert fixed != zfn
    path = tmp_path / "fixed.zfn"
    path.write_text(fixed, encoding="utf-8")
    result = runner.invoke(cli, ["import", "--replace", str(game_id), str(path), "--db", db])
    assert result.exit_code == 0, result.output
    return fixed


@pytest.mark.slow
def test_a_corrected_game_undone_and_finished_again_is_stored_once(
    client: TestClient,
    store_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    game = sim(3, 11, "pagat", hands=1)
    t = Tab(client, players=game.players, target=1, event="Club night")
    calls = list(steps(game))
    for step in calls:
        t.step(step.kind, step.body)
    assert t.state()["status"] == "over"
    [(game_id, _)] = stored(store_url).items()
    _corrected(store_url, tmp_path, game_id, t.zfn())
    corrected = stored(store_url)
    assert 'Site "Room 2"' in corrected[game_id]

    # Undone on the phone and finished again with the same last move: the table's record is
    # the one it stored, so the correction made since stands, in the one game.
    assert t.post("undo").status_code == 200
    assert t.state()["status"] == "playing"
    t.step(calls[-1].kind, calls[-1].body)
    assert stored(store_url) == corrected
    (listed,) = cli_json("tables", "--db", store_url)
    assert listed["over"] is True and listed["game_id"] == game_id
    assert listed["entries"] == t.state()["entries"] == len(calls)

    # Changed at the table after that (a comment on the last move): the file holds the game
    # now, and the table's record would go in its place, the correction lost unseen. Refused
    # (409), naming the file and how to go on; the table and the game stay as they were.
    before = t.state()
    path = str((tmp_path / "fixed.zfn").resolve())
    r = t.post("marks", {"comment": "Cy counted the points twice"})
    assert r.status_code == 409, r.text
    said = r.json()
    assert (said["code"], said["game_id"], said["file"]) == ("held-by-file", game_id, path)
    assert said["message"] == (
        f"game {game_id} is held by {path} now (imported, or corrected with zfrec import "
        "--replace), and this change would put the table's record in its place: nothing was "
        f"changed. Make the change in that file and import it again (zfrec import --replace "
        f"{game_id} {path})"
    )
    assert t.state() == before and stored(store_url) == corrected

    # Undone, marked (the table open: nothing stored changes) and finished again: the table's
    # record is not the one it stored, and is refused alike at the last move, which stays out.
    # The mark taken away, the last move finishes it again, the correction standing.
    assert t.post("undo").status_code == 200
    assert t.post("marks", {"annotation": "!?"}).status_code == 200
    assert stored(store_url) == corrected
    last = calls[-1]
    r = t.post("moves", last.body)
    assert r.status_code == 409 and r.json()["code"] == "held-by-file", r.text
    assert t.state()["status"] == "playing" and t.state()["entries"] == len(calls) - 1
    assert t.post("marks", {"annotation": ""}).status_code == 200
    t.step(last.kind, last.body)
    assert stored(store_url) == corrected and t.state()["status"] == "over"

    # `show` and `delete` name the same file.
    shown = runner.invoke(cli, ["show", str(game_id), "--db", store_url])
    assert shown.exit_code == 0 and path in shown.stdout, shown.output
    assert cli_json("show", str(game_id), "--db", store_url)["files"] == [
        {"path": path, "position": 1}
    ]


@pytest.mark.slow
def test_a_game_no_file_holds_marked_at_the_table_keeps_its_id(
    client: TestClient,
    store_url: str,  # noqa: F811
) -> None:
    """A finished game no file holds, marked at the table: the table's record takes its place,
    keeping its id (LIVE.md), though another game was stored after it (an id SQLite would not
    give back) and on PostgreSQL (whose ids never come back). Two tables that logged the same
    record: the first marked gets a game of its own, the second marked alike then joins that
    one, and the game they shared goes (nothing else holds it)."""
    game = sim(3, 11, "pagat", hands=1)
    calls = list(steps(game))
    t = Tab(client, players=game.players, target=1, event="Club night")
    for step in calls:
        t.step(step.kind, step.body)
    [game_id] = stored(store_url)
    other = sim(3, 12, "pagat", hands=1)
    o = Tab(client, players=other.players, target=1, event="Later")
    for step in steps(other):
        o.step(step.kind, step.body)
    assert len(stored(store_url)) == 2
    r = t.post("marks", {"comment": "Cy counted the points twice"})
    assert r.status_code == 200, r.text
    now = stored(store_url)
    assert len(now) == 2 and now[game_id] == t.zfn(), sorted(now)
    assert "Cy counted the points twice" in now[game_id]

    # the same game logged at two tables: one stored game, shared
    a = Tab(client, players=game.players, target=1, event="Twice")
    b = Tab(client, players=game.players, target=1, event="Twice")
    for tab in (a, b):
        for step in calls:
            tab.step(step.kind, step.body)
    shared = {g["game_id"] for g in cli_json("tables", "--db", store_url)} - {game_id}
    assert len(shared) == 2  # the other table's game, and the one a and b share
    assert a.post("marks", {"comment": "again"}).status_code == 200
    assert b.post("marks", {"comment": "again"}).status_code == 200
    ids = {g["id"]: g["game_id"] for g in cli_json("tables", "--db", store_url)}
    assert ids[a.id] == ids[b.id] and ids[a.id] not in shared
    assert len(stored(store_url)) == 3  # the two marked first, the other table's: none left over


@pytest.mark.slow
def test_a_corrected_sheng_ji_match_undone_and_finished_again_is_stored_once(
    tmp_path: Path,
) -> None:
    match = simulated(tmp_path)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    engine = open_store(db)
    with TestClient(create_app(engine)) as client:
        body = {"game": "shengji", "rules": match.preset, "players": list(match.players)}
        t = Tab(client, **body, event="Club night")
        calls = list(match_steps(match))
        for step in calls:
            t.step(step.kind, step.body)
        assert t.state()["status"] == "over"
        [(game_id, _)] = stored(db).items()
        _corrected(db, tmp_path, game_id, t.zfn())
        corrected = stored(db)
        assert list(corrected) == [game_id] and 'Site "Room 2"' in corrected[game_id]
        assert t.post("undo").status_code == 200
        t.step(calls[-1].kind, calls[-1].body)
        assert stored(db) == corrected
        (listed,) = cli_json("tables", "--db", db)
        assert listed["over"] is True and listed["game_id"] == game_id
    engine.dispose()


# --- Sheng ji: a round's entries out of order ---------------------------------------------------


def test_a_round_one_dealer_the_bids_overrule_is_named_at_the_exchange(tmp_path: Path) -> None:
    """Round 1's dealer picked, then another seat's bid stands (that seat deals, R14): the
    exchange entered by the seat picked is refused with the clash (SJ304), not with what it
    causes (the bidder does not hold the discard, SJ102)."""
    match = simulated(tmp_path)
    r1 = [s for s in match_steps(match) if s.round == 1]
    start, exchange = r1[0], next(s for s in r1 if "discard" in s.body)
    dealer = start.body["dealer"]
    bidder, two = next(
        (int(seat), card)
        for seat, cards in start.body["deals"].items()
        if int(seat) != dealer
        for card in cards.split()
        if card.startswith("2")
    )
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        body = {"game": "shengji", "rules": match.preset, "players": list(match.players)}
        t = Tab(client, **body)
        t.step("hand", {k: v for k, v in start.body.items() if k != "trump"})
        t.step("move", {"seat": bidder, "bid": two})
        version = t.state()["version"]
        r = t.post("moves", exchange.body)
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "SJ304", r.text
        assert r.json()["message"] == (
            f"{match.players[bidder - 1]} deals round 1: the seat whose bid stands, else seat 1, "
            f"not {match.players[dealer - 1]} as written (RULES-SHENGJI.md R14)"
        )
        assert t.state()["version"] == version
    engine.dispose()


def test_a_round_one_dealer_the_bids_overrule_is_not_the_dealer_shown(tmp_path: Path) -> None:
    """Round 1's dealer picked (Ann), then Bo's bid stands: the state names the dealer the rules
    judge (Bo, with Di the declarers), not Ann as "dealer" beside Bo's team as declarers; the
    pick is `picked_dealer`. Bo's exchange is refused with the clash (SJ304), as Ann's is, not
    as "Ann deals". Ann's pair outbids Bo: she deals, and the pick stands."""
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        t = Tab(client, game="shengji", rules="bashifen", players=["Ann", "Bo", "Cy", "Di"])
        t.step("hand", {"dealer": 1})
        st = t.state()
        assert (st["dealer"], st["declarers"], st.get("picked_dealer")) == (1, [1, 3], None)
        t.step("move", {"seat": 2, "bid": "2h"})
        st = t.state()
        assert (st["dealer"], st["declarers"], st.get("picked_dealer")) == (2, [2, 4], 1)
        assert st["turn"] == 2
        for seat in (2, 1):
            r = t.post("moves", {"seat": seat, "discard": "3c 4c 5c 6c 7c 8c 9c Tc"})
            assert r.status_code == 422 and r.json()["code"] == "SJ304", r.text
        t.step("move", {"seat": 1, "bid": "2s 2s"})
        st = t.state()
        assert (st["dealer"], st["declarers"], st.get("picked_dealer")) == (1, [1, 3], None)
        t.step("move", {"seat": 1, "discard": "3c 4c 5c 6c 7c 8c 9c Tc"})
        assert t.state()["phase"] == "play"
    engine.dispose()


# --- a store another process holds locked --------------------------------------------------------


@pytest.mark.slow
def test_a_store_locked_by_another_process_is_503_after_one_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that has waited SQLite's busy timeout out is answered 503 then, not after
    waiting it out again and again (5 minutes at the 60 s default; 1 s here), and nothing
    changes; once the lock is let go the same change goes in."""
    monkeypatch.setattr(store_db, "BUSY_TIMEOUT_S", 1.0)  # the store's setting, made short
    path = tmp_path / "club.db"
    engine = open_store(f"sqlite:///{path}")
    with TestClient(create_app(engine)) as client:
        t = Tab(client)
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")  # an import in another process, say
        letting_go = threading.Timer(4.0, lambda: holder.execute("ROLLBACK"))
        letting_go.start()
        try:
            r = t.post("hands", {"shuffler": 1})
            assert r.status_code == 503, r.text
            assert r.json() == {
                "code": "store",
                "message": "the store cannot be used now: database is locked",
            }
            assert t.state()["version"] == 0  # read while the store is locked
        finally:
            letting_go.join()
            holder.close()
        assert t.post("hands", {"shuffler": 1}).status_code == 201
    engine.dispose()


def test_a_bid_the_exchange_or_calls_after_the_first_play_are_refused_in_plain_words(
    tmp_path: Path,
) -> None:
    match = simulated(tmp_path, 4, "--rules", "zhaopengyou", "--option", "players=5")
    r1 = [s for s in match_steps(match) if s.round == 1]
    first_play = next(i for i, s in enumerate(r1) if "play" in s.body)
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        body = {"game": "shengji", "rules": match.preset, "players": list(match.players)}
        t = Tab(client, **body)
        for step in r1[: first_play + 1]:
            t.step(step.kind, step.body)
        late = {
            "bid": "a bid comes",
            "discard": "the exchange comes",
            "calls": "the calls come",
        }
        for field, words in late.items():
            step = next(s for s in r1 if field in s.body)
            r = t.post("moves", step.body)
            assert r.status_code == 409, r.text
            assert r.json() == {
                "code": "phase",
                "message": f"{words} before the first play of the round",
            }
    engine.dispose()


def test_a_bid_after_the_exchange_is_refused_as_out_of_order(tmp_path: Path) -> None:
    """Bids are made while drawing (RULINGS-SHENGJI 15), so before the dealer's exchange: a bid
    entered after it is refused as such (409 phase), not judged as if made before it (which
    read as "the dealer does not hold the discard", SJ102, or was taken)."""
    match = simulated(tmp_path)
    r1 = [s for s in match_steps(match) if s.round == 1]
    start, exchange = r1[0], next(s for s in r1 if "discard" in s.body)
    bids = [s for s in r1 if "bid" in s.body]
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        body = {"game": "shengji", "rules": match.preset, "players": list(match.players)}
        t = Tab(client, **body)
        t.step("hand", {k: v for k, v in start.body.items() if k not in ("trump", "dealer")})
        for step in [*bids, exchange]:
            t.step(step.kind, step.body)
        version = t.state()["version"]
        # Every seat's bid of a two it holds, the dealer's included: each comes too late.
        tried = 0
        for seat, cards in start.body["deals"].items():
            two = next((c for c in cards.split() if c.startswith("2")), None)
            if two is None:
                continue
            r = t.post("moves", {"seat": int(seat), "bid": f"{two} {two}"})
            assert r.status_code == 409, r.text
            assert r.json()["message"] == "a bid comes before the exchange: undo it first"
            r = t.post("moves", {"seat": int(seat), "bid": two})
            assert r.status_code == 409, r.text
            tried += 1
        assert tried >= 2 and t.state()["version"] == version
    engine.dispose()


# --- a server restarted (or a second server on the store) rebuilds the same table -------------


@pytest.mark.parametrize("deals", ["none", "own"])
def test_a_rebuilt_table_shows_what_the_running_one_shows(
    client: TestClient,
    store_url: str,  # noqa: F811
    deals: str,
) -> None:
    """Hand 1 logged with no deal placing the 3h: after its first play, the table a restarted
    server rebuilds from the store (here another engine's) shows the state the running server
    shows. It showed the 3h among the leader's known cards only after a rebuild (the replay
    places it with hand 1's first player, R4); the running server did not."""
    game = sim(3, 5 if deals == "none" else 6, "pagat", hands=1)
    t = Tab(client, players=game.players)
    for step in list(steps(game, deals=deals, drop_passes=True))[:8]:
        t.step(step.kind, step.body)
        other = open_store(store_url)
        try:
            rebuilt = Table(other, t.id).state()
        finally:
            other.dispose()
        assert t.state() == rebuilt, step


@pytest.mark.slow
def test_a_table_that_keeps_its_game_when_undone_is_rebuilt_and_exported_as_it_was(
    client: TestClient,
    store_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A finished game a file holds too stays the table's when the final entry is undone, with
    the hash of the record it stored kept in the store (LIVE.md): a restarted server rebuilds
    the table from its entries alone, its record.zfn and `zfrec tables` count those alone, and
    deleting the table leaves nothing of it behind."""
    game = sim(3, 11, "pagat", hands=1)
    t = Tab(client, players=game.players, target=1, event="Club night")
    calls = list(steps(game))
    for step in calls:
        t.step(step.kind, step.body)
    [(game_id, _)] = stored(store_url).items()
    _corrected(store_url, tmp_path, game_id, t.zfn())
    assert t.post("undo").status_code == 200
    open_now, record_now = t.state(), t.zfn()
    assert open_now["status"] == "playing" and open_now["entries"] == len(calls) - 1

    other = open_store(store_url)  # a restarted server
    try:
        with TestClient(create_app(other)) as restarted:
            again = restarted.get(f"/api/tables/{t.id}")
            assert again.status_code == 200, again.text
            assert again.json() == open_now
            assert restarted.get(f"/api/tables/{t.id}/record.zfn").text == record_now
    finally:
        other.dispose()
    (listed,) = cli_json("tables", "--db", store_url)
    assert listed["entries"] == len(calls) - 1 and listed["game_id"] == game_id

    result = runner.invoke(cli, ["tables", "--delete", t.id, "--db", store_url])
    assert result.exit_code == 0, result.output
    assert cli_json("tables", "--db", store_url) == []
    assert list(stored(store_url)) == [game_id]


def test_the_table_list_says_which_game_each_table_plays(tmp_path: Path) -> None:
    """`zfrec tables` listed a Zheng Fen and a Sheng ji table alike."""
    match = simulated(tmp_path)
    db = f"sqlite:///{tmp_path / 'club.db'}"
    with TestClient(create_app(open_store(db))) as client:
        sj = Tab(client, game="shengji", rules=match.preset, players=list(match.players))
        zf = Tab(client, players=["Ann", "Bo", "Cy"])
    listed = CliRunner().invoke(cli, ["tables", "--db", db]).stdout.splitlines()
    games = {line.split("  ")[0]: line.split("  ")[1] for line in listed}
    assert games == {sj.id: "Sheng ji", zf.id: "Zheng Fen"}, listed
