"""A club member's own Sheng ji round, written by hand with Chinese names, through the real
command line (`zfrec` in a child process, as a user runs it): where the caret points, what
`--show-deal` prints, what a typo in a JSON record says."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

from zfrec.record.lexer import display_width

ROOT = Path(__file__).resolve().parent.parent
ZFREC = Path(sys.executable).with_name("zfrec")

# Round 1 of a hand-written match: 张伟 deals and declares hearts, leads a pair, a tractor, a
# throw that stands (he buried the other Ac) and a joker; the record stops after six tricks
# (SJ205, a warning).
CLUB = """[Game "shengji"]
[Event "周五俱乐部"]
[Players "张伟, 李娜, 王芳, 陈静"]
[Rules "bashifen"]

round 1 dealer 1 rank 2 trump h
deal 1: As As Ks Qs 5s 9d 9d 8d 8d 3d Ac Kc 7c 4c Ah Qh Jh Th 6h 6h 4h 2h 2s SJ BJ
deal 2: ?25
deal 3: ?25
deal 4: ?25
bids 1: 2h
kitty 3c 4d 5h 6c 7d 8c Ac Jd
discard 3c 3d 4d 6c 7d 8c Ac Jd
张伟: As As  李娜: 3s 4s  王芳: Ks 7s  陈静: 6s 8s
1: 9d 9d 8d 8d  2: 4d 6d 7d Jd  3: 3d 5d Td Qd  4: Kd Ad 3c 4c
1: Ac Kc  2: 5c 6c  3: 8c 9c  4: Tc Jc
1: BJ  2: SJ  3: 3h  4: 5h
1: 6h 6h  2: 7h 8h  3: 9h 9h  4: Kh 3h
3: Js  4: 9s  1: 5s  2: Ts
"""


def zfrec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ZFREC), *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8",
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200", "PYTHONDONTWRITEBYTECODE": "1"},
        check=False,
    )  # fmt: skip


def _write(tmp_path: Path, text: str, name: str = "club.zfn") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_caret_stands_under_a_misspelt_chinese_name_in_a_terminal(tmp_path: Path) -> None:
    # 李那 for 李娜, after 张伟's play: the two names before it take two columns a character
    text = CLUB.replace("李娜: 3s 4s", "李那: 3s 4s")
    _write(tmp_path, text)
    res = zfrec("validate", "club.zfn", cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "no player is called '李那'" in line)
    source, caret = lines[at + 1], lines[at + 2]
    assert source.endswith("| 张伟: As As  李那: 3s 4s  王芳: Ks 7s  陈静: 6s 8s")
    assert caret.strip() == "^"
    # the caret's column on screen is the name's: count the columns a terminal shows
    assert display_width(caret) - 1 == display_width(source[: source.index("李那")])


def test_show_deal_prints_the_deal_as_written_then_the_kitty_and_the_discard(
    tmp_path: Path,
) -> None:
    # 张伟 deals: his deal line is what he drew; the 4h he never plays may lie in his hand or
    # the discard, but the deal the record writes is the deal, not his hand after the exchange
    _write(tmp_path, CLUB)
    res = zfrec("validate", "--show-deal", "club.zfn", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    head = lines.index("game 1, round 1 deal (reconstructed from the plays):")
    shown = dict(line.strip().split(": ", 1) for line in lines[head + 1 : head + 7])
    assert shown["张伟"] == (
        "3d 4h 4c 5s 6h 6h 7c 8d 8d 9d 9d Th Jh Qs Qh Ks Kc As As Ah Ac 2s 2h SJ BJ"
    )  # the written deal 1, in canonical order
    assert shown["kitty"] == "3c 4d 5h 6c 7d 8c Jd Ac"
    assert shown["discard"] == "3d 3c 4d 6c 7d 8c Jd Ac"
    # --json keeps "deal" (the hands at play) and adds "drawn", the deal as written
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    rnd = json.loads(res.stdout)["files"][0]["games"][0]["rounds"][0]
    assert rnd["drawn"]["张伟"] == shown["张伟"]
    assert rnd["kitty"] == shown["kitty"] and rnd["discard"] == shown["discard"]
    assert rnd["deal"]["张伟"] == (
        "4h 4c 5s 5h 6h 6h 7c 8d 8d 9d 9d Th Jh Qs Qh Ks Kc As As Ah Ac 2s 2h SJ BJ"
    )  # his hand at play: the kitty's 5h taken up, his 3d put back


def test_a_typo_in_a_json_deal_names_the_card_at_fault(tmp_path: Path) -> None:
    _write(tmp_path, CLUB)
    assert zfrec("convert", "club.zfn", "club.json", cwd=tmp_path).returncode == 0
    path = tmp_path / "club.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    deal = data["rounds"][0]["deal"][0]["cards"]
    data["rounds"][0]["deal"][0]["cards"] = deal.replace("4c", "4x")
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    res = zfrec("validate", "club.json", cwd=tmp_path)
    assert res.returncode == 1
    # validate reads on past it, as in the text form: the card only is lost
    assert res.stdout.split("\n")[1].endswith(
        "error ZF001 game 1, round 1: at /rounds/0/deal/0/cards: unknown suit 'x' in '4x': "
        "suits are s h d c (or ♠ ♥ ♦ ♣); read as an unknown card"
    )
    res = zfrec("convert", "club.json", "back.zfn", cwd=tmp_path)  # a strict reader
    assert res.returncode != 0
    assert "at /rounds/0/deal/0/cards: expected cards" in res.stdout + res.stderr
    assert "unknown suit 'x' in '4x': suits are s h d c (or ♠ ♥ ♦ ♣)" in res.stdout + res.stderr


def test_a_throw_the_known_cards_leave_a_higher_single_against_cannot_stand(
    tmp_path: Path,
) -> None:
    # 张伟's deal, the kitty and the discard are written, and the other Ac is in none of them
    # nor played: another hand holds it, so the throw Ac Kc fails (ruling 10), whoever holds it
    text = CLUB.replace("kitty 3c 4d 5h 6c 7d 8c Ac Jd", "kitty 3c 4d 5h 6c 7d 8c 3s Jd")
    text = text.replace("discard 3c 3d 4d 6c 7d 8c Ac Jd", "discard 3c 3d 4d 6c 7d 8c 3s Jd")
    _write(tmp_path, text)
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    assert res.returncode == 1, res.stdout
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [(d["code"], d["line"], d["trick"]) for d in found] == [
        ("SJ103", 16, 3), ("SJ205", 19, None)
    ]  # fmt: skip
    assert found[0]["message"] == (
        "the throw Kc Ac cannot stand: a higher single than Kc (Ac) must be in another hand, "
        "as the written cards leave it no other place; it is held to Kc (RULES-SHENGJI.md R10)"
    )
    # the discard not written: the other Ac may be buried there, and the throw stands
    text = text.replace("discard 3c 3d 4d 6c 7d 8c 3s Jd", "discard ?8")
    _write(tmp_path, text)
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [d["code"] for d in found] == ["SJ205"]


def test_the_audit_of_a_throw_proven_beaten_repairs_it_or_says_why_not(tmp_path: Path) -> None:
    # as above: the other Ac is in no line, so 张伟's throw Kc Ac fails, held to Kc
    text = CLUB.replace("kitty 3c 4d 5h 6c 7d 8c Ac Jd", "kitty 3c 4d 5h 6c 7d 8c 3s Jd")
    text = text.replace("discard 3c 3d 4d 6c 7d 8c Ac Jd", "discard 3c 3d 4d 6c 7d 8c 3s Jd")
    # the others wrote one card each, as to the Kc alone: the repair is the failed throw
    _write(tmp_path, text.replace("2: 5c 6c  3: 8c 9c  4: Tc Jc", "2: 5c  3: 8c  4: Tc"))
    res = zfrec("audit", "club.zfn", cwd=tmp_path)
    assert "    1. legal if round 1, trick 3, turn 1 (张伟)'s throw Kc Ac was held to Kc\n" in (
        res.stdout
    )
    # they wrote two cards each, as to a throw that stood: no edit repairs it, and it says why
    _write(tmp_path, text)
    res = zfrec("audit", "club.zfn", cwd=tmp_path)
    why = (
        "the throw Kc Ac fails (held to Kc), but the trick's other plays are written with 2 "
        "cards each, as to a throw that stood: what each seat played to Kc alone is not in the "
        "record, so no edit of it can be checked; write the trick as played (the throw with "
        "`forced Kc`, each play to it)"
    )
    assert f"  no repair offered: {why}\n" in res.stdout, res.stdout
    res = zfrec("audit", "--json", "club.zfn", cwd=tmp_path)
    assert json.loads(res.stdout)["games"][0]["no_repair"] == why
    zfrec("audit", "club.zfn", "--html", "audit.html", cwd=tmp_path)  # and on its page
    page = (tmp_path / "audit.html").read_text("utf-8")
    assert f"None offered: {why.replace(chr(39), '&#39;')}." in page


def test_a_short_play_to_a_pair_in_trick_is_counted_in_words(tmp_path: Path) -> None:
    # who won trick 5? 王芳's pair of 9h over 张伟's 6h 6h, typed with a card left out
    res = zfrec("trick", "--game", "shengji", "--trump", "2h", "6h 6h", "7h", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr.strip() == (
        "error: play 2 has 1 card; every play has as many as the lead, 2 (ruling 7)"
    )
    res = zfrec("trick", "--game", "shengji", "--trump", "2h", "6h 6h", "7h 8h", "9h 9h", "Kh 3h",
                cwd=tmp_path)  # fmt: skip
    assert (res.returncode, res.stdout.strip()) == (0, "play 3 (9h 9h) wins 10 points")


def test_a_single_the_written_cards_prove_beaten_is_forced_before_a_pair_a_hand_beats(
    tmp_path: Path,
) -> None:
    # neither Ac is in 张伟's deal, the kitty, the discard or a play: another hand holds one, so
    # his throw Kc 7c 7c is held to the single Kc (the fewest cards, ruling 10), not to the pair
    # 7c 7c that 李娜's 9c 9c beats; the record stops after the throw's trick
    text = CLUB.replace(" Ac Kc 7c 4c ", " 7c Kc 7c 4c ")
    text = text.replace("8c Ac Jd", "8c 3s Jd")
    head = text[: text.index("1: Ac Kc")]
    assert head.count("3s Jd") == 2 and "Ac" not in head
    stood = head + "1: Kc 7c 7c  2: 9c 9c 5c  3: 8c Qc 6c  4: Tc Jc Jc\n"
    _write(tmp_path, stood)
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [(d["code"], d["line"]) for d in found] == [("SJ103", 16), ("SJ205", 16)]
    assert found[0]["message"] == (
        "the throw 7c 7c Kc cannot stand: a higher single than Kc (Ac) must be in another "
        "hand, as the written cards leave it no other place; it is held to Kc "
        "(RULES-SHENGJI.md R10)"
    )  # it said "李娜 holds a higher pair than 7c 7c; it is held to 7c 7c"
    # written as failed, held to the pair: the forced part is wrong (it was passed as legal)
    _write(tmp_path, head + "1: Kc 7c 7c forced 7c 7c by 2  2: 9c 9c  3: 8c Qc  4: Jc Jc\n")
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [(d["code"], d["line"]) for d in found] == [("SJ104", 16), ("SJ205", 16)]
    assert found[0]["message"].startswith("the throw 7c 7c Kc is held to Kc, not 7c 7c: ")
    # held to Kc, blocked by 李娜 (who may hold an Ac): as it should be
    _write(tmp_path, head + "1: Kc 7c 7c forced Kc by 2  2: 5c  3: 8c  4: Tc\n")
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [d["code"] for d in found] == ["SJ205"]


def test_the_caret_stands_under_its_character_after_a_name_with_a_combining_accent(
    tmp_path: Path,
) -> None:
    # José typed as e + U+0301 (as some keyboards and macOS file names give it) shows as four
    # columns, not five: the caret under 李那 moves one column left of the characters' count
    jose = "Jose\u0301"
    text = CLUB.replace("张伟", jose).replace("李娜: 3s 4s", "李那: 3s 4s")
    _write(tmp_path, text)
    res = zfrec("validate", "club.zfn", cwd=tmp_path)
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "no player is called '李那'" in line)
    source, caret = lines[at + 1], lines[at + 2]
    assert source.endswith(f"| {jose}: As As  李那: 3s 4s  王芳: Ks 7s  陈静: 6s 8s")
    assert caret.strip() == "^"
    # the characters before 李那: one of them (U+0301) takes no column, none takes two
    before = source[: source.index("李那")]
    assert sum(unicodedata.east_asian_width(c) in "WF" for c in before) == 0
    assert len(caret) - 1 == len(before) - 1


def test_a_failed_throw_held_to_part_of_a_unit_is_wrong(tmp_path: Path) -> None:
    # 张伟's throw Kc 7c 7c is the single Kc and the pair 7c 7c: written as held to one 7c, half
    # of the pair, it was passed as legal (a blocker may hold a higher single than 7c); ruling 10
    # holds a failed throw to one of its units whole
    text = CLUB.replace(" Ac Kc 7c 4c ", " 7c Kc 7c 4c ").replace("8c Ac Jd", "8c 3s Jd")
    head = text[: text.index("1: Ac Kc")]
    _write(tmp_path, head + "1: Kc 7c 7c forced 7c by 2  2: 9c  3: 8c  4: Jc\n")
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [(d["code"], d["line"]) for d in found] == [("SJ104", 16), ("SJ205", 16)]
    assert found[0]["message"] == (
        "the throw 7c 7c Kc is held to one of its units whole (7c 7c, Kc), not 7c "
        "(RULES-SHENGJI.md R10)"
    )
    # held to the whole pair or to the single, the record reads on as before
    _write(tmp_path, head + "1: Kc 7c 7c forced Kc by 2  2: 5c  3: 8c  4: Tc\n")
    res = zfrec("validate", "--json", "club.zfn", cwd=tmp_path)
    found = json.loads(res.stdout)["files"][0]["games"][0]["diagnostics"]
    assert [d["code"] for d in found] == ["SJ205"]
