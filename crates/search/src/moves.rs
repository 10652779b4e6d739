//! The moves a search or an enumeration turns: grips, their powers, and
//! the metric that prices them.
//!
//! A *grip* is a named base move (`U`); its *powers* are the moves a search
//! may make (`U`, `U2`, `U'`). In the half-turn metric every power costs 1;
//! in the quarter-turn metric only the powers one step either way are moves
//! (`U`, `U'`), as twsearch does. A restriction such as `--moves U,F,R2`
//! keeps only multiples of the listed power on each grip (`R2` alone).

use twistor_core::{power_name, Layout, Puzzle, SparseTransformation, Transformation};

use crate::SearchError;

/// How moves are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Every power of a grip is one move (half-turn / face-turn metric).
    #[default]
    Htm,
    /// Only single steps of a grip are moves (quarter-turn metric).
    Qtm,
}

/// One move a search makes: a power of a grip.
#[derive(Clone, Debug)]
pub struct SearchMove {
    /// Name in twsearch's style (`U`, `U2`, `U'`, `U2'`).
    pub name: String,
    /// Index of its grip in [`MoveSet::grips`].
    pub grip: usize,
    /// Signed number of the grip's steps.
    pub amount: i32,
    /// What it does.
    pub transformation: Transformation,
    /// The same, as the bytes it changes (how the searches apply it).
    pub sparse: SparseTransformation,
}

/// A grip: a named base move of the puzzle, possibly restricted to
/// multiples of a step (`R2` in `--moves U,F,R2`).
#[derive(Clone, Debug)]
pub struct Grip {
    /// Index of the base move in [`Puzzle::moves`].
    pub puzzle_move: usize,
    /// Name of the base move.
    pub name: String,
    /// Turns of the base move per step.
    pub step: u32,
    /// Order of one step.
    pub order: u32,
    /// One step.
    pub transformation: Transformation,
}

/// The moves of a search: grips and their powers, in a fixed order
/// (grips in the order given, powers by rising amount from 1 up then the
/// negative ones, as twsearch lists them).
#[derive(Clone, Debug)]
pub struct MoveSet {
    layout: Layout,
    grips: Vec<Grip>,
    moves: Vec<SearchMove>,
    metric: Metric,
}

impl MoveSet {
    /// The move set of the puzzle's default search moves (base moves and
    /// move sequences that are not rotations).
    pub fn all(puzzle: &Puzzle, metric: Metric) -> Result<MoveSet, SearchError> {
        let names: Vec<String> = puzzle
            .search_moves()
            .iter()
            .map(|&i| puzzle.moves()[i].name.clone())
            .collect();
        MoveSet::named(puzzle, &names, metric)
    }

    /// The move set of the listed moves: each a named move of the puzzle
    /// (`U`) or a power of one (`R2`, meaning multiples of `R2` only).
    pub fn named(
        puzzle: &Puzzle,
        names: &[String],
        metric: Metric,
    ) -> Result<MoveSet, SearchError> {
        let layout = puzzle.layout();
        let mut grips: Vec<Grip> = Vec::new();
        for name in names {
            let (index, step) = resolve_grip_name(puzzle, name)?;
            if grips.iter().any(|g| g.puzzle_move == index) {
                return Err(SearchError::MoveListedTwice { name: name.clone() });
            }
            let base = &puzzle.moves()[index];
            let t = layout.power(&base.transformation, step as i64);
            let order: u32 = layout
                .order(&t)
                .try_into()
                .map_err(|_| SearchError::MoveOrderTooLarge { name: name.clone() })?;
            if order > 1000 {
                return Err(SearchError::MoveOrderTooLarge { name: name.clone() });
            }
            let display = if step == 1 {
                base.name.clone()
            } else {
                power_name(&base.name, step as i32)
            };
            grips.push(Grip {
                puzzle_move: index,
                name: display,
                step,
                order,
                transformation: t,
            });
        }
        if grips.is_empty() {
            return Err(SearchError::NoMoves);
        }
        let mut moves = Vec::new();
        for (gi, g) in grips.iter().enumerate() {
            let order = g.order as i32;
            for k in 1..order {
                let amount = if order - k < k { k - order } else { k };
                if metric == Metric::Qtm && amount.abs() > 1 {
                    continue;
                }
                let transformation = layout.power(&g.transformation, amount as i64);
                moves.push(SearchMove {
                    name: power_name(&g.name, amount),
                    grip: gi,
                    amount,
                    sparse: layout.sparse(transformation.as_bytes()),
                    transformation,
                });
            }
        }
        Ok(MoveSet {
            layout: layout.clone(),
            grips,
            moves,
            metric,
        })
    }

    /// The layout of the states the moves act on.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What every table built for these moves and `goal` depends on, as
    /// bytes to hash into a table key: the orbits, the moves' effects and
    /// the goal (not the names, so a definition renamed finds its tables).
    pub fn definition_bytes(&self, goal: &twistor_core::Pattern) -> Vec<u8> {
        let mut bytes = Vec::new();
        for o in self.layout.orbits() {
            bytes.extend_from_slice(o.name().as_bytes());
            bytes.push(0);
            bytes.extend_from_slice(&(o.num_pieces() as u32).to_le_bytes());
            bytes.push(o.num_orientations() as u8);
        }
        for m in &self.moves {
            bytes.extend_from_slice(m.transformation.as_bytes());
        }
        bytes.extend_from_slice(goal.as_bytes());
        bytes
    }

    /// The grips.
    pub fn grips(&self) -> &[Grip] {
        &self.grips
    }

    /// The moves' packed transformations, in move order.
    pub fn transformations(&self) -> Vec<&[u8]> {
        self.moves
            .iter()
            .map(|m| m.transformation.as_bytes())
            .collect()
    }

    /// The moves, grip by grip.
    pub fn moves(&self) -> &[SearchMove] {
        &self.moves
    }

    /// The metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Indices of the moves that undo move `m` (its inverse), if one is in
    /// the set.
    pub fn inverse_of(&self, m: usize) -> Option<usize> {
        let mv = &self.moves[m];
        let order = self.grips[mv.grip].order as i32;
        let want = (order - mv.amount.rem_euclid(order)) % order;
        self.moves
            .iter()
            .position(|x| x.grip == mv.grip && x.amount.rem_euclid(order) == want)
    }
}

/// A name in a move list: a named move (step 1) or a power of one.
fn resolve_grip_name(puzzle: &Puzzle, name: &str) -> Result<(usize, u32), SearchError> {
    if let Some(i) = puzzle.find_move(name) {
        return Ok((i, 1));
    }
    // `R2`, `R3`: a power of a named move.
    let digits = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if digits.len() < name.len() {
        if let (Some(i), Ok(step)) = (
            puzzle.find_move(digits),
            name[digits.len()..].parse::<u32>(),
        ) {
            if step >= 1 {
                return Ok((i, step));
            }
        }
    }
    Err(SearchError::UnknownMove {
        name: name.to_string(),
    })
}
