"""Zheng Fen (挣分) as a game kind: the first kind, and the default of a record with no `[Game]`.

The hooks of `GameKind` (zfrec.games) point at the Zheng Fen parts of zfrec. Most live in this
package; a few still stand where they stood before there were two games (ARCHITECTURE.md, "Where
Zheng Fen lives", maps what moved):

    engine/         cards, combos, rules, movegen, the hand (hand) and game (game) states
    notation        its body reader (hand, deal, trick and score statements); zfn_hand, one
                    hand's lines; hand JSON is still zfrec.record.jsonio's
    records         still zfrec.record.model (Hand, Trick, Move, SeatDeal, HandScore)
    replayer        replayer, ledger, validator (Validator, HandLedger)
    rows            its hand, hand_seat and play rows
    simulate        self-play; solve, solver, solver_keys: the hindsight solver
    cli             its bodies of classify, beats, legal and simulate (GameKind.command)
    live, livestate its live judge (the table's game in memory) and the table's JSON state
    pages/          its pages: views and html (the view-models and the builder from the
                    replay stream), charts (its chart models), analysis (the analyser's marks
                    and the audit page), disputes, viewer (the single-file hand viewer), files
                    (`render_files`); on the generic engine of zfrec.render

The hooks import them lazily, so the registry can name the kind without loading them.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from zfrec.games import DEFAULT_KIND, GameKind

if TYPE_CHECKING:
    from zfrec.games.zhengfen.engine.rules import Ruleset
    from zfrec.games.zhengfen.live import LiveGame
    from zfrec.games.zhengfen.notation import ZhengFenBody
    from zfrec.record.model import Game, RuleValue
    from zfrec.record.problems import ReadProblem
    from zfrec.record.seatrefs import Seats
    from zfrec.render.gamefiles import OutputFile, RenderedGame
    from zfrec.store.rows import Rows
    from zfrec.validate import Report


class ZhengFenKind(GameKind):
    """Zheng Fen: 3 to 6 players, one 54-card deck, climbing combinations, first and last."""

    name = DEFAULT_KIND
    title = "Zheng Fen"
    unit = "hand"
    default_target = 500
    schema_def = "game"
    analysed = True
    commands: ClassVar[Mapping[str, str]] = {
        name: f"zfrec.games.zhengfen.cli:{name}_body"
        for name in ("classify", "beats", "legal", "simulate")
    }  # the generic commands' bodies (GameKind.command): zfrec.games.zhengfen.cli
    own_options: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "legal": ("--top", "--physical"),
        "simulate": ("--hands-per-game",),
        "solve": ("--seat", "--only-seat", "--table"),  # a record of another game: refused
    }  # refused for another game's command (GameKind.own_options)

    def __init__(self) -> None:
        self._parts: dict[str, Any] = {}

    def _part(self, module: str, name: str) -> Any:
        """`module.name`, imported once. Not an import inside each hook: an import statement
        costs the import system's look-up on every call (an AttributeError raised and caught
        inside it, callgrind shows), and these hooks run once a game or more."""
        found = self._parts.get(name)
        if found is None:
            found = self._parts[name] = getattr(importlib.import_module(module), name)
        return found

    @property
    def presets(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self._part("zfrec.games.zhengfen.engine.rules", "PRESETS"))

    @property
    def default_preset(self) -> str:
        return "pagat"

    def judging_rules(
        self, preset: str | None, options: Sequence[str]
    ) -> tuple[Any, dict[str, Any]]:
        """`validate --rules/--option` for a Zheng Fen record: a Ruleset and the options."""
        rules = "zfrec.games.zhengfen.engine.rules"
        overrides = dict(self._part(rules, "parse_option")(o) for o in options)
        judged = self._part(rules, "preset")(preset, **overrides) if preset else None
        return judged, overrides

    def parse_option(self, word: str) -> tuple[str, RuleValue]:
        parsed: tuple[str, RuleValue] = self._part(
            "zfrec.games.zhengfen.engine.rules", "parse_option"
        )(word)
        return parsed

    def check_rules(self, preset: str, options: dict[str, RuleValue]) -> None:
        self._part("zfrec.games.zhengfen.engine.rules", "preset")(preset, **options)

    def option_order(self) -> Sequence[str]:
        names: Sequence[str] = self._part("zfrec.games.zhengfen.engine.rules", "OPTION_NAMES")
        return names

    def ruleset(self, game: Game) -> Ruleset:
        make = self._part("zfrec.games.zhengfen.engine.rules", "preset")
        rules: Ruleset = make(game.preset, **{**game.options, "target": game.target})
        return rules

    def parse_cards(self, text: str) -> int:
        return int(self._part("zfrec.games.zhengfen.engine.cards", "parse_cards")(text))

    def format_cards(self, cards: int) -> str:
        return str(self._part("zfrec.games.zhengfen.engine.cards", "format_cards")(cards))

    def body_reader(
        self,
        seats: Seats,
        problems: list[ReadProblem] | None,
        preset: str | None = None,
        options: dict[str, RuleValue] | None = None,
    ) -> ZhengFenBody:
        body: ZhengFenBody = self._part("zfrec.games.zhengfen.notation", "ZhengFenBody")(
            seats, problems
        )
        return body

    def body_lines(self, game: Game) -> Iterator[str]:
        hand_lines = self._part("zfrec.record.text", "hand_lines")
        for hand in game.hands:
            yield ""
            yield from hand_lines(hand)

    def body_to_json(self, game: Game, out: dict[str, Any], flat: bool) -> None:
        hand_to_json = self._part("zfrec.record.jsonio", "hand_to_json")
        out["hands"] = [hand_to_json(hand, i, flat) for i, hand in enumerate(game.hands)]

    def body_from_json(self, data: dict[str, Any], game: Game, reader: Any) -> None:
        game.hands = [reader.hand(h, ("hands", i)) for i, h in enumerate(data["hands"])]

    def replay(self, game: Game, **options: Any) -> Iterator[tuple[Any, Any]]:
        stream: Iterator[tuple[Any, Any]] = self._part(
            "zfrec.games.zhengfen.replayer", "replay_zhengfen"
        )(game, **options)
        return stream

    def validate(
        self,
        game: Game,
        rules: Any = None,
        game_number: int | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> Report:
        report: Report = self._part("zfrec.games.zhengfen.validator", "validate_zhengfen")(
            game, rules, game_number, overrides
        )
        return report

    def render_files(self, game: Game, **options: Any) -> RenderedGame:
        made: RenderedGame = self._part(
            "zfrec.games.zhengfen.pages.files", "render_zhengfen_files"
        )(game, **options)
        return made

    def shared_files(self) -> list[OutputFile]:
        # viewer.html: every hand page's "open in the viewer" link points at it
        render_viewer = self._part("zfrec.games.zhengfen.pages.viewer", "render_viewer")
        output_file = self._part("zfrec.render.gamefiles", "OutputFile")
        page: str = self._part("zfrec.render.gamefiles", "VIEWER_PAGE")
        return [output_file(page, render_viewer().encode())]

    def store_rows(
        self, source: str | None, number: int, text: str, game: Game, report: Any
    ) -> Rows:
        rows: Rows = self._part("zfrec.games.zhengfen.rows", "zhengfen_rows")(
            source, number, text, game, report
        )
        return rows

    # the live table: zfrec.games.zhengfen.live (the judge), livestate (its JSON state) ------------

    live_page = "live_table.html.j2"
    live_presets = (
        ("pagat", "pagat"),
        ("poppel", "poppel (self-overplay)"),
        ("parlett", "parlett (jokers not wild)"),
    )
    live_form_fields = ("target", "options")
    live_replay = True
    live_edits = True

    def live_rules(
        self, players: Sequence[str], preset: str | None, options: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        made: tuple[str, dict[str, Any]] = self._part(
            "zfrec.games.zhengfen.livestate", "check_table"
        )(players, preset, options)
        return made

    def live_game(
        self, header: Game, entries: Sequence[Any], version: int, errors: tuple[type, type]
    ) -> LiveGame:
        # Zheng Fen's judge raises the live layer's EntryRefused and Conflict itself.
        made: LiveGame = self._part("zfrec.games.zhengfen.live", "LiveGame")(
            header, list(entries), version
        )
        return made

    def live_state(
        self, table_id: str, live: Any, viewer: int | None, since: int
    ) -> dict[str, Any]:
        state: dict[str, Any] = self._part("zfrec.games.zhengfen.livestate", "state_json")(
            table_id, live, viewer=viewer, since=since
        )
        return state

    def live_hand_page(self, record: Game, number: int, seat: int | None) -> str | None:
        page: str | None = self._part("zfrec.games.zhengfen.livestate", "hand_page")(
            record, number, seat
        )
        return page


KIND = ZhengFenKind()
