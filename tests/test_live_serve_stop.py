"""Ctrl+C on `zfrec serve` with a phone's event stream open (LIVE.md): the stream ends at
shutdown, so the server stops at once, with no traceback, exit 0, as with no phone. A real
server process, a real socket; the only bound is a generous timeout."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx2 as httpx

from tests.test_live_server import ROOT, free_port, wait_serving

GENEROUS_S = 60


def test_ctrl_c_with_an_event_stream_open_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "zfrec", "serve", "--db", f"sqlite:///{tmp_path / 't.db'}",
         "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    stream = None
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_serving(proc, client)
            players = ["王芳", "李娜", "张伟", "刘洋"]
            made = client.post("/api/tables", json={"game": "shengji", "players": players})
            assert made.status_code == 201, made.text
            table = made.json()["id"]
        stream = socket.create_connection(("127.0.0.1", port), timeout=GENEROUS_S)
        stream.sendall(f"GET /api/tables/{table}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                       "Accept: text/event-stream\r\n\r\n".encode())  # fmt: skip
        got = b""
        while b"event: version" not in got:
            chunk = stream.recv(4096)
            assert chunk, got
            got += chunk
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=GENEROUS_S)
        assert proc.returncode == 0, out
        assert "Traceback" not in out and "Exception in ASGI application" not in out, out
        assert "graceful shutdown exceeded" not in out, out
        while chunk := stream.recv(4096):  # the stream was ended, not cut: its last chunk
            got += chunk
        assert got.endswith(b"0\r\n\r\n"), got
    finally:
        if stream is not None:
            stream.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
