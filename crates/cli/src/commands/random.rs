//! `twistor random`: uniformly random positions from the exact state space.

use twistor_formats::kpuzzle::{write_kpattern, JsonStyle};
use twistor_formats::tws::write_scrambles;
use twistor_tools::random::RandomStates;

use crate::commands::algio::emit;
use crate::error::{CliError, CliResult};
use crate::moves::{listed_move_set, GroupMemory, MoveSubset};
use crate::puzzle_source::PuzzleSource;
use twistor_search::Metric;

/// Arguments of `twistor random`.
#[derive(clap::Args)]
#[command(
    after_help = "Each position is the start state after a uniformly random element of the \
group the moves generate (Schreier-Sims: one uniform coset representative per level), so every \
reachable position is equally likely, parity and orientation constraints included, identical \
pieces too. The moves are the ones twistor solve searches (or --moves): on a named pyraminx, \
skewb, megaminx or FTO the notation's, which keep the puzzle held as it is, so solve solves \
every position printed. Positions stream out as a .tws scramble file (Scramble random-1 ... End \
blocks), or with --json one KPattern a line. The same --seed gives the same positions on every \
machine (ChaCha8); without it the seed comes from the clock and is reported on stderr.\n\nExamples:\n  \
twistor random 3x3x3 -n 5 --seed 42\n  twistor random 2x2x2.tws -n 1000 --seed 1 --json > states.jsonl"
)]
pub struct RandomArgs {
    #[command(flatten)]
    source: PuzzleSource,
    #[command(flatten)]
    moves: MoveSubset,
    /// How many positions (streamed; any number).
    #[arg(short = 'n', long = "count", default_value_t = 1, value_parser = crate::moves::positive_count)]
    count: u64,
    #[command(flatten)]
    seed: SeedArg,
    /// Print one KPattern JSON object a line instead of a scramble file.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: GroupMemory,
}

/// `--seed`, for every command that draws at random.
#[derive(clap::Args, Clone, Copy)]
pub struct SeedArg {
    /// Seed of the random generator.
    #[arg(long)]
    seed: Option<u64>,
}

impl SeedArg {
    /// The seed given, or one from the clock for runs that give none
    /// (reported on stderr, so the run can be made again).
    pub fn resolve(self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let s = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            note!("twistor: seed {s}");
            s
        })
    }
}

/// Runs `twistor random`. The puzzle loads as `twistor solve` loads it
/// ([`PuzzleSource::load_in_notation`]), so the group drawn from is the
/// one `solve` searches: a named puzzle's own moves may also turn it
/// whole (the skewb's eight corner turns, the pyraminx's face layers),
/// and positions drawn from their group were unreachable to `solve`.
pub fn run(args: RandomArgs) -> CliResult {
    let puzzle = args.source.load_in_notation()?;
    args.memory.check(&puzzle)?;
    // The moves listed may be a move's powers alone (`U,R2`), as in
    // `solve --moves`.
    let chain = match &args.moves.moves {
        Some(list) => {
            let set = listed_move_set(&puzzle, "--moves", Some(list), Metric::Htm)?;
            puzzle.group_of(&set.transformations())
        }
        None => puzzle.group(&puzzle.search_moves()),
    };
    let seed = args.seed.resolve();
    let mut states = RandomStates::from_chain(&puzzle, chain, seed);
    for i in 1..=args.count {
        let p = states.next_pattern();
        if args.json {
            emit(&write_kpattern(&puzzle, &p, JsonStyle::Compact))?;
        } else {
            let text = write_scrambles(&puzzle, &[(format!("random-{i}"), p)])
                .map_err(CliError::failure)?;
            emit(text.trim_end())?;
        }
    }
    Ok(())
}
