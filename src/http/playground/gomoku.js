// Gomoku against the bot: /gomoku/move for its moves and hints,
// /gomoku/position as the referee (winner, five, renju's forbidden points).
import { $, api, clearProblem, el, showProblem } from "./common.js";

const LETTERS = "abcdefghijklmnopqrstuv";

const game = {
  size: 15,
  rule: "freestyle",
  human: "black",
  budget: 500,
  moves: [],
  referee: null, // the last /gomoku/position answer
  busy: false,
  pv: [],
  hints: [],
};

/** Renju-style name of a point: column letter, row counted from the bottom. */
function name([x, y]) {
  return `${LETTERS[x]}${game.size - y}`;
}

function colourToMove() {
  return game.moves.length % 2 === 0 ? "black" : "white";
}

function isOpen() {
  return game.referee !== null && game.referee.state === "open";
}

function setStatus(text) {
  $("gomoku-status").textContent = text;
}

function render() {
  const board = $("gomoku-board");
  board.style.setProperty("--n", game.size);
  const stones = new Map(game.moves.map((m, i) => [`${m[0]},${m[1]}`, i]));
  const forbidden = new Set((game.referee?.forbidden || []).map((p) => `${p[0]},${p[1]}`));
  const five = new Set((game.referee?.five || []).map((p) => `${p[0]},${p[1]}`));
  const pv = new Map(game.pv.map((p, i) => [`${p[0]},${p[1]}`, i + 1]));
  const hints = new Map(game.hints.map((p, i) => [`${p[0]},${p[1]}`, i + 1]));
  const cells = [];
  for (let y = 0; y < game.size; y++) {
    for (let x = 0; x < game.size; x++) {
      const key = `${x},${y}`;
      const cell = el("button", "pt");
      cell.type = "button";
      cell.dataset.x = x;
      cell.dataset.y = y;
      cell.setAttribute("aria-label", name([x, y]));
      // The board's lines stop at its edge points.
      if (x === 0) cell.classList.add("edge-left");
      if (x === game.size - 1) cell.classList.add("edge-right");
      if (y === 0) cell.classList.add("edge-top");
      if (y === game.size - 1) cell.classList.add("edge-bottom");
      if (stones.has(key)) {
        const i = stones.get(key);
        cell.classList.add(i % 2 === 0 ? "black" : "white");
        if (i === game.moves.length - 1) cell.classList.add("last");
        if (five.has(key)) cell.classList.add("five");
      } else if (forbidden.has(key)) {
        cell.classList.add("forbidden");
        cell.title = "forbidden for black";
      } else if (hints.has(key)) {
        cell.classList.add("hint");
        cell.dataset.mark = hints.get(key);
      } else if (pv.has(key)) {
        cell.classList.add("pv");
        cell.dataset.mark = pv.get(key);
      }
      cells.push(cell);
    }
  }
  board.replaceChildren(...cells);
  const record = game.moves.map((m, i) => `${i + 1}. ${name(m)}`).join(" ");
  const request = JSON.stringify({ size: game.size, rule: game.rule, moves: game.moves });
  $("gomoku-record").value = `${record}\n${request}`;
  $("gomoku-undo").disabled = game.busy || game.moves.length === 0;
  $("gomoku-hint").disabled = game.busy || !isOpen() || colourToMove() !== game.human;
}

function showVerdict() {
  const r = game.referee;
  if (r.state === "won") {
    setStatus(r.winner === game.human ? `You win (${r.winner}).` : `The bot wins (${r.winner}).`);
  } else if (r.state === "drawn") {
    setStatus("The board is full: a draw.");
  } else if (colourToMove() === game.human) {
    const note = r.forbidden.length ? ` ${r.forbidden.length} points are forbidden to black (×).` : "";
    setStatus(`Your move (${game.human}).${note}`);
  }
}

async function referee() {
  game.referee = await api("/gomoku/position", { size: game.size, rule: game.rule, moves: game.moves });
  showVerdict();
}

function showSearch(answer) {
  const info = $("gomoku-info");
  const rows = [
    ["Bot's move", name(answer.move)],
    ["Evaluation", answer.win_in ? `${answer.eval} (${answer.win_in > 0 ? "wins" : "loses"} in ${Math.abs(answer.win_in)})` : `${answer.eval}`],
    ["Depth", answer.depth],
    ["Nodes", answer.nodes.toLocaleString("en")],
    ["Time", `${answer.elapsed_ms.toFixed(0)} ms`],
    ["Expected line", answer.pv.map(name).join(" ")],
  ];
  info.replaceChildren(...rows.flatMap(([k, v]) => [el("dt", "", k), el("dd", "", String(v))]));
}

/** Runs `work` with the board locked and errors shown in the panel. */
async function guarded(work) {
  game.busy = true;
  render();
  clearProblem($("gomoku-problem"));
  try {
    await work();
  } catch (e) {
    showProblem($("gomoku-problem"), e);
    setStatus("");
  } finally {
    game.busy = false;
    render();
  }
}

async function botMove() {
  setStatus("The bot is thinking…");
  const answer = await api("/gomoku/move", {
    size: game.size,
    rule: game.rule,
    moves: game.moves,
    budget_ms: game.budget,
  });
  game.moves.push(answer.move);
  // The rest of the bot's expected line, shown as numbered marks.
  game.pv = answer.pv.slice(1);
  showSearch(answer);
  await referee();
}

async function play(x, y) {
  if (game.busy || !isOpen() || colourToMove() !== game.human) return;
  if (game.moves.some((m) => m[0] === x && m[1] === y)) return;
  if (game.referee.forbidden.some((p) => p[0] === x && p[1] === y)) {
    setStatus(`${name([x, y])} is forbidden for black under renju.`);
    return;
  }
  game.hints = [];
  $("gomoku-candidates").replaceChildren();
  await guarded(async () => {
    game.moves.push([x, y]);
    game.pv = [];
    await referee();
    if (isOpen()) await botMove();
  });
}

async function newGame() {
  const size = Number($("gomoku-size").value);
  game.size = Number.isInteger(size) ? size : 15;
  game.rule = $("gomoku-rule").value;
  game.human = $("gomoku-colour").value;
  game.budget = Number($("gomoku-time").value);
  game.moves = [];
  game.pv = [];
  game.hints = [];
  game.referee = null;
  $("gomoku-info").replaceChildren();
  $("gomoku-candidates").replaceChildren();
  await guarded(async () => {
    await referee();
    if (colourToMove() !== game.human) await botMove();
  });
}

async function undo() {
  if (game.busy || game.moves.length === 0) return;
  game.moves.pop();
  while (game.moves.length > 0 && colourToMove() !== game.human) game.moves.pop();
  game.pv = [];
  game.hints = [];
  $("gomoku-candidates").replaceChildren();
  await guarded(async () => {
    await referee();
    if (colourToMove() !== game.human) await botMove();
  });
}

async function hint() {
  await guarded(async () => {
    setStatus("Looking for your best moves…");
    const answer = await api("/gomoku/move", {
      size: game.size,
      rule: game.rule,
      moves: game.moves,
      budget_ms: game.budget,
      candidates: 3,
    });
    const ranked = answer.candidates || [];
    game.hints = ranked.map((c) => c.move);
    const items = ranked.map((c, i) => {
      const win = c.win_in ? `, ${c.win_in > 0 ? "wins" : "loses"} in ${Math.abs(c.win_in)}` : "";
      return el("li", "", `${i + 1}. ${name(c.move)}: evaluation ${c.eval}${win}; line ${c.pv.map(name).join(" ")}`);
    });
    $("gomoku-candidates").replaceChildren(...items);
    showVerdict();
  });
}

export function setupGomoku() {
  $("gomoku-board").addEventListener("click", (event) => {
    const cell = event.target.closest(".pt");
    if (cell) play(Number(cell.dataset.x), Number(cell.dataset.y));
  });
  $("gomoku-new").addEventListener("click", newGame);
  $("gomoku-undo").addEventListener("click", undo);
  $("gomoku-hint").addEventListener("click", hint);
  $("gomoku-copy").addEventListener("click", async () => {
    const text = $("gomoku-record").value;
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Record copied.");
    } catch {
      $("gomoku-record").select();
      setStatus("Select and copy the record by hand (the browser refused the clipboard).");
    }
  });
  newGame();
}
