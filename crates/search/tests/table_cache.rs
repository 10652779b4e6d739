//! Cached pruning tables: written once, read back to the same search, and
//! never trusted when a file is corrupt, truncated, foreign or for another
//! puzzle (each is reported, discarded and rebuilt).

mod support;

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use support::{pattern, CUBE2};
use twistor_core::Puzzle;
use twistor_formats::read_puzzle;
use twistor_search::{
    CacheError, Metric, MoveSet, SolutionCount, SolveOptions, Solver, SolverOptions, TableCache,
    TableEvent,
};

/// What happened to each table while a solver was set up.
#[derive(Debug, PartialEq, Eq, Clone)]
enum Seen {
    Loaded(PathBuf),
    Stored(PathBuf),
    Rejected(PathBuf, CacheError),
    Hashing,
}

fn set_up(puzzle: &Puzzle, moves: &[&str], dir: &std::path::Path) -> (Solver, Vec<Seen>) {
    set_up_naming(puzzle, moves, dir, &mut Vec::new())
}

/// [`set_up`], also recording the names of the tables stored.
fn set_up_naming(
    puzzle: &Puzzle,
    moves: &[&str],
    dir: &std::path::Path,
    names_stored: &mut Vec<String>,
) -> (Solver, Vec<Seen>) {
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
            cache: Some(TableCache {
                dir: dir.to_path_buf(),
                write: true,
            }),
            ..Default::default()
        },
        &stop,
        &mut |e| match e {
            TableEvent::Loaded { path, .. } => seen.push(Seen::Loaded(path.to_path_buf())),
            TableEvent::Stored { path, table } => {
                names_stored.push(table.to_string());
                seen.push(Seen::Stored(path.to_path_buf()))
            }
            TableEvent::Rejected { path, reason } => {
                seen.push(Seen::Rejected(path.to_path_buf(), reason.clone()))
            }
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

    let mut names = Vec::new();
    let (mut solver, seen) = set_up_naming(&puzzle, &ufr, &dir, &mut names);
    let files = stored(&seen);
    assert!(names.iter().any(|n| n.contains("hashed")), "{names:?}");
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
    let damage: [(&str, CacheError); 3] = [
        ("flip", CacheError::Checksum),
        ("truncate", CacheError::Truncated),
        ("foreign", CacheError::Foreign),
    ];
    for (path, (how, _)) in files.iter().zip(damage.iter().cycle()) {
        let mut bytes = fs::read(path).unwrap();
        match *how {
            "flip" => {
                let mid = bytes.len() / 2;
                bytes[mid] ^= 0x41;
            }
            "truncate" => bytes.truncate(bytes.len() - 100),
            _ => bytes = b"not a table at all".to_vec(),
        }
        fs::write(path, &bytes).unwrap();
    }
    let (mut solver, seen) = set_up(&puzzle, &ufr, &dir);
    for (path, (_, reason)) in files.iter().zip(damage.iter().cycle()) {
        assert!(
            seen.contains(&Seen::Rejected(path.clone(), reason.clone())),
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
        seen.contains(&Seen::Rejected(files[0].clone(), CacheError::Mismatch)),
        "{seen:?}"
    );
    assert_eq!(solutions(&puzzle, &mut solver), reference);
    let _ = fs::remove_dir_all(&dir);
}
