//! The sharded breadth-first search against the single-process engine
//! (an independent implementation over the same index), with one, two
//! and four workers, and its checkpoints stopped and resumed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use twistor_core::Puzzle;
use twistor_distributed::{enumerate, DistributedError, DistributedOptions, ShardStore};
use twistor_search::gods::{self, GodsControl, GodsOptions, NeighbourIndex};
use twistor_search::{Metric, MoveSet};

fn puzzle(name: &str) -> Puzzle {
    twistor_geometry::build(name, &Default::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_puzzle()
}

fn moves(p: &Puzzle, names: &str) -> MoveSet {
    let names: Vec<String> = names.split(',').map(String::from).collect();
    MoveSet::named(p, &names, Metric::Htm).unwrap()
}

fn single_process(p: &Puzzle, m: &MoveSet) -> Vec<u64> {
    let options = GodsOptions {
        threads: 2,
        ..GodsOptions::default()
    };
    gods::enumerate(p, m, &options, GodsControl::default())
        .unwrap()
        .table
        .counts
}

fn sharded(index: &Arc<NeighbourIndex>, workers: usize) -> Vec<u64> {
    let options = DistributedOptions {
        workers,
        ..DistributedOptions::default()
    };
    enumerate(Arc::clone(index), &options, None, Arc::new(|_| {}))
        .unwrap()
        .counts
}

fn check(name: &str, move_names: &str) {
    let p = puzzle(name);
    let m = moves(&p, move_names);
    let expected = single_process(&p, &m);
    let index = Arc::new(NeighbourIndex::new(&p, &m).unwrap());
    for workers in [1, 2, 4] {
        assert_eq!(
            sharded(&index, workers),
            expected,
            "{name} on {workers} workers"
        );
    }
}

#[test]
fn two_by_two_on_one_two_and_four_workers() {
    check("2x2x2", "U,F,R");
}

#[test]
fn skewb_on_one_two_and_four_workers() {
    check("skewb", "UFR,UBL,DFL,DBR");
}

#[test]
fn pyraminx_on_one_two_and_four_workers() {
    check("pyraminx", "L,R,F,D");
}

/// Checkpoints in memory; saves past `refuse_after` (per shard) fail, as
/// if the process had been stopped there.
#[derive(Default)]
struct MemoryStore {
    files: Mutex<HashMap<(usize, usize, usize), Vec<u8>>>,
    refuse_after: Mutex<HashMap<usize, usize>>,
}

impl ShardStore for MemoryStore {
    fn save(&self, shard: usize, shards: usize, depth: usize, bytes: &[u8]) -> std::io::Result<()> {
        if self
            .refuse_after
            .lock()
            .unwrap()
            .get(&shard)
            .is_some_and(|&d| depth > d)
        {
            return Err(std::io::Error::other("stopped"));
        }
        self.files
            .lock()
            .unwrap()
            .insert((shard, shards, depth), bytes.to_vec());
        Ok(())
    }
    fn load(&self, shard: usize, shards: usize, depth: usize) -> std::io::Result<Option<Vec<u8>>> {
        Ok(self
            .files
            .lock()
            .unwrap()
            .get(&(shard, shards, depth))
            .cloned())
    }
    fn depths(&self, shard: usize, shards: usize) -> std::io::Result<Vec<usize>> {
        let files = self.files.lock().unwrap();
        let mut d: Vec<usize> = files
            .keys()
            .filter(|k| k.0 == shard && k.1 == shards)
            .map(|k| k.2)
            .collect();
        d.sort_unstable();
        Ok(d)
    }
    fn remove(&self, shard: usize, shards: usize, depth: usize) -> std::io::Result<()> {
        self.files.lock().unwrap().remove(&(shard, shards, depth));
        Ok(())
    }
}

fn run_with(
    index: &Arc<NeighbourIndex>,
    store: &Arc<MemoryStore>,
    resume: bool,
    fingerprint: u64,
) -> Result<Vec<u64>, DistributedError> {
    let options = DistributedOptions {
        workers: 2,
        resume,
        fingerprint,
        ..DistributedOptions::default()
    };
    let store: Arc<dyn ShardStore> = store.clone();
    enumerate(Arc::clone(index), &options, Some(store), Arc::new(|_| {})).map(|r| r.counts)
}

/// Shard 1 stops after saving depth 5, shard 0 after depth 6 (it got one
/// further before the stop): the run resumes from depth 5, where both
/// shards have a checkpoint, to the same distribution.
#[test]
fn a_stopped_run_resumes_from_the_newest_depth_every_shard_saved() {
    let p = puzzle("skewb");
    let m = moves(&p, "UFR,UBL,DFL,DBR");
    let index = Arc::new(NeighbourIndex::new(&p, &m).unwrap());
    let expected = sharded(&index, 2);
    let store = Arc::new(MemoryStore::default());
    store.refuse_after.lock().unwrap().extend([(0, 6), (1, 5)]);
    let stopped = run_with(&index, &store, false, 7);
    assert!(
        matches!(stopped, Err(DistributedError::Store { shard: 1, .. })),
        "{stopped:?}"
    );
    assert_eq!(store.depths(0, 2).unwrap(), vec![5, 6]);
    assert_eq!(store.depths(1, 2).unwrap(), vec![4, 5]);
    store.refuse_after.lock().unwrap().clear();
    // Another run's checkpoints are refused.
    let other = run_with(&index, &store, true, 8);
    assert!(
        matches!(other, Err(DistributedError::BadCheckpoint { .. })),
        "{other:?}"
    );
    assert_eq!(run_with(&index, &store, true, 7).unwrap(), expected);
    // Nothing to resume from: said, not started afresh.
    let empty = Arc::new(MemoryStore::default());
    let none = run_with(&index, &empty, true, 7);
    assert!(
        matches!(none, Err(DistributedError::NoCheckpoint { shard: 0 })),
        "{none:?}"
    );
}
