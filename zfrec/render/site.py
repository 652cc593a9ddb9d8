"""The files of a game (its page, hand replays and charts) and a static site over the store.

    >>> files = game_files(record)                     # [OutputFile("index.html", b"..."), ...]
    >>> for f in publish(session): ...                 # index, game pages, replays, players

Nothing here writes a file: it returns relative paths and bytes, and the CLI writes them. All
links between pages are relative, so the site works from file:// and from any web server.
Rendered game files are kept in the store as artifacts under a key made of the record's content
hash, the renderer's fingerprint (zfrec's code and templates) and the options that change the
output, so a game is rendered again only when one of them changed.

Game pages carry the decision analysis (zfrec.render.analysis): notes at the moves, a section on
each replay and on the game page. A record that fails validation also gets an audit page.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.resources
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from zfrec.analysis.audit import audit as audit_record
from zfrec.record.model import Game
from zfrec.render.analysis import AUDIT_PAGE, Decorate, analysed_view, render_audit
from zfrec.render.charts import game_charts
from zfrec.render.html import (
    ChartEmbed,
    build_game_view,
    environment,
    render_game,
    render_hand,
)

if TYPE_CHECKING:
    from sqlmodel import Session

    from zfrec.store.store import GameRow, PlayerStats

MIME = {
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
RENDERED_DEPENDENCIES = ("jinja2", "markupsafe", "matplotlib")  # their versions shape the output
UNRENDERED_PACKAGES = ("cli", "store")  # zfrec code that does not change a page


@dataclass(frozen=True, slots=True)
class OutputFile:
    """One file of the output: a relative path with `/` separators, and its bytes."""

    path: str
    content: bytes

    @property
    def mime(self) -> str:
        return MIME.get(self.path[self.path.rfind(".") :], "application/octet-stream")


def hand_page(number: int) -> str:
    return f"hand-{number}.html"


def game_files(
    record: Game,
    *,
    viewer: int | None = None,
    index_href: str | None = None,
    player_hrefs: dict[str, str] | None = None,
    decorate: Decorate | None = None,
    charts: bool = True,
    analysis: bool = True,
    audit: bool = False,
) -> list[OutputFile]:
    """A game's page (index.html), one replay per hand and the charts, as relative files.

    `analysis` marks missed beats and conceded counters at their moves and adds the analysis
    sections (zfrec.render.analysis). `audit` adds audit.html, linked from the game page, when
    the record fails validation (not in a seat's view: the repairs tell what the hands held).
    A `decorate` hook runs after the analysis.
    """
    if analysis:  # one replay pass feeds the pages and the analysis
        view = analysed_view(record, viewer=viewer, hand_href=hand_page)
    else:
        view = build_game_view(record, viewer=viewer, hand_href=hand_page)
    view.index_href = index_href
    view.player_hrefs = dict(player_hrefs or {})
    for hand in view.hands:
        hand.game_href = "index.html"
    extra: list[OutputFile] = []
    if audit and viewer is None:
        report = audit_record(record)
        if not report.legal:
            view.audit_href = AUDIT_PAGE
            extra.append(OutputFile(AUDIT_PAGE, render_audit(view, report).encode()))
    if decorate is not None:
        decorate(view)
    files = [OutputFile(hand_page(h.number), render_hand(h).encode()) for h in view.hands]
    embeds: list[ChartEmbed] = []
    for chart in game_charts(view) if charts else []:
        files.append(OutputFile(f"{chart.name}.svg", chart.svg.encode()))
        files.append(OutputFile(f"{chart.name}.png", chart.png))
        embeds.append(
            ChartEmbed(chart.title, chart.inline(), f"{chart.name}.png", f"{chart.name}.svg")
        )
    files.append(OutputFile("index.html", render_game(view, embeds).encode()))
    return files + extra


# --- the renderer's fingerprint: a cache key part that changes when the output would -------


@cache
def renderer_fingerprint() -> str:
    """A digest of what shapes the pages besides the record: zfrec's version, its code (the
    engine, the analyser, the renderer: every module but the CLI and the store), every template,
    and the versions of Jinja2, MarkupSafe and matplotlib. New code means new artifacts."""
    h = hashlib.sha256()
    for dist in ("zfrec", *RENDERED_DEPENDENCIES):
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:  # zfrec running from a source tree
            version = "source"
        h.update(f"{dist} {version}\n".encode())
    for name, data in sorted(_sources()):
        h.update(f"{name} {len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()


def _sources() -> Iterator[tuple[str, bytes]]:
    """zfrec's rendering code and templates, as (name, bytes)."""
    templates = importlib.resources.files("zfrec.templates")
    for entry in templates.iterdir():
        if entry.is_file() and not entry.name.endswith((".py", ".pyc")):
            yield f"templates/{entry.name}", entry.read_bytes()
    package = Path(__file__).resolve().parent.parent  # zfrec/
    for path in package.rglob("*.py"):
        name = path.relative_to(package).as_posix()
        if name.split("/")[0] not in UNRENDERED_PACKAGES:
            yield f"zfrec/{name}", path.read_bytes()


def cache_key(content_hash: str, salt: str = "") -> str:
    """What a game's artifacts are keyed by: its record's hash, the renderer's fingerprint, and
    `salt` (the options and hooks that change the output)."""
    text = f"{content_hash}\n{renderer_fingerprint()}\n{salt}"
    return hashlib.sha256(text.encode()).hexdigest()


def _variant(salt: str, analysis: bool, audit: bool) -> str:
    """The cache key's salt: the caller's, and the options of game_files that publish sets."""
    return f"analysis={int(analysis)};audit={int(audit)};{salt}"


# --- names in paths -----------------------------------------------------------------------------


def slug(name: str) -> str:
    """A file name for a player: the letters and digits of the name, and a short hash that
    keeps names apart (names are unique ignoring case, and may hold any character)."""
    words = re.findall(r"\w+", name.casefold())
    stem = "-".join(words)[:40].strip("-_") or "player"
    digest = hashlib.sha1(name.casefold().encode()).hexdigest()[:8]
    return f"{stem}-{digest}"


def player_href(name: str, prefix: str = "") -> str:
    return prefix + "players/" + quote(slug(name)) + ".html"


# --- the static site ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameLink:
    """A game as the index and the player pages list it."""

    id: int
    href: str
    title: str
    date: str | None
    players: list[str]
    winners: list[str]
    hands: int
    valid: bool
    errors: int
    audit_href: str | None = None  # the game's audit page, for a record that fails validation


@dataclass(frozen=True, slots=True)
class SiteView:
    title: str
    games: list[GameLink]
    players: list[PlayerStats]
    player_hrefs: dict[str, str]


def _link(row: GameRow, prefix: str, audited: bool = False) -> GameLink:
    title = row.event or " · ".join(row.players)
    audit_href = f"{prefix}games/{row.id}/{AUDIT_PAGE}" if audited else None
    return GameLink(
        row.id,
        f"{prefix}games/{row.id}/index.html",
        title,
        row.date,
        list(row.players),
        list(row.winners),
        row.hands,
        row.valid,
        row.errors,
        audit_href,
    )


def publish(
    session: Session,
    *,
    title: str = "Zheng Fen games",
    decorate: Decorate | None = None,
    salt: str = "",
    analysis: bool = True,
    audit: bool = True,
    on_game: Callable[[GameRow, bool], None] | None = None,
) -> Iterator[OutputFile]:
    """Every file of the static site over the store, game by game.

    Game files come from the store's artifacts when they were made from the same record by the
    same renderer with the same options (and `salt`, which a `decorate` hook should change when
    its output would); otherwise they are rendered and stored. `analysis` and `audit` are
    game_files' options: a game that fails validation gets an audit page, linked from its game
    page and from the validity column of the index and the player pages. `on_game(row,
    cached)` reports progress.
    """
    from zfrec.store.store import list_games, player_stats

    rows = list_games(session)
    stats = player_stats(session)
    names = {s.name for s in stats} | {p for row in rows for p in row.players}
    top_hrefs = {name: player_href(name) for name in names}
    game_hrefs = {name: player_href(name, "../../") for name in names}
    audited: set[int] = set()
    for row in rows:
        files, cached = stored_game_files(
            session, row, player_hrefs=game_hrefs, decorate=decorate, salt=salt,
            analysis=analysis, audit=audit,
        )  # fmt: skip
        if on_game is not None:
            on_game(row, cached)
        for f in files:
            if f.path == AUDIT_PAGE:
                audited.add(row.id)
            yield OutputFile(f"games/{row.id}/{f.path}", f.content)
    site = SiteView(title, [_link(row, "", row.id in audited) for row in rows], stats, top_hrefs)
    env = environment()
    index = env.get_template("index.html.j2").render(site=site, scripts=("sort.js",))
    yield OutputFile("index.html", index.encode())
    for player in stats:
        games = [
            _link(row, "../", row.id in audited) for row in list_games(session, player=player.name)
        ]
        page = env.get_template("player.html.j2").render(
            site=site, player=player, games=games, index_href="../index.html", scripts=("sort.js",)
        )
        yield OutputFile(f"players/{slug(player.name)}.html", page.encode())


def _artifact_kind(path: str) -> tuple[str, int | None]:
    m = re.fullmatch(r"hand-(\d+)\.html", path)
    if m:
        return "replay_html", int(m.group(1))
    if path.endswith(".svg"):
        return "chart_svg", None
    if path.endswith(".png"):
        return "chart_png", None
    return "page", None


def stored_game_files(
    session: Session,
    row: GameRow,
    *,
    player_hrefs: dict[str, str] | None = None,
    decorate: Decorate | None = None,
    salt: str = "",
    index_href: str | None = "../../index.html",
    analysis: bool = True,
    audit: bool = True,
) -> tuple[list[OutputFile], bool]:
    """A stored game's files, from its artifacts when they are current; and whether they were."""
    from zfrec.store.store import list_artifacts, load_record, put_artifact

    key = cache_key(row.content_hash, _variant(salt, analysis, audit))
    stored = list_artifacts(session, game_id=row.id)
    current = [a for a in stored if a.source_hash == key]
    if current and any(a.kind == "page" and a.name == "index.html" for a in current):
        return [OutputFile(a.name, a.content) for a in current], True
    record = load_record(session, row.id)
    files = game_files(
        record, index_href=index_href, player_hrefs=player_hrefs, decorate=decorate,
        analysis=analysis, audit=audit,
    )  # fmt: skip
    for f in files:
        kind, hand = _artifact_kind(f.path)
        put_artifact(
            session,
            game_id=row.id,
            hand_number=hand,
            kind=kind,
            name=f.path,
            content=f.content,
            mime=f.mime,
            source_hash=key,
        )
    return files, False


def find_game(session: Session, game_id: str) -> GameRow:
    """A stored game by its id, or a StoreError that says which ids exist."""
    from zfrec.store.db import StoreError
    from zfrec.store.store import list_games

    rows = list_games(session)
    for row in rows:
        if str(row.id) == game_id.strip():
            return row
    known = ", ".join(str(r.id) for r in rows[:10]) + (" ..." if len(rows) > 10 else "")
    hint = f"stored games: {known}" if rows else "the store holds no games"
    raise StoreError(f"no game {game_id!r} in the store ({hint})")


__all__ = [
    "OutputFile",
    "cache_key",
    "find_game",
    "game_files",
    "publish",
    "renderer_fingerprint",
    "slug",
    "stored_game_files",
]
