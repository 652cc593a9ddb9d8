"""Sheng ji (升级) as a game kind (zfrec.games.GameKind): what the generic layers ask of it.

Wired here: the rules and presets (`zfrec.games.shengji.rules`), the cards (packed multisets,
`zfrec.games.shengji.cards`), the .zfn round statements (`SjBody` reads them, `round_lines`
writes them: zfrec.games.shengji.zfn and .notation) and the JSON part (`round_to_json`,
`rounds_from_json`; the schema's `shengji_game` entry). A generic `Game` of this kind holds
its `SjRound`s in `Game.rounds`; `match_of(game)` gives the same record as an `SjMatch` (the
header with Sheng ji's result of final levels), which the validator and `diff` take.
Its validator is `zfrec.games.shengji.replayer`, its store rows `.rows`; the pages, charts and
the site's statistics are in `zfrec.games.shengji.pages` (`render_files`).

    >>> from zfrec.games.shengji.records import SjMatch, SjRound
    >>> m = SjMatch(["A", "B", "C", "D"], rounds=[SjRound(1, 0, 2, "nt")])
    >>> list(KIND.body_lines(m))
    ['', 'round 1 dealer 1 rank 2 notrump']
    >>> KIND.format_cards(KIND.parse_cards("7h 7h BJ")), KIND.parse_option("must_defend=5,10")
    ('7h 7h BJ', ('must_defend', '5,10'))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from zfrec.errors import RulesError
from zfrec.games import GameKind
from zfrec.games.shengji.cards import MAX_DECKS, format_hand, parse_hand
from zfrec.games.shengji.records import MAX_PLAYERS, MIN_PLAYERS, SjMatch, SjMatchResult
from zfrec.games.shengji.rules import (
    LEVEL_TEXT,
    OPTION_NAMES,
    PRESETS,
    SjRules,
    level_text,
    parse_level,
    parse_sj_option,
    sj_preset,
)

if TYPE_CHECKING:
    from zfrec.games.shengji.zfn import SjBody
    from zfrec.record.model import RuleValue
    from zfrec.record.problems import ReadProblem
    from zfrec.record.seatrefs import Seats

__all__ = ["KIND", "ShengjiKind", "match_of"]


class ShengjiKind(GameKind):
    """Sheng ji: four to eight players, in fixed or called teams, one to three decks, levels."""

    name = "shengji"
    title = "Sheng ji"
    unit = "round"
    presets = PRESETS
    default_target = None
    schema_def = "shengji_game"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    result_word = "level"  # [Result "A 4 A 4 winners 1, 3"]: each seat's final level
    commands: ClassVar[Mapping[str, str]] = {
        name: f"zfrec.games.shengji.commands:{name}"
        for name in ("classify", "legal", "trick", "throw", "score", "simulate")
    }  # the generic commands' bodies (GameKind.command): zfrec.games.shengji.commands
    own_options: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "classify": ("--trump", "--decks"),
        "legal": ("--lead", "--play", "--trump", "--decks", "--limit"),
        "simulate": ("--decks",),
    }  # refused for another game's command (GameKind.own_options)
    refusals: ClassVar[Mapping[str, str]] = {
        "--top": "; Sheng ji follows a --lead",
        "--physical": ": Sheng ji lists every play as its cards already",
        "--hands-per-game": ": a Sheng ji match is played until a team wins",
        **dict.fromkeys(
            ("--seat", "--only-seat", "--table"),
            ": a Sheng ji solve takes --at, --max-nodes, --max-seconds and --json",
        ),  # Zheng Fen's solve's (both teams play perfectly; the solver sizes its own table)
    }  # why another game's option means nothing here (GameKind.refusals)

    def result_score(self, word: str) -> int | None:
        """A final level of `[Result]` (`2`..`10`, `J`, `Q`, `K`, `A`) as 2..14, or None."""
        try:
            return parse_level(word)
        except RulesError:
            return None

    def result_score_text(self, value: int) -> str:
        return level_text(value) if value in LEVEL_TEXT else str(value)

    # rules -------------------------------------------------------------------------------------

    def parse_option(self, word: str) -> tuple[str, Any]:
        """`name=value` of `[Rules]`, in its canonical spelling (`must_defend=5,10,K,A`)."""
        name, _ = parse_sj_option(word)
        value: Any = sj_preset(**{name: word.partition("=")[2].strip()}).options()[name]
        return name, value

    def check_rules(self, preset: str, options: dict[str, Any]) -> None:
        sj_preset(preset, **options)

    def option_order(self) -> Sequence[str]:
        return OPTION_NAMES

    def judging_rules(
        self, preset: str | None, options: Sequence[str]
    ) -> tuple[SjRules | None, dict[str, Any]]:
        """`validate --rules/--option` for a Sheng ji record: SjRules and the options."""
        overrides = dict(parse_sj_option(o) for o in options)
        return (sj_preset(preset, **overrides) if preset else None), overrides

    def ruleset(self, game: Any) -> SjRules:
        """The record's SjRules; zhao pengyou takes one seat per player named."""
        extra: dict[str, Any] = {}
        if game.preset == "zhaopengyou" and "players" not in game.options:
            extra["players"] = len(game.players)
        return sj_preset(game.preset, **{**extra, **game.options})

    # cards -------------------------------------------------------------------------------------

    def parse_cards(self, text: str) -> int:
        """Cards as a packed multiset (up to three copies of a card)."""
        return parse_hand(text, MAX_DECKS)

    def format_cards(self, cards: int) -> str:
        return format_hand(cards)

    # the .zfn notation and JSON ----------------------------------------------------------------

    def body_reader(
        self,
        seats: Seats,
        problems: list[ReadProblem] | None,
        preset: str | None = None,
        options: dict[str, RuleValue] | None = None,
    ) -> SjBody:
        from zfrec.games.shengji.zfn import SjBody

        return SjBody(seats, problems, preset, options)

    def body_lines(self, game: Any) -> Iterator[str]:
        from zfrec.games.shengji.notation import round_lines

        for r in game.rounds:
            yield ""
            yield from round_lines(r)

    def body_text(self, game: Any, at: int) -> str | None:
        from zfrec.games.shengji.notation import round_lines

        if not 0 <= at < len(game.rounds):
            return None
        return "\n".join(round_lines(game.rounds[at]))

    def body_to_json(self, game: Any, out: dict[str, Any], flat: bool) -> None:
        from zfrec.games.shengji.jsonpart import round_to_json

        out["rounds"] = [round_to_json(r, flat) for r in game.rounds]

    def body_from_json(self, data: dict[str, Any], game: Any, reader: Any) -> None:
        from zfrec.games.shengji.jsonpart import rounds_from_json

        at = getattr(reader, "at", ())
        problems = getattr(reader, "problems", None)  # a recovering reader's
        source = getattr(reader, "source", None)
        game.rounds = rounds_from_json(data, game.players, source, at, problems)

    def validate(
        self,
        game: Any,
        rules: Any = None,
        game_number: int | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> Any:
        """The Sheng ji validator's report (zfrec.games.shengji.replayer, DIAGNOSTICS.md)."""
        from zfrec.games.shengji.replayer import validate_match

        match = match_of(game)
        if overrides and rules is None:  # given rules have the options already
            rules = sj_preset(match.preset, **{**match.options, **overrides})
        report = validate_match(match, game_number, rules)
        if report.diagnostics and _located(game):  # a JSON record: judged again, placed
            report = validate_match(match_of(game), game_number, rules)
        return report

    def locate_json(self, game: Any, at: Any) -> None:
        """The rounds' places in a JSON record's text (zfrec.games.shengji.jsonpart)."""
        from zfrec.games.shengji.jsonpart import locate_rounds

        locate_rounds(game.rounds, at)

    def store_rows(self, source: str | None, number: int, text: str, game: Any, report: Any) -> Any:
        """The match's rows: the core's, and its rounds, round seats and plays
        (zfrec.games.shengji.rows, STORE.md)."""
        from zfrec.games.shengji.rows import shengji_rows

        return shengji_rows(source, number, text, game, report)

    def stored_rounds(self, conn: Any, game_id: int, players: Sequence[str]) -> Any:
        """A stored match's rounds for `zfrec show` (zfrec.games.shengji.stored)."""
        from zfrec.games.shengji.stored import stored_rounds

        return stored_rounds(conn, game_id, players)

    def store_stats(
        self, session: Any, *, player: str | None = None, valid_only: bool = False
    ) -> Any:
        """`zfrec stats` of the stored matches (zfrec.games.shengji.stored)."""
        from zfrec.games.shengji.stored import sj_stats

        return sj_stats(session, player=player, valid_only=valid_only)

    def diagnostic_codes(self) -> dict[str, str]:
        """The SJ codes and their titles."""
        from zfrec.diagnostics import CODES

        return {c: info.title for c, info in CODES.items() if c.startswith("SJ")}

    def analysis(self, game: Any, *, solve_cards: int = 0, solve_seconds: float = 2.0) -> Any:
        """Marks per play and the kitty's judgement (zfrec.games.shengji.analysis)."""
        from zfrec.games.shengji.analysis import analyze_match

        return analyze_match(game, solve_cards=solve_cards, solve_seconds=solve_seconds)

    def audit_record(self, game: Any, *, budget: int = 300) -> Any:
        """Disputed versions judged, rules searched, repairs (zfrec.games.shengji.audit)."""
        from zfrec.games.shengji.audit import audit_match

        _located(game)  # a JSON record's findings and repairs are placed by line, as text's
        return audit_match(game, budget=budget)

    def audit_section(self, report: Any, heading: str, prefix: str) -> str:
        """The audit as a section of `zfrec audit --html`'s page (zfrec.games.shengji.auditpage)."""
        from zfrec.games.shengji.auditpage import audit_section, audit_view

        return audit_section(audit_view(report, prefix=prefix), heading)

    audit_style = "sj_audit.css"

    own_solver = True

    def solve(
        self, game: Any, at: str | None, max_nodes: int | None, max_seconds: float | None
    ) -> dict[str, Any]:
        """The double-dummy solve (zfrec.games.shengji.solverecord, ANALYSIS.md)."""
        from zfrec.games.shengji.solverecord import solve_json

        return solve_json(game, at, max_nodes, max_seconds)

    def diff_records(self, a: Any, b: Any) -> Any:
        """Where two records of one match first part (zfrec.games.shengji.diff)."""
        from zfrec.games.shengji.diff import diff_sj

        return diff_sj(match_of(a), match_of(b))

    # pages and the site ------------------------------------------------------------------------

    def render_files(self, game: Any, **options: Any) -> Any:
        """The match's pages, one replay per round, the charts (zfrec.games.shengji.pages)."""
        from zfrec.games.shengji.pages import render_shengji_files

        return render_shengji_files(match_of(game), **options)

    player_table = False  # Sheng ji's measures are its own section's (stats.py)

    def site_section(
        self, games: Sequence[tuple[int, dict[str, Any]]], player_hrefs: dict[str, str]
    ) -> Any:
        """The site's Sheng ji statistics: per player and per partnership (stats.py)."""
        from zfrec.games.shengji.sitepart import site_section

        return site_section(games, player_hrefs)

    # the live table ----------------------------------------------------------------------------

    live_fields = ("dealer", "trump", "kitty", "bid", "discard", "calls", "blocked_by", "shows")
    live_page = "live_table_sj.html.j2"  # with sj-live-table.js
    live_presets = (
        ("bashifen", "bashifen (4 players, 2 decks)"),
        ("dabaifen", "dabaifen (4 players, 1 deck)"),
        ("zhaopengyou", "zhaopengyou (5 to 8 players)"),
    )
    live_label = "Sheng ji 升级"
    live_replay = False  # the round's replay page comes with Sheng ji's pages

    def live_rules(
        self, players: Sequence[str], preset: str | None, options: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        from zfrec.games.shengji.live import check_table

        rules = check_table(players, preset or self.default_preset, options)
        return rules.preset, {k: v for k, v in rules.overrides().items() if k != "players"}

    def live_game(
        self, header: Any, entries: Sequence[Any], version: int, errors: tuple[type, type]
    ) -> Any:
        from zfrec.games.shengji.live import SjLive

        return SjLive(header, entries, version, errors)

    def live_state(
        self, table_id: str, live: Any, viewer: int | None, since: int
    ) -> dict[str, Any]:
        from zfrec.games.shengji.livestate import sj_live_state

        return sj_live_state(table_id, live, viewer=viewer, since=since)


KIND = ShengjiKind()


def _located(game: Any) -> bool:
    """Give a record read from JSON for validation the places of its parts in the text
    (`Game.locate`, zfrec.record.jsonpos), once; whether it did. Found only for a record
    with findings: it costs a second pass over the text."""
    locate = getattr(game, "locate", None)
    if locate is None:
        return False
    game.locate = None
    locate(game)
    return True


def match_of(game: Any) -> SjMatch:
    """A generic record of this kind (`Game` with `kind == "shengji"`) as an `SjMatch`; an
    `SjMatch` is returned as it is. The generic `Result`'s scores are the final levels."""
    if isinstance(game, SjMatch):
        return game
    result = None
    if game.result is not None:
        result = SjMatchResult(tuple(game.result.scores), tuple(game.result.winners),
                               game.result.pos)  # fmt: skip
    return SjMatch(
        list(game.players), event=game.event, site=game.site, date=game.date,
        extra_tags=list(game.extra_tags), preset=game.preset, options=dict(game.options),
        result=result, rounds=list(game.rounds), comments=list(game.comments), pos=game.pos,
        source=game.source, problems=list(game.problems), date_pos=game.date_pos,
        empty_rules_pos=game.empty_rules_pos, name_marks=list(game.name_marks),
    )  # fmt: skip
