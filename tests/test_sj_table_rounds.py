"""Sheng ji rounds as a live table logs them (LIVE.md, "Sheng ji"): no deal written, the kitty
and discard as the dealer gives them, round 1's dealer settled by the bids, a round cut where
play is. What the table enters is judged by the validator, so these are the validator's cases:
a correct entry must not be refused."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.sj_live_helpers import simulated
from zfrec.games.shengji.cards import size
from zfrec.games.shengji.records import SjCards, SjMatch
from zfrec.games.shengji.replayer import validate_match


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> SjMatch:
    return simulated(Path(tmp_path_factory.mktemp("sj")), 38)


def _cut_round(m: SjMatch, tricks: int, *, dealer: bool = True, index: int = 0) -> SjMatch:
    """`m` to its round `index` + 1 (round 1 by default), that round with no deal written (the
    kitty and discard kept) and cut after `tricks` tricks; without its dealer when `dealer` is
    False (the bids settle it)."""
    out = copy.deepcopy(m)
    rnd = out.rounds[index]
    del out.rounds[index + 1 :]
    assert rnd.deal is not None
    rnd.deal = tuple(SjCards(0, d.unknown + size(d.known)) for d in rnd.deal)
    del rnd.tricks[tricks:]
    rnd.points = rnd.outcome = rnd.levels = None
    if not dealer:
        rnd.dealer = None
    out.result = None
    return out


def test_a_failed_throw_stands_by_the_blocker_unseen(match: SjMatch) -> None:
    # Round 1, trick 20: seat 4 throws 6h Th Jh and seat 3 blocks it with a single heart that
    # no play has shown yet; seat 2 then shows a void in hearts. The guessed cards put no high
    # heart with seat 3 any more, which must not make the written block wrong.
    rnd = match.rounds[0]
    assert any(m.failed for m in rnd.tricks[19].moves)
    for cut in (19, 20):
        codes = {d.code for d in validate_match(_cut_round(match, cut)).diagnostics}
        assert codes <= {"SJ205"}, (cut, codes)


def test_round_one_dealer_settled_by_the_bids_exchanges(match: SjMatch) -> None:
    # Round 1 written without its dealer: the bid that stands makes seat 2 the dealer, and the
    # dealer's discard (from the kitty and a hand not written) is theirs to make.
    rnd = match.rounds[0]
    assert rnd.dealer == 1 and rnd.bids and rnd.bids[0].seat == 1
    for cut in (0, 5):
        codes = {d.code for d in validate_match(_cut_round(match, cut, dealer=False)).diagnostics}
        assert codes <= {"SJ205"}, (cut, codes)


def test_the_dealers_known_cards_leave_with_the_discard(match: SjMatch) -> None:
    # No deal written, the kitty and discard written: what the rebuild calls known in the
    # dealer's hand (a table page offers it to tap) is the kitty and bids without the discard,
    # never a discarded card kept by a guessed card of the same name.
    from zfrec.games.shengji.cards import card_ids, contains, format_hand
    from zfrec.games.shengji.rebuild import rebuild, shown

    rnd = _cut_round(match, 0).rounds[0]
    assert rnd.kitty is not None and rnd.discard is not None and rnd.dealer is not None
    n = len(match.players)
    played, bids = shown(rnd, n)
    up, down = (rnd.kitty.known, 0), (rnd.discard.known, 0)
    rb = rebuild(match.rules(), rnd.dealer, [(0, 25)] * n, (up, down), bids, played, 0)
    hand = rb.at_play(rnd.dealer)[rnd.dealer]
    guessed = rb.guessed[rnd.dealer]
    assert contains(hand, guessed)
    known = [c for c in card_ids(hand)]
    for c in card_ids(guessed):
        known.remove(c)
    expect = sorted(card_ids(rnd.kitty.known + bids[rnd.dealer]))
    for c in card_ids(rnd.discard.known):
        if c in expect:
            expect.remove(c)
    assert sorted(known) == expect, format_hand(sum(1 << 2 * c for c in known))


@pytest.mark.slow
def test_every_round_logged_without_deals_is_clean(match: SjMatch) -> None:
    # Each round of the match as a table logs it (no deal; the kitty and discard written),
    # cut at several points, round 1 also without its dealer: nothing but "unfinished".
    for i in range(len(match.rounds)):
        for cut in (1, 7, 13, 19, 25):
            for dealer in (True, False) if i == 0 else (True,):
                out = _cut_round(match, cut, dealer=dealer, index=i)
                codes = {d.code for d in validate_match(out).diagnostics}
                assert codes <= {"SJ205"}, (i + 1, cut, dealer, codes)


def test_zhao_pengyou_tables_seat_seven_and_eight(tmp_path: Path) -> None:
    # LIVE.md: zhao pengyou with 5 to 8 players. The API took at most 6 names (Zheng Fen's
    # most), so a table of 7 or 8 could not be made, nor seen as seat 7 or dealt to it.
    from fastapi.testclient import TestClient

    from zfrec.live.app import create_app
    from zfrec.store import open_store

    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        players = ["张伟", "Bo", "王芳", "Dee", "Eve", "Fay", "欧阳娜娜", "Hal"]
        for n in (7, 8):
            made = client.post("/api/tables", json={"rules": "zhaopengyou", "players": players[:n]})
            assert made.status_code == 201, made.text
            body = made.json()
            assert body["game"] == "shengji" and body["players"] == players[:n]
            auth = {"Authorization": f"Bearer {body['token']}"}
            url = f"/api/tables/{body['id']}"
            started = client.post(url + "/hands", json={"dealer": n, "deals": {str(n): "3s"}},
                                  headers=auth)  # fmt: skip
            assert started.status_code == 201, started.text
            assert client.get(url, params={"seat": n}).status_code == 200
            assert client.get(f"/t/{body['id']}", params={"seat": n}).status_code == 200
        # Zheng Fen keeps its own count, with its own message
        zf = client.post("/api/tables", json={"players": players[:7]})
        assert zf.status_code == 422 and zf.json()["code"] == "players", zf.text
        assert "3 to 6 players" in zf.json()["message"]
        assert (
            client.post(
                "/api/tables", json={"rules": "zhaopengyou", "players": [*players, "Ivy"]}
            ).status_code
            == 422
        )
    engine.dispose()


def test_a_round_with_one_hand_dealt(match: SjMatch, tmp_path: Path) -> None:
    # The logger types their own hand only (LIVE.md: deals for any subset of seats): the round
    # starts, and the dealer's exchange and the plays are judged against that hand.
    from fastapi.testclient import TestClient

    from tests.sj_live_helpers import match_steps
    from zfrec.live.app import create_app
    from zfrec.store import open_store

    steps = [s for s in match_steps(match) if s.round == 1]
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        made = client.post("/api/tables", json={"game": "shengji", "players": list("ABCD")}).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        url = f"/api/tables/{made['id']}"
        own = steps[0].body["deals"]["3"]
        started = client.post(url + "/hands", json={"deals": {"3": own}}, headers=auth)
        assert started.status_code == 201, started.text
        assert started.json()["hands"][2]["cards"] == own
        for step in steps[1:12]:
            r = client.post(url + "/moves", json=step.body, headers=auth)
            assert r.status_code == 200, (step.body, r.text)
        held = client.get(url).json()["hands"][2]["cards"].split()
        bad = next(c for c in ("3s", "4s", "5s", "6s", "7s") if c not in held)
        refused = client.post(url + "/moves", json={"seat": 3, "play": bad}, headers=auth)
        assert refused.status_code == 422 and refused.json()["code"] == "SJ102", refused.text
    engine.dispose()


def test_every_deal_typed_in_gives_the_kitty(match: SjMatch, tmp_path: Path) -> None:
    # The four deals typed in leave eight cards of the decks: the kitty, known without a kitty
    # field. The dealer's 33 cards are offered at the exchange (not the whole grid of cards),
    # the exchange needs no kitty, and the record writes the kitty line.
    from fastapi.testclient import TestClient

    from tests.sj_live_helpers import match_steps
    from zfrec.games.shengji.cards import parse_hand
    from zfrec.games.shengji.kind import match_of
    from zfrec.live.app import create_app
    from zfrec.record import loads
    from zfrec.store import open_store

    rnd = match.rounds[0]
    assert rnd.kitty is not None and rnd.dealer is not None
    steps = [s for s in match_steps(match) if s.round == 1]
    engine = open_store(f"sqlite:///{tmp_path / 'club.db'}")
    with TestClient(create_app(engine)) as client:
        made = client.post("/api/tables", json={"game": "shengji", "players": list("ABCD")}).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        url = f"/api/tables/{made['id']}"
        started = client.post(url + "/hands", json=steps[0].body, headers=auth)
        assert started.status_code == 201, started.text
        exchange = next(i for i, s in enumerate(steps) if "discard" in s.body)
        for step in steps[1:exchange]:
            assert client.post(url + "/moves", json=step.body, headers=auth).status_code == 200
        st = client.get(url).json()
        assert st["phase"] == "exchange"
        assert parse_hand(st["kitty"]) == rnd.kitty.known
        dealer = st["hands"][rnd.dealer]
        assert dealer["unknown"] == 0 and size(parse_hand(dealer["cards"])) == 33, dealer
        body = {k: v for k, v in steps[exchange].body.items() if k != "kitty"}
        r = client.post(url + "/moves", json=body, headers=auth)
        assert r.status_code == 200, r.text
        after = client.get(url).json()  # the dealer's hand after the exchange: every card known
        assert [(h["unknown"], h["known"]) for h in after["hands"]] == [(0, True)] * 4
        text = client.get(url + "/record.zfn").text
        (game,) = loads(text)
        kitty_lines = [line for line in text.splitlines() if line.startswith("kitty")]
        assert len(kitty_lines) == 1, text
        assert parse_hand(kitty_lines[0].split(None, 1)[1]) == rnd.kitty.known
        assert not [d for d in validate_match(match_of(game)).diagnostics
                    if d.severity == "error"]  # fmt: skip
    engine.dispose()
