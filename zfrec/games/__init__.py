"""The games zfrec knows, one package per game, and the registry that picks one for a record.

A record names its game in its header, `[Game "shengji"]` in .zfn and `"game": "shengji"` in
JSON; a record without it is Zheng Fen's (`DEFAULT_KIND`), so every record written before there
were two games reads, validates and renders as it always did. `Game.kind` holds the name.

The generic layers (the lexer, the header, the writer's layout, the replay stream and its
visitors, diagnostics routing, Report, the store core, the site and the CLI) are one
implementation for all games: wherever they meet something only a game knows, they ask the
record's kind (`kind_of(game)` or `find_kind(name)`) through the hooks of `GameKind` below.
Nothing outside a game's package branches on a game's name. python-chess's `chess.variant` (a
header tag picks the board class; the reader, writer and visitors stay one) is the model.

    >>> find_kind("zhengfen").name, find_kind("ZhengFen").title
    ('zhengfen', 'Zheng Fen')
    >>> KINDS
    ('zhengfen', 'shengji')
    >>> print(kind_problem("shengij"))
    unknown game 'shengij': did you mean shengji? (games are zhengfen, shengji)

Kinds are imported when first asked for, so reading a Zheng Fen record never imports another
game's engine. A game registers itself by adding a line to `_KIND_MODULES`: its package must
define `KIND`, an instance of a `GameKind` subclass.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from zfrec.errors import ZfrecError

if TYPE_CHECKING:
    from zfrec.diagnostics import Diagnostic
    from zfrec.record.lexer import Token
    from zfrec.record.model import Game, RuleValue
    from zfrec.record.problems import ReadProblem
    from zfrec.record.seatrefs import Seats

__all__ = [
    "DEFAULT_KIND",
    "KINDS",
    "BodyReader",
    "GameKind",
    "UnknownKindError",
    "find_kind",
    "kind_of",
    "kind_of_preset",
    "kind_problem",
    "kind_suggestions",
    "units_text",
]

DEFAULT_KIND = "zhengfen"

# name -> module whose KIND is the game's GameKind. The first is the default.
_KIND_MODULES: dict[str, str] = {
    DEFAULT_KIND: "zfrec.games.zhengfen",
    "shengji": "zfrec.games.shengji.kind",
}
KINDS: tuple[str, ...] = tuple(_KIND_MODULES)

_LOADED: dict[str, GameKind] = {}


class UnknownKindError(ZfrecError):
    """A record names a game zfrec does not know (the message offers the nearest names)."""


def kind_suggestions(name: str) -> list[str]:
    """The games a name that names none may have meant, nearest first (at most two): a
    recovering reader reads a misspelt `[Game]` as the one game when there is exactly one.

    >>> kind_suggestions("shengi"), kind_suggestions("Zhengfn"), kind_suggestions("bridge")
    (['shengji'], ['zhengfen'], [])
    """
    import difflib  # only for a name that names no game: reading a record never needs it

    return difflib.get_close_matches(name.casefold(), KINDS, n=2, cutoff=0.6)


def kind_problem(name: str) -> str | None:
    """Why `name` names no game (with a did-you-mean), or None if it names one (any case)."""
    if name.casefold() in _KIND_MODULES:
        return None
    shown = name if len(name) <= 40 else name[:40] + "…"
    near = kind_suggestions(name)
    games = ", ".join(KINDS)
    if near:
        return f"unknown game {shown!r}: did you mean {' or '.join(near)}? (games are {games})"
    return f"unknown game {shown!r}: games are {games}"


def find_kind(name: str) -> GameKind:
    """The game kind called `name` (any case); UnknownKindError with did-you-mean otherwise."""
    key = name.casefold()
    kind = _LOADED.get(key)
    if kind is not None:
        return kind
    if key not in _KIND_MODULES:
        raise UnknownKindError(kind_problem(name) or name)
    kind = importlib.import_module(_KIND_MODULES[key]).KIND
    assert isinstance(kind, GameKind) and kind.name == key
    _LOADED[key] = kind
    return kind


def kind_of(game: Game) -> GameKind:
    """The kind of a record (its `Game.kind`)."""
    return find_kind(game.kind)


def units_text(counts: Mapping[str, int]) -> str:
    """How many hands/rounds a summary counted, each game's in its own word (`GameKind.unit`):
    `counts` maps a unit word to its count, in the order met (a word counted 0 names the
    kind of games met but not counted, such as Sheng ji games skipped: `0 round(s)`, unless
    another word has a count); none at all reads as the default kind's (`0 hand(s)`).

    >>> units_text({"hand": 12, "round": 3}), units_text({"hand": 0, "round": 3})
    ('12 hand(s), 3 round(s)', '3 round(s)')
    >>> units_text({"round": 0}), units_text({})
    ('0 round(s)', '0 hand(s)')
    """
    if not counts:
        return f"0 {find_kind(DEFAULT_KIND).unit}(s)"
    counted = {unit: n for unit, n in counts.items() if n} or counts
    return ", ".join(f"{n} {unit}(s)" for unit, n in counted.items())


def kind_of_preset(preset: str) -> GameKind:
    """The kind whose presets include `preset` (the presets of the games are all distinct), or
    the default kind: a live table stores its preset, which names its game."""
    for name in KINDS:
        kind = find_kind(name)
        if preset in kind.presets:
            return kind
    return find_kind(DEFAULT_KIND)


class BodyReader(Protocol):
    """Reads the statements of a game's body (after the tags) into the kind's own records.

    The generic .zfn reader (zfrec.record.zfn) owns the lines, the lexer, comments at the
    game's top, excerpts and recovery from syntax errors; a kind's body reader owns what the
    statements mean. One is made per game by `GameKind.body_reader`, once the header is read.
    It raises `SyntaxFail` (zfrec.record.lexer) at the token that is wrong; with `problems`
    given (a recovering reader) it may instead note a `ReadProblem` there and go on.
    """

    #: The open hand/round (None before the first): the reader offers it every line first,
    #: `hand.plain_line(line, number, body)`, which reads a line spelled as the writer spells
    #: it without the lexer and returns True, or returns False to leave the line to the lexer
    #: and `statement`. (An attribute, not a method of the body: this is the hot path.)
    hand: Any

    def statement(self, tokens: list[Token]) -> None:
        """One statement: its tokens, comments included, at least one of them not a comment."""
        ...

    def comments(self, texts: list[str]) -> bool:
        """A line holding only comments: attach them and return True, or return False to
        leave them to the game (before the first hand/round, say)."""
        ...

    def finish(self, game: Game) -> None:
        """The body is over: put the records read into `game` (its `hands` or `rounds`)."""
        ...

    def place(self, tokens: list[Token]) -> dict[str, int | str]:
        """Where the statement `tokens` (one that failed to read, or unfinished) stands in the
        body read so far, as `Location` fields: `hand` (its number), `unit` (what `hand`
        numbers, the kind's unit) and `trick` (for a trick line, its number in the hand), as
        far as the reader knows them; {} where it knows none. It raises nothing.
        `statement_place` does it for a body of numbered units of trick lines."""
        ...


def statement_place(
    tokens: list[Token],
    *,
    opener: str,
    number: Callable[[str], int | None],
    current: int | None,
    next_number: int,
    tricks: int | None,
    statements: Sequence[str],
) -> dict[str, int | str]:
    """BodyReader.place for a body of numbered units (hands, rounds) of trick lines: `hand`,
    the number of the unit the statement `tokens` stands in, and `trick`, for a line of moves,
    the number it has in that unit.

    A line that opens a unit (its keyword `opener`) is in the unit it opens: the number written
    on it, as `number` reads it (None: not a number the unit can have, no place), else
    `next_number`. Any other line is in the unit being read (`current`; None: before the
    first, no place). A line of moves is one with a colon that opens with none of the keywords
    `statements` (a colon right after the first word makes it a seat's move): its trick is the
    one after the `tricks` read, None once the unit has ended (a trick after its score is no
    trick of it). It raises nothing."""
    from zfrec.record.lexer import COLON, COMMENT, WORD

    index = next((i for i, t in enumerate(tokens) if t.kind != COMMENT), None)
    if index is None:
        return {}
    first = tokens[index]
    keyword = first.text.casefold() if first.kind == WORD else ""
    if index + 1 < len(tokens) and tokens[index + 1].kind == COLON:
        keyword = ""  # a move by a seat called so
    if keyword == opener:
        rest = [t for t in tokens[index + 1 :] if t.kind != COMMENT]
        if rest and rest[0].kind == WORD and rest[0].text.isdecimal():
            written = number(rest[0].text)
            return {} if written is None else {"hand": written}
        return {"hand": next_number}
    if current is None:
        return {}
    if tricks is None or keyword in statements or not any(t.kind == COLON for t in tokens):
        return {"hand": current}  # not a trick: no move in it, or its unit has ended
    return {"hand": current, "trick": tricks + 1}


class GameKind:
    """What one game supplies to the generic layers. Subclass it in the game's package.

    Each hook is documented with its contract below. A hook that a game does not supply yet
    keeps the base implementation, which says so plainly (`NotSupported`, a ZfrecError the CLI
    reports as a one-line message) instead of failing somewhere deep in a generic layer.
    """

    #: The name in the `[Game]` tag and the store's `game.kind`, lower case.
    name: str = ""
    #: How pages and messages name the game.
    title: str = ""
    #: What `Game.rounds`-style records are called in messages ("hand", "round").
    unit: str = "hand"
    #: How many players a record of this kind names (`[Players]`, JSON "players").
    min_players: int = 3
    max_players: int = 6
    #: What `[Result]` gives per seat before the winners ("score"; Sheng ji: "level").
    result_word: str = "score"

    def result_score(self, word: str) -> int | None:
        """One seat's figure in `[Result]` as written, or None if it is none (a score here)."""
        if not word.isdecimal():
            return None
        return int(word) if len(word) <= 20 else 10**20  # too big, whatever it is

    def result_score_text(self, value: int) -> str:
        """The text of one seat's figure in `[Result]`, as `result_score` reads it back."""
        return str(value)

    # --- rules and presets ------------------------------------------------------------------

    #: The presets `[Rules]` may name, the default first.
    presets: tuple[str, ...] = ()
    #: The target a record has when it states none (None: the game has no target).
    default_target: int | None = None

    @property
    def default_preset(self) -> str:
        """The preset of a record whose `[Rules]` names none."""
        return self.presets[0]

    def parse_option(self, word: str) -> tuple[str, RuleValue]:
        """One `name=value` of `[Rules]`, typed; RulesError (message only) if unreadable."""
        raise NotSupported(f"{self.title} records take no rule options yet")

    def check_rules(self, preset: str, options: dict[str, RuleValue]) -> None:
        """Raise RulesError if `options` cannot stand with `preset` (values the engine refuses)."""

    def option_order(self) -> Sequence[str]:
        """The canonical order of options in `[Rules]` (others follow sorted)."""
        return ()

    def ruleset(self, game: Game) -> Any:
        """The engine's rules object for the record's preset, options and target."""
        raise NotSupported(f"{self.title} rules are not wired yet")

    def judging_rules(
        self, preset: str | None, options: Sequence[str]
    ) -> tuple[Any, dict[str, Any]]:
        """What `zfrec validate --rules PRESET --option name=value` re-judges a record of this
        kind under, as `validate` takes them: the kind's rules object for PRESET with the options
        (None without PRESET: the record's own) and the options, typed (on top of the record's
        rules without PRESET). RulesError for a preset or option the kind does not have."""
        raise NotSupported(f"{self.title} records cannot be re-judged under other rules yet")

    # --- cards ------------------------------------------------------------------------------

    def parse_cards(self, text: str) -> int:
        """Cards as written (`7h 7h BJ`) in the game's card grammar; CardError if unreadable."""
        raise NotSupported(f"{self.title} cards are not wired yet")

    def format_cards(self, cards: int) -> str:
        """The canonical text of a card set, as `parse_cards` reads it back."""
        raise NotSupported(f"{self.title} cards are not wired yet")

    # --- the .zfn notation ------------------------------------------------------------------

    def body_reader(
        self,
        seats: Seats,
        problems: list[ReadProblem] | None,
        preset: str | None = None,
        options: dict[str, RuleValue] | None = None,
    ) -> BodyReader:
        """A reader of the statements of one game's body; `seats` resolves seat references and
        `problems` is None unless the reader recovers (see BodyReader). `preset` and `options`
        are the header's rules (None: not known), for messages that quote them."""
        raise NotSupported(f"{self.title} records cannot be read yet")

    def body_lines(self, game: Game) -> Iterator[str]:
        """The canonical lines of the body (after the header and its blank line), each without
        its newline; an empty string is a blank line. Reading them back gives an equal record."""
        raise NotSupported(f"{self.title} records cannot be written yet")

    def body_text(self, game: Game, at: int) -> str | None:
        """Hook for tools that quote one hand/round: its canonical text, or None."""
        return None

    # --- JSON -------------------------------------------------------------------------------

    def body_to_json(self, game: Game, out: dict[str, Any], flat: bool) -> None:
        """Put the body into the game's JSON object `out` (after the header's keys). `flat`
        asks for the compact single-line forms the canonical JSON uses."""
        raise NotSupported(f"{self.title} records cannot be written as JSON yet")

    def body_from_json(self, data: dict[str, Any], game: Game, reader: Any) -> None:
        """Read the body of a game's JSON object `data` (schema-checked) into `game`. `reader`
        is the generic JSON reader of the game (zfrec.record.jsonio): its `fail(path, message)`
        makes a located NotationError, `seat(value, *path)`, `per_seat(values, *path)`,
        `comments(values, *path)` and `line(value, *path)` read and check the common values."""
        raise NotSupported(f"{self.title} records cannot be read from JSON yet")

    def locate_json(self, game: Game, at: Callable[..., Any]) -> None:
        """Give the kind's parts of a game read from JSON their places in the text, as the
        reader of text gives them (`pos`): `at(*path)` is the `Pos` of the `{` that opens the
        object at that path inside the game (`"rounds", 0, "tricks", 2`), or None. Called by
        `zfrec.record.jsonpos.Locator.fill` (`Game.locate`) after the generic parts; Zheng
        Fen's hands are those."""

    #: The `$defs` entry of schemas/record.schema.json that checks a game of this kind (the
    #: kind's part of the schema, written there beside Zheng Fen's `game`). A JSON game is
    #: checked by the entry of the kind its `"game"` names (zfrec.record.schema).
    schema_def: str = ""

    # --- the command line -------------------------------------------------------------------

    #: The generic commands whose body the kind supplies, by name: "module:function". The
    #: command line (zfrec.cli) reads the options and calls the body with every option of the
    #: command as keywords (`zfrec.cli.engine_cmds` lists them per command); a body takes the
    #: ones it needs and fails (exit 2) on one given that it does not take.
    commands: ClassVar[Mapping[str, str]] = {}

    #: The options of a generic command that only this game takes, by command: `{"legal":
    #: ("--top", "--physical")}`. Given for another game, the command line refuses them before
    #: that game's body runs ("--top is Zheng Fen's: add --game zhengfen"), rather than give an
    #: answer that ignores them.
    own_options: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    #: What this game says when it refuses another game's option (by the option), in place of
    #: ": add --game NAME": why the option means nothing here, from ": " or "; ".
    refusals: ClassVar[Mapping[str, str]] = {}

    def command(self, name: str) -> Callable[..., None] | None:
        """The kind's body of the command `name` (`classify`, `legal`, `simulate`...), imported
        on first use, or None where the kind has no such command."""
        where = self.commands.get(name)
        if where is None:
            return None
        module, _, attr = where.partition(":")
        body: Callable[..., None] = getattr(importlib.import_module(module), attr)
        return body

    # --- replay and validation --------------------------------------------------------------

    def replay(self, game: Game, **options: Any) -> Iterator[tuple[Any, Any]]:
        """The generic replay stream of the record: `(state, event)` pairs with `HandStart`,
        `MoveStep`, `HandEnd`, `GameEnd` (zfrec.events) or the kind's own subclasses, every
        event carrying its located Diagnostics (`options`: rules, game_number, start, moves).
        """
        raise NotSupported(f"{self.title} records cannot be replayed yet")

    def validate(
        self,
        game: Game,
        rules: Any = None,
        game_number: int | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> Any:
        """The record's validation Report (zfrec.validate.Report): the replay's diagnostics in
        order, with the ledger per hand/round and whether the game is over. `rules` (the
        kind's rules object) re-judges the record under other rules, `overrides` under single
        options changed; `game_number` is the game's number in its file, for locations."""
        raise NotSupported(f"{self.title} records cannot be validated yet")

    def diff_records(self, a: Game, b: Game) -> Any | None:
        """`zfrec diff` of two records of this kind: a report with `same`, `header`, `first`
        (with `where()` and `message`) and `to_json()`; None to use Zheng Fen's comparison."""
        return None

    def diagnostic_codes(self) -> dict[str, str]:
        """The kind's diagnostic codes and their titles (DIAGNOSTICS.md), for lookups."""
        return {}

    #: Whether Zheng Fen's decision analysis (zfrec.games.zhengfen.analysis: `analyze`, `stats`,
    #: the pages' analysis sections) reads this kind's replay; a kind without it gets a plain
    #: NotSupported.
    analysed: bool = False

    def analysis(self, game: Game, *, solve_cards: int = 0, solve_seconds: float = 2.0) -> Any:
        """`zfrec analyze` of a record of this kind by the kind's own analysis: a report with
        `errors`, `hand(n)` (the hand/round numbered n, or None), `to_json(hand=None)` (the
        generic envelope of analyze's JSON, optionally one hand/round) and
        `text_lines(number, hand=None, summary=False)`; `solve_cards` > 0 asks the kind's
        solver for what each play cost. None: Zheng Fen's decision analysis
        (zfrec.games.zhengfen.analysis) reads it."""
        return None

    def audit_record(self, game: Game, *, budget: int = 300) -> Any:
        """`zfrec audit` of a record of this kind by the kind's own audit: a report with
        `legal`, `to_json()` (the generic envelope of audit's JSON) and `text_lines(number)`;
        `budget` bounds the candidate records validated. None: the generic audit."""
        return None

    def audit_section(self, report: Any, heading: str, prefix: str) -> str | None:
        """One game's audit (the report of the kind's `audit_record`) as HTML for the page of
        `zfrec audit --html`: a `<section>` under an `<h2>` saying `heading`, every `id` in it
        starting with `prefix` (the page holds several games), record text escaped. None: the
        kind has no audit page yet (the page then leaves the game out and says so)."""
        return None

    #: The template (zfrec/templates) of the CSS that the kind's audit sections need on the
    #: page of `zfrec audit --html` beyond style.css; empty: none.
    audit_style: str = ""

    # --- the solver -------------------------------------------------------------------------

    #: Whether `solve` is the kind's own solver: `zfrec solve` then takes only the position
    #: (--at), the budget (--max-nodes, --max-seconds) and --json, and refuses Zheng Fen's
    #: --seat, --only-seat and --table (exit 2) rather than ignore them.
    own_solver: bool = False

    def solve(
        self, game: Game, at: str | None, max_nodes: int | None, max_seconds: float | None
    ) -> dict[str, Any] | None:
        """`zfrec solve` of a record of this kind: perfect play from the position `at` names
        (the kind reads it; None: where the record stops), within the budget, as the JSON
        object the command prints; ZfrecError (exit 2) for a record that cannot be solved.
        None: the kind has no solver of its own and the command goes on with Zheng Fen's."""
        return None

    # --- pages and charts -------------------------------------------------------------------

    def render_files(self, game: Game, **options: Any) -> Any | None:
        """The record's rendered files (zfrec.render.gamefiles.RenderedGame), or None while the
        game has no pages; the generic layer then says "pages for <title> records come later"
        (`pages_later`) instead of failing."""
        return None

    #: Whether the site's Players table and standings (games, wins, hands, points per hand,
    #: first out, last: counted from the store's per-hand rows) speak of this kind's games; a
    #: kind's own index leaves them out when not (its `site_section` has its own measures).
    player_table: bool = True

    def site_section(
        self, games: Sequence[tuple[int, dict[str, Any]]], player_hrefs: dict[str, str]
    ) -> Any:
        """The site's section on this kind's games, from what `render_files` kept of each for
        it (`GameMeta.facts`; (game id, facts) pairs): a `zfrec.render.site.KindSection` (the
        index's part, and each player's), or None (nothing beyond the generic tables)."""
        return None

    def shared_files(self) -> list[Any]:
        """Files (zfrec.render.gamefiles.OutputFile) the kind's pages link to that a published
        site, or a `zfrec render` directory, holds once beside the games: Zheng Fen's
        single-file hand viewer (viewer.html). The site and `render` write every kind's, so
        what they hold does not depend on which games are in them."""
        return []

    def pages_later(self) -> str:
        """The message the site and `render` give for a kind without pages."""
        return f"pages for {self.title} records come later"

    # --- the store --------------------------------------------------------------------------

    def store_rows(
        self, source: str | None, number: int, text: str, game: Game, report: Any
    ) -> Any:
        """The rows the game writes to the store (zfrec.store.rows.Rows): the core's game,
        seats and diagnostics rows, plus the kind's own per hand/round rows."""
        raise NotSupported(f"{self.title} records cannot be stored yet")

    def stored_rounds(self, conn: Any, game_id: int, players: Sequence[str]) -> Any | None:
        """What `zfrec show` lists of a stored game of this kind, read from the kind's own rows
        on the connection `conn`: an object with `title` (the JSON key), `columns` and `rows()`
        (the text table's cells) and `to_json()`; None: the store core's hand rows (Zheng
        Fen's)."""
        return None

    def store_stats(
        self, session: Any, *, player: str | None = None, valid_only: bool = False
    ) -> Any | None:
        """Per player statistics of the stored games of this kind from its own rows: an object
        with `title`, `columns`, `rows()`, `note` and `to_json()` (a list); None: the store
        core's `player_stats` (Zheng Fen's)."""
        return None

    def diagnostics_of(self, report: Any) -> list[Diagnostic]:
        """The diagnostics of a Report (the store writes them to its core table)."""
        return list(report.diagnostics)

    # --- the live table (zfrec serve, LIVE.md) ---------------------------------------------

    #: The fields an entry of this kind may carry beyond `seat`, `play`, `shuffler`, `deals`
    #: (the web app passes them on to `live_game`'s `enter` and `start_hand`).
    live_fields: tuple[str, ...] = ()
    #: The template of a live table's page (zfrec/templates); None: the kind has no live table.
    live_page: str | None = None
    #: Whether the live server draws a round's replay page (/t/{id}/replay/N, /watch) with
    #: the published pages' renderer (`live_hand_page`); without it those pages answer 404
    #: with `pages_later()`.
    live_replay: bool = False
    #: The New table form's rules menu for this game: (preset, label) pairs in the order
    #: offered (empty: the form offers the game none).
    live_presets: tuple[tuple[str, str], ...] = ()
    #: The New table form's fields the game takes beyond the players, event and date
    #: ("target"; "options": the self-overplay, jokers and sequence menus).
    live_form_fields: tuple[str, ...] = ()
    #: The label of the game's group in that menu (the title when empty).
    live_label: str = ""
    #: Whether the live game takes marks and corrections (`Table.mark`, `Table.edit`): its
    #: live game is then a `zfrec.live.entries.EditableGame`.
    live_edits: bool = False

    def live_rules(
        self, players: Sequence[str], preset: str | None, options: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """A new live table's preset and overridden options (RulesError if they do not fit the
        players). `options` holds `target` where it is one of the kind's rule options
        (`option_order`); the table stores a `target` returned among the options apart."""
        raise NotSupported(f"live tables for {self.title} records come later")

    def live_game(
        self, header: Game, entries: Sequence[Any], version: int, errors: tuple[type, type]
    ) -> Any:
        """The game a live table holds in memory, made from its stored entries: a
        `zfrec.live.entries.HeldGame` (`header`, `entries`, `version`, `views`, `inferred`,
        `record()`, `forget_moves()`, `start_hand(seat, deals, **fields)`,
        `enter(seat, play, **fields)` and `undo()`); a refusal raises `errors[0]` (422) or
        `errors[1]` (409) with a code and a message."""
        raise NotSupported(f"live tables for {self.title} records come later")

    def live_state(
        self, table_id: str, live: Any, viewer: int | None, since: int
    ) -> dict[str, Any]:
        """The JSON state of a live table of this kind (LIVE.md); `viewer` (1-based) hides the
        other seats' cards."""
        raise NotSupported(f"live tables for {self.title} records come later")

    def live_hand_page(self, record: Game, number: int, seat: int | None) -> str | None:
        """The replay page of hand/round `number` of a live table's record, as the published
        pages draw it (`seat`, 1-based, sees only its own cards; its links keep `?seat=`), or
        None if that hand has not started. Asked only where `live_replay` is set."""
        return None

    def __repr__(self) -> str:
        return f"find_kind({self.name!r})"


class NotSupported(ZfrecError):
    """A generic layer asked a kind for something it does not supply yet (a plain message)."""
