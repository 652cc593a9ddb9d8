"""The .zfn reader and canonical writer (FORMAT.md)."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.record_strategies import games
from zfrec.errors import NotationError
from zfrec.games.zhengfen.engine.cards import BJ, SJ, Stand, parse_cards
from zfrec.record import dumps, iter_records, load, loads
from zfrec.record.model import Game, Move, Pos
from zfrec.record.zfn import dumps_zfn, iter_games, parse_zfn, read_games

ROOT = Path(__file__).resolve().parent.parent
HEAD = '[Players "Ann, Bo Li, 王芳"]\n'


def one(text: str) -> Game:
    [game] = parse_zfn(text, "t.zfn")
    return game


def error_of(text: str) -> str:
    with pytest.raises(NotationError) as info:
        parse_zfn(text, "t.zfn")
    return str(info.value)


def moves_of(game: Game, hand: int = 0) -> list[Move]:
    return [m for trick in game.hands[hand].tricks for m in trick.moves]


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games())
def test_round_trip_is_lossless_and_idempotent(game: Game) -> None:
    text = dumps_zfn(game)
    assert parse_zfn(text) == [game]
    assert dumps_zfn(parse_zfn(text)) == text


@pytest.mark.slow
@settings(max_examples=50, deadline=None)
@given(games(), games(), games())
def test_several_games_per_file(a: Game, b: Game, c: Game) -> None:
    text = dumps_zfn([a, b, c])
    assert parse_zfn(text) == [a, b, c]


def format_examples() -> list[str]:
    return re.findall(r"```zfn\n(.*?)```", (ROOT / "FORMAT.md").read_text("utf-8"), re.S)


def test_format_md_examples_are_one_game_and_the_first_is_canonical() -> None:
    canonical, loose = format_examples()[:2]
    assert loads(canonical) == loads(loose)
    assert dumps(loads(loose)) == canonical
    game = one(canonical)
    assert game.players == ["Ann", "Bo Li", "王芳"]
    assert game.hands[0].shuffler == 2
    assert game.hands[0].deal is not None
    assert game.hands[0].deal[1].unknown == 18
    assert [len(t.moves) for t in game.hands[0].tricks] == [6, 4, 5, 3]


def test_canonical_layout() -> None:
    text = (
        '[Date "1985"]\n[event "x"]\n[Round "3"]\n[players "a, b c, d"]\n'
        '[Result "1 2 3 winners 3,1"]\n; note\nHAND 2 SHUFFLER=b c\n{hand}\n'
        "deal 3: ? 5s\ndeal 1: ?3\ndeal 2: 10h,4h\n"
        "{opening} b c: 4h!  d: pass ; after\n2: 10H ?!\nSCORE 0 10 0 TOTAL 1 2 3\n"
    )
    assert dumps(loads(text)) == (
        '[Event "x"]\n[Date "1985"]\n[Players "a, b c, d"]\n[Rules "pagat"]\n[Target "500"]\n'
        '[Result "1 2 3 winners 3, 1"]\n[Round "3"]\n{note}\n\n'
        "hand 2 shuffler 2\n{hand}\ndeal 1: ?3\ndeal 2: 4h Th\ndeal 3: 5s ?\n"
        "{opening} 2: 4h!  3: - {after}\n2: Th?!\nscore 0 10 0 total 1 2 3\n"
    )


# --- reading details --------------------------------------------------------------------------


def test_seats_by_number_name_quotes_and_unquoted_names_with_spaces() -> None:
    game = one(HEAD + 'hand\n1: 3h  bo li: 4h  "Bo Li": 5h  王芳：6h  Bo Li: 7h  ANN: 8h\n')
    assert [m.seat for m in moves_of(game)] == [0, 1, 1, 2, 1, 0]


def test_cards_unicode_suits_ten_and_case() -> None:
    game = one(HEAD + "hand\n1: 10♥ t♠ TD 10c  2: 5♡ ; nothing\n")
    assert moves_of(game)[0].cards == parse_cards("Th Ts Td Tc")
    # emoji presentation selectors, as phones type them
    game = one(HEAD + "hand\n1: 10♥\ufe0fj♣\ufe0f\n")
    assert moves_of(game)[0].cards == parse_cards("Th Jc")


def test_glued_cards_declarations_and_annotations() -> None:
    game = one(HEAD + "hand\n1: 8h8sBJ=8d!?  2: SJ=8,BJ=8h ??  3: pass!  1: -?  2: 过\n")
    first, second, third, fourth, fifth = moves_of(game)
    assert first.cards == parse_cards("8h 8s BJ")
    assert first.declarations == ((BJ, Stand(5, 2)),)
    assert first.annotation == "!?"
    assert second.declarations == ((SJ, Stand(5)), (BJ, Stand(5, 1)))
    assert second.annotation == "??"
    assert third.is_pass and third.annotation == "!"
    assert fourth.is_pass and fourth.annotation == "?"
    assert fifth.is_pass and fifth.annotation is None


def test_disputed_marker_and_note() -> None:
    game = one(HEAD + 'hand\n1: 3h disputed  2: 4h! disputed "not his turn" {hm}  3: 5h\n')
    a, b, c = moves_of(game)
    assert (a.disputed, a.dispute_note) == (True, None)
    assert (b.disputed, b.dispute_note, b.comments) == (True, "not his turn", ["hm"])
    assert not c.disputed


def test_disputed_versions_after_or() -> None:
    text = (
        HEAD + 'hand\n1: 3h  2: Qc disputed "Bo says it was the Kc" or Kc  3: Ac\n'
        "1: 5s  2: 6s! disputed or 7h,7s {seen} OR pass or 7d BJ=7h  王芳: -\n"
    )
    game = one(text)
    _, qc, ac, _, six, cy = moves_of(game)
    assert qc.dispute_note == "Bo says it was the Kc"
    assert [v.play_text() for v in qc.alternatives] == ["Kc"]
    assert [v.play_text() for v in qc.versions()] == ["Qc", "Kc"]
    assert not ac.disputed and ac.alternatives == ()
    assert six.annotation == "!" and six.comments == ["seen"]
    assert [v.play_text() for v in six.alternatives] == ["7s 7h", "pass", "7d BJ=7h"]
    assert six.alternatives[2].declarations == ((BJ, Stand(4, 1)),)
    assert cy.is_pass and cy.seat == 2
    # canonical: the versions after the note, a pass as -, comments last
    assert dumps_zfn(game).splitlines()[-2:] == [
        '1: 3h  2: Qc disputed "Bo says it was the Kc" or Kc  3: Ac',
        "1: 5s  2: 6s! disputed or 7s 7h or - or 7d BJ=7h {seen}  3: -",
    ]
    assert parse_zfn(dumps_zfn(game)) == [game]
    # a version is part of the record: a different one is a different record
    other = one(text.replace("or Kc", "or Ks"))
    assert other != game


def test_a_move_with_a_version_in_place() -> None:
    game = one(HEAD + 'hand\n1: 3h {c} disputed "n" or - or 4h\n')
    [move] = moves_of(game)
    passed = move.with_version(move.alternatives[0])
    assert passed.is_pass and passed.seat == 0 and passed.pos == move.pos
    assert passed.comments == ["c"]
    # the play as written becomes one of the other versions
    assert [v.play_text() for v in passed.alternatives] == ["3h", "4h"]
    game.hands[0].tricks[0].moves[0] = passed  # still a record that reads back
    assert parse_zfn(dumps_zfn(game)) == [game]
    assert "1: - {c}" not in dumps_zfn(game) and '1: - disputed "n" or 3h or 4h' in dumps_zfn(game)
    assert move.with_version(move.versions()[0]) == move


def test_comments_attach_to_what_they_follow() -> None:
    text = (
        '[Players "a, b, c"] {on tag}\n{game}\n'
        "hand 1 {hand line}\n; before deal\ndeal 1: ?18 {deal}\ndeal 2: ?18\ndeal 3: ?18\n"
        "{trick} 1: 3h {move} 2: 4h\n; after trick\n{multi\n  line}\n"
        "score 1 2 3 {score}\n; after score\n"
    )
    game = one(text)
    assert game.comments == ["on tag", "game"]
    hand = game.hands[0]
    assert hand.comments == ["hand line", "before deal", "deal", "score", "after score"]
    assert hand.tricks[0].comments == ["trick"]
    assert [m.comments for m in hand.tricks[0].moves] == [
        ["move"],
        ["after trick", "multi\n  line"],
    ]


def test_comment_escapes_round_trip() -> None:
    game = Game(players=["a", "b", "c"], comments=["x}y\\z", "line\n[not a tag]", "{a} ; b"])
    text = dumps(game)
    assert "{line\n\\[not a tag]}" in text
    assert loads(text) == [game]


def test_partial_deals() -> None:
    game = one(HEAD + "hand\ndeal 1: 3h 4h ?16\ndeal 2: ?\ndeal 3:\n")
    deal = game.hands[0].deal
    assert deal is not None
    assert [(d.known, d.unknown) for d in deal] == [(parse_cards("3h 4h"), 16), (0, 1), (0, 0)]
    assert game.hands[0].deal is not None and one(HEAD + "hand\n").hands[0].deal is None


def test_rules_target_and_result() -> None:
    game = one(
        '[Players "a, b, c"]\n[Rules "Poppel, sequence_lengths=equal target=1000"]\n'
        '[Result "1000 20 30 winner a"]\n'
    )
    assert (game.preset, game.options, game.target) == (
        "poppel",
        {"sequence_lengths": "equal"},
        1000,
    )
    assert game.ruleset().self_overplay and game.ruleset().target == 1000
    assert game.result is not None and game.result.winners == (0,)
    assert dumps(game).splitlines()[1:3] == [
        '[Rules "poppel sequence_lengths=equal"]',
        '[Target "1000"]',
    ]


def test_positions() -> None:
    game = one(HEAD + "\nhand 1\n1: 3h  2: -\n")
    assert game.pos == Pos(1, 1)
    assert game.hands[0].pos == Pos(3, 1)
    assert [m.pos for m in moves_of(game)] == [Pos(4, 1), Pos(4, 8)]
    assert Pos(4, 8) == Pos(4, 8) and moves_of(game)[1] == Move.passes(1)  # pos not compared


def test_bom_and_crlf() -> None:
    text = "\ufeff" + (HEAD + "hand\n1: 3h\n").replace("\n", "\r\n")
    assert one(text) == one(HEAD + "hand\n1: 3h\n")


def test_load_by_extension(tmp_path: Path) -> None:
    path = tmp_path / "g.ZFN"
    path.write_text("\ufeff" + HEAD + "hand\n1: 3h\n", encoding="utf-8")
    [game] = load(path)
    assert game.source == str(path)
    with pytest.raises(NotationError, match="cannot tell the record format of"):
        list(load(tmp_path / "g.txt"))


# --- streaming and recovery -------------------------------------------------------------------


def test_streaming_reads_only_one_line_past_a_game() -> None:
    text = dumps([Game(["a", "b", "c"]), Game(["d", "e", "f"], event="2nd")])
    lines = text.splitlines(keepends=True)
    consumed = 0

    def feed() -> Iterator[str]:
        nonlocal consumed
        for line in lines:
            consumed += 1
            yield line

    reader = iter_games(feed())
    assert next(reader) == Game(["a", "b", "c"])
    second_start = lines.index('[Event "2nd"]\n') + 1
    assert consumed == second_start
    assert next(reader) == Game(["d", "e", "f"], event="2nd")


def test_streaming_an_endless_source() -> None:
    chunk = dumps(Game(["a", "b", "c"])).splitlines(keepends=True)
    endless = itertools.cycle(["\n", *chunk])
    assert len(list(itertools.islice(read_games(endless), 1000))) == 1000


BROKEN = (
    '[Event "one"]\n[Players "a, b, c"]\nhand\n1: 3h\n\n'
    '[Event "two"]\n[Players "a, b, c"]\nhand\n1: 3h  2: 7x\n2: 4h\n\n'
    '[Event "three"]\n[Players "a, b, c"]\nhand\n1: 5h\n'
)


def test_recovers_at_the_next_game() -> None:
    items = list(iter_games(io.StringIO(BROKEN), "b.zfn"))
    assert [type(i).__name__ for i in items] == ["Game", "NotationError", "Game"]
    assert isinstance(items[2], Game) and items[2].event == "three"
    assert str(items[1]) == (
        "b.zfn:9:12 [game 2]: unknown suit 'x' in '7x': suits are s h d c (or ♠ ♥ ♦ ♣)\n"
        " 9 | 1: 3h  2: 7x\n"
        "   |            ^"
    )
    error = items[1]
    assert isinstance(error, NotationError) and error.location is not None
    assert (error.location.file, error.location.line, error.location.col) == ("b.zfn", 9, 12)


def test_recovery_after_errors_in_tags_and_open_comments(tmp_path: Path) -> None:
    text = (
        '[Players "a, b"]\n[Event "skipped with its game"]\nhand\n1: 3h\n'
        '[Players "a, b, c"]\nhand\n1: 3h {never closed\n2: 4h\n'
        '[Players "a, b, c"]\n[Event "ok"]\n'
    )
    path = tmp_path / "r.zfn"
    path.write_text(text, encoding="utf-8")
    items = list(iter_records(path))
    assert [str(i).splitlines()[0] for i in items[:2]] == [
        f"{path}:1:11 [game 1]: a game has 3 to 6 players, not 2",
        f"{path}:7:7 [game 2]: comment is never closed: '{{' needs a matching '}}'",
    ]
    assert isinstance(items[2], Game) and items[2].event == "ok"


def test_strict_reader_raises_the_first_error() -> None:
    with pytest.raises(NotationError, match=r"t\.zfn:9:12 \[game 2\]: unknown suit"):
        parse_zfn(BROKEN, "t.zfn")


# --- exact error messages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "hand\n4: 3h\n",
            "t.zfn:3:1 [game 1]: there is no seat 4: seats are 1 to 3\n 3 | 4: 3h\n   | ^",
        ),
        (
            "hand\n王芳: 3h  Bob: 4h\n",
            "t.zfn:3:9 [game 1]: no player is called 'Bob': the seats are 1 Ann, 2 Bo Li, 3 王芳\n"
            " 3 | 王芳: 3h  Bob: 4h\n"
            "   |           ^",
        ),
        (
            "hand\n1: 3h!!!\n",
            "t.zfn:3:4 [game 1]: unknown annotation '!!!': use one of ! ? !! ?? !? ?!\n"
            " 3 | 1: 3h!!!\n"
            "   |    ^",
        ),
        (
            "hand\n1:\n",
            "t.zfn:3:1 [game 1]: seat 1 has no cards: write the cards, or - to pass\n"
            " 3 | 1:\n"
            "   | ^",
        ),
        (
            "hand\n1: 3h 4h 3h\n",
            "t.zfn:3:10 [game 1]: a card in '3h' is given twice in this move\n"
            " 3 | 1: 3h 4h 3h\n"
            "   |          ^",
        ),
        (
            "hand\n1: - 3h\n",
            "t.zfn:3:6 [game 1]: a pass has no cards\n 3 | 1: - 3h\n   |      ^",
        ),
        (
            "hand\n1: 8h=9\n",
            "t.zfn:3:6 [game 1]: only jokers take a declaration, not 8h\n 3 | 1: 8h=9\n   |      ^",
        ),
        (
            "hand\ndeal 1: ?18\ndeal 3: ?18\n",
            "t.zfn:3:1 [game 1]: the deal has no line for seat 2; "
            "write 'deal 2: ?N' if its N cards are unknown\n"
            " 3 | deal 1: ?18\n"
            "   | ^",
        ),
        (
            "1: 3h\n",
            "t.zfn:2:1 [game 1]: a hand starts with a line 'hand N' before its deal and tricks\n"
            " 2 | 1: 3h\n"
            "   | ^",
        ),
        (
            "hand\nscore 1 2\n",
            "t.zfn:3:1 [game 1]: score needs 3 numbers, one per seat in order, not 2\n"
            " 3 | score 1 2\n"
            "   | ^",
        ),
        (
            "hand\nscore 1 2 3\n1: 3h\n",
            "t.zfn:4:1 [game 1]: the score line ends the hand; start a new 'hand' first\n"
            " 4 | 1: 3h\n"
            "   | ^",
        ),
        (
            "hand\n1: 3h }\n",
            "t.zfn:3:7 [game 1]: '}' without an opening '{'\n 3 | 1: 3h }\n   |       ^",
        ),
        (
            "hand\n1: 3h disputed 4h\n",
            "t.zfn:3:16 [game 1]: after 'disputed' only a quoted note, 'or' versions and "
            "comments may follow\n"
            " 3 | 1: 3h disputed 4h\n"
            "   |                ^",
        ),
        (
            "hand\n1: 3h or 4h\n",
            "t.zfn:3:7 [game 1]: 'or' gives another version of a disputed move: write "
            "'disputed' before it (2: Qc disputed or Kc)\n"
            " 3 | 1: 3h or 4h\n"
            "   |       ^",
        ),
        (
            "hand\n1: 3h disputed or  2: 4h\n",
            "t.zfn:3:16 [game 1]: 'or' needs a play after it: the cards, or - for a pass\n"
            " 3 | 1: 3h disputed or  2: 4h\n"
            "   |                ^",
        ),
        (
            "hand\n1: 3h disputed or 4h or 3h\n",
            "t.zfn:3:22 [game 1]: the version 3h is the play as recorded\n"
            " 3 | 1: 3h disputed or 4h or 3h\n"
            "   |                      ^",
        ),
        (
            "hand\n1: 3h disputed or 4h or 4h\n",
            "t.zfn:3:22 [game 1]: the version 4h is given twice\n"
            " 3 | 1: 3h disputed or 4h or 4h\n"
            "   |                      ^",
        ),
        (
            'hand\n1: 3h disputed or 4h "late note"\n',
            't.zfn:3:22 [game 1]: quoted text here can only be the note after "disputed"\n'
            ' 3 | 1: 3h disputed or 4h "late note"\n'
            "   |                      ^",
        ),
        (
            "hand\n1: 3h disputed or 4h?\n",
            "t.zfn:3:19 [game 1]: an annotation belongs to the recorded play, not to an 'or' "
            "version\n"
            " 3 | 1: 3h disputed or 4h?\n"
            "   |                   ^",
        ),
        (
            "hand\n1: 3h disputed or - 4h\n",
            "t.zfn:3:21 [game 1]: a pass has no cards\n"
            " 3 | 1: 3h disputed or - 4h\n"
            "   |                     ^",
        ),
        (
            "hand\n1: 3h disputed or 4h 5x\n",
            "t.zfn:3:23 [game 1]: unknown suit 'x' in '5x': suits are s h d c (or ♠ ♥ ♦ ♣)\n"
            " 3 | 1: 3h disputed or 4h 5x\n"
            "   |                       ^",
        ),
        (
            "hand\nplay 1: 3h\n",
            "t.zfn:3:1 [game 1]: expected a move like '2: 7h 7s' or a keyword, not 'play'\n"
            " 3 | play 1: 3h\n"
            "   | ^",
        ),
    ],
)
def test_error_messages(body: str, message: str) -> None:
    assert error_of(HEAD + body) == message


def test_error_caret_under_wide_characters() -> None:
    message = error_of('[Players "王芳, 李明, 张伟"]\nhand\n李明：3x\n')
    assert message.endswith(" 3 | 李明：3x\n   |        ^")
    assert message.startswith("t.zfn:3:5 [game 1]: unknown suit 'x' in '3x'")


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('[Event "x"]\n', 't.zfn:2:1 [game 1]: the game has no [Players "..."] tag'),
        ('[Players "a, b, A"]\n', "t.zfn:1:11 [game 1]: player name 'A' is given twice"),
        ('[Players "a, b, 3"]\n', "t.zfn:1:11 [game 1]: player name '3' is a number"),
        ('[Players "a, b, c"]\n[Rules "pagot"]\n', "t.zfn:2:9 [game 1]: unknown preset 'pagot'"),
        (
            '[Players "a, b, c"]\n[Rules "pagat wild=1"]\n',
            "t.zfn:2:15 [game 1]: unknown rule option wild",
        ),
        ('[Players "a, b, c"]\n[Target "lots"]\n', "t.zfn:2:10 [game 1]: the target is a positive"),
        ('[Players "a, b, c"]\n[Players "d, e, f"]\n', "t.zfn:2:2 [game 1]: tag Players is given"),
        ('[Players "a, b, c"\n', "t.zfn:1:19 [game 1]: ']' closes the tag"),
        (
            "[Players a, b, c]\n",
            't.zfn:1:10 [game 1]: the tag value must be quoted: [Name "value"]',
        ),
        ('[Players "a, b, c"] x\n', "t.zfn:1:21 [game 1]: only a comment may follow a tag"),
        (
            '[Players "a, b, c"]\n[Result "1 2 3 winner d"]\n',
            "t.zfn:2:10 [game 1]: no player is called 'd': the seats are 1 a, 2 b, 3 c",
        ),
        ("hand\n", 't.zfn:1:1: a game starts with its tags, e.g. [Players "Ann, Bo, Cy"]'),
    ],
)
def test_header_error_messages(header: str, message: str) -> None:
    assert error_of(header + "hand\n").startswith(message)


# --- one reader: a line reads the same however it is spelled -----------------------------------
#
# Lines spelled as the writer spells them are read straight from the line; any other spelling
# goes through the lexer. A comment at the end of a line changes nothing but the comments, and
# forces the lexer, so reading a text with and without such comments compares the two routes
# through the one grammar: same games (once those comments are dropped), same errors at the
# same places. The texts are canonical records, simulated games, the sample games, lines at the
# edge of the writer's spelling, and all of them mutated at random.

MARK = "respelled-by-the-test"
SAMPLES = sorted(  # Zheng Fen's: Sheng ji's have their own tests (test_sj_notation.py)
    p for p in (ROOT / "sample_games").rglob("*.zfn") if "shengji" not in p.parts
)


def respelled(text: str) -> str:
    """`text` with a comment after every hand, deal, trick and score line that starts and ends
    outside comments (a `;` comment would take it in, and so would an open `{`)."""
    out = []
    open_comment = False
    for line in text.split("\n"):
        if line.lstrip().startswith("["):
            open_comment = False  # a tag line ends an open comment
        was_open = open_comment
        open_comment, semicolon = _scan(line, open_comment)
        statement = re.match(r"(?:[1-6]:|deal |hand|score )", line)
        if statement and not was_open and not open_comment and not semicolon:
            line += f" {{{MARK}}}"
        out.append(line)
    return "\n".join(out)


def _scan(line: str, open_comment: bool) -> tuple[bool, bool]:
    """Whether a `{` comment is open after `line`, and whether it has a `;` comment."""
    i = 0
    while i < len(line):
        ch = line[i]
        if open_comment:
            if ch == "\\":
                i += 1
            elif ch == "}":
                open_comment = False
        elif ch in '"“”':
            i += 1
            while i < len(line) and line[i] not in '"“”':
                i += 2 if line[i] == "\\" else 1
        elif ch == "{":
            open_comment = True
        elif ch == ";":
            return False, True
        i += 1
    return open_comment, False


def unmarked(game: Game) -> Game:
    def keep(comments: list[str]) -> list[str]:
        return [c for c in comments if c != MARK]

    for hand in game.hands:
        hand.comments = keep(hand.comments)
        for trick in hand.tricks:
            trick.comments = keep(trick.comments)
            for move in trick.moves:
                move.comments = keep(move.comments)
    game.comments = keep(game.comments)
    return game


def reading(text: str) -> list[object]:
    """What the reader yields: games as they are, errors by their first line (no excerpt)."""
    out: list[object] = []
    for item in iter_games(io.StringIO(text), "t.zfn"):
        out.append(str(item).split("\n")[0] if isinstance(item, NotationError) else item)
    return out


def check_one_grammar(text: str) -> list[object]:
    """The same reading with and without forcing the lexer; every game round-trips and every
    error points into the text. Returns the reading."""
    plain = reading(text)
    forced = [
        unmarked(item) if isinstance(item, Game) else item for item in reading(respelled(text))
    ]
    assert plain == forced
    lines = text.split("\n")
    for item in plain:
        if isinstance(item, Game):
            assert parse_zfn(dumps_zfn(item)) == [item]
            check_positions(item, lines)
        else:
            assert isinstance(item, str)
            m = re.match(r"t\.zfn:(\d+):(\d+)", item)
            assert m is not None, item
            assert 1 <= int(m[1]) <= len(lines) and 1 <= int(m[2]) <= len(lines[int(m[1]) - 1]) + 1
    return plain


def check_positions(game: Game, lines: list[str]) -> None:
    """Every move's position is where its seat reference is written."""
    for hand in game.hands:
        for trick in hand.tricks:
            for move in trick.moves:
                assert move.pos is not None
                at = lines[move.pos.line - 1][move.pos.col - 1 :]
                ref = re.split("[:：]", at)[0].strip().strip('"“”')
                assert game.seat_of(ref) == move.seat, (at, move.seat)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games())
def test_canonical_records_read_the_same_by_either_route(game: Game) -> None:
    assert check_one_grammar(dumps_zfn(game)) == [game]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_games_read_the_same_by_either_route(path: Path) -> None:
    check_one_grammar(path.read_text("utf-8-sig"))


def simulated(players: int, seed: int, hands: int | None = 2, bot: str = "greedy") -> Game:
    from zfrec.games.zhengfen.engine.rules import preset
    from zfrec.games.zhengfen.simulate import SimConfig, simulate_game

    return simulate_game(SimConfig(players, preset("pagat"), bot, hands), seed)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulated_games_are_read_without_the_lexer(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from zfrec.record.lexer import Lexer

    game = simulated(players, seed=players, hands=3, bot="random" if players % 2 else "greedy")
    text = dumps_zfn(game)
    assert check_one_grammar(text) == [game]
    lexed: list[int] = []
    feed = Lexer.feed

    def spy(self: Lexer, line: str, number: int, start: int = 0) -> object:
        if start == 0:
            lexed.append(number)
        return feed(self, line, number, start)

    monkeypatch.setattr(Lexer, "feed", spy)
    assert parse_zfn(text) == [game]
    # Only the first hand line is lexed: it ends the header, whose checks are the lexer route's.
    # Every later line is spelled as the writer spells it, and read straight from the line.
    first_hand = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("hand"))
    assert lexed == [first_hand]


# Edits use the characters of the writer's spelling and ones that must push a line off it.
EDIT_TEXT = st.sampled_from(
    [
        " ", "  ", ":", "：", "-", "?", "?3", "!", "?!", "=", ",", "0", "1", "2", "7", "9", "10",
        "12", "3s", "Th", "10h", "sj", "BJ=8h", "SJ=", "3x", "pass", "PASS", "过", "disputed",
        'disputed "x"', "total", "score", "deal", "hand", "shuffler", "{c}", "{", "}", "; c",
        '"', "\t", "\u00a0", "١", "[", "1: ", "  2: -", "East", "Zhang 张", "7h7s", "3s,4s",
        "99999999", "?99", "\x01",
    ]
)  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` with a few lines edited: characters inserted, deleted or replaced, lines swapped."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        at = draw(st.integers(0, len(line)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "swap"]))
        if op == "insert":
            lines[i] = line[:at] + draw(EDIT_TEXT) + line[at:]
        elif op == "delete":
            lines[i] = line[:at] + line[at + draw(st.integers(1, 4)) :]
        elif op == "replace":
            lines[i] = line[:at] + draw(EDIT_TEXT) + line[at + draw(st.integers(1, 3)) :]
        elif op == "duplicate":
            lines.insert(i, line)
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


SIMULATED_TEXTS = [dumps_zfn(simulated(n, seed=n, hands=1)) for n in (3, 4, 6)]
SAMPLE_TEXTS = [path.read_text("utf-8-sig") for path in SAMPLES]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SIMULATED_TEXTS + SAMPLE_TEXTS).flatmap(mutated))
def test_mutated_records_read_the_same_by_either_route(text: str) -> None:
    check_one_grammar(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games().flatmap(lambda game: mutated(dumps_zfn(game))))
def test_mutated_random_records_read_the_same_by_either_route(text: str) -> None:
    check_one_grammar(text)


# Lines at the edge of the writer's spelling, good and bad, after two headers: in the second, a
# colon after `2` might end the name "Bo 2", so `2:` is not a plain seat number there.
EDGE_HEAD = '[Players "Ann, Bo, Cy, Di"]\n\nhand 1\n'
EDGE_NAMES_HEAD = '[Players "Ann, Bo 2, Cy, Di"]\n\nhand 1\n'
EDGE_DEAL = "deal 1: 3s 4s\ndeal 2: ?2\ndeal 3: 5s ?\ndeal 4: ?0 6s 7s\n"
EDGE_TRICKS = [
    "1: 3s  3: -  4: 4s\n", "1: 3s 3: - 4: 4s  \n", "1:  3s   3: pass  4: PASS\n",
    "1: 10h Th\n", "1: 10h 10s  3: 7h7s  4: 3s,4s\n", "1: 3s , 4s\n", "1: ,\n",
    "1: sj=8h bj=8s 8h  3: -\n", "1: BJ=8 SJ=8h 8s\n", "1: 3s\n{after}\n1: 4s ; after\n",
    "1: 3s  3:-\n", "1 : 3s\n", "01: 3s\n", " 1: 3s\n", "1: 3s\t\n", "1: 3s\u00a0 3: 4s\n",
    "1: 3s!  3: -?\n", "1: 3s!!!\n", '1: 3s disputed "x"  3: -\n', "1: 3s disputed\n",
    "Ann: 3s  Bo 2: 4s  2: 5s\n", "1: 3s  Bo 2: 4s\n", "١: 3s\n", "1：3s\n",
    "1: 3s  5: 4s\n", "1: 3s  0: 4s\n", "1: 3s 3s\n", "1: 3s3s\n", "1: - 3s\n", "1: 3s -\n",
    "1: - -\n", "1: 3x\n", "1: 3s  3:\n", "1: 3s  3: \n", "1: =\n", "1: 3s=8h\n",
    "1: SJ=\n", "1: SJ=1\n", "1: 3s  2:: 4s\n", "score 1 2 3 4\n1: 3s\n", "1: 3s\ndisputed\n",
    ":\n", "1:\n", "9999: 3s\n", "1: 3s\x01\n",
]  # fmt: skip
EDGE_DEALS = [
    "deal 1: 3s 4s\n", "deal 1: 3s 4s  \n", "deal 1:   3s,4s 5s5h ?  ?12\n", "deal 1: ?18\n",
    "deal 1:\n", "deal 1:?\n", "deal 1: 3s?\n", "deal 1: 3s ?x\n", "deal 1: 3s 3s\n",
    "deal 1: 3s 3S\n", "deal 1: 3s 3s3h\n", "deal 1: SJ=8h\n", "deal 1: ?x\n", "deal 1: ??\n",
    "deal 1: -\n", "deal 5: 3s\n", "deal 2: 3s\n", "deal 01: 3s\n", "deal 1: 3s\ndeal 1: 4s\n",
    "Deal 1: 3s\n", "deal Ann: 3s\n", "deal Bo 2: 3s\n", "1: 3s\ndeal 3: 4s\n",
    "deal 1: 3s {c}\n", "deal 1: ?55\n", "deal 1: ?54\n", "deal 1: ?30 ?30\n", "deal 1: 3s , 4s\n",
    "deal 1: ?" + "9" * 5000 + "\n",
]  # fmt: skip
EDGE_HANDS_AND_SCORES = [
    "hand 2\n", "hand 2 shuffler 3\n", "hand 2  shuffler  3 \n", "hand 0\n", "hand 007\n",
    "hand 2 shuffler 5\n", "hand 2 shuffler 2\n", "hand 2 shuffler 0\n", "hand 2 shuffler=3\n",
    "hand 2 shuffler: 3\n", "hand 2 shuffler Cy\n", "hand 2 shuffler\n", "hand shuffler 3\n",
    "HAND 2\n", "hand: 3s\n", "hand 999999\n", "hand 1000000\n", "hand " + "9" * 5000 + "\n",
    "hand 2 shuffler " + "9" * 5000 + "\n", "score 1 2 3 4\n", "score 1 2 3 4 total 5 6 7 8\n",
    "score 1 2 3 4  total  5 6 7 8  \n", "score 1 2 3\n", "score 1 2 3 4 total 5 6 7\n",
    "score 1 2 3 4 total\n", "score 1 2 3 4\nscore 1 2 3 4\n", "score 1 2 3 4\n1: 3s\n",
    "score 1 2 3 x\n", "score 1 2 3 4 ; c\n", "SCORE 1 2 3 4\n", "score: 1 2 3 4\n",
    "score 1 2 3 9999999\n", "score 1 2 3 10000000\n", "score 1 2 3 " + "9" * 5000 + "\n",
]  # fmt: skip


@pytest.mark.parametrize("body", EDGE_TRICKS)
def test_trick_lines_read_the_same_by_either_route(body: str) -> None:
    for head in (EDGE_HEAD, EDGE_NAMES_HEAD):
        check_one_grammar(head + EDGE_DEAL + body)
        check_one_grammar(head + body)  # no deal


@pytest.mark.parametrize("body", EDGE_DEALS)
def test_deal_lines_read_the_same_by_either_route(body: str) -> None:
    for head in (EDGE_HEAD, EDGE_NAMES_HEAD):
        check_one_grammar(head + body)
        check_one_grammar(head + body + "deal 3: ?\ndeal 4: ?\nhand 2\n")  # a deal missing a seat


@pytest.mark.parametrize("body", EDGE_HANDS_AND_SCORES)
def test_hand_and_score_lines_read_the_same_by_either_route(body: str) -> None:
    for head in (EDGE_HEAD, EDGE_NAMES_HEAD):
        check_one_grammar(head + body + "1: 3s\n")
        check_one_grammar(head + EDGE_DEAL + body)
        check_one_grammar(head + "deal 1: 3s\n" + body)  # closing a hand whose deal misses seats


def test_lines_before_the_first_hand_and_after_errors() -> None:
    check_one_grammar('[Players "a, b, c"]\n1: 3s\nhand 1\n1: 3s\n')
    check_one_grammar('[Players "a, b, c"]\ndeal 1: 3s\nhand 1\n')
    check_one_grammar('[Players "a, b, c"]\nscore 1 2 3\n')
    check_one_grammar(
        '[Players "a, b, c"]\nhand 1\n1: 3x\n1: 3s\n\n[Players "a, b, c"]\nhand 1\n1: 3s\n'
    )
    check_one_grammar('[Players "a, b"]\nhand 1\n1: 3s\n')
    check_one_grammar('[Players "a, b, c"]\nhand 1\n1: 3s\n{never closed\n1: 4s\n')


def test_names_ending_in_a_seat_number() -> None:
    game = one(EDGE_NAMES_HEAD + "1: 3s  3: 4s\n1: 5s  2: 6s  Bo 2: 7s\n")
    assert [m.seat for t in game.hands[0].tricks for m in t.moves] == [0, 2, 0, 1, 1]
