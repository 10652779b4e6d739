//! The sorted-array engine: breadth-first search over sorted arrays of
//! packed positions, for puzzles that cannot be indexed or whose index
//! space is much larger than what the moves reach.
//!
//! Only three levels are kept: the one before, the frontier and the one
//! being built. A level's neighbours are generated a chunk at a time,
//! sorted, deduplicated and filtered against the two older levels. With
//! rotations (see [`Symmetry`]) each level holds class representatives,
//! counted by class size.

use rayon::prelude::*;

use super::keys::{with_key, Key, KeyPacker};
use super::symmetry::{Symmetry, SymmetryScratch};
use super::{
    CheckpointError, Context, DistanceTable, Engine, EngineOutput, GodsError, GodsEvent, GodsPlan,
};

/// Positions expanded at once (their neighbours are sorted together).
const CHUNK_NEIGHBOURS: usize = 1 << 22;

/// Bytes the engine needs for `reachable` positions: a key each for the
/// largest three consecutive levels, bounded by all of them, plus sorting
/// buffers.
pub(crate) fn memory_estimate(ctx: &Context<'_, '_>, reachable: u64) -> Option<u64> {
    let packer = KeyPacker::new(ctx.puzzle.layout());
    let key = key_bytes(&packer)?;
    let sym = if ctx.options.symmetry {
        Symmetry::new(ctx.puzzle, ctx.moves).map_or(1, |s| s.order() as u64)
    } else {
        1
    };
    let classes = reachable.div_ceil(sym);
    Some(classes.saturating_mul(key) + CHUNK_NEIGHBOURS as u64 * key * 2)
}

fn key_bytes(packer: &KeyPacker) -> Option<u64> {
    match packer.words() {
        1 => Some(8),
        2 => Some(16),
        3 | 4 => Some(32),
        5..=8 => Some(64),
        _ => None,
    }
}

/// Removes from the sorted `keys` those in the sorted `seen`: by binary
/// search when `keys` is much the smaller, else by walking both in step
/// (random probes into a large array cost far more than a sequential walk).
fn remove_sorted<K: Key>(keys: &mut Vec<K>, seen: &[K]) {
    if keys.len().saturating_mul(16) < seen.len() {
        keys.retain(|k| seen.binary_search(k).is_err());
        return;
    }
    let mut j = 0;
    keys.retain(|k| {
        while j < seen.len() && seen[j] < *k {
            j += 1;
        }
        !(j < seen.len() && seen[j] == *k)
    });
}

/// Runs breadth-first search on sorted arrays.
pub(crate) fn run(ctx: &mut Context<'_, '_>) -> Result<EngineOutput, GodsError> {
    let packer = KeyPacker::new(ctx.puzzle.layout());
    with_key!(packer, K => run_with::<K>(ctx, &packer))
}

/// Expands, canonicalises and weighs positions.
struct Expander<'a> {
    ctx_layout: &'a twistor_core::Layout,
    packer: &'a KeyPacker,
    moves: &'a [&'a [u8]],
    symmetry: Option<&'a Symmetry>,
}

struct Scratch {
    state: Vec<u8>,
    next: Vec<u8>,
    sym: SymmetryScratch,
}

impl Expander<'_> {
    fn scratch(&self) -> Scratch {
        let len = self.ctx_layout.state_len();
        Scratch {
            state: self.packer.blank(),
            next: vec![0; len],
            sym: Symmetry::scratch(len),
        }
    }

    fn key_of<K: Key>(&self, state: &[u8], s: &mut SymmetryScratch) -> K {
        match self.symmetry {
            Some(sym) => sym.canonical(self.packer, state, s),
            None => self.packer.pack(state),
        }
    }

    /// Calls `f` with the key of every neighbour of `key`.
    fn neighbours<K: Key>(&self, key: &K, s: &mut Scratch, mut f: impl FnMut(K)) {
        self.packer.unpack(key, &mut s.state);
        for mv in self.moves {
            self.ctx_layout.compose_into(&s.state, mv, &mut s.next);
            f(self.key_of(&s.next, &mut s.sym));
        }
    }

    fn weight<K: Key>(&self, key: &K, s: &mut Scratch) -> u64 {
        match self.symmetry {
            Some(sym) => {
                self.packer.unpack(key, &mut s.state);
                sym.class_size(&s.state, &mut s.sym)
            }
            None => 1,
        }
    }
}

/// The state between levels, as checkpoints hold it.
struct Levels<K> {
    counts: Vec<u64>,
    classes: Vec<u64>,
    local: Vec<u64>,
    strong: Vec<u64>,
    previous: Vec<K>,
    current: Vec<K>,
}

fn engine_name(packer: &KeyPacker, symmetry: Option<&Symmetry>) -> String {
    format!(
        "sorted words={} symmetry={}",
        packer.words(),
        symmetry.map_or(1, |s| s.order())
    )
}

fn save<K: Key>(ctx: &mut Context<'_, '_>, engine: &str, l: &Levels<K>) -> Result<(), GodsError> {
    let depth = l.counts.len() - 1;
    let header = ctx.checkpoint_header(engine, depth);
    let Some(store) = ctx.checkpoint.as_deref_mut() else {
        return Ok(());
    };
    let head = [
        l.counts.len() as u64,
        l.local.len() as u64,
        l.previous.len() as u64,
        l.current.len() as u64,
    ];
    let mut words = head
        .into_iter()
        .chain(l.counts.iter().copied())
        .chain(l.classes.iter().copied())
        .chain(l.local.iter().copied())
        .chain(l.strong.iter().copied())
        .chain(l.previous.iter().flat_map(|k| k.words().to_vec()))
        .chain(l.current.iter().flat_map(|k| k.words().to_vec()));
    store.save(&header, &mut words)?;
    ctx.emit(GodsEvent::CheckpointSaved { depth });
    Ok(())
}

fn load<K: Key>(ctx: &mut Context<'_, '_>, engine: &str) -> Result<Levels<K>, GodsError> {
    let (header, payload) = ctx.load_checkpoint(engine)?;
    let bad = || GodsError::Checkpoint(CheckpointError::Inconsistent);
    let mut it = payload.into_iter();
    let mut next = || it.next().ok_or_else(bad);
    let (nc, nl, np, ncur) = (
        next()? as usize,
        next()? as usize,
        next()? as usize,
        next()? as usize,
    );
    if nc == 0 || nc != header.depth + 1 || nl > nc {
        return Err(bad());
    }
    let mut read = |n: usize| (0..n).map(|_| next()).collect::<Result<Vec<u64>, _>>();
    let counts = read(nc)?;
    let classes = read(nc)?;
    let local = read(nl)?;
    let strong = read(nl)?;
    let w = K::zero().words().len();
    let mut keys = |n: usize| -> Result<Vec<K>, GodsError> {
        let flat = read(n.checked_mul(w).ok_or_else(bad)?)?;
        Ok(flat
            .chunks(w)
            .map(|c| {
                let mut k = K::zero();
                k.words_mut().copy_from_slice(c);
                k
            })
            .collect())
    };
    let previous = keys(np)?;
    let current = keys(ncur)?;
    ctx.emit(GodsEvent::Resumed { depth: nc - 1 });
    Ok(Levels {
        counts,
        classes,
        local,
        strong,
        previous,
        current,
    })
}

fn run_with<K: Key>(
    ctx: &mut Context<'_, '_>,
    packer: &KeyPacker,
) -> Result<EngineOutput, GodsError> {
    let layout = ctx.puzzle.layout();
    let symmetry = if ctx.options.symmetry {
        Symmetry::new(ctx.puzzle, ctx.moves)
    } else {
        None
    };
    let key = std::mem::size_of::<K>() as u64;
    let plan = GodsPlan {
        engine: Engine::SortedArray,
        memory: ctx
            .reachable
            .and_then(|r| memory_estimate(ctx, r))
            .unwrap_or(0),
        index_size: None,
        reachable: ctx.reachable,
        symmetry: symmetry.as_ref().map(|s| s.order()),
    };
    ctx.emit(GodsEvent::Plan(plan.clone()));
    let engine = engine_name(packer, symmetry.as_ref());
    let moves = ctx.move_bytes.clone();
    let ex = Expander {
        ctx_layout: layout,
        packer,
        moves: &moves,
        symmetry: symmetry.as_ref(),
    };
    let lm = ctx.options.local_maxima;
    let limit = ctx.options.memory_limit;
    let mut l: Levels<K> = if ctx.resume {
        load(ctx, &engine)?
    } else {
        let mut s = ex.scratch();
        let start: K = ex.key_of(ctx.puzzle.start().as_bytes(), &mut s.sym);
        let levels = Levels {
            counts: vec![ex.weight(&start, &mut s)],
            classes: vec![1],
            local: Vec::new(),
            strong: Vec::new(),
            previous: Vec::new(),
            current: vec![start],
        };
        ctx.emit(GodsEvent::LevelFinished {
            depth: 0,
            positions: levels.counts[0],
            total: levels.counts[0],
        });
        save(ctx, &engine, &levels)?;
        levels
    };
    loop {
        let depth = l.counts.len() - 1;
        let total: u64 = l.counts.iter().sum();
        if ctx.signals.stopped() {
            return Err(GodsError::Stopped { depth });
        }
        if !lm && ctx.reachable == Some(total) {
            break;
        }
        // Expand the frontier a chunk at a time.
        let nm = moves.len().max(1);
        let per_chunk = (CHUNK_NEIGHBOURS / nm).max(1);
        let chunks = l.current.len().div_ceil(per_chunk) as u64;
        ctx.emit(GodsEvent::LevelStarted {
            depth: depth + 1,
            work: chunks,
            backward: false,
        });
        let mut next: Vec<K> = Vec::new();
        let mut merged = 0usize;
        for (ci, xs) in l.current.chunks(per_chunk).enumerate() {
            if ctx.signals.stopped() {
                return Err(GodsError::Stopped { depth });
            }
            let mut found: Vec<K> = xs
                .par_chunks(256)
                .map_init(
                    || ex.scratch(),
                    |s, part| {
                        let mut v = Vec::with_capacity(part.len() * nm);
                        for x in part {
                            ex.neighbours(x, s, |k| v.push(k));
                        }
                        v.sort_unstable();
                        v.dedup();
                        v
                    },
                )
                .flatten()
                .collect();
            found.par_sort_unstable();
            found.dedup();
            remove_sorted(&mut found, &l.previous);
            remove_sorted(&mut found, &l.current);
            next.extend(found);
            if next.len() > 2 * merged.max(CHUNK_NEIGHBOURS) {
                next.par_sort_unstable();
                next.dedup();
                merged = next.len();
            }
            let held = (l.previous.len() + l.current.len() + next.len()) as u64 * key;
            if held > limit {
                return Err(GodsError::NotEnoughMemory {
                    needed: plan.memory.max(held),
                    limit,
                });
            }
            ctx.emit(GodsEvent::LevelProgress {
                depth: depth + 1,
                done: ci as u64 + 1,
                work: chunks,
            });
        }
        next.par_sort_unstable();
        next.dedup();
        if lm {
            let (cur, nxt) = (&l.current, &next);
            let (local, strong) = cur
                .par_iter()
                .map_init(
                    || ex.scratch(),
                    |s, x| {
                        let mut farther = false;
                        let mut same = false;
                        ex.neighbours(x, s, |k| {
                            if nxt.binary_search(&k).is_ok() {
                                farther = true;
                            } else if cur.binary_search(&k).is_ok() {
                                same = true;
                            }
                        });
                        if farther {
                            (0, 0)
                        } else {
                            let w = ex.weight(x, s);
                            (w, if same { 0 } else { w })
                        }
                    },
                )
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            l.local.push(local);
            l.strong.push(strong);
        }
        if next.is_empty() {
            break;
        }
        let positions: u64 = next
            .par_iter()
            .map_init(|| ex.scratch(), |s, k| ex.weight(k, s))
            .sum();
        l.counts.push(positions);
        l.classes.push(next.len() as u64);
        l.previous = std::mem::replace(&mut l.current, next);
        ctx.emit(GodsEvent::LevelFinished {
            depth: depth + 1,
            positions,
            total: total + positions,
        });
        save(ctx, &engine, &l)?;
    }
    let mut positions = Vec::new();
    for k in l.current.iter().take(ctx.options.antipodes) {
        let mut state = packer.blank();
        packer.unpack(k, &mut state);
        positions.push(state);
    }
    Ok(EngineOutput {
        antipode_count: *l.counts.last().unwrap_or(&0),
        table: DistanceTable {
            counts: l.counts,
            local_maxima: lm.then_some(l.local),
            strong_local_maxima: lm.then_some(l.strong),
        },
        antipode_positions: positions,
        classes: symmetry.is_some().then_some(l.classes),
        union_local_maxima: None,
        plan,
    })
}
