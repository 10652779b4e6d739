// Test vectors for the alg reader and printer: whether cubing.js 0.63.4
// accepts each alg below, and if so how it prints it and its inverse.
// Written as alg-syntax.jsonl beside this script; read by
// tests/alg_syntax.rs.
//
//   mkdir -p /tmp/cubingjs && (cd /tmp/cubingjs && npm init -y && npm install cubing@0.63.4)
//   node crates/formats/tests/data/alg-syntax.mjs /tmp/cubingjs/node_modules
//
// Each line: {"alg": TEXT, "ok": bool, "string": Alg.toString(),
// "invert": alg.invert().toString(), "error": the message when not ok}.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const modulesDir = process.argv[2] ?? (process.env.NODE_PATH ?? "").split(path.delimiter).find((d) => d);
if (!modulesDir) {
  console.error("usage: node alg-syntax.mjs NODE_MODULES_DIR (or set NODE_PATH)");
  process.exit(2);
}
const pkgDir = path.join(path.resolve(modulesDir), "cubing");
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
if (pkg.version !== "0.63.4") {
  console.error(`expected cubing 0.63.4, found ${pkg.version}`);
  process.exit(2);
}
const { Alg } = await import(pathToFileURL(path.join(pkgDir, pkg.exports["./alg"].import)).href);

const algs = [
  // Moves and amounts.
  "R", "R'", "R2", "R2'", "R3", "R0", "R10", "R-1", "R-2", "R'2", "R2''", "R''",
  "U D", "U  D", "  U D  ", "U\tD", "U\r\nD", "U\nD", "U\n\nD", "U\u00a0D", "U’", "U′",
  // Layers, wide moves, slices, rotations.
  "Rw", "Rw'", "Rw2", "r", "r'", "2R", "3R2", "2Rw", "3Rw'", "2-3Rw", "3-2Rw", "2-2Rw",
  "1-1R", "1-2Rw", "2-3r", "0R", "0Rw", "M", "M'", "E2", "S", "x", "y'", "z2", "Uv", "2x",
  "BLw", "2BLw", "DBR", "R_PLUSPLUS_",
  // Megaminx.
  "R++", "R--", "D++ D--", "R+", "R+++", "U++",
  // Groupings, commutators, conjugates.
  "(R U)", "(R U)2", "(R U)'", "(R U)2'", "(R U)-2", "((R U)2 F)3", "()", "(R", "R)",
  "[R, U]", "[R: U]", "[R, U]2", "[R, U]'", "[[R: U], D]", "[R: [U, D]]", "[, U]", "[R,]",
  "[R:]", "[:]", "[,]", "[R, U, F]", "[R U, F]", "[ R , U ]", "[R:U]", "[R,U]",
  // Pauses and comments.
  ".", "R . U", "R...U", "R // comment", "// only a comment", "R // c\nU",
  "R /* block */ U", "R // c\n// d\nU", "R U // c\nF D",
  // Square-1 and clock.
  "(1, 0)", "(1,0) / (-3, 3) /", "/", "(0,0)", "(1, 0)2", "(-1,-2) /",
  "UR1+", "UR1-", "ALL3+", "UR3+ DL2- y2 U4+", "UR0+", "UR12+", "UR13+", "UR+", "UR1",
  // Odd inputs.
  "R U R' U'", "R U R’ U’", "RU", "R'U", "R2U", "R U2'", "R 2", "R'’", "[R, U]]",
  "", " ", "\n", "R\n", "R //", "R U)",
];

const out = [];
for (const alg of algs) {
  try {
    const a = new Alg(alg);
    out.push({ alg, ok: true, string: a.toString(), invert: a.invert().toString() });
  } catch (e) {
    out.push({ alg, ok: false, error: String(e.message ?? e) });
  }
}
fs.writeFileSync(path.join(here, "alg-syntax.jsonl"), out.map((o) => JSON.stringify(o)).join("\n") + "\n");
console.error(`${out.length} algs, ${out.filter((o) => o.ok).length} accepted`);
