"""Sheng ji records (FORMAT.md, Sheng ji): the .zfn reader and writer, the JSON form and its
schema, located errors with suggestions, and the record commands (fmt, convert, diff,
simulate --game shengji)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Literal

import pytest
from typer.testing import CliRunner

from zfrec.cli import app
from zfrec.errors import NotationError
from zfrec.games.shengji.cards import card_id, parse_hand
from zfrec.games.shengji.files import iter_sj_text, load_sj
from zfrec.games.shengji.jsonpart import (
    dumps_sj_json,
    match_from_json,
    match_to_json,
    validate_sj,
)
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.reader import parse_sj
from zfrec.games.shengji.records import SjCall, SjMatch, SjMove, SjRound
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.simrecords import match_to_record

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
VALID = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".zfn", ".json"))
runner = CliRunner()

HEAD = '[Game "shengji"]\n[Players "Ann, Bo Li, 王芳, Dan"]\n'


def _at(error: NotationError) -> tuple[int | None, int | None]:
    assert error.location is not None
    return error.location.line, error.location.col


def _round_trip(match: SjMatch) -> None:
    """.zfn -> JSON (schema-valid) -> .zfn byte-identical, and the records equal."""
    text = dumps_sj(match)
    (back,) = parse_sj(text)
    assert back == match
    doc = match_to_json(back)
    validate_sj(doc)  # raises on a schema violation
    again = match_from_json(json.loads(dumps_sj_json(back)))
    assert again == match
    assert dumps_sj(again) == text


def test_there_are_enough_samples_and_each_says_valid() -> None:
    assert len(VALID) >= 8
    assert any(p.suffix == ".json" for p in VALID)
    for path in VALID:
        for match in load_sj(path):
            assert ("Expect", "valid") in match.extra_tags, path.name


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_sample_is_canonical_and_round_trips(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fmt: Literal["zfn", "json"] = "json" if path.suffix == ".json" else "zfn"
    matches = [m for m in iter_sj_text(text, fmt, path.name)]
    assert all(isinstance(m, SjMatch) for m in matches)
    for m in matches:
        assert isinstance(m, SjMatch)
        _round_trip(m)
    if fmt == "zfn":
        assert dumps_sj([m for m in matches if isinstance(m, SjMatch)]) == text
    else:
        (m,) = matches
        assert isinstance(m, SjMatch)
        assert dumps_sj_json(m) == text


def test_samples_cover_the_features() -> None:
    matches = [m for p in VALID for m in load_sj(p)]
    rounds = [r for m in matches for r in m.rounds]
    moves = [mv for r in rounds for t in r.tricks for mv in t.moves]
    assert {m.preset for m in matches} == {"bashifen", "dabaifen", "zhaopengyou"}
    assert any(r.trump == "nt" for r in rounds)
    assert any(mv.forced is not None and mv.blocker is not None for mv in moves)
    assert any((r.points.multiplier or 0) >= 4 for r in rounds if r.points)
    assert any(r.calls for r in rounds) and any(mv.joins for mv in moves)
    assert any(r.deal and any(d.unknown for d in r.deal) for r in rounds)
    assert any(mv.disputed for mv in moves) and any(mv.annotation for mv in moves)
    assert any(m.result and m.result.winners and len(m.rounds) > 3 for m in matches)


@pytest.mark.parametrize(
    ("preset", "options"),
    [("bashifen", {}), ("dabaifen", {}), ("zhaopengyou", {}), ("zhaopengyou", {"players": 7})],
)
def test_simulated_matches_round_trip(preset: str, options: dict[str, int]) -> None:
    rules = sj_preset(preset, **options)
    for seed in (1, 2):
        bots = ["random", "greedy"] * 4
        match = play_match(rules, seed, bots[: rules.players], max_rounds=3)
        _round_trip(match_to_record(match))


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["bashifen", "dabaifen", "zhaopengyou"])
def test_whole_simulated_matches_round_trip(preset: str) -> None:
    rules = sj_preset(preset)
    match = play_match(rules, 5, ["greedy"] * rules.players)
    assert match.winners
    _round_trip(match_to_record(match))


def test_the_table_spelling_reads_as_the_canonical_one() -> None:
    typed = (
        '[game "SHENGJI"]\n[Players “Ann, Bo Li, 王芳, Dan”]\n[Rules "kitty_multiplier=linear"]\n'
        "; kept by Dan\n"
        "round dealer: ann rank 10 trump ♥\n"
        "deal ann: 3s,3s,5h ? ?21\ndeal bo li: ?25\ndeal 王芳：?25\ndeal 4: ?25\n"
        "bids 王芳: 10h  1: 10s10s !\nkitty 5h kd ?6\ndiscard ?8\n"
        "1: kd qd qd forced qdqd by 3 ; blocked\n"
        "{a trick comment} Bo Li: 7♥ 3: 8h  dan: 9h  1: 10h ?! disputed “was it Jh?” or jh\n"
        "points 60 kitty 10 x 6 total 120\nresult opponents +1 next 2\nlevels 2 3 2 3\n"
    )
    canonical = (
        '[Game "shengji"]\n[Players "Ann, Bo Li, 王芳, Dan"]\n'
        '[Rules "bashifen kitty_multiplier=linear"]\n{kept by Dan}\n\n'
        "round 1 dealer 1 rank 10 trump h\n"
        "deal 1: 3s 3s 5h ?22\ndeal 2: ?25\ndeal 3: ?25\ndeal 4: ?25\n"
        "bids 3: Th  1: Ts Ts!\nkitty 5h Kd ?6\ndiscard ?8\n"
        "1: Qd Qd Kd forced Qd Qd by 3 {blocked}\n"
        '{a trick comment} 2: 7h  3: 8h  4: 9h  1: Th?! disputed "was it Jh?" or Jh\n'
        "points 60 kitty 10x6 total 120\nresult opponents +1 next 2\nlevels 2 3 2 3\n"
    )
    (match,) = parse_sj(typed)
    assert dumps_sj(match) == canonical
    assert parse_sj(canonical) == [match]  # idempotent
    move = match.rounds[0].tricks[0].moves[0]
    assert move.cards == parse_hand("Kd Qd Qd") and move.back == parse_hand("Kd")
    assert move.blocker == 2 and move.comments == ["blocked"]
    assert match.rounds[0].tricks[1].moves[0].pos is not None


def test_zhao_pengyou_calls_and_joins() -> None:
    text = (
        '[Game "shengji"]\n[Players "A1, B2, C3, D4, E5"]\n[Rules "zhaopengyou"]\n\n'
        "round 1 dealer 1 rank 2 trump s\ncall 2nd As 1st BJ\n"
        "1: As  2: Ks  3: As joins  4: 3s  5: 4s\n"
    )
    (match,) = parse_sj(text)
    r = match.rounds[0]
    assert r.calls == (SjCall(parse_hand("As").bit_length() // 2, 2), SjCall(53, 1))
    assert [m.joins for m in r.tricks[0].moves] == [False, False, True, False, False]
    assert dumps_sj(match) == text


@pytest.mark.parametrize(
    ("body", "line", "col", "words"),
    [
        ("round 1 dealer 9\n", 4, 16, "there is no seat 9"),
        ("round 1 trump x\n", 4, 15, "unknown trump"),
        ("round 1 rank 1\n", 4, 14, "unknown level"),
        ("1: 7h\n", 4, 1, "a round starts with a line 'round N'"),
        ("round 1\n1: 7x  2: 8h\n", 5, 4, "unknown suit"),
        ("round 1\n1: 7h  zhou wie: 8h\n", 5, 8, "no player is called 'zhou wie'"),
        ("round 1\n1: 7h forced\n", 5, 1, "'forced' needs the cards"),
        ("round 1\n1:\n", 5, 1, "a move needs cards"),
        ("round 1\npoints 60 kitty ten\n", 5, 17, "the kitty is its points"),
        ("round 1\nresult sideways\n", 5, 8, "a result line is"),
        (
            "round 1\nlevels 2 2 2\n",
            5,
            1,
            "each of the 4 seats' level, 2 to A: this one gives 3, and [Players] names 4",
        ),
        ("round 1\ndeal 1: 3s\n", 4, 1, "none for seat 2, 3, 4"),
        ("round 1\npoints 10\n1: 7h\n", 6, 1, "a trick comes before the round's points"),
        ("round 1\n1: 7h\nkitty ?8\n", 6, 1, "the kitty line comes before"),
        ("round 1\ncall 4th As\n", 5, 6, "a call names the copy first"),
        ("round 1\nkitty 7h7h7h7h\n", 5, 7, "copies"),
    ],
)
def test_syntax_errors_are_located(body: str, line: int, col: int, words: str) -> None:
    text = HEAD + "\n" + body
    (item,) = list(iter_sj_text(text, "zfn", "club.zfn"))
    assert isinstance(item, NotationError)
    assert _at(item) == (line, col), str(item)
    assert words in str(item)
    assert str(item).startswith(f"club.zfn:{line}:{col}")


def test_header_errors_are_located() -> None:
    cases = [
        ('[Game "shengji"]\n[Players "A, B, C"]\n\nround 1\n', 2, "4 to 8 players"),
        ('[Game "shengji"]\n[Players "A, B, C, D"]\n[Rules "tractor"]\n\nround 1\n', 3,
         "unknown Sheng ji preset"),
        ('[Game "shengji"]\n[Players "A, B, C, D"]\n[Target "500"]\n\nround 1\n', 3, "no target"),
        ('[Game "shengji"]\n[Players "A, B, C, D"]\n[Result "A 2 A"]\n\nround 1\n', 3,
         "final level of each of the 4 seats"),
    ]  # fmt: skip
    for text, line, words in cases:
        (item,) = list(iter_sj_text(text, "zfn"))
        assert isinstance(item, NotationError) and _at(item)[0] == line, text
        assert words in str(item)


def test_an_error_costs_only_its_game() -> None:
    good = HEAD + "\nround 1\n1: 7h  2: 8h  3: 9h  4: Th\n"
    bad = HEAD + "\nround 1\n1: 7q\n"
    items = list(iter_sj_text(good + "\n" + bad + "\n" + good, "zfn"))
    assert [type(i).__name__ for i in items] == ["SjMatch", "NotationError", "SjMatch"]
    assert isinstance(items[1], NotationError) and _at(items[1])[0] == 11


def test_did_you_mean_for_cards_and_names() -> None:
    text = HEAD + "\nround 1\ndeal 1: 9h Kd ?23\ndeal 2: ?25\ndeal 3: ?25\ndeal 4: ?25\n1: 9j\n"
    (item,) = list(iter_sj_text(text, "zfn"))
    assert isinstance(item, NotationError) and "did you mean 9h?" in str(item)
    assert _at(item) == (9, 4)
    text = HEAD + "\nround 1\n1: 7h  bo lee: 8h\n"
    (item,) = list(iter_sj_text(text, "zfn"))
    assert isinstance(item, NotationError) and "did you mean Bo Li?" in str(item)


def test_json_errors_name_the_path() -> None:
    (m,) = parse_sj(HEAD + "\nround 1 dealer 1\n1: 7h  2: 8h  3: 9h  4: Th\n")
    doc = match_to_json(m)
    bad = json.loads(json.dumps(doc))
    bad["rounds"][0]["tricks"][0]["plays"][1]["seat"] = 9
    with pytest.raises(NotationError, match=r"at /rounds/0/tricks/0/plays/1/seat"):
        match_from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["rounds"][0]["tricks"][0]["plays"][1]["cards"] = "8x"
    with pytest.raises(NotationError, match=r"at /rounds/0/tricks/0/plays/1/cards"):
        match_from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["rounds"][0]["trump"] = "x"
    with pytest.raises(NotationError, match=r"at /rounds/0/trump"):
        match_from_json(bad)


def test_random_records_round_trip() -> None:
    """Records built at random from the model's parts write, read and convert back."""
    rng = random.Random(3)
    for _ in range(40):
        n = rng.choice([4, 5, 6])
        preset = "bashifen" if n == 4 else "zhaopengyou"
        match = SjMatch([f"P{i}" for i in range(n)], preset=preset)
        for number in range(1, rng.randint(1, 3) + 1):
            r = SjRound(number, rng.randrange(n), rng.randint(2, 14),
                        rng.choice(["s", "h", "d", "c", "nt", None]))  # fmt: skip
            for _t in range(rng.randint(0, 3)):
                from zfrec.games.shengji.records import SjTrick

                moves = []
                for k in range(n):
                    cards = parse_hand(" ".join(rng.sample(["3s", "7h", "Kd", "SJ", "Ac"], 2)))
                    mv = SjMove((k + number) % n, cards)
                    if rng.random() < 0.2:
                        mv.forced, mv.blocker = cards & -cards, rng.randrange(n)
                    if rng.random() < 0.2:
                        mv.annotation = rng.choice(["!", "??", "!?"])
                    if rng.random() < 0.2:
                        mv.disputed, mv.alternatives = True, (parse_hand("2c"),)
                    if rng.random() < 0.2:
                        mv.comments.append("note {with} braces\\ and [brackets]")
                    moves.append(mv)
                r.tricks.append(SjTrick(moves))
            match.rounds.append(r)
        _round_trip(match)


# the commands --------------------------------------------------------------------------------


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_fmt_convert_and_diff(tmp_path: Path) -> None:
    sample = SAMPLES / "06-zhaopengyou.zfn"
    loose = tmp_path / "loose.zfn"
    loose.write_text(sample.read_text(encoding="utf-8").replace("round 2 ", "round   2 "),
                     encoding="utf-8")  # fmt: skip
    assert _run("fmt", "--check", str(loose))[0] == 1
    assert _run("fmt", str(loose))[0] == 0
    assert loose.read_bytes() == sample.read_bytes()
    assert _run("fmt", "--check", str(loose))[0] == 0  # idempotent
    js, back = tmp_path / "m.json", tmp_path / "back.zfn"
    assert _run("convert", str(sample), str(js))[0] == 0
    validate_sj(json.loads(js.read_text(encoding="utf-8")))
    assert _run("convert", str(js), str(back))[0] == 0
    assert back.read_bytes() == sample.read_bytes()
    assert _run("diff", str(sample), str(js))[0] == 0
    changed = tmp_path / "changed.zfn"
    text = sample.read_text(encoding="utf-8")
    assert "call 1st" in text
    changed.write_text(text.replace("call 1st", "call 2nd", 1), encoding="utf-8")
    code, output = _run("diff", str(sample), str(changed))
    assert code == 1 and "the calls differ" in output


def test_convert_refuses_a_broken_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zfn"
    bad.write_text(HEAD + "\nround 1\n1: 7x\n", encoding="utf-8")
    code, output = _run("convert", str(bad), str(tmp_path / "out.json"))
    assert code == 2 and "bad.zfn:5:4" in output
    assert not (tmp_path / "out.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["bashifen", "dabaifen", "zhaopengyou"])
def test_simulate_writes_records(tmp_path: Path, preset: str) -> None:
    out = tmp_path / "m.zfn"
    code, output = _run("simulate", "--game", "shengji", "--rules", preset, "--games", "2",
                        "--seed", "1", "--bot", "greedy", "--out", str(out))  # fmt: skip
    assert code == 0, output
    matches = load_sj(out)
    rules = sj_preset(preset)
    expected = [match_to_record(play_match(rules, 1 + i, ["greedy"] * rules.players))
                for i in range(2)]  # fmt: skip
    assert matches == expected and all(m.result and m.result.winners for m in matches)
    js = tmp_path / "m.json"
    assert (
        _run(
            "simulate",
            "--game",
            "shengji",
            "--rules",
            preset,
            "--games",
            "2",
            "--seed",
            "1",
            "--bot",
            "greedy",
            "--format",
            "json",
            "--out",
            str(js),
        )[0]
        == 0
    )
    assert load_sj(js) == expected
    assert _run("convert", str(js), str(tmp_path / "again.zfn"))[0] == 0
    assert (tmp_path / "again.zfn").read_bytes() == out.read_bytes()


def test_the_kind_is_registered_and_its_hooks_agree_with_the_notation() -> None:
    from zfrec.games import find_kind
    from zfrec.games.shengji.kind import KIND, match_of
    from zfrec.games.shengji.notation import format_sj_header

    assert find_kind("ShengJi") is KIND and KIND.unit == "round"
    (match,) = load_sj(SAMPLES / "09-annotated.zfn")
    header = "\n".join(format_sj_header(match)) + "\n"
    comments = "".join("{" + c + "}\n" for c in match.comments)
    body = "\n".join(KIND.body_lines(match)) + "\n"
    assert header + comments + body == dumps_sj(match)
    out: dict[str, object] = {}
    KIND.body_to_json(match, out, False)  # the plain dicts (True: plays as one-line texts)
    assert out["rounds"] == match_to_json(match)["rounds"]
    again = SjMatch(list(match.players))
    KIND.body_from_json(json.loads(json.dumps(out)), again, object())
    assert again.rounds == match.rounds and match_of(match) is match
    assert KIND.ruleset(match) == sj_preset("bashifen", throw_penalty=10)
    assert KIND.parse_option("must_defend=a") == ("must_defend", "A")
    text = KIND.body_text(match, 0)
    assert text is not None and text.startswith("round 1 dealer")


def test_the_worked_example_of_format_md_is_canonical() -> None:
    import re

    text = (Path(__file__).resolve().parent.parent / "FORMAT.md").read_text(encoding="utf-8")
    part = text[text.index("# Sheng ji records") :]
    found = re.search(r"```zfn\n(.*?)```", part, re.S)
    assert found is not None
    block = found.group(1)
    (match,) = parse_sj(block)
    assert dumps_sj(match) == block
    assert match.rounds[0].tricks[0].moves[0].forced == parse_hand("Kd")


def test_the_json_example_of_format_md_is_the_worked_example_converted() -> None:
    import re

    from zfrec.record import dumps, loads

    text = (Path(__file__).resolve().parent.parent / "FORMAT.md").read_text(encoding="utf-8")
    part = text[text.index("# Sheng ji records") :]
    zfn = re.search(r"```zfn\n(.*?)```", part, re.S)
    js = re.search(r"```json\n(.*?)```", part, re.S)
    assert zfn is not None and js is not None
    (game,) = loads(js.group(1), "json")
    assert dumps(game, "json") == js.group(1) and dumps(game) == zfn.group(1)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_the_generic_record_layer_reads_and_writes_samples_alike(path: Path) -> None:
    """zfrec.record (through the kind's hooks) and the Sheng ji reader agree on every sample."""
    from zfrec.games.shengji.kind import match_of
    from zfrec.record import dumps, load

    games = list(load(path))
    assert all(g.kind == "shengji" for g in games)
    assert [match_of(g) for g in games] == load_sj(path)
    fmt: Literal["zfn", "json"] = "json" if path.suffix == ".json" else "zfn"
    assert dumps(games[0] if len(games) == 1 else games, fmt) == path.read_text(encoding="utf-8")


def test_seven_players_and_three_decks_through_the_generic_layer() -> None:
    from zfrec.record import dumps, loads

    rules = sj_preset("zhaopengyou", players=7)
    record = match_to_record(play_match(rules, 2, ["greedy"] * 7, max_rounds=1))
    text = dumps_sj(record)
    (game,) = loads(text)
    assert len(game.players) == 7 and dumps(game) == text
    (again,) = loads(dumps(game, "json"), "json")
    assert dumps(again) == text


def test_must_defend_as_the_writer_spells_it_reads_back_through_the_generic_layer() -> None:
    """`[Rules "bashifen must_defend=5,10,K,A"]`, as simulate and fmt write it, is read by
    zfrec.record (validate, audit, import) as one option, not cut at its commas."""
    from zfrec.record import dumps, loads

    rules = sj_preset("bashifen", must_defend="5,10,K,A", kitty_multiplier="linear")
    text = dumps_sj(match_to_record(play_match(rules, 3, ["greedy"] * 4, max_rounds=1)))
    assert '[Rules "bashifen kitty_multiplier=linear must_defend=5,10,K,A"]' in text
    (game,) = loads(text)
    assert game.options == {"kitty_multiplier": "linear", "must_defend": "5,10,K,A"}
    assert dumps(game) == text
    (glued,) = loads(text.replace("bashifen kitty_multiplier", "bashifen,kitty_multiplier"))
    assert glued.options == game.options
    # written by hand with a space after each comma, the value is the same
    (spaced,) = loads(text.replace("must_defend=5,10,K,A", "must_defend=5, 10, K, A"))
    assert spaced.options == game.options


def test_a_recovering_reader_notes_bad_cards_and_lines_and_goes_on() -> None:
    from zfrec.record import Game, iter_records_text

    text = (
        HEAD + "\nround 1 dealer 1\ndeal 1: 9h 9h Kd ?22\ndeal 2: ?25\ndeal 3: ?25\ndeal 4: ?25\n"
        "1: 9h 9j  2: 8h 8h  3: 7h 7h  4: 6h 6h\n"
        "1: Kd  zhou wie: 3s  3: 4s  4: 5s\n"
        "1: Kd  2: 3s  3: 4s  4: 5s\n"
    )
    (game,) = list(iter_records_text(text, "zfn", "t.zfn", recover=True))
    assert isinstance(game, Game)
    card, line = game.problems
    assert card.kind == "card" and card.pos == (9, 7) and card.fix is not None
    assert card.fix.text == "9h" and "did you mean 9h?" in card.message
    assert line.kind == "line" and line.pos[0] == 10 and "zhou wie" in line.message
    tricks = game.rounds[0].tricks
    assert len(tricks) == 2 and tricks[0].moves[0].cards == parse_hand("9h")
    (item,) = list(iter_records_text(text, "zfn", "t.zfn"))  # a strict reader stops there
    assert isinstance(item, NotationError) and _at(item) == (9, 7)


def _positions(match: SjMatch) -> list[object]:
    out: list[object] = []
    for r in match.rounds:
        out += [r.pos, *(d.pos for d in r.deal or ()), *(b.pos for b in r.bids)]
        for t in r.tricks:
            out += [t.pos, *(m.pos for m in t.moves)]
    return out


@pytest.mark.parametrize("path", [p for p in VALID if p.suffix == ".zfn"], ids=lambda p: p.name)
def test_plain_lines_read_as_the_lexer_reads_them(path: Path) -> None:
    """The generic reader takes canonical trick and deal lines by the fast path; the Sheng ji
    reader takes every line through the lexer: the same records, at the same places."""
    from zfrec.games.shengji.kind import match_of
    from zfrec.record import load

    fast = [match_of(g) for g in load(path)]
    lexed = load_sj(path)
    assert fast == lexed
    assert [_positions(m) for m in fast] == [_positions(m) for m in lexed]


def test_a_plain_trick_makes_its_moves_only_when_asked() -> None:
    """A trick read from a plain line keeps its plays and its line (`SjTrick.plain`), and makes
    the moves the lexer reads when first asked for them; a copy or a pickle makes them too."""
    import pickle

    from zfrec.games.shengji.kind import match_of
    from zfrec.record import loads

    text = (SAMPLES / "06-zhaopengyou.zfn").read_text(encoding="utf-8")
    (lexed,) = parse_sj(text)
    want = lexed.rounds[0].tricks[4]  # `4: As joins  5: 5s ...`
    (game,) = loads(text)
    trick = match_of(game).rounds[0].tricks[4]
    assert trick.plain is not None
    assert trick.plain[0] == [(m.seat, m.cards) for m in want.moves]
    assert trick.plain[1] == "4: As joins  5: 5s  1: 6s  2: Ks  3: 7s"
    moves = trick.moves
    assert trick.plain is None and trick.moves is moves
    assert moves == want.moves and [m.pos for m in moves] == [m.pos for m in want.moves]
    assert trick == want and moves[0].joins
    for copied in (copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))):
        (game,) = loads(text)
        trick = copied(match_of(game).rounds[0].tricks[4])
        assert trick.plain is None and trick == want
        assert [m.pos for m in trick.moves] == [m.pos for m in want.moves]
    # a trick made any other way has its moves, and no line; no other attribute is made
    assert lexed.rounds[0].tricks[4].plain is None
    untouched = match_of(game).rounds[0].tricks[3]
    assert not hasattr(untouched, "nothing") and untouched.plain is not None


def test_plain_line_edge_cases_agree_with_the_lexer() -> None:
    from zfrec.games.shengji.kind import match_of
    from zfrec.record import loads

    text = (
        HEAD + "\nround 1 dealer 1\ndeal 1: 3s ?\ndeal 2: ?\ndeal 3: BJ BJ ?7\ndeal 4:\n"
        "1: 3s  2: 3s!?  3: BJ BJ  4: 7h\n2: SJ  3: SJ??\n"
    )
    (game,) = loads(text)
    (lexed,) = parse_sj(text)
    assert match_of(game) == lexed and _positions(match_of(game)) == _positions(lexed)
    assert [d.unknown for d in lexed.rounds[0].deal or ()] == [1, 1, 7, 0]
    # a fourth copy, or a trick after the points, is left to the lexer, which reports it
    bad = HEAD + "\nround 1\n1: 7h 7h 7h 7h\n"
    with pytest.raises(NotationError, match="copies"):
        loads(bad)
    with pytest.raises(NotationError, match="before the round's points"):
        loads(HEAD + "\nround 1\npoints 10\n1: 7h  2: 8h\n")


def test_plain_statements_agree_with_the_lexer() -> None:
    """Every statement of a round spelled as the writer spells it (zfrec.games.shengji.plain)
    reads as the lexer reads it; a spelling or a value the plain reader does not take is left
    to the lexer, which reads or reports it."""
    from zfrec.games.shengji.kind import match_of
    from zfrec.record import loads

    text = (
        HEAD.replace("Dan", "Dan, Eve") + '[Rules "zhaopengyou"]\n'
        "\nround 1 dealer 2 rank 10 notrump\nkitty 3s ?6\ndiscard ?8\ncall 2nd As 1st 10h\n"
        "bids 2: 2s  3: 2h 2h! joins\n1: 3s  2: 4s  3: 5s  4: 6s  5: 7s\n"
        "1: 8s  2: 9s joins  3: Ts!  4: Js? joins  5: Qs\n"
        "points -5 kitty 10x4 penalty -10 total 90\nresult swap next 3\nlevels 3 2 A 10 2\n"
        "\nround 2 dealer 3 rank 2 trump h\npoints 0 kitty 5 total 0\n"
        "result opponents +2\nlevels 2 2 2 2 2\n"
        "\nround 3\npoints 7 penalty 5\nresult declarers +1\n"
        # other spellings: for the lexer
        "\nround 4 trump d dealer 1\nkitty ?8\npoints 7 total 9 kitty 10x2\nresult swap\n"
        "levels 3 2 a t 2\n"
    )
    (game,) = loads(text)
    (lexed,) = parse_sj(text)
    assert match_of(game) == lexed and _positions(match_of(game)) == _positions(lexed)
    r1 = lexed.rounds[0]
    assert (r1.rank, r1.trump, r1.kitty and r1.kitty.unknown) == (10, "nt", 6)
    assert r1.calls == (SjCall(card_id("As"), 2), SjCall(card_id("Th"), 1))
    assert [m.joins for m in r1.tricks[1].moves] == [False, True, False, True, False]
    assert r1.tricks[1].moves[3].annotation == "?" and r1.bids[1].joins
    assert r1.points is not None and (r1.points.penalty, r1.points.total) == (-10, 90)
    assert r1.outcome is not None and (r1.outcome.side, r1.outcome.steps) == ("opponents", 0)
    assert [r.points and r.points.kitty for r in lexed.rounds] == [10, 5, None, 10]
    # what the plain reader leaves alone is still an error where it is one
    for bad, message in [
        ("round 1\npoints 5\npoints 6\n", "given twice"),
        ("round 1\nkitty 3s\nkitty 4s\n", "given twice"),
        ("round 1\nlevels 2 2 2\n", "each of the 4 seats"),
        ("round 1\ncall 2nd As\ncall 1st Kh\n", "given twice"),
        ("round 1\n1: 3s  2: 4s  3: 5s  4: 6s\nkitty 3s\n", "before the round's first trick"),
        ("round 1\nresult declarers +100\n", "level change"),
        ("round 0\n", "round number"),
    ]:
        with pytest.raises(NotationError, match=message):
            loads(HEAD + "\n" + bad)


_NOISE = [
    "forced", "by", "joins", "disputed", "or", "?", "?9999", "kitty", "x4", "round", "deal",
    "bids", "call", "3rd", "4th", "points", "-5", "result", "swap", "next", "levels", "A", "{",
    "}", ";", '"', "：", ":", "7h7h7h7h", "Zhang 张:", "9:", "notrump", "rank", "trump", "x",
    "BJ=8h", "!!", '[Game "shengji"]', "99999999999",
]  # fmt: skip


def _mutated(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        words = lines[i].split(" ")
        op = rng.random()
        if op < 0.4:
            words.insert(rng.randrange(len(words) + 1), rng.choice(_NOISE))
        elif op < 0.7 and len(words) > 1:
            del words[rng.randrange(len(words))]
        elif op < 0.85:
            lines.insert(i, rng.choice(lines))
            continue
        else:
            j = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:j] + rng.choice(_NOISE) + lines[i][j:]
            continue
        lines[i] = " ".join(words)
    return "\n".join(lines)


@pytest.mark.parametrize("count", [60, pytest.param(1500, marks=pytest.mark.slow)])
def test_mangled_records_read_or_fail_cleanly_and_what_reads_round_trips(count: int) -> None:
    """Samples with words inserted, deleted or repeated: the reader gives a record or a
    NotationError (strict or recovering), never anything else; what it reads writes back and
    reads again the same, as text and as JSON."""
    from zfrec.record import Game, dumps, iter_records_text

    texts = [p.read_text(encoding="utf-8") for p in VALID if p.suffix == ".zfn"]
    rng = random.Random(7)
    for _ in range(count):
        text = _mutated(rng, rng.choice(texts))
        for recover in (False, True):
            for item in iter_records_text(text, "zfn", "m.zfn", recover=recover):
                assert isinstance(item, Game | NotationError)
                if isinstance(item, Game) and not recover:
                    assert list(iter_records_text(dumps(item), "zfn")) == [item]
                    assert list(iter_records_text(dumps(item, "json"), "json")) == [item]


def test_plain_cards_lines_read_exactly_what_their_regex_matches() -> None:
    """`plain._cards` reads deal, kitty and discard lines word by word: it takes exactly the
    lines `_PLAIN_CARDS_RE` matches (with a seat of the table), with the same cards and unknown
    count."""
    from zfrec.games.shengji import plain
    from zfrec.games.shengji.zfn import SjBody
    from zfrec.record.seatrefs import Seats

    rng = random.Random(7)
    canonical = list(plain._BIT)
    odd = ["10s", "sj", "", "?", "?0", "?7", "?999", "?1000", "?01", "?²", "3S", "x"]
    heads = ["deal 1:", "deal 4:", "deal 9:", "deal 1", "deal 12:", "kitty", "discard", "kittys"]
    taken = 0
    for _ in range(20_000):
        k = rng.randrange(6)
        words = [rng.choice(odd if rng.random() < 0.1 else canonical) for _ in range(k)]
        if rng.random() < 0.4:
            words.append(rng.choice(["?", "?3", "?0", "?100", "?1000", "?05"]))
        line = rng.choice(heads) + (" " if words or rng.random() < 0.2 else "") + " ".join(words)
        m = plain._PLAIN_CARDS_RE.fullmatch(line)
        want = None
        if m is not None and m.group(1) != "9":  # four seats: no seat 9
            known = plain.packed(m.group(2)) if m.group(2) else 0
            unknown = m.group(3)
            count = 0 if unknown is None else 1 if unknown == "?" else int(unknown[1:])
            if known is not None and count <= plain.MAX_UNKNOWN:
                want = (known, count)
        body = SjBody(Seats(["A", "B", "C", "D"]))
        body.round = rnd = SjRound(1)
        got = None
        if plain._cards(body, rnd, line, 1):
            cards = rnd.kitty or rnd.discard or (rnd.deal or ())[int(line[5]) - 1]
            got = (cards.known, cards.unknown)
            taken += 1
        assert got == want, line
    assert taken > 2_000


@pytest.mark.parametrize(("rules", "size"), [("", 25), ("dabaifen", 12), ("bashifen", 25)])
def test_a_missing_deal_line_is_hinted_with_the_rules_hand_size(rules: str, size: int) -> None:
    from zfrec.validate import validate_text

    tag = f'[Rules "{rules}"]\n' if rules else ""
    text = f'[Game "shengji"]\n[Players "A, B, C, D"]\n{tag}\nround 1\ndeal 1: 3s\n'
    hint = f"none for seat 2, 3, 4: write 'deal 2: ?{size}' for a seat nothing is known of"
    (item,) = list(iter_sj_text(text, "zfn", "club.zfn"))  # the Sheng ji reader
    assert isinstance(item, NotationError) and hint in str(item)
    (found,) = validate_text(text)  # the generic reader
    assert not hasattr(found, "diagnostics") and hint in found.message
