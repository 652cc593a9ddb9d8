"""The validator: replay a record, collect diagnostics, and keep the score ledger.

    >>> from zfrec import loads
    >>> [game] = loads('[Players "Ann, Bo, Cy"]\\n\\nhand 1 shuffler 3\\n1: 3h  2: 4c  3: 4h')
    >>> report = validate(game)
    >>> report.ok, [d.code for d in report.diagnostics], report.scores
    (False, ['ZF305', 'ZF103', 'ZF206'], (0, 0, 0))
    >>> print(report.diagnostics[1].location)
    <input>:4:15 [hand 1, trick 1, turn 3 (Cy)]
    >>> report.to_json()["hands"][0]["deal"]["Ann"][:8]  # reconstructed: Ann led the 3h
    '3s 3h 3d'

Everything is read off the one replay stream (zfrec.replay); nothing here applies a rule. Each
kind validates its own records (`GameKind.validate`): Zheng Fen's `Validator` is a replay visitor
(zfrec.games.zhengfen.validator), so one `zfrec.replay.walk` can validate a record while other
visitors (a page, an analysis) read the same pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from zfrec.diagnostics import Diagnostic, Findings, WrittenDiagnostic
from zfrec.errors import Location, NotationError, RulesError, ZfrecError, placing
from zfrec.games import NotSupported, find_kind
from zfrec.games.zhengfen.engine.cards import format_cards
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.games.zhengfen.engine.seats import Seat
from zfrec.jsonview import PerPlayer, PlayerNames, dump
from zfrec.numbering import occurrences, repeat_suffix, with_occurrence
from zfrec.record import Format, Game, iter_records, iter_records_text

if TYPE_CHECKING:
    from zfrec.games.zhengfen.validator import HandLedger


@dataclass(frozen=True, slots=True)
class Report(Findings):
    """What the validator found in one game."""

    game: Game
    rules: Ruleset
    diagnostics: tuple[Diagnostic, ...]
    hands: tuple[HandLedger, ...] = ()  # Zheng Fen's (zfrec.games.zhengfen.validator)
    scores: tuple[int, ...] = ()
    winners: tuple[Seat, ...] = ()
    over: bool = False
    moves: int = 0  # every action replayed, inferred passes included

    @property
    def kind(self) -> str:
        """The record's kind (zfrec.games), whose `unit` names its hands."""
        return self.game.kind

    def deal_lines(self, game_number: int) -> Iterator[str]:
        """`zfrec validate --show-deal`: every hand's deal, and whether it was rebuilt."""
        report = self
        players = report.game.players
        occurs = occurrences([ledger.number for ledger in report.hands])
        for ledger, occurrence in zip(report.hands, occurs, strict=True):
            how = "reconstructed from the plays" if ledger.reconstructed else "as recorded"
            said = f"hand {ledger.number}{repeat_suffix(occurrence)}"  # `hand 1 (2nd)`
            yield f"game {game_number}, {said} deal ({how}):"
            for seat, mask in enumerate(ledger.deal):
                yield f"  {players[seat]}: {format_cards(mask)}"

    def to_json(self) -> dict[str, Any]:
        """The report as `zfrec validate --json` writes it for one game."""
        data: dict[str, Any] = dump(_ReportJson.of(self), players=self.game.players)
        return data


@dataclass(frozen=True, slots=True)
class _ReportJson:
    players: list[str]
    rules: str
    target: int
    ok: bool
    hands: list[dict[str, Any]]  # each hand's ledger as it writes itself
    moves: int
    scores: PerPlayer[int]
    over: bool
    winners: PlayerNames
    diagnostics: tuple[WrittenDiagnostic, ...]

    @classmethod
    def of(cls, r: Report) -> _ReportJson:
        occurs = occurrences([h.number for h in r.hands])  # as --show-deal says each hand
        hands = [
            with_occurrence(h.to_json(r.game.players), k)
            for h, k in zip(r.hands, occurs, strict=True)
        ]
        return cls(r.game.players, r.rules.describe(), r.rules.target, r.ok, hands, r.moves,
                   r.scores, r.over, r.winners, r.diagnostics)  # fmt: skip


def validate(
    record: Game,
    rules: Ruleset | None = None,
    game_number: int | None = None,
    overrides: dict[str, Any] | None = None,
) -> Report:
    """Replay `record` under its own rules (or `rules`), with single options overridden.

    `game_number` is the game's number in its file, for the diagnostics' locations. The
    record's kind (zfrec.games) judges it.
    """
    report: Report = find_kind(record.kind).validate(record, rules, game_number, overrides)
    return report


@dataclass(slots=True)
class FileReport:
    """The games of one file as they are validated, plus notation errors that cost a game."""

    path: str
    reports: list[Report] = field(default_factory=list)
    notation: list[Diagnostic] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic of the file: notation errors first, then each game's."""
        return [*self.notation, *(d for r in self.reports for d in r.diagnostics)]


def notation_diagnostic(exc: NotationError, path: str, game_number: int | None) -> Diagnostic:
    """A game that cannot be read, as a diagnostic: ZF002 for JSON, ZF001 for the notation."""
    loc = exc.place or exc.location or Location(file=path)  # with its hand and trick if known
    code = "ZF002" if path.lower().endswith(".json") else "ZF001"
    return Diagnostic(code, exc.message, replace(loc, file=loc.file or path, game=game_number))


def kept_diagnostics(exc: NotationError, path: str, game_number: int | None) -> list[Diagnostic]:
    """What the reader of a game it could not read had read past before (its header's
    misspelt game or preset, read as meant), each as its ZF001: said before the error that
    cost the game, of the same game (counted once, `summarize`)."""
    found = []
    for p in exc.kept:
        where = Location(path, p.pos[0], p.pos[1], game=game_number)
        found.append(Diagnostic("ZF001", p.message, where, fix=p.fix))
    return found


RuleTexts = tuple[str | None, tuple[str, ...]]


def validate_games(
    items: Iterable[Game | NotationError],
    path: str,
    rules: Ruleset | None = None,
    overrides: dict[str, Any] | None = None,
    first: int = 1,
    rule_texts: RuleTexts | None = None,
) -> Iterator[Report | Diagnostic]:
    """Validate each game as it is read: constant memory over a stream of records.

    Games are numbered from `first` (a part of a file numbers its games as the file does).
    `rule_texts` (`validate --rules` and `--option` as written) re-judge each game under its own
    kind's reading of them (GameKind.judging_rules), in place of `rules` and `overrides`; a
    game whose kind does not have them gets an error saying so.
    """
    by_kind: dict[str, tuple[Any, dict[str, Any]] | str] = {}
    for number, item in enumerate(items, first):
        if isinstance(item, NotationError):
            yield from kept_diagnostics(item, path, number)
            yield notation_diagnostic(item, path, number)
            continue
        if rule_texts is not None:
            judged = by_kind.get(item.kind)
            if judged is None:
                judged = by_kind[item.kind] = _judging(item.kind, rule_texts)
            if isinstance(judged, str):
                yield notation_diagnostic(NotationError(judged, _where(item, path)), path, number)
                continue
            rules, overrides = judged
        try:
            with placing(game=number, line=item.pos.line if item.pos else None):
                report = validate(item, rules, number, overrides)
            yield report
        except NotSupported as exc:  # a kind whose replayer is still to come
            yield notation_diagnostic(NotationError(exc.message, _where(item, path)), path, number)
        except RulesError as exc:
            if rule_texts is None:
                raise
            # an --option this record's own rules cannot take (a seat count its preset does not
            # have, a value out of range): an error at the record, the run goes on
            title = find_kind(item.kind).title
            why = f"a {title} record is not re-judged: {exc.message}"
            yield notation_diagnostic(NotationError(why, _where(item, path)), path, number)


def _where(game: Game, path: str) -> Location:
    pos = game.pos
    return Location(path, pos.line if pos else None, pos.col if pos else None)


def _judging(kind_name: str, rule_texts: RuleTexts) -> tuple[Any, dict[str, Any]] | str:
    """A kind's rules and options for `validate --rules/--option`, or why it has none."""
    kind = find_kind(kind_name)
    try:
        return kind.judging_rules(*rule_texts)
    except ZfrecError as exc:
        return f"a {kind.title} record is not re-judged: {exc.message}"


def validate_path(
    path: str | Path, rules: Ruleset | None = None, overrides: dict[str, Any] | None = None
) -> Iterator[Report | Diagnostic]:
    """Validate each game of a record file as it is read (see `validate_games`)."""
    return validate_games(iter_records(path, recover=True), str(path), rules, overrides)


def validate_text(
    text: str,
    source: str = "<stdin>",
    rules: Ruleset | None = None,
    overrides: dict[str, Any] | None = None,
    rule_texts: RuleTexts | None = None,
) -> Iterator[Report | Diagnostic]:
    """Validate each game of record text, .zfn or JSON (told apart by how the text opens)."""
    # A .zfn record opens with a tag `[Name "..."]`; JSON with an object or an array of them.
    head = text.lstrip()
    json_like = head.startswith("{") or (head[:1] == "[" and head[1:].lstrip()[:1] in "{]")
    fmt: Format = "json" if json_like else "zfn"
    items = iter_records_text(text, fmt, source, recover=True)
    return validate_games(items, source, rules, overrides, rule_texts=rule_texts)


__all__ = [
    "FileReport",
    "Report",
    "RuleTexts",
    "validate",
    "validate_games",
    "validate_path",
    "validate_text",
]


# set on an unexpected exception by `summarize`: the FileSummary of the games before it
PARTIAL_ATTR = "zfrec_partial"


@dataclass(slots=True)
class FileSummary:
    """What validating one file found, small enough to send between processes."""

    path: str
    games: int = 0
    hands: int = 0
    moves: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    units: dict[str, int] = field(default_factory=dict)  # `hands` by each game's unit word
    game_json: list[dict[str, object]] = field(default_factory=list)
    deals: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        """How many diagnostics are errors."""
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        """How many diagnostics are warnings."""
        return sum(d.severity == "warning" for d in self.diagnostics)


class GameReport(Protocol):
    """What `summarize` reads of a game's report: Zheng Fen's `Report`, or another kind's
    (Sheng ji: `zfrec.games.shengji.replayer.SjReport`, whose `hands` are its rounds)."""

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]: ...

    @property
    def hands(self) -> Sequence[object]: ...

    @property
    def kind(self) -> str: ...

    @property
    def moves(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...

    def deal_lines(self, game_number: int) -> Iterator[str]: ...


def summarize(
    items: Iterator[GameReport | Diagnostic],
    path: str,
    *,
    keep_json: bool = False,
    show_deal: bool = False,
    stop_at_error: bool = False,
    first: int = 1,
) -> FileSummary:
    """Fold a file's reports into a summary, one game at a time; games numbered from `first`.

    An exception that stops it (a bug: an internal error, or input refused part way) carries
    the summary of the games judged before it as `PARTIAL_ATTR`, so that a run that stops
    there still counts them, however the file was cut into pieces (`zfrec validate --jobs`)."""
    out = FileSummary(path)
    try:
        _fold(out, items, keep_json, show_deal, stop_at_error, first)
    except Exception as exc:
        if not hasattr(exc, PARTIAL_ATTR):
            setattr(exc, PARTIAL_ATTR, out)  # kept when pickled, as the file's name is
        raise
    return out


def _fold(
    out: FileSummary,
    items: Iterator[GameReport | Diagnostic],
    keep_json: bool,
    show_deal: bool,
    stop_at_error: bool,
    first: int,
) -> None:
    lost = None  # the number of the last game not read: its kept findings come before it
    stop = False  # at an error of a game not read: stop once the game's findings are all in
    for item in items:
        if stop and not (isinstance(item, Diagnostic) and item.location.game == lost):
            break
        if isinstance(item, Diagnostic):
            out.diagnostics.append(item)
            game = item.location.game
            if game is None or game != lost:
                out.games += 1
            lost = game
            if item.location.unit:  # a game not read: its kind's unit, where it is known
                out.units.setdefault(item.location.unit, 0)
        else:
            out.games += 1
            out.hands += len(item.hands)
            unit = find_kind(item.kind).unit
            out.units[unit] = out.units.get(unit, 0) + len(item.hands)
            out.moves += item.moves
            out.diagnostics.extend(item.diagnostics)
            if keep_json:
                out.game_json.append(item.to_json())
            if show_deal:
                out.deals.extend(_deal_lines(item, first - 1 + out.games))
        if stop_at_error and out.errors:
            if not isinstance(item, Diagnostic) or item.location.game is None:
                break
            stop = True  # the error that cost the game comes after what was kept of it


def _deal_lines(report: GameReport, game_number: int) -> Iterator[str]:
    return report.deal_lines(game_number)
