// Tabs: one panel at a time, named in the address (#gomoku, #doudizhu, ...).
import { setupGomoku } from "./gomoku.js";
import { setupDoudizhu } from "./doudizhu.js";
import { setupEndgame } from "./endgame.js";
import { setupMahjong } from "./mahjong.js";
import { setupRiichi } from "./riichi.js";

const panels = ["gomoku", "doudizhu", "endgame", "mahjong", "riichi"];

function show(name) {
  const current = panels.includes(name) ? name : panels[0];
  for (const p of panels) document.getElementById(p).hidden = p !== current;
  for (const b of document.querySelectorAll("#tabs button")) {
    b.setAttribute("aria-current", b.dataset.tab === current ? "page" : "false");
  }
}

for (const b of document.querySelectorAll("#tabs button")) {
  b.addEventListener("click", () => {
    history.replaceState(null, "", `#${b.dataset.tab}`);
    show(b.dataset.tab);
  });
}
window.addEventListener("hashchange", () => show(location.hash.slice(1)));

setupGomoku();
setupDoudizhu();
setupEndgame();
setupMahjong();
setupRiichi();
show(location.hash.slice(1));
document.body.dataset.ready = "true";
