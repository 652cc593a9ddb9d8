"""Rulesets: the three presets and the single options that change them (RULES.md, Presets)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from zfrec.errors import RulesError, preset_hint

SequenceLengths = Literal["any", "equal"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a hand is played under. Hashable, so it can key caches."""

    preset: str = "pagat"
    self_overplay: bool = False
    jokers_wild: bool = True
    sequence_lengths: SequenceLengths = "any"
    target: int = 500

    def options(self) -> dict[str, Any]:
        """The options, without the preset name."""
        out = asdict(self)
        del out["preset"]
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this ruleset's preset."""
        base = preset(self.preset).options()
        return {k: v for k, v in self.options().items() if base[k] != v}

    def with_options(self, **options: Any) -> Ruleset:
        """This ruleset with single options changed; unknown or bad values raise RulesError."""
        return _checked(replace(self, **_known(options)))

    def describe(self) -> str:
        """The preset and its overridden options, e.g. `pagat (sequence_lengths=equal)`."""
        extra = ", ".join(f"{k}={v}" for k, v in self.overrides().items())
        return f"{self.preset} ({extra})" if extra else self.preset


PRESETS: dict[str, Ruleset] = {
    "pagat": Ruleset("pagat"),
    "poppel": Ruleset("poppel", self_overplay=True),
    "parlett": Ruleset("parlett", jokers_wild=False),
}
OPTION_NAMES = ("self_overplay", "jokers_wild", "sequence_lengths", "target")


def _known(options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise RulesError(
            f"unknown rule option {', '.join(unknown)}: options are {', '.join(OPTION_NAMES)}"
        )
    return options


def _checked(rules: Ruleset) -> Ruleset:
    if not isinstance(rules.self_overplay, bool) or not isinstance(rules.jokers_wild, bool):
        raise RulesError("self_overplay and jokers_wild take true or false")
    if rules.sequence_lengths not in ("any", "equal"):
        raise RulesError(f"sequence_lengths is 'any' or 'equal', not {rules.sequence_lengths!r}")
    if isinstance(rules.target, bool) or not isinstance(rules.target, int) or rules.target <= 0:
        raise RulesError(f"target must be a positive whole number, not {rules.target!r}")
    return rules


def preset(name: str, **options: Any) -> Ruleset:
    """A preset by name (`pagat`, `poppel`, `parlett`), with single options overridden."""
    base = PRESETS.get(name.strip().lower())
    if base is None:
        raise RulesError(
            f"unknown preset {name!r}: presets are {', '.join(PRESETS)}"
            + preset_hint(name, list(PRESETS))
        )
    return base.with_options(**options) if options else base


def parse_option(text: str) -> tuple[str, Any]:
    """`name=value` from the command line or a record, with the value typed."""
    name, eq, raw = text.partition("=")
    name = name.strip().lower().replace("-", "_")
    if not eq:
        raise RulesError(f"rule option {text!r} should look like name=value")
    _known({name: None})
    value: Any = raw.strip().lower()
    if name in ("self_overplay", "jokers_wild"):
        if value not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            raise RulesError(f"{name} takes true or false, not {raw!r}")
        value = value in ("true", "yes", "1", "on")
    elif name == "target":
        # ASCII digits only, and few of them: int() refuses '²' and numbers of 4,300 digits.
        if not (value.isascii() and value.isdigit()) or len(value) > 18:
            raise RulesError(f"target must be a positive whole number, not {raw[:40]!r}")
        value = int(value)
    return name, value
