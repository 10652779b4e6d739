//! `twistor show`: a position as an SVG net, as the rotation-surface
//! model's position matrix, or in pronounceable notation.

use twistor_formats::resolve::alg_transformation;
use twistor_formats::tws::write_scrambles;
use twistor_geometry::pronounce::RotationModel;
use twistor_geometry::svg::{position_svg, SvgOptions};
use twistor_tools::picture::Drawing;

use crate::error::{CliError, CliResult};
use crate::load::{parse_alg, shorten};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor show`.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    twistor show 3x3x3 \"R U R' U'\" --svg > sexy.svg\n  \
    twistor show megaminx \"R++ D--\" --svg\n  \
    twistor show 2x2x2 \"R U\" --matrix\n  \
    twistor show 3x3x3 \"R U M x\" --pronounce\n  \
    twistor show 3x3x3 \"RE TA RA TE\" --pronounceable --sign")]
pub struct ShowArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// The alg to apply to the start state (cubing.js notation, or
    /// pronounceable notation with --pronounceable).
    #[arg(default_value = "")]
    alg: String,
    /// ALG is in pronounceable notation (`RE TA`).
    #[arg(long)]
    pronounceable: bool,
    /// Print the position as an SVG net.
    #[arg(long)]
    svg: bool,
    /// Width of the SVG.
    #[arg(long, default_value_t = 800.0, requires = "svg")]
    width: f64,
    /// Height of the SVG.
    #[arg(long, default_value_t = 500.0, requires = "svg")]
    height: f64,
    /// Print the position matrix (pieces by rotation surfaces).
    #[arg(long)]
    matrix: bool,
    /// Print ALG in pronounceable notation.
    #[arg(long)]
    pronounce: bool,
    /// Print ALG in SiGN (cubes).
    #[arg(long)]
    sign: bool,
}

/// Runs `twistor show`.
pub fn run(args: ShowArgs) -> CliResult {
    let views = [args.svg, args.matrix, args.pronounce, args.sign]
        .iter()
        .filter(|&&b| b)
        .count();
    if views > 1 {
        return Err(CliError::input(
            "choose one of --svg, --matrix, --pronounce and --sign",
        ));
    }
    if args.svg
        && !(args.width.is_finite()
            && args.height.is_finite()
            && args.width >= 10.0
            && args.height >= 10.0
            && args.width <= 1e5
            && args.height <= 1e5)
    {
        return Err(CliError::input(
            "--width and --height must be between 10 and 100000",
        ));
    }
    let Some(gp) = args.source.generated(crate::puzzle_source::for_drawing)? else {
        // The hand-written puzzles drawn on scramble sheets (the clock,
        // the Square-1) are drawn here the same way.
        if args.svg {
            if let Ok(Some(Drawing::Model(id, puzzle))) = Drawing::of(&args.source.puzzle) {
                let drawing = Drawing::Model(id, puzzle);
                let shapes = drawing
                    .shapes_of_alg(&parse_alg(&args.alg)?)
                    .map_err(|e| CliError::input(format!("alg {:?}: {e}", shorten(&args.alg))))?;
                let options = SvgOptions {
                    width: args.width,
                    height: args.height,
                };
                out!("{}", drawing.svg(&shapes, &options));
                return Ok(());
            }
            // Anything else (a definition file, a hand-written puzzle with
            // no picture of its own): the diagram of its orbits.
            let (puzzle, pattern) = definition_position(&args)?;
            out!("{}", twistor_tools::picture::orbits_svg(&puzzle, &pattern));
            return Ok(());
        }
        if views > 0 {
            return Err(CliError::input(format!(
                "{}: --matrix, --pronounce and --sign need a puzzle built from geometry \
                 (a name or a descriptor)",
                args.source.puzzle
            )));
        }
        return show_definition_file(&args);
    };
    let model = RotationModel::new(&gp);
    let puzzle = gp.puzzle();
    let layout = puzzle.layout();
    let bad_alg =
        |e: &dyn std::fmt::Display| CliError::input(format!("alg {:?}: {e}", shorten(&args.alg)));
    let (t, turns) = if args.pronounceable {
        let turns = model.parse(&args.alg).map_err(|e| bad_alg(&e))?;
        (model.transformation(&gp, &turns), Some(turns))
    } else {
        let alg = parse_alg(&args.alg)?;
        let t = alg_transformation(puzzle, &alg).map_err(|e| bad_alg(&e))?;
        let turns = if args.pronounce {
            Some(model.turns_for_alg(&gp, &alg).map_err(|e| bad_alg(&e))?)
        } else {
            None
        };
        (t, turns)
    };
    if args.pronounce {
        outln!("{}", model.format(&turns.unwrap_or_default()));
    } else if args.sign {
        let turns = match turns {
            Some(t) => t,
            None => model
                .turns_for_alg(&gp, &parse_alg(&args.alg)?)
                .map_err(|e| bad_alg(&e))?,
        };
        outln!(
            "{}",
            model
                .to_sign(&turns)
                .map_err(|e| CliError::input(e.to_string()))?
        );
    } else if args.matrix {
        out!("{}", model.position_matrix(&gp, &t));
    } else {
        let pattern = layout.apply(puzzle.start(), &t);
        if args.svg {
            let options = SvgOptions {
                width: args.width,
                height: args.height,
            };
            out!("{}", position_svg(&gp, &pattern, &options));
        } else {
            let text = write_scrambles(puzzle, &[("Shown".to_string(), pattern)])
                .map_err(CliError::failure)?;
            out!("{text}");
        }
    }
    Ok(())
}

/// Without a view, a definition file's position is shown as a scramble block.
/// A puzzle not built from geometry, and the position the alg reaches.
fn definition_position(
    args: &ShowArgs,
) -> Result<(twistor_core::Puzzle, twistor_core::Pattern), CliError> {
    let puzzle = args.source.load()?;
    let alg = parse_alg(&args.alg)?;
    let t = alg_transformation(&puzzle, &alg)
        .map_err(|e| CliError::input(format!("alg {:?}: {e}", shorten(&args.alg))))?;
    let pattern = puzzle.layout().apply(puzzle.start(), &t);
    Ok((puzzle, pattern))
}

fn show_definition_file(args: &ShowArgs) -> CliResult {
    let (puzzle, pattern) = definition_position(args)?;
    let text =
        write_scrambles(&puzzle, &[("Shown".to_string(), pattern)]).map_err(CliError::failure)?;
    out!("{text}");
    Ok(())
}
