"""`zfrec serve`: the web app over `zfrec.live.Table`. Handlers stay thin: parse the request, make
one library call, turn a `LiveError` into its status and `{"code", "message"}`.

    app = create_app(open_store("club.db"))
    uvicorn.run(app, host="127.0.0.1", port=8765)

Everything the pages need (CSS, JS) is served from here: no request leaves the machine. Every
page carries a Content-Security-Policy that allows only this server's own scripts and styles.
"""

from __future__ import annotations

import asyncio
import importlib.resources
import io
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from functools import cache
from typing import Annotated, Any, Literal

import segno
from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from zfrec.errors import ZfrecError
from zfrec.games import KINDS, find_kind, kind_of_preset
from zfrec.live.entries import LiveError
from zfrec.live.guard import MAX_BODY as MAX_BODY  # where the limit used to be defined
from zfrec.live.guard import SEATS, Options, Target, install, seat_key
from zfrec.live.table import NotFound, Table, list_tables
from zfrec.render.html import environment

STREAM_SECONDS = 300.0  # an event stream ends after this; EventSource reconnects by itself
POLL_SECONDS = 0.5  # how often a stream looks at the table's version in the store
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'self'"
)
API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
ASSETS = {
    "live.css": "text/css; charset=utf-8",
    "live.js": "text/javascript; charset=utf-8",
    "outbox.js": "text/javascript; charset=utf-8",  # both table pages' outbox
    "live-table.js": "text/javascript; charset=utf-8",
    "sj-live-table.js": "text/javascript; charset=utf-8",
}
# The browsers' /favicon.ico: a green felt with a gold card, so no request is answered 404.
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect width="32" height="32" rx="6" fill="#17583a"/>'
    '<rect x="9" y="5" width="14" height="22" rx="2" fill="#fff" stroke="#c9971c" '
    'stroke-width="2"/>'
    '<path d="M16 10l4 6-4 6-4-6z" fill="#c0212f"/></svg>'
)


# --- request bodies -----------------------------------------------------------------------------


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: Annotated[list[Annotated[str, Field(max_length=60)]], Field(max_length=SEATS)]
    game: Annotated[str | None, Field(max_length=40)] = None
    rules: Annotated[str | None, Field(max_length=40)] = None  # the game's default preset
    options: Options = {}
    target: Target | None = None
    event: Annotated[str | None, Field(max_length=200)] = None
    site: Annotated[str | None, Field(max_length=200)] = None
    date: Annotated[str | None, Field(max_length=40)] = None


# `version`: the table's version an entry was made against; a stale one is refused (409).
Version = Annotated[int | None, Field(ge=0, le=2**31 - 1)]
# `request_id`: the client's name for one change; sent again, the change is answered as it was
# (with `repeated`), not made twice (LIVE.md, "Requests sent again").
RequestId = Annotated[str | None, Field(pattern=r"^[A-Za-z0-9._:-]{1,64}$")]


class NewHand(BaseModel):
    model_config = ConfigDict(extra="forbid")

    shuffler: int | None = None
    deals: dict[str, Annotated[str, Field(max_length=400)]] | None = None
    version: Version = None
    request_id: RequestId = None
    # a game's own fields (Sheng ji: the dealer, the trump, the kitty as taken up)
    dealer: Annotated[int | None, Field(ge=-(2**31), le=2**31 - 1)] = None
    trump: Annotated[str | None, Field(max_length=10)] = None
    kitty: Annotated[str | None, Field(max_length=200)] = None

    def fields(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("dealer", "trump", "kitty")}


class NewMove(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int
    play: Annotated[str | None, Field(max_length=200)] = None
    version: Version = None
    request_id: RequestId = None
    # a game's own fields (Sheng ji: a bid, the exchange, a blocked throw)
    bid: Annotated[str | None, Field(max_length=200)] = None
    discard: Annotated[str | None, Field(max_length=200)] = None
    kitty: Annotated[str | None, Field(max_length=200)] = None
    calls: Annotated[str | None, Field(max_length=200)] = None
    blocked_by: Annotated[int | None, Field(ge=-(2**31), le=2**31 - 1)] = None
    shows: Annotated[str | None, Field(max_length=200)] = None

    def fields(self) -> dict[str, Any]:
        fields = ("bid", "discard", "kitty", "calls", "blocked_by", "shows")
        return {k: getattr(self, k) for k in fields}


class Undo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Version = None
    request_id: RequestId = None


class Marks(BaseModel):
    model_config = ConfigDict(extra="forbid")

    entry: Annotated[int | None, Field(ge=1, le=2**31 - 1)] = None
    annotation: Literal["", "!", "?", "!!", "??", "!?", "?!"] | None = None
    comment: Annotated[str | None, Field(max_length=1000)] = None
    disputed: bool | None = None
    note: Annotated[str | None, Field(max_length=200)] = None
    or_: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=8)] = Field(
        default=[], alias="or"
    )
    version: Version = None
    request_id: RequestId = None


class Edit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    entry: Annotated[int, Field(ge=1, le=2**31 - 1)]
    action: Literal["replace", "insert", "delete"] = "replace"
    seat: Annotated[int | None, Field(ge=-(2**31), le=2**31 - 1)] = None
    play: Annotated[str | None, Field(max_length=200)] = None
    version: Version = None
    request_id: RequestId = None


class QrText(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Annotated[str, Field(max_length=500)]


# --- the app ------------------------------------------------------------------------------------


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


@cache
def _asset(name: str) -> str:
    return importlib.resources.files("zfrec.templates").joinpath(name).read_text("utf-8")


def _json(data: Any, status: int = 200) -> Response:
    """JSON straight from the library's dicts: they hold only JSON types already, so FastAPI's
    generic encoder (a walk over every value) is skipped."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(body, status_code=status, media_type="application/json")


def _page(name: str, **context: Any) -> HTMLResponse:
    html = environment().get_template(name).render(**context)
    return HTMLResponse(html, headers={"Content-Security-Policy": PAGE_CSP})


def create_app(
    engine: Engine,
    *,
    on_table_created: Callable[[str, str], None] | None = None,
    hosts: Iterable[str] | None = None,
) -> FastAPI:
    """The web app on the store at `engine`. `on_table_created(id, token)` is told of each new
    table (the CLI prints its join link and QR code). `hosts`: the Host names it answers
    (zfrec.live.guard; None: any)."""
    app = FastAPI(title="zfrec live", docs_url=None, redoc_url=None, openapi_url=None)
    install(app, hosts=hosts)
    streams = app.state.streams = Streams()

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", API_CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.exception_handler(LiveError)
    async def live_error(request: Request, exc: LiveError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(ZfrecError)
    async def store_error(request: Request, exc: ZfrecError) -> JSONResponse:
        return JSONResponse({"code": "store", "message": exc.message}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'bad request')}" if where else "bad request"
        return JSONResponse({"code": "request", "message": message}, status_code=422)

    def table(table_id: str) -> Table:
        if len(table_id) > 32:
            raise NotFound("not-found", "no such live table")
        return Table(engine, table_id)

    # the JSON API ------------------------------------------------------------------------------

    @app.post("/api/tables", status_code=201)
    def create_table(body: NewTable) -> Response:
        made, token = Table.create(
            engine,
            players=body.players,
            rules=body.rules,
            options=body.options,
            target=body.target,
            event=body.event,
            site=body.site,
            date=body.date,
            game=body.game,
        )
        if on_table_created is not None:
            on_table_created(made.id, token)
        state = made.state()
        return _json(
            {"id": made.id, "token": token, "join": f"/t/{made.id}#k={token}", **state}, 201
        )

    @app.get("/api/tables")
    def tables() -> Response:
        return _json([t.to_json() for t in list_tables(engine)])

    @app.get("/api/tables/{table_id}")
    def state(
        table_id: str,
        seat: Annotated[int | None, Query(ge=1, le=SEATS)] = None,
        since: Annotated[int, Query(ge=0)] = 0,
    ) -> Response:
        return _json(table(table_id).state(viewer=seat, since=since))

    @app.post("/api/tables/{table_id}/hands", status_code=201)
    def start_hand(
        table_id: str, body: NewHand, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        deals = None if body.deals is None else {_seat_key(k): v for k, v in body.deals.items()}
        state = table(table_id).start_hand(
            _bearer(authorization),
            shuffler=body.shuffler,
            deals=deals,
            version=body.version,
            request_id=body.request_id,
            **body.fields(),
        )
        return _json(state, 201)

    @app.post("/api/tables/{table_id}/moves")
    def enter(
        table_id: str, body: NewMove, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        live = table(table_id)
        token = _bearer(authorization)
        return _json(
            live.enter(
                token,
                seat=body.seat,
                play=body.play,
                version=body.version,
                request_id=body.request_id,
                **body.fields(),
            )
        )

    @app.post("/api/tables/{table_id}/undo")
    def undo(
        table_id: str,
        body: Undo | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        version = None if body is None else body.version
        request_id = None if body is None else body.request_id
        return _json(
            table(table_id).undo(_bearer(authorization), version=version, request_id=request_id)
        )

    @app.post("/api/tables/{table_id}/marks")
    def mark(
        table_id: str, body: Marks, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        marks = body.model_dump(
            exclude={"entry", "version", "request_id", "or_"}, exclude_none=True
        )
        if body.disputed:
            marks["or"] = body.or_
        live = table(table_id)
        return _json(
            live.mark(
                _bearer(authorization),
                entry=body.entry,
                version=body.version,
                request_id=body.request_id,
                **marks,
            )
        )

    @app.post("/api/tables/{table_id}/edit")
    def edit(
        table_id: str, body: Edit, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        live = table(table_id)
        return _json(
            live.edit(
                _bearer(authorization),
                entry=body.entry,
                seat=body.seat,
                play=body.play,
                action=body.action,
                version=body.version,
                request_id=body.request_id,
            )
        )

    @app.get("/api/tables/{table_id}/record.zfn")
    def record_zfn(table_id: str) -> Response:
        text = table(table_id).export("zfn")
        return Response(text, media_type="text/plain; charset=utf-8")

    @app.get("/api/tables/{table_id}/record.json")
    def record_json(table_id: str) -> Response:
        text = table(table_id).export("json")
        return Response(text, media_type="application/json")

    @app.get("/api/tables/{table_id}/events")
    async def events(table_id: str) -> StreamingResponse:
        live = table(table_id)
        first = await run_in_threadpool(live.version)
        return StreamingResponse(
            _version_stream(live, first, streams),
            media_type="text/event-stream",
            headers={"X-Accel-Buffering": "no"},
        )

    @app.post("/api/qr")
    def qr(body: QrText) -> Response:
        # A standalone SVG (with its xmlns): the page shows it as an <img>, which needs one.
        out = io.BytesIO()
        segno.make(body.text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
        return Response(out.getvalue(), media_type="image/svg+xml")

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(
            FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    # pages -------------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return _page("live_index.html.j2", tables=list_tables(engine), title="zfrec live")

    @app.get("/new", response_class=HTMLResponse)
    def new_table() -> HTMLResponse:
        # the games a table can be made for, each with its presets and the form's fields
        kinds = [kind for kind in map(find_kind, KINDS) if kind.live_presets]
        return _page("live_new.html.j2", title="New table", kinds=kinds)

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    def table_page(
        table_id: str, seat: Annotated[int | None, Query(ge=1, le=SEATS)] = None
    ) -> HTMLResponse:
        st = table(table_id).state(viewer=seat)
        title = st["event"] or " · ".join(st["players"])
        kind = kind_of_preset(st["rules"])
        if kind.live_page is None:  # no table of such a kind is made (GameKind.live_rules)
            raise NotFound("not-found", f"no live page for {kind.title} tables")
        return _page(kind.live_page, state=st, title=title)

    @app.get("/t/{table_id}/watch", response_class=HTMLResponse)
    def watch(
        table_id: str, seat: Annotated[int | None, Query(ge=1, le=SEATS)] = None
    ) -> HTMLResponse:
        st = table(table_id).state(viewer=seat)
        _replayed(st["rules"])
        title = st["event"] or " · ".join(st["players"])
        return _page("live_watch.html.j2", state=st, seat=seat, title=f"Watching {title}")

    @app.get("/t/{table_id}/replay/{number}", response_class=HTMLResponse)
    def replay_page(
        table_id: str,
        number: int,
        seat: Annotated[int | None, Query(ge=1, le=SEATS)] = None,
    ) -> HTMLResponse:
        record = table(table_id).record()
        _replayed(record.preset)
        if seat is not None and seat > len(record.players):
            raise NotFound("not-found", f"there is no seat {seat}")
        page = kind_of_preset(record.preset).live_hand_page(record, number, seat)
        if page is None:
            raise NotFound("not-found", f"hand {number} has not started")
        # The published page's own CSP (in the page) governs it; this server adds framing.
        return HTMLResponse(
            page,
            headers={"Content-Security-Policy": "frame-ancestors 'self'; base-uri 'none'"},
        )

    @app.get("/static/{name}")
    def static(name: str) -> Response:
        if name not in ASSETS:
            raise NotFound("not-found", f"no asset {name!r}")
        return Response(
            _asset(name), media_type=ASSETS[name], headers={"Cache-Control": "max-age=300"}
        )

    return app


def _replayed(preset: str) -> None:
    """404 for a game whose replay pages the live server does not draw yet."""
    kind = kind_of_preset(preset)
    if not kind.live_replay:
        raise NotFound("not-found", kind.pages_later())


def _seat_key(key: str) -> int:
    return seat_key(key)


class Streams:
    """What the open event streams look at besides their table: `stop()` (the server shutting
    down, `zfrec serve`'s Ctrl+C) ends every one at its next look, so that the server need not
    wait for them nor cancel them (EventSource reconnects by itself once it is back)."""

    def __init__(self) -> None:
        self._stop = threading.Event()

    def stop(self) -> None:
        """End every stream (callable from a signal handler or another thread)."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()


async def _version_stream(
    live: Table, first: int, streams: Streams | None = None
) -> AsyncIterator[str]:
    """Server-sent events: the table's version now, then each time it changes; the stream
    ends after STREAM_SECONDS, or when the server stops (`streams`)."""
    yield f"event: version\ndata: {json.dumps({'version': first})}\n\n"
    last, waited, quiet = first, 0.0, 0.0
    while waited < STREAM_SECONDS:
        if streams is not None and streams.stopping:
            return
        await asyncio.sleep(POLL_SECONDS)
        if streams is not None and streams.stopping:
            return
        waited += POLL_SECONDS
        quiet += POLL_SECONDS
        try:
            now = await run_in_threadpool(live.version)
        except NotFound:
            return
        if now != last:
            last, quiet = now, 0.0
            yield f"event: version\ndata: {json.dumps({'version': now})}\n\n"
        elif quiet >= 15:
            quiet = 0.0
            yield ": still here\n\n"
