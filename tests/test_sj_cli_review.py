"""Sheng ji on the command line as a new user meets it: records that stop mid-trick, typos,
options a command does not take for Sheng ji, tables with Chinese names, bad figures."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.sj_solve_reference import minimax
from zfrec.cli import app
from zfrec.games.shengji.cards import format_hand
from zfrec.games.shengji.solve import SjBudget, solve_state
from zfrec.games.shengji.solverecord import record_position
from zfrec.record import load

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games" / "shengji"
THROW = SAMPLES / "03-failed-throw.zfn"


def _cut(tmp_path: Path, lines: int, extra: str = "") -> Path:
    """The first `lines` lines of the failed-throw sample (its round stops there), then
    `extra`."""
    text = "".join(THROW.read_text(encoding="utf-8").splitlines(keepends=True)[:lines])
    path = tmp_path / "cut.zfn"
    path.write_text(text + extra, encoding="utf-8")
    return path


def _diagnostics(path: Path) -> tuple[int, list[tuple[str, str, int]]]:
    res = runner.invoke(app, ["validate", "--json", str(path)])
    doc = json.loads(res.stdout)
    found = [
        (d["code"], d["severity"], d["line"])
        for f in doc["files"]
        for g in f["games"]
        for d in g["diagnostics"]
    ]
    return res.exit_code, found


def test_a_record_that_stops_in_the_middle_of_a_trick_only_stops(tmp_path: Path) -> None:
    # as a Zheng Fen record may (ZF206): the round stops there, a warning, not SJ206
    path = _cut(tmp_path, 24, "2: 3s Ks forced 3s by 3  3: Ts\n")
    code, found = _diagnostics(path)
    assert (code, found) == (0, [("SJ205", "warning", 25)])
    # the plays of the open trick are judged: 王芳 did not lead trick 14 nor hold 3s
    path = _cut(tmp_path, 30, "2: 3s\n")
    code, found = _diagnostics(path)
    assert code == 1
    assert [c for c, _, _ in found] == ["SJ203", "SJ102", "SJ205"]


def test_a_short_trick_before_the_end_of_the_round_is_still_an_error(tmp_path: Path) -> None:
    path = _cut(tmp_path, 24, "2: 3s Ks forced 3s by 3  3: Ts\n3: 9h  4: Kh  1: Th  2: 5c\n")
    code, found = _diagnostics(path)
    assert code == 1 and ("SJ206", "error", 25) in found
    # as is one in the last round's last line when the round's points follow
    path = _cut(tmp_path, 24, "2: 3s Ks forced 3s by 3  3: Ts\npoints 75 total 75\n")
    code, found = _diagnostics(path)
    assert code == 1 and ("SJ206", "error", 25) in found


def test_a_play_whose_only_card_is_misspelt_is_one_error_with_its_suggestion(
    tmp_path: Path,
) -> None:
    text = THROW.read_text(encoding="utf-8").replace("3: 6h  4: 8h", "3: 6h  4: 8j", 1)
    path = tmp_path / "typo.zfn"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["validate", "--json", str(path)])
    [game] = json.loads(res.stdout)["files"][0]["games"]
    read = [d for d in game["diagnostics"] if d["code"] == "ZF001"]
    # once, at the card, with the seat's cards it may mean; not also "a move needs cards"
    assert [(d["line"], d["col"]) for d in read] == [(21, 11)]
    assert "did you mean 8s, 8h or 8d?" in read[0]["message"]
    assert "the line is skipped" in read[0]["message"]
    assert read[0]["fix"]["text"] == "8s"
    # what goes wrong because the trick was skipped follows from the card
    later = [d for d in game["diagnostics"] if d["code"] != "ZF001"]
    assert later and all(d["cause"]["line"] == 21 for d in later)


def test_solve_refuses_zheng_fen_options_for_a_sheng_ji_record(tmp_path: Path) -> None:
    # refused as every command refuses another game's options (GameKind.own_options), in the
    # words of the record's game (GameKind.refusals); given at its default value counts
    path = _cut(tmp_path, 37)  # three tricks left: Ann to lead
    takes = "a Sheng ji solve takes --at, --max-nodes, --max-seconds and --json"
    for extra in (["--seat", "Ann"], ["-s", "1"], ["--only-seat"], ["--table", "800000"]):
        res = runner.invoke(app, ["solve", str(path), *extra])
        flag = "--seat" if extra[0] == "-s" else extra[0]
        assert (res.exit_code, res.stdout) == (2, ""), extra
        assert res.stderr == f"error: {flag} is Zheng Fen's: {takes}\n", extra
    res = runner.invoke(app, ["solve", str(path), "--table", "5000", "--seat", "Ann"])
    assert res.stderr == f"error: --seat and --table are Zheng Fen's: {takes}\n"
    res = runner.invoke(app, ["solve", str(path), "--table", "5000", "-s", "1", "--only-seat"])
    assert res.stderr == f"error: --seat, --only-seat and --table are Zheng Fen's: {takes}\n"
    # a Zheng Fen record still takes them
    unfinished = ROOT / "sample_games" / "unfinished" / "three-players.zfn"
    res = runner.invoke(app, ["solve", str(unfinished), "--seat", "1", "--table", "5000"])
    assert res.exit_code == 0 and "holding" in res.stdout


def test_solve_text_names_the_seat_to_move_and_an_unproved_value(tmp_path: Path) -> None:
    path = _cut(tmp_path, 37)
    # the figures the text must show, from the solver's library on the same position; its
    # value also from the tests' plain minimax, which shares nothing with the solver
    (game,) = list(load(path))
    pos = record_position(game)
    players = game.players
    to_move = players[pos.state.turn]
    expected = solve_state(pos.state, SjBudget(None, None))
    assert expected.exact and expected.value == minimax(pos.state, 100_000)
    res = runner.invoke(app, ["solve", str(path)])
    assert res.exit_code == 0
    # the round solved first, as Zheng Fen's solve names its hand
    head = f"game 1, {pos.match.round_said(pos.index)}: {to_move} to move\n"
    assert head.startswith("game 1, round ")
    assert res.stdout.startswith(
        f"{head}perfect play from here: opponents {expected.value}, declarers "
        f"{expected.declarers}\n"
    )
    best = " | ".join(format_hand(p) for p in expected.best)
    assert f"best for {to_move} (to move): {best}\n" in res.stdout
    # each play shown as best keeps the value, by the minimax
    for play in expected.best:
        pos.state.play(pos.state.turn, play)
        assert minimax(pos.state, 100_000) == expected.value, format_hand(play)
        pos.state.undo()
    res = runner.invoke(app, ["solve", str(path), "--max-nodes", "1"])
    assert res.exit_code == 1
    cut_short = solve_state(pos.state, SjBudget(1, None))
    assert not cut_short.exact
    assert res.stdout.startswith(
        f"{head}best found from here (not proved): opponents {cut_short.value}, "
        f"declarers {cut_short.declarers}\n"
    )
    assert f"proved: opponents between {cut_short.lower} and {cut_short.upper}\n" in res.stdout
    assert "perfect play" not in res.stdout
    assert res.stdout.endswith("or give a larger budget (--max-seconds, --max-nodes)\n")


def test_analyze_players_table_lines_up_chinese_names() -> None:
    from zfrec.record.lexer import display_width

    res = runner.invoke(app, ["analyze", str(THROW), "--summary"])
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    start = lines.index(next(ln for ln in lines if ln.startswith("players (")))
    rows = lines[start + 1 : start + 5]
    assert [r.split()[0] for r in rows] == ["Ann", "王芳", "Bo", "李娜"]
    # every row as wide on the screen, so the figures stand in columns
    assert len({display_width(r) for r in rows}) == 1
    ann, wang = rows[0], rows[1]
    assert display_width(wang[: wang.index(" 30 ")]) == display_width(ann[: ann.index(" 45 ")])


def test_simulate_refuses_zheng_fen_options_it_would_ignore(tmp_path: Path) -> None:
    out = tmp_path / "m.zfn"
    base = ["simulate", "--game", "shengji", "--games", "1", "--out", str(out)]
    res = runner.invoke(app, [*base, "--players", "6"])
    assert res.exit_code == 2 and "--players 6: a Sheng ji table has the preset's seats" in (
        res.stderr
    )
    res = runner.invoke(app, [*base, "--hands-per-game", "3"])
    assert res.exit_code == 2 and "--hands-per-game is Zheng Fen's" in res.stderr
    assert not out.exists()
    # --players that says what the table has is fine
    res = runner.invoke(app, [*base, "--rules", "zhaopengyou", "--option", "players=6",
                              "--players", "6"])  # fmt: skip
    assert res.exit_code == 0, res.stderr
    assert '[Players "' in out.read_text(encoding="utf-8")
    assert len(out.read_text(encoding="utf-8").split("\n", 3)[2].split(",")) == 6


def test_an_unknown_option_name_is_named_as_such() -> None:
    res = runner.invoke(app, ["classify", "--game", "shengji", "--trump", "7c", "8d",
                              "--option", "self_overplay=true"])  # fmt: skip
    assert res.exit_code == 2
    assert "unknown Sheng ji option 'self_overplay': options are kitty_multiplier" in res.stderr
    res = runner.invoke(app, ["classify", "--game", "shengji", "--trump", "7c", "8d",
                              "--option", "players"])  # fmt: skip
    assert res.exit_code == 2
    assert "Sheng ji option 'players' should look like name=value" in res.stderr


def test_a_misspelt_chinese_name_close_to_one_player_is_read_as_that_player(
    tmp_path: Path,
) -> None:
    text = THROW.read_text(encoding="utf-8")
    path = tmp_path / "name.zfn"
    path.write_text(text.replace("\n2: 4c  3: BJ", "\n王方: 4c  3: BJ", 1), encoding="utf-8")
    code, found = _diagnostics(path)
    # one error, at the name; the trick is read with 王芳's play, so nothing follows from it
    assert (code, found) == (1, [("ZF001", "error", 30)])
    res = runner.invoke(app, ["validate", str(path)])
    assert "did you mean 王芳? (read as 王芳)" in res.stdout
    res = runner.invoke(app, ["audit", "--json", str(path)])
    [edit] = json.loads(res.stdout)["games"][0]["repairs"][0]["edits"]
    assert (edit["kind"], edit["before"], edit["after"]) == ("read", "王方", "王芳")
    # a name close to nobody's still costs its line
    path.write_text(text.replace("\n2: 4c  3: BJ", "\nXyz: 4c  3: BJ", 1), encoding="utf-8")
    code, found = _diagnostics(path)
    assert code == 1 and found[0] == ("ZF001", "error", 30) and len(found) > 1


def test_the_top_level_help_names_sheng_ji_and_how_to_pick_it() -> None:
    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())
    assert "Sheng ji (升级)" in text and "--game shengji" in text


def test_table_commands_refuse_more_plays_or_copies_than_the_table_has() -> None:
    sj = ["--game", "shengji", "--trump", "7c"]
    cases = [
        (["trick", *sj, "8d", "9d", "Td", "Jd", "Qd"], "at most 4 (bashifen), not 5"),
        (["trick", *sj, "8d 8d", "8d 8d"], "8d is given 4 times: 2 deck(s)"),
        (["trick", *sj, "--rules", "dabaifen", "8d", "8d"], "8d is given 2 times: 1 deck(s)"),
        (["throw", *sj, "Kd Qd", "--other", "Kd Kd", "--other", "4h", "--other", "5c"],
         "Kd is given 3 times"),
        (["throw", *sj, "Kd Qd", "--other", "4h", "--other", "5c", "--other", "6c",
          "--other", "7d"], "once for each of the 3 other players (bashifen), not 4 times"),
        (["legal", *sj, "--lead", "8d 8d", "8d 8d 9d"], "8d is given 4 times"),
    ]  # fmt: skip
    for args, message in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, args
        assert message in res.stderr, (args, res.stderr)
    # the README's examples still answer
    res = runner.invoke(app, ["trick", *sj, "8d 8d", "9d 9d", "Jc Qc", "Td 2s", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout) == {"winner": 2, "points": 10}
    res = runner.invoke(app, ["throw", *sj, "Kd Qd", "--other", "Kd 3s", "--other", "4h",
                              "--other", "5c"])  # fmt: skip
    assert res.exit_code == 1 and "the throw fails" in res.stdout


def test_validate_rules_and_options_are_read_by_each_record_s_game(tmp_path: Path) -> None:
    # Sheng ji's presets and options re-judge a Sheng ji record (they were refused, or read
    # as Zheng Fen's: --rules pagat was an internal error)
    res = runner.invoke(app, ["validate", "--json", "--option", "throw_penalty=10", str(THROW)])
    assert res.exit_code == 1
    [game] = json.loads(res.stdout)["files"][0]["games"]
    assert [d["code"] for d in game["diagnostics"]] == ["SJ501"]  # two cards taken back
    assert "throw penalties come to -10" in game["diagnostics"][0]["message"]
    res = runner.invoke(app, ["validate", "--rules", "dabaifen", str(THROW)])
    assert res.exit_code == 1 and "SJ302" in res.stdout  # one deck: hands of 12
    # --option applies on top of --rules
    code, found = _diagnostics(THROW)
    assert (code, found) == (0, [])
    res = runner.invoke(app, ["validate", "--rules", "bashifen", "-o", "throw_penalty=10",
                              str(THROW)])  # fmt: skip
    assert res.exit_code == 1 and "SJ501" in res.stdout
    # another game's preset: an error at the record, not a traceback
    res = runner.invoke(app, ["validate", "--rules", "pagat", str(THROW)])
    assert res.exit_code == 1
    assert "a Sheng ji record is not re-judged: unknown Sheng ji preset 'pagat'" in res.stdout
    # a Zheng Fen record with Zheng Fen's rules is judged as before; a name of no game: exit 2
    zf = ROOT / "sample_games" / "02-three-players.zfn"
    res = runner.invoke(app, ["validate", "--rules", "poppel", str(zf)])
    assert res.exit_code == 0 and "all legal" in res.stdout
    res = runner.invoke(app, ["validate", "--rules", "nope", str(THROW)])
    assert res.exit_code == 2
    assert res.stderr == (
        "error: no game reads these rules: Zheng Fen: unknown preset 'nope': presets are pagat, "
        "poppel, parlett; Sheng ji: unknown Sheng ji preset 'nope': presets are bashifen, "
        "dabaifen, zhaopengyou\n"
    )


def test_an_option_a_record_s_rules_cannot_take_is_an_error_at_that_record_only() -> None:
    # a value out of range, or a seat count the record's preset does not have, is found only
    # at a record of that game: an error there, and the files after it are still judged
    zf = ROOT / "sample_games" / "07-parlett.zfn"
    later = SAMPLES / "01-bashifen-match.zfn"
    for option in ("throw_penalty=-1", "players=9"):
        res = runner.invoke(app, ["validate", "--json", "-o", option, str(zf), str(THROW),
                                  str(later)])  # fmt: skip
        assert res.exit_code == 1, res.output
        files = json.loads(res.stdout)["files"]
        assert len(files) == 3
        for judged in files[1:]:
            [found] = judged["diagnostics"]
            assert found["message"].startswith("a Sheng ji record is not re-judged: ")


def test_audit_says_a_larger_budget_helps_only_when_the_bound_was_reached() -> None:
    short = SAMPLES / "broken" / "short-trick.zfn"  # no edit is made for a missing play
    res = runner.invoke(app, ["audit", str(short)])
    assert res.exit_code == 1
    assert "no repair found: no edit the audit makes repairs this error" in res.stdout
    assert "--budget" not in res.stdout
    dealer = SAMPLES / "broken" / "wrong-dealer.zfn"
    res = runner.invoke(app, ["audit", "--budget", "1", str(dealer)])
    assert res.exit_code == 1
    assert "no repair found within the search bound (try --budget)" in res.stdout


def test_a_card_not_held_suggests_only_cards_the_record_shows_the_seat_holding(
    tmp_path: Path,
) -> None:
    head = (
        '[Game "shengji"]\n[Players "Ann, 王芳, Bo Li, 李娜"]\n\nround 1 dealer 1 trump c\n'
        "deal 1: 3h 4s 4h 4h 5s 5d 6d 7s 7c 8c 9s 9s 9c Th Th Jc Qh Qd Qc Kd Ad Ac Ac 2c SJ\n"
    )
    path = tmp_path / "partial.zfn"
    for deal2, hint in (("?25", ""), ("4d ?24", "; did you mean 4d?")):
        deals = f"deal 2: {deal2}\ndeal 3: ?25\ndeal 4: ?25\n"
        body = deals + "bids 1: 2c\n1: 3h  2: 4h  3: 5h  4: 6h\n"
        path.write_text(head + body, encoding="utf-8")
        res = runner.invoke(app, ["validate", str(path)])
        # both 4h are Ann's; 王芳's other fours are guessed fillers, not suggestions
        assert f"王芳 does not hold 4h{hint} (RULES-SHENGJI.md R2)" in res.stdout


def test_a_follow_not_made_names_only_cards_the_record_shows(tmp_path: Path) -> None:
    path = tmp_path / "follow.zfn"
    path.write_text(
        '[Game "shengji"]\n[Players "Ann, 王芳, Bo Li, 李娜"]\n\nround 1 dealer 1 trump c\n'
        "deal 1: 3h 4s 4h 4h 5s 5d 6d 7s 7c 8c 9s 9s 9c Th Th Jc Qh Qd Qc Kd Ad Ac Ac 2c SJ\n"
        "deal 2: 3h ?24\ndeal 3: ?25\ndeal 4: ?25\nbids 1: 2c\n1: 4h  2: 5d  3: 5h  4: 6h\n",
        encoding="utf-8",
    )
    res = runner.invoke(app, ["validate", str(path)])
    # 王芳 is known to hold one heart; the rebuild's guessed hearts are no part of the reason
    assert (
        "王芳 played 5d to 4h, but must play every one of the hearts held (3h) before" in res.stdout
    )
    assert "of the 7 hearts held" not in res.stdout


def test_one_game_s_table_options_given_to_the_other_are_refused() -> None:
    # without --game shengji, --trump used to be ignored: a Zheng Fen answer to a Sheng ji
    # question ("card 8d is given twice")
    cases = [
        (["classify", "--trump", "7c", "8d 8d 6d 6d"], "--trump is Sheng ji's: add --game shengji"),
        (["legal", "3h 5h 5s", "--trump", "7c", "--decks", "2"], "--trump and --decks are"),
        (["legal", "3h 5h 5s", "--limit", "1"], "--limit is Sheng ji's"),
        (["legal", "--game", "shengji", "--trump", "7c", "9d 9d Jd", "--physical"],
         "--physical is Zheng Fen's"),
    ]  # fmt: skip
    for args, message in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, args
        assert message in res.stderr, (args, res.stderr)
    res = runner.invoke(app, ["classify", "7s 7h", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["readings"]


def test_each_game_s_own_options_are_refused_for_the_other_game(tmp_path: Path) -> None:
    # the refusals come from the kinds (GameKind.own_options), not from one game's code naming
    # the other's options: every option a kind lists, given to the other game's command, is
    # named with its game; given on the command line counts, even at its default value
    from zfrec.games import KINDS, find_kind

    base = {
        "classify": ["classify", "8d 9d"],
        "legal": ["legal", "3h 5h"],
        "simulate": ["simulate", "--games", "1", "--out", str(tmp_path / "s.zfn")],
        "solve": ["solve", str(_cut(tmp_path, 37))],  # the record's game: Sheng ji
    }
    values = {"--trump": "7c", "--decks": "2", "--limit": "100", "--lead": "5h", "--play": "5h",
              "--top": "5h", "--hands-per-game": "1", "--seat": "Ann",
              "--table": "5000"}  # fmt: skip
    seen: list[str] = []
    for name in KINDS:
        owner = find_kind(name)
        for verb, flags in owner.own_options.items():
            for other in (find_kind(k) for k in KINDS if k != name):
                if verb == "solve" and other.name != "shengji":
                    continue
                game = [] if verb == "solve" else ["--game", other.name, *(
                    ["--trump", "7c"] if other.name == "shengji" and verb != "simulate" else []
                )]  # fmt: skip
                for flag in flags:
                    given = [flag] if flag not in values else [flag, values[flag]]
                    res = runner.invoke(app, [*base[verb], *game, *given])
                    assert res.exit_code == 2, (verb, flag, res.output)
                    assert f"{flag} is {owner.title}'s" in res.stderr, (verb, flag, res.stderr)
                    seen.append(verb)
    assert len(seen) >= 11 and set(seen) == set(base)  # solve's too (a record's game)
    assert not (tmp_path / "s.zfn").exists()
    # two of one game's options: both named, in one line
    res = runner.invoke(app, ["legal", "3h 5h", "--lead", "5h", "--limit", "3"])
    assert res.exit_code == 2
    assert "error: --lead and --limit are Sheng ji's: add --game shengji\n" in res.stderr


def test_simulate_zheng_fen_refuses_decks(tmp_path: Path) -> None:
    out = tmp_path / "z.zfn"
    res = runner.invoke(app, ["simulate", "--decks", "2", "--games", "1", "--out", str(out)])
    assert res.exit_code == 2 and "--decks is Sheng ji's" in res.stderr
    assert not out.exists()


def test_export_to_a_json_file_writes_json(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    assert runner.invoke(app, ["import", str(THROW), "--db", db]).exit_code == 0
    target = tmp_path / "match.json"
    res = runner.invoke(app, ["export", "1", "--db", db, "--out", str(target)])
    assert res.exit_code == 0, res.stderr
    assert json.loads(target.read_text(encoding="utf-8"))["game"] == "shengji"
    # it reads back as the same match; an explicit --format still wins
    res = runner.invoke(app, ["validate", str(target)])
    assert res.exit_code == 0 and "92 move(s)" in res.stdout
    res = runner.invoke(app, ["export", "1", "--db", db, "-f", "zfn", "--out", str(target)])
    assert res.exit_code == 0 and target.read_text(encoding="utf-8").startswith('[Game "shengji"]')


def test_a_record_without_its_game_tag_says_which_game_its_preset_is(tmp_path: Path) -> None:
    text = THROW.read_text(encoding="utf-8").replace('[Game "shengji"]\n', "", 1)
    path = tmp_path / "nogame.zfn"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["validate", str(path)])
    assert res.exit_code == 1
    assert (
        "unknown preset 'bashifen': presets are pagat, poppel, parlett (bashifen is Sheng ji's: "
        'write [Game "shengji"] first)'
    ) in res.stdout
    data = json.loads((SAMPLES / "08-one-round.json").read_text(encoding="utf-8"))
    del data["game"]
    path = tmp_path / "nogame.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    res = runner.invoke(app, ["validate", str(path)])
    assert res.exit_code == 1
    assert """(its preset is Sheng ji's: add "game": "shengji")""" in res.stdout
    # a misspelt preset of no game gets no such hint
    path = tmp_path / "nogame.zfn"
    path.write_text(text.replace("bashifen", "bashifne"), encoding="utf-8")
    res = runner.invoke(app, ["validate", str(path)])
    assert "unknown preset 'bashifne': presets are pagat, poppel, parlett\n" in res.stdout


def test_a_site_of_sheng_ji_games_only_is_not_titled_zheng_fen(tmp_path: Path) -> None:
    for records, title in (([THROW], "Sheng ji games"),
                           ([ROOT / "sample_games" / "02-three-players.zfn"], "Zheng Fen games"),
                           ([THROW, ROOT / "sample_games" / "02-three-players.zfn"],
                            "Zheng Fen and Sheng ji games")):  # fmt: skip
        db, site = tmp_path / f"{len(records)}{title[0]}.db", tmp_path / f"site-{title[0]}"
        assert runner.invoke(app, ["import", *map(str, records), "--db", str(db)]).exit_code == 0
        res = runner.invoke(app, ["publish", "--db", str(db), "--out", str(site)])
        assert res.exit_code == 0, res.stderr
        index = (site / "index.html").read_text(encoding="utf-8")
        assert f"<title>{title}</title>" in index
        # the hand viewer opens Zheng Fen hands only: offered where there are some
        assert ('href="viewer.html"' in index) is (title != "Sheng ji games")
        # a title given is kept, whatever it says
        res = runner.invoke(app, ["publish", "--db", str(db), "--out", str(site), "--title",
                                  "Zheng Fen games"])  # fmt: skip
        assert res.exit_code == 0, res.stderr
        index = (site / "index.html").read_text(encoding="utf-8")
        assert "<title>Zheng Fen games</title>" in index
