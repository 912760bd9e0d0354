// A Riichi hand against three bots. The server plays the hand: the page
// keeps only the seed and the player's decisions, posts them to
// /mahjong/table after every choice, and draws the table it gets back.
// Hints come from /mahjong/mjai, given the events the seat has seen.
import { $, api, clearProblem, el, showProblem } from "./common.js";
import { tileFace } from "./mahjong.js";

const WINDS = { E: "East", S: "South", W: "West", N: "North" };
const HONOURS = { E: "1z", S: "2z", W: "3z", N: "4z", P: "5z", F: "6z", C: "7z" };

const hand = { seed: 1, seat: 0, strategy: "balanced", decisions: [], answer: null, seen: 0, busy: false };

/** An mjai tile name as the analyser's tenhou code (`5mr` → `0m`, `E` → `1z`). */
function code(name) {
  if (HONOURS[name]) return HONOURS[name];
  return name.endsWith("r") ? `0${name[1]}` : name;
}

function face(name) {
  return tileFace(code(name));
}

function faces(names) {
  return names.map(face);
}

function seatName(s) {
  return s === hand.seat ? "You" : `Seat ${s}`;
}

function describe(action) {
  const pai = action.pai ? ` ${action.pai}` : "";
  switch (action.type) {
    case "none": return "Pass";
    case "reach": return "Riichi";
    case "hora": return action.target === hand.seat ? "Tsumo" : "Ron";
    case "ryukyoku": return "Abort (nine terminals)";
    case "chi": case "pon": case "daiminkan":
      return `${action.type === "daiminkan" ? "Kan" : action.type[0].toUpperCase() + action.type.slice(1)}${pai} with ${action.consumed.join(" ")}`;
    case "ankan": return `Kan ${action.consumed.join(" ")}`;
    case "kakan": return `Add${pai} to the pon`;
    default: return `${action.type}${pai}`;
  }
}

function eventLine(e) {
  const who = e.actor !== undefined ? seatName(e.actor) : "";
  // "You discard", "Seat 2 discards".
  const s = e.actor === hand.seat ? "" : "s";
  switch (e.type) {
    case "dahai": return `${who} discard${s} ${e.pai}${e.tsumogiri ? " (drawn)" : ""}`;
    case "chi": case "pon": case "daiminkan": return `${who} call${s} ${e.type === "daiminkan" ? "kan" : e.type} on ${e.pai}`;
    case "ankan": return `${who} declare${s} a concealed kan of ${e.consumed[0]}`;
    case "kakan": return `${who} add${s} ${e.pai} to a pon`;
    case "reach": return `${who} declare${s} riichi`;
    case "dora": return `New dora indicator ${e.dora_marker}`;
    default: return null;
  }
}

function render() {
  const a = hand.answer;
  const t = a.table;
  const centre = el("div", "rt-info");
  centre.append(
    el("span", "label", `Round ${WINDS[t.round_wind]} · dealer seat ${t.dealer} · ${t.wall} tiles left · ${t.kyotaku} riichi sticks · dora indicators `),
    ...faces(t.dora_indicators),
  );
  $("rt-centre").replaceChildren(centre);
  const seats = [1, 2, 3, 0].map((k) => t.seats[(hand.seat + k) % 4]).map((s) => {
    const box = el("div", `rt-seat${s.seat === hand.seat ? " you" : ""}`);
    const head = el("div", "seat-name", `${seatName(s.seat)} · ${WINDS[s.wind]} · ${s.score}`);
    if (s.riichi) head.append(el("span", "role doubled", "riichi"));
    const melds = el("div", "rt-melds");
    for (const m of s.melds) {
      const group = el("span", "group");
      group.title = m.type;
      group.append(...faces(m.tiles));
      melds.append(group);
    }
    const river = el("div", "rt-river");
    for (const r of s.river) {
      const f = face(r.tile);
      if (r.called) f.classList.add("called");
      if (r.riichi) f.classList.add("riichi-tile");
      if (r.tsumogiri) f.classList.add("tsumogiri");
      river.append(f);
    }
    box.append(head, melds, river);
    return box;
  });
  $("rt-seats").replaceChildren(...seats);
  const lines = a.events.slice(hand.seen).map(eventLine).filter(Boolean);
  $("rt-log").replaceChildren(...lines.map((l) => el("li", "", l)));

  // The hand: a tile whose discard is legal is a button that plays it.
  const discards = a.legal.filter((x) => x.type === "dahai");
  const tileButton = (name, tsumogiri) => {
    const b = el("button", "tile-button");
    b.type = "button";
    b.append(face(name));
    const action = discards.find((d) => d.pai === name && d.tsumogiri === tsumogiri);
    if (action) b.dataset.action = JSON.stringify(action);
    else b.disabled = true;
    return b;
  };
  const tiles = t.hand.map((n) => tileButton(n, false));
  if (t.drawn) {
    tiles.push(el("span", "gap"), tileButton(t.drawn, true));
  }
  $("rt-hand").replaceChildren(...tiles);
  const others = a.legal.filter((x) => x.type !== "dahai").map((x) => {
    const b = el("button", "", describe(x));
    b.type = "button";
    b.dataset.action = JSON.stringify(x);
    return b;
  });
  $("rt-actions").replaceChildren(...others);
  $("rt-hint").disabled = a.state !== "waiting";
  document.getElementById("riichi").dataset.decisions = String(hand.decisions.length);
  if (a.state === "waiting") {
    const ownTurn = discards.length > 0;
    const last = [...a.events].reverse().find((e) => e.type === "dahai" || e.type === "kakan");
    $("rt-status").textContent = ownTurn
      ? (a.legal.some((x) => x.type === "reach") ? "Your turn: discard, or declare riichi." : "Your turn: discard a tile.")
      : `${seatName(last?.actor)} played ${last?.pai}: call, win or pass.`;
    $("rt-result").replaceChildren();
  } else {
    showResult(a.result);
  }
}

function showResult(r) {
  let text;
  if (r.end === "win") {
    const how = r.from === r.seat ? "by self-draw" : `by ron from ${seatName(r.from)}`;
    text = `${seatName(r.seat)} ${r.seat === hand.seat ? "win" : "wins"} ${how} on ${r.tile}: ${r.han} han ${r.fu} fu, ${r.deltas[r.seat]} points.`;
  } else if (r.end === "exhaustive") {
    const ready = r.ready.map((x, s) => (x ? seatName(s) : null)).filter(Boolean);
    text = `The wall is empty: a draw. Ready: ${ready.length ? ready.join(", ") : "nobody"}.`;
  } else {
    text = `${seatName(r.seat)} aborted the hand with nine terminals.`;
  }
  $("rt-status").textContent = `${text} Hand over.`;
  const parts = [];
  if (r.end === "win") {
    const h = el("p", "rt-winning");
    h.append(el("span", "label", "Winning hand "), ...faces(r.hand));
    if (r.ura_indicators.length) h.append(el("span", "label", " · ura-dora indicators "), ...faces(r.ura_indicators));
    parts.push(h, el("p", "", r.items.map((i) => `${i.name} ${i.value}`).join(", ")));
  }
  parts.push(el("p", "", `Points: ${r.deltas.map((d, s) => `${seatName(s)} ${d >= 0 ? "+" : ""}${d}`).join(", ")}.`));
  $("rt-result").replaceChildren(...parts);
  document.getElementById("riichi").dataset.over = "true";
}

async function send() {
  hand.busy = true;
  clearProblem($("rt-problem"));
  try {
    const answer = await api("/mahjong/table", {
      seed: hand.seed,
      seat: hand.seat,
      strategy: hand.strategy,
      decisions: hand.decisions,
    });
    hand.seen = hand.answer ? hand.answer.events.length : 0;
    hand.answer = answer;
    render();
  } catch (e) {
    // The choice was not taken: forget it.
    if (hand.decisions.length > 0) hand.decisions.pop();
    showProblem($("rt-problem"), e);
  } finally {
    hand.busy = false;
  }
}

function choose(action) {
  if (hand.busy || !hand.answer || hand.answer.state !== "waiting") return;
  hand.decisions.push(action);
  send();
}

async function hint() {
  const a = hand.answer;
  if (!a || a.state !== "waiting") return;
  clearProblem($("rt-problem"));
  try {
    const advice = await api("/mahjong/mjai", { player_id: hand.seat, events: a.events, strategy: hand.strategy });
    const reason = advice.meta ? advice.meta.reason : "";
    delete advice.meta;
    const same = (x) => x.type === advice.type && (x.pai || "") === (advice.pai || "")
      && (x.tsumogiri === undefined || x.tsumogiri === advice.tsumogiri)
      && JSON.stringify([...(x.consumed || [])].sort()) === JSON.stringify([...(advice.consumed || [])].sort());
    for (const b of document.querySelectorAll("#rt-hand [data-action], #rt-actions [data-action]")) {
      b.classList.toggle("hinted", same(JSON.parse(b.dataset.action)));
    }
    $("rt-status").textContent = `Hint: ${advice.type === "dahai" ? `discard ${advice.pai}` : describe(advice)} (${reason}).`;
  } catch (e) {
    showProblem($("rt-problem"), e);
  }
}

function newHand() {
  hand.seed = Number($("rt-seed").value) || 0;
  hand.seat = Number($("rt-seat").value);
  hand.strategy = $("rt-strategy").value;
  hand.decisions = [];
  hand.answer = null;
  document.getElementById("riichi").dataset.over = "false";
  $("rt-result").replaceChildren();
  send();
}

export function setupRiichi() {
  for (const box of ["rt-hand", "rt-actions"]) {
    $(box).addEventListener("click", (event) => {
      const b = event.target.closest("[data-action]");
      if (b && !b.disabled) choose(JSON.parse(b.dataset.action));
    });
  }
  $("rt-new").addEventListener("click", newHand);
  $("rt-hint").addEventListener("click", hint);
  newHand();
}
