// Test vectors: what cubing.js 0.63.4 computes when algs are applied to the
// named puzzles, written as vectors.jsonl beside this script.
//
// Command line (cubing is not a dependency of this repository; install it
// anywhere and point the script at that node_modules folder):
//
//   mkdir -p /tmp/cubingjs && (cd /tmp/cubingjs && npm init -y && npm install cubing@0.63.4)
//   node crates/geometry/tests/data/cubingjs/generate.mjs /tmp/cubingjs/node_modules
//
// or, equivalently, with NODE_PATH=/tmp/cubingjs/node_modules and no argument.
// An optional second argument names the output file (default: vectors.jsonl
// beside this script). Output is deterministic (fixed seeds).
//
// Each line is one JSON object:
//   {"name": PG puzzle name, "all_moves": bool, "build": "pg", "alg": ALG,
//    "pattern": {ORBIT: {"pieces", "orientation"[, "orientationMod"]}},
//    "cli_pattern": {...}}
// For build "pg" the puzzle is getPuzzleGeometryByName(name, {allMoves}) --
// PuzzleGeometry's command-line defaults when all_moves is false (the helper
// itself defaults to allMoves: true, so false is passed explicitly; every
// other option keeps its PuzzleGeometryFullOptions default, in particular
// optimizeOrbits: false). The alg uses the definition's own (PG internal)
// move names.
//   "pattern": KPuzzle(pg.getKPuzzleDefinition(true)) -- the definition
//     cubing.js hands to KPuzzle users: every orbit, identity solved state.
//   "cli_pattern": KPuzzle(pg.getKPuzzleDefinition(false)) -- the definition
//     behind the command line's ksolve/tws output: only orbits some move
//     changes, and a solved state whose piece values are PG's cubie values
//     (identical pieces share a value). The moves are the same transformations.
// Lines with "notation": true and "build": "cubing-puzzles" come from the
// puzzles registry (puzzles[id].kpuzzle() from "cubing/puzzles"), with the
// community notation its users type; "puzzle_id" is the registry id and
// "pattern" the only pattern (there is no cli_pattern); "all_moves" is
// nominal there and "source" says how the registry builds the puzzle.
// Lines with "build": "pg-twizzle" are puzzles the registry does not have,
// built the way it builds its PuzzleGeometry puzzles and read through
// PGNotation (see the end of this script and the README).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const modulesDir = process.argv[2] ?? (process.env.NODE_PATH ?? "").split(path.delimiter).find((d) => d);
if (!modulesDir) {
  console.error("usage: node generate.mjs NODE_MODULES_DIR [OUTPUT] (or set NODE_PATH)");
  process.exit(2);
}
const outFile = process.argv[3] ?? path.join(here, "vectors.jsonl");

const pkgDir = path.join(path.resolve(modulesDir), "cubing");
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
if (pkg.version !== "0.63.4") {
  console.error(`expected cubing 0.63.4, found ${pkg.version}`);
  process.exit(2);
}
const load = (sub) => import(pathToFileURL(path.join(pkgDir, pkg.exports[`./${sub}`].import)).href);
const { getPuzzleGeometryByName, getPG3DNamedPuzzles } = await load("puzzle-geometry");
const { KPuzzle } = await load("kpuzzle");
const { puzzles } = await load("puzzles");

// Deterministic generator (mulberry32) seeded from a string.
function rng(seedText) {
  let seed = 0;
  for (const ch of seedText) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function amountSuffix(a) {
  if (a === 1) return "";
  if (a === -1) return "'";
  return a < 0 ? `${-a}'` : `${a}`;
}

// A random sequence of `count` moves from the definition's own move names,
// each with an amount that is not a multiple of the move's order.
function randomAlg(kpuzzle, rand, count) {
  const names = Object.keys(kpuzzle.definition.moves);
  const order = Object.fromEntries(names.map((m) => [m, kpuzzle.moveToTransformation(m).repetitionOrder()]));
  const out = [];
  for (let i = 0; i < count; i++) {
    const m = names[Math.floor(rand() * names.length)];
    const n = order[m];
    let amounts = [1, -1, 2, -2].filter((a) => Math.abs(a) < n || n === 1);
    if (n > 3 && rand() < 0.15) amounts = [3, -3, n - 1, n + 1].filter((a) => a % n !== 0);
    const a = amounts[Math.floor(rand() * amounts.length)];
    out.push(m + amountSuffix(a));
  }
  return out.join(" ");
}

function patternData(kpuzzle, alg) {
  const data = kpuzzle.defaultPattern().applyAlg(alg).patternData;
  const out = {};
  for (const o of kpuzzle.definition.orbits) {
    const d = data[o.orbitName];
    const e = { pieces: [...d.pieces], orientation: [...d.orientation] };
    if (d.orientationMod) e.orientationMod = [...d.orientationMod];
    out[o.orbitName] = e;
  }
  return out;
}

// Every PuzzleGeometry name except the very large ones (13x13x13 and up,
// and the minxes above gigaminx), which would make the file too big.
const skip = new Set([
  "13x13x13", "20x20x20", "30x30x30", "40x40x40",
  "teraminx", "petaminx", "examinx", "zetaminx", "yottaminx",
]);
const names = Object.keys(getPG3DNamedPuzzles()).filter((n) => !skip.has(n));

const lines = [];
for (const name of names) {
  for (const allMoves of [false, true]) {
    const pg = getPuzzleGeometryByName(name, { allMoves });
    const kp = new KPuzzle(pg.getKPuzzleDefinition(true));
    const kpCli = new KPuzzle(pg.getKPuzzleDefinition(false));
    const rand = rng(`${name}/${allMoves}`);
    const algs = ["", Object.keys(kp.definition.moves)[0], randomAlg(kp, rand, 8), randomAlg(kp, rand, 25)];
    for (const alg of algs) {
      lines.push({
        name, all_moves: allMoves, build: "pg", alg,
        pattern: patternData(kp, alg),
        cli_pattern: patternData(kpCli, alg),
      });
    }
  }
}

// Community notation through the puzzles registry. The first alg of each is
// written by hand; the second is drawn from the listed words.
const faces = ["R", "L", "U", "D", "F", "B"];
const notation = {
  "2x2x2": { name: "2x2x2", first: "R U R' U' x y' z2", words: [...faces, "x", "y", "z"] },
  "3x3x3": { name: "3x3x3", first: "R U R' U' M2 x y'",
    words: [...faces, ..."rludfb", "M", "E", "S", "x", "y", "z", "Rw", "Uw", "2R", "2-3Rw"] },
  "4x4x4": { name: "4x4x4", first: "Rw U2 r' 2L 3Uw' x y'",
    words: [...faces, ..."rludfb", "Rw", "Fw", "3Rw", "2U", "3U", "m", "x", "y", "z"] },
  "5x5x5": { name: "5x5x5", first: "Rw U2 3r' M 2-3Lw x",
    words: [...faces, ..."rludfb", "Rw", "3Rw", "2U", "3U", "M", "E", "S", "x", "y", "z"] },
  "6x6x6": { name: "6x6x6", first: "3Rw U2 3r' 2L x",
    words: [...faces, "Rw", "3Rw", "3Uw", "2F", "3D", "x", "y", "z"] },
  "7x7x7": { name: "7x7x7", first: "3Rw U2 4r' 2L M x",
    words: [...faces, "Rw", "3Rw", "3Uw", "2F", "4D", "M", "x", "y", "z"] },
  megaminx: { name: "megaminx", first: "R++ D-- U R-- D++ U'",
    words: ["R++", "R--", "D++", "D--", "U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D"] },
  pyraminx: { name: "pyraminx", first: "U L R B u l r b",
    words: ["U", "L", "R", "B", "u", "l", "r", "b", "y"] },
  skewb: { name: "skewb", first: "R U L B", words: ["R", "U", "L", "B", "x", "y"] },
  fto: { name: "FTO", first: "F U R L B BR BL D", words: ["F", "U", "R", "L", "B", "BR", "BL", "D", "T"] },
  gigaminx: { name: "gigaminx", first: "R U 2R' r F", words: ["U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D", "2R", "2U"] },
  master_tetraminx: { name: "master tetraminx", first: "U L R B u l r b",
    words: ["U", "L", "R", "B", "u", "l", "r", "b", "2U", "2R"] },
  kilominx: { name: "kilominx", first: "R U F' L BR", words: ["U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D"] },
  redi_cube: { name: "redi_cube", first: "R L' x R' L", words: ["R", "L", "x"] },
  baby_fto: { name: "skewb diamond", first: "U L F R B'", words: ["U", "L", "F", "R", "D", "B", "BL", "BR"] },
};
// How the registry makes each of these KPuzzles (facts about cubing.js
// 0.63.4, recorded in each line as "source").
const twizzlePG = "PuzzleGeometry {allMoves, orientCenters, addRotations}, getKPuzzleDefinition(true), renamed by the notation mapper";
const source = {
  "2x2x2": "hand-written definition",
  "3x3x3": "hand-written definition",
  "4x4x4": `${twizzlePG}; CENTERS solved pieces set to 0,4,8,12,16,20 (four each)`,
  "5x5x5": `${twizzlePG}; CENTERS and CENTERS2 solved pieces set to 0,4,8,12,16,20 (four each); CENTERS3 orientationMod 1`,
  kilominx: `description "d f 0.56", ${twizzlePG}, includeCenterOrbits and includeEdgeOrbits false`,
  redi_cube: "hand-written definition",
  baby_fto: `"skewb diamond", ${twizzlePG}; CENTERS orientationMod 1`,
};
for (const [id, spec] of Object.entries(notation)) {
  const kp = await puzzles[id].kpuzzle();
  const ok = spec.words.filter((w) => {
    try { kp.algToTransformation(w); return true; } catch { return false; }
  });
  const rand = rng(`notation/${id}`);
  const seq = [];
  for (let i = 0; i < 12; i++) {
    const w = ok[Math.floor(rand() * ok.length)];
    const amt = w.endsWith("++") || w.endsWith("--") ? "" : ["", "'", "2", "2'"][Math.floor(rand() * 4)];
    seq.push(w + amt);
  }
  for (const alg of [spec.first, seq.join(" ")]) {
    lines.push({
      name: spec.name, puzzle_id: id, all_moves: true, build: "cubing-puzzles", notation: true,
      source: source[id] ?? `"${spec.name}", ${twizzlePG}`, alg,
      pattern: patternData(kp, alg),
    });
  }
}

// Whole-puzzle rotations by themselves and among turns, through the
// registry: the skewb's SiGN rotations (its notation mapper sends x y z to
// the cube's face rotations Rv Uv Fv) and the FTO's T (a corner rotation).
const rotationAlgs = {
  skewb: ["x", "y", "z", "x2 y'", "x y x'", "R x U' z2 L y' B", "x' Rv z Fv y' ULv"],
  fto: ["T", "T' F T2 U'", "T2 Rv T' BLv"],
};
for (const [id, algs] of Object.entries(rotationAlgs)) {
  const kp = await puzzles[id].kpuzzle();
  for (const alg of algs) {
    lines.push({
      name: notation[id].name, puzzle_id: id, all_moves: true, build: "cubing-puzzles", notation: true,
      source: source[id] ?? `"${notation[id].name}", ${twizzlePG}`, alg,
      pattern: patternData(kp, alg),
    });
  }
}

// Puzzles the registry does not have, built as it builds its PuzzleGeometry
// puzzles (allMoves, orientCenters, addRotations; the twisty definition,
// renamed by the notation mapper, read through PGNotation). These have no
// community notation (PuzzleGeometry's NullMapper): algs use the
// definition's own move names and face rotations such as Rv, which
// cubing.js accepts about every face of the solid although it rejects
// x y z here. Lines: "build": "pg-twizzle".
const { ExperimentalPGNotation } = await load("puzzle-geometry");
const rotationPuzzles = {
  dino: "Rv Uv' Fv2",
  helicopter: "Rv Uv' Fv2",
  "little chop": "Rv Uv' Fv2",
  "master skewb": "Rv Uv' Fv2",
  "compy cube": "Rv Uv' Fv2",
  pyramorphix: "Rv Fv' Dv",
  mastermorphix: "Rv Fv' Dv",
  "skewb diamond": "Rv Uv' BLv",
};
for (const [name, rotations] of Object.entries(rotationPuzzles)) {
  const pg = getPuzzleGeometryByName(name, { allMoves: true, orientCenters: true, addRotations: true });
  const pgn = new ExperimentalPGNotation(pg, pg.getOrbitsDef(true));
  const kp = new KPuzzle(pgn.remapKPuzzleDefinition(pg.getKPuzzleDefinition(true)), {
    experimentalPGNotation: pgn,
  });
  // Turns only (rotations are named ...v): rotations are added by hand.
  const turns = Object.keys(kp.definition.moves).filter((m) => !m.endsWith("v"));
  const rand = rng(`pg-twizzle/${name}`);
  const seq = [];
  for (let i = 0; i < 10; i++) {
    const w = turns[Math.floor(rand() * turns.length)];
    seq.push(w + ["", "'"][Math.floor(rand() * 2)]);
  }
  const mixed = [...seq.slice(0, 4), rotations.split(" ")[0], ...seq.slice(4, 8), rotations.split(" ")[1]];
  for (const alg of [rotations, mixed.join(" ")]) {
    lines.push({
      name, all_moves: true, build: "pg-twizzle", notation: true,
      source: `"${name}", ${twizzlePG}, PGNotation`, alg,
      pattern: patternData(kp, alg),
    });
  }
}

fs.writeFileSync(outFile, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
console.error(`${lines.length} vectors -> ${outFile}`);
