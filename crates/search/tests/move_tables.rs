//! How a solver's tables grow on the 4x4x4's dedge flip in `<2L,2R,U,F>`.
//!
//! A table loaded from the store comes without its move tables when they
//! are large (the 4x4x4's edge tables); the search builds them once it has
//! searched enough to pay for them, and from then on carries the table's
//! coordinates. Carrying them must not change the search: the same first
//! solution as the solver that filled the tables.

mod support;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use support::{after_moves, geometry, move_set, pattern};
use twistor_search::{Metric, SaveGrown, SolveOptions, Solver, SolverOptions};
use twistor_store::DirStore;

#[test]
fn cached_tables_get_their_move_tables_once_searching_pays_for_them() {
    let puzzle = geometry("4x4x4");
    let moves = move_set(&puzzle, Some("2L,2R,U,F"), Metric::Htm);
    // A dedge flip (one of its optimal solutions, inverted).
    let alg = "F2 2L2 F2 U2 2R' F2 2L F2 2R2 U2 2R' U2 2L U2 2L'";
    let seq: Vec<usize> = (alg.split(' '))
        .map(|name| {
            let found = moves.moves().iter().position(|m| m.name == name);
            found.unwrap_or_else(|| panic!("no move {name}"))
        })
        .collect();
    let state = after_moves(&puzzle, &moves, puzzle.start().as_bytes(), &seq);
    let position = pattern(&puzzle, &state);
    let dir = tempfile_dir();
    let stop = AtomicBool::new(false);
    let run = || {
        let mut solver = Solver::new(
            &puzzle,
            moves.clone(),
            puzzle.start().clone(),
            &SolverOptions {
                memory_bytes: 512 << 20,
                threads: 2,
                store: Arc::new(DirStore::new(&dir)),
                ..Default::default()
            },
            &stop,
            &mut |_| {},
        )
        .unwrap();
        let report = solver.solve(
            &position,
            &SolveOptions {
                threads: 2,
                ..Default::default()
            },
            &stop,
            &mut |_| {},
        );
        solver.save_grown_tables(SaveGrown::All, &mut |_| {});
        (report.solutions, solver.growth_log().to_vec())
    };
    let (filled, filled_log) = run();
    assert_eq!(filled.len(), 1);
    assert_eq!(
        filled[0].len(),
        15,
        "the dedge flip takes 15 moves of 2L, 2R, U, F"
    );
    assert!(
        filled_log.iter().all(|g| !g.move_tables),
        "tables filled here have their move tables from the fill"
    );
    // A refill walks every depth again, so the hashed table goes as deep
    // as the balance allows at once (depth 8 here), not one depth now and
    // the next soon after.
    let refills: Vec<u8> = (filled_log.iter())
        .filter(|g| g.table == "hashed positions")
        .map(|g| g.to_depth)
        .collect();
    assert_eq!(refills, [8], "{filled_log:?}");
    let (loaded, loaded_log) = run();
    assert!(
        loaded_log.iter().any(|g| g.move_tables),
        "the loaded tables were given move tables: {loaded_log:?}"
    );
    assert_eq!(loaded, filled);
    std::fs::remove_dir_all(&dir).ok();
}

/// A fresh directory of this test's own under the system's temporary one.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("twistor-move-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
