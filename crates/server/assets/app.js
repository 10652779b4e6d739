// twistor serve: the page. Plain JavaScript, no build step; every request
// goes to the JSON API the server documents (README, "twistor serve").
"use strict";

const $ = (id) => document.getElementById(id);
const state = { puzzle: "3x3x3", definition: null, filename: null, alg: "", step: null };
let moves = [];
let playing = null;
let job = null;

function puzzleRef() {
  return state.definition !== null
    ? { definition: state.definition, filename: state.filename }
    : { puzzle: state.puzzle };
}

async function post(path, body, signal) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  return r;
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

function showError(e) {
  const box = $("alg-error");
  if (!e) { box.textContent = ""; return; }
  let text = e.error;
  if (e.column) text += "\n" + state.alg + "\n" + " ".repeat(e.column - 1) + "^";
  box.textContent = text;
}

let seq = 0;
async function refresh() {
  const mine = ++seq;
  saveUrl();
  const body = { ...puzzleRef(), alg: state.alg, width: 800, height: 500 };
  if (state.step !== null) body.step = state.step;
  const r = await post("/api/apply", body);
  const j = await r.json();
  if (mine !== seq) return; // a newer request is on its way
  if (!r.ok) { showError(j); document.body.dataset.error = "1"; return; }
  delete document.body.dataset.error;
  showError(null);
  moves = j.moves;
  $("puzzle-name").textContent = j.name;
  $("svg").innerHTML = j.svg || "";
  $("pattern").hidden = !!j.svg;
  $("pattern").textContent = j.svg ? "" : JSON.stringify(j.pattern, null, 1);
  const step = j.step;
  $("scrubber").max = String(moves.length);
  $("scrubber").value = String(step);
  $("step-label").textContent = `${step} / ${moves.length}`;
  document.body.dataset.solved = String(j.solved);
  document.body.dataset.step = String(step);
  const list = $("alg-moves");
  list.innerHTML = "";
  moves.forEach((m, i) => {
    const s = document.createElement("span");
    s.textContent = m;
    if (i < step - 1) s.className = "done";
    if (i === step - 1) s.className = "current";
    list.appendChild(s);
    list.appendChild(document.createTextNode(" "));
  });
  // The current move in the text itself, when the alg is a plain sequence.
  const alg = $("alg");
  if (j.spans && step > 0 && document.activeElement !== alg) {
    const [a, b] = j.spans[step - 1];
    alg.setSelectionRange(a, b);
  }
}

function goTo(step) {
  state.step = Math.max(0, Math.min(moves.length, step));
  refresh();
}
const currentStep = () => (state.step === null ? moves.length : state.step);

function togglePlay() {
  if (playing) { clearInterval(playing); playing = null; $("play").textContent = "Play"; return; }
  if (currentStep() >= moves.length) goTo(0);
  $("play").textContent = "Pause";
  playing = setInterval(() => {
    if (currentStep() >= moves.length) { togglePlay(); return; }
    goTo(currentStep() + 1);
  }, 600);
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
  refresh();
});
$("upload").addEventListener("change", async () => {
  const f = $("upload").files[0];
  if (!f) return;
  state.definition = await f.text();
  state.filename = f.name;
  $("puzzle").value = f.name;
  state.step = null;
  refresh();
});
$("import").addEventListener("change", async () => {
  const f = $("import").files[0];
  if (!f) return;
  const r = await post("/api/import", { ...puzzleRef(), text: await f.text(), name: f.name });
  const j = await r.json();
  if (!r.ok) { showError(j); return; }
  state.alg = j.alg;
  $("alg").value = j.alg;
  state.step = null;
  refresh();
});
$("scrubber").addEventListener("input", () => goTo(Number($("scrubber").value)));
$("first").onclick = () => goTo(0);
$("back").onclick = () => goTo(currentStep() - 1);
$("forward").onclick = () => goTo(currentStep() + 1);
$("last").onclick = () => goTo(moves.length);
$("play").onclick = togglePlay;
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
  if (e.key === "ArrowLeft") goTo(currentStep() - 1);
  else if (e.key === "ArrowRight") goTo(currentStep() + 1);
  else if (e.key === "Home") goTo(0);
  else if (e.key === "End") goTo(moves.length);
  else if (e.key === " ") { e.preventDefault(); togglePlay(); }
});

$("scramble").onclick = async () => {
  const r = await post("/api/scramble", { event: $("event").value });
  const j = await r.json();
  if (!r.ok) { showError(j); return; }
  state.puzzle = j.puzzle;
  state.definition = null;
  $("puzzle").value = j.puzzle;
  state.alg = j.alg;
  $("alg").value = j.alg;
  state.step = null;
  await refresh();
};

$("random").onclick = async () => {
  $("solve-status").textContent = "finding an alg for a random state…";
  const r = await post("/api/random", puzzleRef());
  const j = await r.json();
  if (!r.ok) { showError(j); return; }
  $("solve-status").textContent = j.random_state
    ? "a uniformly random state (reached by the inverse of a solution)"
    : "too large to solve here in a few seconds: 30 random moves instead";
  state.alg = j.alg;
  $("alg").value = j.alg;
  state.step = null;
  await refresh();
};

// A job's lines of JSON, as they come; `onLine` sees each.
async function streamJob(path, body, onLine, statusBox) {
  if (job) job.abort();
  job = new AbortController();
  $("cancel").disabled = false;
  statusBox.textContent = "starting…";
  try {
    const r = await post(path, body, job.signal);
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
    statusBox.textContent = e.name === "AbortError" ? "cancelled" : String(e);
  } finally {
    $("cancel").disabled = true;
    job = null;
  }
}

function solve(engine) {
  const box = $("solve-status");
  const scramble = state.alg;
  streamJob("/api/solve", { ...puzzleRef(), alg: scramble, engine }, (l) => {
    if (l.event === "progress" && l.stage !== undefined) box.textContent = `${l.stage}: ${l.step} (${l.moves} moves), ${l.seconds.toFixed(1)} s`;
    else if (l.event === "progress") box.textContent = `depth ${l.depth}: ${l.nodes.toLocaleString()} nodes, ${l.seconds.toFixed(1)} s`;
    else if (l.event === "table") box.textContent = `table ${l.table}: ${l.building ? "building" : "depth " + l.depth}`;
    else if (l.event === "notice") box.textContent = l.notice;
    else if (l.event === "error") box.textContent = l.error;
    else if (l.event === "solution") {
      box.textContent = `solution (${l.length} moves, ${l.engine}${l.optimal ? ", optimal" : ""}): ${l.alg}`;
      box.dataset.solution = l.alg;
      // Loaded into the player: the scramble, then the solution to step through.
      const before = moves.length;
      state.alg = scramble.trim() ? `${scramble.trim()} ${l.alg}` : l.alg;
      $("alg").value = state.alg;
      state.step = before;
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
      box.textContent = `depth ${l.depth}: ${l.total.toLocaleString("en-US")} positions so far`;
      histogram(counts);
    } else if (l.event === "done") {
      histogram(l.counts);
      const maxima = l.local_maxima ? `; local maxima by depth: ${l.local_maxima.join(", ")}` : "";
      box.textContent = `${l.total.toLocaleString("en-US")} positions, God's number ${l.diameter} (${l.seconds.toFixed(1)} s)${maxima}`;
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

$("export").onclick = async () => {
  const r = await post("/api/export", { ...puzzleRef(), alg: state.alg, format: $("export-format").value });
  const j = await r.json();
  $("export-text").hidden = false;
  $("export-text").value = r.ok ? j.text : j.error;
};

(async function start() {
  loadUrl();
  const r = await fetch("/api/puzzles");
  const j = await r.json();
  for (const n of j.puzzles) {
    const o = document.createElement("option");
    o.value = n;
    $("puzzle-names").appendChild(o);
  }
  for (const e of j.events) {
    const o = document.createElement("option");
    o.value = e;
    o.textContent = e;
    $("event").appendChild(o);
  }
  await refresh();
})();
