// twistor serve: the 3D view. A puzzle from /api/geometry (stickers as
// polygons in space, axes) drawn on a 2D canvas: each sticker projected,
// shaded by how squarely it faces the light, far ones first. A move is
// animated by turning its stickers about its axis; the colours of each
// position come from /api/apply. No library: the puzzles are a few
// thousand polygons at most, which a canvas draws well within a frame.
"use strict";

// Vectors are [x, y, z]; matrices are rows [[..], [..], [..]].
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a, k) => [a[0] * k, a[1] * k, a[2] * k];
const norm = (a) => Math.hypot(a[0], a[1], a[2]);
const unit = (a) => scale(a, 1 / (norm(a) || 1));
const mulMV = (m, v) => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
function mulMM(a, b) {
  const bt = [[b[0][0], b[1][0], b[2][0]], [b[0][1], b[1][1], b[2][1]], [b[0][2], b[1][2], b[2][2]]];
  return a.map((row) => bt.map((col) => dot(row, col)));
}
// The rotation by `angle` counterclockwise about the unit vector `k`
// (right-hand rule), as a matrix (Rodrigues).
function rotation(k, angle) {
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  const [x, y, z] = k;
  return [
    [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
    [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
    [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
  ];
}

function hexRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

// How bright a sticker facing the viewer squarely is drawn, and how much
// of its colour comes from facing the light: bright enough that white,
// yellow and grey stay apart at any angle.
const AMBIENT = 0.62;
const DIFFUSE = 0.38;
const LIGHT = unit([-0.35, 0.6, 1]);
// The eye's distance from the centre, in puzzle radii.
const EYE = 5;

class PuzzleView {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.stickers = [];
    this.colors = [];
    this.pose = null; // { parts: [{axis, slices, angle}], fraction }
    this.drawn = [];
    this.frames = 0;
    this.orientation = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    this.dragging = null;
    canvas.addEventListener("pointerdown", (e) => {
      this.dragging = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!this.dragging) return;
      const dx = e.clientX - this.dragging.x, dy = e.clientY - this.dragging.y;
      this.dragging = { x: e.clientX, y: e.clientY };
      const k = 4 / Math.max(120, this.canvas.clientWidth);
      this.turnView(dx * k, dy * k);
    });
    const stop = () => { this.dragging = null; };
    canvas.addEventListener("pointerup", stop);
    canvas.addEventListener("pointercancel", stop);
    new ResizeObserver(() => this.render()).observe(canvas);
  }

  // Takes a puzzle from /api/geometry.
  load(geometry) {
    this.faces = geometry.faces.map((f) => ({ name: f.name, rgb: hexRgb(f.color) }));
    this.axes = geometry.axes.map((a) => ({ normal: unit(a.normal), order: a.order }));
    this.stickers = geometry.stickers.map((s) => {
      const pts = s.points;
      const n = pts.length;
      const centre = scale(pts.reduce((a, p) => [a[0] + p[0], a[1] + p[1], a[2] + p[2]], [0, 0, 0]), 1 / n);
      let normal = unit(cross(sub(pts[1], pts[0]), sub(pts[2], pts[0])));
      if (dot(normal, centre) < 0) normal = scale(normal, -1);
      return { id: s.id, face: s.face, points: pts, slices: s.slices, centre, normal };
    });
    this.radius = Math.max(...this.stickers.flatMap((s) => s.points.map(norm)), 1e-9);
    // The gap between stickers: a share of a typical sticker's size.
    const sizes = this.stickers.map((s) => Math.sqrt(area(s.points)));
    sizes.sort((a, b) => a - b);
    this.stickerSize = sizes[Math.floor(sizes.length / 2)] || 1;
    this.colors = this.stickers.map((s) => s.face);
    this.pose = null;
    this.orientation = this.homeOrientation();
    this.render();
  }

  // Held as people hold it: U up and F in front where the puzzle has
  // them (D down on the pyraminx), turned to show the right side too.
  homeOrientation() {
    const face = (n) => this.faces.findIndex((f) => f.name === n);
    const normalOf = (i) => {
      const s = this.stickers.filter((t) => t.face === i);
      return unit(s.reduce((a, t) => [a[0] + t.normal[0], a[1] + t.normal[1], a[2] + t.normal[2]], [0, 0, 0]));
    };
    let up = face("U") >= 0 ? normalOf(face("U")) : face("D") >= 0 ? scale(normalOf(face("D")), -1) : [0, 1, 0];
    let front = face("F") >= 0 ? normalOf(face("F")) : [0, 0, 1];
    front = unit(sub(front, scale(up, dot(front, up))));
    if (norm(front) < 0.5 || !isFinite(front[0])) front = unit(cross(up, Math.abs(up[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
    // PuzzleGeometry's coordinates are mirrored against its names (R is
    // on the side of F × U), so the view mirrors them back: the puzzle is
    // seen as it is named, and its turns turn the way they are named.
    const right = cross(front, up);
    const held = [right, up, front];
    // Turned to show the right side as well (less so a tetrahedron, which
    // would then show mostly its right face).
    const yaw = this.faces.length === 4 ? -0.4 : -0.6;
    const pitch = this.faces.length === 4 ? 0.3 : 0.45;
    return mulMM(mulMM(rotation([1, 0, 0], pitch), rotation([0, 1, 0], yaw)), held);
  }

  turnView(dx, dy) {
    this.orientation = mulMM(mulMM(rotation([1, 0, 0], dy), rotation([0, 1, 0], dx)), this.orientation);
    this.render();
  }

  setColors(colors) {
    this.colors = colors;
    this.render();
  }

  // Turns the stickers of `parts` by `fraction` of their angle (0 at rest).
  setPose(parts, fraction) {
    this.pose = parts && fraction !== 0 ? { parts, fraction } : null;
    this.render();
  }

  // The matrix taking sticker `i` from the puzzle's coordinates to the
  // view's: the orientation, after the turn of the part it is in, if any.
  // `turned` keeps each part's product, so a frame computes it once.
  viewMatrix(i, turned) {
    if (!this.pose) return this.orientation;
    const s = this.stickers[i];
    const p = this.pose.parts.find((q) => q.slices.includes(s.slices[q.axis]));
    if (!p) return this.orientation;
    let m = turned.get(p);
    if (!m) {
      m = mulMM(this.orientation, rotation(this.axes[p.axis].normal, p.angle * this.pose.fraction));
      turned.set(p, m);
    }
    return m;
  }

  // Whether a face at `centre` with `normal` (view coordinates) faces
  // the eye.
  facing(centre, normal) {
    return dot(normal, sub([0, 0, EYE * this.radius], centre)) > 0;
  }

  // How bright a face with `normal` (view coordinates) is drawn.
  shade(normal) {
    return AMBIENT + DIFFUSE * Math.max(0, dot(normal, LIGHT));
  }

  // The screen transform: canvas pixels from view coordinates.
  screen() {
    const w = this.canvas.width, h = this.canvas.height;
    const f = (Math.min(w, h) / 2) * 0.9 / this.radius * (EYE - 1) / EYE;
    return (v) => {
      const k = (EYE * this.radius) / (EYE * this.radius - v[2]);
      return [w / 2 + v[0] * f * k, h / 2 - v[1] * f * k];
    };
  }

  // Where sticker `i`'s centre is drawn (canvas pixels), whether it faces
  // the viewer, and the brightness it is drawn with.
  probe(i) {
    const s = this.stickers[i];
    const m = this.viewMatrix(i, new Map());
    const c = mulMV(m, s.centre), n = mulMV(m, s.normal);
    const [x, y] = this.screen()(c);
    return { x, y, facing: this.facing(c, n), shade: this.shade(n) };
  }

  render() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.draw(); });
  }

  draw() {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(c.clientWidth * dpr), h = Math.round(c.clientHeight * dpr);
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    const ctx = this.ctx;
    ctx.clearRect(0, 0, w, h);
    if (!this.stickers.length) return;
    const project = this.screen();
    const polys = [];
    const turned = new Map();
    for (let i = 0; i < this.stickers.length; i++) {
      const s = this.stickers[i];
      const m = this.viewMatrix(i, turned);
      const centre = mulMV(m, s.centre), normal = mulMV(m, s.normal);
      const facing = this.facing(centre, normal);
      polys.push({ i, depth: centre[2], facing, normal, pts: s.points.map((p) => project(mulMV(m, p))) });
    }
    // Backs first (on a convex puzzle none covers a sticker that faces
    // the viewer), then the faces, far ones first.
    polys.sort((a, b) => a.facing - b.facing || a.depth - b.depth);
    const px = project([this.stickerSize, 0, 0])[0] - project([0, 0, 0])[0];
    const gap = Math.max(0.6, Math.min(3 * dpr, px * 0.07));
    ctx.lineJoin = "round";
    ctx.lineWidth = gap;
    ctx.strokeStyle = "#111";
    this.drawn = [];
    for (const p of polys) {
      ctx.beginPath();
      ctx.moveTo(p.pts[0][0], p.pts[0][1]);
      for (let k = 1; k < p.pts.length; k++) ctx.lineTo(p.pts[k][0], p.pts[k][1]);
      ctx.closePath();
      if (p.facing) {
        const face = this.colors[p.i];
        const rgb = face === null || face === undefined ? [128, 128, 128] : this.faces[face].rgb;
        const shade = this.shade(p.normal);
        ctx.fillStyle = `rgb(${Math.round(rgb[0] * shade)},${Math.round(rgb[1] * shade)},${Math.round(rgb[2] * shade)})`;
        this.drawn.push(p.i);
      } else {
        ctx.fillStyle = "#1a1a1a"; // a sticker's back: the plastic seen through a turning layer
      }
      ctx.fill();
      ctx.stroke();
    }
    this.frames++;
  }
}

// The area of a planar polygon in space.
function area(pts) {
  let a = [0, 0, 0];
  for (let k = 1; k + 1 < pts.length; k++) {
    const c = cross(sub(pts[k], pts[0]), sub(pts[k + 1], pts[0]));
    a = [a[0] + c[0], a[1] + c[1], a[2] + c[2]];
  }
  return norm(a) / 2;
}

window.PuzzleView = PuzzleView;
