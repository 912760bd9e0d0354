"""gamebot from Python with requests: a Dou Dizhu play, a mahjong discard, a
gomoku move, and a 422 problem read by its JSON pointer.

    pip install requests
    python3 python_client.py http://127.0.0.1:8080
"""
import sys

import requests

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
session = requests.Session()


def post(path, body):
    r = session.post(BASE + path, json=body, timeout=10)
    if r.status_code >= 400:
        problem = r.json()  # application/problem+json
        fields = ", ".join(f"{e['pointer']}: {e['message']}" for e in problem.get("errors", []))
        raise ValueError(f"{r.status_code} {problem['title']}: {fields or problem['detail']}")
    return r.json()


health = session.get(BASE + "/healthz", timeout=5).json()
print("gamebot", health["version"], health["commit"])

play = post("/doudizhu/play", {
    "seat": "landlord_down", "hand": "3455567899TJQKA2B",
    "history": ["3334"], "landlord_cards": "4TR", "seed": 7,
})
print("dou dizhu plays", repr(play["cards"]), play["type"])
assert play["type"] in ("trio_solo", "pass") or play["cards"]

discard = post("/mahjong/discard", {
    "variant": "riichi", "hand": "123m456p789s1127z5m", "drawn": "5m",
})
print("mahjong", discard["action"], discard.get("tile"))
assert discard["action"] == "discard"

move = post("/gomoku/move", {"moves": [[7, 7], [8, 8]], "max_depth": 4})
print("gomoku plays", move["move"])
assert len(move["move"]) == 2

try:
    post("/doudizhu/moves", {"hand": "33Z"})
    raise AssertionError("expected a 422")
except ValueError as e:
    print("refused:", e)
    assert "/hand" in str(e)
print("ok")
