"""Replay a recorded game, telling what one seat (or a spectator) saw.

    python examples/replay_record.py --make game.json        # play a game, save, replay
    python examples/replay_record.py game.json --seat 1      # replay as seat 1 saw it

A record (``cuckoo-rules/record``) holds the options, the seed and the actions: the
engine is deterministic, so that is all it takes to rebuild every state. A
``cr.Match`` takes the actions one by one and keeps the events of each, and
``match.events(seat, after)`` gives what the chosen seat could see (other players' drawn
and dealt cards stay hidden); ``cr.narration.narrate`` tells them as sentences.
"""

from __future__ import annotations

import argparse

import cuckoo_rules as cr
from cuckoo_rules.bots import GreedyBot, RandomBot, play_game


def make_record(path: str) -> None:
    """Play a game between a greedy and a random bot and save its record as JSON."""
    bots: list[cr.bots.Bot] = [GreedyBot(seed=1), RandomBot(seed=2)]
    played = play_game(cr.GameOptions(num_players=2), 2026, bots, names=["greedy", "random"])
    with open(path, "w", encoding="utf-8") as out:
        cr.records.dump_record(played.record, out, indent=2)
    print(f"wrote {path}: {len(played.record.actions)} actions")


def replay(path: str, seat: int | None) -> None:
    with open(path, encoding="utf-8") as source:
        record = cr.records.load_record(source)
    players = record.metadata.players or ()
    print(f"{record.options.num_players} players {list(players)}, seed {record.seed}")
    names = list(players) if len(players) == record.options.num_players else None
    match = cr.Match(record.options, record.seed, [None] * record.options.num_players)
    for action in record.actions:
        seen = match.event_count
        match.act(match.state.current_player, action)  # raises at an illegal action
        for line in cr.narration.narrate(match.events(seat, seen), seat, names=names):
            print(line)
    state = match.state
    # check_record replays the record again and checks its recorded result.
    assert cr.records.check_record(record) == state
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
