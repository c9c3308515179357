"""Regenerate the golden games in ``tests/data/golden/``.

Run this only when a rule change is intended, then review the diff of the JSON files:
``python scripts/make_golden.py``. Each game is played by a seeded chooser (SplitMix64,
so that the choices themselves are reproducible in any language) and stored as its
options, seed, actions and final state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cuckoo_rules as cr
from cuckoo_rules.rng import splitmix64

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden"

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("2p-default", {"num_players": 2}, 1),
    ("3p-default", {"num_players": 3}, 2024),
    ("4p-default", {"num_players": 4}, 31337),
    ("5p-default", {"num_players": 5}, 2**64 - 1),
    ("3p-exhaustion-shared-victory", {"num_players": 3}, 0),
    (
        "3p-variants",
        {
            "num_players": 3,
            "initial_row_length": 4,
            "setup_duplicates_to": "draw_pile",
            "optional_draw_if_adjacent": False,
            "round_end_timing": "immediate",
        },
        99,
    ),
    (
        "4p-variants",
        {
            "num_players": 4,
            "exhaustion_counts_discard": False,
            "next_round_first_player": "left_of_round_ender",
            "always_prompt_flock": True,
        },
        123456789,
    ),
    (
        "3p-seed2-readings",
        {
            "num_players": 3,
            "optional_draw_if_adjacent": False,
            "refill_trigger": "same_species_lay",
            "exhaustion_counts_discard": False,
            "next_round_first_player": "same_dealer",
        },
        2029,
    ),
]


def play(options: cr.GameOptions, seed: int, chooser_seed: int) -> dict[str, Any]:
    """Play one game with a SplitMix64 chooser; return its golden document."""
    state = cr.new_game(options, seed)
    rng = chooser_seed
    actions = []
    while not state.is_over:
        legal = cr.legal_actions(state)
        rng, out = splitmix64(rng)
        action = legal[out % len(legal)]
        actions.append(cr.encode_action(action))
        state = cr.apply(state, action)
    return {
        "options": options.to_json(),
        "seed": seed,
        "actions": actions,
        "final_state": cr.encode_state(state),
    }


def main() -> None:
    """Write every golden game."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, options, seed in GAMES:
        doc = play(cr.GameOptions(**options), seed, chooser_seed=seed)
        path = GOLDEN / f"{name}.json"
        path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        final = doc["final_state"]
        print(
            f"{path.name}: {len(doc['actions'])} actions, round {final['round']}, "
            f"winners {final['winners']}"
        )


if __name__ == "__main__":
    main()
