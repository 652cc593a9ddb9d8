"""Decision analysis (zfrec.games.zhengfen.analysis.analyze): hand-built positions with known
answers, and invariants checked on self-play records against the validator's ledger and the engine's
own play check."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.zhengfen.analysis.analyze import GameAnalysis, analyze_game, player_aggregates
from zfrec.games.zhengfen.engine.cards import parse_play
from zfrec.games.zhengfen.engine.combos import resolve
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.pages.analysis import analysis_html
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps, loads
from zfrec.record.model import Game
from zfrec.replay import HandStart, MoveStep, replay
from zfrec.validate import validate

runner = CliRunner()

# Three players, full deal, no counters in Ann's hand but the 5s; Bo holds the Tens, Cy the
# Kings, the 2s and both jokers. Shuffler 3, so Ann draws first: 18 cards each (R3).
DEAL = """[Players "Ann, Bo, Cy"]
[Rules "pagat"]

hand 1 shuffler 3
deal 1: 3h 3s 3d 3c 4h 4s 4d 5s 6h 6d 6c 7s 7h 7d 7c 8s 8h 8d
deal 2: 4c 5h 5d 5c 6s 8c 9s 9h 9d 9c Ts Th Td Tc Js Jh Jd Jc
deal 3: Qs Qh Qd Qc Ks Kh Kd Kc As Ah Ad Ac 2s 2h 2d 2c SJ BJ
"""
# Trick 1: Ann 3h, Bo 4c, Cy passes (turn 3), Ann 5s, Bo passes (turn 5), Cy passes (turn 6).
# Trick 2: Ann 4h, Bo Th, Cy Qs, Ann and Bo pass: Cy takes Bo's Ten.
PLAY = "1: 3h  2: 4c  3: -  1: 5s  2: -  3: -\n1: 4h  2: Th  3: Qs  1: -  2: -\n"


def record(body: str = PLAY, head: str = DEAL) -> Game:
    [game] = loads(head + body)
    return game


@pytest.fixture(scope="module")
def position() -> GameAnalysis:
    game = record()
    assert validate(game).ok  # the hand is unfinished: a warning, not an error
    return analyze_game(game)


def test_missed_beats_in_a_known_position(position: GameAnalysis) -> None:
    # Cy's beats over any single: Q, K, A, 2, SJ, BJ and the special of four 2s = 7 moves.
    # Bo's beats over the 5s: singles 6, 8, 9, T, J = 5 moves (no 5-T-K: Bo has no King).
    # The table holds nothing at Cy's first pass (3h 4c), then Ann's 5s: 5 points.
    missed = [
        (n.trick, n.turn, position.players[n.seat], n.points)
        for n in position.per_move_notes(["missed_beat"])
    ]
    assert missed == [(1, 3, "Cy", 0), (1, 5, "Bo", 5), (1, 6, "Cy", 5)]
    options = {(d.trick, d.turn): d.options for d in position.decisions() if d.missed_beat}
    assert options == {(1, 3): 7, (1, 5): 5, (1, 6): 7}
    bo = next(d for d in position.decisions() if (d.trick, d.turn) == (1, 5))
    assert bo.alternatives[0].cards == "6s"  # the cheapest beat: Bo's lowest single above 5
    assert bo.table_points == 5


def test_no_missed_beat_without_a_beat(position: GameAnalysis) -> None:
    # After Cy's Qs, Ann (highest card 8) and Bo (highest J, no special) cannot beat it.
    passes = [d for d in position.decisions() if d.trick == 2 and d.action == "pass"]
    assert [(d.options, d.could_beat, d.missed_beat) for d in passes] == [
        (0, False, False),
        (0, False, False),
    ]


def test_conceded_counter(position: GameAnalysis) -> None:
    conceded = [
        (n.trick, n.turn, position.players[n.seat], n.points)
        for n in position.per_move_notes(["conceded"])
    ]
    assert conceded == [(2, 2, "Bo", 10)]  # Bo's Th went to Cy's trick
    ann, bo, cy = position.seat_totals()
    assert (ann.captured, bo.captured, cy.captured) == (5, 0, 10)
    assert (ann.conceded, bo.conceded, cy.conceded) == (0, 10, 0)
    # Ann's 5s is in the trick she took herself: not conceded.
    assert all(d.conceded == 0 for d in position.decisions() if d.seat == 0)


def test_points_flow_of_a_known_position(position: GameAnalysis) -> None:
    rows = [(r.trick, r.kind, position.players[r.seat], r.points, r.scores) for r in
            position.points_flow()]  # fmt: skip
    # The record stops before the hand ends: no transfer row.
    assert rows == [(1, "trick", "Ann", 5, (5, 0, 0)), (2, "trick", "Cy", 10, (5, 0, 10))]
    [hand] = position.hands
    assert not hand.finished and hand.transfer is None and hand.out_order == ()


def test_special_and_joker_notes() -> None:
    # Cy, who took trick 2, leads a pair of Queens with SJ declared as a Queen; Ann (pairs up
    # to 8s) and Bo (pairs up to Jacks, no special) cannot beat it, so Cy leads again: four 2s.
    game = record(PLAY + "3: Qh SJ=Q  1: -  2: -\n3: 2s 2h 2d 2c\n")
    assert validate(game).ok
    a = analyze_game(game)
    notes = [(n.kind, n.trick) for n in a.per_move_notes(["special", "joker"])]
    assert notes == [("joker", 3), ("special", 4)]
    cy = a.seat_totals()[2]
    assert (cy.specials, cy.jokers) == (1, 1)
    assert cy.categories == {"single": 1, "pair": 1, "special": 1}


def test_unknown_deal_gives_no_alternatives() -> None:
    # Without deal lines the unplayed cards could lie in any hand (ZF305): no alternatives.
    game = record(PLAY, '[Players "Ann, Bo, Cy"]\n\nhand 1 shuffler 3\n')
    a = analyze_game(game)
    assert not a.hands[0].deal_known
    assert all(d.options is None and not d.missed_beat for d in a.decisions())
    assert [n.kind for n in a.per_move_notes()] == ["conceded"]  # still known from the play


def test_one_known_hand_is_judged() -> None:
    # Only Ann's deal line is written in full: her decisions get alternatives, the others not.
    head = DEAL.replace(DEAL[DEAL.index("deal 2") :], "deal 2: ?18\ndeal 3: ?18\n")
    a = analyze_game(record(PLAY, head))
    assert a.hands[0].known_seats == (True, False, False) and not a.hands[0].deal_known
    assert all((d.options is not None) == (d.seat == 0) for d in a.decisions())
    ann_pass = next(d for d in a.decisions() if d.seat == 0 and d.action == "pass")
    assert (ann_pass.trick, ann_pass.options, ann_pass.missed_beat) == (2, 0, False)


# --- invariants on self-play records -----------------------------------------------------------


def sim(players: int, seed: int, rules: str = "pagat", hands: int | None = 1) -> Game:
    config = SimConfig(players, preset(rules, target=300), "random", hands)
    return simulate_game(config, seed)


GAMES = [sim(3 + i % 4, i, ("pagat", "poppel", "parlett")[i % 3]) for i in range(9)]
LONG = sim(4, 99, hands=None)


@pytest.mark.parametrize("game", [*GAMES, LONG])
def test_flow_and_ledger_agree(game: Game) -> None:
    a = analyze_game(game)
    report = validate(game)
    assert report.ok and a.errors == 0
    assert a.scores == report.scores
    rows = a.points_flow()
    assert rows[-1].scores == report.scores
    for h, ledger in zip(a.hands, report.hands, strict=True):
        assert ledger.result is not None and h.result == ledger.result
        # Every counter of the pack is captured in some trick or stays in the last hand.
        assert (
            sum(t.points for t in h.tricks) + (h.transfer.hand_points if h.transfer else 0) == 100
        )
        for t in h.tricks:
            assert sum(t.contributed) == t.points
        transfer = h.transfer
        assert transfer is not None
        for s, st in enumerate(h.seats):
            expect = st.captured
            if s == transfer.from_seat:
                expect -= transfer.trick_points
            if s == transfer.to_seat:
                expect += transfer.points
            assert ledger.result.points[s] == expect
        assert h.out_order == ledger.result.out_order


@pytest.mark.parametrize("game", GAMES)
def test_alternatives_are_legal_where_they_are_offered(game: Game) -> None:
    """Each alternative shown is accepted by the engine's own play check (combos.resolve)."""
    decisions = iter(analyze_game(game).decisions())
    rules = game.ruleset()
    held: tuple[int, ...] = ()
    top = None
    for state, ev in replay(game):
        hs = state.hand
        if isinstance(ev, MoveStep):
            d = next(decisions)
            assert ev.event is not None and d.seat == ev.event.seat
            if d.action == "pass" and d.seat != d.top_seat:
                assert d.missed_beat == bool(d.options)
            for alt in d.alternatives:
                play = parse_play(alt.cards)
                assert play.mask & ~held[d.seat] == 0
                resolve(play.mask, top, rules, play.declared())  # raises if not legal
        if isinstance(ev, HandStart | MoveStep) and hs is not None:
            held, top = tuple(hs.hands), hs.top


def test_player_aggregates_add_up() -> None:
    games = [*GAMES[:4], LONG]
    stats = player_aggregates(games)
    analyses = [analyze_game(g) for g in games]
    finished = sum(h.finished for a in analyses for h in a.hands)
    assert sum(p.first_out for p in stats.values()) == finished
    assert sum(p.last_out for p in stats.values()) == finished
    assert sum(p.points for p in stats.values()) == sum(sum(a.scores) for a in analyses)
    plays = sum(d.action == "play" for a in analyses for d in a.decisions())
    assert sum(sum(p.categories_played.values()) for p in stats.values()) == plays
    east = stats["East"]
    assert east.games == 5 and east.mean_points == east.points / east.hands
    assert east.missed_beats_per_hand == east.missed_beats / east.judged_hands
    assert LONG.result is not None and east.wins == (0 in LONG.result.winners)
    assert json.loads(json.dumps(east.to_json()))["counters_captured"] == east.counters_captured
    # Records are analysed in the fast mode (no alternatives): the same statistics.
    full = player_aggregates(analyses)
    assert {n: p.to_json() for n, p in full.items()} == {n: p.to_json() for n, p in stats.items()}


def test_player_aggregates_match_names_ignoring_case() -> None:
    a, b = GAMES[0], GAMES[3]
    renamed = replace(b, players=[p.upper() for p in b.players])
    stats = player_aggregates([a, renamed])
    assert stats["East"].games == 2 and "EAST" not in stats


def test_json_and_html() -> None:
    game = replace(record(), players=["<b>Ann</b>", "Bo", "Cy"])
    a = analyze_game(game)
    doc = json.loads(json.dumps(a.to_json()))
    assert doc["legal"] is True and len(doc["notes"]) == 4
    assert doc["hands"][0]["decisions"][2]["missed_beat"] is True
    page = analysis_html(a)
    assert "&lt;b&gt;Ann&lt;/b&gt;" in page and "<b>Ann" not in page
    assert page.count('class="zf-missed-beat"') == 3 and page.count('class="zf-conceded"') == 1


# --- the command -------------------------------------------------------------------------------


def test_cli_analyze(tmp_path: Path) -> None:
    path = tmp_path / "g.zfn"
    path.write_text(dumps(record()), encoding="utf-8")
    res = runner.invoke(app, ["analyze", str(path)])
    assert res.exit_code == 0, res.output
    assert "Bo passed on 5s but had 5 beating plays, e.g. 6s; 5 points on the table" in res.output
    res = runner.invoke(app, ["analyze", str(path), "--json", "--hand", "1"])
    assert res.exit_code == 0
    assert json.loads(res.output)["games"][0]["seats"]["Bo"]["conceded"] == 10
    res = runner.invoke(app, ["analyze", str(path), "--hand", "2"])
    assert res.exit_code == 2 and "there is no hand 2" in res.output
    bad = tmp_path / "bad.zfn"
    bad.write_text("hand 1\n", encoding="utf-8")
    res = runner.invoke(app, ["analyze", str(bad)])
    assert res.exit_code == 2 and res.output.startswith(f"error: {bad}:1:1: a game starts with")
    assert "Traceback" not in res.output
    res = runner.invoke(app, ["analyze", str(tmp_path / "none.zfn")])
    assert res.exit_code == 2 and "no such file" in res.output
