"""Write the valid Sheng ji samples (sample_games/shengji/) from seeded self-play, with the
notes a scorer would add: names, comments, annotations, a dispute, partial deals.

    .venv/bin/python scripts/sj_samples.py [FOLDER]

FOLDER: write them there instead, to compare (tests/test_sample_scripts.py does).
"""

from __future__ import annotations

import sys
from pathlib import Path

from zfrec.games.shengji.cards import card_ids, from_ids, size
from zfrec.games.shengji.files import dumps_sj_as
from zfrec.games.shengji.match import play_match
from zfrec.games.shengji.records import SjCards, SjMatch
from zfrec.games.shengji.rules import sj_preset
from zfrec.games.shengji.simrecords import match_to_record

OUT = Path(__file__).resolve().parent.parent / "sample_games" / "shengji"
FOUR = ("Ann", "王芳", "Bo Li", "李娜")


def record(
    preset: str, seed: int, bots: list[str], rounds: int = 400, **options: object
) -> SjMatch:
    rules = sj_preset(preset, **options)
    names = (
        FOUR
        if rules.players == 4
        else ("Ann", "王芳", "Bo Li", "李娜", "Chen", "Dev", "Eli", "Fei")
    )
    m = match_to_record(play_match(rules, seed, bots, max_rounds=rounds), names, "Friday club")
    m.extra_tags = [("Expect", "valid"), *m.extra_tags]
    return m


def write(name: str, match: SjMatch, what: str) -> None:
    match.comments.insert(0, what)
    fmt = "json" if name.endswith(".json") else "zfn"
    (OUT / name).write_text(dumps_sj_as(match, fmt), encoding="utf-8")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    m = record("bashifen", 7, ["greedy"] * 4)
    m.rounds[0].comments.append("李娜 kept the score sheet.")
    first = m.rounds[0].tricks[0].moves[0]
    first.annotation = "!"
    first.comments.append("a strong lead")
    write(
        "01-bashifen-match.zfn", m, "A whole bashi fen match, from level 2 until a team wins at A."
    )

    m = record("bashifen", 1, ["greedy", "random", "greedy", "random"], rounds=2)
    write("02-no-trump.zfn", m, "Round 2 is played in no-trump: a pair of jokers was bid.")

    m = record("bashifen", 1, ["random"] * 4, rounds=1)
    write("03-failed-throw.zfn", m, "A throw fails: the attempt, the forced part and who blocked.")

    m = record("bashifen", 2, ["random"] * 4, rounds=1)
    write(
        "04-kitty-multiplier.zfn",
        m,
        "The opponents take the last trick with a pair: the kitty's points count four times.",
    )

    m = record("dabaifen", 38, ["greedy"] * 4)
    write("05-dabaifen-match.zfn", m, "Da bai fen: one deck, a kitty of 6, levels in steps of 20.")

    m = record("zhaopengyou", 17, ["greedy"] * 5, rounds=3)
    write(
        "06-zhaopengyou.zfn",
        m,
        "Zhao pengyou for five: the dealer calls a card; whoever plays that copy joins.",
    )

    m = record("bashifen", 2, ["greedy", "random", "greedy", "random"], rounds=1)
    r = m.rounds[0]
    assert r.deal is not None and r.kitty is not None and r.discard is not None
    r.deal = (r.deal[0], *(SjCards(0, size(d.known)) for d in r.deal[1:]))
    shown = from_ids(card_ids(r.kitty.known)[:3])  # three kitty cards were seen
    r.kitty = SjCards(shown, size(r.kitty.known) - 3)
    r.discard = SjCards(0, size(r.discard.known))
    r.comments.append("Only Ann's own hand was written down at the deal.")
    write("07-partial-deals.zfn", m, "A partial record: one seat's deal known, the rest ?25.")

    m = record("bashifen", 3, ["greedy"] * 4, rounds=1)
    write("08-one-round.json", m, "One round in the JSON form.")

    m = record("bashifen", 4, ["greedy"] * 4, rounds=1, throw_penalty=10)
    t = m.rounds[0].tricks[2]
    t.comments.append("the table argued about the third trick")
    last = t.moves[-1]
    last.annotation = "?!"
    last.disputed, last.dispute_note = True, "did 李娜 misplay?"
    write("09-annotated.zfn", m, "Comments, marks and a disputed play, with a throw penalty rule.")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        OUT = Path(sys.argv[1])
    main()
