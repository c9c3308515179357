"""Play one game between random players and print it, one action a line.

    python examples/random_game.py --players 3 --seed 7

The seed fixes the deal (the engine's seeded shuffle) and the players' choices (Python's
``random.Random``), so the same arguments always print the same game.
"""

from __future__ import annotations

import argparse
import random

import cuckoo_rules as cr


def play(players: int, seed: int) -> cr.GameState:
    """Play a game to the end, printing every action; return the final state."""
    state = cr.new_game(cr.GameOptions(num_players=players), seed)
    rng = random.Random(seed)  # the players' choices, separate from the deal
    print(f"{players} players, seed {seed}; seat {state.dealer} deals and starts")
    while not state.is_over:
        # The legal actions of the player to act, in canonical order.
        action = rng.choice(cr.legal_actions(state))
        print(f"turn {state.turn:3}  seat {state.current_player}  {cr.format_action(action)}")
        state = cr.apply(state, action)  # a new state; the old one is unchanged
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description="Play a game between random players.")
    parser.add_argument("--players", type=int, default=3, help="2 to 5 (default: 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the game (default: 0)")
    args = parser.parse_args()
    state = play(args.players, args.seed)
    print(f"game over after {state.round} rounds and {state.turn} turns")
    for seat in range(state.num_players):
        birds = ", ".join(f"{n} {s.value}" for s, n in state.collection(seat).items())
        print(f"seat {seat}: {birds}")
    print("winners:", ", ".join(f"seat {seat}" for seat in state.winners))


if __name__ == "__main__":
    main()
