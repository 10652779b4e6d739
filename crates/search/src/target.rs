//! Goals of a search: the start state, or a partial target.
//!
//! A target is the puzzle's start state with some pieces made identical
//! (sharing an id), some orientations unknown (`?`) or known only modulo a
//! divisor (orientationMod), so users can ask for algorithms that, say,
//! orient the last layer. Positions are relabelled into the target's terms:
//! every piece takes the id and the orientation modulus the target gives
//! the piece that stands in its slot in the start state. The search then
//! compares patterns byte for byte.

use twistor_core::{Layout, Pattern, PatternOrbit, Puzzle};

/// Why a target or a position cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// The target moves pieces or splits identical ones.
    #[error("orbit {orbit}: the target must keep each piece where the start state has it (it may make pieces identical or orientations unknown, not move them)")]
    NotACoarsening {
        /// Orbit name.
        orbit: String,
    },
    /// A position knows less about an orientation than the target needs.
    #[error("orbit {orbit}: the position knows a piece's orientation less precisely than the target requires")]
    OrientationUnknown {
        /// Orbit name.
        orbit: String,
    },
    /// A position whose pieces are not the start state's.
    #[error("orbit {orbit}: the position has pieces the start state does not")]
    ForeignPiece {
        /// Orbit name.
        orbit: String,
    },
}

/// Per start piece id of one orbit: its goal id and orientation modulus.
type Relabel = Vec<Option<(u8, u8)>>;

/// What a search aims for, and how positions are put in its terms.
#[derive(Clone, Debug)]
pub struct Goal {
    /// The pattern to reach.
    pub pattern: Pattern,
    /// Per orbit, start id → (goal id, orientation modulus (0 = full)).
    relabel: Option<Vec<Relabel>>,
}

impl Goal {
    /// The puzzle's start state.
    pub fn start(puzzle: &Puzzle) -> Goal {
        Goal {
            pattern: puzzle.start().clone(),
            relabel: None,
        }
    }

    /// A target: the start state coarsened (see the module documentation).
    pub fn target(puzzle: &Puzzle, target: Pattern) -> Result<Goal, TargetError> {
        let layout = puzzle.layout();
        let start = layout.pattern_orbits(puzzle.start());
        let goal = layout.pattern_orbits(&target);
        let mut maps = Vec::new();
        for (k, o) in layout.orbits().iter().enumerate() {
            let mut map: Vec<Option<(u8, u8)>> = vec![None; 256];
            let gm = goal[k]
                .orientation_mod
                .clone()
                .unwrap_or_else(|| vec![0; o.num_pieces()]);
            for ((&s, &g), &m) in start[k].pieces.iter().zip(&goal[k].pieces).zip(&gm) {
                let s = s as usize;
                let want = (g, m);
                match map[s] {
                    None => map[s] = Some(want),
                    Some(x) if x == want => {}
                    Some(_) => {
                        return Err(TargetError::NotACoarsening {
                            orbit: o.name().to_string(),
                        })
                    }
                }
            }
            maps.push(map);
        }
        Ok(Goal {
            pattern: target,
            relabel: Some(maps),
        })
    }

    /// `position` (in the start state's terms) in the goal's terms.
    pub fn relabel(&self, puzzle: &Puzzle, position: &Pattern) -> Result<Pattern, TargetError> {
        let Some(maps) = &self.relabel else {
            return Ok(position.clone());
        };
        let layout: &Layout = puzzle.layout();
        let mut out = Vec::new();
        for (k, po) in layout.pattern_orbits(position).into_iter().enumerate() {
            let o = &layout.orbits()[k];
            let name = || o.name().to_string();
            let n = o.num_pieces();
            let mods = po.orientation_mod.clone().unwrap_or_else(|| vec![0; n]);
            let mut pieces = Vec::with_capacity(n);
            let mut orientation = Vec::with_capacity(n);
            let mut new_mods = Vec::with_capacity(n);
            for i in 0..n {
                let (gid, d) = maps[k][po.pieces[i] as usize]
                    .ok_or_else(|| TargetError::ForeignPiece { orbit: name() })?;
                let have = mods[i];
                // The position's modulus must be a multiple of the goal's.
                let ok = have == 0 || (d != 0 && have % d == 0);
                if !ok {
                    return Err(TargetError::OrientationUnknown { orbit: name() });
                }
                pieces.push(gid);
                orientation.push(if d == 0 {
                    po.orientation[i]
                } else {
                    po.orientation[i] % d
                });
                new_mods.push(d);
            }
            let partial = new_mods.iter().any(|&m| m != 0);
            out.push(PatternOrbit {
                pieces,
                orientation,
                orientation_mod: partial.then_some(new_mods),
            });
        }
        Ok(layout
            .pattern(&out)
            .expect("relabelled values stay in range"))
    }
}
