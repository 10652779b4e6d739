//! `twistor info`: what a puzzle definition holds.

use serde_json::json;
use twistor_core::Puzzle;

use crate::error::CliResult;
use crate::moves::{search_move_indices, MoveSubset};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor info`.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  twistor info 3x3x3.tws --json")]
pub struct InfoArgs {
    #[command(flatten)]
    source: PuzzleSource,
    #[command(flatten)]
    moves: MoveSubset,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor info`.
pub fn run(args: InfoArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let gens = search_move_indices(&puzzle, &args.moves)?;
    let order = puzzle.group_order(&gens);
    if args.json {
        let v = json!({
            "name": puzzle.name(),
            "orbits": orbits(&puzzle),
            "moves": gens.iter().map(|&i| puzzle.moves()[i].name.clone()).collect::<Vec<_>>(),
            "group_order": order.to_string(),
        });
        println!("{v}");
        return Ok(());
    }
    let layout = puzzle.layout();
    println!("{}", puzzle.name());
    println!("{:<16} {:>7} {:>13}", "orbit", "pieces", "orientations");
    for o in layout.orbits() {
        println!(
            "{:<16} {:>7} {:>13}",
            o.name(),
            o.num_pieces(),
            o.num_orientations()
        );
    }
    let names = |idx: &[usize]| {
        idx.iter()
            .map(|&i| puzzle.moves()[i].name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("moves: {}", names(&gens));
    let rotations = puzzle.rotations();
    if !rotations.is_empty() {
        println!("rotations: {}", names(&rotations));
    }
    println!("group order: {order}");
    Ok(())
}

fn orbits(puzzle: &Puzzle) -> Vec<serde_json::Value> {
    puzzle
        .layout()
        .orbits()
        .iter()
        .map(|o| json!({"name": o.name(), "pieces": o.num_pieces(), "orientations": o.num_orientations()}))
        .collect()
}
