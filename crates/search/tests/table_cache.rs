//! Cached pruning tables: written once, read back to the same search, and
//! never trusted when a file is corrupt, truncated, foreign, for another
//! puzzle or written by an older twistor (each is reported, discarded and
//! rebuilt).

mod support;

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use support::{pattern, CUBE2};
use twistor_core::store::{StoreError, StoreEvent};
use twistor_core::Puzzle;
use twistor_formats::read_puzzle;
use twistor_search::{
    Metric, MoveSet, SolutionCount, SolveOptions, Solver, SolverOptions, TableEvent,
};
use twistor_store::DirStore;

/// What happened to each table while a solver was set up.
#[derive(Debug, PartialEq, Eq, Clone)]
enum Seen {
    Loaded(PathBuf),
    Stored(PathBuf),
    Rejected(PathBuf, &'static str),
    Hashing,
}

fn set_up(puzzle: &Puzzle, moves: &[&str], dir: &std::path::Path) -> (Solver, Vec<Seen>) {
    let kind = |e: &StoreError| match e {
        StoreError::Checksum => "checksum",
        StoreError::Size { .. } => "size",
        StoreError::Foreign => "foreign",
        StoreError::Mismatch { .. } => "mismatch",
        StoreError::Outdated { .. } => "outdated",
        _ => "other",
    };
    let names: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    let moves = MoveSet::named(puzzle, &names, Metric::Htm).unwrap();
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let solver = Solver::new(
        puzzle,
        moves,
        puzzle.start().clone(),
        &SolverOptions {
            // Too small for an exact table: projections and a hashed table.
            memory_bytes: 1 << 20,
            threads: 2,
            store: Arc::new(DirStore::new(dir)),
            ..Default::default()
        },
        &stop,
        &mut |e| match e {
            TableEvent::Store(StoreEvent::Loaded { location, .. }) => {
                seen.push(Seen::Loaded(location.unwrap().into()))
            }
            TableEvent::Store(StoreEvent::Saved { location, .. }) => {
                seen.push(Seen::Stored(location.unwrap().into()))
            }
            TableEvent::Store(StoreEvent::Rejected {
                location, error, ..
            }) => seen.push(Seen::Rejected(location.unwrap().into(), kind(error))),
            TableEvent::Hashing { .. } => seen.push(Seen::Hashing),
            _ => {}
        },
    )
    .unwrap();
    (solver, seen)
}

/// Every optimal solution of a fixed scrambled position.
fn solutions(puzzle: &Puzzle, solver: &mut Solver) -> Vec<Vec<usize>> {
    let layout = puzzle.layout();
    let mut state = puzzle.start().as_bytes().to_vec();
    let mut buf = state.clone();
    for m in [0, 3, 6, 1, 4, 8, 2, 5] {
        layout.compose_into(
            &state,
            solver.moves().moves()[m].transformation.as_bytes(),
            &mut buf,
        );
        std::mem::swap(&mut state, &mut buf);
    }
    let options = SolveOptions {
        count: SolutionCount::AllOptimal,
        ..Default::default()
    };
    solver
        .solve(
            &pattern(puzzle, &state),
            &options,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .solutions
}

fn stored(seen: &[Seen]) -> Vec<PathBuf> {
    seen.iter()
        .filter_map(|s| match s {
            Seen::Stored(p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn cached_tables_are_reused_and_bad_files_rebuilt() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("table-cache-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let puzzle = read_puzzle(CUBE2, "cube2.tws").unwrap();
    let ufr = ["U", "F", "R"];

    let (mut solver, seen) = set_up(&puzzle, &ufr, &dir);
    let files = stored(&seen);
    assert!(seen.contains(&Seen::Hashing), "{seen:?}");
    assert!(
        files.len() >= 2,
        "projections and the hashed table: {seen:?}"
    );
    assert!(!seen.iter().any(|s| matches!(s, Seen::Loaded(_))));
    let reference = solutions(&puzzle, &mut solver);
    assert!(!reference.is_empty());
    // The same as a solver that builds its own tables in memory.
    let moves = MoveSet::named(&puzzle, &ufr.map(String::from), Metric::Htm).unwrap();
    let mut uncached = Solver::new(
        &puzzle,
        moves,
        puzzle.start().clone(),
        &SolverOptions {
            memory_bytes: 1 << 20,
            ..Default::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(solutions(&puzzle, &mut uncached), reference);

    // A second set-up reads every table and builds none.
    let (mut solver, seen) = set_up(&puzzle, &ufr, &dir);
    let loaded: Vec<Seen> = files.iter().map(|p| Seen::Loaded(p.clone())).collect();
    assert_eq!(seen, loaded);
    assert_eq!(solutions(&puzzle, &mut solver), reference);

    // Damage each file in a different way; each is reported and rebuilt.
    let damage: [(&str, &str); 3] = [
        ("flip", "checksum"),
        ("truncate", "size"),
        ("foreign", "foreign"),
    ];
    for (path, (how, _)) in files.iter().zip(damage.iter().cycle()) {
        let mut bytes = fs::read(path).unwrap();
        match *how {
            "flip" => {
                let last = bytes.len() - 1;
                bytes[last] ^= 0x41;
            }
            "truncate" => bytes.truncate(bytes.len() - 100),
            _ => bytes = b"not a table at all".to_vec(),
        }
        fs::write(path, &bytes).unwrap();
    }
    let (mut solver, seen) = set_up(&puzzle, &ufr, &dir);
    for (path, (_, reason)) in files.iter().zip(damage.iter().cycle()) {
        assert!(
            seen.contains(&Seen::Rejected(path.clone(), reason)),
            "{path:?} not rejected as {reason:?}: {seen:?}"
        );
    }
    assert_eq!(stored(&seen), files);
    assert_eq!(solutions(&puzzle, &mut solver), reference);

    // A sound file for another move set, put where this one's lives, is
    // told apart by its key.
    let (_, other) = set_up(&puzzle, &["U", "F", "R", "D"], &dir);
    let other_files = stored(&other);
    fs::copy(&other_files[0], &files[0]).unwrap();
    let (mut solver, seen) = set_up(&puzzle, &ufr, &dir);
    assert!(
        seen.contains(&Seen::Rejected(files[0].clone(), "mismatch")),
        "{seen:?}"
    );
    assert_eq!(solutions(&puzzle, &mut solver), reference);

    // Files the search engine wrote before the one table store (its own
    // header, "TWISTOR-PRUNETAB" format 3, named .prune): each is
    // recognised as outdated, removed and rebuilt to the same answers.
    let mut old_files = Vec::new();
    for path in &files {
        let mut old = b"TWISTOR-PRUNETAB".to_vec();
        old.extend_from_slice(&3u64.to_le_bytes());
        old.extend_from_slice(&fs::read(path).unwrap()[24..32]); // the key
        old.extend_from_slice(&[0; 64]);
        let old_path = path.with_extension("prune");
        fs::write(&old_path, &old).unwrap();
        fs::remove_file(path).unwrap();
        old_files.push(old_path);
    }
    let (mut solver, seen) = set_up(&puzzle, &ufr, &dir);
    for old in &old_files {
        assert!(!old.exists(), "{old:?} is cleared away");
    }
    let outdated = seen
        .iter()
        .filter(|s| matches!(s, Seen::Rejected(_, "outdated")))
        .count();
    assert_eq!(outdated, files.len(), "{seen:?}");
    assert_eq!(stored(&seen), files);
    assert_eq!(solutions(&puzzle, &mut solver), reference);
    let _ = fs::remove_dir_all(&dir);
}
