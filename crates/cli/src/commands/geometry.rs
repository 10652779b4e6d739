//! `twistor geometry`: a puzzle definition from a descriptor or a name.

use std::time::Instant;

use twistor_formats::{write_puzzle, PuzzleFormat};
use twistor_geometry::pronounce::RotationModel;
use twistor_geometry::{build, PieceKind, PuzzleOptions, NAMED_PUZZLES};
use twistor_tools::catalog::{self, Built, NameError};

use crate::error::{CliError, CliResult};
use crate::puzzle_source::{GeometryFlags, NAMES_HINT};

/// Output formats of `twistor geometry`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum Format {
    /// ksolve/twsearch .tws
    #[default]
    Tws,
    /// cubing.js KPuzzle JSON
    Json,
}

/// Arguments of `twistor geometry`.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    twistor geometry megaminx --format json\n  \
    twistor geometry \"c f 0.333333333333333 v 0.9\" --format tws\n  \
    twistor geometry 4x4x4 --surfaces\n  \
    twistor geometry rex_cube\n  \
    twistor geometry \"c e sphere 2 at 2.83\" --format json\n  \
    twistor geometry --list\n  \
    twistor geometry --bench")]
pub struct GeometryArgs {
    /// A descriptor or a puzzle name. A descriptor is a solid (t c o d i)
    /// then cuts, each f|v|e (about a face, vertex or edge direction) and
    /// DISTANCE (a plane; 1 is a face), `sphere RADIUS [at DISTANCE]` (a
    /// sphere centred on the direction, at the feature unless `at` says)
    /// or `cone HALF-ANGLE [at DISTANCE]` (a cone opening along the
    /// direction from its apex, at the centre unless `at` says).
    #[arg(value_name = "DESCRIPTOR|NAME", required_unless_present_any = ["list", "bench"])]
    puzzle: Option<String>,
    #[command(flatten)]
    flags: GeometryFlags,
    /// The format to print.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Print the rotation surfaces and axes instead of the definition.
    #[arg(long)]
    surfaces: bool,
    /// List the puzzle names and their descriptors.
    #[arg(long)]
    list: bool,
    /// Time building every named puzzle (definitions with their moves).
    #[arg(long)]
    bench: bool,
    /// Repetitions for --bench.
    #[arg(long, default_value_t = 5, requires = "bench")]
    rounds: u32,
}

/// Runs `twistor geometry`.
pub fn run(args: GeometryArgs) -> CliResult {
    if args.list {
        for (name, desc) in NAMED_PUZZLES.iter().chain(catalog::DESCRIPTORS) {
            outln!("{name:<30} {desc}");
        }
        for (name, desc, omit) in catalog::CURVED {
            let left_out = if omit.is_empty() {
                String::new()
            } else {
                let kinds: Vec<&str> = (omit.iter())
                    .map(|k| match k {
                        PieceKind::Corner => "corners",
                        PieceKind::Edge => "edges",
                        PieceKind::Center => "centres",
                    })
                    .collect();
                format!(" (without its {})", kinds.join(", "))
            };
            outln!("{name:<30} {desc}{left_out}");
        }
        return Ok(());
    }
    if args.bench {
        return bench(&args.flags.options(), args.rounds.max(1));
    }
    let spec = args.puzzle.as_deref().unwrap_or_default();
    let gp = match catalog::build_named(spec, &args.flags.options(), args.flags.any()) {
        Ok(Built::Generated(gp)) => gp,
        Ok(Built::Handmade(_)) => {
            return Err(CliError::input(format!(
                "{spec}: a hand-written puzzle, not built from geometry (twistor convert prints its definition)"
            )))
        }
        Err(e @ NameError::Unknown { .. }) => {
            return Err(CliError::input(format!("{spec}: {e} {NAMES_HINT}")))
        }
        Err(e) => return Err(CliError::input(format!("{spec}: {e}"))),
    };
    if args.surfaces {
        out!("{}", RotationModel::new(&gp).describe());
        return Ok(());
    }
    let format = match args.format {
        Format::Tws => PuzzleFormat::Tws,
        Format::Json => PuzzleFormat::KPuzzleJson,
    };
    let text = write_puzzle(gp.puzzle(), format)
        .map_err(|e| CliError::failure(format!("{spec}: {}", e.kind)))?;
    out!("{text}");
    Ok(())
}

fn bench(options: &PuzzleOptions, rounds: u32) -> CliResult {
    // The best round, and the slowest puzzle within it.
    let mut best = (f64::INFINITY, "", 0.0f64);
    for _ in 0..rounds {
        let start = Instant::now();
        let mut slowest = ("", 0.0f64);
        for (name, _) in NAMED_PUZZLES {
            let t = Instant::now();
            let gp = build(name, options).map_err(|e| CliError::failure(format!("{name}: {e}")))?;
            std::hint::black_box(gp.puzzle().moves().len());
            let s = t.elapsed().as_secs_f64();
            if s > slowest.1 {
                slowest = (name, s);
            }
        }
        let total = start.elapsed().as_secs_f64();
        if total < best.0 {
            best = (total, slowest.0, slowest.1);
        }
    }
    outln!(
        "built all {} named puzzles in {:.1} ms (best of {rounds}); slowest: {} {:.1} ms",
        NAMED_PUZZLES.len(),
        best.0 * 1e3,
        best.1,
        best.2 * 1e3
    );
    Ok(())
}
