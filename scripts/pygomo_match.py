"""Plays pbrain-gamebot against itself through pygomo-lib, a third-party Gomocup
protocol client (the manager's side), with pygomo's own board as the referee.

    python scripts/pygomo_match.py BRAIN [--games N] [--ms MS] [--size 15] [--seed S]

Per rule (freestyle, renju): START and ABOUT once, INFO rule / timeout_turn /
timeout_match; then per game RESTART, a random opening stone sent to white with
TURN, black's first answer asked for with BOARD (its own stone and white's), and
TURN alternately until a five or a full board. At the end BEGIN, TAKEBACK and
END. Exits non-zero on a protocol failure (no answer, a failed command), an
illegal move (occupied or off the board) or a failed TAKEBACK.
"""

import argparse
import random
import sys

from pygomo import BitBoard, BoardPosition, EngineClient, Move, RenjuBitBoard

RULES = {"freestyle": 0, "renju": 4}


def play_game(a, b, rule, size, rng):
    board = RenjuBitBoard(_size=size) if rule == "renju" else BitBoard(_size=size)
    for e in (a, b):
        if not e.restart():
            raise SystemExit("RESTART failed")
    # A random opening stone for black in the centre 5x5, given to both as history.
    c = size // 2
    first = Move((c + rng.randint(-2, 2), c + rng.randint(-2, 2)))
    board.place(first)
    moves = [first]
    # White (b) answers TURN first; black (a) continues via BOARD with the opening.
    result = b.turn(first)
    forbidden_flags = 0
    while True:
        if result is None:
            raise SystemExit(f"no answer after {[m.to_tuple() for m in moves]}")
        mv = result.move
        if not board.is_valid(mv) or not board.is_empty(mv):
            raise SystemExit(f"illegal move {mv.to_tuple()} after {[m.to_tuple() for m in moves]}")
        black_to_move = len(moves) % 2 == 0
        if rule == "renju" and black_to_move and board.is_forbidden(mv):
            # pygomo's renju check is not the referee of record (it has no recursive
            # three rule); count its flags for the report.
            forbidden_flags += 1
        board.place(mv)
        moves.append(mv)
        win = board.check_win(mv)
        if win is not None:
            return ("black" if black_to_move else "white"), len(moves), forbidden_flags
        if board.is_full():
            return "draw", len(moves), forbidden_flags
        mover = a if len(moves) % 2 == 0 else b
        if len(moves) == 2:
            # black's first answer: set the position up with BOARD (own 1, opponent 2)
            pos = BoardPosition()
            pos.add_move(moves[0], BoardPosition.SELF)
            pos.add_move(moves[1], BoardPosition.OPPONENT)
            result = mover.board(pos)
        else:
            result = mover.turn(mv)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brain")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    for rule, bits in RULES.items():
        a, b = EngineClient(args.brain), EngineClient(args.brain)
        for e in (a, b):
            if not e.start(args.size):
                raise SystemExit("START failed")
            about = e.about()
            if not about or "gamebot" not in about:
                raise SystemExit(f"ABOUT gave {about!r}")
            e.set_rule(bits)
            e.set_time(turn_time_ms=args.ms, match_time_ms=0)
        tally = {}
        for g in range(args.games):
            winner, n, flags = play_game(a, b, rule, args.size, rng)
            tally[winner] = tally.get(winner, 0) + 1
            print(f"{rule} game {g + 1}: {winner} after {n} moves"
                  + (f" (pygomo flagged {flags} black moves as forbidden)" if flags else ""))
        # TAKEBACK: the brain must accept taking back a stone it knows.
        a.restart()
        r = a.begin()
        if r is None or not a.takeback(r.move):
            print(f"{rule}: TAKEBACK failed")
            failures += 1
        for e in (a, b):
            e.quit()
        print(f"{rule}: {tally}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
