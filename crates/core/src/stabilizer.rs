//! Distinguishable positions: the stabiliser of a pattern, computed exactly.
//!
//! When a puzzle's start pattern has identical pieces (repeated ids) or
//! orientations it knows only partly (`?`, orientationMod), different
//! elements of the puzzle's group reach the same position. The positions
//! reachable form one orbit of the group, so by the orbit–stabiliser
//! theorem there are `|G| / |Stab_G(P)|` of them, where `Stab_G(P)` is the
//! set of elements that leave the start pattern `P` looking the same.
//!
//! The stabiliser is computed exactly, as follows.
//!
//! 1. Every (slot, orientation) point is coloured by what `P` shows there:
//!    the orbit, the piece id, the modulus its orientation is known to, and
//!    the orientation relative to the piece's own. An element leaves `P`
//!    unchanged exactly when it maps every point to a point of the same
//!    colour (see [`pattern_colours`]).
//! 2. Points whose colour no other point has must be fixed. A stabiliser
//!    chain whose base lists those points first is built by sifting
//!    uniformly random elements of `G` (drawn from the puzzle's
//!    [`StabilizerChain`]) until its order equals `|G|`; its elements are
//!    products of elements of `G` and the order matches, so it is complete.
//!    Below those points the chain describes `K`, the subgroup fixing them.
//!    (The chain of [`crate::group`] keeps a fixed base, points in
//!    descending order, and its transversals to itself, hence this one.)
//! 3. The colour-preserving subgroup of `K` is found level by level from
//!    the deepest (Sims's subgroup search): at level `i`, for each point
//!    `γ` of the basic orbit with the base point's colour and not yet in
//!    the found subgroup's orbit, a depth-first search over the deeper
//!    levels looks for one colour-preserving element mapping the base point
//!    to `γ`, pruning as soon as a point whose image is settled lands on a
//!    wrong colour. A point that has none rules out its whole orbit under
//!    the subgroup already found below. The found generators form a strong
//!    generating set, so the stabiliser's order is the product of their
//!    basic orbit lengths.
//!
//! The search is exponential in the worst case; it is bounded by
//! [`PositionCountOptions::max_nodes`] and fails cleanly past it.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_integer::Integer;

use crate::random::SeededRng;
use crate::{Layout, Pattern, StabilizerChain};

/// Limits of [`count_positions`].
#[derive(Clone, Debug)]
pub struct PositionCountOptions {
    /// Largest number of (slot, orientation) points handled.
    pub max_degree: usize,
    /// Largest number of search nodes before giving up.
    pub max_nodes: u64,
    /// Seed of the random elements that build the chain (the result does
    /// not depend on it, only the time taken).
    pub seed: u64,
}

impl Default for PositionCountOptions {
    fn default() -> PositionCountOptions {
        PositionCountOptions {
            max_degree: 1000,
            max_nodes: 20_000_000,
            seed: 1,
        }
    }
}

/// Why the positions could not be counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionCountError {
    /// More points than [`PositionCountOptions::max_degree`].
    #[error("{degree} points is more than the {limit} the position count handles")]
    TooManyPoints {
        /// Points of the puzzle.
        degree: usize,
        /// The limit.
        limit: usize,
    },
    /// The stabiliser search went past [`PositionCountOptions::max_nodes`].
    #[error("the stabiliser search went past {0} nodes")]
    SearchLimit(u64),
    /// The chain and the layout disagree.
    #[error("the group's degree {chain} does not match the layout's {layout} points")]
    DegreeMismatch {
        /// Degree of the chain.
        chain: usize,
        /// Points of the layout.
        layout: usize,
    },
}

/// The result of [`count_positions`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCount {
    /// Order of the group, every piece distinguishable.
    pub group_order: BigUint,
    /// Order of the subgroup that leaves the pattern looking the same.
    pub stabilizer_order: BigUint,
    /// Distinguishable positions: `group_order / stabilizer_order`.
    pub positions: BigUint,
}

/// The colour of every (slot, orientation) point of `layout` (numbered as
/// [`Layout::to_points`] numbers them) as `pattern` shows it: two points
/// have the same colour when they are in the same orbit, hold pieces with
/// the same id and orientation modulus `d`, and sit at the same orientation
/// relative to their piece's, modulo `d`. A transformation `t` satisfies
/// `pattern · t == pattern` exactly when its point permutation maps every
/// point to a point of the same colour.
pub fn pattern_colours(layout: &Layout, pattern: &Pattern) -> Vec<u32> {
    let mut index: HashMap<(usize, u8, u8, u8), u32> = HashMap::new();
    let mut out = Vec::with_capacity(layout.num_points());
    for (k, orbit) in layout.orbits().iter().enumerate() {
        let m = orbit.num_orientations() as u8;
        let pieces = layout.perm(pattern.as_bytes(), k);
        let codes = layout.ori(pattern.as_bytes(), k);
        for (&piece, &code) in pieces.iter().zip(codes) {
            let (value, modulus) = layout.decode_orientation(k, code);
            let d = if modulus == 0 { m } else { modulus };
            for x in 0..m {
                let relative = (x + d - value % d) % d;
                let key = (k, piece, d, relative);
                let next = index.len() as u32;
                out.push(*index.entry(key).or_insert(next));
            }
        }
    }
    out
}

/// Counts the distinguishable positions reachable from `start`: the order
/// of the group `chain` describes (acting on `layout`'s points) divided by
/// the order of the subgroup that leaves `start` looking the same.
pub fn count_positions(
    layout: &Layout,
    start: &Pattern,
    chain: &StabilizerChain,
    options: &PositionCountOptions,
) -> Result<PositionCount, PositionCountError> {
    let degree = layout.num_points();
    if chain.degree() != degree {
        return Err(PositionCountError::DegreeMismatch {
            chain: chain.degree(),
            layout: degree,
        });
    }
    let colours = pattern_colours(layout, start);
    let stabilizer_order = colour_stabilizer_order(chain, &colours, options)?;
    let group_order = chain.order();
    let (positions, rest) = group_order.div_rem(&stabilizer_order);
    debug_assert!(
        rest == BigUint::from(0u32),
        "a subgroup's order divides the group's"
    );
    Ok(PositionCount {
        group_order,
        stabilizer_order,
        positions,
    })
}

/// The order of the subgroup of the group `chain` describes whose elements
/// map every point to a point of the same colour (`colours[x]` for point `x`).
pub fn colour_stabilizer_order(
    chain: &StabilizerChain,
    colours: &[u32],
    options: &PositionCountOptions,
) -> Result<BigUint, PositionCountError> {
    let degree = chain.degree();
    if colours.len() != degree {
        return Err(PositionCountError::DegreeMismatch {
            chain: degree,
            layout: colours.len(),
        });
    }
    if degree > options.max_degree {
        return Err(PositionCountError::TooManyPoints {
            degree,
            limit: options.max_degree,
        });
    }
    if degree == 0 {
        return Ok(BigUint::from(1u32));
    }
    // Base: points of a colour of their own first (the stabiliser fixes
    // them), then the others colour by colour.
    let mut count: HashMap<u32, usize> = HashMap::new();
    for &c in colours {
        *count.entry(c).or_default() += 1;
    }
    let mut unique: Vec<u16> = (0..degree as u16)
        .filter(|&x| count[&colours[x as usize]] == 1)
        .collect();
    unique.reverse();
    let mut shared: Vec<u16> = (0..degree as u16)
        .filter(|&x| count[&colours[x as usize]] > 1)
        .collect();
    shared.sort_by_key(|&x| (colours[x as usize], std::cmp::Reverse(x)));
    let first = unique.len();
    let mut base = unique;
    base.extend(shared);
    let based = BaseChain::complete(chain, &base, options.seed);
    let mut search = Search {
        chain: &based,
        colours,
        nodes: 0,
        max_nodes: options.max_nodes,
        settled: settled_points(&based),
    };
    search.stabilizer_order(first)
}

const NONE: u32 = u32::MAX;

/// One level of a [`BaseChain`]: a base point, its basic orbit and a
/// transversal (full permutations and their inverses).
struct Level {
    point: u16,
    /// For each point, the index of the representative mapping `point` there.
    rep_of: Vec<u32>,
    orbit: Vec<u16>,
    reps: Vec<u16>,
    invs: Vec<u16>,
}

/// A stabiliser chain with a base of our choosing (every point, in the
/// given order) and explicit transversals.
struct BaseChain {
    degree: usize,
    levels: Vec<Level>,
    /// Strong generators with the deepest level they belong to (they fix
    /// the base points of every level above it).
    gens: Vec<(usize, Vec<u16>)>,
}

impl BaseChain {
    /// The chain of the group `chain` describes, with base `base` (every
    /// point once), built from its uniformly random elements.
    fn complete(chain: &StabilizerChain, base: &[u16], seed: u64) -> BaseChain {
        let degree = chain.degree();
        let identity: Vec<u16> = (0..degree as u16).collect();
        let levels = base
            .iter()
            .map(|&point| {
                let mut rep_of = vec![NONE; degree];
                rep_of[point as usize] = 0;
                Level {
                    point,
                    rep_of,
                    orbit: vec![point],
                    reps: identity.clone(),
                    invs: identity.clone(),
                }
            })
            .collect();
        let mut based = BaseChain {
            degree,
            levels,
            gens: Vec::new(),
        };
        let target = chain.order();
        let mut rng = SeededRng::new(seed);
        let mut tmp = vec![0u16; degree];
        while based.order() < target {
            let mut g = chain.random_element(|n| rng.below(n));
            if let Some(level) = based.sift(&mut g, &mut tmp) {
                based.add_generator(level, g);
            }
        }
        based
    }

    fn order(&self) -> BigUint {
        self.levels
            .iter()
            .fold(BigUint::from(1u32), |acc, lv| acc * lv.orbit.len())
    }

    fn rep(&self, level: usize, r: u32) -> &[u16] {
        let d = self.degree;
        &self.levels[level].reps[r as usize * d..(r as usize + 1) * d]
    }

    /// Sifts `g`; `None` if it reduces to the identity, else the level
    /// where it has no representative (`g` is then the residue).
    fn sift(&self, g: &mut Vec<u16>, tmp: &mut Vec<u16>) -> Option<usize> {
        let d = self.degree;
        for (i, lv) in self.levels.iter().enumerate() {
            let r = lv.rep_of[g[lv.point as usize] as usize];
            if r == NONE {
                return Some(i);
            }
            if r != 0 {
                let inv = &lv.invs[r as usize * d..(r as usize + 1) * d];
                for x in 0..d {
                    tmp[x] = inv[g[x] as usize];
                }
                std::mem::swap(g, tmp);
            }
        }
        None
    }

    /// Adds `h`, which fixes the base points above `level`, as a strong
    /// generator, and extends the basic orbits of every level it belongs to.
    fn add_generator(&mut self, level: usize, h: Vec<u16>) {
        let id = self.gens.len();
        self.gens.push((level, h));
        for j in 0..=level {
            let mut queue: Vec<u16> = Vec::new();
            for idx in 0..self.levels[j].orbit.len() {
                let from = self.levels[j].orbit[idx];
                self.extend(j, from, id, &mut queue);
            }
            while let Some(from) = queue.pop() {
                for g in 0..self.gens.len() {
                    if self.gens[g].0 >= j {
                        self.extend(j, from, g, &mut queue);
                    }
                }
            }
        }
    }

    /// If generator `g` takes orbit point `from` of level `j` outside the
    /// orbit, adds the image with its representative.
    fn extend(&mut self, j: usize, from: u16, g: usize, queue: &mut Vec<u16>) {
        let d = self.degree;
        let gen = &self.gens[g].1;
        let lv = &mut self.levels[j];
        let image = gen[from as usize];
        if lv.rep_of[image as usize] != NONE {
            return;
        }
        let r = lv.rep_of[from as usize] as usize;
        // The new representative: the old one, then the generator.
        let start = lv.reps.len();
        lv.reps.reserve(d);
        for x in 0..d {
            let y = lv.reps[r * d + x];
            lv.reps.push(gen[y as usize]);
        }
        lv.invs.resize(start + d, 0);
        for x in 0..d {
            let y = lv.reps[start + x] as usize;
            lv.invs[start + y] = x as u16;
        }
        lv.rep_of[image as usize] = (start / d) as u32;
        lv.orbit.push(image);
        queue.push(image);
    }
}

/// For each level `j`, the points whose image under an element is settled
/// once the representatives of levels `..=j` are chosen: those the
/// subgroup of level `j` moves and that of level `j + 1` fixes.
fn settled_points(chain: &BaseChain) -> Vec<Vec<u16>> {
    let d = chain.degree;
    let mut moved = vec![false; d];
    let mut out = vec![Vec::new(); chain.levels.len()];
    for j in (0..chain.levels.len()).rev() {
        for r in 1..chain.levels[j].orbit.len() {
            for (x, &y) in chain.rep(j, r as u32).iter().enumerate() {
                if y as usize != x && !moved[x] {
                    moved[x] = true;
                    out[j].push(x as u16);
                }
            }
        }
    }
    out
}

/// Sims's subgroup search for the colour-preserving subgroup.
struct Search<'a> {
    chain: &'a BaseChain,
    colours: &'a [u32],
    nodes: u64,
    max_nodes: u64,
    settled: Vec<Vec<u16>>,
}

impl Search<'_> {
    /// The order of the colour-preserving subgroup of the subgroup fixing
    /// the base points of levels `..first`.
    fn stabilizer_order(&mut self, first: usize) -> Result<BigUint, PositionCountError> {
        let chain = self.chain;
        let d = chain.degree;
        let mut found: Vec<(usize, Vec<u16>)> = Vec::new();
        let mut order = BigUint::from(1u32);
        for i in (first..chain.levels.len()).rev() {
            let lv = &chain.levels[i];
            if lv.orbit.len() == 1 {
                continue;
            }
            let beta = lv.point;
            let mut reached = orbit(d, beta, found.iter().filter(|g| g.0 >= i));
            let mut excluded = vec![false; d];
            let mut candidates = lv.orbit.clone();
            candidates.sort_unstable();
            for &gamma in &candidates {
                let g = gamma as usize;
                if reached[g] || excluded[g] || self.colours[g] != self.colours[beta as usize] {
                    continue;
                }
                match self.find(i, gamma)? {
                    Some(element) => {
                        found.push((i, element));
                        reached = orbit(d, beta, found.iter().filter(|g| g.0 >= i));
                    }
                    None => {
                        // Nothing maps β to γ, so nothing maps it into γ's
                        // orbit under the stabiliser of β found so far.
                        let below = orbit(d, gamma, found.iter().filter(|g| g.0 > i));
                        for (x, &b) in below.iter().enumerate() {
                            excluded[x] |= b;
                        }
                    }
                }
            }
            order *= reached.iter().filter(|&&b| b).count();
        }
        Ok(order)
    }

    /// A colour-preserving element of the subgroup of level `i` that maps
    /// its base point to `gamma`, if there is one.
    fn find(&mut self, i: usize, gamma: u16) -> Result<Option<Vec<u16>>, PositionCountError> {
        let r = self.chain.levels[i].rep_of[gamma as usize];
        let p = self.chain.rep(i, r).to_vec();
        if !self.settled_ok(i, &p) {
            return Ok(None);
        }
        self.dfs(i + 1, &p)
    }

    /// Whether the points settled at level `j` keep their colours under `p`.
    fn settled_ok(&self, j: usize, p: &[u16]) -> bool {
        self.settled[j]
            .iter()
            .all(|&x| self.colours[p[x as usize] as usize] == self.colours[x as usize])
    }

    /// Completes `p` (the product of the representatives chosen above level
    /// `j`, applied after those still to choose) with representatives of
    /// levels `j..`.
    fn dfs(&mut self, j: usize, p: &[u16]) -> Result<Option<Vec<u16>>, PositionCountError> {
        let chain = self.chain;
        let Some(lv) = chain.levels.get(j) else {
            return Ok(Some(p.to_vec()));
        };
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(PositionCountError::SearchLimit(self.max_nodes));
        }
        if lv.orbit.len() == 1 {
            return self.dfs(j + 1, p);
        }
        let want = self.colours[lv.point as usize];
        let mut q = vec![0u16; chain.degree];
        for &delta in &lv.orbit {
            if self.colours[p[delta as usize] as usize] != want {
                continue;
            }
            let rep = chain.rep(j, lv.rep_of[delta as usize]);
            for (x, &y) in rep.iter().enumerate() {
                q[x] = p[y as usize];
            }
            if !self.settled_ok(j, &q) {
                continue;
            }
            if let Some(g) = self.dfs(j + 1, &q)? {
                return Ok(Some(g));
            }
        }
        Ok(None)
    }
}

/// The orbit of `point` under `gens`, as a membership vector.
fn orbit<'a>(
    degree: usize,
    point: u16,
    gens: impl Iterator<Item = &'a (usize, Vec<u16>)> + Clone,
) -> Vec<bool> {
    let mut seen = vec![false; degree];
    seen[point as usize] = true;
    let mut stack = vec![point];
    while let Some(x) = stack.pop() {
        for (_, g) in gens.clone() {
            let y = g[x as usize];
            if !seen[y as usize] {
                seen[y as usize] = true;
                stack.push(y);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::{MoveDef, MoveKind, Orbit, PatternOrbit, Puzzle, Transformation};

    /// A puzzle from orbits, a start pattern and moves given as
    /// (perm, orientation) per orbit in the packed convention.
    fn puzzle(
        orbits: &[(&str, usize, usize)],
        start: Vec<PatternOrbit>,
        moves: &[Vec<u8>],
    ) -> Puzzle {
        let layout = Layout::new(
            orbits
                .iter()
                .map(|&(n, p, o)| Orbit::new(n, p, o).unwrap())
                .collect(),
        )
        .unwrap();
        let start = layout.pattern(&start).unwrap();
        let mut p = Puzzle::new("test", layout.clone(), start);
        for (i, bytes) in moves.iter().enumerate() {
            p.add_move(MoveDef {
                name: format!("M{i}"),
                transformation: Transformation::from_bytes(&layout, bytes.clone()).unwrap(),
                kind: MoveKind::Base,
                definition: None,
            })
            .unwrap();
        }
        p
    }

    /// Distinguishable positions by breadth-first search over patterns.
    fn bfs(p: &Puzzle) -> usize {
        let l = p.layout();
        let moves: Vec<&Transformation> = p.moves().iter().map(|m| &m.transformation).collect();
        let mut seen: HashSet<Pattern> = HashSet::new();
        seen.insert(p.start().clone());
        let mut frontier = vec![p.start().clone()];
        while let Some(q) = frontier.pop() {
            for m in &moves {
                let r = l.apply(&q, m);
                if seen.insert(r.clone()) {
                    frontier.push(r);
                }
            }
        }
        seen.len()
    }

    fn counted(p: &Puzzle) -> PositionCount {
        let chain = p.group(&p.search_moves());
        count_positions(
            p.layout(),
            p.start(),
            &chain,
            &PositionCountOptions::default(),
        )
        .unwrap()
    }

    fn plain(pieces: Vec<u8>) -> PatternOrbit {
        let n = pieces.len();
        PatternOrbit {
            pieces,
            orientation: vec![0; n],
            orientation_mod: None,
        }
    }

    /// The 2x2x2's U and R (corners UFR URB UBL ULF DRF DFL DLB DBR).
    fn two_by_two_moves() -> Vec<Vec<u8>> {
        // U: 4-cycle of the top corners, no twist.
        let u = vec![1, 2, 3, 0, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0];
        // R: UFR <- DRF <- DBR <- URB with twists.
        let r = vec![4, 0, 2, 3, 7, 5, 6, 1, 2, 1, 0, 0, 1, 0, 0, 2];
        vec![u, r]
    }

    #[test]
    fn distinct_pieces_give_the_group_order() {
        let p = puzzle(
            &[("C", 8, 3)],
            vec![plain((0..8).collect())],
            &two_by_two_moves(),
        );
        let c = counted(&p);
        assert_eq!(c.stabilizer_order, BigUint::from(1u32));
        assert_eq!(c.positions, c.group_order);
        assert_eq!(c.positions, BigUint::from(bfs(&p)));
    }

    #[test]
    fn identical_pieces_match_breadth_first_search() {
        // Top corners alike, bottom corners alike (as a two-colour cube).
        let p = puzzle(
            &[("C", 8, 3)],
            vec![plain(vec![0, 0, 0, 0, 1, 1, 1, 1])],
            &two_by_two_moves(),
        );
        let c = counted(&p);
        let n = bfs(&p);
        assert_eq!(c.positions, BigUint::from(n));
        assert!(c.stabilizer_order > BigUint::from(1u32));
    }

    #[test]
    fn wildcard_orientations_match_breadth_first_search() {
        // Orientation unknown on three corners, two pairs of identical pieces.
        let p = puzzle(
            &[("C", 8, 3)],
            vec![PatternOrbit {
                pieces: vec![0, 1, 1, 2, 3, 3, 4, 5],
                orientation: vec![0; 8],
                orientation_mod: Some(vec![1, 0, 0, 1, 0, 0, 1, 0]),
            }],
            &two_by_two_moves(),
        );
        assert_eq!(counted(&p).positions, BigUint::from(bfs(&p)));
    }

    #[test]
    fn orientation_moduli_and_two_orbits_match_breadth_first_search() {
        // Four pieces with four orientations (centres of a face-turning
        // puzzle) known modulo 2 on two of them, and a second orbit with
        // identical pieces, linked to the first by the moves.
        let a = vec![1, 2, 3, 0, 0, 1, 2, 3, 1, 0, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0];
        let b = vec![0, 1, 3, 2, 0, 0, 0, 1, 0, 2, 3, 4, 5, 1, 0, 0, 0, 0, 0, 0];
        let p = puzzle(
            &[("X", 4, 4), ("Y", 6, 1)],
            vec![
                PatternOrbit {
                    pieces: vec![0, 1, 2, 3],
                    orientation: vec![0, 1, 0, 0],
                    orientation_mod: Some(vec![2, 2, 0, 0]),
                },
                plain(vec![0, 0, 1, 1, 2, 2]),
            ],
            &[a, b],
        );
        assert_eq!(counted(&p).positions, BigUint::from(bfs(&p)));
    }

    #[test]
    fn colours_say_when_a_transformation_keeps_the_pattern() {
        let p = puzzle(
            &[("C", 8, 3)],
            vec![PatternOrbit {
                pieces: vec![0, 0, 1, 1, 2, 2, 3, 3],
                orientation: vec![0, 1, 0, 0, 0, 0, 0, 0],
                orientation_mod: Some(vec![0, 0, 1, 0, 0, 0, 0, 0]),
            }],
            &two_by_two_moves(),
        );
        let l = p.layout();
        let colours = pattern_colours(l, p.start());
        let chain = p.group(&p.search_moves());
        let mut rng = SeededRng::new(7);
        for _ in 0..2000 {
            let g = chain.random_element(|n| rng.below(n));
            let t = Transformation::from_bytes(l, l.from_points(&g).unwrap()).unwrap();
            let keeps = l.apply(p.start(), &t) == *p.start();
            let by_colour = (0..g.len()).all(|x| colours[g[x] as usize] == colours[x]);
            assert_eq!(keeps, by_colour);
        }
    }

    #[test]
    fn the_search_limit_is_an_error() {
        let p = puzzle(
            &[("C", 8, 3)],
            vec![plain(vec![0, 0, 0, 0, 1, 1, 1, 1])],
            &two_by_two_moves(),
        );
        let chain = p.group(&p.search_moves());
        let tiny = PositionCountOptions {
            max_nodes: 1,
            ..Default::default()
        };
        assert_eq!(
            count_positions(p.layout(), p.start(), &chain, &tiny),
            Err(PositionCountError::SearchLimit(1))
        );
    }
}
