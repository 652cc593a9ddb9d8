"""Sheng ji rules: the presets `bashifen` (default), `dabaifen` and `zhaopengyou`, and the
options RULINGS-SHENGJI names: `kitty_multiplier`, `throw_penalty`, `no_bid`, `must_defend`
(and the table's `players` and `decks`).

    >>> r = sj_preset("dabaifen")
    >>> r.decks, r.players, r.kitty, r.swap_at
    (1, 4, 6, 40)
    >>> r = sj_preset("zhaopengyou", players=6)
    >>> r.decks, r.kitty, r.friends, sj_preset("zhaopengyou", players=7).decks
    (2, 6, 2, 3)
    >>> sj_preset("bashifen", must_defend="5,10,K,A").must_defend
    (5, 10, 13, 14)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from zfrec.errors import RulesError, preset_hint

__all__ = [
    "LEVEL_TEXT",
    "OPTION_NAMES",
    "PRESETS",
    "SjRules",
    "level_text",
    "parse_level",
    "parse_sj_option",
    "sj_preset",
]

PRESETS = ("bashifen", "dabaifen", "zhaopengyou")
OPTION_NAMES = (
    "kitty_multiplier", "throw_penalty", "no_bid", "must_defend", "players", "decks",
)  # fmt: skip
# Levels are 2..14 (2..10, J, Q, K, A), a team's rank (ruling 14).
LEVEL_TEXT = {**{v: str(v) for v in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
_LEVEL_OF = {t: v for v, t in LEVEL_TEXT.items()} | {"T": 10}


def level_text(level: int) -> str:
    """`2`..`10`, `J`, `Q`, `K`, `A`."""
    return LEVEL_TEXT[level]


def parse_level(text: str) -> int:
    """A level written `2`..`10` (or `T`), `J`, `Q`, `K`, `A`; also in full-width (`４`), as
    Chinese input methods type it."""
    plain = text if text.isascii() else unicodedata.normalize("NFKC", text)
    level = _LEVEL_OF.get(plain.strip().upper())
    if level is None:
        raise RulesError(f"unknown level {text!r}: levels are 2 to 10, J, Q, K, A")
    return level


def level_rank(level: int) -> int:
    """A level (2..14) to Zheng Fen's rank index of that rank (0..12 for 3..2)."""
    return 12 if level == 2 else level - 3


@dataclass(frozen=True, slots=True)
class SjRules:
    """The rules of a Sheng ji match. Hashable.

    `kitty` is the number of cards left over from the draw; `friends` how many friends the
    dealer calls (zhao pengyou, ruling 16; 0 with fixed partners); `swap_at` the opponents'
    points at which the teams swap (40 per deck) and `step` the points per level (20 per deck).
    `must_defend` the levels a team must win as declarers to pass (ruling 14), ascending.
    """

    preset: str = "bashifen"
    players: int = 4
    decks: int = 2
    kitty_multiplier: str = "power"
    throw_penalty: int = 0
    no_bid: str = "first_card"
    must_defend: tuple[int, ...] = (14,)

    @property
    def kitty(self) -> int:
        """Cards left over from the draw: the deck's size mod players, at least 5 (ruling 11;
        4 players: 8 with two decks, 6 with one)."""
        total = 54 * self.decks
        if self.players == 4:
            return 8 if self.decks == 2 else 6 if self.decks == 1 else total % 4 + 8
        k = total % self.players
        while k < 5:
            k += self.players
        return k

    @property
    def hand_size(self) -> int:
        """Cards each player draws."""
        return (54 * self.decks - self.kitty) // self.players

    @property
    def friends(self) -> int:
        """Cards the dealer calls in zhao pengyou (half the table less one, rounded down)."""
        return self.players // 2 - 1 if self.preset == "zhaopengyou" else 0

    @property
    def fixed_partners(self) -> bool:
        """Seats 1 and 3 against 2 and 4 (bashi fen, da bai fen)."""
        return self.preset != "zhaopengyou"

    @property
    def step(self) -> int:
        """Opponents' points per level (ruling 12: 40 with two decks; 13: 20 with one)."""
        return 20 * self.decks

    @property
    def swap_at(self) -> int:
        """Opponents' points at which the teams swap: 40 per deck."""
        return 40 * self.decks

    def options(self) -> dict[str, Any]:
        """The options as `--option` writes them."""
        return {
            "kitty_multiplier": self.kitty_multiplier,
            "throw_penalty": self.throw_penalty,
            "no_bid": self.no_bid,
            "must_defend": ",".join(level_text(v) for v in self.must_defend) or "none",
            "players": self.players,
            "decks": self.decks,
        }

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset's."""
        base = sj_preset(self.preset).options()
        return {k: v for k, v in self.options().items() if base[k] != v}


def _check(rules: SjRules) -> SjRules:
    if rules.kitty_multiplier not in ("power", "linear"):
        raise RulesError(f"kitty_multiplier is power or linear, not {rules.kitty_multiplier!r}")
    if rules.no_bid not in ("first_card", "rank_or_highest"):
        raise RulesError(f"no_bid is first_card or rank_or_highest, not {rules.no_bid!r}")
    if rules.throw_penalty < 0:
        raise RulesError("throw_penalty is a number of points per card, 0 or more")
    if not 1 <= rules.decks <= 3:
        raise RulesError(f"Sheng ji is played with 1 to 3 decks here, not {rules.decks}")
    if rules.fixed_partners and rules.players != 4:
        raise RulesError(f"{rules.preset} is for 4 players; zhaopengyou takes 5 to 8")
    if not rules.fixed_partners and not 5 <= rules.players <= 8:
        raise RulesError(f"zhaopengyou takes 5 to 8 players, not {rules.players}")
    if rules.hand_size < 1:
        raise RulesError(f"{rules.decks} deck(s) are too few for {rules.players} players")
    return rules


def parse_sj_option(text: str) -> tuple[str, Any]:
    """`name=value` from the command line, typed; RulesError for an unknown name or value."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep:
        raise RulesError(f"Sheng ji option {text!r} should look like name=value")
    if name not in OPTION_NAMES:
        raise RulesError(
            f"unknown Sheng ji option {name!r}: options are " + ", ".join(OPTION_NAMES)
        )
    if name in ("throw_penalty", "players", "decks"):
        try:
            return name, int(value)
        except ValueError:
            raise RulesError(f"{name} takes a whole number, not {value!r}") from None
    if name == "must_defend":
        if value.lower() == "none":
            return name, ()
        return name, tuple(sorted({parse_level(v) for v in value.split(",")}))
    return name, value


def sj_preset(name: str = "bashifen", **options: Any) -> SjRules:
    """A preset with options changed; RulesError for an unknown preset, option or value."""
    if name not in PRESETS:
        raise RulesError(f"unknown Sheng ji preset {name!r}: presets are {', '.join(PRESETS)}"
                         + preset_hint(name, list(PRESETS)))  # fmt: skip
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise RulesError(f"unknown Sheng ji option {', '.join(unknown)}")
    options = {  # values written as on the command line are read as there
        k: parse_sj_option(f"{k}={v}")[1] if isinstance(v, str) else v for k, v in options.items()
    }
    if name == "dabaifen":
        base = SjRules(name, decks=1)
    elif name == "zhaopengyou":
        players = int(options.get("players", 5))
        base = SjRules(name, players=players, decks=3 if players >= 7 else 2)
    else:
        base = SjRules(name)
    return _check(replace(base, **options))
