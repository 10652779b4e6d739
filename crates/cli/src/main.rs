//! `twistor`: explore twisty puzzles from the command line.
//!
//! This crate is only the edge: it parses arguments, reads files, calls the
//! engines and prints their results. It holds no algorithms.

#[macro_use]
mod out;
mod cache;
mod commands;
mod error;
mod load;
mod machine;
mod moves;
mod progress;
mod puzzle_source;
mod report;
mod target;
mod timing;

use clap::{CommandFactory, Parser, Subcommand};

use error::CliError;

/// Explore twisty (permutation) puzzles: definitions, notation, optimal
/// search, God's algorithm, the 3x3x3 and puzzles from geometry.
#[derive(Parser)]
#[command(name = "twistor", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No progress display and no informational lines on stderr.
    #[arg(short, long, global = true)]
    quiet: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Describe a puzzle: orbits, moves, group order.
    Info(commands::info::InfoArgs),
    /// Apply an alg to the start state and print the pattern reached.
    Apply(commands::apply::ApplyArgs),
    /// Invert algs.
    Invert(commands::invert::InvertArgs),
    /// The order of algs: repetitions until nothing has changed.
    Order(commands::order::OrderArgs),
    /// Find optimal solutions of positions.
    Solve(commands::solve::SolveArgs),
    /// Count canonical move sequences by length.
    Canon(commands::canon::CanonArgs),
    /// Convert a definition between .tws and KPuzzle JSON.
    Convert(commands::convert::ConvertArgs),
    /// God's algorithm: exact distance distributions, antipodes, local maxima.
    Gods(commands::gods::GodsArgs),
    /// Build a puzzle definition from a solid and its cut planes.
    Geometry(commands::geometry::GeometryArgs),
    /// Show a position: as an SVG net, a position matrix, or a definition block.
    Show(commands::show::ShowArgs),
    /// Solve 3x3x3 cubes: Kociemba's two-phase and an optimal solver.
    #[command(name = "333")]
    Cube333(commands::cube333::Cube333Args),
    /// Uniformly random positions from the exact state space.
    Random(commands::random::RandomArgs),
    /// WCA scrambles for every event (333, 333bf, 333fm, 222, 444-777, pyram, skewb, minx, clock, sq1, ...).
    Scramble(commands::scramble::ScrambleArgs),
    /// A local web app: see, scramble, solve and step through any puzzle.
    Serve(commands::serve::ServeArgs),
    /// Merge adjacent moves on the same grip.
    Cancel(commands::cancel::CancelArgs),
    /// Cancel, merge across commuting moves, and order them canonically.
    Canonicalize(commands::canonicalize::CanonicalizeArgs),
    /// Shorten algs by replacing windows with optimal sequences.
    Shorten(commands::shorten::ShortenArgs),
    /// Push whole-puzzle rotations to the end of algs.
    Unrotate(commands::unrotate::UnrotateArgs),
    /// Drop algs that reach a position already seen.
    Unique(commands::unique::UniqueArgs),
    /// Which slots of which orbits each move moves or twists.
    DescribeSets(commands::describe_sets::DescribeSetsArgs),
    /// Measurements people can rerun: `bench solve-all` solves random
    /// states of every puzzle with `solve --fast`.
    Bench(commands::bench::BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(
        after_help = "Examples:\n  twistor completions bash > ~/.local/share/bash-completion/completions/twistor\n  twistor completions zsh > ~/.zfunc/_twistor\n  twistor completions fish > ~/.config/fish/completions/twistor.fish"
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `twistor man > twistor.1`.
    Man,
}

fn main() {
    let cli = Cli::parse();
    progress::set_quiet(cli.quiet);
    let result = match cli.command {
        Command::Info(args) => commands::info::run(args),
        Command::Apply(args) => commands::apply::run(args),
        Command::Invert(args) => commands::invert::run(args),
        Command::Order(args) => commands::order::run(args),
        Command::Convert(args) => commands::convert::run(args),
        Command::Canon(args) => commands::canon::run(args),
        Command::Solve(args) => commands::solve::run(args),
        Command::Gods(args) => commands::gods::run(args),
        Command::Geometry(args) => commands::geometry::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Cube333(args) => commands::cube333::run(args),
        Command::Random(args) => commands::random::run(args),
        Command::Scramble(args) => commands::scramble::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Cancel(args) => commands::cancel::run(args),
        Command::Canonicalize(args) => commands::canonicalize::run(args),
        Command::Shorten(args) => commands::shorten::run(args),
        Command::Unrotate(args) => commands::unrotate::run(args),
        Command::Unique(args) => commands::unique::run(args),
        Command::DescribeSets(args) => commands::describe_sets::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "twistor", &mut buf);
            out!("{}", String::from_utf8_lossy(&buf));
            Ok(())
        }
        Command::Man => {
            let mut buf = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut buf) {
                Ok(()) => {
                    out!("{}", String::from_utf8_lossy(&buf));
                    Ok(())
                }
                Err(e) => Err(CliError::failure(e)),
            }
        }
    };
    if let Err(e) = result {
        if e.code != 0 {
            report(&e);
        }
        std::process::exit(e.code);
    }
}

fn report(e: &CliError) {
    eprintln!("twistor: {}", e.message);
}
