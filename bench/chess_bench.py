"""The peer: python-chess replaying a PGN corpus with full legality checks, in plies/s."""

from __future__ import annotations

import io
import random
import time

import chess
import chess.pgn


def random_pgn(games: int, seed: int, max_plies: int = 120) -> str:
    """Random legal games as PGN text, the same for the same seed."""
    rng = random.Random(seed)
    out = []
    for i in range(games):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = f"random {i}"
        node: chess.pgn.GameNode = game
        for _ in range(max_plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            board.push(move)
            node = node.add_variation(move)
        game.headers["Result"] = board.result(claim_draw=False)
        out.append(str(game))
    return "\n\n".join(out) + "\n"


def read_plies_per_s(pgn: str) -> float:
    """Plies per second through chess.pgn.read_game, which checks every move's legality."""
    stream = io.StringIO(pgn)
    plies = 0
    start = time.perf_counter()
    while (game := chess.pgn.read_game(stream)) is not None:
        plies += sum(1 for _ in game.mainline_moves())
    return plies / (time.perf_counter() - start)
