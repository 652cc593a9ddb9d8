"""The validator: simulated games are clean, corruptions are caught, the CLI reports well."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.errors import ZfrecError
from zfrec.games.zhengfen.engine.cards import FULL_DECK, Cards, points_of
from zfrec.games.zhengfen.engine.game import GameState, HandState
from zfrec.games.zhengfen.engine.rules import PRESETS, preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps
from zfrec.record.model import Game, HandScore, Move
from zfrec.validate import validate

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
runner = CliRunner()


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulated_games_validate_clean(name: str, players: int) -> None:
    for bot in ("random", "greedy"):
        for seed in range(8):
            game = simulate_game(SimConfig(players, preset(name), bot, 2), 1000 * players + seed)
            report = validate(game)
            assert report.diagnostics == (), [str(d) for d in report.diagnostics]
            assert sum(report.hands[0].result.points) == 100  # type: ignore[union-attr]


def independently_legal(game: Game) -> bool:
    """Replay a record that writes every pass, with the engine's own checked actions only.

    No inference and no recovery: any rule broken raises, any trick boundary or score that
    differs is a failure. Shares nothing with zfrec.replay but the engine.
    """
    rules = game.ruleset()
    state = GameState(len(game.players), rules)
    try:
        for hand in game.hands:
            if state.over or hand.deal is None:
                return False
            expected = state.next_shuffler()
            if expected is not None and hand.shuffler != expected:
                return False
            hs: HandState = state.start_hand([d.known for d in hand.deal], hand.shuffler)
            for trick in hand.tricks:
                for i, move in enumerate(trick.moves):
                    if hs.over:
                        return False
                    event = (
                        hs.pass_(move.seat)
                        if move.is_pass
                        else hs.play(move.seat, move.cards, dict(move.declarations))
                    )
                    if (event.trick_result is not None) != (i == len(trick.moves) - 1):
                        return False
            if hs.result is None:
                return False
            state.finish_hand(hs.result)
            if hand.score is not None and (
                hand.score.points != hs.result.points
                or (hand.score.totals is not None and hand.score.totals != tuple(state.scores))
            ):
                return False
        if game.result is not None:
            return game.result.scores == tuple(state.scores) and game.result.winners == tuple(
                state.winners()
            )
        return True
    except ZfrecError:
        return False


def _moves(game: Game) -> list[tuple[int, int, int]]:
    return [
        (h, t, m)
        for h, hand in enumerate(game.hands)
        for t, trick in enumerate(hand.tricks)
        for m in range(len(trick.moves))
    ]


def _edit_move(game: Game, where: tuple[int, int, int], new: Move) -> Game:
    h, t, m = where
    hand = game.hands[h]
    trick = hand.tricks[t]
    moves = [*trick.moves[:m], new, *trick.moves[m + 1 :]]
    tricks = [*hand.tricks[:t], dataclasses.replace(trick, moves=moves), *hand.tricks[t + 1 :]]
    hands = [*game.hands[:h], dataclasses.replace(hand, tricks=tricks), *game.hands[h + 1 :]]
    return dataclasses.replace(game, hands=hands)


def mutate(game: Game, rng: random.Random) -> Game:
    """One corruption: a card, a seat, a pass, or a score."""
    kind = rng.choice(["card", "seat", "pass", "score"])
    where = rng.choice(_moves(game))
    h, t, m = where
    move = game.hands[h].tricks[t].moves[m]
    n = len(game.players)
    if kind == "score":
        hand = game.hands[h]
        assert hand.score is not None
        points = list(hand.score.points)
        points[rng.randrange(n)] += rng.choice([-5, 5, 10])
        score = HandScore(tuple(points), hand.score.totals)
        hands = list(game.hands)
        hands[h] = dataclasses.replace(hand, score=score)
        return dataclasses.replace(game, hands=hands)
    if kind == "seat":
        return _edit_move(
            game, where, dataclasses.replace(move, seat=(move.seat + rng.randrange(1, n)) % n)
        )
    if kind == "pass" or move.is_pass:
        if move.is_pass:  # a pass becomes a play of some card the seat was dealt
            deal = game.hands[h].deal
            assert deal is not None
            card = rng.choice([c for c in range(54) if deal[move.seat].known >> c & 1])
            return _edit_move(game, where, Move.plays(move.seat, 1 << card))
        return _edit_move(game, where, Move.passes(move.seat))
    cards = [c for c in range(54) if move.cards >> c & 1]
    old = rng.choice(cards)
    new = rng.choice([c for c in range(54) if not move.cards >> c & 1])
    decls = tuple(d for d in move.declarations if d[0] != old)
    return _edit_move(
        game,
        where,
        dataclasses.replace(
            move, cards=Cards(move.cards & ~(1 << old) | 1 << new), declarations=decls
        ),
    )


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6), name=st.sampled_from(sorted(PRESETS)))
def test_every_corruption_is_caught_or_independently_legal(
    seed: int, players: int, name: str
) -> None:
    game = simulate_game(SimConfig(players, preset(name), "random", 1), seed)
    assert validate(game).ok and independently_legal(game)
    corrupt = mutate(game, random.Random(seed))
    if corrupt == game:
        return
    assert not validate(corrupt).ok or independently_legal(corrupt)


def test_ledger_itemises_the_transfer() -> None:
    game = simulate_game(SimConfig(4, preset("pagat"), "greedy", 1), 7)
    (ledger,) = validate(game).hands
    result = ledger.result
    assert result is not None
    moved = points_of(result.transfer_tricks | result.transfer_hand)
    assert result.transfer_points == moved
    assert result.points[result.last] == 0
    data = ledger.to_json(game.players)
    transfer = data["transfer"]
    assert isinstance(transfer, dict)
    assert transfer["from"] == game.players[result.last]
    assert transfer["tricks_points"] + transfer["hand_points"] == moved
    taken = 0
    for t in result.taken:
        taken |= t
    assert taken | sum(ledger.deal) == FULL_DECK or taken == FULL_DECK


# --- the command ------------------------------------------------------------------------------


def test_cli_clean_samples_exit_zero_with_summary() -> None:
    result = runner.invoke(app, ["validate", str(SAMPLES / "02-three-players.zfn")])
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output and "all legal" in result.output


def test_cli_findings_exit_one_with_location_and_caret(tmp_path: Path) -> None:
    path = SAMPLES / "broken" / "does-not-beat.zfn"
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert (
        "12:11 error ZF103 game 1, hand 1, trick 1, turn 2 (Bo): pair of 4s is lower"
        in result.output
    )
    lines = result.output.splitlines()
    caret = next(i for i, line in enumerate(lines) if line.strip().startswith("12 | 1: 5s 5h"))
    assert lines[caret + 1].index("^") == lines[caret].index("2: 4s")


def test_cli_unreadable_input_exits_two() -> None:
    result = runner.invoke(app, ["validate", "no/such/file.zfn"])
    assert result.exit_code == 2
    assert "no such file or directory: no/such/file.zfn" in result.output


def test_cli_json_directory_and_jobs_agree() -> None:
    one = runner.invoke(app, ["validate", "--json", str(SAMPLES / "broken")])
    two = runner.invoke(app, ["validate", "--json", "--jobs", "2", str(SAMPLES / "broken")])
    assert one.exit_code == two.exit_code == 1
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a == b
    assert a["summary"]["files"] == len(list((SAMPLES / "broken").glob("*.zfn"))) + 1
    codes = {d["code"] for f in a["files"] for d in f["diagnostics"]}
    assert {"ZF001", "ZF002", "ZF101", "ZF201", "ZF401"} <= codes


def test_cli_stdin_glob_and_strict() -> None:
    text = (SAMPLES / "02-three-players.zfn").read_text(encoding="utf-8")
    assert runner.invoke(app, ["validate", "-"], input=text).exit_code == 0
    globbed = runner.invoke(app, ["validate", "--json", str(SAMPLES / "0[12]-*.zfn")])
    assert json.loads(globbed.stdout)["summary"]["files"] == 2
    strict = runner.invoke(app, ["validate", "--strict", "--json", str(SAMPLES / "broken")])
    assert json.loads(strict.stdout)["summary"]["files"] == 1


def test_cli_rejudges_under_another_preset() -> None:
    path = str(SAMPLES / "06-poppel-self-overplay.zfn")
    assert runner.invoke(app, ["validate", path]).exit_code == 0
    pagat = runner.invoke(app, ["validate", "--json", "--rules", "pagat", path])
    assert pagat.exit_code == 1
    codes = [d["code"] for f in json.loads(pagat.stdout)["files"] for d in f["diagnostics"]]
    # Without self_overplay the written passes end the trick, so the seat's second play leads a
    # trick that the record continues (ZF205), and the closing pass comes after that trick had
    # ended (ZF209, RULINGS 26): it is not read as a leader passing (ZF105).
    assert {"ZF205", "ZF209"} <= set(codes)
    assert "ZF105" not in codes


def test_cli_shows_the_reconstructed_deal() -> None:
    result = runner.invoke(app, ["validate", "--show-deal", str(SAMPLES / "09-no-deal.zfn")])
    assert result.exit_code == 0
    assert "hand 1 deal (reconstructed from the plays):" in result.output
    game_text = dumps(simulate_game(SimConfig(3, preset("pagat"), "greedy", 1), 3))
    assert "deal 1:" in game_text


# Syntax errors that cost their game (ZF001): each an edit of a sample's line (1-based), then
# where the diagnostic says it is, in --json and in the text, as the other codes say it:
# the hand (Sheng ji: round, JSON `hand`) and the trick the reader was reading, where known.
_SJ_MATCH = "shengji/01-bashifen-match.zfn"
_SYNTAX_PLACES = {
    "comment in a trick": ("02-three-players.zfn", 27, ("2: 7c", "2: 7c {open"), (2, 4)),
    "deal line": ("02-three-players.zfn", 22, ("deal 2:", "deal 2"), (2, None)),
    "hand line": ("02-three-players.zfn", 20, ("shuffler", "shufler"), (2, None)),
    "tag": ("02-three-players.zfn", 4, ('"500"', "500"), (None, None)),
    "round line": (_SJ_MATCH, 46, ("trump c", "trump q"), (2, None)),
    "quote in a trick": (_SJ_MATCH, 56, ("  1: ", ' "open  1: '), (2, 3)),
    "comment after the discard": (_SJ_MATCH, 53, ("8d", "8d {open"), (2, None)),
    # a trick line after the hand's score (the round's levels) is in no trick of it
    "trick after the score": ("02-three-players.zfn", 19, ("", "1: 3s {open"), (1, None)),
    "trick after the levels": (_SJ_MATCH, 45, ("", "1: 3s {open"), (1, None)),
}


@pytest.mark.parametrize("case", sorted(_SYNTAX_PLACES))
def test_a_syntax_error_that_costs_its_game_says_its_hand_and_trick(
    tmp_path: Path, case: str
) -> None:
    name, line_no, (old, new), (hand, trick) = _SYNTAX_PLACES[case]
    lines = (SAMPLES / name).read_text("utf-8").splitlines()
    assert old in lines[line_no - 1]
    lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
    path = tmp_path / "broken.zfn"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    done = runner.invoke(app, ["validate", str(path), "--json"])
    assert done.exit_code == 1, done.output
    diagnostics = json.loads(done.stdout)["files"][0]["diagnostics"]
    [found] = [d for d in diagnostics if d["code"] == "ZF001"]
    assert (found["line"], found["game"]) == (line_no, 1)
    assert (found["hand"], found["trick"]) == (hand, trick)
    assert (found["turn"], found["seat"]) == (None, None)  # a move's: the replay's to know
    unit = "round" if "shengji" in name else "hand"
    place = ", ".join(
        ["game 1"] + [f"{w} {n}" for w, n in ((unit, hand), ("trick", trick)) if n is not None]
    )
    text = runner.invoke(app, ["validate", str(path)])
    said = f"{line_no}:{found['col']} error ZF001 {place}: "
    assert any(row.strip().startswith(said) for row in text.stdout.splitlines()), text.stdout


def test_a_second_score_line_reads_alike_however_it_is_spaced(tmp_path: Path) -> None:
    """The place of a ZF001 is the same whichever route the reader takes to the line: one
    spelt as the writer spells it (read without the lexer) and one with two spaces."""
    text = (SAMPLES / "02-three-players.zfn").read_text("utf-8").rstrip("\n")
    found = []
    for extra in ("score 0 100 0 total 0 110 90", "score 0 100 0  total 0 110 90"):
        path = tmp_path / "twice.zfn"
        path.write_text(f"{text}\n{extra}\n", "utf-8")
        done = runner.invoke(app, ["validate", str(path), "--json"])
        doc = json.loads(done.stdout)
        [d] = [d for d in doc["files"][0]["diagnostics"] if d["code"] == "ZF001"]
        found.append(((d["line"], d["hand"], d["trick"]), doc["summary"]["hands"]))
    assert found[0] == found[1] == ((32, 2, None), 2)
