use twistor_cube333::cache::CacheOptions;
use twistor_cube333::timing::thread_cpu_time;
use twistor_cube333::twophase::*;
use twistor_cube333::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let t = TwoPhaseTables::load(&CacheOptions { no_cache: args.len() > 3, ..Default::default() }, &mut |_| {});
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let target: usize = args[2].parse().unwrap();
    let mut res = vec![];
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[1] != "random" { continue; }
        let c: CubieCube = f[2].parse().unwrap();
        let a = thread_cpu_time().unwrap();
        let s = solve(&t, &c, &SolveOptions { max_length: target, ..Default::default() }).unwrap();
        let ms = (thread_cpu_time().unwrap() - a).as_secs_f64() * 1e3;
        res.push((ms, format!("{} n1 {} n2 {}", f[0], s.phase1_nodes, s.phase2_nodes), s.probes, s.moves.len()));
    }
    let tot: f64 = res.iter().map(|r| r.0).sum();
    res.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("total {tot:.1} ms");
    for r in res.iter().take(8) { println!("{:8.2} ms {} probes {} len {}", r.0, r.1, r.2, r.3); }
}
