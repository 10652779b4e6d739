//! Projections of a puzzle: what remains of a position when only some
//! pieces are tracked, and a perfect index of those abstract positions.
//!
//! A projection keeps, for chosen orbits, which slots hold which tracked
//! piece classes and the orientations of the tracked pieces; every other
//! piece is anonymous. Moves act on projected positions as they act on
//! positions, so the distance of a projected position is a lower bound on
//! the distance of any position that projects to it: the basis of pattern
//! databases. Identical pieces of the goal become one class; orientations
//! known only modulo `d` (or not at all) are indexed modulo `d`.

use twistor_core::{Layout, Pattern};

/// Class label of untracked pieces.
const REST: u8 = u8::MAX;

/// The projection of one orbit.
#[derive(Clone, Debug)]
pub(crate) struct OrbitPart {
    pub orbit: usize,
    pub n: usize,
    /// Goal piece id → class (tracked classes are `0..counts.len()`), or REST.
    class_of_id: [u8; 256],
    /// Pieces per tracked class.
    counts: Vec<u8>,
    /// Orientation radix per tracked class (1 = orientation not tracked).
    radix: Vec<u8>,
    /// Orientation code → value.
    value_of_code: [u8; 256],
    /// Whether every class has one piece (fast ranking).
    distinct: bool,
    /// Whether the last tracked orientation is implied by the others.
    drop_last: bool,
    /// The orbit's total orientation (mod its count) when `drop_last`.
    twist_total: u8,
    perm_size: u64,
    ori_size: u64,
}

/// A projection of a whole puzzle: parts for some orbits, combined in mixed radix.
#[derive(Clone, Debug)]
pub struct Projection {
    pub(crate) parts: Vec<OrbitPart>,
    size: u64,
    /// A short description (which pieces), for messages and cache headers.
    description: String,
}

/// A choice of tracked pieces for one orbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrbitSelection {
    /// Orbit index.
    pub orbit: usize,
    /// Goal piece ids tracked (each id tracks every piece with that id).
    pub ids: Vec<u8>,
    /// Whether orientations are tracked.
    pub orientation: bool,
}

/// `n! / (k! (n-k)!)`-style multinomial: `n! / prod(counts!) / rest!`, or
/// `None` on overflow.
fn multinomial(n: usize, counts: &[u8]) -> Option<u64> {
    let mut result: u128 = 1;
    let mut placed = 0usize;
    for &c in counts {
        for i in 1..=c as usize {
            placed += 1;
            result = result * placed as u128 / i as u128;
            if result > u64::MAX as u128 {
                return None;
            }
        }
    }
    // The untracked pieces fill the rest: choose positions among n.
    let mut r: u128 = result;
    for i in placed + 1..=n {
        r = r * i as u128 / (i - placed) as u128;
        if r > u64::MAX as u128 {
            return None;
        }
    }
    Some(r as u64)
}

impl Projection {
    /// The projection tracking `selections` against `goal`, or `None` if its
    /// index space exceeds `u64` entries. `twist_invariant[k]` says whether
    /// the moves preserve orbit `k`'s total orientation, letting a fully
    /// tracked orbit drop its last orientation digit.
    pub fn new(
        layout: &Layout,
        goal: &Pattern,
        selections: &[OrbitSelection],
        twist_invariant: &[bool],
    ) -> Option<Projection> {
        let mut parts = Vec::new();
        let mut size: u64 = 1;
        let mut description = Vec::new();
        for sel in selections {
            let k = sel.orbit;
            let orbit = &layout.orbits()[k];
            let n = orbit.num_pieces();
            let perm = layout.perm(goal.as_bytes(), k);
            let ori = layout.ori(goal.as_bytes(), k);
            let mut class_of_id = [REST; 256];
            let mut counts = Vec::new();
            let mut radix = Vec::new();
            let mut value_of_code = [0u8; 256];
            for code in 0..=255u8 {
                if let Some((v, _)) = layout.try_decode_orientation(k, code) {
                    value_of_code[code as usize] = v;
                }
            }
            for &id in &sel.ids {
                if class_of_id[id as usize] != REST {
                    continue;
                }
                let slots: Vec<usize> = (0..n).filter(|&s| perm[s] == id).collect();
                if slots.is_empty() {
                    continue;
                }
                class_of_id[id as usize] = counts.len() as u8;
                counts.push(slots.len() as u8);
                // All pieces of a class must share a modulus to track orientation.
                let mods: Vec<u8> = slots
                    .iter()
                    .map(|&s| layout.decode_orientation(k, ori[s]).1)
                    .collect();
                let m = mods[0];
                let r = if !sel.orientation || mods.iter().any(|&x| x != m) {
                    1
                } else if m == 0 {
                    orbit.num_orientations() as u8
                } else {
                    m
                };
                radix.push(r);
            }
            if counts.is_empty() {
                continue;
            }
            let distinct = n <= 64 && counts.iter().all(|&c| c == 1);
            let tracked: usize = counts.iter().map(|&c| c as usize).sum();
            let full = tracked == n;
            let drop_last = full
                && twist_invariant.get(k).copied().unwrap_or(false)
                && radix
                    .iter()
                    .all(|&r| r as usize == orbit.num_orientations())
                && radix[0] > 1;
            let perm_size = multinomial(n, &counts)?;
            let mut ori_size: u64 = 1;
            let mut digits = 0;
            for (c, &cnt) in counts.iter().enumerate() {
                for _ in 0..cnt {
                    digits += 1;
                    if !(drop_last && digits == tracked) {
                        ori_size = ori_size.checked_mul(radix[c] as u64)?;
                    }
                }
            }
            size = size.checked_mul(perm_size)?.checked_mul(ori_size)?;
            description.push(format!(
                "{}:{}{}",
                orbit.name(),
                if full {
                    "all".to_string()
                } else {
                    format!("{tracked}/{n}")
                },
                if radix.iter().any(|&r| r > 1) {
                    "+ori"
                } else {
                    ""
                }
            ));
            let twist_total = (ori
                .iter()
                .map(|&c| value_of_code[c as usize] as u32)
                .sum::<u32>()
                % orbit.num_orientations() as u32) as u8;
            parts.push(OrbitPart {
                orbit: k,
                n,
                class_of_id,
                counts,
                radix,
                value_of_code,
                distinct,
                drop_last,
                twist_total,
                perm_size,
                ori_size,
            });
        }
        if parts.is_empty() {
            return None;
        }
        Some(Projection {
            parts,
            size,
            description: description.join(" "),
        })
    }

    /// Number of abstract positions (the index space).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Which pieces it tracks, briefly.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The index of a position (a pattern's packed bytes).
    #[inline]
    pub fn index(&self, layout: &Layout, state: &[u8]) -> u64 {
        let mut idx = 0u64;
        for part in &self.parts {
            let perm = layout.perm(state, part.orbit);
            let ori = layout.ori(state, part.orbit);
            idx = idx * part.perm_size * part.ori_size + part.rank(perm, ori, true);
        }
        idx
    }

    /// The projected form of a position: per part, the class in each slot
    /// and the orientation value of each tracked slot.
    pub(crate) fn project(&self, layout: &Layout, state: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for part in &self.parts {
            let perm = layout.perm(state, part.orbit);
            let ori = layout.ori(state, part.orbit);
            for s in 0..part.n {
                out.push(part.class_of_id[perm[s] as usize]);
            }
            for s in 0..part.n {
                let c = part.class_of_id[perm[s] as usize];
                out.push(if c == REST {
                    0
                } else {
                    part.value_of_code[ori[s] as usize] % part.radix[c as usize]
                });
            }
        }
        out
    }

    /// The index of a projected form.
    pub(crate) fn index_projected(&self, projected: &[u8]) -> u64 {
        let mut idx = 0u64;
        let mut off = 0;
        for part in &self.parts {
            let (labels, values) = projected[off..off + 2 * part.n].split_at(part.n);
            idx = idx * part.perm_size * part.ori_size + part.rank(labels, values, false);
            off += 2 * part.n;
        }
        idx
    }

    /// The projected form with a given index.
    pub(crate) fn unindex(&self, mut idx: u64, out: &mut Vec<u8>) {
        out.clear();
        let mut chunks = Vec::with_capacity(self.parts.len());
        for part in self.parts.iter().rev() {
            let span = part.perm_size * part.ori_size;
            chunks.push(idx % span);
            idx /= span;
        }
        chunks.reverse();
        for (part, &c) in self.parts.iter().zip(&chunks) {
            part.unrank(c, out);
        }
    }

    /// Length of a projected form.
    pub(crate) fn projected_len(&self) -> usize {
        self.parts.iter().map(|p| 2 * p.n).sum()
    }

    /// Applies a transformation (packed bytes of `layout`) to a projected form.
    pub(crate) fn apply(&self, layout: &Layout, projected: &[u8], t: &[u8], out: &mut [u8]) {
        let mut off = 0;
        for part in &self.parts {
            let n = part.n;
            let p = layout.perm(t, part.orbit);
            let o = layout.ori(t, part.orbit);
            for i in 0..n {
                let from = p[i] as usize;
                let label = projected[off + from];
                out[off + i] = label;
                out[off + n + i] = if label == REST {
                    0
                } else {
                    let r = part.radix[label as usize];
                    ((projected[off + n + from] as u32 + o[i] as u32) % r as u32) as u8
                };
            }
            off += 2 * n;
        }
    }
}

impl OrbitPart {
    /// Rank of one orbit's projection. With `raw`, `labels` are goal piece
    /// ids and `values` orientation codes; otherwise classes and values.
    #[inline]
    fn rank(&self, labels: &[u8], values: &[u8], raw: bool) -> u64 {
        let n = self.n;
        let class = |s: usize| {
            if raw {
                self.class_of_id[labels[s] as usize]
            } else {
                labels[s]
            }
        };
        let value = |s: usize, c: u8| {
            let v = if raw {
                self.value_of_code[values[s] as usize]
            } else {
                values[s]
            };
            v % self.radix[c as usize]
        };
        let tracked_total: usize = if self.distinct {
            self.counts.len()
        } else {
            self.counts.iter().map(|&c| c as usize).sum()
        };
        // Orientation digits in slot order.
        let mut ori_rank = 0u64;
        let mut seen = 0;
        let mut perm_rank = 0u64;
        if self.distinct {
            let mut slot_of = [0u8; 256];
            for s in 0..n {
                let c = class(s);
                if c != REST {
                    slot_of[c as usize] = s as u8;
                    seen += 1;
                    if !(self.drop_last && seen == tracked_total) {
                        let r = self.radix[c as usize] as u64;
                        ori_rank = ori_rank * r + value(s, c) as u64;
                    }
                }
            }
            // Partial permutation rank: each tracked piece's slot among the
            // slots not yet taken.
            let mut used: u64 = 0;
            for (c, &slot) in slot_of.iter().enumerate().take(self.counts.len()) {
                let s = slot as u32;
                let below = (used & ((1u64 << s) - 1)).count_ones();
                perm_rank = perm_rank * (n - c) as u64 + (s - below) as u64;
                used |= 1u64 << s;
            }
        } else {
            // Multiset permutation rank over classes 0..m (REST last).
            let m = self.counts.len();
            let mut remaining: Vec<u64> = self.counts.iter().map(|&c| c as u64).collect();
            remaining.push((n - tracked_total) as u64);
            let mut total = self.perm_size; // arrangements of the remaining slots
            let mut left = n as u64;
            for s in 0..n {
                let c = class(s);
                let ci = if c == REST { m } else { c as usize };
                for &r in remaining.iter().take(ci) {
                    perm_rank += (total as u128 * r as u128 / left as u128) as u64;
                }
                total = (total as u128 * remaining[ci] as u128 / left as u128) as u64;
                remaining[ci] -= 1;
                left -= 1;
                if c != REST {
                    seen += 1;
                    if !(self.drop_last && seen == tracked_total) {
                        let r = self.radix[c as usize] as u64;
                        ori_rank = ori_rank * r + value(s, c) as u64;
                    }
                }
            }
        }
        perm_rank * self.ori_size + ori_rank
    }

    /// Appends the projected form (labels then values) with rank `r`.
    fn unrank(&self, r: u64, out: &mut Vec<u8>) {
        let n = self.n;
        let mut perm_rank = r / self.ori_size;
        let mut ori_rank = r % self.ori_size;
        let start = out.len();
        out.resize(start + 2 * n, 0);
        let m = self.counts.len();
        if self.distinct {
            let mut digits = vec![0u64; m];
            for c in (0..m).rev() {
                let base = (n - c) as u64;
                digits[c] = perm_rank % base;
                perm_rank /= base;
            }
            for s in 0..n {
                out[start + s] = REST;
            }
            let mut used: u64 = 0;
            for (c, &d) in digits.iter().enumerate() {
                // The d-th free slot.
                let mut k = d;
                let mut s = 0;
                loop {
                    if used & (1u64 << s) == 0 {
                        if k == 0 {
                            break;
                        }
                        k -= 1;
                    }
                    s += 1;
                }
                used |= 1u64 << s;
                out[start + s] = c as u8;
            }
        } else {
            let tracked_total: usize = self.counts.iter().map(|&c| c as usize).sum();
            let mut remaining: Vec<u64> = self.counts.iter().map(|&c| c as u64).collect();
            remaining.push((n - tracked_total) as u64);
            let mut total = self.perm_size;
            let mut left = n as u64;
            for s in 0..n {
                let mut chosen = m;
                for (ci, &rc) in remaining.iter().enumerate() {
                    if rc == 0 {
                        continue;
                    }
                    let block = (total as u128 * rc as u128 / left as u128) as u64;
                    if perm_rank < block {
                        chosen = ci;
                        break;
                    }
                    perm_rank -= block;
                }
                out[start + s] = if chosen == m { REST } else { chosen as u8 };
                total = (total as u128 * remaining[chosen] as u128 / left as u128) as u64;
                remaining[chosen] -= 1;
                left -= 1;
            }
        }
        // Orientation digits, slot order, last one possibly implied.
        let tracked_slots: Vec<usize> = (0..n).filter(|&s| out[start + s] != REST).collect();
        let count = tracked_slots.len();
        let digits_stored = if self.drop_last { count - 1 } else { count };
        let mut sum = 0u64;
        for &s in tracked_slots.iter().take(digits_stored).rev() {
            let radix = self.radix[out[start + s] as usize] as u64;
            let v = ori_rank % radix;
            ori_rank /= radix;
            out[start + n + s] = v as u8;
            sum += v;
        }
        if self.drop_last {
            let s = tracked_slots[count - 1];
            let radix = self.radix[out[start + s] as usize] as u64;
            out[start + n + s] = ((self.twist_total as u64 + radix - sum % radix) % radix) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_core::{Orbit, PatternOrbit, Transformation};

    fn layout() -> Layout {
        Layout::new(vec![
            Orbit::new("E", 6, 2).unwrap(),
            Orbit::new("C", 4, 3).unwrap(),
        ])
        .unwrap()
    }

    #[test]
    fn index_and_unindex_are_inverse() {
        let l = layout();
        let goal = l
            .pattern(&[
                PatternOrbit {
                    pieces: vec![0, 1, 2, 3, 4, 5],
                    orientation: vec![0; 6],
                    orientation_mod: None,
                },
                PatternOrbit {
                    pieces: vec![0, 0, 1, 1],
                    orientation: vec![0; 4],
                    orientation_mod: None,
                },
            ])
            .unwrap();
        let sels = vec![
            OrbitSelection {
                orbit: 0,
                ids: vec![2, 4, 5],
                orientation: true,
            },
            OrbitSelection {
                orbit: 1,
                ids: vec![0, 1],
                orientation: true,
            },
        ];
        let p = Projection::new(&l, &goal, &sels, &[false, true]).unwrap();
        // 6*5*4 * 2^3 arrangements of the edges, 4!/(2!2!) * 3^3 of the corners.
        assert_eq!(p.size(), 120 * 8 * 6 * 27);
        let mut seen = vec![false; p.size() as usize];
        let mut buf = Vec::new();
        for i in 0..p.size() {
            p.unindex(i, &mut buf);
            let j = p.index_projected(&buf);
            assert_eq!(i, j);
            assert!(!seen[j as usize]);
            seen[j as usize] = true;
        }
    }

    #[test]
    fn raw_index_agrees_with_projected_moves() {
        let l = Layout::new(vec![Orbit::new("C", 8, 3).unwrap()]).unwrap();
        let goal = l
            .pattern(&[PatternOrbit {
                pieces: (0..8).collect(),
                orientation: vec![0; 8],
                orientation_mod: None,
            }])
            .unwrap();
        let r =
            Transformation::from_bytes(&l, vec![4, 0, 2, 3, 7, 5, 6, 1, 1, 2, 0, 0, 2, 0, 0, 1])
                .unwrap();
        let u =
            Transformation::from_bytes(&l, vec![1, 2, 3, 0, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0])
                .unwrap();
        let sels = vec![OrbitSelection {
            orbit: 0,
            ids: vec![0, 1, 2],
            orientation: true,
        }];
        let p = Projection::new(&l, &goal, &sels, &[false]).unwrap();
        let mut s = goal.as_bytes().to_vec();
        let mut buf = s.clone();
        for step in 0..20 {
            let t = if step % 3 == 0 { &u } else { &r };
            let proj = p.project(&l, &s);
            assert_eq!(p.index_projected(&proj), p.index(&l, &s), "step {step}");
            let mut moved = vec![0u8; proj.len()];
            p.apply(&l, &proj, t.as_bytes(), &mut moved);
            l.compose_into(&s, t.as_bytes(), &mut buf);
            std::mem::swap(&mut s, &mut buf);
            assert_eq!(
                p.index_projected(&moved),
                p.index(&l, &s),
                "after step {step}"
            );
            let mut back = Vec::new();
            p.unindex(p.index(&l, &s), &mut back);
            assert_eq!(back, p.project(&l, &s), "unindex at {step}");
        }
    }
}
