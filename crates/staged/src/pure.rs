//! Pure operations and the setups that aim them: a library per orbit of
//! the 3-cycles and 2-twists [`crate::ops`] finds, each aimable at any
//! slots its setups reach.
//!
//! A found 3-cycle `x → y → z` is aimed at slots `t → s → u` by a setup
//! `S` taking `t, s, u` to `x, y, z`: `S`, the cycle, then `S'`. Setups
//! come from a breadth-first search over ordered triples of the orbit's
//! slots, once per operation (a 2-twist's triple repeats its second
//! slot); the cheapest cycle and setup for every triple is kept
//! ([`OrbitLibrary::cost`]).

use rayon::prelude::*;

use crate::model::Model;

/// Most slots an orbit may have for the triple search (`n³` states).
pub(crate) const MAX_ORBIT: usize = 64;
/// Moves longer than the shortest an aimed cycle may be and still be
/// offered ([`OrbitLibrary::aim_all`]).
const AIM_SLACK: usize = 2;

/// What a pure operation does to its orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpKind {
    /// The piece in `slots[0]` goes to `slots[1]` gaining `twist[0]`, and
    /// so on round.
    Cycle,
    /// The pieces in `slots[0]` and `slots[1]` (`slots[2]` repeats it)
    /// stay, gaining `twist[0]` and `twist[1]`.
    Twist,
}

/// A sequence that cycles three slots of one orbit, or twists two, and
/// changes nothing else that counts.
#[derive(Clone, Debug)]
pub(crate) struct PureOp {
    pub moves: Vec<usize>,
    pub kind: OpKind,
    pub slots: [u16; 3],
    pub twist: [u8; 3],
    /// Whether it exchanges pieces alike in a kept orbit: harmless as
    /// found, but only setups whose moves carry pieces of one id onto
    /// slots of one id keep it harmless.
    pub exchanges: bool,
}

/// The pure 3-cycles of one orbit and their setups.
pub(crate) struct OrbitLibrary {
    pub orbit: usize,
    n: usize,
    oris: u8,
    /// The moves that turn the orbit.
    moves: Vec<usize>,
    /// Per move of `moves`: local slot → local slot, and the twist gained.
    local: Vec<(Vec<u16>, Vec<u8>)>,
    /// Per move of `moves`: whether it may set up an operation that
    /// exchanges pieces alike.
    keeps_alike: Vec<bool>,
    pub ops: Vec<PureOp>,
    /// Per operation: which of `setups` serves it, and where each of its
    /// slots stands in that search's start triple.
    setup_of: Vec<(usize, [u8; 3])>,
    /// Setup searches, one per start triple up to the order of its slots
    /// (a cycle, its inverse and its rotations share one): distance and
    /// last move (index into `moves`) of every ordered triple, `u8::MAX`
    /// where unreachable.
    setups: Vec<Setups>,
    /// Per ordered triple: the cheapest (cycle, cost), if any.
    best: Vec<Option<(u16, u16)>>,
}

/// One breadth-first search over ordered triples: the moves `S` with
/// `S` taking its start triple to each triple, as distance and last move.
struct Setups {
    dist: Vec<u8>,
    last: Vec<u16>,
}

/// The moves a setup search may make (only those keeping pieces alike
/// together, for operations that exchange such pieces), prepared for it:
/// the usable moves (indices into the library's `moves`), each one's slot
/// images scaled to the three places of a triple index, and the usable
/// move undoing each (`None` unless every one has one).
struct TripleMoves {
    usable: Vec<usize>,
    scaled: Vec<u32>,
    undo: Option<Vec<usize>>,
}

/// An operation aimed at slots: the whole sequence and what it does to
/// their pieces (the one leaving, or staying in, `slots[i]` gains
/// `twist[i]`).
#[derive(Clone, Debug)]
pub(crate) struct Aimed {
    pub moves: Vec<usize>,
    pub kind: OpKind,
    pub slots: [u16; 3],
    pub twist: [u8; 3],
}

impl OrbitLibrary {
    /// The library of `ops` (3-cycles and 2-twists of `orbit`, found by
    /// [`crate::ops::find_ops`]): each with its inverse and its setups.
    /// `None` when there are none or the orbit is too big for setups.
    /// `keeps_alike` says, per move of the model, whether it carries pieces
    /// of one id onto slots of one id in every orbit of pieces alike (the
    /// moves that may set up an operation that [`PureOp::exchanges`]).
    pub fn new(
        model: &Model,
        orbit: usize,
        moves: &[usize],
        keeps_alike: &[bool],
        mut found: Vec<PureOp>,
    ) -> Option<OrbitLibrary> {
        let n = model.size[orbit];
        if found.is_empty() || !(2..=MAX_ORBIT).contains(&n) {
            return None;
        }
        let base = model.base[orbit];
        let touching: Vec<usize> = moves
            .iter()
            .copied()
            .filter(|&m| {
                model.moves[m]
                    .support
                    .iter()
                    .any(|&s| model.orbit_of[s as usize] as usize == orbit)
            })
            .collect();
        // Each operation's inverse: a cycle the other way round, a twist
        // the other way.
        let inverses: Vec<PureOp> = found
            .iter()
            .map(|c| {
                let moves = model.inverse(&c.moves);
                let o = model.oris[orbit];
                let neg = |t: u8| (o - t % o) % o;
                match c.kind {
                    OpKind::Cycle => PureOp {
                        moves,
                        kind: OpKind::Cycle,
                        slots: [c.slots[0], c.slots[2], c.slots[1]],
                        twist: [neg(c.twist[2]), neg(c.twist[1]), neg(c.twist[0])],
                        exchanges: c.exchanges,
                    },
                    OpKind::Twist => PureOp {
                        moves,
                        kind: OpKind::Twist,
                        slots: c.slots,
                        twist: [neg(c.twist[0]), neg(c.twist[1]), 0],
                        exchanges: c.exchanges,
                    },
                }
            })
            .collect();
        found.extend(inverses);
        let local = touching
            .iter()
            .map(|&m| {
                let mv = &model.moves[m];
                let dest = (0..n)
                    .map(|s| (mv.dest[base + s] as usize - base) as u16)
                    .collect();
                let twist = (0..n).map(|s| mv.twist[base + s]).collect();
                (dest, twist)
            })
            .collect();
        let keeps_alike = touching.iter().map(|&m| keeps_alike[m]).collect();
        let library = OrbitLibrary {
            orbit,
            n,
            oris: model.oris[orbit],
            moves: touching,
            local,
            keeps_alike,
            ops: found,
            setup_of: Vec::new(),
            setups: Vec::new(),
            best: Vec::new(),
        };
        // Setups are searched when the library is first used.
        Some(library)
    }

    /// Computes the setups (again, after [`OrbitLibrary::release`]).
    pub fn prepare(&mut self) {
        if !self.setups.is_empty() {
            return;
        }
        let n = self.n;
        // A 3-cycle's setups serve every cycle over the same three slots:
        // a setup taking (x, y, z) to (t, s, u) takes (y, z, x) to
        // (s, u, t). A 2-twist's repeated slot is kept as it is.
        // Which searches are needed is known from the operations alone:
        // each is a (kind, start) no earlier one serves.
        let mut starts: Vec<(bool, [u16; 3])> = Vec::new();
        let mut setup_of = Vec::with_capacity(self.ops.len());
        for op in &self.ops {
            let keeping_alike = op.exchanges;
            let place = |start: &[u16; 3]| -> Option<[u8; 3]> {
                match op.kind {
                    OpKind::Twist => (*start == op.slots).then_some([0, 1, 2]),
                    OpKind::Cycle => {
                        let at = op
                            .slots
                            .map(|x| start.iter().position(|&y| y == x).map(|i| i as u8));
                        let [Some(a), Some(b), Some(c)] = at else {
                            return None;
                        };
                        Some([a, b, c])
                    }
                }
            };
            let found = starts.iter().enumerate().find_map(|(i, (alike, start))| {
                (*alike == keeping_alike)
                    .then(|| place(start).map(|p| (i, p)))
                    .flatten()
            });
            let entry = found.unwrap_or_else(|| {
                starts.push((keeping_alike, op.slots));
                (starts.len() - 1, [0, 1, 2])
            });
            setup_of.push(entry);
        }
        // The moves' tables, once for each kind of operation present; the
        // searches, each a breadth-first search over every triple of
        // slots, on all cores (a gigaminx has 12 over 216,000 triples in
        // each of three orbits).
        let [all_moves, alike_moves] = [false, true].map(|keeping_alike| {
            (starts.iter())
                .any(|&(alike, _)| alike == keeping_alike)
                .then(|| self.triple_moves(keeping_alike))
        });
        let setups: Vec<Setups> = starts
            .par_iter()
            .map(|&(keeping_alike, start)| {
                let moves = if keeping_alike {
                    &alike_moves
                } else {
                    &all_moves
                };
                let moves = moves.as_ref().expect("made for every kind present");
                self.setup_search(moves, start)
            })
            .collect();
        self.setups = setups;
        self.setup_of = setup_of;
        self.best = (0..n * n * n)
            .into_par_iter()
            .map(|t| {
                let (a, b, u) = ((t / (n * n)) as u16, ((t / n) % n) as u16, (t % n) as u16);
                (0..self.ops.len())
                    .filter(|&c| self.ops[c].kind == OpKind::Cycle)
                    .filter_map(|c| {
                        let d = self.distance(c, a, b, u);
                        (d != u8::MAX)
                            .then(|| (c as u16, 2 * d as u16 + self.ops[c].moves.len() as u16))
                    })
                    .min_by_key(|&(c, cost)| (cost, c))
            })
            .collect();
    }

    /// Frees the setups, keeping the operations.
    pub fn release(&mut self) {
        self.setups = Vec::new();
        self.setup_of = Vec::new();
        self.best = Vec::new();
    }

    /// Bytes the setups hold.
    pub fn bytes(&self) -> u64 {
        let triples = self.best.len() as u64;
        triples * (4 + 3 * self.setups.len() as u64)
    }

    fn triple(&self, t: u16, s: u16, u: u16) -> usize {
        (t as usize * self.n + s as usize) * self.n + u as usize
    }

    /// Operation `c`'s target `t → s → u` as a triple of its setup search.
    fn setup_triple(&self, c: usize, t: u16, s: u16, u: u16) -> usize {
        let (_, at) = self.setup_of[c];
        let mut x = [0u16; 3];
        for (i, v) in [t, s, u].into_iter().enumerate() {
            x[at[i] as usize] = v;
        }
        self.triple(x[0], x[1], x[2])
    }

    /// The setup length aiming operation `c` at `t → s → u`.
    fn distance(&self, c: usize, t: u16, s: u16, u: u16) -> u8 {
        self.setups[self.setup_of[c].0].dist[self.setup_triple(c, t, s, u)]
    }

    /// The moves setups may use (only those keeping pieces alike together
    /// when `keeping_alike`), as [`OrbitLibrary::setup_search`] reads them.
    fn triple_moves(&self, keeping_alike: bool) -> TripleMoves {
        let n = self.n;
        let usable: Vec<usize> = (0..self.local.len())
            .filter(|&mi| !keeping_alike || self.keeps_alike[mi])
            .collect();
        let mut scaled = vec![0u32; usable.len() * 3 * n];
        for (k, &mi) in usable.iter().enumerate() {
            let dest = &self.local[mi].0;
            let row = &mut scaled[k * 3 * n..(k + 1) * 3 * n];
            for x in 0..n {
                let to = dest[x] as u32;
                row[x] = to * (n * n) as u32;
                row[n + x] = to * n as u32;
                row[2 * n + x] = to;
            }
        }
        let undo = usable
            .iter()
            .map(|&mi| {
                let dest = &self.local[mi].0;
                usable.iter().position(|&mj| {
                    let back = &self.local[mj].0;
                    (0..n).all(|x| back[dest[x] as usize] as usize == x)
                })
            })
            .collect();
        TripleMoves {
            usable,
            scaled,
            undo,
        }
    }

    /// Breadth-first over ordered triples from `start`, by `moves`.
    ///
    /// Levels are grown from the frontier while it is small and, once it
    /// is large, by asking each triple not yet reached whether some move
    /// leads back into the frontier (the later levels hold most triples,
    /// and most find a parent in a few tries). The second way needs each
    /// move's inverse among the moves, which face turns always provide.
    fn setup_search(&self, moves: &TripleMoves, start: [u16; 3]) -> Setups {
        let n = self.n;
        let size = n * n * n;
        let TripleMoves {
            usable,
            scaled,
            undo,
        } = moves;
        let image = |k: usize, a: usize, b: usize, u: usize| -> usize {
            let row = &scaled[k * 3 * n..(k + 1) * 3 * n];
            (row[a] + row[n + b] + row[2 * n + u]) as usize
        };
        let mut dist = vec![u8::MAX; size];
        let mut last = vec![0u16; size];
        let from = self.triple(start[0], start[1], start[2]);
        dist[from] = 0;
        let mut frontier = vec![from as u32];
        let mut unreached = size - 1;
        let mut d = 0u8;
        while !frontier.is_empty() && d < u8::MAX - 1 {
            let mut next = Vec::new();
            if let Some(undo) = undo.as_ref().filter(|_| frontier.len() * 8 > unreached) {
                for a in 0..n {
                    for b in 0..n {
                        for u in 0..n {
                            let t = (a * n + b) * n + u;
                            if dist[t] != u8::MAX {
                                continue;
                            }
                            let parent = (0..usable.len()).find(|&k| dist[image(k, a, b, u)] == d);
                            if let Some(k) = parent {
                                dist[t] = d + 1;
                                last[t] = usable[undo[k]] as u16;
                                next.push(t as u32);
                            }
                        }
                    }
                }
            } else {
                for &t in &frontier {
                    let t = t as usize;
                    let (a, b, u) = (t / (n * n), (t / n) % n, t % n);
                    for (k, &mi) in usable.iter().enumerate() {
                        let to = image(k, a, b, u);
                        if dist[to] == u8::MAX {
                            dist[to] = d + 1;
                            last[to] = mi as u16;
                            next.push(to as u32);
                        }
                    }
                }
            }
            unreached -= next.len();
            frontier = next;
            d += 1;
        }
        Setups { dist, last }
    }

    /// The cheapest cycle moving `t → s → u`, aimed, and its cost.
    pub fn cost(&self, t: u16, s: u16, u: u16) -> Option<u16> {
        self.best[self.triple(t, s, u)].map(|(_, cost)| cost)
    }

    /// Cycle `c` aimed at `t → s → u` (`None` if no setup reaches them).
    pub fn aim(&self, model: &Model, c: usize, t: u16, s: u16, u: u16) -> Option<Aimed> {
        let setups = &self.setups[self.setup_of[c].0];
        let (dist, last) = (&setups.dist, &setups.last);
        let mut at = self.setup_triple(c, t, s, u);
        if dist[at] == u8::MAX {
            return None;
        }
        // The path R from the cycle's slots to (t, s, u), read backwards.
        let mut r: Vec<usize> = Vec::new();
        let n = self.n;
        while dist[at] > 0 {
            let mi = last[at] as usize;
            r.push(self.moves[mi]);
            let inv = model.moves[self.moves[mi]].inverse;
            let back = &model.moves[inv];
            let base = model.base[self.orbit];
            let un = |x: usize| (back.dest[base + x] as usize - base) as u16;
            let (a, b, cc) = (at / (n * n), (at / n) % n, at % n);
            at = self.triple(un(a), un(b), un(cc));
        }
        r.reverse();
        // S = R', then the cycle, then R.
        let mut moves = model.inverse(&r);
        moves.extend_from_slice(&self.ops[c].moves);
        moves.extend_from_slice(&r);
        let kind = self.ops[c].kind;
        let slots = [t, s, u];
        let mut twist = self.twists_of(model, &moves, slots);
        if kind == OpKind::Twist {
            twist[2] = 0;
        }
        Some(Aimed {
            moves,
            kind,
            slots,
            twist,
        })
    }

    /// The cycles aimed at `t → s → u` within [`AIM_SLACK`] moves of the
    /// shortest: the choices among them differ in the twists they leave
    /// and in what they cancel with, and longer ones are seldom worth
    /// building (each aim writes out its whole sequence).
    pub fn aim_all(&self, model: &Model, t: u16, s: u16, u: u16) -> Vec<Aimed> {
        let lengths: Vec<(usize, usize)> = (0..self.ops.len())
            .filter(|&c| self.ops[c].kind == OpKind::Cycle)
            .filter_map(|c| {
                let d = self.distance(c, t, s, u);
                (d != u8::MAX).then(|| (c, 2 * d as usize + self.ops[c].moves.len()))
            })
            .collect();
        let Some(shortest) = lengths.iter().map(|&(_, len)| len).min() else {
            return Vec::new();
        };
        lengths
            .into_iter()
            .filter(|&(_, len)| len <= shortest + AIM_SLACK)
            .filter_map(|(c, _)| self.aim(model, c, t, s, u))
            .collect()
    }

    /// Every 2-twist aimed at slots `t` and `s`.
    pub fn aim_twists(&self, model: &Model, t: u16, s: u16) -> Vec<Aimed> {
        (0..self.ops.len())
            .filter(|&c| self.ops[c].kind == OpKind::Twist)
            .filter_map(|c| self.aim(model, c, t, s, s))
            .collect()
    }

    fn twists_of(&self, model: &Model, moves: &[usize], slots: [u16; 3]) -> [u8; 3] {
        let base = model.base[self.orbit];
        slots.map(|s| model.follow(moves, (base + s as usize) as u16).1 % self.oris)
    }

    /// Whether some cycle, set up, moves every three distinct slots that
    /// the moves connect (computing the setups).
    pub fn reaches_every_triple(&mut self, model: &Model) -> bool {
        self.prepare();
        let n = self.n;
        let component = model.components(self.orbit, &self.moves);
        (0..n * n * n).all(|t| {
            let (a, b, c) = (t / (n * n), (t / n) % n, t % n);
            a == b
                || b == c
                || a == c
                || component[a] != component[b]
                || component[b] != component[c]
                || self.best[t].is_some()
        })
    }

    /// The orbit's slot count.
    pub fn len(&self) -> usize {
        self.n
    }
}
