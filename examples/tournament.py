"""A tournament between two custom bots, with the seats rotated and games run in parallel.

    python examples/tournament.py --deals 50 --workers 2

Two strategies race for the two winning collections: the Collector flies home the
species it has fewest of (aiming at seven species), the Specialist the species it has
most of (aiming at two triples). ``cuckoo_rules.bots.run_tournament`` plays every deal
once from each seat, so neither bot gains from the deal or from playing first, and
takes the bots as *factories*: callables that make a bot from a seed. A bot class whose
first parameter is the seed is one; the tournament gives every bot of every game its
own seed, so the games are reproducible, in any number of worker processes. Worker
processes are sent the factories by pickle, so they are defined at the top level of a
module. From the shell: ``cuckoo-rules tournament --bots tournament:Collector,greedy``
(run in this folder) plays the Collector against the built-in greedy bot.
"""

from __future__ import annotations

import argparse
import random

import cuckoo_rules as cr
from cuckoo_rules.bots import captured_by, run_tournament


class FlockBot:
    """Captures all it can and always draws; :meth:`preference` ranks the flocks to fly.

    Ties are broken by the bot's own ``random.Random``, seeded from ``seed`` alone (no
    global random state), so the same seed and views give the same choices.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def preference(self, held: int, owned: int) -> float:
        """Score a possible flock from its count in hand and in the collection."""
        raise NotImplementedError

    def choose(self, view: cr.PlayerView) -> cr.Action:
        actions = cr.legal_actions(view)
        assert view.hand is not None  # the acting seat sees its own hand
        assert view.viewer is not None
        hand, mine = view.hand, view.collections[view.viewer]
        if view.phase is cr.Phase.DRAW:
            return cr.Draw()
        if view.phase is cr.Phase.FLOCK:
            flocks = [a.species for a in actions if isinstance(a, cr.FlyHome)]
            if not flocks:
                return cr.Pass()
            return cr.FlyHome(
                max(
                    flocks,
                    key=lambda s: (
                        self.preference(hand[s.index], mine[s.index]),
                        self.rng.random(),
                    ),
                )
            )
        lays = [a for a in actions if isinstance(a, cr.Lay)]

        def score(lay: cr.Lay) -> tuple[int, int, float]:
            # Most cards captured first (captured_by gives None where the species is not
            # in the row); then keep big groups in hand (lay the fewest cards); then chance.
            taken = captured_by(view.rows[lay.row], lay.species, lay.side) or ()
            return len(taken), -hand[lay.species.index], self.rng.random()

        return max(lays, key=score)


class Collector(FlockBot):
    """Flies home a new species first."""

    def preference(self, held: int, owned: int) -> float:
        return -owned


class Specialist(FlockBot):
    """Builds on what it has."""

    def preference(self, held: int, owned: int) -> float:
        return owned + held / 100


def main() -> None:
    parser = argparse.ArgumentParser(description="Collector against Specialist.")
    parser.add_argument("--deals", type=int, default=50, help="deals, each played twice")
    parser.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (default: 0)")
    args = parser.parse_args()
    result = run_tournament(
        cr.GameOptions(num_players=2),
        [Collector, Specialist],  # factories: each is called with a seed
        games=2 * args.deals,
        seed=args.seed,
        workers=args.workers,
    )
    print(f"{len(result.games)} games ({args.deals} deals, each from both seats)")
    for entrant in result.entrants:  # a shared victory is split between the winners
        low, high = entrant.interval
        rate = f"win rate {entrant.win_rate:6.1%}"
        print(f"{entrant.label:10}  {rate}  95% interval {low:.1%}-{high:.1%}")


if __name__ == "__main__":
    main()
