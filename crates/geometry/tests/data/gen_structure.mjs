// Records the structure of cubing.js's 72 named PuzzleGeometry puzzles as
// test expectations for twistor-geometry (tests/named.rs).
//
// Regenerate (outside the repository; needs node and the cubing package):
//   mkdir -p /tmp/cubingjs && cd /tmp/cubingjs && npm install cubing@0.63.4
//   cp <repo>/crates/geometry/tests/data/gen_structure.mjs . && node gen_structure.mjs \
//     > <repo>/crates/geometry/tests/data/structure_cubingjs.jsonl
//
// For each puzzle, with PuzzleGeometry's command-line defaults ("default")
// and with all moves ("all"), as its ksolve output defines it (orbits some
// move touches):
//   {"puzzle", "config", "orbits": [[pieces, orientations], ...],
//    "moves": [[FINGERPRINT, [NAME, ...]], ...], "product_order"}
// A move's fingerprint lists, for every orbit it changes,
// "pieces/orientations:len.twist,len.twist,...", sorted; it does not depend
// on orbit names or piece numbering. product_order is the order of all
// moves done once each in sorted name order.
import { getPuzzleGeometryByName, getPG3DNamedPuzzles } from "cubing/puzzle-geometry";

function cycles(n, m, p, o) {
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

function fingerprint(od, t) {
  const data = od.toKTransformationData(t);
  const parts = [];
  od.orbitnames.forEach((name, i) => {
    const def = od.orbitdefs[i];
    const c = cycles(def.size, def.mod, data[name].permutation, data[name].orientationDelta);
    if (c.length) parts.push(`${def.size}/${def.mod}:${c.map(x => x.join(".")).join(",")}`);
  });
  return parts.sort().join(";");
}

function bgcd(a, b) { while (b) { [a, b] = [b, a % b]; } return a; }
function lcm(a, b) { return (a / bgcd(a, b)) * b; }

for (const name of Object.keys(getPG3DNamedPuzzles())) {
  for (const [config, options] of [["default", { allMoves: false }], ["all", { allMoves: true }]]) {
    const pg = getPuzzleGeometryByName(name, options);
    const od = pg.getOrbitsDef(false);
    // Moves grouped by fingerprint (symmetric moves share one).
    const groups = new Map();
    od.movenames.forEach((m, i) => {
      const f = fingerprint(od, od.moveops[i]);
      if (!groups.has(f)) groups.set(f, []);
      groups.get(f).push(m);
    });
    const moves = [...groups.entries()];
    const sorted = od.movenames.map((m, i) => [m, i]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    let t = od.moveops[sorted[0][1]];
    for (const [, i] of sorted.slice(1)) t = t.mul(od.moveops[i]);
    let ord = 1n;
    const data = od.toKTransformationData(t);
    od.orbitnames.forEach((n, i) => {
      const def = od.orbitdefs[i];
      for (const [len, tw] of cycles(def.size, def.mod, data[n].permutation, data[n].orientationDelta)) {
        ord = lcm(ord, BigInt(len * (def.mod / bgcd(tw, def.mod))));
      }
    });
    console.log(JSON.stringify({
      puzzle: name, config,
      orbits: od.orbitdefs.map(d => [d.size, d.mod]),
      moves, product_order: String(ord),
    }));
  }
}
