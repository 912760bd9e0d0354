// gamebot from Node (18+, built-in fetch): a Dou Dizhu play, a mahjong
// discard, a gomoku move, and a 422 problem read by its JSON pointer.
//
//     node node_client.mjs http://127.0.0.1:8080
import assert from "node:assert/strict";

const base = process.argv[2] ?? "http://127.0.0.1:8080";

async function post(path, body) {
  const r = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = await r.json();
  if (!r.ok) {
    // application/problem+json: errors name each bad field by JSON pointer.
    const fields = (json.errors ?? []).map((e) => `${e.pointer}: ${e.message}`).join(", ");
    throw new Error(`${r.status} ${json.title}: ${fields || json.detail}`);
  }
  return json;
}

const health = await (await fetch(base + "/healthz")).json();
console.log("gamebot", health.version, health.commit);

const play = await post("/doudizhu/play", {
  seat: "landlord_down", hand: "3455567899TJQKA2B",
  history: ["3334"], landlord_cards: "4TR", seed: 7,
});
console.log("dou dizhu plays", JSON.stringify(play.cards), play.type);

const discard = await post("/mahjong/discard", {
  variant: "riichi", hand: "123m456p789s1127z5m", drawn: "5m",
});
console.log("mahjong", discard.action, discard.tile);
assert.equal(discard.action, "discard");

const move = await post("/gomoku/move", { moves: [[7, 7], [8, 8]], max_depth: 4 });
console.log("gomoku plays", move.move);
assert.equal(move.move.length, 2);

await assert.rejects(post("/doudizhu/moves", { hand: "33Z" }), (e) => {
  console.log("refused:", e.message);
  return e.message.includes("/hand");
});
console.log("ok");
