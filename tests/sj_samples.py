"""Write the broken Sheng ji samples (sample_games/shengji/broken/): one record per SJ code,
each a short self-play match with one deliberate mistake and its `[Expect "CODE LINE:COL"]`
tag, the place found by validating it. Run `python -m tests.sj_samples` to write them again
(the test in tests/test_sj_validate.py checks every file against its tag, not this script).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from pathlib import Path

from tests.sj_mutate import MUTATIONS, simulated
from zfrec.errors import NotationError
from zfrec.games.shengji.cards import card_ids, distinct, one, parse_hand
from zfrec.games.shengji.notation import dumps_sj
from zfrec.games.shengji.records import SjCall, SjCards, SjMatch, SjMatchResult, SjMove
from zfrec.games.shengji.replayer import validate_match
from zfrec.record import iter_records_text
from zfrec.validate import validate

OUT = Path(__file__).resolve().parent.parent / "sample_games" / "shengji" / "broken"
Edit = Callable[[SjMatch], None]


def _mutated(name: str, preset: str = "bashifen", rounds: int = 1) -> Callable[[str], SjMatch]:
    def make(want: str) -> SjMatch:
        for seed in range(200):
            got = MUTATIONS[name](simulated(preset, seed, rounds), random.Random(seed))
            if got is not None and got[1] == want:
                bad, code = got
                first = next((d for d in validate_match(bad).diagnostics if d.severity == "error"),
                             None)  # fmt: skip
                if first is not None and first.code == code:
                    return bad
        raise AssertionError(name)

    return make


def _edited(
    edit: Edit, preset: str = "bashifen", rounds: int = 1, seed: int = 1
) -> Callable[[str], SjMatch]:
    def make(want: str) -> SjMatch:
        for s in range(seed, seed + 200):
            m = simulated(preset, s, rounds)
            try:
                edit(m)
            except AssertionError:
                continue
            if any(d.code == want for d in validate_match(m).diagnostics):
                return m
        raise AssertionError(want)

    return make


def _two_suits(m: SjMatch) -> None:
    rnd = m.rounds[0]
    for t, trick in enumerate(rnd.tricks[:-1]):
        lead = trick.moves[0]
        if lead.failed or len(card_ids(lead.cards)) != 1:
            continue
        later = [mv for tr in rnd.tricks[t + 1 :] for mv in tr.moves if mv.seat == lead.seat]
        for mv in later:
            led = card_ids(lead.cards)[0]
            for c in distinct(mv.cards):
                if c < 52 and led < 52 and c & 3 != led & 3 and c >> 2 != led >> 2:
                    lead.cards += one(c)
                    return
    raise AssertionError("no two-suit lead")


def _extra_trick(m: SjMatch) -> None:
    rnd = m.rounds[0]
    rnd.tricks.append(copy.deepcopy(rnd.tricks[-1]))


def _stop_early(m: SjMatch) -> None:
    rnd = m.rounds[0]
    del rnd.tricks[5:]
    rnd.points = rnd.outcome = rnd.levels = None


def _drop_last_trick(m: SjMatch) -> None:
    del m.rounds[0].tricks[-1]


def _short_trick(m: SjMatch) -> None:
    del m.rounds[0].tricks[3].moves[-1]


def _short_deal(m: SjMatch) -> None:
    rnd = m.rounds[0]
    assert rnd.deal is not None
    d = rnd.deal[1]
    deal = list(rnd.deal)
    deal[1] = SjCards(d.known, 1, d.pos)  # 25 known and one unknown: 26 cards
    rnd.deal = tuple(deal)


def _bid_not_held(m: SjMatch) -> None:
    rnd = m.rounds[0]
    assert rnd.deal is not None
    b = rnd.bids[0]
    rank = card_ids(b.cards)[0] >> 2
    missing = [r * 4 + s for r in (rank,) for s in range(4)
               if not rnd.deal[b.seat].known >> 2 * (r * 4 + s) & 3]  # fmt: skip
    rnd.bids.insert(0, SjMove(b.seat, one(missing[0])))


def _partner_bid(m: SjMatch) -> None:
    rnd = m.rounds[0]
    assert rnd.deal is not None
    b = rnd.bids[-1]
    partner = (b.seat + 2) % 4
    c = card_ids(b.cards)[0]
    if not rnd.deal[partner].known >> 2 * c & 3:
        raise AssertionError("partner lacks the card")
    rnd.bids.append(SjMove(partner, b.cards))


def _bad_call(m: SjMatch) -> None:
    rnd = m.rounds[0]
    more = [SjCall(card_ids(parse_hand(c))[0], 1) for c in ("As", "Ah", "Ad")]
    rnd.calls = (*rnd.calls, *more)


def _wrong_result(m: SjMatch) -> None:
    last = m.rounds[-1]
    assert last.levels is not None
    levels = list(last.levels.levels)
    levels[0] += 1 if levels[0] < 14 else -1
    m.result = SjMatchResult(tuple(levels), ())


def _after_won(want: str) -> SjMatch:
    """The shortest won da bai fen match of a few seeds, with its last round played again."""
    best = min((simulated("dabaifen", s, 400) for s in range(1, 30)), key=lambda m: len(m.rounds))
    best.rounds.append(copy.deepcopy(best.rounds[-1]))
    best.rounds[-1].number += 1
    return best


def _round_skipped(want: str) -> SjMatch:
    """Two rounds, the second numbered 3."""
    m = simulated("bashifen", 1, 2)
    m.rounds[1].number = 3
    return m


SAMPLES: dict[str, tuple[str, str, Callable[[str], SjMatch]]] = {
    "not-a-lead": ("SJ101", "a lead of cards of two suits", _edited(_two_suits)),
    "not-judged-after-no-lead": (
        "SJ105",
        "the trick after a two-suit lead is not judged",
        _edited(_two_suits),
    ),
    "card-not-held": ("SJ102", "a seat plays a card it was not dealt", _mutated("foreign_card")),
    "throw-cannot-stand": (
        "SJ103",
        "a throw written as standing that another hand beats",
        _mutated("throw_stands"),
    ),
    "wrong-forced-part": (
        "SJ104",
        "a failed throw with the wrong forced part",
        _mutated("forced_part"),
    ),
    "does-not-follow": (
        "SJ201",
        "a follow that keeps back a card of the led suit",
        _mutated("revoke"),
    ),
    "out-of-turn": ("SJ202", "a play by the wrong seat within a trick", _mutated("seat")),
    "wrong-leader": (
        "SJ203",
        "a trick led by another seat than the last trick's winner",
        _mutated("seat"),
    ),
    "play-after-round-end": (
        "SJ204",
        "a trick after the last card was played",
        _edited(_extra_trick),
    ),
    "round-not-finished": ("SJ205", "the record stops after five tricks", _edited(_stop_early)),
    "short-trick": ("SJ206", "a trick with three plays", _edited(_short_trick)),
    "trick-missing": (
        "SJ210",
        "the last trick left out of a round whose points line follows",
        _edited(_drop_last_trick),
    ),
    "third-copy": ("SJ301", "a card dealt three times with two decks", _mutated("third_copy")),
    "wrong-hand-size": ("SJ302", "a hand of 26 cards", _edited(_short_deal)),
    "wrong-kitty-size": ("SJ303", "a kitty of 7 cards", _mutated("kitty_size")),
    "wrong-dealer": ("SJ304", "round 2 dealt by the wrong seat", _mutated("dealer", rounds=2)),
    "bid-not-held": (
        "SJ401",
        "a bid of a rank card the seat was not dealt",
        _edited(_bid_not_held, seed=2),
    ),
    "not-a-bid": ("SJ402", "a bid of a card that is not of the dominant rank", _mutated("bad_bid")),
    "bid-too-weak": ("SJ403", "a single bid after a bid already stands", _mutated("bad_bid")),
    "partner-reinforces": (
        "SJ404",
        "a bid that shows the partner's bid card again",
        _edited(_partner_bid, seed=4),
    ),
    "trump-contradicts-bids": (
        "SJ405",
        "a trump other than the bids give",
        _mutated("wrong_trump"),
    ),
    "too-many-calls": (
        "SJ406",
        "zhao pengyou: the dealer calls more friends than allowed",
        _edited(_bad_call, preset="zhaopengyou"),
    ),
    "wrong-join": (
        "SJ407",
        "zhao pengyou: a join marked at the wrong play",
        _mutated("join", preset="zhaopengyou"),
    ),
    "wrong-points": ("SJ501", "the opponents' points written wrong", _mutated("points")),
    "wrong-multiplier": ("SJ502", "the kitty's multiplier written wrong", _mutated("multiplier")),
    "wrong-level-change": ("SJ503", "the level change written wrong", _mutated("steps")),
    "wrong-next-dealer": ("SJ504", "the next dealer written wrong", _mutated("next")),
    "wrong-rank": (
        "SJ505",
        "round 2 played at another rank than the declarers' level",
        _mutated("rank", rounds=2),
    ),
    "wrong-result": (
        "SJ506",
        "the final levels in [Result] written wrong",
        _edited(_wrong_result, rounds=2),
    ),
    "unreadable-card": (
        "ZF001",
        "a card with a suit letter that is none: its held cards are suggested",
        lambda want: simulated("bashifen", 1),
    ),
    "round-after-match-won": ("SJ507", "a round played after a team won the match", _after_won),
    "round-number-skipped": ("SJ508", "round 3 written right after round 1", _round_skipped),
}


def _unreadable_card(text: str) -> str:
    """A follow's card written with a suit letter that is none (`7x`): ZF001 with the held
    cards it may mean, once; the play has no other card, so its trick line is skipped, and
    what goes wrong after follows from it."""
    lines = text.splitlines(keepends=True)
    at = next(
        i for i, line in enumerate(lines) if re.match(r"\d: \S+  \d: [2-9TJQKA][shdc]  ", line)
    )
    line = lines[at]
    cut = line.index("  ") + 2
    card = line[cut + 3 : cut + 5]
    lines[at] = line[: cut + 3] + card[0] + "x" + line[cut + 5 :]
    return "".join(lines)


TEXT_EDITS: dict[str, Callable[[str], str]] = {"unreadable-card": _unreadable_card}


def write(name: str, code: str, what: str, match: SjMatch) -> str:
    """Write one sample with its tags; return where its expected diagnostic is."""
    match.event = f"Broken: {what}"
    match.extra_tags = [("Expect", f"{code} 0:0")]
    match.extra_tags = [t for t in match.extra_tags if t[0] not in ("Bot", "Seed")]
    text = dumps_sj(match)
    if name in TEXT_EDITS:
        text = TEXT_EDITS[name](text)
    [again] = list(iter_records_text(text, "zfn", name, recover=True))
    assert not isinstance(again, NotationError)
    found = next(d for d in validate(again).diagnostics if d.code == code)
    where = f"{found.location.line}:{found.location.col}"
    text = text.replace(f'[Expect "{code} 0:0"]', f'[Expect "{code} {where}"]')
    (OUT / f"{name}.zfn").write_text(text, encoding="utf-8")
    return where


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (code, what, make) in SAMPLES.items():
        print(name, code, write(name, code, what, make(code)))


if __name__ == "__main__":
    main()
