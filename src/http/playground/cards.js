// Dou Dizhu cards as the service writes them: one character per card,
// 3456789TJQKA2 then B (black joker) and R (red joker), ascending.

export const RANKS = "3456789TJQKA2BR";

const LABELS = { T: "10", B: "BJ", R: "RJ" };

/** What a player reads on a card. */
export function label(card) {
  return LABELS[card] || card;
}

/** Cards in the service's canonical order (ascending rank). */
export function sortCards(cards) {
  return [...cards].sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b));
}

/** The canonical string of some cards. */
export function cardString(cards) {
  return sortCards(cards).join("");
}

/** `hand` without `played` (a multiset difference). */
export function removeCards(hand, played) {
  const rest = [...hand];
  for (const c of played) {
    const i = rest.indexOf(c);
    if (i < 0) throw new Error(`card ${c} is not in the hand`);
    rest.splice(i, 1);
  }
  return rest;
}

/** The 54-card deck. */
export function deck() {
  const cards = [];
  for (const r of RANKS.slice(0, 13)) cards.push(r, r, r, r);
  cards.push("B", "R");
  return cards;
}

/** Shows `cards` as a row of card faces inside `box`. */
export function cardFaces(cards, className = "card") {
  return sortCards(cards).map((c) => {
    const face = document.createElement("span");
    face.className = `${className}${c === "B" || c === "R" ? ` joker joker-${c}` : ""}`;
    face.textContent = label(c);
    return face;
  });
}
