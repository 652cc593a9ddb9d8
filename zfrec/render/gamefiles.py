"""One game's files: its page, a replay per hand, the charts, and the audit page of a broken record.

    >>> from zfrec.games.zhengfen.analysis.example import broken_example
    >>> made = render_game_files(broken_example(), audit=True)  # the files, the index's facts
    >>> sorted(f.path for f in made.files)[:3], made.meta.audited
    (['audit.html', 'hand-1.html', 'index.html'], True)

Nothing here writes a file: it returns relative paths and bytes. `cache_key` names what the
files were made from (the record, zfrec's code and templates, the installed fonts, the options),
so a store or a published site can tell whether they are still current.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.resources
import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zfrec.diagnostics import Diagnostic
from zfrec.games import find_kind
from zfrec.gctuning import collected_after
from zfrec.record.model import Game
from zfrec.render.pagenames import (
    hand_page,
    nth_page,
    parse_replay_page,
    repeated_pages,
    repeats_line,
    replay_pages,
)
from zfrec.render.views import ChartEmbed

if TYPE_CHECKING:
    from zfrec.render.charts import Chart

MIME = {
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
}
RENDERED_DEPENDENCIES = ("jinja2", "markupsafe", "matplotlib")  # their versions shape the output
UNRENDERED_PACKAGES = ("cli", "store")  # zfrec code that does not change a page
VIEWER_PAGE = "viewer.html"  # the single-file viewer a kind may ship (GameKind.shared_files)
AUDIT_PAGE = "audit.html"  # a broken record's audit page, beside its game page
# The renderer's hook: add notes and sections to a game's view (of the record's kind) before
# its pages are drawn (Zheng Fen's: a zfrec.games.zhengfen.pages.views.GameView).
Decorate = Callable[[Any], None]


@dataclass(frozen=True, slots=True)
class OutputFile:
    """One file of the output: a relative path with `/` separators, and its bytes."""

    path: str
    content: bytes

    @property
    def mime(self) -> str:
        return MIME.get(self.path[self.path.rfind(".") :], "application/octet-stream")


@dataclass(frozen=True, slots=True)
class GameMeta:
    """What the site's index says of a game beyond the store's row: the search filters' facts,
    and what the renderer had to say about it (shown once per publish)."""

    disputes: int = 0
    specials: int = 0
    audited: bool = False  # the game has an audit page
    notices: tuple[str, ...] = ()
    # what the game's kind keeps for the site's own statistics (`GameKind.site_section`),
    # JSON values, made when the game is rendered (so a publish need not read it again)
    facts: dict[str, Any] = field(default_factory=dict)
    # the hand (round) numbers the record writes more than once, each with its pages in
    # record order (zfrec.render.pagenames): {1: ("hand-1.html", "hand-1-2.html")}
    repeated: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.facts:  # a game without facts is written as before they were kept
            del data["facts"]
        if self.repeated:  # and one whose numbers are unique as before they were named
            data["repeated"] = {str(n): list(p) for n, p in self.repeated.items()}
        else:
            del data["repeated"]
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameMeta:
        facts = data.get("facts")
        return GameMeta(
            int(data.get("disputes", 0)),
            int(data.get("specials", 0)),
            bool(data.get("audited", False)),
            tuple(str(n) for n in data.get("notices", ())),
            dict(facts) if isinstance(facts, dict) else {},
            _repeated(data.get("repeated")),
        )


def _repeated(data: Any) -> dict[int, tuple[str, ...]]:
    if not isinstance(data, dict):
        return {}
    return {int(n): tuple(str(p) for p in pages) for n, pages in data.items()}


@dataclass(slots=True)
class RenderedGame:
    """A game's files and what the index needs to know of it."""

    files: list[OutputFile]
    meta: GameMeta = field(default_factory=GameMeta)


def render_game_files(record: Game, **options: Any) -> RenderedGame:
    """The files of `game_files`, with the game's facts for the index (`GameMeta`), made by the
    record's kind (zfrec.games). A kind without pages yet gets one plain page that says so."""
    kind = find_kind(record.kind)
    made: RenderedGame | None = kind.render_files(record, **options)
    return made if made is not None else pages_later(record)


def pages_later(record: Game) -> RenderedGame:
    """The one page of a game whose kind has no pages yet: its players, and that they come."""
    from markupsafe import escape

    message = find_kind(record.kind).pages_later()
    players = ", ".join(record.players)
    page = (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f"<title>{escape(players)}</title></head>\n"
        f"<body><h1>{escape(players)}</h1>\n<p>{escape(message)}.</p></body></html>\n"
    )
    return RenderedGame([OutputFile("index.html", page.encode())], GameMeta(notices=(message,)))


def chart_files(
    charts: Iterable[Chart], files: list[OutputFile]
) -> tuple[list[ChartEmbed], list[str]]:
    """Add each chart's SVG (and PNG, where a font drew it) to `files`; give the game page's
    embeds and the charts' notices (each once)."""
    embeds: list[ChartEmbed] = []
    notices: list[str] = []
    for chart in charts:
        files.append(OutputFile(f"{chart.name}.svg", chart.svg_file.encode()))
        png_href = None
        if chart.png is not None:
            files.append(OutputFile(f"{chart.name}.png", chart.png))
            png_href = f"{chart.name}.png"
        if chart.notice and chart.notice not in notices:
            notices.append(chart.notice)
        embeds.append(ChartEmbed(chart.title, chart.inline(), png_href, f"{chart.name}.svg"))
    return embeds, notices


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
    viewer_href: str | None = None,
    solve_cards: int = 0,
) -> list[OutputFile]:
    """A game's page (index.html), one replay per hand and the charts, as relative files.

    `analysis` marks missed beats and conceded counters at their moves and adds the analysis
    sections (zfrec.games.zhengfen.pages.analysis). `audit` adds audit.html, linked from the
    game page, when the record fails validation (not in a seat's view: the repairs tell what
    the hands held). A `decorate` hook runs after the analysis. `viewer_href`, when given, is
    where the single-file viewer is (each replay page then offers a link that opens the hand
    in it).
    `solve_cards` > 0 (with `analysis`, not in a seat's view) adds the hindsight solver's
    marks: what each decision cost, and the "perfect play from here" table at each step where at
    most that many cards are left (zfrec.games.zhengfen.pages.analysis.analysed_view).
    """
    return render_game_files(
        record, viewer=viewer, index_href=index_href, player_hrefs=player_hrefs,
        decorate=decorate, charts=charts, analysis=analysis, audit=audit,
        viewer_href=viewer_href, solve_cards=solve_cards,
    ).files  # fmt: skip


# --- in a worker process ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """What `publish` renders each game with; the same for every game of a run."""

    player_hrefs: dict[str, str]
    decorate: Decorate | None = None
    analysis: bool = True
    audit: bool = True
    index_href: str = "../../index.html"
    viewer_href: str | None = "../../" + VIEWER_PAGE
    solve_cards: int = 0


_OPTIONS: list[RenderOptions] = []  # set once per worker process by init_worker


def init_worker(options: RenderOptions) -> None:
    """The worker's options, once: a forked worker inherits them (a decorate hook need not be
    picklable); a spawned one gets them pickled."""
    _OPTIONS[:] = [options]


# A stored game's reading findings (ZF001, as `Diagnostic.to_json` writes them): what the
# reader of the imported text read as meant or skipped. The stored record has no trace of them,
# so its pages are given them to show with the others (and count them, as `zfrec show` does).
Reading = tuple[dict[str, Any], ...]


def stored_reading(session: Any, game_id: int) -> Reading:
    """The stored game's reading findings (`Reading`), in record order."""
    from zfrec.store.queries import game_diagnostics

    return tuple(d for d in game_diagnostics(session, game_id) if d["code"] == "ZF001")


def reading_diagnostics(reading: Reading) -> tuple[Diagnostic, ...]:
    """The stored reading findings as diagnostics, placed in the imported file."""
    from zfrec.errors import Location

    out = []
    for d in reading:
        # placed in the imported file, not in the stored record the pages number their lines by
        where = Location(None, None, None, d.get("game"), d.get("hand"), d.get("trick"),
                         d.get("turn"), d.get("seat"),
                         occurrence=d.get("occurrence") or 1)  # fmt: skip
        line = f"line {d['line']}" if d.get("line") is not None else "a line"
        source = f" of {d['file']}" if d.get("file") else ""
        said = f"{d['message']} ({line}{source}, as imported)"
        out.append(Diagnostic(str(d["code"]), said, where))
    return tuple(out)


def render_stored(
    game_id: int, record_json: str, reading: Reading = ()
) -> tuple[int, RenderedGame]:
    """Render a stored game from its record's JSON text, with the worker's options."""
    return game_id, render_record_json(record_json, _OPTIONS[0], reading)


def render_record_json(
    record_json: str, options: RenderOptions, reading: Reading = ()
) -> RenderedGame:
    """Render a game from the canonical JSON the store keeps (zfrec wrote it: no schema pass);
    `reading`: the stored reading findings, shown and counted with the page's own."""
    from zfrec.record.jsonio import game_from_trusted_json

    # The game's view, and the record itself, are dropped when render_game_files returns:
    # the record is made inside the block and held by no name here, so the collection after
    # it does not go over the record's moves, still alive, as it did (a third of what it went
    # over), only to free them by their last reference a moment later.
    with collected_after():
        return render_game_files(
            game_from_trusted_json(json.loads(record_json)), index_href=options.index_href,
            player_hrefs=options.player_hrefs, decorate=options.decorate,
            analysis=options.analysis, audit=options.audit, viewer_href=options.viewer_href,
            solve_cards=options.solve_cards, reading=reading_diagnostics(reading),
        )  # fmt: skip


# --- what the files were made from --------------------------------------------------------------


@cache
def renderer_fingerprint() -> str:
    """A digest of what shapes the pages besides the record: zfrec's version, its code (the
    engine, the analyser, the renderer: every module but the CLI and the store), every template,
    the versions of Jinja2, MarkupSafe and matplotlib, and the installed fonts (a new font can draw
    a name the PNG charts had to leave out). New code means new artifacts."""
    from zfrec.render.fonts import fonts_fingerprint

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
    h.update(f"fonts {fonts_fingerprint()}\n".encode())
    return h.hexdigest()


def _sources() -> list[tuple[str, bytes]]:
    """zfrec's rendering code and templates, as (name, bytes)."""
    out = []
    templates = importlib.resources.files("zfrec.templates")
    for entry in templates.iterdir():
        if entry.is_file() and not entry.name.endswith((".py", ".pyc")):
            out.append((f"templates/{entry.name}", entry.read_bytes()))
    package = Path(__file__).resolve().parent.parent  # zfrec/
    for path in package.rglob("*.py"):
        name = path.relative_to(package).as_posix()
        if name.split("/")[0] not in UNRENDERED_PACKAGES:
            out.append((f"zfrec/{name}", path.read_bytes()))
    return out


def cache_key(content_hash: str, salt: str = "") -> str:
    """What a game's artifacts are keyed by: its record's hash, the renderer's fingerprint, and
    `salt` (the options and hooks that change the output)."""
    text = f"{content_hash}\n{renderer_fingerprint()}\n{salt}"
    return hashlib.sha256(text.encode()).hexdigest()


def variant(salt: str, analysis: bool, audit: bool, solve_cards: int = 0) -> str:
    """The cache key's salt: the caller's, and the options of game_files that publish sets."""
    solved = f"solve={solve_cards};" if solve_cards else ""
    return f"analysis={int(analysis)};audit={int(audit)};{solved}{salt}"


def meta_file(meta: GameMeta) -> OutputFile:
    """The game's facts, kept in the store with its files (not written to the site)."""
    return OutputFile(META_FILE, json.dumps(meta.to_json(), sort_keys=True).encode())


META_FILE = "meta.json"
Worker = Callable[[int, str], tuple[int, RenderedGame]]

__all__ = [
    "AUDIT_PAGE",
    "META_FILE",
    "VIEWER_PAGE",
    "Decorate",
    "GameMeta",
    "OutputFile",
    "Reading",
    "RenderOptions",
    "RenderedGame",
    "cache_key",
    "game_files",
    "hand_page",
    "nth_page",
    "parse_replay_page",
    "reading_diagnostics",
    "render_game_files",
    "renderer_fingerprint",
    "repeated_pages",
    "repeats_line",
    "replay_pages",
    "stored_reading",
]
