"""Two live tables that logged the same record share one stored game (LIVE.md, "What is
stored"). Both marked, or corrected, at the same moment, by two servers on one store: each
change is taken (no 500), and the store ends as the two changes one after the other leave it,
every stored game held by a table, each table's game its own record, none left over.

On PostgreSQL the two changes really meet: the test holds a lock on the players' rows, which
storing either table's game must wait for, until both servers' transactions are under way (a
real server's `pg_stat_activity` says they wait), and then lets them go. On SQLite the two
servers' transactions queue for the store's write lock. The PostgreSQL runs skip without
ZFREC_TEST_PG_URL, and fail under CI=true (tests/test_store.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.live_helpers import Tab, sim, steps
from tests.test_live_edges import cli_json, stored
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.live.app import create_app
from zfrec.store import open_store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.parametrize("store_url", ["sqlite", "postgresql"], indirect=True),
]
WAIT_POLLS = 600  # the bound on waiting for both servers to be under way: 600 looks, 0.05 s apart


@contextmanager
def two_servers(url: str) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps, each on its own engine (its own connections): two `zfrec serve` on one store.
    A server's exception is answered 500, as a real server answers it."""
    engines = [open_store(url), open_store(url)]
    try:
        with (
            TestClient(create_app(engines[0]), raise_server_exceptions=False) as a,
            TestClient(create_app(engines[1]), raise_server_exceptions=False) as b,
        ):
            yield a, b
    finally:
        for e in engines:
            e.dispose()


@contextmanager
def rows_held(url: str, locking: str, **params: Any) -> Iterator[Callable[[], int]]:
    """On PostgreSQL: hold the rows the query `locking` (a SELECT ... FOR UPDATE) locks until
    the block ends, so that changes that need them meet there. Yields how to ask how many
    other transactions of this test's schema wait for a lock. On SQLite: nothing is held (its
    write lock queues the writers)."""
    if not url.startswith("postgresql"):
        yield lambda: 0
        return
    name = make_url(url).query["application_name"]
    blocker = create_engine(url)
    try:
        with blocker.connect() as conn, conn.begin():
            conn.execute(text(locking), params)

            def waiting() -> int:
                with blocker.connect() as look:
                    count = look.execute(
                        text(
                            "SELECT count(*) FROM pg_stat_activity WHERE application_name = :n "
                            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
                        ),
                        {"n": name},
                    ).scalar_one()
                return int(count)

            yield waiting
    finally:
        blocker.dispose()


def players_held(url: str) -> AbstractContextManager[Callable[[], int]]:
    """Every player row held (`rows_held`): storing a game's seats must wait for it (their key
    on the player row), so two changes that store a game meet here."""
    return rows_held(url, "SELECT id FROM player FOR UPDATE")


def at_once(url: str, calls: list[Callable[[], Any]], *, in_turn: bool = False) -> list[Any]:
    """Run `calls` on threads at once, while the players are held until each of them waits
    for a lock or has its answer (on PostgreSQL); their answers, in order. `in_turn`: each
    call starts once the ones before it wait (or are done), so they meet in that order."""
    answers: list[Any] = [None] * len(calls)
    go = threading.Barrier(1 if in_turn else len(calls))

    def run(i: int) -> None:
        go.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    with players_held(url) as waiting:
        for k, t in enumerate(threads, 1):
            t.start()
            if in_turn or k == len(threads):
                _under_way(threads[:k], waiting)
    for t in threads:
        t.join()
    return answers


def _under_way(threads: list[threading.Thread], waiting: Callable[[], int]) -> None:
    """Until each of `threads` waits for a lock or has ended (bounded: WAIT_POLLS looks)."""
    for _ in range(WAIT_POLLS):
        ended = sum(not t.is_alive() for t in threads)
        if ended == len(threads) or waiting() + ended >= len(threads):
            return
        time.sleep(0.05)
    pytest.fail("the changes were never all under way: none waited, none ended")


def _shared_game(client: TestClient) -> tuple[Tab, Tab, list[Any]]:
    """Two tables that logged the same finished game (target 1: one hand ends it)."""
    game = sim(3, 11, "pagat", hands=1)
    calls = list(steps(game))
    tabs = [Tab(client, players=game.players, target=1, event="Twice") for _ in range(2)]
    for tab in tabs:
        for step in calls:
            tab.step(step.kind, step.body)
    return tabs[0], tabs[1], calls


def _consistent(url: str, tabs: list[Tab]) -> None:
    """Every stored game is a table's, and each table's game holds the table's record."""
    games = stored(url)
    held = {t["id"]: t["game_id"] for t in cli_json("tables", "--db", url)}
    assert set(games) == {held[t.id] for t in tabs}, (sorted(games), held)
    for t in tabs:
        assert games[held[t.id]] == t.zfn()


@pytest.mark.parametrize(
    ("ann", "bo", "games"),
    [
        ("Ann's phone", "Bo's phone", 2),  # the shared game goes to one of them: none left over
        ("the same", "the same", 1),  # the same record again: shared again, the old one gone
    ],
)
def test_two_tables_sharing_a_game_marked_at_once(
    store_url: str,  # noqa: F811
    ann: str,
    bo: str,
    games: int,
) -> None:
    with two_servers(store_url) as (one, two):
        a, b, _ = _shared_game(one)
        assert len(stored(store_url)) == 1
        b.client = two  # b's phone talks to the other server
        answers = at_once(
            store_url,
            [
                lambda: a.post("marks", {"comment": ann}),
                lambda: b.post("marks", {"comment": bo}),
            ],
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        assert a.state()["moves"][-1]["comments"] == [ann]
        assert b.state()["moves"][-1]["comments"] == [bo]
        _consistent(store_url, [a, b])
        assert len(stored(store_url)) == games


def test_two_tables_sharing_a_game_corrected_and_undone_at_once(
    store_url: str,  # noqa: F811
) -> None:
    with two_servers(store_url) as (one, two):
        a, b, calls = _shared_game(one)
        b.client = two
        last = calls[-1].body
        # a's last move is corrected (the same cards: its marks go, a new record), while b's
        # is undone (b is open again: its game stays b's while a finishes with another).
        answers = at_once(
            store_url,
            [
                lambda: a.post("marks", {"annotation": "!?"}),
                lambda: b.post("undo"),
            ],
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        # then both are finished again at once: b as it was, a corrected at its last entry
        fix = {"entry": a.state()["entries"], "seat": last["seat"], "play": last["play"]}
        answers = at_once(
            store_url,
            [
                lambda: a.post("edit", fix),
                lambda: b.post("moves", last),
            ],
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        assert a.state()["status"] == b.state()["status"] == "over"
        _consistent(store_url, [a, b])


def test_two_tables_finishing_the_same_record_at_once_share_one_game(
    store_url: str,  # noqa: F811
) -> None:
    """Two tables logged the same hand up to its last move, and both enter it at the same
    moment: both are taken, one game is stored, and both tables hold it (on PostgreSQL the
    second insert of the same record meets the first's unique content hash: tried again, it
    finds the game stored, not a 500)."""
    game = sim(3, 11, "pagat", hands=1)
    calls = list(steps(game))
    with two_servers(store_url) as (one, two):
        a, b = (Tab(c, players=game.players, target=1, event="Twice") for c in (one, two))
        for tab in (a, b):
            for step in calls[:-1]:
                tab.step(step.kind, step.body)
        last = calls[-1].body
        answers = at_once(store_url, [lambda: a.post("moves", last), lambda: b.post("moves", last)])
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        _consistent(store_url, [a, b])
        assert len(stored(store_url)) == 1


def test_a_table_finishing_with_the_record_another_table_is_changing_keeps_its_own(
    store_url: str,  # noqa: F811
) -> None:
    """Table b finished a hand (its game stored); table a logged the same hand up to the last
    move. b is marked (its game takes b's new record, in place: no other table holds it), and
    while that is under way a enters the last move, whose record is the game's old one. a
    found the game by the old record, linked it and was done, and the game then took b's
    record: a held a game that was not its record. a now waits for b's change and looks again:
    its record is stored as a game of its own."""
    game = sim(3, 11, "pagat", hands=1)
    calls = list(steps(game))
    with two_servers(store_url) as (one, two):
        a, b = (Tab(c, players=game.players, target=1, event="Twice") for c in (one, two))
        for step in calls:
            b.step(step.kind, step.body)
        for step in calls[:-1]:
            a.step(step.kind, step.body)
        answers = at_once(
            store_url,
            [
                lambda: b.post("marks", {"comment": "Bo's phone"}),
                lambda: a.post("moves", calls[-1].body),
            ],
            in_turn=True,
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        _consistent(store_url, [a, b])
        assert len(stored(store_url)) == 2


def table_held(url: str, table_id: str) -> AbstractContextManager[Callable[[], int]]:
    """The live table's row held (`rows_held`), so that changes to it meet there."""
    return rows_held(url, "SELECT id FROM live_table WHERE id = :t FOR UPDATE", t=table_id)


def test_a_request_sent_again_while_its_first_send_is_under_way_is_made_once(
    store_url: str,  # noqa: F811
) -> None:
    """A move's first send is slow (its table busy); the phone sends it again, by its request id,
    to another server on the store. Both wait for the table, then go: one makes the move, the
    other finds it made (`repeated`): the move is in once. The look for the request id is made
    under the table's lock, in the transaction that would make the change."""
    with two_servers(store_url) as (a, b):
        t = Tab(a)
        t.step("hand", {"shuffler": 3, "deals": {"1": "3h 4h 5s"}})
        v = t.state()["version"]
        calls = [
            lambda: a.post(f"/api/tables/{t.id}/moves", headers=t.auth,
                           json={"seat": 1, "play": "3h", "version": v, "request_id": "r1"}),
            lambda: b.post(f"/api/tables/{t.id}/moves", headers=t.auth,
                           json={"seat": 1, "play": "3h", "request_id": "r1"}),
        ]  # fmt: skip
        answers: list[Any] = [None, None]
        go = threading.Barrier(2)

        def run(i: int) -> None:
            go.wait()
            answers[i] = calls[i]()

        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        with table_held(store_url, t.id) as waiting:
            for th in threads:
                th.start()
            _under_way(threads, waiting)
        for th in threads:
            th.join()
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        made = [r.json() for r in answers]
        assert sorted("repeated" in m for m in made) == [False, True], made
        assert all(m["version"] == v + 1 and m["entries"] == 2 for m in made), made
        assert [m["play"] for m in t.state()["moves"]] == ["3h"]
