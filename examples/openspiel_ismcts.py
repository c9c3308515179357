"""OpenSpiel's own ISMCTS bot against cuckoo-rules' GreedyBot, on the OpenSpiel game.

    python examples/openspiel_ismcts.py --games 4 --simulations 100 --seed 1

Needs OpenSpiel and NumPy: ``pip install 'cuckoo-rules[openspiel]'``. Importing
``cuckoo_rules.envs.openspiel`` registers CuBirds with ``pyspiel`` as
``"python_cuckoo_rules"``; OpenSpiel's Python ``ISMCTSBot`` (Information Set Monte Carlo
Tree Search with random rollouts) then plays it like any other game, redrawing the cards
it cannot see with ``state.resample_from_infostate``. The GreedyBot is a cuckoo-rules bot:
it is given the acting seat's view of the engine state, ``state.view(seat)``, and its
action goes back into OpenSpiel as an action id. The seats rotate from game to game.

With a small budget the search is weak (random rollouts say little about a long card
game); raise ``--simulations`` for a stronger, slower bot. Everything is seeded from
``--seed``, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cuckoo_rules as cr
from cuckoo_rules.envs.openspiel import GAME_NAME, CuBirdsState


def play(
    game: pyspiel.Game,
    search: ismcts.ISMCTSBot,
    greedy: cr.bots.GreedyBot,
    search_seat: int,
    rng: np.random.RandomState,
) -> CuBirdsState:
    """Play one game to the end; return the final state."""
    state: CuBirdsState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():  # the deal: one outcome, drawn by the game
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probabilities))
        elif state.current_player() == search_seat:
            action = int(search.step(state))
        else:
            seat = state.current_player()
            action = cr.action_id(greedy.choose(state.view(seat)))
        state.apply_action(action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description="OpenSpiel's ISMCTS against GreedyBot.")
    parser.add_argument("--games", type=int, default=4, help="games to play (default: 4)")
    parser.add_argument(
        "--simulations", type=int, default=100, help="ISMCTS simulations per move (default: 100)"
    )
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 5 (default: 2)")
    parser.add_argument("--seed", type=int, default=1, help="seeds everything (default: 1)")
    args = parser.parse_args()

    game = pyspiel.load_game(GAME_NAME, {"players": args.players, "rng_seed": args.seed})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng
    )
    # Draw the hidden cards with the bot's own generator, so that runs are reproducible
    # (by default ISMCTSBot resamples with an unseeded pyspiel.UniformProbabilitySampler).
    search.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    greedy = cr.bots.GreedyBot(seed=args.seed)

    print(
        f"{args.games} game{'s' if args.games != 1 else ''} of {args.players} players: "
        "OpenSpiel ISMCTS "
        f"({args.simulations} simulations a move) against GreedyBot"
    )
    ismcts_wins = 0.0
    start = time.perf_counter()
    for number in range(args.games):
        search_seat = number % args.players
        state = play(game, search, greedy, search_seat, rng)
        winners = state.winners
        returns = state.returns()
        ismcts_wins += returns[search_seat]
        names = ", ".join(
            f"seat {w} ({'ismcts' if w == search_seat else 'greedy'})" for w in winners
        )
        print(
            f"game {number + 1}: ismcts at seat {search_seat}; "
            f"{state.engine_state.turn} turns; winners: {names}"
        )
    elapsed = time.perf_counter() - start
    print(f"ismcts won {ismcts_wins:g} of {args.games} games, greedy {args.games - ismcts_wins:g}")
    print(f"({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
