use twistor_cube333::cache::CacheOptions;
use twistor_cube333::optimal::*;
use twistor_cube333::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let s = OptimalSolver::load(OptimalTableKind::Huge, &CacheOptions { no_write: true, ..Default::default() }, &mut |e| eprintln!("{e:?}"));
    let c: CubieCube = args[1].parse().unwrap();
    let t0 = twistor_cube333::timing::thread_cpu_time().unwrap();
    let r = s.solve(&c, &OptimalOptions { single_thread: args.len() > 2, progress: Some(|d, n| eprintln!("depth {d} done, {n} nodes")), ..Default::default() });
    println!("{} ({}) {:.2}s nodes {}", r.moves, r.moves.len(), (twistor_cube333::timing::thread_cpu_time().unwrap() - t0).as_secs_f64(), r.nodes);
}
