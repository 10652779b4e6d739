fn main() {
    let b = std::fs::read(std::env::var("HOME").unwrap() + "/.cache/twistor/optimal-slicesorted-twist-flip-v1.tbl").unwrap();
    let mut c = [0u64; 4];
    for &x in &b[4096..] { for k in 0..4 { c[((x >> (2 * k)) & 3) as usize] += 1; } }
    println!("{c:?}");
    // First row (class of solved, twist 0): first 16 flips.
    let row: Vec<u8> = (0..16).map(|i| (b[4096 + i / 4] >> ((i % 4) * 2)) & 3).collect();
    println!("{row:?}");
}
