"""A masked random agent in the Gymnasium environment, against greedy bots.

    python examples/gymnasium_random_agent.py --episodes 10 --players 3 --seed 1

The learner sits in seat 0; the other seats are played by ``greedy`` bots. Each step the
agent picks uniformly among the legal actions of ``info["action_mask"]``. The reward is
``1 / len(winners)`` at the end of a game the learner wins (shares), else 0, so the mean
reward is the learner's win rate. Needs ``pip install 'cuckoo-rules[gymnasium]'``.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import cuckoo_rules.envs.gymnasium  # noqa: F401  (registers "cuckoo_rules/CuBirds-v0")


def main() -> None:
    parser = argparse.ArgumentParser(description="A masked random agent against greedy bots.")
    parser.add_argument("--episodes", type=int, default=5, help="games to play (default: 5)")
    parser.add_argument("--players", type=int, default=2, help="2 to 5 (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default: 0)")
    args = parser.parse_args()

    env = gymnasium.make("cuckoo_rules/CuBirds-v0", num_players=args.players, opponents="greedy")
    rng = np.random.default_rng(args.seed)  # the agent's choices
    rewards = []
    for episode in range(args.episodes):
        # Seed the first reset only: later deals follow from it, reproducibly.
        _, info = env.reset(seed=args.seed if episode == 0 else None)
        total, steps, done = 0.0, 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            steps += 1
            done = terminated or truncated
        rewards.append(total)
        print(f"episode {episode}: {steps} actions, reward {total:g}")
    env.close()
    print(f"mean reward over {args.episodes} episodes: {np.mean(rewards):.3f}")


if __name__ == "__main__":
    main()
