//! Jerry Bryan's products method (Cube-Lovers, 1998), with his Ends-with
//! sets for local maxima.
//!
//! Every position up to depth `a` is stored (found breadth-first). A
//! position `z` at depth `a + k` (`k <= a`) is a product `x·y` with `|x| =
//! a` and `|y| = k`, so depth `a + k` is the set of products of those
//! lengths that match no shorter position (stored, or built before at
//! depths `a+1 .. a+k-1`). Once depth `2a` is built, `a` doubles.
//!
//! For local maxima each position carries two sets of moves:
//! `E(z)`, the moves a minimal maneuver for `z` can end with (`|z f'| =
//! |z| - 1`), and `E2(z)`, the moves `f` with `|z f'| = |z|`. For stored
//! positions both come from looking at the neighbours. For a product
//! layer, as the method's author corrects it, `E(z)` is the union of
//! `E(y)` over every pair `x·y = z`, and `E2(z)` the union of `E2(y)` with
//! the moves already in `E(z)` taken out. A local maximum has
//! `|E(z)| + |E2(z)|` equal to the number of moves; a strong one has all of
//! them in `E(z)`.
//!
//! The union for `E(z)` is exact, but the union for `E2(z)` is only a
//! lower bound: `|z f'| = |z|` can hold although no pair `x·y = z` has
//! `|y f'| = |y|` (the two positions share no ancestor at depth `a` on
//! their shortest paths). On the 2x2x2 `<U,F,R>` in the face-turn metric
//! with `a = 9` the union alone finds 454,444 local maxima at depth 10
//! where there are 604,516. So after the unions, each move `f` in neither
//! set is checked directly: `f` joins `E2(z)` when `z f'` lies in the
//! layer itself. The counts from the unions alone are reported too
//! ([`GodsReport::union_local_maxima`](super::GodsReport)).
//!
//! Positions are transformations here (`y` must be one to multiply by), so
//! the method needs a start state with distinguishable pieces.

//! Positions are kept in dense arrays over the perfect index when the
//! puzzle can be indexed and they fit (random access into a large hash
//! table costs far more than ranking a position), in a hash table
//! otherwise.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use twistor_core::index::PositionIndexer;
use twistor_core::Transformation;

use super::hashing::FastMap;
use super::keys::{with_key, Key, KeyPacker};
use super::{
    CheckpointError, Context, DistanceTable, Engine, EngineOutput, GodsError, GodsEvent, GodsPlan,
};

/// Turns positions into keys and back.
trait Codec: Sync {
    type Key: Key;
    fn encode(&self, state: &[u8]) -> Self::Key;
    fn decode(&self, key: &Self::Key, state: &mut [u8]);
    fn blank(&self) -> Vec<u8>;
}

/// Keys are packed positions.
struct Packed<'a, K> {
    packer: &'a KeyPacker,
    key: PhantomData<K>,
}

impl<K: Key> Codec for Packed<'_, K> {
    type Key = K;
    #[inline]
    fn encode(&self, state: &[u8]) -> K {
        self.packer.pack(state)
    }
    #[inline]
    fn decode(&self, key: &K, state: &mut [u8]) {
        self.packer.unpack(key, state)
    }
    fn blank(&self) -> Vec<u8> {
        self.packer.blank()
    }
}

/// Keys are perfect indices.
struct Indexed<'a> {
    indexer: &'a PositionIndexer,
}

impl Codec for Indexed<'_> {
    type Key = [u64; 1];
    #[inline]
    fn encode(&self, state: &[u8]) -> [u64; 1] {
        [self.indexer.rank(state)]
    }
    #[inline]
    fn decode(&self, key: &[u64; 1], state: &mut [u8]) {
        self.indexer.unrank(key[0], state)
    }
    fn blank(&self) -> Vec<u8> {
        vec![0; self.indexer.layout().state_len()]
    }
}

/// What a product-layer worker reports: a position and its `E`, `E2` parts.
type Emit<'e, K> = &'e mut dyn FnMut(K, u64, u64);

/// The depths of the positions found so far, and the merging of a product
/// layer's unions.
trait Store<K>: Sync {
    /// The depth of a position found so far.
    fn depth(&self, key: &K) -> Option<u8>;
    /// Records a layer.
    fn insert(&mut self, keys: &[K], depth: u8);
    /// Runs `produce(c, emit)` for every chunk `c < chunks` on all threads
    /// and returns what they emitted, merged by key (the move sets or-ed)
    /// and sorted.
    fn gather(
        &self,
        chunks: usize,
        produce: &(dyn Fn(usize, Emit<'_, K>) + Sync),
    ) -> Vec<(K, u64, u64)>;
}

/// Positions in a hash table.
struct HashStore<K> {
    map: FastMap<K, u8>,
}

impl<K: Key> Store<K> for HashStore<K> {
    fn depth(&self, key: &K) -> Option<u8> {
        self.map.get(key).copied()
    }

    fn insert(&mut self, keys: &[K], depth: u8) {
        for k in keys {
            self.map.insert(*k, depth);
        }
    }

    fn gather(
        &self,
        chunks: usize,
        produce: &(dyn Fn(usize, Emit<'_, K>) + Sync),
    ) -> Vec<(K, u64, u64)> {
        let merged = (0..chunks)
            .into_par_iter()
            .fold(FastMap::<K, (u64, u64)>::default, |mut acc, c| {
                produce(c, &mut |k, e, e2| {
                    let v = acc.entry(k).or_default();
                    v.0 |= e;
                    v.1 |= e2;
                });
                acc
            })
            .reduce(FastMap::default, |a, b| {
                let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
                for (k, (e, e2)) in small {
                    let v = big.entry(k).or_default();
                    v.0 |= e;
                    v.1 |= e2;
                }
                big
            });
        let mut out: Vec<(K, u64, u64)> =
            merged.into_iter().map(|(k, (e, e2))| (k, e, e2)).collect();
        out.par_sort_unstable_by_key(|t| t.0);
        out
    }
}

/// Positions in arrays over the perfect index: a depth byte each (255
/// while unseen) and the move sets of the layer being built.
struct DenseStore {
    depths: Vec<u8>,
    ends: Vec<AtomicU64>,
    ends2: Vec<AtomicU64>,
}

impl DenseStore {
    fn new(size: u64) -> DenseStore {
        let n = size as usize;
        DenseStore {
            depths: vec![u8::MAX; n],
            ends: (0..n).map(|_| AtomicU64::new(0)).collect(),
            ends2: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn bytes(size: u64) -> u64 {
        size.saturating_mul(17)
    }
}

fn or_into(a: &AtomicU64, bits: u64) {
    // Most products add nothing new; only those that do pay for the
    // atomic operation.
    if a.load(Relaxed) & bits != bits {
        a.fetch_or(bits, Relaxed);
    }
}

impl Store<[u64; 1]> for DenseStore {
    fn depth(&self, key: &[u64; 1]) -> Option<u8> {
        let d = self.depths[key[0] as usize];
        (d != u8::MAX).then_some(d)
    }

    fn insert(&mut self, keys: &[[u64; 1]], depth: u8) {
        for k in keys {
            self.depths[k[0] as usize] = depth;
        }
    }

    fn gather(
        &self,
        chunks: usize,
        produce: &(dyn Fn(usize, Emit<'_, [u64; 1]>) + Sync),
    ) -> Vec<([u64; 1], u64, u64)> {
        (0..chunks).into_par_iter().for_each(|c| {
            produce(c, &mut |k, e, e2| {
                or_into(&self.ends[k[0] as usize], e);
                or_into(&self.ends2[k[0] as usize], e2);
            })
        });
        // Every position of a product layer has a non-empty E (the last
        // move of y), so the non-zero entries are the layer.
        self.ends
            .par_iter()
            .zip(self.ends2.par_iter())
            .enumerate()
            .filter_map(|(i, (e, e2))| {
                let ev = e.swap(0, Relaxed);
                let e2v = e2.swap(0, Relaxed);
                (ev != 0).then_some(([i as u64], ev, e2v))
            })
            .collect()
    }
}

/// One depth: its positions (sorted) and their Ends-with sets.
struct Layer<K> {
    keys: Vec<K>,
    ends: Vec<u64>,
    ends2: Vec<u64>,
    /// Local maxima counted from the pure unions (exact for stored layers).
    union_maxima: u64,
}

/// Where the method stands, as checkpoints hold it.
struct State<K> {
    layers: Vec<Layer<K>>,
    /// The stored depth `a` once breadth-first search has stopped; 0
    /// while it runs.
    stored: usize,
    /// Whether every depth is known.
    complete: bool,
}

/// Bytes a hash-table entry and a layer entry take, roughly.
fn entry_bytes<K>() -> u64 {
    2 * std::mem::size_of::<K>() as u64 + 40
}

/// Runs the products method.
pub(crate) fn run(
    ctx: &mut Context<'_, '_>,
    stored_depth: Option<usize>,
) -> Result<EngineOutput, GodsError> {
    let layout = ctx.puzzle.layout();
    let start = ctx.puzzle.start();
    if layout.has_identical_pieces(start) || layout.has_partial_orientation(start) {
        return Err(GodsError::ProductsNeedTransformations);
    }
    let start_t = layout
        .transformation_of(start)
        .ok_or(GodsError::ProductsNeedTransformations)?;
    let generators = ctx.grip_transformations();
    if let Ok(indexer) = PositionIndexer::new(layout, start, &generators) {
        let bytes = DenseStore::bytes(indexer.size());
        if bytes <= ctx.options.memory_limit / 2 && indexer.size() <= usize::MAX as u64 {
            let codec = Indexed { indexer: &indexer };
            let store = DenseStore::new(indexer.size());
            return run_with(ctx, &codec, store, bytes, "indexed", &start_t, stored_depth);
        }
    }
    let packer = KeyPacker::new(layout);
    with_key!(packer, K => {
        let codec = Packed::<K> { packer: &packer, key: PhantomData };
        let store = HashStore { map: FastMap::default() };
        let bytes = ctx.reachable.map_or(0, |r| r.saturating_mul(entry_bytes::<K>()));
        let kind = format!("packed{}", packer.words());
        run_with(ctx, &codec, store, bytes, &kind, &start_t, stored_depth)
    })
}

struct Tools<'a, C> {
    layout: &'a twistor_core::Layout,
    codec: &'a C,
    moves: &'a [&'a [u8]],
    inverse: Vec<usize>,
}

impl<C: Codec> Tools<'_, C> {
    fn scratch(&self) -> (Vec<u8>, Vec<u8>) {
        (self.codec.blank(), vec![0u8; self.layout.state_len()])
    }

    /// The Ends-with sets of a layer found breadth-first, from its
    /// neighbours' depths.
    fn ends_from_neighbours<S: Store<C::Key>>(
        &self,
        keys: &[C::Key],
        depth: usize,
        store: &S,
    ) -> (Vec<u64>, Vec<u64>) {
        keys.par_iter()
            .map_init(
                || self.scratch(),
                |(state, next), k| {
                    self.codec.decode(k, state);
                    let (mut e, mut e2) = (0u64, 0u64);
                    for (g, mv) in self.moves.iter().enumerate() {
                        self.layout.compose_into(state, mv, next);
                        match store.depth(&self.codec.encode(next)) {
                            Some(d) if d as usize + 1 == depth => e |= 1 << self.inverse[g],
                            Some(d) if d as usize == depth => e2 |= 1 << self.inverse[g],
                            _ => {}
                        }
                    }
                    (e, e2)
                },
            )
            .unzip()
    }

    /// `E2` of a product layer: the unions, plus each move `f` in neither
    /// set for which `z f'` lies in the layer itself.
    fn complete_ends2(&self, keys: &[C::Key], ends: &[u64], union2: &[u64], all: u64) -> Vec<u64> {
        keys.par_iter()
            .zip(ends.par_iter().zip(union2.par_iter()))
            .map_init(
                || self.scratch(),
                |(state, next), (k, (&e, &e2))| {
                    let mut open = all & !(e | e2);
                    let mut out = e2;
                    if open != 0 {
                        self.codec.decode(k, state);
                    }
                    while open != 0 {
                        let f = open.trailing_zeros() as usize;
                        open &= open - 1;
                        self.layout
                            .compose_into(state, self.moves[self.inverse[f]], next);
                        if keys.binary_search(&self.codec.encode(next)).is_ok() {
                            out |= 1 << f;
                        }
                    }
                    out
                },
            )
            .collect()
    }

    /// The next layer breadth-first: neighbours of `keys` not yet seen.
    fn expand<S: Store<C::Key>>(&self, keys: &[C::Key], store: &S) -> Vec<C::Key> {
        let mut next: Vec<C::Key> = keys
            .par_chunks(256)
            .map_init(
                || self.scratch(),
                |(state, out), part| {
                    let mut v = Vec::new();
                    for k in part {
                        self.codec.decode(k, state);
                        for mv in self.moves {
                            self.layout.compose_into(state, mv, out);
                            let key = self.codec.encode(out);
                            if store.depth(&key).is_none() {
                                v.push(key);
                            }
                        }
                    }
                    v
                },
            )
            .flatten()
            .collect();
        next.par_sort_unstable();
        next.dedup();
        next
    }
}

fn save<K: Key>(ctx: &mut Context<'_, '_>, engine: &str, s: &State<K>) -> Result<(), GodsError> {
    let depth = s.layers.len() - 1;
    let header = ctx.checkpoint_header(engine, depth);
    let Some(store) = ctx.checkpoint.as_deref_mut() else {
        return Ok(());
    };
    let head = [s.layers.len() as u64, s.stored as u64, s.complete as u64];
    let mut words = head.into_iter().chain(s.layers.iter().flat_map(|l| {
        [l.keys.len() as u64, l.union_maxima]
            .into_iter()
            .chain(l.keys.iter().flat_map(|k| k.words().to_vec()))
            .chain(l.ends.iter().copied())
            .chain(l.ends2.iter().copied())
    }));
    store.save(&header, &mut words)?;
    ctx.emit(GodsEvent::CheckpointSaved { depth });
    Ok(())
}

fn load<K: Key>(ctx: &mut Context<'_, '_>, engine: &str) -> Result<State<K>, GodsError> {
    let (header, payload) = ctx.load_checkpoint(engine)?;
    let bad = || GodsError::Checkpoint(CheckpointError::Inconsistent);
    let mut it = payload.into_iter();
    let mut next = || it.next().ok_or_else(bad);
    let (nl, stored, complete) = (next()? as usize, next()? as usize, next()? != 0);
    if nl == 0 || nl != header.depth + 1 || stored >= nl {
        return Err(bad());
    }
    let mut layers = Vec::with_capacity(nl);
    for _ in 0..nl {
        let n = next()? as usize;
        let union_maxima = next()?;
        let mut keys = Vec::with_capacity(n.min(1 << 24));
        for _ in 0..n {
            let mut k = K::zero();
            for x in k.words_mut() {
                *x = next()?;
            }
            keys.push(k);
        }
        let ends = (0..n).map(|_| next()).collect::<Result<Vec<u64>, _>>()?;
        let ends2 = (0..n).map(|_| next()).collect::<Result<Vec<u64>, _>>()?;
        layers.push(Layer {
            keys,
            ends,
            ends2,
            union_maxima,
        });
    }
    ctx.emit(GodsEvent::Resumed { depth: nl - 1 });
    Ok(State {
        layers,
        stored,
        complete,
    })
}

fn run_with<C: Codec, S: Store<C::Key>>(
    ctx: &mut Context<'_, '_>,
    codec: &C,
    mut store: S,
    store_bytes: u64,
    kind: &str,
    start_t: &Transformation,
    stored_depth: Option<usize>,
) -> Result<EngineOutput, GodsError> {
    let layout = ctx.puzzle.layout();
    let nm = ctx.moves.moves().len();
    let all: u64 = if nm == 64 { !0 } else { (1u64 << nm) - 1 };
    let inverse = (0..nm)
        .map(|m| ctx.moves.inverse_of(m))
        .collect::<Option<Vec<usize>>>()
        .ok_or(GodsError::ProductsNeedTransformations)?;
    let moves = ctx.move_bytes.clone();
    let tools = Tools {
        layout,
        codec,
        moves: &moves,
        inverse,
    };
    let start_inv = layout.invert(start_t);
    let limit = ctx.options.memory_limit;
    let key_bytes = std::mem::size_of::<C::Key>() as u64 + 16;
    let plan = GodsPlan {
        engine: Engine::Products,
        memory: store_bytes + ctx.reachable.map_or(0, |r| r * key_bytes),
        index_size: None,
        reachable: ctx.reachable,
        symmetry: None,
    };
    ctx.emit(GodsEvent::Plan(plan.clone()));
    let engine = format!(
        "products keys={kind} stored-depth={}",
        stored_depth.map_or("auto".to_string(), |a| a.to_string())
    );
    let mut st: State<C::Key> = if ctx.resume {
        load(ctx, &engine)?
    } else {
        let s = State {
            layers: vec![Layer {
                keys: vec![codec.encode(ctx.puzzle.start().as_bytes())],
                ends: vec![0],
                ends2: vec![0],
                union_maxima: 0,
            }],
            stored: 0,
            complete: false,
        };
        ctx.emit(GodsEvent::LevelFinished {
            depth: 0,
            positions: 1,
            total: 1,
        });
        save(ctx, &engine, &s)?;
        s
    };
    for (d, l) in st.layers.iter().enumerate() {
        store.insert(&l.keys, d as u8);
    }
    while !st.complete {
        let depth = st.layers.len() - 1;
        let total: u64 = st.layers.iter().map(|l| l.keys.len() as u64).sum();
        if ctx.signals.stopped() {
            return Err(GodsError::Stopped { depth });
        }
        if depth >= u8::MAX as usize - 1 {
            return Err(GodsError::Checkpoint(CheckpointError::TooManyDepths));
        }
        let held = store_bytes.max(total * entry_bytes::<C::Key>()) + total * key_bytes;
        if held > limit {
            return Err(GodsError::NotEnoughMemory {
                needed: plan.memory.max(held),
                limit,
            });
        }
        let done = ctx.reachable == Some(total);
        if st.stored == 0 {
            // Breadth-first until depth a.
            let stop_here = done
                || stored_depth.is_some_and(|a| depth >= a.max(1))
                || (stored_depth.is_none()
                    && depth >= 1
                    && (st.layers[depth].keys.len() < st.layers[depth - 1].keys.len()
                        || 2 * held > limit));
            if !stop_here {
                ctx.emit(GodsEvent::LevelStarted {
                    depth: depth + 1,
                    work: 1,
                    backward: false,
                });
                let next = tools.expand(&st.layers[depth].keys, &store);
                if next.is_empty() {
                    st.complete = true;
                } else {
                    store.insert(&next, depth as u8 + 1);
                    let n = next.len();
                    st.layers.push(Layer {
                        ends: vec![0; n],
                        ends2: vec![0; n],
                        keys: next,
                        union_maxima: 0,
                    });
                    ctx.emit(GodsEvent::LevelFinished {
                        depth: depth + 1,
                        positions: n as u64,
                        total: total + n as u64,
                    });
                    save(ctx, &engine, &st)?;
                    continue;
                }
            }
            // The stored layers' Ends-with sets, from their neighbours.
            for d in 0..st.layers.len() {
                let (e, e2) = tools.ends_from_neighbours(&st.layers[d].keys, d, &store);
                st.layers[d].union_maxima =
                    e.iter().zip(&e2).filter(|(&a, &b)| a | b == all).count() as u64;
                st.layers[d].ends = e;
                st.layers[d].ends2 = e2;
            }
            st.stored = depth;
            st.complete |= done;
            save(ctx, &engine, &st)?;
            continue;
        }
        if done {
            st.complete = true;
            break;
        }
        // Depth a + k as products x·y, |x| = a, |y| = k; a doubles once
        // depth 2a is built.
        let mut a = st.stored;
        if depth + 1 - a > a {
            a = depth;
            st.stored = a;
        }
        let k = depth + 1 - a;
        let ys = &st.layers[k];
        let len = layout.state_len();
        // y as the transformation that reaches it: start⁻¹ · y.
        let mut y_moves = vec![0u8; ys.keys.len() * len];
        {
            let mut y = codec.blank();
            for (i, key) in ys.keys.iter().enumerate() {
                codec.decode(key, &mut y);
                layout.compose_into(
                    start_inv.as_bytes(),
                    &y,
                    &mut y_moves[i * len..(i + 1) * len],
                );
            }
        }
        let xs = &st.layers[a].keys;
        let per = (1usize << 16) / ys.keys.len().max(1) + 1;
        let chunks = xs.len().div_ceil(per);
        ctx.emit(GodsEvent::LevelStarted {
            depth: depth + 1,
            work: chunks as u64,
            backward: false,
        });
        let counter = AtomicU64::new(0);
        let signals = ctx.signals;
        let store_ref = &store;
        let produce = |c: usize, emit: Emit<'_, C::Key>| {
            if signals.stopped() {
                return;
            }
            let (mut x, mut z) = (codec.blank(), vec![0u8; len]);
            for key in &xs[c * per..((c + 1) * per).min(xs.len())] {
                codec.decode(key, &mut x);
                for (j, ty) in y_moves.chunks_exact(len).enumerate() {
                    layout.compose_into(&x, ty, &mut z);
                    let zk = codec.encode(&z);
                    if store_ref.depth(&zk).is_none() {
                        emit(zk, ys.ends[j], ys.ends2[j]);
                    }
                }
            }
            let d = counter.fetch_add(1, Relaxed) + 1;
            signals.emit(GodsEvent::LevelProgress {
                depth: depth + 1,
                done: d,
                work: chunks as u64,
            });
        };
        let entries = store.gather(chunks, &produce);
        if ctx.signals.stopped() {
            return Err(GodsError::Stopped { depth });
        }
        if entries.is_empty() {
            st.complete = true;
            break;
        }
        let n = entries.len() as u64;
        let keys: Vec<C::Key> = entries.iter().map(|t| t.0).collect();
        let ends: Vec<u64> = entries.iter().map(|t| t.1).collect();
        let union2: Vec<u64> = entries.iter().map(|t| t.2 & !t.1).collect();
        drop(entries);
        store.insert(&keys, depth as u8 + 1);
        let union_maxima = ends
            .iter()
            .zip(&union2)
            .filter(|(&e, &e2)| e | e2 == all)
            .count() as u64;
        let ends2 = tools.complete_ends2(&keys, &ends, &union2, all);
        st.layers.push(Layer {
            keys,
            ends,
            ends2,
            union_maxima,
        });
        ctx.emit(GodsEvent::LevelFinished {
            depth: depth + 1,
            positions: n,
            total: total + n,
        });
        save(ctx, &engine, &st)?;
    }
    let lm = ctx.options.local_maxima;
    let (mut local, mut strong) = (Vec::new(), Vec::new());
    let union_local: Vec<u64> = st.layers.iter().map(|l| l.union_maxima).collect();
    for l in &st.layers {
        let both = l.ends.iter().zip(&l.ends2);
        local.push(both.filter(|(&e, &e2)| e | e2 == all).count() as u64);
        strong.push(l.ends.iter().filter(|&&e| e == all).count() as u64);
    }
    let counts: Vec<u64> = st.layers.iter().map(|l| l.keys.len() as u64).collect();
    let last = st.layers.last().map_or(&[][..], |l| &l.keys[..]);
    let positions = last
        .iter()
        .take(ctx.options.antipodes)
        .map(|k| {
            let mut s = codec.blank();
            codec.decode(k, &mut s);
            s
        })
        .collect();
    Ok(EngineOutput {
        antipode_count: *counts.last().unwrap_or(&0),
        table: DistanceTable {
            counts,
            local_maxima: lm.then_some(local),
            strong_local_maxima: lm.then_some(strong),
        },
        antipode_positions: positions,
        classes: None,
        union_local_maxima: lm.then_some(union_local),
        plan,
    })
}
