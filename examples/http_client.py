"""A client for ``http_server.py`` that plays one seat at random, with urllib only.

    python examples/http_server.py --players 2 --seed 7 --port 8000   # prints the tokens
    python examples/http_client.py http://127.0.0.1:8000 TOKEN_OF_SEAT_0 &
    python examples/http_client.py http://127.0.0.1:8000 TOKEN_OF_SEAT_1

The client polls ``GET /game``, prints the events it is shown (another seat's drawn
cards arrive as ``null``), and when it is its turn posts one of the legal actions the
server listed. It only ever sees its own view: a client in any language works the same.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import urllib.request
from typing import Any


def call(base: str, token: str, path: str, body: Any = None) -> Any:
    """Send a request to the server and return its JSON answer."""
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode("utf-8"),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def play(base: str, token: str, seed: int, poll: float = 0.05) -> dict[str, Any]:
    """Play until the game is over; return the last view."""
    rng = random.Random(seed)
    since = 0  # the number of the first event not seen yet
    while True:
        game = call(base, token, f"/game?since={since}")
        for event in game["events"]:
            print(json.dumps(event))
        since = game["next_event"]
        view = game["view"]
        if view["phase"] == "game_over":
            return dict(view)
        if game["legal_actions"]:  # our turn: the server lists our choices
            action = rng.choice(game["legal_actions"])
            # The move number makes a request sent twice count once: the second is refused.
            game = call(base, token, f"/action?since={since}&move={game['move']}", action)
            for event in game["events"]:
                print(json.dumps(event))
            since = game["next_event"]
        else:
            time.sleep(poll)  # someone else's turn: wait and poll again


def main() -> None:
    parser = argparse.ArgumentParser(description="Play one seat of http_server.py at random.")
    parser.add_argument("url", help="the server, such as http://127.0.0.1:8000")
    parser.add_argument("token", help="the seat's token, printed by the server")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random choices")
    args = parser.parse_args()
    view = play(args.url.rstrip("/"), args.token, args.seed)
    print(f"game over: winners {view['winners']}; I was seat {view['viewer']}")


if __name__ == "__main__":
    main()
