"""Draw the learning curve written by ``examples/batch_maskable_ppo.py --csv``.

    python scripts/plot_learning_curve.py docs/assets/batch-learning-curve.csv \\
        --players 2 --out docs/assets/batch-learning-curve.png

The learner's win rate against the learner steps, one colour per stage (its
opponents), and a dashed line at the equal share ``1 / players``. Needs matplotlib.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the backend
from matplotlib.ticker import EngFormatter


def read_stages(path: Path) -> dict[tuple[int, str], tuple[list[int], list[float]]]:
    """The rows of the CSV, as (steps, win rates) per (stage, opponents), in order."""
    stages: dict[tuple[int, str], tuple[list[int], list[float]]] = {}
    with path.open(newline="", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            steps, rates = stages.setdefault((int(row["stage"]), row["opponents"]), ([], []))
            steps.append(int(row["timesteps_total"]))
            rates.append(float(row["win_rate"]))
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description="Plot the batch MaskablePPO learning curve.")
    parser.add_argument(
        "csv", type=Path, nargs="?", default=Path("docs/assets/batch-learning-curve.csv")
    )
    parser.add_argument("--players", type=int, default=2, help="players per game (default: 2)")
    parser.add_argument("--out", type=Path, default=Path("docs/assets/batch-learning-curve.png"))
    parser.add_argument("--title", default="MaskablePPO on BatchCuckooEnv")
    args = parser.parse_args()

    stages = read_stages(args.csv)
    if not stages:
        raise SystemExit(f"{args.csv}: no rows")
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=120)
    for (stage, opponents), (steps, rates) in sorted(stages.items()):
        ax.plot(
            steps,
            rates,
            marker=".",
            markersize=3,
            linewidth=1.2,
            label=f"stage {stage}: vs {opponents}",
        )
        if stage > 1:
            ax.axvline(steps[0], color="grey", linewidth=0.8, linestyle=":")
    ax.axhline(
        1 / args.players,
        color="black",
        linewidth=1,
        linestyle="--",
        label=f"equal share (1/{args.players})",
    )
    ax.set_xlabel("learner steps")
    ax.xaxis.set_major_formatter(EngFormatter())  # 1M, 2M...
    ax.set_ylabel("win rate (share of the victories)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{args.title}, {args.players} players")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
