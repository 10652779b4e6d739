//! A shared value made in parallel while every worker of the global pool
//! waits for it: made through `make_apart`, it is made. (A plain
//! `get_or_init` whose making runs on the global pool deadlocks here,
//! since no worker is free to run its jobs.)

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::Duration;
use twistor_core::lazy::make_apart;

const N: u64 = 1 << 16;

fn sum_of_squares() -> u64 {
    (0..N).into_par_iter().map(|x| x * x).sum()
}

#[test]
fn a_value_made_apart_is_made_while_every_worker_waits_for_it() {
    let workers = rayon::current_num_threads();
    let cell = Arc::new(OnceLock::new());
    let making = Arc::new(AtomicBool::new(false));
    let waiting = Arc::new(AtomicUsize::new(0));
    let (done, finished) = mpsc::channel();

    // Every worker of the global pool waits until the value is being made,
    // then asks for it.
    let waiters = {
        let (cell, making, waiting) = (cell.clone(), making.clone(), waiting.clone());
        let done = done.clone();
        std::thread::spawn(move || {
            let seen = rayon::broadcast(|_| {
                while !making.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
                waiting.fetch_add(1, Ordering::AcqRel);
                *cell.get_or_init(|| make_apart(sum_of_squares))
            });
            let _ = done.send(seen);
        })
    };
    // The maker holds the cell until every worker is at it.
    let maker = std::thread::spawn(move || {
        let value = *cell.get_or_init(|| {
            making.store(true, Ordering::Release);
            while waiting.load(Ordering::Acquire) < workers {
                std::thread::yield_now();
            }
            make_apart(sum_of_squares)
        });
        let _ = done.send(vec![value]);
    });

    let expected = (0..N).map(|x| x * x).sum::<u64>();
    for _ in 0..2 {
        let seen = finished
            .recv_timeout(Duration::from_secs(120))
            .expect("the value was never made: deadlocked");
        assert!(seen.iter().all(|&v| v == expected), "{seen:?}");
    }
    maker.join().unwrap();
    waiters.join().unwrap();
}
