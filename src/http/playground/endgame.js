// Endgame puzzles: hands typed in (or dealt), solved by /doudizhu/endgame,
// which lists every winning move and a principal line to the end.
import { $, api, clearProblem, el, freshSeed, rng, showProblem, shuffle } from "./common.js";
import { cardFaces, cardString, deck } from "./cards.js";

const SEATS = ["landlord", "landlord_down", "landlord_up"];

function faces(cards) {
  const box = el("span", "play");
  if (cards === "") box.textContent = "pass";
  else box.append(...cardFaces([...cards], "card small"));
  return box;
}

async function solve() {
  const hands = {};
  for (const seat of SEATS) {
    const cards = $(`eg-${seat}`).value.trim();
    if (cards !== "") hands[seat] = cards;
  }
  const request = { hands, to_move: $("eg-to-move").value, budget_ms: Number($("eg-time").value) };
  const last = $("eg-last").value.trim();
  if (last !== "") request.last = { seat: $("eg-last-seat").value, cards: last };
  const result = $("eg-result");
  clearProblem($("eg-problem"));
  result.replaceChildren(el("p", "status", "Solving…"));
  $("eg-solve").disabled = true;
  try {
    const answer = await api("/doudizhu/endgame", request);
    const verdict = {
      win: `${request.to_move} wins with best play.`,
      loss: `${request.to_move} loses against best play.`,
      unknown: "Not solved within the time: the result is unknown.",
    }[answer.result];
    const summary = el("p", `verdict verdict-${answer.result}`, verdict);
    const numbers = el("p", "note", `${answer.nodes.toLocaleString("en")} positions in ${answer.elapsed_ms.toFixed(1)} ms${answer.cached ? " (from the cache)" : ""}.`);
    const parts = [summary, numbers];
    if (answer.winning_moves.length > 0) {
      const moves = el("div", "moves");
      moves.append(el("span", "label", "Every winning move: "));
      for (const m of answer.winning_moves) moves.append(faces(m.cards));
      parts.push(moves);
    }
    if (answer.pv.length > 0) {
      const line = el("ol", "line");
      for (const step of answer.pv) {
        const item = el("li", "", `${step.seat}: `);
        item.append(faces(step.cards));
        line.append(item);
      }
      parts.push(el("p", "label", answer.complete ? "The line to the end:" : "The best line found:"), line);
    }
    result.replaceChildren(...parts);
  } catch (e) {
    result.replaceChildren();
    showProblem($("eg-problem"), e);
  } finally {
    $("eg-solve").disabled = false;
  }
}

/** A random three-seat position of 6 to 9 cards a seat, landlord to lead. */
function randomPuzzle() {
  const random = rng(freshSeed());
  const cards = shuffle(deck(), random);
  let at = 0;
  for (const seat of SEATS) {
    const n = 6 + Math.floor(random() * 4);
    $(`eg-${seat}`).value = cardString(cards.slice(at, at + n));
    at += n;
  }
  $("eg-to-move").value = "landlord";
  $("eg-last").value = "";
  $("eg-result").replaceChildren();
}

export function setupEndgame() {
  $("eg-solve").addEventListener("click", solve);
  $("eg-random").addEventListener("click", randomPuzzle);
}
