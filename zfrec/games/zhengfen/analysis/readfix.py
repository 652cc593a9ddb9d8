"""Auditing a record with unreadable moves: first read them as the validator suggests.

A record read with `recover=True` may hold moves the reader could not read (`Game.problems`).
The replay reads each as meant where the deal allows (the one card the seat holds that fits, the
one player a name is close to) and skips it otherwise. `as_read` writes the record the replay
read: such moves replaced by what was replayed (an edit of kind `read` each: `before` is the
move as the record wrote it, `after` the play read or None), skipped ones left out.
`audit_as_read` audits that record and reports its repairs after the `read` edits, so a typo
costs an audit no more than it costs the validator.

    >>> from zfrec.record import iter_records
    >>> [game] = iter_records("sample_games/broken/four-mistakes.zfn", recover=True)
    >>> clean, edits = as_read(game)
    >>> for edit in edits: print(f"{edit.text}  (the record: {edit.before})")
    hand 1, trick 7, turn 5 (Tomás) was read as 9d  (the record: tomás: 9j)
    hand 1, trick 8, turn 1 (Zhou Wei) was read as 9c  (the record: zhou wie: 9c)
    hand 2, trick 6, turn 4 (Zhou Wei) was read as Ac  (the record: 2: Ax)
    >>> clean.problems
    []
"""

from __future__ import annotations

from dataclasses import replace

from zfrec.games.zhengfen.analysis.audit import (
    DEFAULT_BUDGET,
    DEFAULT_REPAIRS,
    AuditReport,
    audit,
    listed,
)
from zfrec.games.zhengfen.analysis.edits import Edit, Repair
from zfrec.games.zhengfen.engine.cards import Cards, parse_cards
from zfrec.games.zhengfen.engine.rules import Ruleset
from zfrec.numbering import said_at
from zfrec.record.model import Game, Move
from zfrec.record.problems import ReadProblem
from zfrec.replay import MoveStep, replay
from zfrec.validate import validate

MAX_CHOICES = 12  # suggested cards tried for skipped moves, at most


def as_read(
    game: Game, rules: Ruleset | None = None, choose: tuple[tuple[int, int], Move] | None = None
) -> tuple[Game, tuple[Edit, ...]]:
    """The record as the replay read it, and the edits that say how: each unreadable move
    replaced by the move replayed, or left out when it was skipped (unless `choose` gives the
    move to write at that position instead). No problems are left."""
    spoiled = {p.move for p in game.problems if p.move is not None}
    written = {p.move: p.written for p in game.problems if p.move is not None}
    read: dict[tuple[int, int] | None, Move | None] = {}
    edits = [(p.pos, _line_edit(game, p)) for p in game.problems if p.kind in LINE_KINDS]
    for _, step in replay(game, rules):
        if not isinstance(step, MoveStep) or step.inferred or step.move.pos not in spoiled:
            continue
        pos = step.move.pos
        assert pos is not None
        original = _written(game, step)
        read[pos] = step.move if step.move is not original else None  # else: skipped
        if choose is not None and choose[0] == pos:
            read[pos] = choose[1]
        said = said_at("hand", [h.number for h in game.hands], step.hand_index)
        prefix = f"{said}, " if len(game.hands) > 1 else ""
        where = f"{prefix}trick {step.trick_index}, turn {step.turn}"
        name = game.seat_name(step.move.seat) if 0 <= step.move.seat < len(game.players) else None
        if name is not None:
            where += f" ({name})"
        now = read[pos]
        play = now.play_text() if now is not None else None
        edits.append((pos, Edit(
            "read", f"{where} was read as {play}" if play else f"{where} was not played",
            game.hands[step.hand_index].number, step.trick_index, step.turn, name,
            written.get(pos), play,
        )))  # fmt: skip
    hands = []
    for hand in game.hands:
        tricks = []
        for trick in hand.tricks:
            moves = [read.get(m.pos, m) for m in trick.moves]
            kept = [m for m in moves if m is not None]
            if kept:
                tricks.append(replace(trick, moves=kept))
        hands.append(replace(hand, tricks=tricks))
    edits.sort(key=lambda e: e[0])  # record order
    return replace(game, hands=hands, problems=[]), tuple(e for _, e in edits)


LINE_KINDS = ("name", "dealt")  # what a shuffler or deal line could not read: read as meant


def _line_edit(game: Game, p: ReadProblem) -> Edit:
    """How the reader read a name or card of a shuffler or deal line (`ReadProblem`): `line 8:
    Jnu was read as Jun`, `line 8: 3x was read as an unknown card`, `... was left out`."""
    read = p.fix.text if p.fix is not None and not p.fix.alternatives else None
    after = read or ("an unknown card" if p.kind == "dealt" else None)
    what = f"{p.where()}: {p.written}"
    hand = max((h for h in game.hands if h.pos is not None and h.pos <= p.pos),
               key=lambda h: h.pos or (0, 0), default=None)  # fmt: skip
    return Edit("read", f"{what} was read as {after}" if after else f"{what} was left out",
                None if hand is None else hand.number, before=p.written, after=read)  # fmt: skip


def _written(game: Game, step: MoveStep) -> Move:
    return game.hands[step.hand_index].tricks[step.trick_index - 1].moves[step.move_index]


def choices(game: Game) -> list[tuple[tuple[int, int], Move]]:
    """The moves a skipped unreadable move may have been: for each, the cards suggested for it
    (`did you mean 7s or 7d?`: one move with 7s, one with 7d)."""
    found: list[tuple[tuple[int, int], Move]] = []
    spoiled = {p.move for p in game.problems if p.move is not None}
    for _, step in replay(game):
        if not isinstance(step, MoveStep) or step.event is not None or step.move.pos is None:
            continue
        if step.move.pos not in spoiled or not 0 <= step.move.seat < len(game.players):
            continue
        for d in step.diagnostics:
            if d.code == "ZF001" and d.fix is not None and d.fix.line == step.move.pos[0]:
                for text in (d.fix.text, *d.fix.alternatives):
                    cards = step.move.cards | parse_cards(text)
                    found.append((step.move.pos, replace(step.move, cards=Cards(cards))))
    return found


def audit_as_read(game: Game, *, budget: int = DEFAULT_BUDGET) -> AuditReport:
    """Audit a record with unreadable moves: its verdict as it stands (with the reader's
    diagnostics and suggestions), and the repairs of the record as read, each starting with
    the `read` edits. A skipped move that several cards fit is tried with each of them first."""
    clean, edits = as_read(game)
    base = audit(clean, budget=budget)
    tried: list[Repair] = []
    for choice in choices(game)[:MAX_CHOICES]:
        record, chosen = as_read(game, choose=choice)
        tried.append(Repair(chosen, record, validate(record)))
    if base.legal:
        tried.append(Repair(edits, clean, base.report))
    else:
        tried += [replace(r, edits=edits + r.edits) for r in base.repairs]
    ranked = sorted(tried, key=lambda r: (r.errors, r.size, r.warnings))
    repairs = listed(ranked)[:DEFAULT_REPAIRS]
    return replace(base, game=game, report=validate(game), repairs=tuple(repairs))
