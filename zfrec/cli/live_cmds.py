"""`zfrec serve` and `zfrec tables`: the live table from the command line (LIVE.md).

The web stack (FastAPI, uvicorn, segno) is imported inside the commands, so other commands
start fast.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from zfrec.cli.common import (
    JSON_HELP,
    err,
    fail,
    friendly_errors,
    json_on_failure,
    out,
    print_json,
    refused,
)
from zfrec.cli.store_cmds import DbOption

if TYPE_CHECKING:
    from types import FrameType

    from sqlalchemy import Engine

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def lan_address() -> str | None:
    """This machine's address on the local network, or None. Connecting a UDP socket sends
    nothing: it only asks the system which interface would route there."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if ipaddress.ip_address(address).is_loopback else address


def _wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def _terminal_qr(text: str) -> None:
    import segno

    segno.make(text, error="m").terminal(out=sys.stdout, compact=True)


def serve_cmd(
    db: DbOption = None,
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on. 0.0.0.0 lets the phones on the local network join "
            "(the LAN address and a QR code are printed)."
        ),
    ] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = DEFAULT_PORT,
    sync: Annotated[
        str,
        typer.Option(
            help="SQLite only: 'normal' (an accepted entry survives the server being killed; "
            "a power cut may lose the last moments) or 'full' (every entry waits for the disk).",
        ),
    ] = "normal",
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="Also answer requests for this host name (a name the phones use to reach this "
            "machine). Repeatable. Without it, only the bind address, localhost and the printed "
            "LAN address are answered.",
        ),
    ] = None,
) -> None:
    """Serve the live table: log a game at the table from phones, every entry checked at once.

    One laptop or phone runs it; the others open its address. It binds to 127.0.0.1 unless told
    otherwise, makes no request to the internet, and keeps every table in the store (--db), so
    a restart resumes them. Stop it with Ctrl+C.
    """
    import uvicorn

    from zfrec.live.app import create_app
    from zfrec.live.guard import allowed_hosts, valid_host_option
    from zfrec.live.table import tune_store
    from zfrec.store import open_store

    if sync not in ("normal", "full"):
        fail(f"--sync is normal or full, not {sync!r}")
    for name in allow_host or ():
        if problem := valid_host_option(name):
            fail(problem)

    try:
        probe = socket.create_server((host, port), reuse_port=False)
        probe.close()
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    with friendly_errors():
        engine = open_store(db)
    tune_store(engine, sync=sync)
    _warn_if_read_only(engine)
    shown = host
    if _wildcard(host):
        shown = lan_address() or "127.0.0.1"
    base = f"http://{shown}:{port}"
    lan = shown if _wildcard(host) and shown != "127.0.0.1" else None
    hosts = allowed_hosts(host, lan=lan, extra=allow_host or ())
    # A join link carries the table's writer token: it goes to a terminal only, never to a
    # log (nohup, systemd, a redirect), where anyone who reads it could write to every table.
    on_terminal = sys.stdout.isatty()

    def announce(table_id: str, token: str) -> None:
        if not on_terminal:
            out.print(f"table {escape(table_id)} created (its join link is not logged)")
            sys.stdout.flush()
            return
        link = f"{base}/t/{table_id}#k={token}"
        out.print(f"table {escape(table_id)} created; writers join with {escape(link)}")
        if _wildcard(host) or shown != DEFAULT_HOST:
            _terminal_qr(link)
        sys.stdout.flush()

    out.print(f"zfrec live on {escape(base)}/  (Ctrl+C stops it)")
    if _wildcard(host):
        if shown == "127.0.0.1":
            err.print("no local network address found: phones cannot reach this machine yet")
        else:
            out.print(f"phones on this network open {escape(base)}/ - or scan:")
            _terminal_qr(f"{base}/")
    if not on_terminal:
        out.print(
            "join links carry writer tokens, so they are printed only to a terminal: take a "
            "table's link from the Invite panel of the page that created it"
        )
    sys.stdout.flush()
    app = create_app(engine, on_table_created=announce, hosts=hosts)
    streams = app.state.streams

    class Server(uvicorn.Server):
        """uvicorn's server that ends the open event streams (phones, spectators) as soon as
        it is told to stop: they would hold up Ctrl+C until cancelled, with tracebacks."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            streams.stop()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        server_header=False,
        timeout_graceful_shutdown=3,  # a stream that still does not end is cancelled then
    )
    server = Server(config)
    try:
        server.run()
    except KeyboardInterrupt:  # the Ctrl+C that stopped it, raised again once it has
        pass
    finally:
        engine.dispose()
    if not server.started:
        raise typer.Exit(3)  # as uvicorn.run: the server did not start


def _warn_if_read_only(engine: Engine) -> None:
    """A store that takes no writes still serves its tables to watch: say so once."""
    from zfrec.store import StoreError, session
    from zfrec.store.faults import require_writable

    try:
        with session(engine) as s:
            require_writable(s, "tables can be watched but not changed (503)")
    except StoreError as exc:
        err.print(f"warning: {escape(str(exc))}")


@json_on_failure(refused)
def tables_cmd(
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
    delete: Annotated[
        str | None,
        typer.Option(
            "--delete",
            metavar="ID",
            help="Delete this live table and its entries (an abandoned one). A game it "
            "finished stays in the store (zfrec delete removes it).",
        ),
    ] = None,
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="ID",
            help="Print this table's record so far (.zfn; with --json the JSON record), "
            "finished or not: to validate, import or publish a match still being played.",
        ),
    ] = None,
) -> None:
    """List the live tables in the store: id, players, entries, finished or not; print one's
    record so far; or delete one.

    Exit 0, 2 when the store or the table named does not exist.
    """
    from zfrec.live import list_tables
    from zfrec.store import open_store

    if delete is not None and record is not None:
        fail("give --delete or --record, not both")
    if delete is not None:
        _delete_table(db, delete, as_json)
        return
    if record is not None:
        _print_record(db, record, as_json)
        return
    with friendly_errors():
        engine = open_store(db, create=False)
        try:
            found = list_tables(engine)
        finally:
            engine.dispose()
    if as_json:
        print_json([t.to_json() for t in found])
        return
    if not found:
        out.print("no live tables")
        return
    from zfrec.games import find_kind

    for t in found:
        state = f"finished, game {t.game_id}" if t.over else "in progress"
        label = f"{t.event} - " if t.event else ""
        title = find_kind(t.game).title  # which game the table plays
        out.print(
            f"{escape(t.id)}  {title}  {escape(label + ', '.join(t.players))}  "
            f"{t.entries} entries, {state}"
        )


def _print_record(db: str | None, table_id: str, as_json: bool) -> None:
    """The table's record so far, as the server's `record.zfn` (or `record.json`) gives it."""
    from zfrec.live import LiveError, Table
    from zfrec.store import open_store

    with friendly_errors():
        engine = open_store(db, create=False)
        try:
            try:
                text = Table(engine, table_id).export("json" if as_json else "zfn")
            except LiveError as exc:
                fail(str(exc))
        finally:
            engine.dispose()
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _delete_table(db: str | None, table_id: str, as_json: bool) -> None:
    from zfrec.store import open_store, session
    from zfrec.store.correct import delete_live_table

    with friendly_errors():
        engine = open_store(db, create=False, writes=True)
        try:
            with session(engine) as s:
                entries, game_id = delete_live_table(s, table_id=table_id)
        finally:
            engine.dispose()
    if as_json:
        print_json({"deleted": table_id, "entries": entries, "game_id": game_id})
        return
    kept = "" if game_id is None else f"; the game it finished stays in the store as game {game_id}"
    out.print(f"live table {escape(table_id)} deleted ({entries} entries){kept}")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)
    app.command("tables")(tables_cmd)
