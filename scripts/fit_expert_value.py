"""Fit the expert bot's value estimate: who wins from here, between greedy players.

The expert's rollouts can stop after a few turns and score the position with
:data:`cuckoo_rules.bots.expert.VALUE_WEIGHTS`: each seat's chance of winning is a
softmax over the seats of ``w . features(seat)`` (a conditional logit), one weight vector
per number of players. This script plays games between greedy bots with the engine,
takes the position at the start of every turn, and fits the weights by maximum
likelihood on who won each game (a shared victory counts ``1/k`` to each winner).

    python scripts/fit_expert_value.py --games 1000 --seed 1

It prints the weights to paste into ``expert.py`` and each fit's log loss against the
uniform guess and against the ISMCTS bot's fixed softmax.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cuckoo_rules import GameOptions, Phase, apply, new_game, observe
from cuckoo_rules.bots import GreedyBot, derive_seed
from cuckoo_rules.bots.expert import value_features
from cuckoo_rules.outcome import winner_shares


def positions(players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features ``(N, players, F)`` at every turn start, and the shares ``(N, players)``."""
    features: list[np.ndarray] = []
    shares: list[np.ndarray] = []
    options = GameOptions(num_players=players)
    for game in range(games):
        game_seed = derive_seed(seed, players, game)
        state = new_game(options, game_seed)
        bots = [GreedyBot(seed=derive_seed(game_seed, 1, p)) for p in range(players)]
        taken: list[np.ndarray] = []
        turn = 0
        while state.phase is not Phase.GAME_OVER:
            if state.turn != turn and state.phase is Phase.LAY:
                turn = state.turn
                taken.append(np.array(value_features(state)))
            seat = state.current_player
            state = apply(state, bots[seat].choose(observe(state, seat)))
        share = np.array(winner_shares(state.winners, players))
        features += taken
        shares += [share] * len(taken)
    return np.array(features), np.array(shares)


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    z = x @ w
    z -= z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(y * logp).sum(axis=1).mean())


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-4) -> np.ndarray:
    """Newton's method on the conditional-logit log likelihood."""
    n, _, f = x.shape
    w = np.zeros(f)
    for _ in range(50):
        z = x @ w
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        mean = (p[:, :, None] * x).sum(axis=1)  # (N, F)
        grad = ((y[:, :, None] - p[:, :, None]) * x).sum(axis=1).sum(axis=0) / n - ridge * w
        second = np.einsum("np,npf,npg->fg", p, x, x) / n - np.einsum("nf,ng->fg", mean, mean) / n
        step = np.linalg.solve(second + ridge * np.eye(f), grad)
        w += step
        if np.abs(step).max() < 1e-10:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4,5")
    args = parser.parse_args()
    weights = {}
    for players in (int(p) for p in args.players.split(",")):
        x, y = positions(players, args.games, args.seed)
        half = len(x) // 2
        w = fit(x[:half], y[:half])
        ismcts = np.zeros(x.shape[2])
        ismcts[0] = ismcts[1] = 0.1
        held_out = log_loss(w, x[half:], y[half:])
        print(
            f"{players} players: {len(x)} positions; held-out log loss {held_out:.4f}"
            f" (ismcts softmax {log_loss(ismcts, x[half:], y[half:]):.4f},"
            f" uniform {np.log(players):.4f})"
        )
        weights[players] = fit(x, y)
    print("VALUE_WEIGHTS = {")
    for players, w in weights.items():
        print(f"    {players}: ({', '.join(f'{v:.6g}' for v in w)}),")
    print("}")


if __name__ == "__main__":
    main()
