//! Cross-checks the certified group order against the deterministic
//! closure: `cargo run --release --example group_check FILE...`.

use twistor_core::StabilizerChain;

fn main() {
    for path in std::env::args().skip(1) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let Ok(p) = twistor_formats::read_puzzle(&text, &path) else {
            continue;
        };
        let gens: Vec<Vec<u16>> = p
            .search_moves()
            .iter()
            .map(|&i| p.layout().to_points(p.moves()[i].transformation.as_bytes()))
            .collect();
        if p.layout().num_points() > 500 {
            continue;
        }
        let fast = p.group_order(&p.search_moves());
        let slow = StabilizerChain::new(p.layout().num_points(), &gens).order();
        println!("{} {path}", if fast == slow { "same" } else { "DIFFERENT" });
    }
}
