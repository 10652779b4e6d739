//! Building a [`PositionIndexer`]: the blocks the moves permute, each
//! block's permutation and orientation parts (followers, fixed parities,
//! reachable orientation shares) and the joint components that number
//! reachable pairs of values.

use super::*;

pub(super) fn part_radix(p: &PermutationPart) -> u64 {
    p.arrangements
}

/// Largest product of radices whose reachable pairs are enumerated.
const MAX_JOINT: u64 = 1 << 20;

/// Per value and generator: the component's value after the generator.
fn generator_table(
    layout: &Layout,
    c: &IndexComponent,
    start: &[u8],
    generators: &[&Transformation],
) -> Vec<u32> {
    let mut state = start.to_vec();
    let mut out = start.to_vec();
    let mut table = Vec::with_capacity(c.radix as usize * generators.len());
    for v in 0..c.radix {
        c.unrank(v, &mut state);
        for g in generators {
            layout.compose_into(&state, g.as_bytes(), &mut out);
            table.push(c.rank(&out) as u32);
        }
    }
    table
}

/// The pairs of values of two components reachable from the start's
/// pair, in the order a breadth-first closure finds them.
fn reachable_pairs(a: (&[u32], u64, u32), b: (&[u32], u64, u32), gens: usize) -> Vec<(u32, u32)> {
    let (ta, _, sa) = a;
    let (tb, rb, sb) = b;
    let mut seen = vec![false; (a.1 * rb) as usize];
    let mut pairs = vec![(sa, sb)];
    seen[(sa as u64 * rb + sb as u64) as usize] = true;
    let mut i = 0;
    while i < pairs.len() {
        let (x, y) = pairs[i];
        for g in 0..gens {
            let nx = ta[x as usize * gens + g];
            let ny = tb[y as usize * gens + g];
            let k = (nx as u64 * rb + ny as u64) as usize;
            if !seen[k] {
                seen[k] = true;
                pairs.push((nx, ny));
            }
        }
        i += 1;
    }
    pairs
}

/// Replaces pairs of components by joint components while some pair's
/// reachable values are fewer than the product of their radices, the
/// most reducing pair first.
pub(super) fn join_components(
    layout: &Layout,
    start: &[u8],
    generators: &[&Transformation],
    components: &mut Vec<IndexComponent>,
) {
    let gens = generators.len();
    if gens == 0 {
        return;
    }
    // A component's table is built only if some pair it is in is small
    // enough to enumerate, and kept while the component is; so is each
    // pair's count of reachable values (`ids` name components across
    // joins).
    let mut tables: Vec<Option<Vec<u32>>> = Vec::new();
    let mut ids: Vec<usize> = (0..components.len()).collect();
    let mut next_id = components.len();
    let mut counts: std::collections::HashMap<(usize, usize), u64> =
        std::collections::HashMap::new();
    loop {
        for i in tables.len()..components.len() {
            let pairable = (0..components.len()).any(|j| {
                j != i && components[i].radix.saturating_mul(components[j].radix) <= MAX_JOINT
            });
            tables
                .push(pairable.then(|| generator_table(layout, &components[i], start, generators)));
        }
        let pair_args = |i: usize, j: usize| {
            let (ri, rj) = (components[i].radix, components[j].radix);
            let (Some(ti), Some(tj)) = (&tables[i], &tables[j]) else {
                return None;
            };
            if ri.saturating_mul(rj) > MAX_JOINT {
                return None;
            }
            let si = components[i].rank(start) as u32;
            let sj = components[j].rank(start) as u32;
            Some(((ti.as_slice(), ri, si), (tj.as_slice(), rj, sj)))
        };
        // The pair to join, the one reducing most: (first, second, factor).
        let mut best: Option<(usize, usize, f64)> = None;
        for i in 0..components.len() {
            for j in i + 1..components.len() {
                let Some((a, b)) = pair_args(i, j) else {
                    continue;
                };
                let product = a.1 * b.1;
                let reachable = *counts
                    .entry((ids[i], ids[j]))
                    .or_insert_with(|| reachable_pairs(a, b, gens).len() as u64);
                let factor = product as f64 / reachable as f64;
                if reachable < product && best.is_none_or(|(_, _, bf)| factor > bf) {
                    best = Some((i, j, factor));
                }
            }
        }
        let Some((i, j, _)) = best else {
            return;
        };
        let pairs = match pair_args(i, j) {
            Some((a, b)) => reachable_pairs(a, b, gens),
            None => return,
        };
        let second = components.remove(j);
        let first = components.remove(i);
        tables.remove(j);
        tables.remove(i);
        ids.remove(j);
        ids.remove(i);
        ids.push(next_id);
        next_id += 1;
        let mut number = vec![u32::MAX; (first.radix * second.radix) as usize];
        for (n, &(a, b)) in pairs.iter().enumerate() {
            number[(a as u64 * second.radix + b as u64) as usize] = n as u32;
        }
        components.push(IndexComponent {
            orbit: first.orbit,
            radix: pairs.len() as u64,
            part: Part::Joint(JointPart {
                first: Box::new(first),
                second: Box::new(second),
                pairs,
                number,
            }),
        });
    }
}

/// The blocks of orbit `k` ([`Layout::slot_blocks`]).
pub(super) fn blocks(layout: &Layout, k: usize, generators: &[&Transformation]) -> Vec<Vec<usize>> {
    let bytes: Vec<&[u8]> = generators.iter().map(|g| g.as_bytes()).collect();
    layout.slot_blocks(k, &bytes)
}

/// Whether generator `g` permutes `block` of orbit `k` oddly.
fn is_odd_on(layout: &Layout, k: usize, block: &[usize], g: &Transformation) -> bool {
    let p = layout.perm(g.as_bytes(), k);
    let mut seen = vec![false; p.len()];
    let mut odd = false;
    for &s in block {
        if seen[s] {
            continue;
        }
        let mut len = 0;
        let mut i = s;
        while !seen[i] {
            seen[i] = true;
            len += 1;
            i = p[i] as usize;
        }
        if len % 2 == 0 {
            odd = !odd;
        }
    }
    odd
}

pub(super) fn permutation_part(
    layout: &Layout,
    k: usize,
    block: &[usize],
    start: &[u8],
    generators: &[&Transformation],
    earlier: &mut [IndexComponent],
) -> Result<Option<PermutationPart>, IndexError> {
    let kk = block.len();
    if kk == 1 {
        return Ok(None);
    }
    let offset = layout.offset(k);
    let ids: Vec<u8> = block.iter().map(|&s| start[offset + s]).collect();
    let mut types = ids.clone();
    types.sort_unstable();
    types.dedup();
    if types.len() == 1 {
        return Ok(None);
    }
    // A block that moves exactly like an earlier one with distinct pieces
    // is filled in from it.
    for c in earlier.iter_mut() {
        if let Part::Permutation(master) = &mut c.part {
            if master.counts.is_none() && master.slots.len() == kk {
                let master_orbit = c.orbit;
                if let Some(phi) =
                    follow_map(layout, master_orbit, &master.slots, k, block, generators)
                {
                    let mut map = Box::new([0u8; 256]);
                    for (j, &ms) in master.slots.iter().enumerate() {
                        map[start[master.offset + ms] as usize] = start[offset + phi[j]];
                    }
                    master.followers.push(FollowerBlock {
                        offset,
                        slots: phi,
                        map,
                    });
                    return Ok(None);
                }
            }
        }
    }
    let mut label = Box::new([0u8; 256]);
    for (t, &id) in types.iter().enumerate() {
        label[id as usize] = t as u8;
    }
    if types.len() == kk {
        if kk > MAX_BLOCK_PIECES {
            return Err(IndexError::BlockTooLarge {
                orbit: layout.orbits()[k].name().to_string(),
                pieces: kk,
            });
        }
        let even = generators.iter().all(|g| !is_odd_on(layout, k, block, g));
        let labels: Vec<u8> = ids.iter().map(|&id| label[id as usize]).collect();
        let parity = even.then(|| permutation_parity(&labels));
        let full: u64 = (1..=kk as u64).product();
        return Ok(Some(PermutationPart {
            offset,
            slots: block.to_vec(),
            label,
            piece: types,
            counts: None,
            arrangements: if even { full / 2 } else { full },
            parity,
            followers: Vec::new(),
        }));
    }
    let mut counts = vec![0u8; types.len()];
    for &id in &ids {
        counts[label[id as usize] as usize] += 1;
    }
    let arrangements = multinomial(&counts).ok_or(IndexError::TooManyPositions)?;
    Ok(Some(PermutationPart {
        offset,
        slots: block.to_vec(),
        label,
        piece: types,
        counts: Some(counts),
        arrangements,
        parity: None,
        followers: Vec::new(),
    }))
}

/// A bijection `phi` from the master block's slots (by position) to the
/// follower's slots that every generator respects:
/// `g.p[phi(i)] = phi(g.p[i])`.
fn follow_map(
    layout: &Layout,
    mk: usize,
    master: &[usize],
    fk: usize,
    follower: &[usize],
    generators: &[&Transformation],
) -> Option<Vec<usize>> {
    let n = master.len();
    let mut pos_m = vec![usize::MAX; layout.orbits()[mk].num_pieces()];
    for (j, &s) in master.iter().enumerate() {
        pos_m[s] = j;
    }
    let mut pos_f = vec![usize::MAX; layout.orbits()[fk].num_pieces()];
    for (j, &s) in follower.iter().enumerate() {
        pos_f[s] = j;
    }
    'candidate: for first in 0..n {
        let mut phi = vec![usize::MAX; n];
        let mut used = vec![false; n];
        phi[0] = first;
        used[first] = true;
        let mut stack = vec![0usize];
        while let Some(j) = stack.pop() {
            for g in generators {
                let gm = layout.perm(g.as_bytes(), mk);
                let gf = layout.perm(g.as_bytes(), fk);
                let jm = pos_m[gm[master[j]] as usize];
                let jf = pos_f[gf[follower[phi[j]]] as usize];
                if phi[jm] == usize::MAX {
                    if used[jf] {
                        continue 'candidate;
                    }
                    phi[jm] = jf;
                    used[jf] = true;
                    stack.push(jm);
                } else if phi[jm] != jf {
                    continue 'candidate;
                }
            }
        }
        if phi.iter().all(|&x| x != usize::MAX) {
            return Some(phi.into_iter().map(|j| follower[j]).collect());
        }
    }
    None
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

pub(super) fn orientation_part(
    layout: &Layout,
    k: usize,
    block: &[usize],
    start: &[u8],
    generators: &[&Transformation],
) -> Result<Option<OrientationPart>, IndexError> {
    let orbit = &layout.orbits()[k];
    let m = orbit.num_orientations() as u8;
    if m == 1 {
        return Ok(None);
    }
    let offset = layout.offset(k) + orbit.num_pieces();
    let decoded: Vec<(u8, u8)> = block
        .iter()
        .map(|&s| {
            let (v, d) = layout.decode_orientation(k, start[offset + s]);
            (v, if d == 0 { m } else { d })
        })
        .collect();
    let d = decoded[0].1;
    if decoded.iter().any(|&(_, x)| x != d) {
        return Err(IndexError::MixedOrientationModuli {
            orbit: orbit.name().to_string(),
        });
    }
    if d == 1 {
        return Ok(None);
    }
    // The moves add multiples of `step` (mod d), and the start values all
    // lie in one class modulo `step`, so only d/step values occur.
    let mut step = d as u32;
    let c = decoded[0].0;
    for &(v, _) in &decoded {
        step = gcd(step, ((v as u32 + d as u32) - c as u32) % d as u32);
    }
    let mut constrained = true;
    for g in generators {
        let o = layout.ori(g.as_bytes(), k);
        let mut sum = 0u32;
        for &s in block {
            step = gcd(step, o[s] as u32 % d as u32);
            sum += o[s] as u32;
        }
        if sum % d as u32 != 0 {
            constrained = false;
        }
    }
    let base = (d as u32 / step) as u8;
    // A single piece whose twist is preserved has no freedom at all.
    if base == 1 || (constrained && block.len() == 1) {
        return Ok(None);
    }
    let modulus = if d == m { 0 } else { d };
    let mut digit = Box::new([0u8; 256]);
    let mut code = Vec::with_capacity(base as usize);
    for u in 0..base {
        let value = ((c as u32 + step * u as u32) % d as u32) as u8;
        let x = layout.encode_orientation(k, value, modulus).ok_or(
            IndexError::MixedOrientationModuli {
                orbit: orbit.name().to_string(),
            },
        )?;
        digit[x as usize] = u;
        code.push(x);
    }
    let target = block
        .iter()
        .map(|&s| digit[start[offset + s] as usize] as u32)
        .sum::<u32>()
        % base as u32;
    Ok(Some(OrientationPart {
        offset,
        slots: block.to_vec(),
        base,
        constrained,
        target: target as u8,
        digit,
        code,
    }))
}
