"""A static site over the store: an index with search, game pages, replays, player pages.

    >>> for item in publish(session, jobs=2): ...        # OutputFile or Reused, game by game

Nothing here writes a file: `publish` yields relative paths and bytes (`OutputFile`), or says
that a file of the previous site is still current (`Reused`), and the CLI writes them. All
links between pages are relative, so the site works from file:// and from any web server.

Each game's files are kept in the store as artifacts under `cache_key` (the record's content
hash, the renderer's fingerprint, the options), so a game is rendered again only when one of
them changed. A site carries a manifest (`MANIFEST`) of the key each game folder was made
with: a game whose key is unchanged is not even read from the store, its files are reused.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from markupsafe import Markup

from zfrec.games import DEFAULT_KIND, KINDS, find_kind
from zfrec.render.gamefiles import (
    AUDIT_PAGE,
    META_FILE,
    VIEWER_PAGE,
    Decorate,
    GameMeta,
    OutputFile,
    Reading,
    RenderedGame,
    RenderOptions,
    cache_key,
    game_files,
    hand_page,
    init_worker,
    meta_file,
    parse_replay_page,
    render_record_json,
    render_stored,
    renderer_fingerprint,
    stored_reading,
    variant,
)
from zfrec.render.html import environment

if TYPE_CHECKING:
    from sqlmodel import Session

    from zfrec.store.queries import SeatOutcome
    from zfrec.store.store import GameRow, PlayerStats

MANIFEST = ".zfrec-site.json"
DEFAULT_TITLE = "Zheng Fen games"
COMMIT_EVERY_S = 1.0  # a publish commits the rendered games' artifacts at most this often
OnGame = Callable[["GameRow", bool], None]
# a game's hand (round) numbers written more than once, each with its pages in record order
OnRepeats = Callable[["GameRow", dict[int, tuple[str, ...]]], None]


@dataclass(frozen=True, slots=True)
class Reused:
    """A file of the previous site that is still current: the writer keeps it as it is."""

    path: str


SiteItem = OutputFile | Reused


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """What the previous site holds of one game: the key its files were made with."""

    key: str
    files: tuple[str, ...]
    meta: GameMeta


def read_manifest(text: str) -> dict[int, ManifestEntry]:
    """The games of a site's manifest; an unreadable manifest reuses nothing."""
    try:
        data = json.loads(text)
        return {
            int(gid): ManifestEntry(
                str(e["key"]), tuple(str(f) for f in e["files"]), GameMeta.from_json(e["meta"])
            )
            for gid, e in data["games"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}


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


# --- the index and the player pages ----------------------------------------------------------


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
    event: str | None = None
    disputes: int = 0
    specials: int = 0
    # per seat, what the index's standings add up over the games the filters show
    outcomes: tuple[SeatOutcome, ...] = ()
    # whether the standings count the game at all (False: a kind without the Players table's
    # measures, in a site of several games)
    standing: bool = True
    # the game's kind by name ("Sheng ji"), in a site of several games; else empty
    kind: str = ""

    def outcomes_json(self) -> list[list[str | int]]:
        """The outcomes as the index's rows carry them: [name, won, hands, finished, points,
        firsts, lasts] per seat."""
        return [
            [o.name, int(o.won), o.hands, o.finished, o.points, o.firsts, o.lasts]
            for o in self.outcomes
        ]


@dataclass(frozen=True, slots=True)
class KindSection:
    """A game kind's own part of the site (`GameKind.site_section`): a section of the index
    and one per player who played it, markup that zfrec generated (record text escaped)."""

    kind: str
    title: str
    index_html: Markup
    player_html: dict[str, Markup]


@dataclass(frozen=True, slots=True)
class KindLink:
    """One game's own index, in a site that holds more than one game."""

    kind: str
    title: str
    href: str
    games: int
    current: bool = False


@dataclass(frozen=True, slots=True)
class SiteView:
    title: str
    games: list[GameLink]
    players: list[PlayerStats]
    player_hrefs: dict[str, str]
    viewer_href: str | None = VIEWER_PAGE
    events: list[str] = field(default_factory=list)
    # in a site of more than one game: the index of each (empty: one game, one index)
    kinds: list[KindLink] = field(default_factory=list)
    sections: list[KindSection] = field(default_factory=list)
    # the Players table and the standings: their measures (hands, points, first out, last)
    # are those of the kinds with `GameKind.player_table`
    player_table: bool = True
    # the Players table's rows, counted over those kinds' games (None: `players`, one game)
    table_players: list[PlayerStats] | None = None
    # in a site that also holds games without those measures: the kinds they are of ("Zheng
    # Fen"), to head the Players table and the standings with
    table_kind: str = ""
    # the games lists' heading of their count of hands (Sheng ji's: rounds; both: "Hands / rounds")
    units: str = "Hands"


def _link(
    row: GameRow,
    prefix: str,
    meta: GameMeta | None = None,
    outcomes: tuple[SeatOutcome, ...] = (),
    standing: bool = True,
) -> GameLink:
    meta = meta or GameMeta()
    title = row.event or " · ".join(row.players)
    audit_href = f"{prefix}games/{row.id}/{AUDIT_PAGE}" if meta.audited else None
    return GameLink(
        row.id, f"{prefix}games/{row.id}/index.html", title, row.date, list(row.players),
        list(row.winners), row.hands, row.valid, row.errors, audit_href, row.event,
        meta.disputes, meta.specials, outcomes, standing,
    )  # fmt: skip


def site_pages(
    session: Session, rows: list[GameRow], metas: Mapping[int, GameMeta], title: str | None
) -> Iterator[OutputFile]:
    """The index (with search and filters), the player pages and the single-file viewer;
    `title` None: the games' ("Sheng ji games", "Zheng Fen and Sheng ji games")."""
    from zfrec.store.queries import seat_outcomes
    from zfrec.store.store import list_games, player_stats

    # the games in the order the site lists them: by date, then by id (undated games last)
    rows = sorted(rows, key=lambda r: (not r.date, r.date or "", r.id))
    stats = player_stats(session, kind=None)  # every player of the site, whatever they played
    table = player_stats(session)  # the Players table: the measures of its own game's kind
    outcomes = seat_outcomes(session)
    names = {s.name for s in stats} | {p for row in rows for p in row.players}
    hrefs = {name: player_href(name) for name in names}
    events = sorted({r.event for r in rows if r.event}, key=str.casefold)
    kind_of = _kinds(session)
    # the standings add up the Players table's measures: only over the games of its kinds
    standing = {r.id: find_kind(kind_of.get(r.id, DEFAULT_KIND)).player_table for r in rows}
    games = [
        _link(row, "", metas.get(row.id), tuple(outcomes.get(row.id, ())), standing[row.id])
        for row in rows
    ]
    sections = _sections(rows, kind_of, metas, hrefs)
    present = sorted({kind_of.get(r.id, DEFAULT_KIND) for r in rows}, key=KINDS.index)
    if len(present) > 1:  # the whole index tags each game with its kind
        tagged = [replace(g, kind=find_kind(kind_of.get(r.id, DEFAULT_KIND)).title)
                  for g, r in zip(games, rows, strict=True)]  # fmt: skip
    one_table = all(find_kind(k).player_table for k in present)  # a site of one game: its own
    # an index offers the hand viewer only where its games share hands through it (a kind with
    # shared files: Zheng Fen's viewer.html)
    shared = {name: find_kind(name).shared_files() for name in KINDS}  # made once, written below
    sharing = {k for k in present if shared[k]}
    viewer = VIEWER_PAGE if sharing else None
    if title is None:
        named = " and ".join(find_kind(k).title for k in present)
        title = f"{named} games" if named else DEFAULT_TITLE
    table_kind = (
        ""
        if one_table
        else " and ".join(find_kind(k).title for k in present if find_kind(k).player_table)
    )
    site = SiteView(
        title, games, stats, hrefs, viewer, events, [], sections, one_table, table, table_kind,
        _units(present),
    )  # fmt: skip
    env = environment()
    index = env.get_template("index.html.j2")
    scripts = ("sort.js", "filter.js")
    if len(present) > 1:
        # one index per game besides the whole one: the index filters by game without a script
        links = [KindLink("", "All games", "index.html", len(rows))] + [
            KindLink(k, find_kind(k).title, f"index-{k}.html",
                     sum(kind_of.get(r.id, DEFAULT_KIND) == k for r in rows))
            for k in present
        ]  # fmt: skip
        for link in links:
            mine = [g for g, r in zip(tagged if not link.kind else games, rows, strict=True)
                    if not link.kind or kind_of.get(r.id, DEFAULT_KIND) == link.kind]  # fmt: skip
            view = SiteView(
                title if not link.kind else f"{title} · {link.title}", mine, stats, hrefs,
                viewer if not link.kind or link.kind in sharing else None, events,
                [KindLink(k.kind, k.title, k.href, k.games, k is link) for k in links],
                [x for x in sections if not link.kind or x.kind == link.kind],
                not link.kind or find_kind(link.kind).player_table, table, table_kind,
                _units([link.kind] if link.kind else present),
            )  # fmt: skip
            yield OutputFile(link.href, index.render(site=view, scripts=scripts).encode())
    else:
        yield OutputFile("index.html", index.render(site=site, scripts=scripts).encode())
    for name in KINDS:  # Zheng Fen's viewer.html
        yield from shared[name]
    in_table = {p.name: p for p in table}
    for player in stats:
        own = [_link(r, "../", metas.get(r.id)) for r in list_games(session, player=player.name)]
        if len(present) > 1:  # each game tagged with its kind, as on the whole index
            own = [replace(g, kind=find_kind(kind_of.get(g.id, DEFAULT_KIND)).title) for g in own]
        page = env.get_template("player.html.j2").render(
            site=site, player=player, games=own, index_href="../index.html", scripts=("sort.js",),
            table_player=in_table.get(player.name),
            sections=[x.player_html[player.name] for x in sections if player.name in x.player_html],
        )  # fmt: skip
        yield OutputFile(f"players/{slug(player.name)}.html", page.encode())


def _units(kinds: list[str]) -> str:
    """What the games lists head their count with: the kinds' units (`GameKind.unit`: hands,
    rounds), each once."""
    words = list(dict.fromkeys(find_kind(k).unit + "s" for k in kinds)) or ["hands"]
    return " / ".join(words).capitalize()


def _kinds(session: Session) -> dict[int, str]:
    """Each stored game's kind (zfrec.games), by id."""
    from sqlalchemy import select

    from zfrec.store.tables import GAME

    return {r.id: r.kind for r in session.connection().execute(select(GAME.c.id, GAME.c.kind))}


def _sections(
    rows: list[GameRow], kind_of: dict[int, str], metas: Mapping[int, GameMeta],
    hrefs: dict[str, str],
) -> list[KindSection]:  # fmt: skip
    """The sections of the kinds that keep facts for the site (`GameKind.site_section`): made
    from what each game's rendering kept (`GameMeta.facts`), so no record is read again."""
    out: list[KindSection] = []
    for name in KINDS:
        facts = [
            (r.id, metas[r.id].facts) for r in rows
            if kind_of.get(r.id, DEFAULT_KIND) == name and r.id in metas and metas[r.id].facts
        ]  # fmt: skip
        if facts:
            section = find_kind(name).site_section(facts, hrefs)
            if section is not None:
                out.append(section)
    return out


# --- publishing -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Run:
    """One publish: what it has decided per game so far."""

    session: Session
    key_of: Callable[[GameRow], str]
    options: RenderOptions
    previous: Mapping[int, ManifestEntry]
    on_game: OnGame | None
    on_notice: Callable[[str], None] | None
    metas: dict[int, GameMeta] = field(default_factory=dict)
    entries: dict[str, Any] = field(default_factory=dict)
    on_repeats: OnRepeats | None = None
    committed: float = field(default_factory=time.monotonic)  # when keep() last committed

    def done(
        self, row: GameRow, files: list[OutputFile] | list[Reused], meta: GameMeta, cached: bool
    ) -> Iterator[SiteItem]:
        self.metas[row.id] = meta
        self.entries[str(row.id)] = {
            "key": self.key_of(row),
            "files": [f.path for f in files],
            "meta": meta.to_json(),
        }
        if self.on_notice is not None:
            for notice in meta.notices:
                self.on_notice(notice)
        if self.on_repeats is not None and meta.repeated:
            self.on_repeats(row, meta.repeated)
        if self.on_game is not None:
            self.on_game(row, cached)
        prefix = f"games/{row.id}/"
        for f in files:
            yield (
                Reused(prefix + f.path)
                if isinstance(f, Reused)
                else OutputFile(prefix + f.path, f.content)
            )

    def stored(self, row: GameRow) -> tuple[list[OutputFile], GameMeta] | None:
        from zfrec.store.artifacts import current_artifacts

        found = current_artifacts(self.session, game_id=row.id, source_hash=self.key_of(row))
        if not found or not any(a.kind == "page" and a.name == "index.html" for a in found):
            return None
        meta = GameMeta()
        files = []
        for a in found:
            if a.name == META_FILE:
                meta = GameMeta.from_json(json.loads(a.content))
            else:
                files.append(OutputFile(a.name, a.content))
        return files, meta

    def keep(self, row: GameRow, made: RenderedGame, *, commit: bool = False) -> None:
        """Store a rendered game's files. They are committed with those of the games after it
        within COMMIT_EVERY_S (an interrupted publish keeps all but the last second's games;
        a commit per game, a sync of the store to disk each, took a tenth of a publish), or at
        once with `commit`; `commit_kept` commits the rest."""
        from zfrec.store.artifacts import replace_artifacts

        rows = [(*_artifact_kind(f.path), f.path, f.content, f.mime) for f in made.files]
        meta = meta_file(made.meta)
        rows.append((None, "page", meta.path, meta.content, meta.mime))
        replace_artifacts(
            self.session, game_id=row.id, artifacts=rows, source_hash=self.key_of(row)
        )
        if commit or time.monotonic() - self.committed >= COMMIT_EVERY_S:
            self.commit_kept()

    def commit_kept(self) -> None:
        self.session.commit()
        self.committed = time.monotonic()


def publish(
    session: Session,
    *,
    title: str | None = None,
    decorate: Decorate | None = None,
    salt: str = "",
    analysis: bool = True,
    audit: bool = True,
    on_game: OnGame | None = None,
    jobs: int = 1,
    previous: Mapping[int, ManifestEntry] | None = None,
    on_notice: Callable[[str], None] | None = None,
    solve_cards: int = 0,
    on_repeats: OnRepeats | None = None,
) -> Iterator[SiteItem]:
    """Every file of the static site over the store, game by game, then the index, the player
    pages, the viewer and the manifest.

    A game whose key matches `previous` (the manifest of the site being replaced) yields
    `Reused` paths; one whose artifacts in the store are current yields them; any other is
    rendered, with `jobs` worker processes, and its artifacts are stored and committed as they
    come. `analysis` and `audit` are game_files' options; `salt` must change when a `decorate`
    hook's output would. `on_game(row, cached)` reports each game (cached: not rendered now);
    `on_notice(text)` passes on what the renderer had to say (a font that is missing).
    `solve_cards` > 0 adds the hindsight solver's marks to the pages (game_files).
    `on_repeats(row, repeated)` names the hand (round) numbers a game writes more than once,
    each with its pages (`GameMeta.repeated`), before `on_game` reports the game.
    """
    from zfrec.store.store import export_game, list_games

    rows = list_games(session)
    names = {p for row in rows for p in row.players}
    options = RenderOptions(
        {name: player_href(name, "../../") for name in names}, decorate, analysis, audit,
        solve_cards=solve_cards,
    )  # fmt: skip
    salted = variant(salt, analysis, audit, solve_cards)
    run = _Run(session, lambda row: cache_key(row.content_hash, salted), options,
               previous or {}, on_game, on_notice, on_repeats=on_repeats)  # fmt: skip
    todo: list[GameRow] = []
    for row in rows:
        entry = run.previous.get(row.id)
        if entry is not None and entry.key == run.key_of(row):
            yield from run.done(row, [Reused(p) for p in entry.files], entry.meta, True)
            continue
        found = run.stored(row)
        if found is not None:
            yield from run.done(row, found[0], found[1], True)
        else:
            todo.append(row)
    by_id = {row.id: row for row in todo}

    def texts() -> Iterator[tuple[int, str, Reading]]:
        for row in todo:
            text = export_game(session, game_id=row.id, format="json")
            yield row.id, text, stored_reading(session, row.id)

    for game_id, made in _render_all(texts(), options, jobs):
        row = by_id[game_id]
        run.keep(row, made)
        yield from run.done(row, made.files, made.meta, False)
    run.commit_kept()
    yield from site_pages(session, rows, run.metas, title)
    manifest = {"zfrec": renderer_fingerprint(), "games": run.entries}
    yield OutputFile(MANIFEST, json.dumps(manifest, sort_keys=True, indent=0).encode())


def _render_all(
    texts: Iterator[tuple[int, str, Reading]], options: RenderOptions, jobs: int
) -> Iterator[tuple[int, RenderedGame]]:
    """Each game rendered, in this process or in `jobs` workers (results as they finish)."""
    if jobs <= 1:
        for game_id, text, reading in texts:
            yield game_id, render_record_json(text, options, reading)
        return
    import multiprocessing

    # Forked workers start at once with everything imported, and inherit the options (a
    # decorate hook need not be picklable); elsewhere they are spawned.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "fork":
        # imported once here rather than once in each worker (matplotlib takes about a second)
        import importlib

        for module in _WORKER_MODULES:
            importlib.import_module(module)
    window = 2 * jobs  # games in flight: bounded memory, and the workers never wait
    with ProcessPoolExecutor(jobs, context, initializer=init_worker, initargs=(options,)) as pool:
        pending: set[Future[tuple[int, RenderedGame]]] = set()
        for game_id, text, reading in texts:
            pending.add(pool.submit(render_stored, game_id, text, reading))
            while len(pending) >= window:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield f.result()
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                yield f.result()


_WORKER_MODULES = (
    "matplotlib.figure",
    "matplotlib.collections",
    "matplotlib.backends.backend_agg",
    "zfrec.render.charts",
)


def _artifact_kind(path: str) -> tuple[int | None, str]:
    """A stored file's hand (or round) number and kind: every replay page is a replay, the
    second hand 1 (`hand-1-2.html`, zfrec.render.pagenames) as much as the first."""
    page = parse_replay_page(path)
    if page is not None:
        return page[1], "replay_html"
    if path.endswith(".svg"):
        return None, "chart_svg"
    if path.endswith(".png"):
        return None, "chart_png"
    return None, "page"


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
    from zfrec.store.store import export_game

    options = RenderOptions(
        dict(player_hrefs or {}), decorate, analysis, audit, index_href or "../../index.html"
    )
    run = _Run(session, lambda r: cache_key(r.content_hash, variant(salt, analysis, audit)),
               options, {}, None, None)  # fmt: skip
    found = run.stored(row)
    if found is not None:
        return found[0], True
    text = export_game(session, game_id=row.id, format="json")
    made = render_record_json(text, options, stored_reading(session, row.id))
    run.keep(row, made, commit=True)
    return made.files, False


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


def cpu_count() -> int:
    """The processors this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


__all__ = [
    "MANIFEST",
    "GameLink",
    "ManifestEntry",
    "OutputFile",
    "Reused",
    "SiteItem",
    "cache_key",
    "find_game",
    "game_files",
    "hand_page",
    "publish",
    "read_manifest",
    "renderer_fingerprint",
    "slug",
    "stored_game_files",
]
