//! `twistor info`: what a puzzle definition holds and what its moves allow.

use serde_json::json;
use twistor_core::{Puzzle, Transformation};
use twistor_search::Metric;
use twistor_tools::analysis::{constraints, has_indistinguishable_pieces, move_orders, positions};

use crate::error::{CliError, CliResult};
use crate::moves::{move_set, GroupMemory, MoveSubset};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor info`.
#[derive(clap::Args)]
#[command(
    after_help = "Besides the orbits, moves and group order (every piece distinguishable), \
info reports each move's order, which orbits keep their total orientation, which permutation \
parities are fixed or linked (sets of orbits whose parities always add up to even), and, when \
the start state has identical pieces or partly known orientations, the exact number of \
distinguishable positions: |G| / |stabiliser of the start state| (orbit-stabiliser; the \
stabiliser is found by Sims's subgroup search).\n\n--moves lists the generators: moves of the \
definition or their powers (U,R2), or, on a named puzzle, moves of its notation (skewb: R,U,L,B).\
\n\nExamples:\n  twistor info 3x3x3.tws --json\n  twistor info 4x4x4.tws      # positions: 24 times the textbook 7.4e45\n  \
twistor info 3x3x3 --moves U,R2   # group order 14400"
)]
pub struct InfoArgs {
    #[command(flatten)]
    source: PuzzleSource,
    #[command(flatten)]
    moves: MoveSubset,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: GroupMemory,
}

/// Runs `twistor info`.
pub fn run(args: InfoArgs) -> CliResult {
    let (puzzle, generators) = generators(&args)?;
    args.memory.check(&puzzle)?;
    let gens: Vec<&Transformation> = generators.iter().map(|(_, t)| t).collect();
    let chain = puzzle.group_of(&gens.iter().map(|t| t.as_bytes()).collect::<Vec<_>>());
    let order = chain.order();
    let orders = move_orders(&puzzle, &gens);
    let c = constraints(&puzzle, &gens);
    let gen_names: Vec<&str> = generators.iter().map(|(n, _)| n.as_str()).collect();
    // What people call each generator, where the notation names it
    // otherwise (the megaminx's faces, the pyraminx's tips and layers).
    let people: Vec<String> = gen_names
        .iter()
        .map(|&n| {
            (puzzle.find_move(n))
                .and_then(|i| puzzle.notation()?.name_of(&puzzle, i))
                .unwrap_or_else(|| n.to_string())
        })
        .collect();
    let renamed = people.iter().zip(&gen_names).any(|(p, n)| p != n);
    let counted = has_indistinguishable_pieces(&puzzle).then(|| positions(&puzzle, &chain));
    let layout = puzzle.layout();
    let orbit_name = |k: usize| layout.orbits()[k].name().to_string();
    if args.json {
        let mut v = json!({
            "name": puzzle.name(),
            "orbits": orbits(&puzzle),
            "moves": gen_names,
            "notation_moves": people,
            "group_order": order.to_string(),
            "move_orders": orders.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
            "orientation_sums": c.orientation_sums.iter().map(|s| json!({
                "orbit": orbit_name(s.orbit),
                "modulus": s.modulus,
                "multiple_of": s.step,
                "preserved": s.preserved(),
            })).collect::<Vec<_>>(),
            "parity_constraints": c.parity_relations.iter()
                .map(|r| r.iter().map(|&k| orbit_name(k)).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        });
        if let Some(Ok(p)) = &counted {
            v["positions"] = json!(p.positions.to_string());
        }
        outln!("{v}");
        return Ok(());
    }
    outln!("{}", puzzle.name());
    outln!("{:<16} {:>7} {:>13}", "orbit", "pieces", "orientations");
    for o in layout.orbits() {
        outln!(
            "{:<16} {:>7} {:>13}",
            o.name(),
            o.num_pieces(),
            o.num_orientations()
        );
    }
    outln!("moves: {}", people.join(" "));
    if renamed {
        outln!("as the definition names them: {}", gen_names.join(" "));
    }
    let rotations = puzzle.rotations();
    if !rotations.is_empty() {
        let names: Vec<&str> = (rotations.iter())
            .map(|&i| puzzle.moves()[i].name.as_str())
            .collect();
        outln!("rotations: {}", names.join(" "));
    }
    outln!("group order: {order}");
    let with_orders: Vec<String> = (gen_names.iter().zip(&orders))
        .map(|(name, o)| format!("{name}:{o}"))
        .collect();
    outln!("move orders: {}", with_orders.join(" "));
    for s in &c.orientation_sums {
        let what = if s.preserved() {
            format!("always 0 (mod {})", s.modulus)
        } else if s.step == 1 {
            "any".to_string()
        } else {
            format!("a multiple of {} (mod {})", s.step, s.modulus)
        };
        outln!("orientation sum of {}: {what}", orbit_name(s.orbit));
    }
    if c.parity_relations.is_empty() {
        outln!("parity: no constraint");
    }
    for r in &c.parity_relations {
        let names: Vec<String> = r.iter().map(|&k| orbit_name(k)).collect();
        match names.len() {
            1 => outln!("parity: {} always even", names[0]),
            2 => outln!("parity: {} and {} linked (equal)", names[0], names[1]),
            _ => outln!("parity: {} add up to even", names.join(" + ")),
        }
    }
    match &counted {
        Some(Ok(p)) => outln!("distinguishable positions: {}", p.positions),
        Some(Err(e)) => outln!("distinguishable positions: not computed ({e})"),
        None => {}
    }
    Ok(())
}

/// The puzzle described and its generators, named: the definition's
/// search moves; or the moves `--moves` lists, resolved in the definition
/// (powers such as `R2` included), else in the named puzzle's notation,
/// which `solve`, `random` and `gods` search in (the skewb's `R,U,L,B`).
fn generators(args: &InfoArgs) -> Result<(Puzzle, Vec<(String, Transformation)>), CliError> {
    let definition = args.source.load_definition()?;
    if args.moves.moves.is_none() {
        let gens = (definition.search_moves().iter())
            .map(|&i| {
                let m = &definition.moves()[i];
                (m.name.clone(), m.transformation.clone())
            })
            .collect();
        return Ok((definition, gens));
    }
    let listed = |p: &Puzzle| {
        move_set(p, &args.moves, Metric::Htm).map(|set| {
            (set.grips().iter())
                .map(|g| (g.name.clone(), g.transformation.clone()))
                .collect::<Vec<_>>()
        })
    };
    if let Ok(gens) = listed(&definition) {
        return Ok((definition, gens));
    }
    // A list the definition does not take is said wrong as the notation,
    // which users type, sees it (`R,X` on the skewb: no move "X").
    let notation = args.source.load_in_notation()?;
    let gens = listed(&notation)?;
    Ok((notation, gens))
}

fn orbits(puzzle: &Puzzle) -> Vec<serde_json::Value> {
    puzzle
        .layout()
        .orbits()
        .iter()
        .map(|o| json!({"name": o.name(), "pieces": o.num_pieces(), "orientations": o.num_orientations()}))
        .collect()
}
