"""Zheng Fen (挣分) as a game kind: the first kind, and the default of a record with no `[Game]`.

The hooks of `GameKind` (zfrec.games) point at the Zheng Fen parts of zfrec. Those parts still
stand where they stood before there were two games (ARCHITECTURE.md, "Where Zheng Fen lives"):

    engine          zfrec.engine (cards, combos, rules, the hand and game states)
    hand statements zfrec.record.zfn_body, zfrec.record.zfn_hand (.zfn), zfrec.record.jsonio (JSON)
    records         zfrec.record.model (Hand, Trick, Move, SeatDeal, HandScore)
    replayer        zfrec.replay (inferred passes, the deal rebuild), zfrec.validate (the ledger)
    view, charts    zfrec.render (views, charts, html, analysis)
    store rows      zfrec.store.rows (hand, hand_seat and play rows)

This package imports them lazily, so the registry can name the kind without loading them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from zfrec.games import DEFAULT_KIND, GameKind

if TYPE_CHECKING:
    from zfrec.engine.rules import Ruleset
    from zfrec.record.model import Game, RuleValue
    from zfrec.record.problems import ReadProblem
    from zfrec.record.seatrefs import Seats
    from zfrec.record.zfn_body import ZhengFenBody
    from zfrec.render.gamefiles import RenderedGame
    from zfrec.store.rows import Rows
    from zfrec.validate import Report


class ZhengFenKind(GameKind):
    """Zheng Fen: 3 to 6 players, one 54-card deck, climbing combinations, first and last."""

    name = DEFAULT_KIND
    title = "Zheng Fen"
    unit = "hand"
    default_target = 500
    schema_def = "game"

    @property
    def presets(self) -> tuple[str, ...]:  # type: ignore[override]
        from zfrec.engine.rules import PRESETS

        return tuple(PRESETS)

    @property
    def default_preset(self) -> str:
        return "pagat"

    def parse_option(self, word: str) -> tuple[str, RuleValue]:
        from zfrec.engine.rules import parse_option

        return parse_option(word)

    def check_rules(self, preset: str, options: dict[str, RuleValue]) -> None:
        from zfrec.engine.rules import preset as make

        make(preset, **options)

    def option_order(self) -> Sequence[str]:
        from zfrec.engine.rules import OPTION_NAMES

        return OPTION_NAMES

    def ruleset(self, game: Game) -> Ruleset:
        from zfrec.engine.rules import preset

        return preset(game.preset, **{**game.options, "target": game.target})

    def parse_cards(self, text: str) -> int:
        from zfrec.engine.cards import parse_cards

        return int(parse_cards(text))

    def format_cards(self, cards: int) -> str:
        from zfrec.engine.cards import format_cards

        return format_cards(cards)

    def body_reader(self, seats: Seats, problems: list[ReadProblem] | None) -> ZhengFenBody:
        from zfrec.record.zfn_body import ZhengFenBody

        return ZhengFenBody(seats, problems)

    def body_lines(self, game: Game) -> Iterator[str]:
        from zfrec.record.text import hand_lines

        for hand in game.hands:
            yield ""
            yield from hand_lines(hand)

    def body_to_json(self, game: Game, out: dict[str, Any], flat: bool) -> None:
        from zfrec.record.jsonio import hand_to_json

        out["hands"] = [hand_to_json(hand, i, flat) for i, hand in enumerate(game.hands)]

    def body_from_json(self, data: dict[str, Any], game: Game, reader: Any) -> None:
        game.hands = [reader.hand(h, ("hands", i)) for i, h in enumerate(data["hands"])]

    def replay(self, game: Game, **options: Any) -> Iterator[tuple[Any, Any]]:
        from zfrec.replay import replay_zhengfen

        return replay_zhengfen(game, **options)

    def validate(
        self,
        game: Game,
        rules: Any = None,
        game_number: int | None = None,
        overrides: dict[str, Any] | None = None,
    ) -> Report:
        from zfrec.validate import validate_zhengfen

        return validate_zhengfen(game, rules, game_number, overrides)

    def render_files(self, game: Game, **options: Any) -> RenderedGame:
        from zfrec.render.gamefiles import render_zhengfen_files

        return render_zhengfen_files(game, **options)

    def store_rows(
        self, source: str | None, number: int, text: str, game: Game, report: Any
    ) -> Rows:
        from zfrec.store.rows import zhengfen_rows

        return zhengfen_rows(source, number, text, game, report)


KIND = ZhengFenKind()
