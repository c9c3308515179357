"""Soak run of the batch simulator's differential test: many games, every option at random.

Plays ``--games`` games (in batches of ``--batch``, each batch under one random
combination of every option and a random player count) in a :class:`BatchGame` and in the
pure engine with the same random legal actions drawn from the batch's masks, and checks
after every step of every game that the states, the masks and the observations are equal
(``tests/simulation/test_batch.py``'s ``play_alongside``). Prints the games and steps compared.

Usage::

    python scripts/batch_soak.py --games 20000 --seed 1
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.simulation.test_batch import mixed_options, play_alongside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    games = steps = 0
    batches = -(-args.games // args.batch)
    for index, options in enumerate(mixed_options(batches, seed=args.seed)):
        seeds = [int(s) for s in rng.integers(0, 2**64, size=args.batch, dtype=np.uint64)]
        steps += play_alongside(options, seeds, rng)
        games += args.batch
        if index % 10 == 9:
            print(f"{games:7} games, {steps:10,} steps compared", flush=True)
    elapsed = time.perf_counter() - start
    print(f"{games} games, {steps:,} steps compared, all equal ({elapsed:.0f} s)")


if __name__ == "__main__":
    main()
