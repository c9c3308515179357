"""Train sb3-contrib's MaskablePPO on the batch simulator: against random, then greedy bots.

Install PyTorch (its CPU build is enough), then the rest::

    pip install 'cuckoo-rules[learn]'      # sb3-contrib, matplotlib, the batch and gymnasium extras

Run::

    python examples/batch_maskable_ppo.py --players 2 --envs 64 \\
        --stages random:200000,greedy:800000 --csv curve.csv

The learner sits in seat 0 of ``--envs`` games stepped at once by
:class:`~cuckoo_rules.envs.vector.BatchCuckooEnv`, whose opponents play inside the
compiled kernels. Each stage trains the same model for its number of learner steps
against its bots (``random``, ``greedy``, ``greedy:feed_weight=2``...). Every
``--log-every`` games it prints a line such as::

    stage 2 greedy   steps  4190656  games 137161  win rate 0.178  3947 steps/s

the win rate being the learner's share of the victories in the games ended since the
line before (``1 / len(winners)`` per game won, as the reward), and ``--csv`` gets the
same figures as rows (``scripts/plot_learning_curve.py`` draws them). At the end the
policy plays ``--eval-games`` games against greedy bots (masked, deterministic) and the
last line gives its win rate. With ``n`` players, an equal share is ``1/n``.

``docs/assets/batch-learning-curve.png`` is such a run (``--stages
random:400000,greedy:6000000 --log-every 1000 --eval-games 4096``, 2 players, 25 minutes
on two shared cores): 0.98 against random bots after 400k steps, 0.23 against greedy
ones after 6M more, and 0.244 in the final evaluation.

Stable-Baselines3 takes its own ``VecEnv``, not a Gymnasium ``VectorEnv``:
:class:`SB3BatchEnv` below adapts one to the other.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

from cuckoo_rules.envs.vector import BatchCuckooEnv

CSV_FIELDS = ("stage", "opponents", "timesteps_total", "games", "win_rate", "steps_per_second")


class SB3BatchEnv(VecEnv):
    """A :class:`BatchCuckooEnv` as Stable-Baselines3's ``VecEnv``.

    Both reset a finished game in the same step; SB3 wants the last observation of an
    ended game in that sub-environment's info as ``terminal_observation``. Attributes are
    the batch's, the same for every sub-environment, and ``env_method`` only knows
    ``action_masks`` (one mask per sub-environment, for ``MaskablePPO``).

    The observations are card counts (up to 110, the draw pile): they are given to the
    policy as ``log(1 + count)``, from which the network learns much faster.
    """

    def __init__(self, env: BatchCuckooEnv, seed: int) -> None:
        self.env = env
        self.actions = np.zeros(env.num_envs, dtype=np.int64)
        assert isinstance(env.single_observation_space, gymnasium.spaces.Box)
        high = np.log1p(env.single_observation_space.high)
        space = gymnasium.spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        super().__init__(env.num_envs, space, env.single_action_space)
        self.seed(seed)  # sub-environment i deals new_game(options, seed + i) first

    def reset(self) -> np.ndarray:
        obs, _ = self.env.reset(seed=self._seeds[0])  # None after the first reset
        self._reset_seeds()
        return np.log1p(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, infos = self.env.step(self.actions)
        dones = terminated | truncated
        per_env: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            per_env[i] = {
                "terminal_observation": np.log1p(infos["final_obs"][i]),
                "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                "winners": infos["winners"][i],
            }
        return np.log1p(obs), rewards.astype(np.float32), dones, per_env

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.env, attr_name, value)  # one batch: it sets it for all of them

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"SB3BatchEnv.env_method: no per-game {method_name!r}")
        masks = self.env.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(
        self,
        wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
        indices: VecEnvIndices = None,
    ) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


class WinRateLog(BaseCallback):
    """Print (and keep as CSV rows) the learner's win rate every ``every`` games ended."""

    def __init__(self, stage: int, opponents: str, every: int, rows: list[dict[str, Any]]):
        super().__init__()
        self.stage, self.opponents, self.every, self.rows = stage, opponents, every, rows
        self.games = 0
        self.wins = 0.0  # shares won since the last line
        self.window = 0  # games ended since the last line
        self.clock = (time.perf_counter(), 0)

    def _on_training_start(self) -> None:
        self.clock = (time.perf_counter(), self.num_timesteps)

    def _on_step(self) -> bool:
        dones = self.locals["dones"]
        self.wins += float(self.locals["rewards"][dones].sum())
        self.window += int(dones.sum())
        if self.window >= self.every:
            self.report()
        return True

    def report(self) -> None:
        self.games += self.window
        now = time.perf_counter()
        speed = (self.num_timesteps - self.clock[1]) / (now - self.clock[0])
        row = {
            "stage": self.stage,
            "opponents": self.opponents,
            "timesteps_total": self.num_timesteps,
            "games": self.games,
            "win_rate": round(self.wins / self.window, 4),
            "steps_per_second": round(speed),
        }
        self.rows.append(row)
        print(
            f"stage {self.stage} {self.opponents:8} steps {self.num_timesteps:8}  "
            f"games {self.games:6}  win rate {row['win_rate']:.3f}  {speed:.0f} steps/s",
            flush=True,
        )
        self.wins, self.window, self.clock = 0.0, 0, (now, self.num_timesteps)


def evaluate(model: MaskablePPO, env: SB3BatchEnv, per_env: int) -> float:
    """The policy's win rate over ``per_env`` games in each sub-environment of ``env``.

    Each sub-environment plays the same number of games, so that short games are not
    counted more often than long ones.
    """
    obs = env.reset()
    played = np.zeros(env.num_envs, dtype=np.int64)
    won = 0.0
    while played.min() < per_env:
        masks = env.env.action_masks()
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        env.step_async(actions)
        obs, rewards, dones, _ = env.step_wait()
        counted = dones & (played < per_env)
        won += float(rewards[counted].sum())
        played += counted
    return won / (per_env * env.num_envs)


def parse_stages(text: str) -> list[tuple[str, int]]:
    """``"random:200000,greedy:800000"`` -> ``[("random", 200000), ("greedy", 800000)]``."""
    stages = []
    for item in text.split(","):
        opponents, _, steps = item.rpartition(":")  # "greedy:feed_weight=2:1000" works too
        stages.append((opponents, int(steps)))
    return stages


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="MaskablePPO on the batch simulator.")
    parser.add_argument("--players", type=int, default=2, help="2 to 5 (default: 2)")
    parser.add_argument("--envs", type=int, default=64, help="games stepped at once (64)")
    parser.add_argument(
        "--stages",
        type=parse_stages,
        default="random:200000,greedy:800000",
        help="OPPONENTS:STEPS,... trained in turn (default: random:200000,greedy:800000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default: 0)")
    parser.add_argument("--log-every", type=int, default=2000, help="games between lines")
    parser.add_argument("--eval-games", type=int, default=2000, help="final games vs greedy")
    parser.add_argument("--n-steps", type=int, default=128, help="steps per env per update")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default: 1)")
    parser.add_argument("--csv", type=Path, help="write the win-rate rows to this CSV file")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)

    def make_env(opponents: str, stage: int) -> SB3BatchEnv:
        env = BatchCuckooEnv(num_envs=args.envs, num_players=args.players, opponents=opponents)
        return SB3BatchEnv(env, seed=args.seed + stage * 1_000_000)

    stages: list[tuple[str, int]] = args.stages
    model = MaskablePPO(
        "MlpPolicy",
        make_env(stages[0][0], 1),
        n_steps=args.n_steps,
        batch_size=min(1024, args.n_steps * args.envs),
        n_epochs=4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
    )
    # This script prints its own figures: a logger that writes nothing (SB3's default
    # makes an empty SB3-<date> folder in the temporary directory at every learn()).
    model.set_logger(Logger(folder=None, output_formats=[]))
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    for stage, (opponents, steps) in enumerate(stages, start=1):
        if stage > 1:
            model.set_env(make_env(opponents, stage))
        log = WinRateLog(stage, opponents, args.log_every, rows)
        model.learn(steps, callback=log, reset_num_timesteps=False)
        print(f"stage {stage} ({opponents}) done: {log.games + log.window} games", flush=True)
    print(f"trained {model.num_timesteps} steps in {time.perf_counter() - start:.0f} s")
    if args.csv is not None:
        with args.csv.open("w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, fieldnames=CSV_FIELDS)
            writer.writeheader()
            writer.writerows(rows)
    per_env = -(-args.eval_games // args.envs)  # rounded up
    rate = evaluate(model, make_env("greedy", len(stages) + 1), per_env)
    print(
        f"final policy vs greedy: win rate {rate:.3f} over {per_env * args.envs} games "
        f"(equal share {1 / args.players:.3f})"
    )


if __name__ == "__main__":
    main()
