"""Replay a recorded game, telling what one seat (or a spectator) saw.

    python examples/replay_record.py --make game.json        # play a game, save, replay
    python examples/replay_record.py game.json --seat 1      # replay as seat 1 saw it

A record (``cuckoo-rules/record``) holds the options, the seed and the actions: the
engine is deterministic, so that is all it takes to rebuild every state. ``cr.step``
gives the events of each action, and ``cr.visible_events`` keeps what the chosen seat
could see: other players' drawn and dealt cards stay hidden.
"""

from __future__ import annotations

import argparse

import cuckoo_rules as cr
from cuckoo_rules.bots import GreedyBot, RandomBot, play_game


def make_record(path: str) -> None:
    """Play a game between a greedy and a random bot and save its record as JSON."""
    bots: list[cr.Bot] = [GreedyBot(seed=1), RandomBot(seed=2)]
    played = play_game(cr.GameOptions(num_players=2), 2026, bots, names=["greedy", "random"])
    with open(path, "w", encoding="utf-8") as out:
        cr.dump_record(played.record, out, indent=2)
    print(f"wrote {path}: {len(played.record.actions)} actions")


def cards(species: tuple[cr.Species, ...]) -> str:
    return " ".join(card.value for card in species)


def describe(event: cr.Event) -> str | None:
    """One line about an event, or None for the ones not worth a line."""
    match event:
        case cr.Laid(player, species, count, row, side):
            return f"seat {player} lays {count} {species.value} on the {side.value} of row {row}"
        case cr.Captured(player, row, taken):
            return f"  and captures {cards(taken)}"
        case cr.RowRefilled(row, added):
            return f"  row {row} is refilled with {cards(added)}"
        case cr.Drew(player, count, drawn) if drawn is not None:
            return f"  seat {player} draws {cards(drawn)}"
        case cr.Drew(player, count, _):  # another seat's draw: only the number is shown
            return f"  seat {player} draws {count} cards"
        case cr.FlewHome(player, species, revealed, kept):
            return f"  seat {player} flies {revealed} {species.value} home and keeps {kept}"
        case cr.Dealt(number, dealer, _):
            return f"round {number}: seat {dealer} deals"
        case cr.GameOver(winners, reason):
            return f"game over ({reason}): winners {list(winners)}"
    return None


def replay(path: str, seat: int | None) -> None:
    with open(path, encoding="utf-8") as source:
        record = cr.load_record(source)
    players = record.metadata.players or ()
    print(f"{record.options.num_players} players {list(players)}, seed {record.seed}")
    state = cr.new_game(record.options, record.seed)
    for action in record.actions:
        state, events = cr.step(state, action)  # raises at an illegal action
        for event in cr.visible_events(events, seat):
            line = describe(event)
            if line is not None:
                print(line)
    # check_record replays the record again and checks its recorded result.
    assert cr.check_record(record) == state
    print(f"replayed {len(record.actions)} actions; final collections:")
    for player in range(state.num_players):
        print(f"  seat {player}: {state.collection_size(player)} cards {state.collection(player)}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Replay a game record.")
    parser.add_argument("path", help="the record, a JSON file")
    parser.add_argument("--seat", type=int, help="replay as this seat saw it (default: spectator)")
    parser.add_argument("--make", action="store_true", help="first play a game and save it there")
    args = parser.parse_args()
    if args.make:
        make_record(args.path)
    replay(args.path, args.seat)


if __name__ == "__main__":
    main()
