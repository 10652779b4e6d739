//! Prints the order of the group a definition's moves generate, and the
//! time it took: `cargo run --release --example group_order FILE...`.

fn main() {
    for path in std::env::args().skip(1) {
        let text = match std::fs::read(&path) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        match twistor_formats::read_puzzle(&text, &path) {
            Ok(p) => {
                let t = std::time::Instant::now();
                let order = p.group_order(&p.search_moves());
                println!("{path}: {order} ({:.3} s)", t.elapsed().as_secs_f64());
            }
            Err(e) => eprintln!("{e}"),
        }
    }
}
