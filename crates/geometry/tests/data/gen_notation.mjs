// Records what cubing.js computes for random algs in community notation,
// as test expectations for twistor-geometry's notation (tests/notation.rs).
//
// Regenerate (outside the repository; needs node and the cubing package):
//   mkdir -p /tmp/cubingjs && cd /tmp/cubingjs && npm install cubing@0.63.4
//   cp <repo>/crates/geometry/tests/data/gen_notation.mjs . && node gen_notation.mjs \
//     > <repo>/crates/geometry/tests/data/notation_cubingjs.jsonl
//
// The seven puzzles the notation was asked for get 50 algs each; nine more
// get 13 each. Each puzzle is built twice: with PuzzleGeometry's default options
// ("default": outer moves, the axes the cuts make) and with all moves and
// whole-puzzle rotations ("rotations", as twizzle's puzzles have them).
// Definitions keep every orbit. Output lines:
//   {"kind":"puzzle", "puzzle", "config", "orbits": {NAME: {"pieces","orientations",
//     "signature": [[MOVE, CYCLES], ...]}}}     (CYCLES of each base move on the orbit)
//   {"kind":"alg", "puzzle", "config", "alg", "order", "cycles": {NAME: CYCLES}}
// where CYCLES is a sorted list of [length, twist] for every cycle that is
// longer than 1 or twists.
import { getPuzzleGeometryByName, ExperimentalPGNotation } from "cubing/puzzle-geometry";
import { KPuzzle } from "cubing/kpuzzle";

function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cycles(orbitDef, data) {
  const n = orbitDef.numPieces, m = orbitDef.numOrientations;
  const p = data.permutation, o = data.orientationDelta;
  const seen = new Array(n).fill(false);
  const out = [];
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    let len = 0, tw = 0, i = s;
    while (!seen[i]) { seen[i] = true; tw += o[i]; len++; i = p[i]; }
    tw %= m;
    if (len > 1 || tw !== 0) out.push([len, tw]);
  }
  out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return out;
}

const faces3 = ["R", "L", "U", "D", "F", "B"];
const vocab = {
  "3x3x3": [...faces3, ...faces3.map(f => f + "w"), ..."rludfb", "M", "E", "S", "x", "y", "z",
    ...faces3.map(f => "2" + f), ...faces3.map(f => "2-3" + f + "w")],
  "4x4x4": [...faces3, ...faces3.map(f => f + "w"), ...faces3.map(f => "3" + f + "w"), ..."rludfb",
    ...faces3.map(f => "2" + f), ...faces3.map(f => "3" + f), ...faces3.map(f => "2-3" + f + "w"),
    "m", "e", "s", "x", "y", "z", "3r", "2-3r"],
  "5x5x5": [...faces3, ...faces3.map(f => f + "w"), ...faces3.map(f => "3" + f + "w"), ..."rludfb",
    ...faces3.map(f => "2" + f), ...faces3.map(f => "3" + f), ...faces3.map(f => "4" + f),
    ...faces3.map(f => "2-3" + f + "w"), ...faces3.map(f => "2-4" + f + "w"),
    "M", "E", "S", "m", "e", "s", "x", "y", "z", "4r", "3-4l"],
  megaminx: ["R++", "R--", "D++", "D--", "U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D",
    "y", "r", "dl", "2R", "2U", "2FR", "Uv", "BRv"],
  pyraminx: ["U", "L", "R", "B", "u", "l", "r", "b", "y", "D", "F", "BL", "BR", "Uv", "Rv"],
  skewb: ["U", "UL", "F", "UR", "B", "D", "L", "R", "Uv", "Fv", "x", "y", "z"],
  FTO: ["F", "B", "D", "U", "L", "R", "BL", "BR", "2F", "2U", "2BL", "T", "Fv", "BRv"],
  // Further puzzles, fewer algs each, for breadth.
  "2x2x2": [...faces3, "2R", "2U", "x", "y", "z", "Rv", "Dv"],
  "6x6x6": [...faces3, "2R", "3R", "4L", "5F", "Rw", "3Rw", "5Uw", "2-5Rw", "3r", "m", "e", "s", "x", "y", "z"],
  "7x7x7": [...faces3, "2R", "4R", "6U", "4Rw", "2-6Fw", "M", "E", "S", "m", "x", "y", "z"],
  gigaminx: ["U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D", "2R", "3R", "4DR", "r", "3r", "Uv"],
  "master pyraminx": ["U", "L", "R", "B", "u", "l", "r", "b", "D", "F", "BL", "BR", "2U", "3R", "y"],
  "master skewb": ["UFR", "URF", "DLB", "BDL", "2UFR", "UBL", "DRF", "ufr", "UFRv"],
  helicopter: ["UF", "FU", "UR", "RB", "BL", "DF", "x", "Uv", "UFv", "URFv"],
  "Christopher's jewel": ["UFLR", "ULF", "DBRRF", "FRD", "BBU", "ULFRv"],
  "Regular Astrominx": ["FREGU", "FRE", "OKBDN", "HIE", "MKOPQ", "FLACRv", "Rv"],
};
const fewer = new Set(["2x2x2", "6x6x6", "7x7x7", "gigaminx", "master pyraminx", "master skewb", "helicopter", "Christopher's jewel", "Regular Astrominx"]);
// The library defaults to all moves; the command line does not.
const configs = { default: { allMoves: false }, rotations: { allMoves: true, addRotations: true } };
// Twizzle's own options (oriented centres too), for a few puzzles.
const twizzle = { allMoves: true, addRotations: true, orientCenters: true };
const twizzlePuzzles = new Set(["3x3x3", "5x5x5", "megaminx", "skewb", "FTO"]);

function build(name, options) {
  const pg = getPuzzleGeometryByName(name, options);
  const od = pg.getOrbitsDef(true);
  const def = pg.getKPuzzleDefinition(true);
  const kp = new KPuzzle(def, { experimentalPGNotation: new ExperimentalPGNotation(pg, od) });
  return { def, kp };
}

for (const [name, words] of Object.entries(vocab)) {
  const all = Object.entries(configs);
  if (twizzlePuzzles.has(name)) all.push(["twizzle", twizzle]);
  for (const [config, options] of all) {
    const { def, kp } = build(name, options);
    const orbits = {};
    const moveNames = Object.keys(def.moves).sort();
    for (const od of def.orbits) {
      orbits[od.orbitName] = {
        pieces: od.numPieces,
        orientations: od.numOrientations,
        signature: moveNames.map(mv => [mv, cycles(od, def.moves[mv][od.orbitName])]),
      };
    }
    console.log(JSON.stringify({ kind: "puzzle", puzzle: name, config, orbits }));
    // The words cubing.js accepts in this configuration.
    const ok = words.filter(w => { try { kp.algToTransformation(w); return true; } catch { return false; } });
    const rand = rng(name.length * 1000 + (config === "default" ? 1 : config === "rotations" ? 2 : 3));
    const pick = a => a[Math.floor(rand() * a.length)];
    const amount = () => pick(["", "", "'", "2", "2'", "3"]);
    const seq = k => Array.from({ length: k }, () => {
      const w = pick(ok);
      return w.endsWith("++") || w.endsWith("--") ? w : w + amount();
    }).join(" ");
    const count =
      config === "twizzle" ? 10 : fewer.has(name) ? (config === "default" ? 8 : 5) : config === "default" ? 30 : 20;
    for (let i = 0; i < count; i++) {
      let alg;
      const r = rand();
      if (r < 0.5) alg = seq(3 + Math.floor(rand() * 10));
      else if (r < 0.65) alg = `(${seq(2 + Math.floor(rand() * 3))})${2 + Math.floor(rand() * 4)}`;
      else if (r < 0.8) alg = `[${seq(1 + Math.floor(rand() * 3))}, ${seq(1 + Math.floor(rand() * 3))}]`;
      else if (r < 0.9) alg = `[${seq(1 + Math.floor(rand() * 2))}: ${seq(2 + Math.floor(rand() * 4))}]`;
      else alg = `${seq(2)} [${seq(2)}: [${seq(1)}, ${seq(2)}]] (${seq(2)})2'`;
      const t = kp.algToTransformation(alg);
      const c = {};
      for (const od of def.orbits) c[od.orbitName] = cycles(od, t.transformationData[od.orbitName]);
      console.log(JSON.stringify({ kind: "alg", puzzle: name, config, alg, order: String(t.repetitionOrder()), cycles: c }));
    }
  }
}
