"""What `zfrec serve` checks before a request reaches a handler, and how faults are answered.

- `Host` names: only the names the server serves are answered (its bind address, localhost,
  the LAN address it prints, `--allow-host`), so a page on another site whose name was made to
  resolve to this machine (DNS rebinding) cannot create tables or read them: 421.
- Body size: at most MAX_BODY bytes, whether the request says its length or comes chunked: 413.
- Values: bounded types for the request models (a target or option that a database column
  cannot hold, a deal key that is not a seat number) so that they are refused with 422.
- Faults of the store (read-only, unreachable, full): 503 with one line, never a traceback.

    install(app, hosts=allowed_hosts("0.0.0.0", lan="192.168.1.20", extra=["club.local"]))
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BeforeValidator, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zfrec.record.model import MAX_TARGET
from zfrec.store.faults import store_fault

MAX_BODY = 64 * 1024  # bytes: a whole deal in notation is under 1 KiB
LOOPBACK = ("localhost", "127.0.0.1", "::1")

# Request values a table may hold. The target is bounded as in a record (FORMAT.md, Limits): a
# larger one would not fit the store's integer column (2^31 on PostgreSQL, 2^63 on SQLite).
# Within the bounds the rules judge it (0 or less: "rules"); beyond them, a bad request value.
Target = Annotated[int, Field(ge=-MAX_TARGET, le=MAX_TARGET)]


def _options(value: Any) -> Any:
    """Rule options as a request gives them: a few names, each true/false, a bounded whole
    number or a short word (the rules judge them after this)."""
    if not isinstance(value, dict):
        raise ValueError("options are an object of name: value")
    if len(value) > 8:
        raise ValueError("too many options")
    for name, v in value.items():
        shown = repr(name[:40])
        if len(name) > 40:
            raise ValueError(f"no rule option is called {shown}...")
        if isinstance(v, bool) or (isinstance(v, str) and len(v) <= 40):
            continue
        if isinstance(v, int) and -MAX_TARGET <= v <= MAX_TARGET:
            continue
        if isinstance(v, int):
            raise ValueError(f"{name} is out of range: numbers go up to {MAX_TARGET:,}")
        raise ValueError(f"{shown} takes true/false, a whole number or a short word")
    return value


Options = Annotated[dict[str, bool | int | str], BeforeValidator(_options)]


# The most seats of any game's table (zhao pengyou: 8); each game checks its own count. A
# constant, checked against the games' kinds by a test: reading them here would load every
# game's package with the app (tests/test_layout.py).
SEATS = 8


def seat_key(key: str) -> int:
    """A deal's key, a seat number from 1 to SEATS, as an int; else a 422. ASCII digits
    only: `"²"` and `"٣"` are digits to str.isdigit(), and int() refuses the first."""
    text = key.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 2) or not (1 <= int(text) <= SEATS):
        raise RequestValidationError(
            [
                {
                    "loc": ("body", "deals", key[:20]),
                    "msg": f"deal keys are seat numbers, 1 to {SEATS}",
                    "type": "seat",
                }
            ]
        )
    return int(text)


# --- Host names ---------------------------------------------------------------------------------


def host_name(value: str) -> str:
    """The name in a Host header or a --host/--allow-host value, without port or brackets,
    lower case, without a final dot: `[::1]:8765` -> `::1`, `Club.Local.:80` -> `club.local`."""
    text = value.strip().lower()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def allowed_hosts(bind: str, *, lan: str | None = None, extra: Iterable[str] = ()) -> set[str]:
    """The Host names a server bound to `bind` answers: its bind address (unless a wildcard),
    the loopback names, the LAN address it prints, and the names given with --allow-host."""
    names = {*LOOPBACK, *(host_name(h) for h in extra)}
    if bind not in ("", "0.0.0.0", "::"):
        names.add(host_name(bind))
    if lan:
        names.add(host_name(lan))
    return names - {""}


def valid_host_option(value: str) -> str | None:
    """Why a --allow-host value is not a host name, or None."""
    name = host_name(value)
    if not name or len(name) > 253 or any(c in value for c in "/@ ?#"):
        return f"--allow-host takes a host name or address, not {value!r}"
    try:
        ipaddress.ip_address(name)
    except ValueError:
        if not all(part and len(part) <= 63 for part in name.split(".")):
            return f"--allow-host takes a host name or address, not {value!r}"
    return None


class HostGuard:
    """Answer only requests whose Host header names this server; others get 421 (400 without
    a Host header), before any handler runs."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(host_name(h) for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = [v for k, v in scope.get("headers", []) if k == b"host"]
        if len(given) != 1:
            await _refuse(scope, receive, send, 400, "host", "the request needs one Host header")
            return
        name = host_name(given[0].decode("latin-1"))
        if name not in self.hosts:
            shown = name[:60]
            message = (
                f"this server does not answer to the name {shown!r}: open it by one of "
                f"{', '.join(sorted(self.hosts))}, or start it with --allow-host {shown}"
            )
            await _refuse(scope, receive, send, 421, "host", message)
            return
        await self.app(scope, receive, send)


# --- body size ----------------------------------------------------------------------------------


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413, whether they say their size or come
    chunked. The body is read here first (it is small), then handed on: a limit raised from
    inside the app's reading would reach FastAPI's body parser, which answers any error 400."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _too_large(scope, receive, send, self.limit)
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await _too_large(scope, receive, send, self.limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()  # after the body: a disconnect, for streaming responses

        await self.app(scope, replay, send)


async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    message = f"request bodies are limited to {limit} bytes"
    await _refuse(scope, receive, send, 413, "too-large", message)


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str
) -> None:
    response = JSONResponse({"code": code, "message": message}, status_code=status)
    await response(scope, receive, send)


# --- the app ------------------------------------------------------------------------------------


def install(app: FastAPI, *, hosts: Iterable[str] | None = None, limit: int = MAX_BODY) -> None:
    """Put the guards in front of `app` and answer faults in the API's error shape.

    `hosts`: the Host names to answer (allowed_hosts); None answers any (a library's own app,
    the tests' client). Middleware added last runs first: the Host check, then the size."""
    app.add_middleware(BodyLimit, limit=limit)
    if hosts is not None:
        app.add_middleware(HostGuard, hosts=hosts)

    @app.exception_handler(SQLAlchemyError)
    async def store_unavailable(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        reason = store_fault(exc)
        if reason is None:
            raise exc  # a bug: the server's own 500
        return JSONResponse({"code": "store", "message": reason}, status_code=503)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        # FastAPI answers a body it cannot parse (a number of 5,000 digits, JSON nested too
        # deep) with 400 and `detail`: say it in the API's shape, as a bad request value.
        status = 422 if exc.status_code == 400 else exc.status_code
        code = {404: "not-found", 405: "method", 422: "request"}.get(status, "request")
        message = str(exc.detail)
        if exc.status_code == 400:
            message = "the body is not JSON this server can read (numbers, nesting and size "
            message += "are limited)"
        headers: Any = getattr(exc, "headers", None)
        return JSONResponse({"code": code, "message": message}, status, headers=headers)
