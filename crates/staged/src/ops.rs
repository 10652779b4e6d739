//! Finding pure operations of one orbit: sequences that cycle three of its
//! slots (or twist two) and leave every orbit that must be kept as it was.
//!
//! (Long because its four searches share one finder and are tried in order;
//! each is a method of a few screens.)
//!
//! Four searches, each only when the ones before found too little:
//!
//! 1. **Commutators of a sequence and a move.** If the slots two
//!    sequences `X` and `Y` change meet in exactly one slot, their
//!    commutator `X Y X' Y'` changes only three (or twists two in place).
//!    `X` runs over the canonical sequences of one to three (four on small
//!    puzzles) of the moves that turn the orbit, shortest first, `Y` over
//!    the moves; for each slot `X` changes, the grips turning it are
//!    counted, so one pass finds every `Y` meeting `X` in a single slot of
//!    the orbit. On small puzzles `X` alone is read as well, kept when what
//!    it does elsewhere changes no invariant.
//! 2. **Refinement** (small puzzles): commutators of elements whose slots
//!    meet in one or two are smaller than either; starting from the moves,
//!    rounds of such commutators shrink supports until they cycle three
//!    slots. This is how deep-cut and jumbling puzzles' cycles are found.
//! 3. **The kernel** (small kept orbits): a breadth-first walk over what
//!    the moves do to the kept orbits gives sequences that return them home
//!    (Schreier's generators, `w(a) m w(a m)'`); those cycling three slots
//!    of the orbit, and commutators of two meeting in one of its slots.
//! 4. **Powers** (small puzzles): a commutator of a move and a short
//!    sequence whose only cycle of length three is in the orbit, and whose
//!    other cycles come home in a number of turns prime to 3, raised to
//!    that number, is a pure 3-cycle: long, but found on deep-cut puzzles
//!    where nothing else is.
//! 5. **Kernel powers** (any size, [`kernel_powers`]): powers of short
//!    words that bring the kept orbits home, paired by commutators with
//!    each other's conjugates where their supports meet in one slot; for
//!    deep cuts whose kept orbits are too large for the kernel walk.
//!
//! The orbit's slots may fall in several components the moves never mix;
//! each gets operations of its own.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

mod kernel_powers;

use crate::model::{merge_sorted, Model, Tracer};
use crate::pure::{OpKind, PureOp};

/// Fewest and most 3-cycles kept per component of the orbit (each with
/// its inverse): more cycles mean shorter setups (with up to 48 instead
/// of 12, a 7x7x7's answers came out 15 % shorter), but each distinct
/// start costs the library a breadth-first table over the orbit's `n³`
/// ordered triples, so an orbit gets as many as [`SETUP_TRIPLES`]
/// allows within these.
const MIN_CYCLES: usize = 12;
const MAX_CYCLES: usize = 48;
/// Ordered triples the cycles of one orbit's library may cost in setup
/// tables (one table of `n³` per cycle, at most).
const SETUP_TRIPLES: usize = 1 << 20;

/// How many 3-cycles an orbit of `n` slots keeps per component.
fn cycles_kept(n: usize) -> usize {
    (SETUP_TRIPLES / n.pow(3).max(1)).clamp(MIN_CYCLES, MAX_CYCLES)
}

/// Most 2-twists kept per component.
const MAX_TWISTS: usize = 6;
/// Most sequences `X` the first search examines.
const DIRECT_SEQUENCES: usize = 300_000;
/// Most slots it follows through them.
const DIRECT_WORK: u64 = 40_000_000;
/// Counted slots up to which a puzzle is small: longer `X`, `X` alone,
/// refinement.
const SMALL: usize = 640;
/// Elements kept between refinement rounds, and the rounds.
const REFINE_POOL: usize = 1_500;
const REFINE_ROUNDS: usize = 4;
/// Longest refined word.
const REFINE_WORD: usize = 96;
/// Most slots the refinement follows through its words.
const REFINE_WORK: u64 = 40_000_000;
/// Powers of small support the fourth search keeps, and the most slots
/// such a power may change.
const POWER_POOL: usize = 400;
const POWER_SUPPORT: u64 = 8;
/// Most states of the kept orbits the kernel search walks.
const KERNEL_STATES: usize = 200_000;
/// Most kernel elements it pairs, and most of Schreier's generators it reads.
const KERNEL_ELEMENTS: usize = 3_000;
const KERNEL_GENERATORS: usize = 200_000;

/// What the goal asks of each slot: the id of its piece and the modulus
/// of its orientation, and per orbit whether some of its pieces are
/// alike. A kept orbit of pieces alike stays solved under any operation
/// that only exchanges pieces of one id, and under that operation set up
/// by moves that keep its pieces of one id together.
#[derive(Clone)]
pub(crate) struct GoalSlots {
    pub id: Vec<u8>,
    pub modulus: Vec<u8>,
    /// Per orbit: whether it has pieces alike.
    pub alike: Vec<bool>,
    /// Per move of the model: whether it carries pieces of one id onto
    /// slots of one id in every orbit of pieces alike.
    pub keeps_alike: Vec<bool>,
    /// Per orbit: whether every move carries its pieces of one id onto
    /// slots of one id (so an exchange of two alike is harmless under any
    /// setup).
    pub in_blocks: Vec<bool>,
}

/// The pure operations of `orbit` by `moves` that change no orbit `keep`
/// marks (as `goal` sees it) and no invariant `invariants` lists (per
/// orbit: whether its parity counts, the modulus its twist sum counts in).
pub(crate) fn find_ops(
    model: &Model,
    orbit: usize,
    moves: &[usize],
    keep: &[bool],
    invariants: &[(bool, u8)],
    goal: &GoalSlots,
) -> Vec<PureOp> {
    let Some(mut finder) = Finder::new(model, orbit, moves, keep, invariants, goal) else {
        return Vec::new();
    };
    finder.direct();
    if !finder.has_cycles() && finder.small {
        finder.refine();
    }
    if !finder.has_cycles() {
        finder.kernel();
    }
    if !finder.has_cycles() && finder.small {
        finder.powers();
    }
    if !finder.has_cycles() {
        finder.kernel_powers();
    }
    finder.found
}

struct Finder<'a> {
    model: &'a Model,
    orbit: usize,
    keep: &'a [bool],
    invariants: &'a [(bool, u8)],
    goal: &'a GoalSlots,
    /// The moves that turn the orbit.
    touching: Vec<usize>,
    /// The slots that count, increasing.
    counted: Vec<u16>,
    small: bool,
    /// Most 3-cycles kept per component ([`cycles_kept`] of the orbit).
    cycle_limit: usize,
    /// Per slot of the orbit, its component.
    component: Vec<usize>,
    /// Per component, its size.
    component_size: Vec<usize>,
    found: Vec<PureOp>,
    seen: HashSet<Vec<(u16, u16, u8)>>,
    /// A tracer of the slots that count.
    counted_tracer: RefCell<Tracer>,
}

impl<'a> Finder<'a> {
    fn new(
        model: &'a Model,
        orbit: usize,
        moves: &[usize],
        keep: &'a [bool],
        invariants: &'a [(bool, u8)],
        goal: &'a GoalSlots,
    ) -> Option<Finder<'a>> {
        let n = model.size[orbit];
        let in_orbit = |s: u16| model.orbit_of[s as usize] as usize == orbit;
        let touching: Vec<usize> = moves
            .iter()
            .copied()
            .filter(|&m| model.moves[m].support.iter().any(|&s| in_orbit(s)))
            .collect();
        if touching.is_empty() || n < 2 {
            return None;
        }
        let counts = |s: u16| counted_orbit(orbit, keep, goal, model.orbit_of[s as usize] as usize);
        let counted: Vec<u16> = (0..model.slots() as u16).filter(|&s| counts(s)).collect();
        let counted_tracer = Tracer::watching(model, |k| counted_orbit(orbit, keep, goal, k));
        // Components: slots of the orbit the moves connect.
        let component = model.components(orbit, &touching);
        let count = component.iter().max().map_or(0, |&c| c + 1);
        let component_size = (0..count)
            .map(|c| component.iter().filter(|&&x| x == c).count())
            .collect();
        Some(Finder {
            model,
            orbit,
            keep,
            invariants,
            goal,
            small: counted.len() <= SMALL,
            cycle_limit: cycles_kept(model.size[orbit]),
            touching,
            counted,
            component,
            component_size,
            found: Vec::new(),
            seen: HashSet::new(),
            counted_tracer: RefCell::new(counted_tracer),
        })
    }

    /// Whether slot `s` counts ([`counted_orbit`]).
    fn counts(&self, s: u16) -> bool {
        let k = self.model.orbit_of[s as usize] as usize;
        counted_orbit(self.orbit, self.keep, self.goal, k)
    }

    fn in_orbit(&self, s: u16) -> bool {
        self.model.orbit_of[s as usize] as usize == self.orbit
    }

    fn counted_count(&self, kind: OpKind, component: usize) -> usize {
        self.found
            .iter()
            .filter(|o| o.kind == kind && self.component[o.slots[0] as usize] == component)
            .count()
    }

    /// Whether every component that could have them has enough
    /// operations.
    fn satisfied(&self) -> bool {
        let twisting = self.model.oris[self.orbit] > 1;
        (0..self.component_size.len()).all(|c| {
            let size = self.component_size[c];
            (size < 3 || self.counted_count(OpKind::Cycle, c) >= self.cycle_limit)
                && (!twisting || size < 2 || self.counted_count(OpKind::Twist, c) >= MAX_TWISTS)
        })
    }

    /// Whether every component of three or more slots has a cycle.
    fn has_cycles(&self) -> bool {
        (0..self.component_size.len())
            .all(|c| self.component_size[c] < 3 || self.counted_count(OpKind::Cycle, c) > 0)
    }

    /// Keeps `seq` if it is a wanted operation.
    fn offer(&mut self, seq: &[usize], check_invariants: bool) {
        let action = self.action(seq);
        self.offer_traced(seq, &action, check_invariants);
    }

    /// [`Finder::offer`] given `seq`'s [`Finder::action`]: where that
    /// changes more than three slots, or one outside the orbit, `seq` is
    /// no operation and nothing more is read.
    fn offer_traced(&mut self, seq: &[usize], action: &[(u16, u16, u8)], check_invariants: bool) {
        if action.len() > 3 || action.iter().any(|a| !self.in_orbit(a.0)) {
            return;
        }
        // Where the operation would be one already kept, or of a kind its
        // component has enough of, the sequence need not be read further:
        // its action on the orbit is the key it would be kept under. (On
        // the FTO, most of the kernel powers' offers; its first solve took
        // 4.8 s reading them, 1.1 s without.)
        let kind = if action.len() == 3 {
            OpKind::Cycle
        } else {
            OpKind::Twist
        };
        let limit = match kind {
            OpKind::Cycle => self.cycle_limit,
            OpKind::Twist => MAX_TWISTS,
        };
        let base = self.model.base[self.orbit];
        if action.len() < 2
            || self.seen.contains(action)
            || self.counted_count(kind, self.component[action[0].0 as usize - base]) >= limit
        {
            return;
        }
        // What it does to the slots that count is `action`; the kept
        // orbits of pieces alike are read by following their slots, first
        // (most sequences offered are rejected at the first they disturb).
        let (model, orbit, keep) = (self.model, self.orbit, self.keep);
        let alike = (touched(model, seq).into_iter())
            .filter(|&s| {
                let k = model.orbit_of[s as usize] as usize;
                k != orbit && keep[k] && self.goal.alike[k]
            })
            .map(|s| {
                let (to, twist) = model.follow(seq, s);
                (s, to, twist)
            });
        let effect = alike.chain(action.iter().copied());
        let Some((key, op)) = op_of_effect(model, orbit, keep, self.goal, seq, effect) else {
            return;
        };
        if check_invariants && !neutral(self.model, seq, self.invariants) {
            return;
        }
        self.seen.insert(key);
        self.found.push(op);
    }

    /// Search 4 (small puzzles, where the others find no cycle): powers.
    /// Commutators of a move and a sequence of one or two moves, however
    /// their supports meet, each raised to the power that leaves a lone
    /// 3-cycle ([`Finder::offer_power`]). Long (the power is a few dozen
    /// turns of the commutator), but found where nothing else is: on
    /// deep-cut puzzles such as the pentultimate no two moves' supports
    /// meet in one or two slots, so refinement never starts.
    fn powers(&mut self) {
        let touching = self.touching.clone();
        let mut starts: Vec<Vec<usize>> = touching.iter().map(|&m| vec![m]).collect();
        let mut prefix = Vec::new();
        canonical_sequences(
            self.model,
            &touching,
            2,
            &mut prefix,
            &mut |seq: &[usize]| {
                starts.push(seq.to_vec());
                true
            },
        );
        let mut work = 0u64;
        // Powers with a small support, for the second round.
        let mut small: Vec<(Vec<usize>, Vec<u16>)> = Vec::new();
        let mut actions: HashSet<Vec<(u16, u16, u8)>> = HashSet::new();
        'pairs: for a in &touching {
            for b in &starts {
                let word = commutator(self.model, &[*a], b);
                work += (word.len() * self.counted.len()) as u64;
                if work > REFINE_WORK || self.satisfied() {
                    break 'pairs;
                }
                let cycles = self.cycles(&word);
                self.offer_power(&word, &cycles);
                if small.len() < POWER_POOL {
                    for power in Self::small_powers(&word, &cycles) {
                        let action = self.action(&power);
                        let slots: Vec<u16> = action.iter().map(|a| a.0).collect();
                        if !slots.is_empty() && actions.insert(action) {
                            small.push((power, slots));
                        }
                    }
                }
            }
        }
        // Where no power is a lone 3-cycle: commutators of two powers of
        // small support that meet in one or two slots (as refinement does
        // with the moves' commutators). Not on orbits of four slots or
        // fewer: there (the emperor pyraminx's tips) a piece rides with
        // others, and twists finish it better than such long cycles.
        if self.model.size[self.orbit] <= 4 {
            return;
        }
        small.sort_by_key(|(w, s)| (s.len(), w.len()));
        for i in 0..small.len() {
            for j in i + 1..small.len() {
                if self.has_cycles() {
                    return;
                }
                let ((a, sa), (b, sb)) = (&small[i], &small[j]);
                let meet = sa.iter().filter(|x| sb.binary_search(x).is_ok()).count();
                if meet == 0 || meet > 2 {
                    continue;
                }
                let word = commutator(self.model, a, b);
                work += (word.len() * self.counted.len()) as u64;
                if work > 2 * REFINE_WORK {
                    return;
                }
                self.offer(&word, false);
                let cycles = self.cycles(&word);
                self.offer_power(&word, &cycles);
            }
        }
    }

    /// The cycles `word` makes of the counted slots it changes, in slot
    /// order: each one's first slot, its length, and its period (the turns
    /// after which its pieces are home with no twist).
    fn cycles(&self, word: &[usize]) -> Vec<Cycle> {
        let action = self.action(word);
        let slots: Vec<u16> = action.iter().map(|a| a.0).collect();
        let mut seen = vec![false; slots.len()];
        let mut out = Vec::new();
        for i in 0..slots.len() {
            if seen[i] {
                continue;
            }
            let (start, mut at, mut length, mut twist) = (slots[i], slots[i], 0u64, 0u64);
            loop {
                let j = slots.binary_search(&at).expect("a changed slot");
                seen[j] = true;
                let (_, to, tw) = action[j];
                length += 1;
                twist += u64::from(tw);
                at = to;
                if at == start {
                    break;
                }
            }
            let oris =
                u64::from(self.model.oris[self.model.orbit_of[start as usize] as usize]).max(1);
            out.push(Cycle {
                start,
                length,
                period: length * (oris / gcd64(twist % oris, oris)),
            });
        }
        out
    }

    /// The powers of `word` whose support on the counted slots is at most
    /// [`POWER_SUPPORT`] slots (and not empty), each as a word: a power
    /// turning every cycle whose period divides it home.
    fn small_powers(word: &[usize], cycles: &[Cycle]) -> Vec<Vec<usize>> {
        let mut periods: Vec<u64> = cycles.iter().map(|c| c.period).collect();
        periods.sort_unstable();
        periods.dedup();
        periods
            .into_iter()
            .filter(|&k| {
                let support: u64 = (cycles.iter())
                    .filter(|c| k % c.period != 0)
                    .map(|c| c.length)
                    .sum();
                support > 0
                    && support <= POWER_SUPPORT
                    && k as usize * word.len() <= REFINE_WORD * 4
            })
            .map(|k| power(word, k))
            .collect()
    }

    /// Offers the power of `word` that is a 3-cycle of the orbit, if one
    /// is: where the word cycles three of the orbit's slots and every
    /// other cycle of counted slots (its twist included) comes home in a
    /// number of turns prime to 3, that many turns leave the 3-cycle
    /// alone. On deep-cut puzzles, where no two moves' supports meet in
    /// one or two slots, commutators of moves have such cycle types.
    fn offer_power(&mut self, word: &[usize], cycles: &[Cycle]) {
        let (mut three, mut period) = (0usize, 1u64);
        for c in cycles {
            if c.length == 3 && self.in_orbit(c.start) {
                three += 1;
                continue;
            }
            if c.period % 3 == 0 {
                return;
            }
            period = period / gcd64(period, c.period) * c.period;
            if period * word.len() as u64 > REFINE_WORD as u64 * 4 {
                return;
            }
        }
        if three == 1 && period > 1 {
            self.offer(&power(word, period), false);
        }
    }

    /// What `seq` does to the counted slots it changes, as `(from, to,
    /// twist)` in increasing order of `from`.
    fn action(&self, seq: &[usize]) -> Vec<(u16, u16, u8)> {
        let mut tracer = self.counted_tracer.borrow_mut();
        (tracer.trace(seq).iter().copied())
            .filter(|&(from, to, twist)| from != to || twist != 0)
            .collect()
    }

    /// Where `seq` takes the piece from each slot of the orbit, and the
    /// twist it gains (as [`Model::follow`] gives), in slot order.
    fn orbit_map(&self, seq: &[usize]) -> Vec<(u16, u8)> {
        let (base, n) = (self.model.base[self.orbit], self.model.size[self.orbit]);
        let mut map: Vec<(u16, u8)> = (0..n).map(|x| ((base + x) as u16, 0)).collect();
        let mut tracer = self.counted_tracer.borrow_mut();
        for &(from, to, twist) in tracer.trace(seq) {
            if self.in_orbit(from) {
                map[from as usize - base] = (to, twist);
            }
        }
        map
    }

    /// Search 1: commutators of short sequences and single moves.
    fn direct(&mut self) {
        let model = self.model;
        let mut grips: Vec<usize> = Vec::new();
        for &m in &self.touching {
            if !grips.contains(&model.moves[m].grip) {
                grips.push(model.moves[m].grip);
            }
        }
        let powers: Vec<Vec<usize>> = grips
            .iter()
            .map(|&g| {
                self.touching
                    .iter()
                    .copied()
                    .filter(|&m| model.moves[m].grip == g)
                    .collect()
            })
            .collect();
        let mut touched_by: Vec<Vec<usize>> = vec![Vec::new(); model.slots()];
        for (gi, ps) in powers.iter().enumerate() {
            let support = &model.moves[ps[0]].support;
            for &s in support.iter().filter(|&&s| self.counts(s)) {
                touched_by[s as usize].push(gi);
            }
        }
        let mut count = vec![0u32; grips.len()];
        let mut hit = vec![0u16; grips.len()];
        let mut examined = 0usize;
        let mut work = 0u64;
        let longest = if self.small { 4 } else { 3 };
        let touching = self.touching.clone();
        let mut tracer = Tracer::watching(model, |k| {
            counted_orbit(self.orbit, self.keep, self.goal, k)
        });
        for len in 1..=longest {
            let mut stopped = false;
            let mut prefix = Vec::new();
            traced_sequences(
                model,
                &touching,
                len,
                &mut prefix,
                &mut tracer,
                &mut |seq: &[usize], tracer: &mut Tracer| {
                    examined += 1;
                    if examined > DIRECT_SEQUENCES || work > DIRECT_WORK || self.satisfied() {
                        stopped = true;
                        return false;
                    }
                    let sx = tracer.changed();
                    work += (sx.len() * seq.len()) as u64 + 1;
                    if !sx.iter().any(|&s| self.in_orbit(s)) {
                        return true;
                    }
                    if (self.small || len <= 2)
                        && sx.len() <= 3
                        && sx.iter().all(|&s| self.in_orbit(s))
                    {
                        self.offer(seq, true);
                    }
                    let mut touched: Vec<usize> = Vec::new();
                    for s in sx {
                        for &g in &touched_by[*s as usize] {
                            if count[g] == 0 {
                                touched.push(g);
                            }
                            count[g] += 1;
                            hit[g] = *s;
                        }
                    }
                    touched.sort_unstable();
                    for &g in &touched {
                        let single = count[g] == 1 && self.in_orbit(hit[g]);
                        count[g] = 0;
                        if !single || seq.iter().any(|&m| model.moves[m].grip == grips[g]) {
                            continue;
                        }
                        for &y in &powers[g] {
                            let op = commutator(model, seq, &[y]);
                            // Reading it follows every slot it moves.
                            work += (op.len() * (sx.len() + model.moves[y].support.len())) as u64;
                            self.offer(&op, false);
                        }
                    }
                    true
                },
            );
            if stopped {
                break;
            }
        }
    }

    /// Search 2: rounds of commutators of elements meeting in one or two
    /// counted slots, each smaller than both.
    fn refine(&mut self) {
        struct Element {
            word: Vec<usize>,
            slots: Vec<u16>,
            bits: Vec<u64>,
        }
        let words = self.counted.len().div_ceil(64);
        let counted = self.counted.clone();
        let element = |action: &[(u16, u16, u8)], word: Vec<usize>| -> Option<Element> {
            let slots: Vec<u16> = action.iter().map(|a| a.0).collect();
            if slots.is_empty() {
                return None;
            }
            let mut bits = vec![0u64; words];
            for &s in &slots {
                let b = counted.binary_search(&s).expect("a counted slot");
                bits[b / 64] |= 1 << (b % 64);
            }
            Some(Element { word, slots, bits })
        };
        let mut pool: Vec<Element> = Vec::new();
        let mut actions: HashSet<Vec<(u16, u16, u8)>> = HashSet::new();
        let touching = self.touching.clone();
        let mut starts: Vec<Vec<usize>> = touching.iter().map(|&m| vec![m]).collect();
        let mut prefix = Vec::new();
        canonical_sequences(
            self.model,
            &touching,
            2,
            &mut prefix,
            &mut |seq: &[usize]| {
                starts.push(seq.to_vec());
                true
            },
        );
        for word in starts {
            let action = self.action(&word);
            if let Some(e) = element(&action, word) {
                if actions.insert(action) {
                    pool.push(e);
                }
            }
        }
        let mut work = 0u64;
        for _ in 0..REFINE_ROUNDS {
            if self.has_cycles() {
                return;
            }
            pool.sort_by_key(|e| (e.slots.len(), e.word.len()));
            pool.truncate(REFINE_POOL);
            let mut fresh: Vec<Element> = Vec::new();
            for i in 0..pool.len() {
                for j in i + 1..pool.len() {
                    let (a, b) = (&pool[i], &pool[j]);
                    let meet: u32 = a
                        .bits
                        .iter()
                        .zip(&b.bits)
                        .map(|(x, y)| (x & y).count_ones())
                        .sum();
                    if meet == 0 || meet > 2 || a.word.len() + b.word.len() > REFINE_WORD / 2 {
                        continue;
                    }
                    let word = commutator(self.model, &a.word, &b.word);
                    work += (word.len() * (a.slots.len() + b.slots.len())) as u64;
                    if work > REFINE_WORK {
                        return;
                    }
                    let action = self.action(&word);
                    self.offer_traced(&word, &action, false);
                    let smaller = a.slots.len().min(b.slots.len());
                    if let Some(e) = element(&action, word) {
                        if e.slots.len() < smaller && actions.insert(action) {
                            fresh.push(e);
                        }
                    }
                }
                if self.satisfied() {
                    return;
                }
            }
            if fresh.is_empty() {
                return;
            }
            pool.extend(fresh);
        }
    }

    /// Search 3: Schreier's generators of the kept orbits' arrangements,
    /// and commutators of pairs of them.
    fn kernel(&mut self) {
        let model = self.model;
        let n = model.size[self.orbit];
        // Only when the kept orbits' arrangements are few: at most
        // (slots)! of them for each orbit of distinct pieces.
        let arrangements: f64 = (0..model.size.len())
            .filter(|&k| self.keep[k])
            .map(|k| {
                let oris = f64::from(model.oris[k]);
                (1..=model.size[k])
                    .map(|i| i as f64 * oris)
                    .product::<f64>()
            })
            .product();
        if n > 64 || arrangements > 50.0 * KERNEL_STATES as f64 {
            return;
        }
        let base = model.base[self.orbit];
        // The kept orbits' slots, and what each holds: the goal id and
        // orientation of its piece, so that arrangements a kept orbit of
        // pieces alike cannot tell apart are one.
        let kept: Vec<u16> = (0..model.slots() as u16)
            .filter(|&s| self.keep[model.orbit_of[s as usize] as usize])
            .collect();
        let mut kept_index = vec![usize::MAX; model.slots()];
        for (i, &s) in kept.iter().enumerate() {
            kept_index[s as usize] = i;
        }
        let goal = self.goal;
        let start: Vec<(u8, u8)> = kept.iter().map(|&s| (goal.id[s as usize], 0)).collect();
        let mut index: HashMap<Vec<(u8, u8)>, usize> = HashMap::new();
        let mut states = vec![start.clone()];
        let mut parent: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX)];
        index.insert(start, 0);
        let mut edges: Vec<(usize, usize, usize)> = Vec::new();
        let mut i = 0;
        while i < states.len() {
            for &m in &self.touching {
                let mv = &model.moves[m];
                let mut next = states[i].clone();
                for (j, &s) in kept.iter().enumerate() {
                    let (id, tw) = states[i][j];
                    let to = mv.dest[s as usize] as usize;
                    let modulus = goal.modulus[to].max(1);
                    next[kept_index[to]] = (id, (tw + mv.twist[s as usize]) % modulus);
                }
                match index.get(&next) {
                    Some(&j) => {
                        if parent[j] != (i, m) {
                            edges.push((i, m, j));
                        }
                    }
                    None => {
                        if states.len() >= KERNEL_STATES {
                            return;
                        }
                        index.insert(next.clone(), states.len());
                        parent.push((i, m));
                        states.push(next);
                    }
                }
            }
            i += 1;
        }
        let word = |mut j: usize| -> Vec<usize> {
            let mut w = Vec::new();
            while parent[j].0 != usize::MAX {
                w.push(parent[j].1);
                j = parent[j].0;
            }
            w.reverse();
            w
        };
        let depth: Vec<usize> = (0..states.len()).map(|j| word(j).len()).collect();
        edges.sort_by_key(|&(i, _, j)| depth[i] + depth[j]);
        let mut elements: Vec<(Vec<usize>, u64)> = Vec::new();
        let mut by_action: HashSet<Vec<(u16, u8)>> = HashSet::new();
        for (i, m, j) in edges.into_iter().take(KERNEL_GENERATORS) {
            let mut s = word(i);
            s.push(m);
            s.extend(model.inverse(&word(j)));
            let action = self.orbit_map(&s);
            let support = action
                .iter()
                .enumerate()
                .filter(|&(x, &a)| a != ((base + x) as u16, 0))
                .fold(0u64, |b, (x, _)| b | 1 << x);
            if support == 0 {
                continue;
            }
            // Itself, when it changes no invariant (another generator with
            // the same action on the orbit may not, so each is read).
            if support.count_ones() <= 3 {
                self.offer(&s, true);
            }
            if elements.len() < KERNEL_ELEMENTS && by_action.insert(action) {
                elements.push((s, support));
            }
            if self.satisfied() {
                return;
            }
        }
        for a in 0..elements.len() {
            for b in a + 1..elements.len() {
                let ((x, xb), (y, yb)) = (&elements[a], &elements[b]);
                if (xb & yb).count_ones() != 1 {
                    continue;
                }
                let seq = commutator(model, x, y);
                self.offer(&seq, false);
                if self.satisfied() {
                    return;
                }
            }
        }
    }
}

/// `X Y X' Y'`.
fn commutator(model: &Model, x: &[usize], y: &[usize]) -> Vec<usize> {
    let mut op = x.to_vec();
    op.extend_from_slice(y);
    op.extend(model.inverse(x));
    op.extend(model.inverse(y));
    op
}

/// Calls `visit` with every canonical sequence of `len` of `moves`
/// extending `prefix`, in order, until it returns false.
fn canonical_sequences(
    model: &Model,
    moves: &[usize],
    len: usize,
    prefix: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    walk(model, moves, len, prefix, None, &mut |seq, _| visit(seq))
}

/// [`canonical_sequences`], each given with `tracer` holding it pushed
/// ([`Tracer::push`]): a sequence is read from its prefix's state.
fn traced_sequences(
    model: &Model,
    moves: &[usize],
    len: usize,
    prefix: &mut Vec<usize>,
    tracer: &mut Tracer,
    visit: &mut dyn FnMut(&[usize], &mut Tracer) -> bool,
) -> bool {
    walk(
        model,
        moves,
        len,
        prefix,
        Some(tracer),
        &mut |seq, tracer| visit(seq, tracer.expect("a tracer is walked along")),
    )
}

/// The walk of [`canonical_sequences`], pushing each move on `tracer`
/// where one is given.
#[allow(clippy::type_complexity)]
fn walk(
    model: &Model,
    moves: &[usize],
    len: usize,
    prefix: &mut Vec<usize>,
    mut tracer: Option<&mut Tracer>,
    visit: &mut dyn FnMut(&[usize], Option<&mut Tracer>) -> bool,
) -> bool {
    if prefix.len() == len {
        return visit(prefix, tracer);
    }
    let last = prefix.last().map(|&m| model.moves[m].grip);
    for &m in moves {
        if model.may_follow(last, model.moves[m].grip) {
            prefix.push(m);
            if let Some(t) = tracer.as_deref_mut() {
                t.push(m);
            }
            let go_on = walk(model, moves, len, prefix, tracer.as_deref_mut(), visit);
            if let Some(t) = tracer.as_deref_mut() {
                t.pop();
            }
            prefix.pop();
            if !go_on {
                return false;
            }
        }
    }
    true
}

/// What `seq` does, if it is a 3-cycle or a 2-twist of `orbit` changing
/// no orbit `keep` marks (an orbit of pieces alike may have pieces of one
/// id exchanged).
#[allow(clippy::type_complexity)]
pub(crate) fn read_op(
    model: &Model,
    orbit: usize,
    keep: &[bool],
    goal: &GoalSlots,
    seq: &[usize],
) -> Option<(Vec<(u16, u16, u8)>, PureOp)> {
    // Followed one slot at a time as it is read: most sequences offered
    // are rejected at the first kept slot they disturb.
    let effect = (touched(model, seq).into_iter())
        .filter(|&s| {
            let k = model.orbit_of[s as usize] as usize;
            k == orbit || keep[k]
        })
        .map(|s| {
            let (to, twist) = model.follow(seq, s);
            (s, to, twist)
        });
    op_of_effect(model, orbit, keep, goal, seq, effect)
}

/// [`read_op`] given what `seq` does to the slots of `orbit` (in
/// increasing order) and of the kept orbits it touches (in any order
/// among them).
#[allow(clippy::type_complexity)]
fn op_of_effect(
    model: &Model,
    orbit: usize,
    keep: &[bool],
    goal: &GoalSlots,
    seq: &[usize],
    effect: impl IntoIterator<Item = (u16, u16, u8)>,
) -> Option<(Vec<(u16, u16, u8)>, PureOp)> {
    let mut changed: Vec<(u16, u16, u8)> = Vec::new();
    let mut exchanges = false;
    for (s, to, tw) in effect {
        let k = model.orbit_of[s as usize] as usize;
        if k != orbit && !keep[k] {
            continue;
        }
        if to == s && tw == 0 {
            continue;
        }
        if k != orbit {
            let (i, t) = (s as usize, to as usize);
            let alike =
                goal.alike[k] && goal.id[i] == goal.id[t] && tw % goal.modulus[t].max(1) == 0;
            if alike {
                exchanges = true;
                continue;
            }
            return None;
        }
        if changed.len() == 3 {
            return None;
        }
        changed.push((s, to, tw));
    }
    let base = model.base[orbit] as u16;
    let m = model.oris[orbit];
    match changed.len() {
        3 => {
            let x = changed[0];
            let y = *changed.iter().find(|c| c.0 == x.1)?;
            let z = *changed.iter().find(|c| c.0 == y.1)?;
            if z.1 != x.0 || x.1 == x.0 || (x.2 + y.2 + z.2) % m != 0 {
                return None;
            }
            Some((
                changed.clone(),
                PureOp {
                    moves: seq.to_vec(),
                    kind: OpKind::Cycle,
                    slots: [x.0 - base, y.0 - base, z.0 - base],
                    twist: [x.2, y.2, z.2],
                    exchanges,
                },
            ))
        }
        2 if changed.iter().all(|c| c.0 == c.1) && (changed[0].2 + changed[1].2) % m == 0 => {
            Some((
                changed.clone(),
                PureOp {
                    moves: seq.to_vec(),
                    kind: OpKind::Twist,
                    slots: [
                        changed[0].0 - base,
                        changed[1].0 - base,
                        changed[1].0 - base,
                    ],
                    twist: [changed[0].2, changed[1].2, 0],
                    exchanges,
                },
            ))
        }
        _ => None,
    }
}

/// Whether orbit `k`'s slots count in the searches' filters for finding
/// operations of `orbit`: the orbit's own, and the kept orbits' of
/// distinct pieces (a kept orbit of pieces alike is only checked when an
/// operation is read).
fn counted_orbit(orbit: usize, keep: &[bool], goal: &GoalSlots, k: usize) -> bool {
    k == orbit || (keep[k] && !goal.alike[k])
}

/// The slots `seq`'s moves touch, in increasing order. A move and its
/// inverse touch the same slots, so each pair's are merged in once (a
/// commutator's moves are a handful of pairs however long it is).
fn touched(model: &Model, seq: &[usize]) -> Vec<u16> {
    let mut pairs: Vec<usize> = seq.iter().map(|&m| m.min(model.moves[m].inverse)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut slots: Vec<u16> = Vec::new();
    for m in pairs {
        slots = merge_sorted(&slots, &model.moves[m].support);
    }
    slots
}

/// Whether `seq` leaves every invariant that counts as it was: even on
/// each orbit whose parity counts, no twist added to one whose twist sum
/// does.
pub(crate) fn neutral(model: &Model, seq: &[usize], invariants: &[(bool, u8)]) -> bool {
    let slots = touched(model, seq);
    let mut seen = vec![false; slots.len()];
    let mut odd = vec![false; invariants.len()];
    let mut twist = vec![0u32; invariants.len()];
    for i in 0..slots.len() {
        let k = model.orbit_of[slots[i] as usize] as usize;
        let (to, tw) = model.follow(seq, slots[i]);
        twist[k] += tw as u32;
        if seen[i] {
            continue;
        }
        // Walk the cycle through slot i.
        let mut len = 0;
        let mut next = to;
        seen[i] = true;
        loop {
            len += 1;
            match slots.binary_search(&next) {
                Ok(j) if !seen[j] => {
                    seen[j] = true;
                    next = model.follow(seq, slots[j]).0;
                }
                _ => break,
            }
        }
        if len % 2 == 0 {
            odd[k] = !odd[k];
        }
    }
    invariants
        .iter()
        .enumerate()
        .all(|(k, &(parity, modulus))| {
            !(parity && odd[k]) && (modulus <= 1 || twist[k] % modulus as u32 == 0)
        })
}

/// One cycle of counted slots under a word.
struct Cycle {
    start: u16,
    length: u64,
    period: u64,
}

/// `word` done `k` times.
fn power(word: &[usize], k: u64) -> Vec<usize> {
    word.iter()
        .copied()
        .cycle()
        .take(word.len() * k as usize)
        .collect()
}

fn gcd64(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd64(b, a % b)
    }
}
