// twistor serve: the page. Plain JavaScript, no build step; every request
// goes to the JSON API the server documents (README, "twistor serve").
// The puzzle is drawn by view.js (3D, from /api/geometry) or as the SVG
// /api/apply gives (the net, and the clock and Square-1 as their players
// know them).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { puzzle: "3x3x3", definition: null, filename: null, alg: "", step: null };
let moves = [];
let turns = null; // per step: the parts it turns, or null
let kind = "none"; // "3d", "flat" or "none"
let mode = "3d"; // "3d" or "net", when kind is "3d"
let playing = false;
let job = null;
let eventOf = {}; // puzzle name → its WCA event
const view = new PuzzleView($("view3d"));

function puzzleRef() {
  return state.definition !== null
    ? { definition: state.definition, filename: state.filename }
    : { puzzle: state.puzzle };
}

function post(path, body, signal) {
  return fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
}

// Runs `work`, showing `button` (and the page) busy if it takes longer
// than 200 ms.
async function busy(button, work) {
  const timer = setTimeout(() => {
    if (button) button.classList.add("busy");
    document.body.dataset.busy = "1";
  }, 200);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    if (button) button.classList.remove("busy");
    delete document.body.dataset.busy;
  }
}

function saveUrl() {
  const q = new URLSearchParams();
  if (state.definition === null) q.set("puzzle", state.puzzle);
  else if (state.definition.length < 4000) {
    q.set("definition", state.definition);
    q.set("filename", state.filename || "uploaded.tws");
  }
  if (state.alg) q.set("alg", state.alg);
  if (state.step !== null) q.set("step", String(state.step));
  history.replaceState(null, "", "?" + q.toString());
}

function loadUrl() {
  const q = new URLSearchParams(location.search);
  if (q.has("definition")) {
    state.definition = q.get("definition");
    state.filename = q.get("filename");
  } else if (q.has("puzzle")) state.puzzle = q.get("puzzle");
  state.alg = q.get("alg") || "";
  state.step = q.has("step") ? Number(q.get("step")) : null;
  $("puzzle").value = state.definition !== null ? (state.filename || "uploaded") : state.puzzle;
  $("alg").value = state.alg;
}

// An error next to the field it is about (`box`); with a column, the
// text it points into.
function showError(box, e, text) {
  if (!e) { $(box).textContent = ""; return; }
  let message = e.error;
  if (e.column && text !== undefined) message += "\n" + text + "\n" + " ".repeat(e.column - 1) + "^";
  $(box).textContent = message;
}

// What belonged to the puzzle shown before: results, messages, a job.
function clearResults() {
  if (job) job.abort();
  for (const id of ["solve-status", "gods-status", "alg-error", "puzzle-error", "definition-error", "import-error"]) {
    $(id).textContent = "";
  }
  delete $("solve-status").dataset.solution;
  delete $("gods-status").dataset.total;
  $("histogram").innerHTML = "";
  $("export-text").hidden = true;
  $("export-text").value = "";
}

function setKind(k) {
  kind = k;
  document.body.dataset.kind = k;
  document.body.dataset.mode = k === "3d" ? mode : "net";
  $("toggle-view").textContent = mode === "3d" ? "Net" : "3D";
}

// Loads the puzzle named or given (its 3D geometry, if it has one), then
// the position.
async function loadPuzzle() {
  stopPlaying();
  clearResults();
  const r = await busy(null, () => post("/api/geometry", puzzleRef()));
  const j = await r.json();
  if (!r.ok) {
    // The error by the field it is about; the old picture no longer stands.
    showError(state.definition !== null ? "definition-error" : "puzzle-error", j);
    if (state.definition !== null) $("files").open = true;
    document.body.dataset.puzzleError = "1";
    $("svg").innerHTML = "";
    view.load({ faces: [], stickers: [], axes: [] });
    moves = [];
    turns = null;
    renderMoves(0);
    return false;
  }
  delete document.body.dataset.puzzleError;
  $("puzzle-name").textContent = j.name;
  // The puzzle's WCA event, ready to scramble.
  const event = state.definition === null && eventOf[state.puzzle];
  if (event) $("event").value = event;
  if (j.kind === "3d") view.load(j);
  setKind(j.kind);
  await refresh();
  return true;
}

// The position after `step` steps (all when null), from the server.
async function fetchStep(step) {
  const body = { ...puzzleRef(), alg: state.alg, width: 800, height: 500 };
  if (step !== null) body.step = step;
  const r = await post("/api/apply", body);
  return { ok: r.ok, json: await r.json() };
}

let seq = 0;
async function refresh() {
  const mine = ++seq;
  saveUrl();
  const { ok, json } = await fetchStep(state.step);
  if (mine !== seq) return; // a newer request is on its way
  if (!ok) {
    // A bad alg: shown under it; a bad puzzle: by the puzzle field.
    showError(json.column ? "alg-error" : "puzzle-error", json, state.alg);
    document.body.dataset.error = "1";
    return;
  }
  delete document.body.dataset.error;
  showError("alg-error", null);
  moves = json.moves;
  turns = json.turns;
  show(json);
}

// Shows a position /api/apply gave.
function show(j) {
  $("puzzle-name").textContent = j.name;
  $("svg").innerHTML = j.svg || "";
  $("pattern").hidden = !!j.svg;
  $("pattern").textContent = j.svg ? "" : JSON.stringify(j.pattern);
  if (j.colors) view.setColors(j.colors);
  view.setPose(null, 0);
  const step = j.step;
  $("scrubber").max = String(moves.length);
  $("scrubber").value = String(step);
  $("step-label").textContent = `${step} / ${moves.length}`;
  document.body.dataset.solved = String(j.solved);
  document.body.dataset.step = String(step);
  renderMoves(step);
  // The current move in the text itself, when the alg is a plain sequence.
  const alg = $("alg");
  if (j.spans && step > 0 && document.activeElement !== alg) {
    const [a, b] = j.spans[step - 1];
    alg.setSelectionRange(a, b);
  }
}

function renderMoves(step) {
  const list = $("alg-moves");
  list.innerHTML = "";
  moves.forEach((m, i) => {
    const s = document.createElement("span");
    s.textContent = m;
    s.dataset.index = String(i);
    if (i < step - 1) s.className = "done";
    if (i === step - 1) s.className = "current";
    list.appendChild(s);
    list.appendChild(document.createTextNode(" "));
  });
}

const currentStep = () => (state.step === null ? moves.length : state.step);

// How long a quarter turn takes at the tempo chosen, in ms.
const moveTime = () => 320 / Number($("tempo").value);

// The turn of step `k` the 3D view animates, or null where it shows
// the next position at once (the net, a flat picture, no turn data).
const turnOf = (k) => (kind === "3d" && mode === "3d" && turns && turns[k]) || null;

let going = 0;
// Goes to `target`, turning the move between when it is one step away.
async function goTo(target, animate = true) {
  target = Math.max(0, Math.min(moves.length, target));
  const from = currentStep();
  if (target === from && state.step !== null) return;
  const mine = ++going;
  state.step = target;
  saveUrl();
  const parts = animate && Math.abs(target - from) === 1 && turnOf(Math.min(from, target));
  const next = fetchStep(target);
  if (parts && parts.length) {
    const forward = target > from;
    if (!forward) {
      // Backwards: the earlier position, turned to look like the later
      // one, turned back.
      const { ok, json } = await next;
      if (mine !== going || !ok) return;
      view.setColors(json.colors);
    }
    const longest = Math.max(...parts.map((p) => Math.abs(p.angle)));
    const ms = moveTime() * Math.max(1, longest / (Math.PI / 2)) ** 0.6;
    await turn(parts, forward ? 0 : 1, forward ? 1 : 0, ms, mine);
    if (mine !== going) return;
  }
  const { ok, json } = await next;
  if (mine !== going) return;
  if (ok) show(json);
}

// Animates `parts` from fraction `a` to `b` over `ms` milliseconds.
function turn(parts, a, b, ms, mine) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const frame = (now) => {
      if (mine !== going) { resolve(); return; }
      const x = Math.min(1, (now - t0) / ms);
      const eased = x < 0.5 ? 2 * x * x : 1 - 2 * (1 - x) * (1 - x);
      view.setPose(parts, a + (b - a) * eased);
      if (x < 1) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
}

function stopPlaying() {
  playing = false;
  $("play").textContent = "Play";
}

async function togglePlay() {
  if (playing) { stopPlaying(); return; }
  playing = true;
  $("play").textContent = "Pause";
  if (currentStep() >= moves.length) await goTo(0, false);
  while (playing && currentStep() < moves.length) {
    const animated = turnOf(currentStep());
    await goTo(currentStep() + 1);
    if (!animated) await new Promise((r) => setTimeout(r, moveTime() * 1.5));
  }
  stopPlaying();
}

let typing = null;
$("alg").addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(() => { state.alg = $("alg").value; state.step = null; refresh(); }, 150);
});
$("puzzle").addEventListener("change", () => {
  state.puzzle = $("puzzle").value.trim();
  state.definition = null;
  state.step = null;
  loadPuzzle();
});
async function useDefinition(text, filename) {
  state.definition = text;
  state.filename = filename;
  $("puzzle").value = filename;
  state.step = null;
  await loadPuzzle();
}
$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (f) await useDefinition(await f.text(), f.name);
});
$("use-definition").onclick = () => {
  const text = $("definition-text").value;
  busy($("use-definition"), () => useDefinition(text, text.trimStart().startsWith("{") ? "pasted.json" : "pasted.tws"));
};
$("import").addEventListener("change", async () => {
  const f = $("import").files[0];
  if (!f) return;
  const text = await f.text();
  const r = await busy(null, () => post("/api/import", { ...puzzleRef(), text, name: f.name }));
  const j = await r.json();
  if (!r.ok) { showError("import-error", j); return; }
  showError("import-error", null);
  state.alg = j.alg;
  $("alg").value = j.alg;
  state.step = null;
  refresh();
});
$("scrubber").addEventListener("input", () => goTo(Number($("scrubber").value), false));
$("first").onclick = () => goTo(0, false);
$("back").onclick = () => goTo(currentStep() - 1);
$("forward").onclick = () => goTo(currentStep() + 1);
$("last").onclick = () => goTo(moves.length, false);
$("play").onclick = togglePlay;
$("alg-moves").addEventListener("click", (e) => {
  const i = e.target.dataset && e.target.dataset.index;
  if (i !== undefined) goTo(Number(i) + 1);
});
$("tempo").addEventListener("input", () => { $("tempo-label").textContent = `${$("tempo").value}×`; });
$("toggle-view").onclick = () => {
  mode = mode === "3d" ? "net" : "3d";
  setKind(kind);
  view.render();
};
// Keys step through the alg; in the alg box (where arrows move the
// caret) with Alt.
document.addEventListener("keydown", (e) => {
  const inAlg = e.target === $("alg");
  const inField = e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  if (inAlg ? !e.altKey : inField) return;
  let done = true;
  if (e.key === "ArrowLeft") goTo(currentStep() - 1);
  else if (e.key === "ArrowRight") goTo(currentStep() + 1);
  else if (e.key === "Home") goTo(0, false);
  else if (e.key === "End") goTo(moves.length, false);
  else if (e.key === " " && !inAlg) togglePlay();
  else if (inAlg && e.code === "KeyP") togglePlay();
  else done = false;
  if (done) e.preventDefault();
});

$("scramble").onclick = () => busy($("scramble"), async () => {
  const r = await post("/api/scramble", { event: $("event").value });
  const j = await r.json();
  if (!r.ok) { showError("alg-error", j); return; }
  const same = state.definition === null && state.puzzle === j.puzzle;
  state.puzzle = j.puzzle;
  state.definition = null;
  $("puzzle").value = j.puzzle;
  state.alg = j.alg;
  $("alg").value = j.alg;
  state.step = null;
  if (same) { clearResults(); await refresh(); } else await loadPuzzle();
});

$("random").onclick = () => busy($("random"), async () => {
  $("solve-status").textContent = "finding an alg for a random state…";
  const r = await post("/api/random", puzzleRef());
  const j = await r.json();
  if (!r.ok) { showError("puzzle-error", j); $("solve-status").textContent = ""; return; }
  $("solve-status").textContent = j.random_state
    ? "a uniformly random state (reached by the inverse of a solution)"
    : j.note || "random moves";
  state.alg = j.alg;
  $("alg").value = j.alg;
  state.step = null;
  await refresh();
});

// A job's lines of JSON, as they come; `onLine` sees each.
async function streamJob(path, body, onLine, statusBox) {
  if (job) job.abort();
  const mine = new AbortController();
  job = mine;
  $("cancel").disabled = false;
  statusBox.textContent = "starting…";
  try {
    const r = await post(path, body, mine.signal);
    if (!r.ok) { const j = await r.json(); statusBox.textContent = j.error; return; }
    const reader = r.body.getReader();
    const text = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += text.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) onLine(JSON.parse(line));
      }
    }
  } catch (e) {
    // A job cancelled by switching puzzle leaves no message behind.
    if (job === mine || e.name !== "AbortError") statusBox.textContent = e.name === "AbortError" ? "cancelled" : String(e);
  } finally {
    if (job === mine) { $("cancel").disabled = true; job = null; }
  }
}

const count = (n) => n.toLocaleString("en-US");
function solve(engine) {
  const box = $("solve-status");
  const scramble = state.alg;
  const stepsBefore = moves.length;
  streamJob("/api/solve", { ...puzzleRef(), alg: scramble, engine }, (l) => {
    if (l.event === "progress" && l.stage !== undefined) box.textContent = `${l.stage}: ${l.step} (${l.moves} moves), ${l.seconds.toFixed(1)} s`;
    else if (l.event === "progress") {
      const rate = l.seconds > 0 ? ` (${count(Math.round(l.nodes / l.seconds))} a second)` : "";
      const share = l.done !== undefined ? `, ${Math.floor(100 * l.done)}% of it` : "";
      box.textContent = `searching depth ${l.depth}${share}: ${count(l.nodes)} positions${rate}, ${l.seconds.toFixed(1)} s`;
    } else if (l.event === "table") {
      if (l.building !== undefined) box.textContent = `building the ${l.table} table (${(l.building / 1048576).toFixed(0)} MiB)…`;
      else if (l.reached !== undefined && l.size) box.textContent = `filling the ${l.table} table: ${Math.min(100, (100 * l.reached) / l.size).toFixed(0)}% (depth ${l.depth})`;
      else box.textContent = `filling the ${l.table} table: depth ${l.depth}`;
    } else if (l.event === "notice") box.textContent = l.notice;
    else if (l.event === "error") box.textContent = l.error;
    else if (l.event === "solution") {
      box.textContent = `solution, ${l.length} moves${l.optimal ? " (optimal)" : ""}: ${l.alg}\nby ${l.engine_title || l.engine}`;
      box.dataset.solution = l.alg;
      // Loaded into the player: the scramble, then the solution to step through.
      state.alg = scramble.trim() ? `${scramble.trim()}\n${l.alg}` : l.alg;
      $("alg").value = state.alg;
      state.step = stepsBefore;
      refresh();
    } else if (l.event === "done" && l.outcome !== "solved") box.textContent = l.outcome;
  }, box);
}
$("solve").onclick = () => solve("fast");
$("solve-optimal").onclick = () => solve("optimal");
$("cancel").onclick = () => { if (job) job.abort(); };

$("gods").onclick = () => {
  const box = $("gods-status");
  const counts = [];
  streamJob("/api/gods", { ...puzzleRef(), moves: $("gods-moves").value }, (l) => {
    if (l.event === "depth") {
      counts[l.depth] = l.positions;
      box.textContent = `depth ${l.depth}: ${count(l.total)} positions so far`;
      histogram(counts);
    } else if (l.event === "done") {
      histogram(l.counts);
      const maxima = l.local_maxima ? `; local maxima by depth: ${l.local_maxima.join(", ")}` : "";
      box.textContent = `${count(l.total)} positions, God's number ${l.diameter} (${l.seconds.toFixed(1)} s)${maxima}`;
      box.dataset.total = String(l.total);
    } else if (l.event === "error") box.textContent = l.error;
  }, box);
};

function histogram(counts) {
  const svg = $("histogram");
  const w = 420, h = 160, n = counts.length;
  const max = Math.max(1, ...counts.map((c) => c || 0));
  let out = "";
  counts.forEach((c, d) => {
    const bw = w / Math.max(n, 1);
    const bh = ((c || 0) / max) * (h - 20);
    out += `<rect x="${d * bw + 1}" y="${h - 14 - bh}" width="${bw - 2}" height="${bh}"><title>${d}: ${c}</title></rect>`;
    out += `<text x="${d * bw + bw / 2}" y="${h - 2}" text-anchor="middle">${d}</text>`;
  });
  svg.innerHTML = out;
}

$("export").onclick = () => busy($("export"), async () => {
  const r = await post("/api/export", { ...puzzleRef(), alg: state.alg, format: $("export-format").value });
  const j = await r.json();
  $("export-text").hidden = false;
  $("export-text").value = r.ok ? j.text : j.error;
});

// For scripts and tests: the view, and where things are drawn.
window.twistor = { view, goTo, moves: () => moves, turns: () => turns };

(async function start() {
  loadUrl();
  setKind("none");
  const r = await fetch("/api/puzzles");
  const j = await r.json();
  for (const n of j.puzzles) {
    const o = document.createElement("option");
    o.value = n;
    $("puzzle-names").appendChild(o);
  }
  eventOf = j.event_of || {};
  for (const e of j.events) {
    const o = document.createElement("option");
    o.value = e;
    o.textContent = e;
    $("event").appendChild(o);
  }
  await loadPuzzle();
})();
