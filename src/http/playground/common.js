// Shared by every panel: calling the service and showing its problems.

/** A 4xx or 5xx answer: the problem document's title, detail and fields. */
export class ProblemError extends Error {
  constructor(status, problem) {
    super(problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** POSTs `body` as JSON to `path`; the parsed answer, or a ProblemError. */
export async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new ProblemError(0, { title: "The service did not answer", detail: String(e) });
  }
  const type = response.headers.get("content-type") || "";
  if (response.ok) return response.json();
  if (type.startsWith("application/problem+json")) {
    throw new ProblemError(response.status, await response.json());
  }
  throw new ProblemError(response.status, { title: `HTTP ${response.status}`, detail: await response.text() });
}

/** Shorthand for document.getElementById. */
export const $ = (id) => document.getElementById(id);

/** A new element with a class and text. */
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * Shows an error in a panel's problem box: the title, then each offending
 * field as "pointer: message" (or the detail when no field is named).
 */
export function showProblem(box, error) {
  box.replaceChildren();
  const problem = error instanceof ProblemError ? error.problem : { title: "Error", detail: String(error) };
  box.append(el("strong", "problem-title", problem.title));
  const fields = problem.errors || [];
  if (fields.length === 0 && problem.detail) box.append(el("span", "problem-detail", problem.detail));
  for (const f of fields) {
    const line = el("span", "problem-field");
    line.append(el("code", "", f.pointer || "/"), document.createTextNode(` ${f.message}`));
    box.append(line);
  }
  box.hidden = false;
}

export function clearProblem(box) {
  box.hidden = true;
  box.replaceChildren();
}

/** A small seeded generator (mulberry32): the same seed deals the same cards. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles `items` in place with `random` (Fisher–Yates). */
export function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** A seed that differs from call to call, for "deal another". */
export function freshSeed() {
  return Math.floor(Math.random() * 1e9);
}
