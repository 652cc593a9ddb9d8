"""Hypothesis strategies for random, structurally valid game records (no rules knowledge)."""

from __future__ import annotations

from hypothesis import strategies as st

from zfrec.games.zhengfen.engine.cards import BJ, DECK_SIZE, NUM_RANKS, SJ, Cards, Stand
from zfrec.games.zhengfen.engine.rules import PRESETS
from zfrec.record.model import (
    ANNOTATIONS,
    KNOWN_TAGS,
    AltPlay,
    Game,
    Hand,
    HandScore,
    Move,
    Result,
    RuleValue,
    SeatDeal,
    Trick,
    comment_problem,
    name_problem,
)

NAME_CHARS = "AaBbOoLlIiz王芳李明张伟 -_.'é!?=#@12"
# Comment text exercises every escape: braces, backslashes, a '[' after a newline (which would
# otherwise read as the next game's tag), quotes, semicolons and CJK.
COMMENT_CHARS = 'ab Z王{}[]\\;:"“”\n\t!?-=#'
LINE_CHARS = 'ab Z王{}[]\\;:"“”\t!?-=#,'

player_names = st.text(NAME_CHARS, min_size=1, max_size=10).filter(lambda s: not name_problem(s))
comments = st.lists(
    st.text(COMMENT_CHARS, min_size=1, max_size=20).filter(lambda s: not comment_problem(s)),
    max_size=2,
)
lines = st.text(LINE_CHARS, max_size=15)
tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: s.casefold() not in KNOWN_TAGS
)
stands = st.builds(Stand, st.integers(0, NUM_RANKS - 1), st.none() | st.integers(0, 3))


Play = tuple[bool, int, tuple[tuple[int, Stand], ...]]  # is_pass, cards, declarations


@st.composite
def plays(draw: st.DrawFn) -> Play:
    """A pass, or cards (jokers often among them) with some jokers declared."""
    if draw(st.integers(0, 3)) == 0:
        return True, 0, ()
    if draw(st.booleans()):  # a few cards, jokers often among them
        card_ids = st.integers(0, DECK_SIZE - 1) | st.sampled_from([SJ, BJ])
        cards = sum(1 << c for c in draw(st.lists(card_ids, min_size=1, max_size=6, unique=True)))
    else:  # any set at all
        cards = draw(st.integers(1, (1 << DECK_SIZE) - 1))
    decls = tuple(
        (joker, draw(stands)) for joker in (SJ, BJ) if cards >> joker & 1 and draw(st.booleans())
    )
    return False, cards, decls


@st.composite
def moves(draw: st.DrawFn, n: int) -> Move:
    seat = draw(st.integers(0, n - 1))
    disputed = draw(st.booleans())
    extra = {
        "annotation": draw(st.none() | st.sampled_from(ANNOTATIONS)),
        "comments": draw(comments),
        "disputed": disputed,
        "dispute_note": draw(st.none() | lines) if disputed else None,
    }
    is_pass, cards, decls = draw(plays())
    move = Move.passes(seat, **extra) if is_pass else Move.plays(seat, cards, decls, **extra)
    if disputed:  # the other side's versions (`or Kc`), none repeating another
        recorded = AltPlay.of_move(move)
        versions = draw(st.lists(plays().map(_version), max_size=3, unique=True))
        move.alternatives = tuple(v for v in versions if v != recorded)
    return move


def _version(play: Play) -> AltPlay:
    is_pass, cards, decls = play
    return AltPlay(is_pass, Cards(cards), decls)


@st.composite
def hands(draw: st.DrawFn, n: int, number: int) -> Hand:
    seat_scores = st.tuples(*[st.integers(0, 600)] * n)
    deal = None
    if draw(st.booleans()):
        deal = tuple(
            SeatDeal(
                Cards(draw(st.integers(0, (1 << DECK_SIZE) - 1) | st.just(0))),
                draw(st.integers(0, 20)),
            )
            for _ in range(n)
        )
    tricks = draw(
        st.lists(st.builds(Trick, st.lists(moves(n), min_size=1, max_size=5), comments), max_size=3)
    )
    score = None
    if draw(st.booleans()):
        score = HandScore(draw(seat_scores), draw(st.none() | seat_scores))
    return Hand(
        number=number,
        shuffler=draw(st.none() | st.integers(0, n - 1)),
        deal=deal,
        tricks=tricks,
        score=score,
        comments=draw(comments),
    )


@st.composite
def games(draw: st.DrawFn) -> Game:
    n = draw(st.integers(3, 6))
    players = draw(st.lists(player_names, min_size=n, max_size=n, unique_by=str.casefold))
    options: dict[str, RuleValue] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "self_overplay": st.booleans(),
                "jokers_wild": st.booleans(),
                "sequence_lengths": st.sampled_from(["any", "equal"]),
            },
        )
    )
    result = None
    if draw(st.booleans()):
        winners = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2))
        result = Result(tuple(draw(st.tuples(*[st.integers(0, 2000)] * n))), tuple(winners))
    first = draw(st.integers(1, 3))
    count = draw(st.integers(0, 3))
    return Game(
        players=players,
        event=draw(st.none() | lines),
        site=draw(st.none() | lines),
        date=draw(st.none() | st.just("2024.03.15")),
        extra_tags=draw(
            st.lists(st.tuples(tag_names, lines), max_size=2, unique_by=lambda t: t[0].casefold())
        ),
        preset=draw(st.sampled_from(sorted(PRESETS))),
        options=options,
        target=draw(st.integers(1, 2000)),
        result=result,
        hands=[draw(hands(n, first + i)) for i in range(count)],
        comments=draw(comments),
    )
