// The mahjong hand analyser: /mahjong/discard for each variant, with every
// discard's shanten and live accepting tiles; discard-and-draw from a wall.
import { $, api, clearProblem, el, freshSeed, rng, showProblem, shuffle } from "./common.js";

const SUITS = "mpsz";
const HONOURS = ["E", "S", "W", "N", "Wh", "G", "R"];
const HONOUR_NAMES = ["east", "south", "west", "north", "white dragon", "green dragon", "red dragon"];

// The analysed hand and the wall it draws from; `key` (variant and hand)
// tells whether the input still holds the hand the wall was built around.
const table = { wall: [], hand: [], key: "" };

/** "123m11z" → ["1m", "2m", "3m", "1z", "1z"]; null when it is not that form. */
function parseTiles(text) {
  const compact = text.replace(/\s+/g, "");
  if (!/^([0-9]+[mpsz])*$/.test(compact)) return null;
  const tiles = [];
  for (const [, digits, suit] of compact.matchAll(/([0-9]+)([mpsz])/g)) {
    for (const d of digits) tiles.push(`${d}${suit}`);
  }
  return tiles;
}

function tileOrder(t) {
  const n = t[0] === "0" ? 5.5 : Number(t[0]);
  return SUITS.indexOf(t[1]) * 10 + n;
}

/** Tiles as one tenhou string, suit by suit. */
function tileString(tiles) {
  let out = "";
  for (const suit of SUITS) {
    const digits = tiles.filter((t) => t[1] === suit).sort((a, b) => tileOrder(a) - tileOrder(b)).map((t) => t[0]);
    if (digits.length) out += `${digits.join("")}${suit}`;
  }
  return out;
}

export function tileFace(tile) {
  const face = el("span", `tile suit-${tile[1]}`);
  if (tile[1] === "z") {
    const i = Number(tile[0]) - 1;
    face.textContent = HONOURS[i] || tile;
    face.classList.add(`honour-${tile[0]}`);
    face.title = HONOUR_NAMES[i] || tile;
  } else {
    face.textContent = tile[0] === "0" ? "5" : tile[0];
    face.append(el("small", "", tile[1]));
    if (tile[0] === "0") face.classList.add("red-five");
  }
  return face;
}

/**
 * Every tile of the variant's set: 136 (Riichi with one red five a suit),
 * or 112 for Red Dragon (the suits and four red dragons).
 */
function fullSet(variant) {
  const tiles = [];
  for (const suit of "mps") {
    for (let n = 1; n <= 9; n++) for (let k = 0; k < 4; k++) tiles.push(`${n}${suit}`);
    if (variant === "riichi") tiles[tiles.indexOf(`5${suit}`)] = `0${suit}`;
  }
  for (let n = 1; n <= 7; n++) {
    if (variant === "red_dragon" && n !== 7) continue;
    for (let k = 0; k < 4; k++) tiles.push(`${n}z`);
  }
  return tiles;
}

/** The variant's set less `hand`, shuffled. */
function wallWithout(hand, variant) {
  const wall = fullSet(variant);
  for (const t of hand) {
    const i = wall.indexOf(t);
    if (i >= 0) wall.splice(i, 1);
  }
  return shuffle(wall, rng(freshSeed()));
}

/** Deals 14 tiles from a fresh shuffled wall; the rest stays the wall. */
function dealHand() {
  const wall = wallWithout([], $("mj-variant").value);
  table.hand = wall.splice(0, 14);
  table.wall = wall;
  $("mj-hand").value = tileString(table.hand);
  table.key = `${$("mj-variant").value}:${tileString(table.hand)}`;
  analyse();
}

function showHand(tiles) {
  const faces = tiles
    .slice()
    .sort((a, b) => tileOrder(a) - tileOrder(b))
    .map((t) => {
      const b = el("button", "tile-button");
      b.type = "button";
      b.dataset.tile = t;
      b.append(tileFace(t));
      return b;
    });
  $("mj-tiles").replaceChildren(...faces);
}

async function analyse() {
  const variant = $("mj-variant").value;
  const hand = $("mj-hand").value.trim();
  const tiles = parseTiles(hand);
  clearProblem($("mj-problem"));
  try {
    const answer = await api("/mahjong/discard", { variant, hand });
    if (tiles) {
      if (`${variant}:${tileString(tiles)}` !== table.key) table.wall = [];
      table.hand = tiles;
      table.key = `${variant}:${tileString(tiles)}`;
      showHand(tiles);
    }
    const verbs = { discard: "discard", win: "win on", kong: "declare a kong of", nine_terminals: "call nine terminals with" };
    const choice = el("p", "verdict");
    choice.append(`The bot would ${verbs[answer.action] || answer.action} `, tileFace(answer.tile));
    if (answer.riichi) choice.append(" and declare riichi");
    choice.append(`: ${answer.reason}; plan ${answer.plan}, shanten ${answer.shanten}, ${answer.ukeire} live accepting tiles.`);
    const parts = [choice];
    if (answer.win_value !== null && answer.win_value !== undefined) {
      const items = (answer.win_items || []).map((w) => `${w.name} ${w.value}`).join(", ");
      parts.push(el("p", "", `Worth ${answer.win_value}${items ? `: ${items}` : ""}.`));
    }
    const grid = el("table", "candidates");
    const head = el("tr");
    for (const h of ["Discard", "Shanten", "Accepting", "Category"]) head.append(el("th", "", h));
    grid.append(head);
    const rows = [...answer.candidates].sort((a, b) => a.shanten - b.shanten || b.ukeire - a.ukeire);
    for (const c of rows) {
      const row = el("tr");
      const tile = el("td");
      tile.append(tileFace(c.tile));
      row.append(tile, el("td", "num", String(c.shanten)), el("td", "num", String(c.ukeire)), el("td", "", c.category));
      if (c.tile === answer.tile) row.classList.add("chosen");
      grid.append(row);
    }
    parts.push(grid);
    $("mj-result").replaceChildren(...parts);
  } catch (e) {
    $("mj-result").replaceChildren();
    $("mj-tiles").replaceChildren();
    showProblem($("mj-problem"), e);
  }
}

/** Discards `tile` from the analysed hand and draws the wall's next tile. */
function discardAndDraw(tile) {
  const i = table.hand.indexOf(tile);
  if (i < 0) return;
  if (table.wall.length === 0) table.wall = wallWithout(table.hand, $("mj-variant").value);
  table.hand.splice(i, 1);
  table.hand.push(table.wall.shift());
  $("mj-hand").value = tileString(table.hand);
  table.key = `${$("mj-variant").value}:${tileString(table.hand)}`;
  analyse();
}

export function setupMahjong() {
  $("mj-analyse").addEventListener("click", analyse);
  $("mj-deal").addEventListener("click", dealHand);
  $("mj-tiles").addEventListener("click", (event) => {
    const b = event.target.closest(".tile-button");
    if (b) discardAndDraw(b.dataset.tile);
  });
  analyse();
}
