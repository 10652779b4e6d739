//! `twistor scramble`: WCA-style scrambles.

use serde_json::json;
use twistor_search::TableEvent;
use twistor_tools::scramble::{Event, ScrambleOptions, Scrambler};

use twistor_geometry::svg::SvgOptions;
use twistor_tools::picture::Drawing;
use twistor_tools::sheet::{scramble_sheet, SheetEntry};

use crate::cache::CacheArgs;
use crate::commands::algio::emit;
use crate::commands::random::SeedArg;
use crate::error::{CliError, CliResult};
use crate::progress::Progress;
use crate::report::report_table_event;

/// Arguments of `twistor scramble`.
#[derive(clap::Args)]
#[command(
    after_help = "Events (WCA ids): 333, 222, pyram, skewb: random state (uniform among \
states at least 2, 4, 6 and 7 moves from solved, as the WCA requires), the inverse of a solution \
(two-phase for 333, optimal for the others; 222 uses R U F, pyram U L R B then tips u l r b, \
skewb R U L B). 333oh as 333; 333bf and 333mbf end in a random whole-cube orientation (Rw Uw'); 333fm is R' U' F, a random-state scramble, R' U' F, with nothing cancelling into the padding. 444: random state, by a three-phase reduction (about 44 moves in U R F D L B and Uw Rw Fw); 444bf the same, then a random orientation (x y'). 555, 666, 777: random moves (60, 80, 100) with wide turns Rw, 3Rw; 555bf then 3Rw 3Uw'. \
minx: Pochmann's R++ D-- ... U' rows, seven to a scramble, on one line (on a sheet, in its seven rows). clock: UR DR DL UL U R D L \
ALL y2 U R D L ALL, each with an amount 0+ to 6+ or 1- to 5- drawn uniformly (random state), as \
in UR4- DR3+ DL0+ UL2- U5+ R1- D3+ L6+ ALL2- y2 U2+ R5- D1- L0+ ALL4+. sq1: random state, \
solved shape first then colours, written as TNoodle does: (a,b) / tuples with a and b from -5 to 6, a bare / \
where neither layer turns, a last tuple without / when one is needed, about 11.7 slashes. One scramble a line; \
the same --seed gives the same scrambles on any number of threads.\n\nExamples:\n  twistor scramble 333 -n 5 --seed 1\n  twistor scramble pyram\n  \
twistor scramble minx -n 2 --json\n  twistor scramble minx -n 5 --extra 2 --sheet minx.pdf --competition 'Dutch Open 2026' --round 1 --group A\n  twistor scramble clock -n 5\n  twistor scramble sq1 --seed 3"
)]
pub struct ScrambleArgs {
    /// The event: 333, 333bf, 333fm, 333oh, 333mbf, 222, 444, 444bf, 555, 555bf, 666, 777, pyram, skewb, minx, clock,
    /// sq1 (or the puzzle's name: 3x3x3, pyraminx, megaminx, square1, ...).
    event: String,
    /// How many scrambles (streamed; any number).
    #[arg(short = 'n', long = "count", default_value_t = 1, value_parser = crate::moves::positive_count)]
    count: u64,
    #[command(flatten)]
    seed: SeedArg,
    /// Print one JSON object a line: `{"event": ..., "scramble": ...}`.
    #[arg(long)]
    json: bool,
    /// Also draw each scrambled puzzle as an SVG net in this directory
    /// (EVENT-1.svg, EVENT-2.svg, ...), as `twistor show --svg` draws it.
    #[arg(long, value_name = "DIR")]
    svg: Option<std::path::PathBuf>,
    /// Also write a printable scramble sheet (PDF, A4, five scrambles a
    /// page, each with a picture of the scrambled puzzle where it can be
    /// drawn).
    #[arg(long, value_name = "FILE.pdf")]
    sheet: Option<std::path::PathBuf>,
    /// Extra scrambles after the others, for a delegate to use when one
    /// goes wrong: labelled E1, E2, ... on the sheet and in --svg names,
    /// `"extra": true` with --json [default: none; with --sheet, two, as
    /// delegates print them (none for 333fm and 333mbf)].
    #[arg(long, value_name = "N")]
    extra: Option<u64>,
    /// The competition, printed in the sheet's header.
    #[arg(long, value_name = "NAME")]
    competition: Option<String>,
    /// The round, printed in the sheet's header.
    #[arg(long, value_name = "N")]
    round: Option<u32>,
    /// The group (scramble set), printed in the sheet's header.
    #[arg(long, value_name = "NAME")]
    group: Option<String>,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Runs `twistor scramble`.
pub fn run(args: ScrambleArgs) -> CliResult {
    let event = Event::parse(&args.event).map_err(CliError::input)?;
    let seed = args.seed.resolve();
    let options = ScrambleOptions {
        store: args.cache.store()?,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        batch: usize::try_from(args.count).unwrap_or(usize::MAX),
    };
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::input(format!("--svg {}: {e}", dir.display())))?;
    }
    if let Some(path) = &args.sheet {
        // Fail before the work, not after it.
        std::fs::write(path, b"")
            .map_err(|e| CliError::input(format!("--sheet {}: {e}", path.display())))?;
    }
    let drawing = match (&args.svg, &args.sheet) {
        (None, None) => None,
        (svg, _) => match Drawing::of(event.puzzle_name()) {
            Ok(Some(d)) => Some(d),
            _ if svg.is_some() => {
                return Err(CliError::input(format!(
                    "--svg: {} scrambles cannot be drawn yet",
                    event.id()
                )))
            }
            // A sheet without pictures, then.
            _ => None,
        },
    };
    let mut entries: Vec<SheetEntry> = Vec::new();
    let mut bar = Progress::stderr();
    let written_to = args.cache.written_to();
    let mut scrambler = Scrambler::new(event, seed, &options, &mut |e: TableEvent| {
        report_table_event(&mut bar, written_to.as_deref(), e)
    })
    .map_err(CliError::failure)?;
    bar.finish();
    let size = SvgOptions::default();
    let mut i = 0;
    let extras = args.extra.unwrap_or(if args.sheet.is_some() {
        event.usual_extras()
    } else {
        0
    });
    let total = args.count.saturating_add(extras);
    scrambler.scrambles(total, options.threads, |s| -> Result<(), CliError> {
        i += 1;
        let extra = i > args.count;
        let label = if extra {
            format!("E{}", i - args.count)
        } else {
            i.to_string()
        };
        let shapes = match &drawing {
            Some(d) => d
                .shapes_of_alg(&crate::load::parse_alg(&s.alg)?)
                .map_err(|e| CliError::failure(format!("scramble {:?}: {e}", s.alg)))?,
            None => Vec::new(),
        };
        if let (Some(dir), Some(d)) = (&args.svg, &drawing) {
            let path = dir.join(format!("{}-{label}.svg", event.id()));
            std::fs::write(&path, d.svg(&shapes, &size))
                .map_err(|e| CliError::input(format!("--svg {}: {e}", path.display())))?;
        }
        if args.sheet.is_some() {
            entries.push(SheetEntry {
                label,
                scramble: event.rows(&s.alg),
                picture: shapes,
                picture_size: (size.width, size.height),
            });
        }
        if args.json {
            let mut v = json!({"event": event.id(), "scramble": s.alg});
            if let Some(d) = s.distance {
                v["distance"] = json!(d);
            }
            if extra {
                v["extra"] = json!(true);
            }
            emit(&v.to_string())?;
        } else {
            emit(&s.alg)?;
        }
        Ok(())
    })?;
    if let Some(path) = &args.sheet {
        // The header TNoodle prints: competition, event, round, group.
        let mut title: Vec<String> = args.competition.iter().cloned().collect();
        title.push(event.puzzle_name().to_string());
        title.extend(args.round.map(|r| format!("Round {r}")));
        title.extend(args.group.as_ref().map(|g| format!("Group {g}")));
        let pdf = scramble_sheet(&title.join(" - "), &entries);
        std::fs::write(path, pdf)
            .map_err(|e| CliError::input(format!("--sheet {}: {e}", path.display())))?;
    }
    scrambler.complete_tables(&mut |e: TableEvent| {
        report_table_event(&mut bar, written_to.as_deref(), e)
    });
    bar.finish();
    Ok(())
}
