"""Every sample game is a golden regression test (issue 3), and every broken one yields its
documented diagnostic at its documented place (issue 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zfrec.games.zhengfen.engine.combos import Category
from zfrec.games.zhengfen.engine.game import PlayEvent
from zfrec.record import Format, dumps, game_to_json, load
from zfrec.record.model import Game
from zfrec.record.schema import validate_game
from zfrec.replay import MoveStep, replay
from zfrec.validate import Report, validate, validate_path

ROOT = Path(__file__).resolve().parent.parent / "sample_games"
VALID = sorted(p for p in ROOT.iterdir() if p.suffix in (".zfn", ".json"))
BROKEN = sorted(p for p in (ROOT / "broken").iterdir() if p.suffix in (".zfn", ".json"))


def _games(path: Path) -> list[Game]:
    return list(load(path))


def test_there_are_at_least_twelve_samples() -> None:
    assert len(VALID) >= 12


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_sample_validates_clean_and_is_canonical(path: Path) -> None:
    games = _games(path)
    for game in games:
        report = validate(game)
        # nothing but the note at each disputed move (ZF005)
        found = [d for d in report.diagnostics if d.code != "ZF005"]
        assert found == [], [str(d) for d in found]
        notes = [(d.location.line, d.location.col) for d in report.diagnostics]
        disputed = [
            (m.pos.line, m.pos.col)
            for h in game.hands
            for t in h.tricks
            for m in t.moves
            if m.disputed and m.pos is not None
        ]
        assert notes == disputed
        validate_game(game_to_json(game))  # raises on a schema violation
    fmt: Format = "json" if path.suffix == ".json" else "zfn"
    assert dumps(games if len(games) > 1 else games[0], fmt) == path.read_text(encoding="utf-8")


def _features(game: Game) -> set[str]:
    found: set[str] = {f"players{len(game.players)}", f"preset:{game.preset}"}
    top_seat: int | None = None
    for state, event in replay(game):
        if state.game.over:
            found.add("game_over")
        if not isinstance(event, MoveStep) or event.event is None:
            continue
        e = event.event
        if isinstance(e, PlayEvent):
            c = e.combo
            found.add(c.category.name if c.category is not Category.special else f"special{c.rank}")
            if c.jokers and event.written is not None:
                found.add("declared" if event.written.declarations else "inferred")
            if e.seat == top_seat:
                found.add("self_overplay")
            top_seat = e.seat
        if e.trick_result is not None:
            top_seat = None
            if e.trick_result.next_leader not in (None, e.trick_result.winner):
                found.add("lead_passes_on")
        if e.hand_result is not None and e.hand_result.transfer_points:
            found.add("transfer")
    for hand in game.hands:
        if hand.deal is None:
            found.add("no_deal")
        elif any(d.unknown for d in hand.deal):
            found.add("partial_deal")
    moves = [m for h in game.hands for t in h.tricks for m in t.moves]
    annotations = sum(m.annotation is not None for m in moves)
    comments = sum(len(m.comments) for m in moves)
    if annotations >= 4 and comments >= 4 and game.comments and any(m.disputed for m in moves):
        found.add("annotated")
    return found


def test_samples_cover_what_the_format_must_show() -> None:
    seen: set[str] = set()
    for path in VALID:
        for game in _games(path):
            features = _features(game)
            seen |= features
            if game.preset == "poppel":
                assert "self_overplay" in features, path.name
            if "game_over" in features:
                assert len(game.hands) >= 5 and game.hands[-1].score is not None
    wanted = {f"players{n}" for n in (3, 4, 5, 6)}
    wanted |= {c.name for c in Category if c is not Category.special}
    wanted |= {"special0", "special1", "special2", "declared", "inferred", "lead_passes_on"}
    wanted |= {"transfer", "self_overplay", "preset:poppel", "preset:parlett", "game_over"}
    wanted |= {"partial_deal", "no_deal", "annotated"}
    assert wanted - seen == set()


def _expected(path: Path) -> tuple[str, int, int]:
    match = re.search(r'\[Expect "(ZF\d{3}) (\d+):(\d+)"\]', path.read_text(encoding="utf-8"))
    assert match, f"{path.name} documents no expected diagnostic"
    return match.group(1), int(match.group(2)), int(match.group(3))


@pytest.mark.parametrize("path", [p for p in BROKEN if p.suffix == ".zfn"], ids=lambda p: p.name)
def test_broken_record_yields_its_documented_diagnostic(path: Path) -> None:
    code, line, col = _expected(path)
    found = [
        d
        for item in validate_path(path)
        for d in (item.diagnostics if isinstance(item, Report) else [item])
    ]
    at = [(d.code, d.location.line, d.location.col) for d in found]
    assert (code, line, col) in at, at
    assert all(d.location.file == str(path) for d in found)


def test_broken_json_yields_a_schema_diagnostic_with_its_path() -> None:
    (item,) = validate_path(ROOT / "broken" / "schema-error.json")
    assert not isinstance(item, Report)
    assert item.code == "ZF002"
    assert item.message == "at /players: 'Tom, Uma, Vic, Wen, Xia' is not of type 'array'"


def test_an_unreadable_card_costs_only_its_move() -> None:
    first, second = validate_path(ROOT / "broken" / "syntax-error.zfn")
    assert isinstance(first, Report) and isinstance(second, Report)
    (error,) = [d for d in first.diagnostics if d.severity == "error"]
    assert (error.code, error.location.line, error.location.col) == ("ZF001", 12, 12)
    # Bo still holds two sevens, so both are suggested and the move cannot be guessed.
    assert error.message.endswith("did you mean 7s or 7d? (the move is skipped)")
    assert error.fix is not None and (error.fix.text, error.fix.alternatives) == ("7s", ("7d",))
    assert (error.fix.line, error.fix.col, error.fix.end_col) == (12, 11, 13)
    assert second.ok
