"""Every example of the Sheng ji seed (shared/seeds/sheng-ji-wikipedia.txt) and of the worked
examples in RULINGS-SHENGJI, checked against BOTH the engine (through the command-line contract
of issue 28: `zfrec classify/legal/trick/throw/score --game shengji ... --json`, in process) and
the independent referee in tests/sj_ref.py. The expected answers are the seed's own words.

Unless a test says otherwise the round is the seed's: dominant rank 7, clubs trump ("7c").
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tests import sj_ref as ref
from zfrec.cli import app

runner = CliRunner()
R7C = ref.parse_trump("7c")


def run_json(*args: str) -> tuple[int, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), (result.exit_code, result.stdout, result.stderr)
    return result.exit_code, json.loads(result.stdout)


def sj(verb: str, *args: str, trump: str = "7c") -> tuple[int, Any]:
    return run_json(verb, "--game", "shengji", "--trump", trump, *args)


def unit_cards(unit: Any) -> list[str]:
    """A unit of `classify --json`, as sorted canonical cards (a string, a list or {"cards"})."""
    if isinstance(unit, dict):
        unit = unit["cards"]
    return sorted(ref.parse_cards(unit))


def P(text: str) -> list[str]:
    return ref.parse_cards(text)


# ---- pairs and tractors (seed: "A pair (对子) or double ..." and the consecutive-doubles table;
# ruling 5) ------------------------------------------------------------------------------------

# (cards, trump, expected kind, expected suit): kind None means "no lead" (two effective suits)
FORMATS = [
    # pairs: identical rank and suit only
    ("8d 8d", "7c", "pair", "d"),
    ("7s 7h", "7c", "throw", "trump"),  # both trump, but not a pair
    ("Qs Qd", "7c", None, None),  # equal rank, two suits: no lead at all
    ("SJ BJ", "7c", "throw", "trump"),  # red and black joker: not a pair
    ("5c 5c", "7c", "pair", "trump"),
    # the consecutive-doubles table, "Yes" rows
    ("5h 5h 4h 4h", "7c", "tractor", "h"),
    ("Js Js Ts Ts 9s 9s 8s 8s", "7c", "tractor", "s"),
    ("5c 5c 4c 4c 3c 3c", "7c", "tractor", "trump"),
    ("8d 8d 6d 6d", "7c", "tractor", "d"),  # 7 is dominant: 8 and 6 are adjacent
    ("7c 7c 7d 7d Ac Ac", "7c", "tractor", "trump"),
    ("BJ BJ SJ SJ 7c 7c", "7c", "tractor", "trump"),
    # "No" rows: still leads (as pairs thrown) unless of two suits
    ("Th Th 8h 8h", "7c", "throw", "h"),  # 10 and 8 are not adjacent with 7 dominant
    ("9s 9s 8d 8d", "7c", None, None),  # different suits
    ("7h 7h 6h 6h", "7c", None, None),  # the 7s are trump, the 6s hearts
    ("7c 7c 6c 6c", "7c", "throw", "trump"),  # 7c sits just below the jokers
    ("7s 7s 7d 7d", "7c", "throw", "trump"),  # off-suit rank cards are equal
    ("2c 2c As As", "7c", None, None),  # trump and a plain suit
    # ruling 5: the whole trump ladder, and no-trump's
    ("Ac Ac 7d 7d 7c 7c SJ SJ BJ BJ", "7c", "tractor", "trump"),
    ("7s 7s SJ SJ BJ BJ", "7", "tractor", "trump"),
    ("7s 7s 7h 7h", "7", "throw", "trump"),
    ("8c 8c 6c 6c", "7", "tractor", "c"),  # no-trump: clubs is a plain suit
    # ruling 6: a throw read as its largest units
    ("Kd Qd Qd Td Td", "7c", "throw", "d"),
    ("Ks Qs Qs Js Js", "7c", "throw", "s"),
]


@pytest.mark.parametrize(("cards", "trump", "kind", "suit"), FORMATS)
def test_format_referee(cards: str, trump: str, kind: str | None, suit: str | None) -> None:
    info = ref.classify(P(cards), ref.parse_trump(trump))
    assert (info.kind, info.suit) == (kind, suit)


@pytest.mark.parametrize(("cards", "trump", "kind", "suit"), FORMATS)
def test_format_engine(cards: str, trump: str, kind: str | None, suit: str | None) -> None:
    code, got = sj("classify", cards, trump=trump)
    assert (code, got["kind"]) == ((0, kind) if kind else (1, None))
    if kind is None:
        assert got["reason"]
        return
    assert got["suit"] == suit
    want = ref.classify(P(cards), ref.parse_trump(trump)).units
    assert sorted(unit_cards(u) for u in got["units"]) == sorted(sorted(u.cards) for u in want)


THROW_UNITS = [
    # (throw, the sizes of its units, largest first): ruling 6 and the seed's throw table
    ("Kd Qd Qd Td Td", [2, 2, 1]),
    ("Ks Qs Qs Js Js", [4, 1]),  # Q-Q-J-J is a tractor
    ("Ad Kd Kd", [2, 1]),
]


@pytest.mark.parametrize(("cards", "sizes"), THROW_UNITS)
def test_throw_units(cards: str, sizes: list[int]) -> None:
    assert [u.size for u in ref.decompose(P(cards), R7C)] == sizes
    code, got = sj("classify", cards)
    assert code == 0 and got["kind"] == "throw"
    assert sorted((len(unit_cards(u)) for u in got["units"]), reverse=True) == sizes


def test_kitty_example_units_rank_9() -> None:
    """Seed, multiplier table: with rank 9, A-10-10-8-8-5-5-4-4-3-3 holds the tractors 10-10-8-8
    and 5-5-4-4-3-3; the longer one counts."""
    cards = "Ah Th Th 8h 8h 5h 5h 4h 4h 3h 3h"
    units = ref.decompose(P(cards), ref.parse_trump("9s"))
    assert [u.size for u in units] == [6, 4, 1]
    code, got = sj("classify", cards, trump="9s")
    assert (code, got["kind"]) == (0, "throw")
    assert sorted(unit_cards(u) for u in got["units"]) == sorted(sorted(u.cards) for u in units)


# ---- following a pair: the seed's East/North/West/South table ---------------------------------

# (lead, hand, play, legal): the table's cases, with hands that make each case what it says
FOLLOWS = [
    ("8d 8d", "9d 9d Jd Qd 3s", "9d 9d", True),  # North case 1
    ("8d 8d", "9d 9d Jd Qd 3s", "Jd Qd", False),  # holding 9d 9d, the pair is owed (issue 28)
    ("8d 8d", "Jd Qd 3s 4h", "Jd Qd", True),  # North case 2: no diamond pair, two diamonds
    ("8d 8d", "Jd Qd 3s 4h", "Jd 3s", False),  # ... and both diamonds are owed
    ("8d 8d", "Jc Qc 5c 5c 3s", "Jc Qc", True),  # West case 1: no diamonds, trump singles
    ("8d 8d", "Jc Qc 5c 5c 3s", "5c 5c", True),  # West case 2: ruffs with a pair
    ("8d 8d", "Jc Qc 5c 5c 3s", "3s Jc", True),  # trump is never forced
    ("8d 8d", "Td 2s 2h 4h", "Td 2s", True),  # South case 1: only one diamond
    ("8d 8d", "Td 2s 2h 4h", "2s 2h", False),  # ... which must be played
    ("8d 8d", "2h 2s Tc Tc", "2h 2s", True),  # South case 2: no diamonds
    ("8d 8d", "2h 2s Tc Tc", "Tc Tc", True),  # South case 3: ruffs with 10c 10c
]


@pytest.mark.parametrize(("lead", "hand", "play", "legal"), FOLLOWS)
def test_follow_referee(lead: str, hand: str, play: str, legal: bool) -> None:
    assert ref.follow_verdict(P(lead), P(hand), P(play), R7C)[0] is legal


@pytest.mark.parametrize(("lead", "hand", "play", "legal"), FOLLOWS)
def test_follow_engine(lead: str, hand: str, play: str, legal: bool) -> None:
    code, got = sj("legal", "--lead", lead, hand, "--play", play)
    assert (code, got["legal"]) == (0 if legal else 1, legal)
    if not legal:
        assert got["reason"]


def test_follow_engine_names_the_pair() -> None:
    """Issue 28's example: the reason names the obligation."""
    code, got = sj("legal", "--lead", "8d 8d", "9d 9d Jd Qd 3s", "--play", "Jd Qd")
    assert code == 1 and "9d 9d" in got["reason"]


# ---- winning a trick (rulings 8-9, seed tables) -----------------------------------------------

# (plays in play order, winner 1-based, points)
TRICKS = [
    (["8d 8d", "9d 9d", "Jc Qc", "Td 2s"], 2, 10),  # issue 28; 9d9d beats J-Q singles
    (["8d 8d", "Jd Qd", "Jc Qc", "2h 2s"], 1, 0),  # singles never beat a pair
    (["8d 8d", "9d 9d", "5c 5c", "2h 2s"], 3, 10),  # 5c5c ruffs: lower order, but trump pair
    (["8d 8d", "9d 9d", "5c 5c", "Tc Tc"], 4, 30),  # South case 3: 10c10c over 5c5c
    # singles: the led suit, unless trumped; ties go to the first
    (["Kd", "Ad", "3d", "2d"], 2, 10),
    (["Kd", "Ad", "3c", "2d"], 3, 10),
    (["9d", "7s", "7h", "7d"], 2, 0),  # off-suit rank cards are equal: the first wins
    (["9d", "7s", "7c", "7d"], 3, 0),  # the trump-suit rank card is higher
    (["9d", "BJ", "BJ", "SJ"], 2, 0),  # big jokers are equal to each other
    # tractors: two pairs that are not consecutive never beat a tractor (ruling 8)
    (["5h 5h 4h 4h", "Ah Ah Kh Kh", "9c 9c 3c 3c", "2h 3h 6h 8h"], 2, 30),
    (["5h 5h 4h 4h", "Ah Ah Qh Qh", "9c 9c 8c 8c", "2h 3h 6h 8h"], 3, 10),
    # the consecutive-doubles table's remarks: J-10-9-8 of spades falls only to four trump pairs
    # in a row; 7c7c-7d7d-AcAc has no larger three-pair answer (SJ SJ over 7h 7h skips 7c)
    (["Js Js Ts Ts 9s 9s 8s 8s", "5c 5c 4c 4c 3c 3c 2c 2c", "As As Ks Ks 2h 3h 4h 6h"], 2, 50),
    (["Js Js Ts Ts 9s 9s 8s 8s", "Kc Kc Qc Qc Jc Jc 9c 9c", "As As Ks Ks 2h 3h 4h 6h"], 1, 60),
    (["7c 7c 7d 7d Ac Ac", "BJ BJ SJ SJ 7h 7h", "Kc Kc Qc Qc Jc Jc"], 1, 20),
    (["Ac Ac Kc Kc Qc Qc", "BJ BJ SJ SJ 7c 7c", "7d 7d 7s 7s 7h 7h"], 2, 20),
    # throws: the seed's table (West leads, then South, East, North)
    (["Kd Qd", "5c 5c", "Tc 3c", "2d 3d"], 3, 30),  # the largest single decides: 10c
    (["Kd Qd Qd Td Td", "8c 8c 5c 5c Jc", "2d 3d 4d 6d 8d", "2s 3s 4s 6s 8s"], 2, 40),
    (["Kd Qd Qd Td Td", "8c 8c 5c 5c Jh", "2d 3d 4d 6d 8d", "2s 3s 4s 6s 8s"], 1, 40),
    (["Kd Qd Qd Td Td", "8c 8c 5c 5c Jc", "Tc Tc 2c 2c 4c", "2s 3s 4s 6s 8s"], 3, 60),
    (["Kd Qd Qd Td Td", "8c 8c 5c 5c Jc", "6c 6c 3c 3c Ac", "2s 3s 4s 6s 8s"], 2, 40),
    (["Ad Kd Kd", "7h 7h 9c", "7s 7s Ac", "2s 3s 4s"], 2, 20),  # equal pairs: South first
]


@pytest.mark.parametrize(("plays", "winner", "pts"), TRICKS)
def test_trick_referee(plays: list[str], winner: int, pts: int) -> None:
    cards = [P(p) for p in plays]
    assert ref.trick_winner(cards, R7C) + 1 == winner
    assert ref.trick_points(cards) == pts


@pytest.mark.parametrize(("plays", "winner", "pts"), TRICKS)
def test_trick_engine(plays: list[str], winner: int, pts: int) -> None:
    assert sj("trick", *plays) == (0, {"winner": winner, "points": pts})


# ---- throws that fail (ruling 10, the seed's throw table) -------------------------------------

# (throw, other hands in play order, stands, forced, back, blocker 1-based)
THROWS: list[tuple[str, list[str], bool, str | None, str | None, int | None]] = [
    # issue 28's example
    ("Kd Qd", ["Kd 3s", "4h", "5c"], False, "Qd", "Kd", 1),
    # "West can lead only if all A♦s and the other K♦ have already been played"
    ("Kd Qd", ["Jd 3s", "4h", "5c"], True, None, None, None),
    ("Kd Qd", ["3s", "Kd 4h", "5c"], False, "Qd", "Kd", 2),  # South K♦: take back the king
    ("Kd Qd", ["3s", "4h", "Ad 5c"], False, "Qd", "Kd", 3),  # North A♦: the lower, Q♦
    # K♦-Q♦-Q♦-10♦-10♦
    ("Kd Qd Qd Td Td", ["Jd 9d 9d", "Kc", "3s"], True, None, None, None),
    ("Kd Qd Qd Td Td", ["Ad 3s", "4h", "5c"], False, "Kd", "Qd Qd Td Td", 1),  # South A♦
    ("Kd Qd Qd Td Td", ["3s", "Jd Jd 4h", "5c"], False, "Td Td", "Kd Qd Qd", 2),  # East J♦J♦
    # K♠-Q♠-Q♠-J♠-J♠ stands once both A♠ are gone; an A♠ forces the K♠
    ("Ks Qs Qs Js Js", ["Ks 9s 9s 8s 8s", "Ts Ts", "3h"], True, None, None, None),
    ("Ks Qs Qs Js Js", ["3h", "As", "4h"], False, "Ks", "Qs Qs Js Js", 2),
    # partner included (ruling 10)
    ("Ad Qd Qd", ["3h", "Kd Kd", "4h"], False, "Qd Qd", "Ad", 2),
]


@pytest.mark.parametrize(("throw", "others", "stands", "forced", "back", "blocker"), THROWS)
def test_throw_referee(
    throw: str,
    others: list[str],
    stands: bool,
    forced: str | None,
    back: str | None,
    blocker: int | None,
) -> None:
    got = ref.throw_outcome(P(throw), [P(o) for o in others], R7C)
    assert got.stands is stands
    if not stands:
        assert forced is not None and back is not None and got.blocker is not None
        assert (got.forced, got.back, got.blocker + 1) == (P(forced), P(back), blocker)


@pytest.mark.parametrize(("throw", "others", "stands", "forced", "back", "blocker"), THROWS)
def test_throw_engine(
    throw: str,
    others: list[str],
    stands: bool,
    forced: str | None,
    back: str | None,
    blocker: int | None,
) -> None:
    args = [a for o in others for a in ("--other", o)]
    code, got = sj("throw", throw, *args)
    assert (code, got["stands"]) == (0 if stands else 1, stands)
    if not stands:
        assert forced is not None and back is not None
        assert sorted(P(got["forced"])) == sorted(P(forced))
        assert sorted(P(got["back"])) == sorted(P(back))
        assert got["blocker"] == blocker


# ---- the score table (rulings 11-13) ----------------------------------------------------------

# (opponents' points, declarers' levels, opponents' levels, swap): every boundary of ruling 12
SCORE_2 = [
    (-80, 6, 0, False),
    (-75, 5, 0, False),
    (-40, 5, 0, False),
    (-35, 4, 0, False),
    (-5, 4, 0, False),
    (0, 3, 0, False),
    (5, 2, 0, False),
    (35, 2, 0, False),
    (40, 1, 0, False),
    (75, 1, 0, False),
    (80, 0, 0, True),
    (115, 0, 0, True),
    (120, 0, 1, True),
    (155, 0, 1, True),
    (160, 0, 2, True),
    (195, 0, 2, True),
    (200, 0, 3, True),
    (235, 0, 3, True),
    (240, 0, 4, True),
    (280, 0, 5, True),
]
# ruling 13, one deck
SCORE_1 = [
    (0, 3, 0, False),
    (5, 2, 0, False),
    (15, 2, 0, False),
    (20, 1, 0, False),
    (35, 1, 0, False),
    (40, 0, 0, True),
    (55, 0, 0, True),
    (60, 0, 1, True),
    (75, 0, 1, True),
    (80, 0, 2, True),
    (95, 0, 2, True),
    (100, 0, 3, True),
    (115, 0, 3, True),
    (120, 0, 4, True),
    (140, 0, 5, True),
]


def _next_dealer(dealer: int, swap: bool) -> int:
    """Ruling 12: the dealer's partner (two seats on) or the next seat after the dealer."""
    return dealer % 4 + 1 if swap else (dealer + 1) % 4 + 1


def _penalised(pts: int, held: int) -> tuple[str, ...]:
    """Points below 0 or beyond the decks' arise only by throw penalties (ruling 10): without
    the option, `score` refuses them."""
    return ("--option", "throw_penalty=10") if not 0 <= pts <= held else ()


@pytest.mark.parametrize(("pts", "dec", "opp", "swap"), SCORE_2)
def test_score_two_decks(pts: int, dec: int, opp: int, swap: bool) -> None:
    for dealer in (1, 2, 3, 4):
        want = {
            "total": pts,
            "declarers": dec,
            "opponents": opp,
            "swap": swap,
            "next_dealer": _next_dealer(dealer, swap),
        }
        s = ref.score(pts, dealer=dealer)
        assert vars(s) == want
        code, got = run_json(
            "score", "--game", "shengji", f"--points={pts}", "--dealer", str(dealer),
            *_penalised(pts, 200),
        )  # fmt: skip
        assert (code, got) == (0, {**want, "multiplier": None, "kitty_added": 0})


@pytest.mark.parametrize(("pts", "dec", "opp", "swap"), SCORE_1)
def test_score_one_deck(pts: int, dec: int, opp: int, swap: bool) -> None:
    want = {
        "total": pts,
        "declarers": dec,
        "opponents": opp,
        "swap": swap,
        "next_dealer": _next_dealer(1, swap),
    }
    assert vars(ref.score(pts, decks=1)) == want
    code, got = run_json(
        "score", "--game", "shengji", "--rules", "dabaifen", f"--points={pts}",
        *_penalised(pts, 100),
    )  # fmt: skip
    assert (code, got) == (0, {**want, "multiplier": None, "kitty_added": 0})


# (last trick's lead, trump, power multiplier, linear multiplier): ruling 11 and the seed's table
KITTY = [
    ("Kd", "7c", 2, 2),
    ("Kd Kd", "7c", 4, 4),
    ("5h 5h 4h 4h", "7c", 8, 6),
    ("5c 5c 4c 4c 3c 3c", "7c", 16, 8),
    ("Kd Qd", "7c", 2, 2),  # a throw of singles
    ("Ad Kd Kd", "7c", 4, 4),  # the largest unit is the pair
    ("Ah Th Th 8h 8h 5h 5h 4h 4h 3h 3h", "9s", 16, 8),  # the seed's example: the 3-pair tractor
]


@pytest.mark.parametrize(("last", "trump", "power", "linear"), KITTY)
def test_kitty_multiplier(last: str, trump: str, power: int, linear: int) -> None:
    rd = ref.parse_trump(trump)
    assert ref.kitty_multiplier(P(last), rd, "power") == power
    assert ref.kitty_multiplier(P(last), rd, "linear") == linear
    for kind, mult in (("power", power), ("linear", linear)):
        code, got = run_json(
            "score",
            "--game",
            "shengji",
            "--trump",
            trump,
            "--points",
            "40",
            "--kitty-points",
            "15",
            "--last",
            last,
            "--last-winner",
            "opponents",
            "--option",
            f"kitty_multiplier={kind}",
        )
        assert code == 0 and got["total"] == 40 + 15 * mult
        assert got["total"] == ref.score(40, 15, P(last), "opponents", rd=rd, multiplier=kind).total


def test_score_issue_example() -> None:
    """Issue 28: 85 points, a 25-point kitty under a winning pair: 85 + 4 x 25 = 185."""
    want = {"total": 185, "declarers": 0, "opponents": 2, "swap": True, "next_dealer": 2}
    assert vars(ref.score(85, 25, P("Kd Kd"), "opponents", 1, R7C)) == want
    code, got = run_json(
        "score",
        "--game",
        "shengji",
        "--points",
        "85",
        "--kitty-points",
        "25",
        "--last",
        "Kd Kd",
        "--last-winner",
        "opponents",
        "--dealer",
        "1",
    )
    assert (code, got) == (0, {**want, "multiplier": 4, "kitty_added": 100})


def test_score_kitty_lost_when_declarers_win_last() -> None:
    """Ruling 11: if the declarers win the last trick, the kitty does not count."""
    assert ref.score(70, 25, P("Kd Kd"), "declarers", 1, R7C).total == 70
    code, got = run_json(
        "score",
        "--game",
        "shengji",
        "--points",
        "70",
        "--kitty-points",
        "25",
        "--last",
        "Kd Kd",
        "--last-winner",
        "declarers",
    )
    assert code == 0 and (got["total"], got["declarers"], got["swap"]) == (70, 1, False)


# ---- bids (ruling 15; the seed's 9♥ example) --------------------------------------------------


def test_bids_seed_example() -> None:
    """North shows 9♥, East overrides with 9♣9♣, North adds the second 9♥: hearts stand."""
    north, east = 1, 2
    after_east = ref.bidding([(north, ["9h"]), (east, ["9c", "9c"])], 9)
    assert ref.bid_trump(after_east) == "c"
    final = ref.bidding([(north, ["9h"]), (east, ["9c", "9c"]), (north, ["9h"])], 9)
    assert ref.bid_trump(final) == "h" and final is not None and final.seat == north


def test_bids_strength() -> None:
    assert ref.bid_strength(["SJ"], 9) is None  # a single joker never bids
    assert ref.bid_strength(["SJ", "BJ"], 9) is None
    assert ref.bid_strength(["8h"], 9) is None  # not a rank card
    assert ref.bid_beats(["9c", "9c"], ["9h"], 9)
    assert not ref.bid_beats(["9c"], ["9h"], 9)  # equal: the earlier stands
    assert ref.bid_beats(["SJ", "SJ"], ["9c", "9c"], 9)
    assert ref.bid_beats(["BJ", "BJ"], ["SJ", "SJ"], 9)
    assert not ref.bid_beats(["SJ", "SJ"], ["BJ", "BJ"], 9)
    assert ref.bid_trump(ref.bidding([(3, ["BJ", "BJ"])], 9)) == ""  # no-trump
    with pytest.raises(ValueError):  # a partner's second copy is a single, not a reinforcement
        ref.bidding([(1, ["9h"]), (2, ["9c", "9c"]), (3, ["9h"])], 9)


def engine_bid_trump(
    holdings: dict[int, list[str]], events: list[tuple[int, str]], rank: int
) -> str:
    """The trump the engine settles after the bids (each shown with all its cards)."""
    from tests.test_sj_referee import drawn_round, hand

    rs = drawn_round(holdings, rank)
    for seat, cards in events:
        rs.bid(seat, hand(P(cards)))
    while rs.can_draw(rs.turn):
        rs.draw(rs.turn)
    return str(rs.settle().trump)


def test_bids_engine_override() -> None:
    """The seed's 9♥ example, first half: East's 9♣9♣ overrides North's 9♥."""
    holdings = {0: ["9h", "9h"], 1: ["9c", "9c"]}
    assert engine_bid_trump(holdings, [(0, "9h"), (1, "9c 9c")], 9) == "9c"


def test_bids_engine_seed_reinforcement() -> None:
    """The seed's 9♥ example, second half: North's second 9♥ makes a pair shown first, which
    takes precedence over East's 9♣9♣ (ruling 15)."""
    holdings = {0: ["9h", "9h"], 1: ["9c", "9c"]}
    events = [(0, "9h"), (1, "9c 9c"), (0, "9h 9h")]
    assert engine_bid_trump(holdings, events, 9) == "9h"


def test_bids_engine_partner_joker_pair() -> None:
    """Ruling 15: reinforcing is showing a bid's second copy; a stronger joker pair over the
    partner's is a new bid, not a reinforcement."""
    holdings = {0: ["SJ", "SJ"], 2: ["BJ", "BJ"]}
    assert ref.bid_beats(["BJ", "BJ"], ["SJ", "SJ"], 9)
    assert engine_bid_trump(holdings, [(0, "SJ SJ"), (2, "BJ BJ")], 9) == "9"


def throw_5(throw: str) -> tuple[tuple[list[str], list[str]], tuple[int, str, str]]:
    """A throw of two equal rank cards in a no-trump round of 5, beaten by a held big joker:
    (the referee's forced and back cards, the command line's exit code, forced and back)."""
    out = ref.throw_outcome(P(throw), [P("BJ"), P("3c"), P("4c")], ref.parse_trump("5"))
    code, got = sj("throw", throw, "--other", "BJ", "--other", "3c", "--other", "4c", trump="5")
    return (out.forced, out.back), (code, got["forced"], got["back"])


def test_throw_forced_written_first() -> None:
    """Ruling 10: between equal cards, the one written first is forced."""
    assert throw_5("5h 5d") == ((["5h"], ["5d"]), (1, "5h", "5d"))


def test_throw_forced_written_first_not_lowest_id() -> None:
    """Ruling 10's "written first" wins over the lower card id."""
    assert throw_5("5d 5h") == ((["5d"], ["5h"]), (1, "5d", "5h"))


# ---- bad input (issue 28: exit 2 with one clear line) -------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["classify", "--game", "shengji", "--trump", "7c", "8x 8d"],  # an unreadable card
        ["classify", "--game", "shengji", "--trump", "7c", "8d 8d 8d"],  # a third copy, two decks
        ["classify", "--game", "shengji", "--trump", "7x", "8d"],  # a bad --trump
        ["trick", "--game", "shengji", "--trump", "1c", "8d", "9d", "Td", "Jd"],
    ],
)
def test_bad_input_exit_2(args: list[str]) -> None:
    """The command-line contract, not the seed: bad cards or trump are exit 2, one line."""
    with pytest.raises(ValueError):
        ref.parse_trump(args[4]) if args[4] != "7c" else ref.parse_cards(
            args[5].replace("8d 8d 8d", "8x")
        )
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
