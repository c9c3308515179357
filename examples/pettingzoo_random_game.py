"""Play one game of the PettingZoo AEC environment with masked random actions.

    python examples/pettingzoo_random_game.py --players 3 --seed 7

Every seat is an agent (``player_0`` ...). Each agent picks uniformly among the legal
action ids of its ``action_mask``; once the game is over, every agent is stepped with
``None`` and receives its final reward: ``1 / len(winners)`` for a winner, else 0.
Needs ``pip install 'cuckoo-rules[pettingzoo]'``.
"""

from __future__ import annotations

import argparse

import numpy as np

import cuckoo_rules as cr
from cuckoo_rules.envs.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description="One PettingZoo game with random agents.")
    parser.add_argument("--players", type=int, default=3, help="2 to 5 (default: 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the game (default: 0)")
    args = parser.parse_args()

    game = env(num_players=args.players)
    game.reset(seed=args.seed)  # the deal is cr.new_game(options, seed)
    rng = np.random.default_rng(args.seed)  # the agents' choices, separate from the deal
    steps = 0
    final: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            final[agent] = reward  # the reward accumulated since the agent last acted
            action = None  # PettingZoo's convention for agents whose episode has ended
        else:
            legal = np.flatnonzero(observation["action_mask"])
            action = int(rng.choice(legal))
            steps += 1
        game.step(action)

    state: cr.GameState = game.unwrapped.game_state  # the full state: for the summary only
    print(f"{args.players} players, seed {args.seed}: {steps} actions, {state.turn} turns")
    for agent in sorted(final):
        print(f"{agent} reward {final[agent]:g}")


if __name__ == "__main__":
    main()
