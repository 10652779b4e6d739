//! Shortest move sequences to given positions, by meeting in the middle.
//!
//! The bit-array engine keeps no distances, only which positions are the
//! antipodes; a sequence reaching one is found by a breadth-first ball of
//! radius `⌊D/2⌋` around the start (each position with the move that
//! reached it) and one of radius `⌈D/2⌉` around the target, until they
//! meet. Both balls are small next to the whole enumeration.

use twistor_core::Layout;

use super::hashing::FastMap;
use super::keys::{with_key, Key, KeyPacker};
use super::{Context, GodsError};

/// Marks the centre of a ball.
const CENTRE: u16 = u16::MAX;

/// Shortest sequences (move indices) reaching each target, which are all at
/// `distance` from the start; `None` if the balls would not fit memory.
pub(crate) fn shortest_sequences(
    ctx: &Context<'_, '_>,
    targets: &[Vec<u8>],
    distance: usize,
) -> Result<Option<Vec<Vec<usize>>>, GodsError> {
    let packer = KeyPacker::new(ctx.puzzle.layout());
    with_key!(packer, K => Ok(find::<K>(ctx, &packer, targets, distance)))
}

struct Walker<'a> {
    layout: &'a Layout,
    packer: &'a KeyPacker,
    moves: &'a [&'a [u8]],
    inverse: &'a [usize],
    limit: usize,
}

impl Walker<'_> {
    /// Positions within `radius` of `centre`, each with the move that
    /// reached it; `None` past the limit.
    fn ball<K: Key>(&self, centre: &[u8], radius: usize) -> Option<FastMap<K, u16>> {
        let mut map: FastMap<K, u16> = FastMap::default();
        let c: K = self.packer.pack(centre);
        map.insert(c, CENTRE);
        let mut frontier = vec![c];
        let mut state = self.packer.blank();
        let mut next = vec![0u8; self.layout.state_len()];
        for _ in 0..radius {
            let mut grown = Vec::new();
            for k in &frontier {
                self.packer.unpack(k, &mut state);
                for (m, mv) in self.moves.iter().enumerate() {
                    self.layout.compose_into(&state, mv, &mut next);
                    let nk: K = self.packer.pack(&next);
                    if let std::collections::hash_map::Entry::Vacant(e) = map.entry(nk) {
                        e.insert(m as u16);
                        grown.push(nk);
                    }
                }
            }
            if map.len() > self.limit {
                return None;
            }
            frontier = grown;
        }
        Some(map)
    }

    /// The moves from a ball's centre to `key`, in order.
    fn path_from_centre<K: Key>(&self, map: &FastMap<K, u16>, key: K) -> Option<Vec<usize>> {
        let mut path = Vec::new();
        let mut k = key;
        let mut state = self.packer.blank();
        let mut prev = vec![0u8; self.layout.state_len()];
        loop {
            let m = *map.get(&k)?;
            if m == CENTRE {
                break;
            }
            path.push(m as usize);
            self.packer.unpack(&k, &mut state);
            self.layout
                .compose_into(&state, self.moves[self.inverse[m as usize]], &mut prev);
            k = self.packer.pack(&prev);
            if path.len() > map.len() {
                return None;
            }
        }
        path.reverse();
        Some(path)
    }
}

fn find<K: Key>(
    ctx: &Context<'_, '_>,
    packer: &KeyPacker,
    targets: &[Vec<u8>],
    distance: usize,
) -> Option<Vec<Vec<usize>>> {
    let layout = ctx.puzzle.layout();
    let inverse = (0..ctx.moves.moves().len())
        .map(|m| ctx.moves.inverse_of(m))
        .collect::<Option<Vec<usize>>>()?;
    let entry = std::mem::size_of::<K>() + 24;
    let w = Walker {
        layout,
        packer,
        moves: &ctx.move_bytes,
        inverse: &inverse,
        limit: (ctx.options.memory_limit / 4 / entry as u64) as usize,
    };
    let near = distance / 2;
    let far = distance - near;
    let start_ball = w.ball::<K>(ctx.puzzle.start().as_bytes(), near)?;
    let mut out = Vec::with_capacity(targets.len());
    for t in targets {
        if ctx.signals.stopped() {
            return None;
        }
        let target_ball = w.ball::<K>(t, far)?;
        let meet = target_ball
            .keys()
            .filter(|k| start_ball.contains_key(k))
            .min()
            .copied()?;
        let mut path = w.path_from_centre(&start_ball, meet)?;
        // From the meeting point back to the target: undo the target
        // ball's moves, last first.
        let back = w.path_from_centre(&target_ball, meet)?;
        path.extend(back.iter().rev().map(|&m| inverse[m]));
        // Check the sequence before handing it out.
        let mut s = ctx.puzzle.start().as_bytes().to_vec();
        let mut n = s.clone();
        for &m in &path {
            layout.compose_into(&s, ctx.move_bytes[m], &mut n);
            std::mem::swap(&mut s, &mut n);
        }
        if s != *t || path.len() != distance {
            return None;
        }
        out.push(path);
    }
    Some(out)
}
