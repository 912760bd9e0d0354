// A whole Dou Dizhu deal in the browser: the page deals, runs the bidding,
// the doubling and the turns, and scores the deal; every bot decision comes
// from /doudizhu/bid, /doudizhu/double and /doudizhu/play, the player's legal
// plays from /doudizhu/moves, hints from /doudizhu/play with `candidates`,
// and the split of the player's hand from /doudizhu/split.
import { $, api, clearProblem, el, rng, showProblem, shuffle } from "./common.js";
import { cardFaces, cardString, deck, label, removeCards, sortCards } from "./cards.js";

/** Players around the table: you, then the seat that plays after you. */
const NAMES = ["You", "Right bot", "Left bot"];
const ROLE_NAMES = { landlord: "landlord", landlord_down: "peasant", landlord_up: "peasant" };

class Abandoned extends Error {}

let deal = null;
let generation = 0;
let humanChoice = null; // resolves the pending wait for the player's button

const next = (p) => (p + 1) % 3;

function role(p) {
  if (deal.landlord === null) return null;
  if (p === deal.landlord) return "landlord";
  return p === next(deal.landlord) ? "landlord_down" : "landlord_up";
}

function alive(gen) {
  if (gen !== generation) throw new Abandoned();
}

function status(text) {
  $("ddz-status").textContent = text;
}

function budget() {
  return Number($("ddz-time").value);
}

function log(player, text) {
  $("ddz-log").append(el("li", "", `${NAMES[player]}: ${text}`));
}

function renderSeat(p) {
  const box = $(`ddz-seat-${p}`);
  const r = role(p);
  const head = el("div", "seat-name", NAMES[p]);
  if (r) head.append(el("span", `role role-${ROLE_NAMES[r]}`, ROLE_NAMES[r]));
  if (deal.doubled[p]) head.append(el("span", "role doubled", "×2"));
  const count = el("div", "count", `${deal.hands[p].length} cards`);
  const shown = el("div", "shown");
  const action = deal.shown[p];
  if (action === null) shown.textContent = "";
  else if (typeof action === "string") shown.textContent = action;
  else shown.append(...cardFaces(action.cards));
  box.replaceChildren(head, count, shown);
  if (p === deal.turn && !deal.over) box.classList.add("turn");
  else box.classList.remove("turn");
  if (deal.over && p !== 0 && deal.hands[p].length > 0) {
    const rest = el("div", "rest");
    rest.append(...cardFaces(deal.hands[p], "card small"));
    box.append(rest);
  }
}

function renderHand() {
  const cards = deal.hands[0].map((c, i) => {
    const b = el("button", `card${deal.selected.has(i) ? " selected" : ""}${c === "B" || c === "R" ? ` joker joker-${c}` : ""}`, label(c));
    b.type = "button";
    b.dataset.index = i;
    b.setAttribute("aria-pressed", deal.selected.has(i) ? "true" : "false");
    return b;
  });
  $("ddz-hand").replaceChildren(...cards);
}

function render() {
  for (const p of [0, 1, 2]) renderSeat(p);
  const bottom = $("ddz-bottom");
  bottom.replaceChildren(el("span", "label", "Bottom cards "));
  if (deal.landlord === null) {
    bottom.append(...deal.bottom.map(() => el("span", "card back", "?")));
  } else {
    bottom.append(...cardFaces(deal.bottom));
  }
  if (deal.multiplier) bottom.append(el("span", "label", ` · bid ${deal.bid}, bombs ${deal.bombs}`));
  renderHand();
}

/** Buttons for the player; resolves with the value of the one pressed. */
function waitForHuman(buttons) {
  const row = buttons.map(({ text, value, disabled, id }) => {
    const b = el("button", "", text);
    b.type = "button";
    if (id) b.id = id;
    b.disabled = Boolean(disabled);
    b.addEventListener("click", () => {
      if (typeof value === "function") value();
      else if (humanChoice) humanChoice(value);
    });
    return b;
  });
  $("ddz-actions").replaceChildren(...row);
  return new Promise((resolve) => {
    humanChoice = resolve;
  });
}

function handString(p) {
  return cardString(deal.hands[p]);
}

async function showSplit() {
  const answer = await api("/doudizhu/split", { hand: handString(0) });
  const box = $("ddz-split");
  const groups = answer.groups.map((g) => {
    const group = el("span", "group");
    group.title = g.type;
    group.append(...cardFaces([...g.cards], "card small"));
    return group;
  });
  box.replaceChildren(el("span", "label", `Your best split: ${answer.plays} plays `), ...groups);
}

function dealCards(seed) {
  const random = rng(seed);
  const cards = shuffle(deck(), random);
  deal = {
    seed,
    hands: [sortCards(cards.slice(0, 17)), sortCards(cards.slice(17, 34)), sortCards(cards.slice(34, 51))],
    bottom: sortCards(cards.slice(51)),
    first: Math.floor(random() * 3),
    landlord: null,
    bid: 0,
    doubled: [false, false, false],
    history: [],
    plays: [0, 0, 0],
    last: null,
    turn: null,
    bombs: 0,
    shown: [null, null, null],
    selected: new Set(),
    legal: [],
    over: false,
    multiplier: false,
  };
  $("ddz-log").replaceChildren();
  $("ddz-hint").replaceChildren();
}

async function bidding(gen) {
  const bids = [];
  let best = 0;
  let landlord = null;
  for (let k = 0, p = deal.first; k < 3; k++, p = next(p)) {
    deal.turn = p;
    render();
    let bid;
    if (p === 0) {
      status(best === 0 ? "Your bid: pass, or 1 to 3 points." : `Your bid: pass, or more than ${best}.`);
      const options = [{ text: "Pass", value: 0, id: "ddz-bid-0" }];
      for (let b = best + 1; b <= 3; b++) options.push({ text: `Bid ${b}`, value: b, id: `ddz-bid-${b}` });
      bid = await waitForHuman(options);
    } else {
      status(`${NAMES[p]} is bidding…`);
      bid = (await api("/doudizhu/bid", { hand: handString(p), bids })).bid;
    }
    alive(gen);
    bids.push(bid);
    deal.shown[p] = bid === 0 ? "no bid" : `bids ${bid}`;
    log(p, bid === 0 ? "passes the bid" : `bids ${bid}`);
    if (bid > best) {
      best = bid;
      landlord = p;
    }
    if (bid === 3) break;
  }
  $("ddz-actions").replaceChildren();
  if (landlord === null) return null;
  deal.landlord = landlord;
  deal.bid = best;
  deal.hands[landlord] = sortCards([...deal.hands[landlord], ...deal.bottom]);
  deal.multiplier = true;
  return landlord;
}

async function doubling(gen) {
  for (let k = 0, p = deal.landlord; k < 3; k++, p = next(p)) {
    deal.turn = p;
    render();
    let double;
    if (p === 0) {
      status(`You are the ${ROLE_NAMES[role(0)]}. Double your stake?`);
      double = (await waitForHuman([
        { text: "Double", value: true, id: "ddz-double" },
        { text: "Don't double", value: false, id: "ddz-stay" },
      ]));
    } else {
      status(`${NAMES[p]} is deciding whether to double…`);
      const answer = await api("/doudizhu/double", {
        seat: role(p),
        hand: handString(p),
        landlord_cards: cardString(deal.bottom),
        bid: deal.bid,
        budget_ms: budget(),
        seed: deal.seed,
      });
      double = answer.double;
    }
    alive(gen);
    deal.doubled[p] = double;
    deal.shown[p] = double ? "doubles" : "does not double";
    log(p, double ? "doubles" : "does not double");
  }
  $("ddz-actions").replaceChildren();
}

async function hint() {
  clearProblem($("ddz-problem"));
  try {
    const answer = await api("/doudizhu/play", {
      seat: role(0),
      hand: handString(0),
      history: deal.history,
      landlord_cards: cardString(deal.bottom),
      budget_ms: budget(),
      seed: deal.seed,
      objective: $("ddz-objective").value,
      candidates: 5,
    });
    selectCards(answer.cards);
    const rows = (answer.candidates || []).map((c) => {
      const row = el("tr");
      const cards = el("td");
      if (c.cards === "") cards.textContent = "pass";
      else cards.append(...cardFaces([...c.cards], "card small"));
      row.append(
        cards,
        el("td", "", c.type),
        el("td", "num", `${(100 * c.win_rate).toFixed(0)}%`),
        el("td", "num", c.expected_points.toFixed(2)),
        el("td", "num", String(c.samples)),
      );
      return row;
    });
    const table = el("table", "candidates");
    const head = el("tr");
    for (const h of ["Play", "Type", "Wins", "Points per base", "Samples"]) head.append(el("th", "", h));
    table.append(head, ...rows);
    const said = answer.cards === "" ? "pass" : `play ${[...answer.cards].map(label).join(" ")}`;
    $("ddz-hint").replaceChildren(el("p", "", `Hint: ${said} (${answer.reason}).`), ...(rows.length ? [table] : []));
  } catch (e) {
    showProblem($("ddz-problem"), e);
  }
}

function selectCards(cards) {
  deal.selected = new Set();
  const used = new Set();
  for (const c of cards) {
    const i = deal.hands[0].findIndex((h, j) => h === c && !used.has(j));
    if (i >= 0) used.add(i);
  }
  deal.selected = used;
  renderHand();
}

async function humanPlay(gen) {
  const leading = deal.last === null;
  const answer = await api("/doudizhu/moves", { hand: handString(0), last: leading ? "" : deal.last.cards });
  alive(gen);
  deal.legal = answer.moves;
  const onlyPass = !leading && deal.legal.every((m) => m.type === "pass");
  status(leading ? "Your lead: pick cards and play." : onlyPass ? "Nothing of yours beats that: pass." : "Beat the play on the table, or pass.");
  for (;;) {
    const choice = await waitForHuman([
      { text: "Play", value: "play", id: "ddz-play", disabled: onlyPass },
      { text: "Pass", value: "pass", id: "ddz-pass", disabled: leading },
      { text: "Hint", value: hint, id: "ddz-hint-button" },
      { text: "Clear", value: () => selectCards(""), id: "ddz-clear" },
    ]);
    alive(gen);
    if (choice === "pass") return { cards: "", type: "pass" };
    const chosen = cardString([...deal.selected].map((i) => deal.hands[0][i]));
    const move = deal.legal.find((m) => m.cards === chosen && m.type !== "pass");
    if (move) return move;
    status(chosen === "" ? "Pick the cards to play first." : `${[...chosen].map(label).join(" ")} is not a legal play here.`);
  }
}

async function botPlay(p) {
  status(`${NAMES[p]} is thinking…`);
  return api("/doudizhu/play", {
    seat: role(p),
    hand: handString(p),
    history: deal.history,
    landlord_cards: cardString(deal.bottom),
    budget_ms: budget(),
    seed: deal.seed * 1000 + deal.history.length,
    objective: $("ddz-objective").value,
  });
}

async function playOut(gen) {
  deal.turn = deal.landlord;
  for (const p of [0, 1, 2]) deal.shown[p] = null;
  for (;;) {
    render();
    const p = deal.turn;
    if (deal.last !== null && deal.last.player === p) deal.last = null;
    const move = p === 0 ? await humanPlay(gen) : await botPlay(p);
    alive(gen);
    $("ddz-actions").replaceChildren();
    $("ddz-hint").replaceChildren();
    deal.history.push(move.cards);
    if (move.cards === "") {
      deal.shown[p] = "pass";
      log(p, "passes");
    } else {
      deal.hands[p] = removeCards(deal.hands[p], move.cards);
      deal.plays[p] += 1;
      deal.last = { cards: move.cards, player: p };
      deal.shown[p] = { cards: [...move.cards] };
      if (move.type === "bomb" || move.type === "rocket") deal.bombs += 1;
      log(p, `${[...move.cards].map(label).join(" ")} (${move.type.replaceAll("_", " ")})`);
      if (p === 0) {
        deal.selected = new Set();
        if (deal.hands[0].length > 0) await showSplit();
      }
      if (deal.hands[p].length === 0) return p;
    }
    deal.turn = next(p);
  }
}

/** Points of every player, the landlord's against both peasants' stakes. */
function score(winner) {
  const landlord = deal.landlord;
  const landlordWon = winner === landlord;
  const peasants = [next(landlord), next(next(landlord))];
  const spring = landlordWon && peasants.every((p) => deal.plays[p] === 0);
  const antiSpring = !landlordWon && deal.plays[landlord] === 1;
  const base = deal.bid * 2 ** deal.bombs * (spring || antiSpring ? 2 : 1) * (deal.doubled[landlord] ? 2 : 1);
  const points = [0, 0, 0];
  for (const p of peasants) {
    const stake = base * (deal.doubled[p] ? 2 : 1);
    points[p] = landlordWon ? -stake : stake;
    points[landlord] -= points[p];
  }
  return { points, spring, antiSpring, landlordWon };
}

async function run(seed) {
  const gen = ++generation;
  if (humanChoice) humanChoice(null);
  clearProblem($("ddz-problem"));
  try {
    let s = seed;
    for (;;) {
      dealCards(s);
      render();
      await showSplit();
      alive(gen);
      if ((await bidding(gen)) !== null) break;
      status("Everyone passed: a new deal.");
      s += 1;
    }
    render();
    if (deal.landlord === 0) await showSplit();
    alive(gen);
    await doubling(gen);
    const winner = await playOut(gen);
    deal.over = true;
    deal.turn = null;
    const result = score(winner);
    render();
    const side = result.landlordWon ? "The landlord wins" : "The peasants win";
    const extra = result.spring ? " with a spring" : result.antiSpring ? " with an anti-spring" : "";
    const mine = result.points[0];
    status(`${side}${extra}. You ${mine >= 0 ? "win" : "lose"} ${Math.abs(mine)} points (bid ${deal.bid}, ${deal.bombs} bombs). Deal over.`);
    $("ddz-actions").replaceChildren();
    document.getElementById("doudizhu").dataset.over = "true";
  } catch (e) {
    if (e instanceof Abandoned) return;
    showProblem($("ddz-problem"), e);
  }
}

export function setupDoudizhu() {
  $("ddz-hand").addEventListener("click", (event) => {
    const card = event.target.closest(".card");
    if (!card || !deal || deal.over) return;
    const i = Number(card.dataset.index);
    if (deal.selected.has(i)) deal.selected.delete(i);
    else deal.selected.add(i);
    renderHand();
  });
  $("ddz-deal").addEventListener("click", () => {
    document.getElementById("doudizhu").dataset.over = "false";
    run(Number($("ddz-seed").value) || 0);
  });
  run(Number($("ddz-seed").value) || 0);
}
