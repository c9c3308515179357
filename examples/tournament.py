"""A tournament between two custom bots, with the seats rotated and games run in parallel.

    python examples/tournament.py --deals 50 --workers 2

Two strategies race for the two winning collections: the Collector flies home the
species it has fewest of (aiming at seven species), the Specialist the species it has
most of (aiming at two triples). Every deal is played twice, once from each seat, so
neither bot gains from the deal or from playing first. The built-in bots have their own
runner, ``cuckoo_rules.bots.run_tournament`` and the ``cuckoo-rules tournament``
command; this shows how to do the same with bots of your own.
"""

from __future__ import annotations

import argparse
import concurrent.futures
from collections.abc import Callable

import cuckoo_rules as cr
from cuckoo_rules.bots import captured_by, play_game, wilson_interval


class FlockBot:
    """Captures all it can and always draws; ``preference`` ranks the flocks to fly home.

    ``preference(count in hand, count in collection)`` scores a possible flock; the bot
    flies the best one home.
    """

    def __init__(self, preference: Callable[[int, int], float]) -> None:
        self.preference = preference

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
                max(flocks, key=lambda s: self.preference(hand[s.index], mine[s.index]))
            )
        lays = [a for a in actions if isinstance(a, cr.Lay)]

        def score(lay: cr.Lay) -> tuple[int, int]:
            # Most cards captured first (captured_by gives None where the species is not
            # in the row); then keep big groups in hand (lay the fewest cards).
            taken = captured_by(view.rows[lay.row], lay.species, lay.side) or ()
            return len(taken), -hand[lay.species.index]

        return max(lays, key=score)


def collector() -> FlockBot:
    return FlockBot(lambda held, owned: -owned)  # a new species first


def specialist() -> FlockBot:
    return FlockBot(lambda held, owned: owned + held / 100)  # build on what it has


ENTRANTS = {"Collector": collector, "Specialist": specialist}


def play_deal(deal: int, swapped: bool) -> list[str]:
    """Play one game of the tournament; return the names of the winners."""
    names = list(ENTRANTS)
    if swapped:
        names.reverse()
    bots = [ENTRANTS[name]() for name in names]
    played = play_game(cr.GameOptions(num_players=2), seed=deal, bots=bots, names=names)
    return [names[seat] for seat in played.winners]


def main() -> None:
    parser = argparse.ArgumentParser(description="Collector against Specialist.")
    parser.add_argument("--deals", type=int, default=50, help="deals, each played twice")
    parser.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    args = parser.parse_args()
    games = [(deal, swapped) for deal in range(args.deals) for swapped in (False, True)]
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play_deal, *zip(*games, strict=True)))
    victories = dict.fromkeys(ENTRANTS, 0.0)
    for winners in results:
        for name in winners:  # a shared victory is split between the winners
            victories[name] += 1 / len(winners)
    print(f"{len(results)} games ({args.deals} deals, each from both seats)")
    for name, won in victories.items():
        low, high = wilson_interval(won, len(results))
        print(f"{name:10}  win rate {won / len(results):6.1%}  95% interval {low:.1%}-{high:.1%}")


if __name__ == "__main__":
    main()
