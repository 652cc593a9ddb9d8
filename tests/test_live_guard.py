"""The live server's guards (issue 27, item 11), each reproduction of the issue a test: bounded
request values (422, never 500) on SQLite and PostgreSQL, bodies over the limit (413, chunked
too), Host names (421), join links kept out of logs, and a read-only store (503; publish exits
2 with one line)."""

from __future__ import annotations

import json
import os
import pty
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from tests.test_live_server import ROOT, free_port, wait_serving
from tests.test_store import store_url  # noqa: F401  (the SQLite / PostgreSQL fixture)
from zfrec.cli import app as cli
from zfrec.live.app import MAX_BODY, create_app
from zfrec.live.guard import allowed_hosts, host_name, valid_host_option
from zfrec.store import open_store

runner = CliRunner()
PLAYERS = ["Ann", "Bo Li", "王芳"]
SAMPLE = ROOT / "sample_games" / "02-three-players.zfn"


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:  # noqa: F811
    engine = open_store(store_url)
    with TestClient(create_app(engine), raise_server_exceptions=False) as c:
        yield c
    engine.dispose()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient) -> tuple[str, str]:
    r = client.post("/api/tables", json={"players": PLAYERS})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def read_only(url: str) -> str:
    """The same store, opened so that the database refuses every write."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"sqlite:///file:{parsed.database}?mode=ro&uri=true"
    options = parsed.query.get("options", "")
    assert isinstance(options, str)
    extra = f"{options} -cdefault_transaction_read_only=on".strip()
    return parsed.update_query_dict({"options": extra}).render_as_string(hide_password=False)


# --- values: 422, never 500 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        {"target": 2**63},  # SQLite's INTEGER overflowed: 500
        {"target": 2**31},  # PostgreSQL's int4 overflowed: 500
        {"options": {"target": 2**63}},
        {"options": {"target": 2**31}},
        {"target": 1_000_000},  # above a record's limit (FORMAT.md)
        {"options": {"target": 10**30, "jokers_wild": True}},
    ],
)
def test_targets_a_column_cannot_hold_are_refused_with_422(
    client: TestClient, extra: dict[str, Any]
) -> None:
    r = client.post("/api/tables", json={"players": PLAYERS, **extra})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "request"
    assert "999,999" in r.json()["message"] or "999999" in r.json()["message"]
    assert client.get("/api/tables").json() == []  # nothing was created


def test_the_largest_target_is_taken(client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": PLAYERS, "options": {"target": 999_999}})
    assert r.status_code == 201, r.text
    assert r.json()["target"] == 999_999


@pytest.mark.parametrize("key", ["²", "9" * 5000, "0", "9", "٣", "-1", "1x", ""])
def test_deal_keys_that_are_not_seat_numbers_are_422(client: TestClient, key: str) -> None:
    tid, token = new_table(client)
    body = {"shuffler": 1, "deals": {key: "3h 4h"}}
    r = client.post(f"/api/tables/{tid}/hands", json=body, headers=auth(token))
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "request" and "seat numbers" in r.json()["message"]
    assert client.get(f"/api/tables/{tid}").json()["entries"] == 0
    ok = {"shuffler": 1, "deals": {" 1 ": "3h 4h"}}
    assert client.post(f"/api/tables/{tid}/hands", json=ok, headers=auth(token)).status_code == 201


def test_a_deal_for_a_seat_the_table_does_not_have_is_refused(client: TestClient) -> None:
    """It used to be ignored without a word (a typo in the seat lost the deal)."""
    tid, token = new_table(client)
    body = {"shuffler": 1, "deals": {"4": "3h 4h"}}
    r = client.post(f"/api/tables/{tid}/hands", json=body, headers=auth(token))
    assert r.status_code == 422, r.text
    assert r.json() == {"code": "seat", "message": "there is no seat 4: seats are 1 to 3"}
    assert client.get(f"/api/tables/{tid}").json()["entries"] == 0


@pytest.mark.parametrize(
    "raw",
    [
        b'{"players": ["a", "b", "c"], "target": 1' + b"0" * 5000 + b"}",  # int() refuses it
        b"[" * 20000 + b"]" * 20000,  # nested deeper than the parser goes
    ],
)
def test_bodies_the_json_parser_refuses_are_422_in_the_api_shape(
    client: TestClient, raw: bytes
) -> None:
    r = client.post("/api/tables", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "request" and "JSON" in r.json()["message"]


HOSTILE: list[Any] = [
    2**63, 2**31, -(2**63), 10**4000, 1e308, -1, 0, "²", "9" * 5000, "\x00", "", "٣",
    [], {}, {"²": "3h"}, {"9" * 3000: 1}, ["x"] * 50, None, True, "3h " * 600,
]  # fmt: skip


def test_no_request_field_can_make_the_server_fail(client: TestClient) -> None:
    """Every field of every request, and every query value, given each hostile value: a 4xx
    (or success), never a 5xx. The table stays usable."""
    tid, token = new_table(client)
    bodies: dict[str, dict[str, Any]] = {
        "/api/tables": {"players": PLAYERS, "rules": "pagat", "options": {}, "target": 500,
                        "event": "e", "site": "s", "date": "2026.11.27"},
        f"/api/tables/{tid}/hands": {"shuffler": 1, "deals": {"1": "3h"}},
        f"/api/tables/{tid}/moves": {"seat": 2, "play": "3h"},
        "/api/qr": {"text": "x"},
        # the table's corrections and marks, where the app has them (else 404: nothing to test)
        f"/api/tables/{tid}/edit": {"entry": 1, "action": "replace", "seat": 1, "play": "3h",
                                    "version": 1},
        f"/api/tables/{tid}/marks": {"entry": 1, "annotation": "!", "comment": "c",
                                     "disputed": True, "note": "n", "or": ["4h"], "version": 1},
        f"/api/tables/{tid}/undo": {"version": 1},
    }  # fmt: skip
    seen: list[tuple[str, str, int]] = []
    for path, base in bodies.items():
        for name in base:
            for value in HOSTILE:
                body = {**base, name: value}
                r = client.post(path, json=body, headers=auth(token))
                seen.append((path, name, r.status_code))
                assert r.status_code < 500, (path, name, repr(value)[:60], r.text[:200])
                if r.status_code >= 400:
                    assert set(r.json()) >= {"code", "message"}, r.text[:200]
                if path.endswith("/hands") and r.status_code == 201:
                    client.post(f"/api/tables/{tid}/undo", headers=auth(token))
    for query in ("seat", "since"):
        for text in ("0", "-1", "9" * 5000, "2" * 20, "²", "x", ""):
            r = client.get(f"/api/tables/{tid}", params={query: text})
            assert r.status_code < 500, (query, text[:20], r.text[:200])
    for number in ("0", "9" * 5000, "2" * 20, "²"):
        r = client.get(f"/t/{tid}/replay/{number}")
        assert r.status_code < 500, (number[:20], r.text[:200])
    assert any(code == 422 for _, _, code in seen)
    assert client.get(f"/api/tables/{tid}").status_code == 200


# --- bodies: 413 --------------------------------------------------------------------------------


def test_a_chunked_body_over_the_limit_is_413(client: TestClient) -> None:
    """A body without Content-Length, sent in pieces, used to reach FastAPI's parser as an
    error and come back 400."""
    pieces = [b'{"players": ["a", "b", "c"], "event": "'] + [b"x" * 4096] * (MAX_BODY // 4096 + 2)

    def chunks() -> Iterator[bytes]:
        yield from pieces
        yield b'"}'

    r = client.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.json()["code"] == "too-large"
    small = iter([b'{"players": ', b'["a", "b", "c"]}'])
    r = client.post("/api/tables", content=small, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text  # a chunked body within the limit is read whole


# --- Host names: 421 ----------------------------------------------------------------------------


def test_host_names_are_read_without_port_brackets_or_case() -> None:
    assert host_name("[::1]:8765") == "::1"
    assert host_name("Club.Local.:80") == "club.local"
    assert host_name("192.168.1.20") == "192.168.1.20"
    assert allowed_hosts("0.0.0.0", lan="192.168.1.20", extra=["Club.local"]) == {
        "localhost", "127.0.0.1", "::1", "192.168.1.20", "club.local",
    }  # fmt: skip
    assert "10.0.0.5" in allowed_hosts("10.0.0.5")
    assert valid_host_option("club.local") is None
    assert valid_host_option("http://evil/") is not None
    assert valid_host_option("") is not None


def test_only_the_host_names_served_are_answered(store_url: str) -> None:  # noqa: F811
    engine = open_store(store_url)
    app = create_app(engine, hosts=allowed_hosts("127.0.0.1", extra=["club.local"]))
    with TestClient(app, base_url="http://localhost:8765") as c:
        assert c.get("/api/tables").status_code == 200
        for host in ("evil.example", "evil.example:8765", "localhost.evil.example", "0.0.0.0"):
            r = c.post("/api/tables", json={"players": PLAYERS}, headers={"Host": host})
            assert r.status_code == 421, (host, r.text)
            assert r.json()["code"] == "host" and "--allow-host" in r.json()["message"]
            assert c.get("/", headers={"Host": host}).status_code == 421
        assert c.get("/api/tables").json() == []  # the rebinding page created nothing
        for host in ("club.local", "CLUB.local:8765", "127.0.0.1:8765", "[::1]:8765"):
            assert c.get("/api/tables", headers={"Host": host}).status_code == 200, host
    engine.dispose()


# --- the join link: only to a terminal ----------------------------------------------------------


def _serve(db: str, port: int, *extra: str, stdout: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "zfrec", "serve", "--db", db, "--port", str(port), *extra],
        cwd=ROOT,
        stdout=stdout,
        stderr=subprocess.STDOUT,
    )


@pytest.mark.slow
def test_a_served_log_holds_no_token_and_the_server_guards_itself(tmp_path: Path) -> None:
    """`zfrec serve > log`: the table's token is not in the log, which says how to get the
    link; a real server refuses other Host names and a chunked body over the limit."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = _serve(str(tmp_path / "s.db"), port, "--allow-host", "club.local", stdout=out)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    try:
        wait_serving(proc, client, lambda: "the server stopped")
        made = client.post("/api/tables", json={"players": PLAYERS})
        assert made.status_code == 201
        token, tid = made.json()["token"], made.json()["id"]
        evil = client.get("/api/tables", headers={"Host": "rebound.example"})
        assert evil.status_code == 421
        named = client.get("/api/tables", headers={"Host": f"club.local:{port}"})
        assert named.status_code == 200
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            head = b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\n"
            head += b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            raw.sendall(head)
            for _ in range(MAX_BODY // 8192 + 2):
                raw.sendall(b"2000\r\n" + b"x" * 8192 + b"\r\n")
            raw.sendall(b"0\r\n\r\n")
            answer = raw.recv(65536).decode("latin-1")
        assert answer.startswith("HTTP/1.1 413"), answer[:200]
    finally:
        client.close()
        proc.kill()
        proc.wait(timeout=10)
    text = log.read_text("utf-8")
    assert token not in text and "#k=" not in text
    assert f"table {tid} created (its join link is not logged)" in text
    assert "Invite panel" in text


@pytest.mark.slow
def test_on_a_terminal_the_join_link_is_printed(tmp_path: Path) -> None:
    port = free_port()
    leader, follower = pty.openpty()
    proc = _serve(str(tmp_path / "s.db"), port, stdout=follower)
    os.close(follower)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    seen = b""
    try:
        wait_serving(proc, client, lambda: "the server stopped")
        made = client.post("/api/tables", json={"players": PLAYERS}).json()
        link = f"/t/{made['id']}#k={made['token']}".encode()
        deadline = time.monotonic() + 30
        while link not in seen and time.monotonic() < deadline:
            if select.select([leader], [], [], 0.5)[0]:
                try:
                    seen += os.read(leader, 65536)
                except OSError:
                    break
    finally:
        client.close()
        proc.kill()
        proc.wait(timeout=10)
        os.close(leader)
    assert link in seen, seen.decode("utf-8", "replace")[-500:]


# --- a read-only store: 503, and publish exits 2 --------------------------------------------------


def test_a_read_only_store_is_503_for_changes_and_still_read(store_url: str) -> None:  # noqa: F811
    engine = open_store(store_url)
    with TestClient(create_app(engine)) as c:
        tid, token = new_table(c)
    engine.dispose()
    engine = open_store(read_only(store_url))
    with TestClient(create_app(engine), raise_server_exceptions=False) as c:
        r = c.post("/api/tables", json={"players": PLAYERS})
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "store" and "read-only" in r.json()["message"]
        assert "\n" not in r.json()["message"]
        r = c.post(f"/api/tables/{tid}/hands", json={"shuffler": 1}, headers=auth(token))
        assert r.status_code == 503, r.text
        assert [t["id"] for t in c.get("/api/tables").json()] == [tid]
        assert c.get(f"/api/tables/{tid}").json()["entries"] == 0
    engine.dispose()


def test_publish_on_a_read_only_store_exits_2_with_one_line(
    store_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    assert runner.invoke(cli, ["import", str(SAMPLE), "--db", store_url]).exit_code == 0
    site = tmp_path / "site"
    result = runner.invoke(cli, ["publish", "--db", read_only(store_url), "--out", str(site)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "read-only" in lines[0] and "publish" in lines[0], lines
    assert not site.exists()
    other = ROOT / "sample_games" / "03-five-players.zfn"
    for args in (["import", str(other)], ["delete", "1"], ["tables", "--delete", "x"]):
        result = runner.invoke(cli, [*args, "--db", read_only(store_url)])
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1, (args, result.output)
        assert "read-only" in result.output or "no live table" in result.output, result.output
    result = runner.invoke(cli, ["publish", "--db", store_url, "--out", str(site), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 1
