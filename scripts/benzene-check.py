#!/usr/bin/env python3
"""Benzene's check of one Hex position, split by the replies: each child is a smaller problem
than the whole, solved and timed on its own, so a position too hard for one df-pn run can
still be checked, and a child that runs out of time is named.

    scripts/benzene-check.py MOHEX SIZE "MOVES" TO_MOVE SECONDS [CELL | CELL:REPLY ...]

MOVES are played from the empty board, Black first; TO_MOVE (black or white) then moves. For
every empty cell X (or the cells given), X is played for TO_MOVE and Benzene's
`dfpn-solve-state` solves the child. The position is lost for TO_MOVE exactly when every child
is won by the other player; a line `X:Y` plays the other player's reply Y as well and solves
that position (TO_MOVE to move): a child won through a named reply, as zermelo's proofs give it
(`zermelo hex solve --moves "MOVES X" --proofs FILE`), still checked by Benzene alone.

Each child has SECONDS of wall time (the engine is restarted after a time-out); one thread,
a transposition table of 2^24 entries. The last line says how many children agree and which
are open, and names any won by TO_MOVE (then the exit status is 1). Needs a Benzene build (see
the book's page on reproducing results)."""
import queue
import subprocess
import sys
import tempfile
import threading
import time


def main():
    if len(sys.argv) < 6:
        sys.exit("usage: scripts/benzene-check.py MOHEX SIZE \"MOVES\" TO_MOVE SECONDS [CELL | CELL:REPLY ...]")
    mohex, size, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[5])
    moves, to_move = sys.argv[3].split(), sys.argv[4]
    if to_move not in ("black", "white"):
        sys.exit(f"benzene-check: the player to move is black or white, not {to_move!r}")
    other = "white" if to_move == "black" else "black"
    cells = sys.argv[6:] or [f"{chr(97 + c)}{r + 1}" for r in range(size) for c in range(size)]
    engine = Engine(mohex, size)
    agree, open_cells, against, total = 0, [], [], 0.0
    for spec in cells:
        cell, _, reply = spec.partition(":")
        if cell in moves:
            continue
        engine.send("clear_board")
        for i, move in enumerate(moves):
            engine.send(f"play {'bw'[i % 2]} {move}")
        engine.send(f"play {to_move[0]} {cell}")
        solve = other
        if reply:
            engine.send(f"play {other[0]} {reply}")
            solve = to_move
        start = time.time()
        answer = engine.send(f"dfpn-solve-state {solve}", start + limit)
        seconds = time.time() - start
        total += seconds
        if answer is None:
            engine.restart()
            answer = "timeout"
            open_cells.append(spec)
        agree += answer == other
        if answer == to_move:
            against.append(spec)
        print(f"{spec:8s} {answer:8s} {seconds:8.2f} s", flush=True)
    print(f"{' '.join(moves)}, {to_move} to move: {agree} children won by {other}, "
          f"open: {' '.join(open_cells) or 'none'}, won by {to_move}: {' '.join(against) or 'none'}, "
          f"{total:.1f} s")
    engine.close()
    # A child won by the player to move contradicts the loss being checked: say so by the status.
    sys.exit(1 if against else 0)


class Engine:
    """Benzene's mohex over GTP, one thread."""

    def __init__(self, binary, size):
        self.binary, self.size = binary, size
        self.start()

    def start(self):
        # Benzene writes its log into the working folder: a temporary one, not the checkout.
        self.process = subprocess.Popen([self.binary], cwd=tempfile.gettempdir(),
                                        stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, daemon=True).start()
        for command in (f"boardsize {self.size} {self.size}", "param_dfpn threads 1",
                        "param_dfpn tt_size 16777216"):
            self.send(command)

    def pump(self):
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, command, deadline=None):
        """The reply's text without its '= ', or None once the deadline has passed."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        reply = []
        while True:
            wait = None if deadline is None else max(0.01, deadline - time.time())
            try:
                line = self.lines.get(timeout=wait).strip()
            except queue.Empty:
                return None
            if not line and reply:
                break
            if line:
                reply.append(line)
        text = " ".join(reply)
        if text.startswith("?"):
            sys.exit(f"benzene-check: Benzene refused {command!r}: {text}")
        return text.lstrip("=").strip()

    def restart(self):
        self.close()
        self.start()

    def close(self):
        self.process.kill()
        self.process.wait()


if __name__ == "__main__":
    main()
