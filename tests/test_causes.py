"""The validator after a mistake (issue 27, item 8), on minimal records, and a fuzz: errors
that follow from a typo name it.

In the fuzz, one card or name of a legal record is mistyped; whatever error the validator
finds after the typo's own ZF001 must follow from something (`cause`), and that cause must be a
diagnostic it reported before. A legal record has no mistake of its own, so nothing after the
typo is independent of it.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.games.zhengfen.engine.rules import preset
from zfrec.games.zhengfen.simulate import SimConfig, simulate_game
from zfrec.record import dumps, loads
from zfrec.validate import Report, validate_path, validate_text

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
# A card of a move (not of a deal line, whose unreadable card is read as an unknown one).
_CARD = re.compile(r"(?<=[ :])(?:[3-9TJQKA2][shdc]|[SB]J)(?=[ ,!?]|$)")
_SEAT = re.compile(r"(?:^|  )(\w+): ")
_MOVE_LINE = re.compile(r"^\s*(?:[1-6]|[^\W\d]\w*(?: \w+)?): ")


def _typo(rng: random.Random, card: str) -> str:
    return rng.choice(
        [card[0] + rng.choice("xjzq"), rng.choice("1BZ") + card[-1], "Xx", "qq", card + "x"]
    )


def _mistyped(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    spots = [
        (i, m)
        for i, line in enumerate(lines)
        if _MOVE_LINE.match(line) and not line.startswith(("deal", "score", "hand"))
        for m in _CARD.finditer(line)
    ]
    i, m = rng.choice(spots)
    seat = _SEAT.search(lines[i], max(0, m.start() - 12), m.start())
    chance = rng.random()
    if seat is not None and chance < 0.1:  # a colon lost, or doubled: the move, or line, is lost
        colon = seat.end(1)
        lines[i] = lines[i][:colon] + rng.choice(["", "::"]) + lines[i][colon + 1 :]
    elif seat is not None and chance < 0.3:  # the name (or number) of the move's seat
        bad = rng.choice(["Zed", "9", seat.group(1)[:-1] + "q"])
        lines[i] = lines[i][: seat.start(1)] + bad + lines[i][seat.end(1) :]
    else:
        lines[i] = lines[i][: m.start()] + _typo(rng, m.group()) + lines[i][m.end() :]
    return "\n".join(lines)


def _records() -> list[str]:
    texts = [
        p.read_text("utf-8")
        for p in sorted(SAMPLES.glob("*.zfn"))
        if "disputed" not in p.read_text("utf-8")
    ]
    for i in range(24):
        rules = preset(("pagat", "poppel", "parlett")[i % 3]).with_options(target=200)
        texts.append(dumps([simulate_game(SimConfig(3 + i % 4, rules, "greedy", None), 500 + i)]))
    return texts


def _uncaused(text: str) -> tuple[int, list[str]]:
    """How many errors follow the first ZF001, and those that name no earlier diagnostic."""
    (report,) = validate_text(text)
    assert isinstance(report, Report)
    found = list(report.diagnostics)
    first = next((k for k, d in enumerate(found) if d.code == "ZF001"), None)
    if first is None:
        return 0, []
    # (a mistyped move may be unreadable in two places: each is its own ZF001)
    later = [d for d in found[first + 1 :] if d.severity == "error" and d.code != "ZF001"]
    seen = {(d.location.line, d.location.col, d.code) for d in found}
    bad = [
        f"{d.location.line}:{d.location.col} {d.code} {d.message}"
        for d in later
        if d.cause is None or (d.cause.line, d.cause.col, d.cause.code) not in seen
    ]
    return len(later), bad


@pytest.mark.slow
def test_every_error_after_a_typo_names_its_cause() -> None:
    rng = random.Random(27)
    followed = 0
    for text in _records():
        for _ in range(12):
            typod = _mistyped(text, rng)
            count, bad = _uncaused(typod)
            assert bad == [], (bad, typod)
            followed += count
    assert followed > 100  # the typos did have consequences to check


# --- a hand stopped mid-trick, then the last hand (RULINGS 24) ----------------------------------

TRAIN = (SAMPLES / "02-three-players.zfn").read_text("utf-8")


def _stopped_then_last(result: str, last_score: str = "score 0 100 0 total 0 110 90") -> str:
    """The train game to 100, with a result; hand 1 stops after its third trick, without a
    score line, and hand 2 (the last, which ends the game) is as written."""
    head, rest = TRAIN.split("hand 1 shuffler 1\n")
    hand1, hand2 = rest.split("\nhand 2 shuffler 1\n")
    kept = "\n".join(hand1.splitlines()[:6])  # the deal and three tricks
    head = head.replace('[Target "500"]', f'[Target "100"]\n[Result "{result}"]')
    hand2 = hand2.replace("score 0 100 0 total 0 110 90", last_score)
    return f"{head}hand 1 shuffler 1\n{kept}\n\nhand 2 shuffler 1\n{hand2}"


def _codes(text: str) -> list[tuple[str, int | None]]:
    (report,) = validate_text(text)
    assert isinstance(report, Report)
    return [(d.code, d.location.hand) for d in report.diagnostics]


def test_a_stopped_hand_before_the_last_is_one_error_and_the_result_checked_from_the_record() -> (
    None
):
    assert _codes(_stopped_then_last("0 110 90 winner 2")) == [("ZF208", 1)]
    (report,) = validate_text(_stopped_then_last("0 110 90 winner 2"))
    assert isinstance(report, Report)
    assert report.scores == (0, 110, 90) and report.winners == (1,) and report.over
    assert report.to_json()["hands"][1]["totals"] == {"Mei": 0, "Jun": 110, "Hao": 90}


def test_after_a_stopped_hand_a_wrong_result_is_still_found() -> None:
    (report,) = validate_text(_stopped_then_last("0 110 90 winner 3"))
    assert isinstance(report, Report)
    [wrong] = [d for d in report.diagnostics if d.code != "ZF208"]
    assert wrong.code == "ZF403"
    assert "recorded winner Hao differs from the computed winner Jun" in wrong.message
    # The last hand's totals say 0 110 90; a result that says otherwise is an error.
    assert ("ZF403", None) in _codes(_stopped_then_last("0 120 90 winner 2"))


def test_after_a_stopped_hand_the_last_hand_without_totals_leaves_the_result_unchecked() -> None:
    text = _stopped_then_last("0 110 90 winner 2", last_score="score 0 100 0")
    assert _codes(text) == [("ZF208", 1)]


# --- JSON records: diagnostics and their causes have a line and a column ------------------------


def test_causes_in_a_json_record_have_the_line_and_column_of_their_root() -> None:
    # Jun plays the Ah, which Hao holds: Hao's own play of it later follows from that.
    wrong = TRAIN.replace("1: Ks  2: Ad  3: 2s", "1: Ks  2: Ah  3: 2s")
    json_text = dumps(loads(wrong), format="json")
    (report,) = validate_text(json_text, "train.json")
    assert isinstance(report, Report)
    found = report.diagnostics
    [root] = [d for d in found if d.code == "ZF301"]
    later = [d for d in found if d.cause is not None]
    assert {d.code for d in later} >= {"ZF302", "ZF208"}
    lines = json_text.split("\n")
    assert root.location.line is not None and root.location.col is not None
    # The root is placed at the `{` of its move's object, the one that plays the Kc.
    at = lines[root.location.line - 1][root.location.col - 1 :]
    assert at.startswith('{"seat": 2, "play": "Ah"}')
    for d in later:
        assert d.cause is not None
        assert (d.cause.line, d.cause.col, d.cause.code) == (
            root.location.line,
            root.location.col,
            "ZF301",
        )
        assert d.location.line is not None and d.location.col is not None
    # ... and in `--json`, as the text report places them.
    data = runner.invoke(app, ["validate", "--json", "-"], input=json_text).stdout
    written = json.loads(data)["files"][0]["diagnostics"]
    assert {"line": root.location.line, "col": root.location.col, "code": "ZF301"} in [
        d.get("cause") for d in written
    ]


def test_a_json_record_in_a_wrapper_places_each_game_in_the_file(tmp_path: Path) -> None:
    good = loads(TRAIN)[0]
    bad = loads(TRAIN.replace("2: 9c  1: Qd", "2: 9c  1: Qd  3: 2s"))[0]  # after the hand's end
    path = tmp_path / "two.json"
    path.write_text(dumps([good, bad], format="json"), "utf-8")
    lines = path.read_text("utf-8").split("\n")
    reports = [r for r in validate_path(path) if isinstance(r, Report)]
    assert reports[0].ok and not reports[0].diagnostics
    [late] = [d for d in reports[1].diagnostics if d.code == "ZF204"]
    assert late.location.line is not None and late.location.col is not None
    assert lines[late.location.line - 1][late.location.col - 1 :].startswith(
        '{"seat": 3, "play": "2s"}'
    )
    assert late.location.line > len(lines) // 2  # in the second game


# --- a misspelt name in a shuffler or deal line costs only that line ----------------------------


def test_a_misspelt_shuffler_is_read_as_the_one_player_it_is_close_to() -> None:
    text = TRAIN.replace("hand 1 shuffler 1", "hand 1 shuffler Mie").replace(
        "1: Ks  2: Ad  3: 2s",
        "1: Ks  2: 8h  3: 2s",  # and a play that does not beat, later
    )
    (report,) = validate_text(text)
    assert isinstance(report, Report), report  # the game is judged, not lost
    name, *rest = report.diagnostics
    assert (name.code, name.location.line, name.location.col) == ("ZF001", 6, 17)
    assert name.message.endswith("did you mean Mei? (read as Mei)")
    assert name.fix is not None
    assert (name.fix.col, name.fix.end_col, name.fix.text) == (17, 20, "Mei")
    assert "ZF103" in [d.code for d in rest] and "ZF306" not in [d.code for d in rest]
    assert report.game.hands[0].shuffler == 0
    # A name close to nobody: the hand has no shuffler, which is then not checked.
    (report,) = validate_text(TRAIN.replace("hand 1 shuffler 1", "hand 1 shuffler Zed"))
    assert isinstance(report, Report)
    assert [d.code for d in report.diagnostics] == ["ZF001"]
    assert report.diagnostics[0].message.endswith("the shuffler is not checked")
    assert report.scores == (0, 110, 90)


def test_a_misspelt_deal_line_is_read_as_meant_or_skipped_alone() -> None:
    meant = TRAIN.replace("deal 3: 3s 3d", "deal Hoa: 3s 3d")
    (report,) = validate_text(meant)
    assert isinstance(report, Report)
    assert [d.code for d in report.diagnostics] == ["ZF001"]
    assert "did you mean Hao? (read as Hao)" in report.diagnostics[0].message
    assert report.ok is False and report.scores == (0, 110, 90)
    assert not report.hands[0].reconstructed
    # Close to nobody: that line is skipped, and the seat's cards are the ones nobody else was
    # dealt; everything else is judged as before.
    skipped = TRAIN.replace("deal 3: 3s 3d", "deal Qqq: 3s 3d")
    (report,) = validate_text(skipped)
    assert isinstance(report, Report)
    assert [d.code for d in report.diagnostics] == ["ZF001"]
    assert report.diagnostics[0].message.endswith("the line is skipped")
    assert report.scores == (0, 110, 90)
    assert report.to_json()["hands"][0]["deal"]["Hao"].startswith("3s 3d 5s")
    # ... and a mistake after it is its own: the seat's deal is whole again.
    wrong = skipped.replace("score 0 10 90 total 0 10 90", "score 0 10 90 total 0 10 95")
    (report,) = validate_text(wrong)
    assert isinstance(report, Report)
    assert [(d.code, d.cause) for d in report.diagnostics][1:] == [("ZF402", None)]


def test_strict_readers_still_refuse_a_misspelt_shuffler_or_deal_name() -> None:
    from zfrec.errors import NotationError

    for text in (
        TRAIN.replace("hand 1 shuffler 1", "hand 1 shuffler Mie"),
        TRAIN.replace("deal 3: 3s 3d", "deal Qqq: 3s 3d"),
    ):
        with pytest.raises(NotationError, match="no player is called"):
            loads(text)


def test_json_positions_point_at_each_move_object_whatever_the_strings_hold() -> None:
    from zfrec.record.jsonpos import Locator

    tricky = '{"a": [1, "]"]}, \\" quote, [brackets], {braces}, 王芳'
    games = []
    for i in range(3):
        game = simulate_game(SimConfig(3 + i, preset("pagat"), "greedy", 2), 70 + i)
        game.comments = [tricky]
        game.hands[0].tricks[0].moves[0].comments = [tricky]
        game.event = f"night {i} {{not a comment}}"
        games.append(game)
    for text in (dumps(games, format="json"), dumps(games[1], format="json")):
        locator = Locator(text)
        decoder = json.JSONDecoder()
        wrapped = text.lstrip().startswith('{\n  "games"')
        for g, game in enumerate(games if wrapped else games[1:2]):
            found = locator.offsets(g)
            for h, hand in enumerate(game.hands):
                for t, trick in enumerate(hand.tricks):
                    for m, move in enumerate(trick.moves):
                        offset = found[("hands", h, "tricks", t, "moves", m)]
                        data, _ = decoder.raw_decode(text, offset)
                        assert (data["seat"], data["play"]) == (move.seat + 1, move.play_text())
                        line, col = locator.position(offset)
                        assert text.split("\n")[line - 1][col - 1] == "{"
