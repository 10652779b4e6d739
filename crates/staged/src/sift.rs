//! The last resort: sifting through a stabiliser chain whose coset
//! representatives are words (Minkwitz, "An algorithm for solving the
//! factorization problem in permutation groups", 1998).
//!
//! The base is one point per slot; level `i` holds, for every point the
//! piece belonging at base slot `i` can stand on, a word taking it home
//! while fixing every earlier base slot. Words come from sifting random
//! sequences of moves (a seeded generator, so the tables are the same
//! every run): a sequence that meets an empty entry fills it with its
//! inverse; one meeting a longer entry replaces it. The tables are
//! complete when the product of their sizes is the group's order, which
//! Schreier–Sims gives exactly. Solving then walks the levels: at each,
//! the word for where the needed piece stands (for pieces alike, the
//! shortest over those still free) is played.
//!
//! Words are longer than commutators' (tens of moves a level near the
//! end), so this is only used where the commutator search finds nothing,
//! and only on puzzles small enough for tables of whole point maps.

use std::collections::BTreeMap;

use twistor_core::random::SeededRng;
use twistor_core::StabilizerChain;

use crate::model::Model;

/// Most points a puzzle may have for sifting.
pub(crate) const MAX_POINTS: usize = 4_096;
/// Random sequences sifted before the tables are given up on.
const MAX_SIFTS: usize = 400_000;
/// Length of each random sequence.
const RANDOM_MOVES: usize = 24;
/// Sifts without a new entry after which longer residues are followed.
const STALL: usize = 2_000;

/// One coset representative: its word and where it sends every point.
struct Entry {
    word: Vec<usize>,
    image: Vec<u16>,
}

/// Tables of words for every level of a base of all slots.
pub(crate) struct Sifter {
    /// Each orbit's first point.
    point_base: Vec<usize>,
    /// The base: one point (orientation 0) per moved slot.
    base: Vec<u16>,
    /// Each move's images of all points.
    images: Vec<Vec<u16>>,
    levels: Vec<BTreeMap<u16, Entry>>,
    moves: Vec<usize>,
    /// Per move (index into `moves`), the one undoing it.
    inverse: Vec<usize>,
    rng: SeededRng,
    /// The group, for telling labelled positions in it apart.
    group: StabilizerChain,
    /// log2 of the group's order, and of the tables' product so far.
    log2_order: f64,
    log2_tables: f64,
    sifted: usize,
    /// The longest residue followed: grows while sifting finds nothing new.
    limit: usize,
    /// Sifts since an entry was last added.
    stalled: usize,
}

impl Sifter {
    /// Tables for `moves` on `model`, empty until filled; `None` when the
    /// puzzle has too many points.
    pub fn new(model: &Model, moves: &[usize]) -> Option<Sifter> {
        let mut point_base = Vec::new();
        let mut points = 0usize;
        for k in 0..model.size.len() {
            point_base.push(points);
            points += model.size[k] * model.oris[k] as usize;
        }
        if points > MAX_POINTS || points > u16::MAX as usize {
            return None;
        }
        let point = |slot: usize, o: u8| -> usize {
            let k = model.orbit_of[slot] as usize;
            point_base[k] + (slot - model.base[k]) * model.oris[k] as usize + o as usize
        };
        let images: Vec<Vec<u16>> = moves
            .iter()
            .map(|&m| {
                let mv = &model.moves[m];
                let mut image = vec![0u16; points];
                for slot in 0..model.slots() {
                    let k = model.orbit_of[slot] as usize;
                    let oris = model.oris[k];
                    for o in 0..oris {
                        let to = mv.dest[slot] as usize;
                        image[point(slot, o)] = point(to, (o + mv.twist[slot]) % oris) as u16;
                    }
                }
                image
            })
            .collect();
        let group = StabilizerChain::new(points, &images);
        let log2_order = log2(&group.order());
        // The base: every slot some move turns, biggest orbits first.
        let mut orbits: Vec<usize> = (0..model.size.len()).collect();
        orbits.sort_by_key(|&k| (std::cmp::Reverse(model.size[k] * model.oris[k] as usize), k));
        let mut base = Vec::new();
        for k in orbits {
            for s in 0..model.size[k] {
                let slot = model.base[k] + s;
                let p = point(slot, 0);
                if images.iter().any(|im| im[p] as usize != p) {
                    base.push(p as u16);
                }
            }
        }
        let levels = base.iter().map(|_| BTreeMap::new()).collect();
        let inverse = moves
            .iter()
            .map(|&m| {
                let undo = model.moves[m].inverse;
                moves.iter().position(|&x| x == undo).unwrap_or(0)
            })
            .collect();
        Some(Sifter {
            group,
            point_base,
            base,
            images,
            levels,
            moves: moves.to_vec(),
            inverse,
            rng: SeededRng::new(0x5eed_5174),
            log2_order,
            log2_tables: 0.0,
            sifted: 0,
            limit: 2 * RANDOM_MOVES,
            stalled: 0,
        })
    }

    /// The point of `slot` (global) at orientation `o`.
    pub fn point(&self, model: &Model, slot: usize, o: u8) -> u16 {
        let k = model.orbit_of[slot] as usize;
        (self.point_base[k] + (slot - model.base[k]) * model.oris[k] as usize + o as usize) as u16
    }

    /// Whether the tables hold a representative of every coset.
    pub fn complete(&self) -> bool {
        self.log2_tables + 1e-6 >= self.log2_order
    }

    /// Sifts random sequences until the tables are complete or `budget`
    /// more have been sifted; whether they are complete.
    pub fn fill(&mut self, budget: usize) -> bool {
        let mut left = budget;
        while !self.complete() && left > 0 && self.sifted < MAX_SIFTS {
            left -= 1;
            self.sifted += 1;
            let word: Vec<usize> = (0..RANDOM_MOVES)
                .map(|_| self.rng.below(self.moves.len()))
                .collect();
            let image = self.image_of(&word);
            if self.sift(word, image) {
                self.stalled = 0;
            } else {
                self.stalled += 1;
                if self.stalled >= STALL {
                    // Products of entries carry short words to where
                    // random sequences do not reach.
                    self.stalled = 0;
                    self.improve();
                    self.limit += self.limit / 4 + 1;
                }
            }
        }
        self.complete()
    }

    /// Where a sequence (indices into `moves`) sends every point.
    fn image_of(&self, word: &[usize]) -> Vec<u16> {
        let points = self.images.first().map_or(0, |im| im.len());
        let mut image: Vec<u16> = (0..points as u16).collect();
        for &m in word {
            for x in image.iter_mut() {
                *x = self.images[m][*x as usize];
            }
        }
        image
    }

    /// Sifts every product of two entries of one level (Minkwitz's
    /// improvement).
    fn improve(&mut self) {
        for i in 0..self.levels.len() {
            let entries: Vec<(Vec<usize>, Vec<u16>)> = self.levels[i]
                .values()
                .map(|e| (e.word.clone(), e.image.clone()))
                .collect();
            for (a, ai) in &entries {
                for (b, bi) in &entries {
                    if a.len() + b.len() > self.limit {
                        continue;
                    }
                    let mut word = a.clone();
                    word.extend_from_slice(b);
                    let image = ai.iter().map(|&x| bi[x as usize]).collect();
                    self.sift(word, image);
                }
            }
        }
    }

    /// Sifts one sequence (indices into `moves`) with its image, filling or
    /// shortening entries on its way; whether it added or shortened one.
    fn sift(&mut self, word: Vec<usize>, image: Vec<u16>) -> bool {
        let points = image.len();
        let mut image = image;
        let mut word = word;
        for i in 0..self.base.len() {
            let b = self.base[i];
            let p = image[b as usize];
            if p == b {
                continue;
            }
            match self.levels[i].get(&p) {
                Some(e) if e.word.len() <= word.len() => {
                    // Go on with the residue: the word, then the entry.
                    let e_image = &e.image;
                    for x in image.iter_mut() {
                        *x = e_image[*x as usize];
                    }
                    word.extend_from_slice(&e.word);
                    if word.len() > self.limit {
                        return false;
                    }
                }
                existing => {
                    let inverse_word: Vec<usize> =
                        word.iter().rev().map(|&m| self.inverse[m]).collect();
                    if existing.is_none() {
                        let size = self.levels[i].len() as f64;
                        self.log2_tables += ((size + 2.0) / (size + 1.0)).log2();
                    }
                    let mut inverse_image = vec![0u16; points];
                    for (x, &y) in image.iter().enumerate() {
                        inverse_image[y as usize] = x as u16;
                    }
                    self.levels[i].insert(
                        p,
                        Entry {
                            word: inverse_word,
                            image: inverse_image,
                        },
                    );
                    return true;
                }
            }
        }
        false
    }

    /// Whether `state` (a pattern against `goal`), its pieces told apart
    /// by `labels` (each slot's piece's home slot), is an element of the
    /// group.
    pub fn contains(
        &self,
        model: &Model,
        layout: &twistor_core::Layout,
        state: &[u8],
        goal: &[u8],
        labels: &[usize],
    ) -> bool {
        let points = self.images.first().map_or(0, |im| im.len());
        let mut image = vec![0u16; points];
        for (slot, &home) in labels.iter().enumerate() {
            let k = model.orbit_of[slot] as usize;
            let oris = model.oris[k];
            let local = slot - model.base[k];
            let (o, _) = layout.decode_orientation(k, layout.ori(state, k)[local]);
            let (go, _) = layout.decode_orientation(k, layout.ori(goal, k)[home - model.base[k]]);
            let x = (o + oris - go % oris) % oris;
            for y in 0..oris {
                image[self.point(model, home, y) as usize] =
                    self.point(model, slot, (y + x) % oris);
            }
        }
        self.group.contains(&image)
    }

    /// Whether no more sequences will be sifted.
    pub fn exhausted(&self) -> bool {
        self.sifted >= MAX_SIFTS
    }

    /// The levels, each as its base point.
    pub fn base(&self) -> &[u16] {
        &self.base
    }

    /// The word (as moves of the solver's move set) taking the piece on
    /// point `p` to level `i`'s base point, if the tables have one.
    pub fn word(&self, i: usize, p: u16) -> Option<Vec<usize>> {
        if p == self.base[i] {
            return Some(Vec::new());
        }
        self.levels[i]
            .get(&p)
            .map(|e| e.word.iter().map(|&m| self.moves[m]).collect())
    }
}

fn log2(n: &twistor_core::BigUint) -> f64 {
    let bits = n.bits();
    if bits <= 52 {
        return (n.to_u64_digits().first().copied().unwrap_or(0) as f64).log2();
    }
    let shift = bits - 52;
    let top = (n >> shift).to_u64_digits()[0] as f64;
    top.log2() + shift as f64
}
