//! The three reduction phases and the 3x3x3 finish, and the scramble
//! written from the solution.

use std::sync::atomic::{AtomicI64, Ordering};

use rayon::prelude::*;
use twistor_core::store::NoStore;
use twistor_cube333::{solve_two_phase, FaceletCube, TwoPhaseOptions, TwoPhaseTables};

use crate::cube::{model, odd, Cube444, Move444};
use crate::geometry::{self, Perm};
use crate::tables::{in_pair, may_follow, move_mask, Tables};
use crate::{Cube444Error, InternalReason};

/// Phase-1 solutions gathered before choosing among them.
const PHASE1_GATHER: usize = 3000;
/// Phase-1 solutions carried into phase 2 (those with the smallest
/// length plus phase-2 estimate).
const PHASE1_KEEP: usize = 300;
/// Phase-2 solutions that leave the wings separated, carried into phase 3.
const PHASE2_KEEP: usize = 60;
/// Phase-3 nodes (three or more moves from the end) searched without the
/// pairings 9 moves away before building them: about six seconds here,
/// a hundred times what most positions need.
const QUICK_PHASE3_NODES: i64 = 3_000_000;
/// Phase-2 probes of the 3x3x3 finish spent looking for 19 or 20 moves.
const SHORT_PROBES: u64 = 2000;

/// A solved 4x4x4 and what it took.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The solution: moves and whole-cube rotations from the position to
    /// a solved cube.
    pub(crate) tokens: Vec<Token>,
    /// Moves of each phase (centres of one pair, the other centres,
    /// pairing, the 3x3x3).
    pub phase_lengths: [usize; 4],
}

/// A move or a whole-cube rotation (index into the model's rotations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    Move(usize),
    Rotation(usize),
}

/// What a phase-3 search reads besides the position: its start, and the
/// nodes it may still visit.
struct Walk3<'a> {
    start: &'a Phase3Start,
    budget: &'a AtomicI64,
}

struct Phase1Solution {
    pair: usize,
    moves: Vec<u8>,
}

struct Phase2Start {
    len1: usize,
    index1: usize,
    /// The rotation (index into the model's) into phase 2's frame.
    rotation: usize,
    cube: Cube444,
    ct: usize,
    rl: usize,
    par: usize,
    h: usize,
}

struct Phase3Start {
    len12: usize,
    index1: usize,
    rotation: usize,
    moves2: Vec<u8>,
    cube: Cube444,
    table: usize,
    centre: usize,
    pairing: [u8; 12],
    h: usize,
}

impl Tables {
    /// Solves `cube` by reduction, finishing with the two-phase 3x3x3
    /// solver.
    pub(crate) fn reduce(
        &self,
        cube: &Cube444,
        three: &TwoPhaseTables,
    ) -> Result<Reduction, Cube444Error> {
        let model = model();
        // Phase 1: one pair's centres onto an axis.
        let centres = cube.centres();
        let masks: [u32; 3] = std::array::from_fn(|pair| masks_of(&centres, pair));
        let mut found1: Vec<Phase1Solution> = Vec::new();
        let min1 = masks
            .iter()
            .map(|&m| self.prun1[self.bin.rank(m)])
            .min()
            .unwrap_or(0) as usize;
        let mut path = Vec::new();
        for depth in min1.. {
            for (pair, &mask) in masks.iter().enumerate() {
                self.phase1(mask, depth, None, &mut path, pair, &mut found1);
            }
            if found1.len() >= PHASE1_GATHER || (depth > min1 && !found1.is_empty()) {
                break;
            }
        }
        found1.truncate(PHASE1_GATHER);

        // Into phase 2's frame, each with its estimate.
        let wing_parity = odd(&cube.wings()) as usize;
        let mut starts: Vec<Phase2Start> = found1
            .iter()
            .enumerate()
            .map(|(index1, s)| {
                let mut c = *cube;
                let mut par = wing_parity;
                for &m in &s.moves {
                    c = c.apply_move(Move444::from_index(m as usize));
                    par ^= self.pm.wing_odd[m as usize] as usize;
                }
                let mask = masks_of(&c.centres(), s.pair);
                let axis = (0..3)
                    .find(|&a| self.axis_masks[a] == mask)
                    .expect("phase 1 ends on an axis");
                let rotation = self.rot_for_axis[axis];
                let c = c.permuted(&model.rotations[rotation]);
                let (ct, rl) = self.phase2_coords(&c, s.pair);
                let h = self.prun2[(ct * 70 + rl) * 2 + par] as usize;
                Phase2Start {
                    len1: s.moves.len(),
                    index1,
                    rotation,
                    cube: c,
                    ct,
                    rl,
                    par,
                    h,
                }
            })
            .collect();
        starts.sort_by_key(|s| s.len1 + s.h);
        starts.truncate(PHASE1_KEEP);

        // Phase 2: the other centres, keeping solutions whose wings phase 3 can pair.
        let mut found2: Vec<Phase3Start> = Vec::new();
        let first = starts.first().map_or(0, |s| s.len1 + s.h);
        'total: for total in first..first + 20 {
            for s in &starts {
                if s.len1 + s.h > total {
                    continue;
                }
                let mut path = Vec::new();
                self.phase2(
                    s,
                    (s.ct, s.rl, s.par),
                    total - s.len1,
                    None,
                    &mut path,
                    &mut found2,
                );
                if found2.len() >= PHASE2_KEEP {
                    break 'total;
                }
            }
        }
        if found2.is_empty() {
            return Err(Cube444Error::Internal {
                reason: InternalReason::PhaseFoundNothing { phase: 2 },
            });
        }

        // Phase 3: pair the edges and finish the centres. The starts are
        // searched on all threads, the answer the first in their order
        // that reaches the total (so the same as searching them in turn).
        found2.sort_by_key(|s| s.len12 + s.h);
        let first = found2[0].len12 + found2[0].h;
        // Without the pairings 9 moves away the search may take minutes on
        // a rare position: past a budget it builds them (two seconds) and
        // starts again, which changes nothing but the time.
        let search = |budget: &AtomicI64| {
            (first..first + 20)
                .map_while(|total| {
                    let found = found2
                        .par_iter()
                        .enumerate()
                        .filter(|(_, s)| s.len12 + s.h <= total)
                        .find_map_first(|(i, s)| {
                            let mut path = Vec::new();
                            let depth = total - s.len12;
                            let walk = Walk3 { start: s, budget };
                            self.phase3(&walk, s.centre, s.pairing, depth, None, &mut path)
                                .then_some((i, path))
                        });
                    // Past the budget an earlier start may have been cut
                    // short: nothing this total found counts.
                    (budget.load(Ordering::Relaxed) > 0).then_some(found)
                })
                .flatten()
                .next()
        };
        let budget = AtomicI64::new(if self.pairing_complete() {
            i64::MAX
        } else {
            QUICK_PHASE3_NODES
        });
        let mut best = search(&budget);
        if budget.load(Ordering::Relaxed) <= 0 {
            self.complete_pairing(&NoStore, &mut |_| {});
            best = search(&AtomicI64::new(i64::MAX));
        }
        let (i, moves3) = best.ok_or(Cube444Error::Internal {
            reason: InternalReason::PhaseFoundNothing { phase: 3 },
        })?;
        let s3 = &found2[i];
        let reduced = moves3.iter().fold(s3.cube, |c, &m| {
            c.apply_move(Move444::from_index(m as usize))
        });

        // The 3x3x3.
        let moves4 = finish_333(&reduced, three)?;

        let s1 = &found1[s3.index1];
        let mut tokens: Vec<Token> = s1.moves.iter().map(|&m| Token::Move(m as usize)).collect();
        tokens.push(Token::Rotation(s3.rotation));
        tokens.extend(s3.moves2.iter().map(|&m| Token::Move(m as usize)));
        tokens.extend(moves3.iter().map(|&m| Token::Move(m as usize)));
        tokens.extend(moves4.iter().map(|&m| Token::Move(m)));
        // End exactly at the solved cube, so that the scramble (the
        // solution undone) starts from it.
        let solved_turned = moves4
            .iter()
            .fold(reduced, |c, &m| c.apply_move(Move444::from_index(m)));
        let upright = (0..24)
            .find(|&r| solved_turned.permuted(&model.rotations[r]) == Cube444::solved())
            .ok_or(Cube444Error::Internal {
                reason: InternalReason::FinishUnsolved,
            })?;
        tokens.push(Token::Rotation(upright));
        Ok(Reduction {
            tokens,
            phase_lengths: [s1.moves.len(), s3.moves2.len(), moves3.len(), moves4.len()],
        })
    }

    fn phase1(
        &self,
        mask: u32,
        depth: usize,
        last: Option<usize>,
        path: &mut Vec<u8>,
        pair: usize,
        out: &mut Vec<Phase1Solution>,
    ) {
        if out.len() >= PHASE1_GATHER {
            return;
        }
        if depth == 0 {
            if self.axis_masks.contains(&mask) {
                out.push(Phase1Solution {
                    pair,
                    moves: path.clone(),
                });
            }
            return;
        }
        for &m in &self.p1_moves {
            if !may_follow(last, m) {
                continue;
            }
            let next = move_mask(&self.mask_move, m, mask);
            if self.prun1[self.bin.rank(next)] as usize >= depth {
                continue;
            }
            path.push(m as u8);
            self.phase1(next, depth - 1, Some(m), path, pair, out);
            path.pop();
        }
    }

    fn phase2_coords(&self, c: &Cube444, rl_pair: usize) -> (usize, usize) {
        let centres = c.centres();
        // The lower-numbered of the two other pairs marks the side split.
        let side_pair = (0..3).find(|&p| p != rl_pair).expect("another pair") as u8;
        let ct = self.bin.rank(
            self.sides
                .mask(&centres, |x| in_pair(x, side_pair as usize)),
        );
        let rl = self
            .bin
            .rank(self.rl.mask(&centres, |x| x as usize == rl_pair));
        (ct, rl)
    }

    fn phase2(
        &self,
        start: &Phase2Start,
        (ct, rl, par): (usize, usize, usize),
        depth: usize,
        last: Option<usize>,
        path: &mut Vec<u8>,
        out: &mut Vec<Phase3Start>,
    ) {
        if out.len() >= PHASE2_KEEP {
            return;
        }
        if depth == 0 {
            if self.prun2[(ct * 70 + rl) * 2 + par] == 0 {
                self.accept_phase2(start, path, out);
            }
            return;
        }
        let n = self.p2_moves.len();
        for (k, &m) in self.p2_moves.iter().enumerate() {
            if !may_follow(last, m) {
                continue;
            }
            let ct2 = self.ct_move[ct * n + k] as usize;
            let rl2 = self.rl2_move[rl * n + k] as usize;
            let par2 = par ^ self.pm.wing_odd[m] as usize;
            if self.prun2[(ct2 * 70 + rl2) * 2 + par2] as usize >= depth {
                continue;
            }
            path.push(m as u8);
            self.phase2(start, (ct2, rl2, par2), depth - 1, Some(m), path, out);
            path.pop();
        }
    }

    /// Keeps a phase-2 solution if it leaves each edge's wings one in
    /// each of phase 3's orbits, with a pairing phase 3 can undo.
    fn accept_phase2(&self, start: &Phase2Start, path: &[u8], out: &mut Vec<Phase3Start>) {
        let mut wings = start.cube.wings();
        for &m in path {
            let w = &self.pm.wing[m as usize];
            wings = std::array::from_fn(|i| wings[w[i] as usize]);
        }
        let Some(pairing) = self.pairing_of(&wings) else {
            return;
        };
        if self.pairing_parity_fixed && odd(&pairing) {
            return;
        }
        let cube = path.iter().fold(start.cube, |c, &m| {
            c.apply_move(Move444::from_index(m as usize))
        });
        let centres = cube.centres();
        let ud_pair = centres[0] as usize % 3;
        let rl_pair = centres[4] as usize % 3;
        let fb_pair = 3 - ud_pair - rl_pair;
        let ud = self
            .bin
            .rank(self.ud.mask(&centres, |x| x as usize == ud_pair));
        let fb = self
            .bin
            .rank(self.fb.mask(&centres, |x| x as usize == fb_pair));
        let rl = self
            .bin
            .rank(self.rl.mask(&centres, |x| x as usize == rl_pair));
        let b = self.parity_bit(&cube).expect("separated wings") as usize;
        let table = ud_pair * 3 + rl_pair;
        let centre = ((ud * 70 + fb) * 70 + rl) * 2 + b;
        let hc = self.centre3[table]
            .as_ref()
            .expect("a table for these axes")[centre];
        let h = (hc as usize).max(self.pairing_estimate(&pairing) as usize);
        out.push(Phase3Start {
            len12: start.len1 + path.len(),
            index1: start.index1,
            rotation: start.rotation,
            moves2: path.to_vec(),
            cube,
            table,
            centre,
            pairing,
            h,
        });
    }

    fn phase3(
        &self,
        walk: &Walk3,
        centre: usize,
        pairing: [u8; 12],
        depth: usize,
        last: Option<usize>,
        path: &mut Vec<u8>,
    ) -> bool {
        if depth >= 3 && walk.budget.fetch_sub(1, Ordering::Relaxed) <= 0 {
            return false;
        }
        let table = self.centre3[walk.start.table]
            .as_ref()
            .expect("a table for these axes");
        if depth == 0 {
            return table[centre] == 0 && pairing.iter().enumerate().all(|(i, &x)| x as usize == i);
        }
        let n = self.p3_moves.len();
        let (rest, b) = (centre / 2, centre % 2);
        let (ud, fb, rl) = (rest / 4900, rest / 70 % 70, rest % 70);
        for (k, &m) in self.p3_moves.iter().enumerate() {
            if !may_follow(last, m) {
                continue;
            }
            let c2 = ((self.ud_move[ud * n + k] as usize * 70 + self.fb_move[fb * n + k] as usize)
                * 70
                + self.rl3_move[rl * n + k] as usize)
                * 2
                + (b ^ self.b_flip[k] as usize);
            if table[c2] as usize >= depth {
                continue;
            }
            let p2 = self.pairing_after(&pairing, k);
            if self.pairing_needs(&p2, depth) {
                continue;
            }
            path.push(m as u8);
            if self.phase3(walk, c2, p2, depth - 1, Some(m), path) {
                return true;
            }
            path.pop();
        }
        false
    }
}

fn masks_of(centres: &[u8; 24], pair: usize) -> u32 {
    centres
        .iter()
        .enumerate()
        .filter(|&(_, &c)| in_pair(c, pair))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The reduced cube's 3x3x3 solution, as indices of outer moves.
fn finish_333(reduced: &Cube444, three: &TwoPhaseTables) -> Result<Vec<usize>, Cube444Error> {
    let s = reduced.stickers();
    let map = [0, 1, 3];
    let colour_of_face: [u8; 6] = std::array::from_fn(|f| s[f * 16 + 5]);
    let mut face_of_colour = [0u8; 6];
    for (f, &c) in colour_of_face.iter().enumerate() {
        face_of_colour[c as usize] = f as u8;
    }
    let stickers: [u8; 54] = std::array::from_fn(|i| {
        let (f, r, c) = (i / 9, i % 9 / 3, i % 3);
        face_of_colour[s[f * 16 + map[r] * 4 + map[c]] as usize]
    });
    let cubie = FaceletCube { stickers }
        .to_cubie()
        .map_err(|_| Cube444Error::Internal {
            reason: InternalReason::UnsolvableReduction,
        })?;
    // A short answer if one turns up within a few thousand phase-2
    // probes (a millisecond or two), as min2phase looks on for TNoodle;
    // otherwise the first of at most 21 moves.
    let mut short = None;
    for max_length in [19, 20] {
        let options = TwoPhaseOptions {
            max_length,
            probe_limit: Some(SHORT_PROBES),
            ..Default::default()
        };
        if let Ok(s) = solve_two_phase(three, &cubie, &options) {
            short = Some(s);
            break;
        }
    }
    let solution = short
        .map(Ok)
        .unwrap_or_else(|| solve_two_phase(three, &cubie, &TwoPhaseOptions::default()))
        .map_err(|_| Cube444Error::Internal {
            reason: InternalReason::FinishFoundNothing,
        })?;
    Ok(solution
        .moves
        .0
        .iter()
        .map(|t| t.face() as usize * 6 + t.quarter_turns() as usize - 1)
        .collect())
}

/// Conjugation and wide-turn tables for writing a solution without
/// rotations, in the WCA's `U R F D L B Uw Rw Fw`.
pub(crate) struct Writer {
    /// `conj[r][m]`: the move m' with "r then m" = "m' then r".
    conj: Vec<[u8; 36]>,
    /// For `Dw`, `Lw`, `Bw` turns: the opposite wide turn and the rotation
    /// r with "that turn then r" = the turn.
    wide_fix: [Option<(u8, u8)>; 36],
    /// Rotation products: `product[a][b]` = a then b.
    product: Vec<[u8; 24]>,
    inverse_rotation: [u8; 24],
}

impl Writer {
    pub(crate) fn new() -> Writer {
        let model = model();
        let rot = &model.rotations;
        let find_rot = |p: &Perm| rot.iter().position(|r| r == p).expect("a rotation") as u8;
        let conj = rot
            .iter()
            .map(|r| {
                std::array::from_fn(|m| {
                    let lhs = geometry::then(r, &model.moves[m]);
                    (0..36)
                        .find(|&k| geometry::then(&model.moves[k], r) == lhs)
                        .expect("a rotated move is a move") as u8
                })
            })
            .collect();
        let wide_fix = std::array::from_fn(|m| {
            let mv = Move444::from_index(m);
            (mv.is_wide() && mv.face() >= 3).then(|| {
                let opposite = Move444::new(mv.face() - 3, true, mv.amount())
                    .expect("a move")
                    .index();
                let r = (0..24)
                    .find(|&r| geometry::then(&model.moves[opposite], &rot[r]) == model.moves[m])
                    .expect("Dw is Uw and a rotation");
                (opposite as u8, r as u8)
            })
        });
        let product = rot
            .iter()
            .map(|a| std::array::from_fn(|b| find_rot(&geometry::then(a, &rot[b]))))
            .collect();
        let inverse_rotation = std::array::from_fn(|r| find_rot(&geometry::inverse(&rot[r])));
        Writer {
            conj,
            wide_fix,
            product,
            inverse_rotation,
        }
    }

    /// The scramble that makes the solved cube into the solved position:
    /// the solution undone, its rotations folded into the moves.
    pub(crate) fn scramble(&self, solution: &[Token]) -> Vec<Move444> {
        let inverse: Vec<Token> = solution
            .iter()
            .rev()
            .map(|t| match *t {
                Token::Move(m) => Token::Move(Move444::from_index(m).inverse().index()),
                Token::Rotation(r) => Token::Rotation(self.inverse_rotation[r] as usize),
            })
            .collect();
        let mut pending = 0usize;
        let mut out: Vec<Move444> = Vec::new();
        for t in inverse {
            match t {
                Token::Rotation(r) => pending = self.product[pending][r] as usize,
                Token::Move(m) => {
                    let mut m = self.conj[pending][m] as usize;
                    if let Some((opposite, r)) = self.wide_fix[m] {
                        m = opposite as usize;
                        pending = self.product[r as usize][pending] as usize;
                    }
                    push_merged(&mut out, Move444::from_index(m));
                }
            }
        }
        out
    }
}

/// Appends `m`, cancelling it into an earlier turn of the same layers
/// when only turns of the same axis (which commute with it) lie between.
fn push_merged(out: &mut Vec<Move444>, m: Move444) {
    for i in (0..out.len()).rev() {
        let o = out[i];
        if o.face() % 3 != m.face() % 3 {
            break;
        }
        if o.face() == m.face() && o.is_wide() == m.is_wide() {
            let amount = (o.amount() + m.amount()) % 4;
            match Move444::new(o.face(), o.is_wide(), amount) {
                Some(merged) => out[i] = merged,
                None => {
                    out.remove(i);
                }
            }
            return;
        }
    }
    out.push(m);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(c: Cube444, tokens: &[Token]) -> Cube444 {
        let model = model();
        tokens.iter().fold(c, |c, t| match *t {
            Token::Move(m) => c.apply_move(Move444::from_index(m)),
            Token::Rotation(r) => c.permuted(&model.rotations[r]),
        })
    }

    #[test]
    fn writer_folds_rotations_into_moves() {
        let w = Writer::new();
        let mut rng = twistor_core::random::SeededRng::new(3);
        for _ in 0..200 {
            let tokens: Vec<Token> = (0..12)
                .map(|_| {
                    if rng.below(4) == 0 {
                        Token::Rotation(rng.below(24))
                    } else {
                        Token::Move(rng.below(36))
                    }
                })
                .collect();
            let start = Cube444::random(&mut rng);
            let end = apply(start, &tokens);
            // The scramble of a solution: from `end`'s solved-ness... test
            // directly: scramble(tokens) applied to `end` gives `start`.
            let s = w.scramble(&tokens);
            let back = s.iter().fold(end, |c, &m| c.apply_move(m));
            assert!(back.same_up_to_rotation(&start));
            assert!(s.iter().all(|m| !m.is_wide() || m.face() < 3));
        }
    }
}
