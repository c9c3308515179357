"""A custom bot in about 30 lines, and a few games against the random bot.

    python examples/custom_bot.py --games 20

A bot is any object with a ``choose(view) -> Action`` method (the ``cuckoo_rules.Bot``
protocol). It is given the acting seat's ``PlayerView``, never the full state, so it
cannot cheat: it sees the rows, the collections, the sizes of hands and piles, and its
own hand.
"""

from __future__ import annotations

import argparse

import cuckoo_rules as cr
from cuckoo_rules.bots import RandomBot, captured_by, play_game


class CaptureBot:
    """Lays where it captures the most cards, always draws, and flies the biggest flock."""

    def choose(self, view: cr.PlayerView) -> cr.Action:
        actions = cr.legal_actions(view)  # a view of the seat to act is enough
        assert view.hand is not None  # the acting seat always sees its own hand
        hand = view.hand
        if view.phase is cr.Phase.DRAW:
            return cr.Draw()  # more cards, more flocks
        if view.phase is cr.Phase.FLOCK:
            # FlyHome actions come first, Pass() last; fly the biggest flock home.
            flocks = [a for a in actions if isinstance(a, cr.FlyHome)]
            return max(flocks, key=lambda a: hand[a.species.index], default=cr.Pass())
        lays = [a for a in actions if isinstance(a, cr.Lay)]

        def score(lay: cr.Lay) -> tuple[int, int]:
            # Most cards captured first (captured_by gives None where the species is not
            # in the row); then keep big groups in hand (lay the fewest cards).
            taken = captured_by(view.rows[lay.row], lay.species, lay.side) or ()
            return len(taken), -hand[lay.species.index]

        return max(lays, key=score)


def main() -> None:
    parser = argparse.ArgumentParser(description="CaptureBot against RandomBot.")
    parser.add_argument("--games", type=int, default=20, help="games to play (default: 20)")
    args = parser.parse_args()
    wins = {"CaptureBot": 0.0, "RandomBot": 0.0}
    options = cr.GameOptions(num_players=2)
    for game in range(args.games):
        # Alternate the seats, so that each bot plays first equally often.
        bots: list[cr.bots.Bot] = [CaptureBot(), RandomBot(seed=game)]
        names = ["CaptureBot", "RandomBot"]
        if game % 2:
            bots.reverse()
            names.reverse()
        played = play_game(options, seed=game, bots=bots, names=names)
        for seat in played.winners:  # a shared victory is split
            wins[names[seat]] += 1 / len(played.winners)
    for name, won in wins.items():
        print(f"{name:10} won {won:g} of {args.games} games")


if __name__ == "__main__":
    main()
