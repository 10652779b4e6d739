//! `twistor describe-sets`: which slots of which orbits each move moves or
//! twists.

use serde_json::json;
use twistor_tools::sequence::describe_transformation;

use crate::commands::algio::emit;
use crate::error::{CliError, CliResult};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor describe-sets`.
#[derive(clap::Args)]
#[command(
    after_help = "For each move, each orbit it touches: its cycles of slots (1-based, as in \
.tws files; (1 5 8 4) means the piece in slot 1 goes to slot 5, the one in 5 to 8, ...) and the \
slots whose piece arrives twisted, with the amount (slot:+amount).\n\nExamples:\n  twistor describe-sets 3x3x3\n  twistor describe-sets 3x3x3.tws --moves U,R --json"
)]
pub struct DescribeSetsArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Only these moves, comma-separated (default: every named move).
    #[arg(long, value_name = "A,B,C")]
    moves: Option<String>,
    /// Print one JSON object a line per move.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor describe-sets`.
pub fn run(args: DescribeSetsArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let indices: Vec<usize> = match &args.moves {
        None => (0..puzzle.moves().len()).collect(),
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|n| {
                puzzle.find_move(n).ok_or_else(|| {
                    CliError::input(format!("--moves: the puzzle has no move {n:?}"))
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let layout = puzzle.layout();
    for i in indices {
        let mv = &puzzle.moves()[i];
        // The name people use for it, where the notation has another.
        let people = puzzle.notation().and_then(|n| n.name_of(&puzzle, i));
        let effects = describe_transformation(layout, &mv.transformation);
        if args.json {
            let orbits: Vec<_> = effects
                .iter()
                .map(|e| {
                    json!({
                        "orbit": layout.orbits()[e.orbit].name(),
                        "cycles": e.cycles.iter().map(|c| c.iter().map(|s| s + 1).collect::<Vec<_>>()).collect::<Vec<_>>(),
                        "twists": e.twists.iter().map(|&(s, v)| json!({"slot": s + 1, "by": v})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let mut v = json!({"move": mv.name, "orbits": orbits});
            if let Some(n) = &people {
                v["notation"] = json!(n);
            }
            emit(&v.to_string())?;
            continue;
        }
        match &people {
            Some(n) => emit(&format!("{n} ({})", mv.name))?,
            None => emit(&mv.name)?,
        }
        for e in &effects {
            let cycles: Vec<String> = e
                .cycles
                .iter()
                .map(|c| {
                    let s: Vec<String> = c.iter().map(|x| (x + 1).to_string()).collect();
                    format!("({})", s.join(" "))
                })
                .collect();
            let mut line = format!("  {}:", layout.orbits()[e.orbit].name());
            if !cycles.is_empty() {
                line.push_str(&format!(" moves {}", cycles.join(" ")));
            }
            if !e.twists.is_empty() {
                let t: Vec<String> = e
                    .twists
                    .iter()
                    .map(|(s, v)| format!("{}:+{v}", s + 1))
                    .collect();
                if !cycles.is_empty() {
                    line.push(';');
                }
                line.push_str(&format!(" twists {}", t.join(" ")));
            }
            emit(&line)?;
        }
    }
    Ok(())
}
