//! Stopping a run part-way and resuming it from its checkpoint gives the
//! same result as a run that was never stopped, for every engine.

mod support;

use support::cube2;

use std::sync::atomic::{AtomicBool, Ordering};

use twistor_core::Puzzle;
use twistor_search::gods::{
    self, CheckpointError, CheckpointHeader, CheckpointStore, GodsControl, GodsError, GodsEvent,
    GodsMethod, GodsOptions, GodsReport, Storage,
};
use twistor_search::{Metric, MoveSet};
use twistor_store::FileCheckpoint;

/// The support module's 2x2x2 with the given moves (`<U,F,R>`: 3,674,160 positions, 11
/// deep; `<U,R>`: 29,160, 14 deep).
fn two_by_two(moves: &[&str]) -> (Puzzle, MoveSet) {
    let p = cube2();
    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let ms = MoveSet::named(&p, &names, Metric::Htm).unwrap();
    (p, ms)
}

/// A checkpoint file in a fresh temporary directory, removed on drop.
struct TempCheckpoint {
    dir: std::path::PathBuf,
}

impl TempCheckpoint {
    fn new(tag: &str) -> TempCheckpoint {
        let dir = std::env::temp_dir().join(format!("twistor-gods-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempCheckpoint { dir }
    }

    fn path(&self) -> std::path::PathBuf {
        self.dir.join("run.ckpt")
    }
}

impl Drop for TempCheckpoint {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs with a checkpoint file, raising the stop flag when `stop_when`
/// says so; then resumes from the file.
fn stop_and_resume(
    p: &Puzzle,
    ms: &MoveSet,
    options: &GodsOptions,
    file: &std::path::Path,
    stop_when: impl Fn(&GodsEvent) -> bool + Sync,
) -> (GodsError, GodsReport) {
    let stop = AtomicBool::new(false);
    let watch = |e: &GodsEvent| {
        if stop_when(e) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut store = FileCheckpoint::new(file);
    let first = gods::enumerate(
        p,
        ms,
        options,
        GodsControl {
            stop: Some(&stop),
            progress: Some(&watch),
            checkpoint: Some(&mut store),
            resume: false,
        },
    );
    let err = first.expect_err("the run should have stopped");
    let mut store = FileCheckpoint::new(file);
    let resumed = gods::enumerate(
        p,
        ms,
        options,
        GodsControl {
            checkpoint: Some(&mut store),
            resume: true,
            ..GodsControl::default()
        },
    )
    .unwrap();
    (err, resumed)
}

fn options(storage: Storage, method: GodsMethod) -> GodsOptions {
    GodsOptions {
        local_maxima: true,
        antipodes: 3,
        storage,
        method,
        threads: 2,
        ..GodsOptions::default()
    }
}

fn check_engine(tag: &str, moves: &[&str], opts: GodsOptions) {
    let (p, ms) = two_by_two(moves);
    let whole = gods::enumerate(&p, &ms, &opts, GodsControl::default()).unwrap();
    let tmp = TempCheckpoint::new(tag);
    // Stopped between depths.
    let (err, resumed) = stop_and_resume(&p, &ms, &opts, &tmp.path(), |e| {
        matches!(e, GodsEvent::LevelFinished { depth: 6, .. })
    });
    assert!(
        matches!(err, GodsError::Stopped { depth: 6 }),
        "{tag}: {err:?}"
    );
    assert_eq!(resumed.table, whole.table, "{tag}");
    assert_eq!(
        resumed.antipodes.positions, whole.antipodes.positions,
        "{tag}"
    );
    assert_eq!(
        resumed.antipodes.sequences, whole.antipodes.sequences,
        "{tag}"
    );
    // Stopped in the middle of depth 9 (the bit arrays work through it in
    // many chunks; the sorted arrays may finish it first).
    let (err, resumed) = stop_and_resume(&p, &ms, &opts, &tmp.path(), |e| {
        matches!(
            e,
            GodsEvent::LevelProgress {
                depth: 9,
                done: 1,
                ..
            }
        )
    });
    match err {
        GodsError::Stopped { depth } => assert!(depth == 8 || depth == 9, "{tag}: {depth}"),
        other => panic!("{tag}: {other:?}"),
    }
    assert_eq!(resumed.table, whole.table, "{tag}");
}

#[test]
fn bit_arrays_resume_to_the_same_result() {
    check_engine(
        "bits",
        &["U", "F", "R"],
        options(Storage::BitArray, GodsMethod::BreadthFirst),
    );
}

#[test]
fn sorted_arrays_resume_to_the_same_result() {
    check_engine(
        "sorted",
        &["U", "R"],
        options(Storage::SortedArray, GodsMethod::BreadthFirst),
    );
}

#[test]
fn products_resume_to_the_same_result() {
    let (p, ms) = two_by_two(&["U", "R"]);
    let opts = options(
        Storage::Auto,
        GodsMethod::Products {
            stored_depth: Some(4),
        },
    );
    let whole = gods::enumerate(&p, &ms, &opts, GodsControl::default()).unwrap();
    let tmp = TempCheckpoint::new("products");
    // Stop in the products phase after depth 6 (= 4 + 2), and again after
    // depth 9, when the stored depth has doubled to 8.
    let (err, resumed) = stop_and_resume(&p, &ms, &opts, &tmp.path(), |e| {
        matches!(e, GodsEvent::LevelFinished { depth: 6, .. })
    });
    assert!(matches!(err, GodsError::Stopped { depth: 6 }), "{err:?}");
    assert_eq!(resumed.table, whole.table);
    let (err, resumed) = stop_and_resume(&p, &ms, &opts, &tmp.path(), |e| {
        matches!(e, GodsEvent::LevelFinished { depth: 9, .. })
    });
    assert!(matches!(err, GodsError::Stopped { depth: 9 }), "{err:?}");
    assert_eq!(resumed.table, whole.table);
    assert_eq!(resumed.union_local_maxima, whole.union_local_maxima);
}

#[test]
fn checkpoints_of_other_runs_and_damaged_ones_are_refused() {
    let (p, ms) = two_by_two(&["U", "F", "R"]);
    let tmp = TempCheckpoint::new("refuse");
    let opts = options(Storage::BitArray, GodsMethod::BreadthFirst);
    let (_, _) = stop_and_resume(&p, &ms, &opts, &tmp.path(), |e| {
        matches!(e, GodsEvent::LevelFinished { depth: 4, .. })
    });
    let resume = |opts: &GodsOptions, ms: &MoveSet| {
        let mut store = FileCheckpoint::new(tmp.path());
        gods::enumerate(
            &p,
            ms,
            opts,
            GodsControl {
                checkpoint: Some(&mut store),
                resume: true,
                ..GodsControl::default()
            },
        )
    };
    // Other options, other moves.
    let no_maxima = GodsOptions {
        local_maxima: false,
        ..opts.clone()
    };
    assert!(matches!(
        resume(&no_maxima, &ms),
        Err(GodsError::CheckpointMismatch { .. })
    ));
    let qtm = MoveSet::named(&p, &["U", "F", "R"].map(String::from), Metric::Qtm).unwrap();
    assert!(matches!(
        resume(&opts, &qtm),
        Err(GodsError::CheckpointMismatch { .. })
    ));
    // One flipped bit in the saved words.
    let mut bytes = std::fs::read(tmp.path()).unwrap();
    let n = bytes.len();
    bytes[n - 100] ^= 4;
    std::fs::write(tmp.path(), &bytes).unwrap();
    match resume(&opts, &ms) {
        Err(GodsError::Checkpoint(e @ CheckpointError::Corrupt { .. })) => {
            assert!(e.to_string().contains("checksum mismatch"), "{e}")
        }
        other => panic!("expected a checksum error, got {other:?}"),
    }
    // Nothing to resume from.
    std::fs::remove_file(tmp.path()).unwrap();
    assert!(matches!(resume(&opts, &ms), Err(GodsError::NoCheckpoint)));
}

/// A store that keeps checkpoints in memory: the engines need nothing but
/// the trait.
#[derive(Default)]
struct MemoryStore {
    saved: Option<(CheckpointHeader, Vec<u64>)>,
    saves: usize,
}

impl CheckpointStore for MemoryStore {
    fn save(
        &mut self,
        header: &CheckpointHeader,
        words: &mut dyn Iterator<Item = u64>,
    ) -> Result<(), GodsError> {
        self.saved = Some((header.clone(), words.collect()));
        self.saves += 1;
        Ok(())
    }

    fn load(&mut self) -> Result<Option<(CheckpointHeader, Vec<u64>)>, GodsError> {
        Ok(self.saved.clone())
    }
}

#[test]
fn a_checkpoint_follows_every_depth() {
    let (p, ms) = two_by_two(&["U", "F", "R"]);
    let opts = options(Storage::BitArray, GodsMethod::BreadthFirst);
    let mut store = MemoryStore::default();
    let r = gods::enumerate(
        &p,
        &ms,
        &opts,
        GodsControl {
            checkpoint: Some(&mut store),
            ..GodsControl::default()
        },
    )
    .unwrap();
    // Depth 0 and each of the 11 depths after it.
    assert_eq!(store.saves, r.table.counts.len());
    let (header, _) = store.saved.as_ref().unwrap();
    assert_eq!(header.depth, 11);
    assert_eq!(header.moves, "U F R");
}

/// A checkpoint that cannot be read keeps the system's error as its
/// source, under the same message as before.
#[test]
fn unreadable_checkpoint_keeps_the_io_error_as_its_source() {
    use std::error::Error;
    // A directory opens but does not read.
    let dir = std::env::temp_dir();
    let mut store = FileCheckpoint::new(&dir);
    let err = store.load().unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("checkpoint: {}: ", dir.display())),
        "{err}"
    );
    let io = err
        .source()
        .and_then(|e| e.source())
        .and_then(|e| e.downcast_ref::<std::io::Error>());
    assert!(io.is_some(), "{err:?}");
}
