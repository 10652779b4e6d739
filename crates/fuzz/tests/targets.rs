//! One fuzz target per input path twistor reads (see the crate's docs for
//! running them under libFuzzer). Each target reads arbitrary bytes as its
//! path does; nothing may panic, and what is accepted must survive the
//! matching writer and reading back.

use std::sync::OnceLock;

use bolero::check;
use twistor_core::Puzzle;
use twistor_formats::alg::Alg;
use twistor_formats::kpuzzle::{parse_kpattern, write_kpattern, write_kpuzzle, JsonStyle};
use twistor_formats::read_puzzle;
use twistor_formats::resolve::alg_transformation;
use twistor_formats::tws::{parse_scrambles, write_tws};

/// Random inputs a target runs under `cargo test`, after its whole corpus
/// (a count, not a time: with a time bolero would cut the corpus short).
const RANDOM_INPUTS: usize = 500;

/// A named puzzle as the command line reads algs on it.
fn named(name: &'static str, cell: &'static OnceLock<Puzzle>) -> &'static Puzzle {
    cell.get_or_init(|| {
        twistor_tools::catalog::build_named(
            name,
            &twistor_geometry::PuzzleOptions::for_notation(),
            false,
        )
        .expect("a named puzzle builds")
        .in_notation()
        .expect("and reads its notation")
    })
}

fn cube() -> &'static Puzzle {
    static CELL: OnceLock<Puzzle> = OnceLock::new();
    named("3x3x3", &CELL)
}

fn megaminx() -> &'static Puzzle {
    static CELL: OnceLock<Puzzle> = OnceLock::new();
    named("megaminx", &CELL)
}

fn clock() -> &'static Puzzle {
    static CELL: OnceLock<Puzzle> = OnceLock::new();
    named("clock", &CELL)
}

fn square1() -> &'static Puzzle {
    static CELL: OnceLock<Puzzle> = OnceLock::new();
    named("square1", &CELL)
}

/// What a reader accepted survives the writer and reading back: the same
/// orbits, moves and start.
fn same_puzzle(p: &Puzzle, again: &Puzzle) {
    assert_eq!(again.layout().orbits(), p.layout().orbits());
    assert_eq!(again.moves().len(), p.moves().len());
    assert_eq!(again.start(), p.start());
}

#[test]
fn tws_definition() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            let Ok(p) = read_puzzle(&text, "fuzz.tws") else {
                return;
            };
            if let Ok(written) = write_tws(&p) {
                let again = read_puzzle(&written, "again.tws").expect("written .tws reads back");
                same_puzzle(&p, &again);
            }
        });
}

#[test]
fn kpuzzle_definition() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            let Ok(p) = read_puzzle(&text, "fuzz.json") else {
                return;
            };
            let again =
                read_puzzle(&write_kpuzzle(&p), "again.json").expect("written JSON reads back");
            same_puzzle(&p, &again);
        });
}

#[test]
fn kpattern_position() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            let p = cube();
            if let Ok(pattern) = parse_kpattern(&text, "fuzz.json", p) {
                let written = write_kpattern(p, &pattern, JsonStyle::Compact);
                let again =
                    parse_kpattern(&written, "again.json", p).expect("written KPattern reads");
                assert_eq!(again, pattern);
            }
        });
}

#[test]
fn scramble_file() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            let _ = parse_scrambles(&text, "fuzz.scr", cube());
            let _ = twistor_formats::positions::read_positions(&text, "fuzz.txt", cube());
        });
}

/// An alg on `puzzle`: what parses prints and parses back to itself, its
/// inverse's inverse is itself, and where its moves exist its inverse
/// does the inverse transformation.
fn alg_on(puzzle: &Puzzle, input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    let Ok(alg) = Alg::parse(&text) else {
        return;
    };
    let printed = alg.to_string();
    let again = Alg::parse(&printed).expect("a printed alg parses");
    assert_eq!(again.to_string(), printed);
    assert_eq!(alg.invert().invert().to_string(), printed);
    if let Ok(t) = alg_transformation(puzzle, &alg) {
        let inverse = alg_transformation(puzzle, &alg.invert()).expect("the inverse resolves");
        let layout = puzzle.layout();
        assert!(layout.is_identity(&layout.compose(&t, &inverse)));
    }
}

#[test]
fn alg_cube() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| alg_on(cube(), input));
}

#[test]
fn alg_megaminx() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| alg_on(megaminx(), input));
}

#[test]
fn alg_clock() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| alg_on(clock(), input));
}

#[test]
fn alg_square1() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            alg_on(square1(), input);
            // The Square-1 solver's own reader: what it reads prints and reads
            // back the same.
            let text = String::from_utf8_lossy(input);
            if let Ok(moves) = twistor_square1::parse_moves(&text) {
                let printed = twistor_square1::format_moves(&moves);
                let again = twistor_square1::parse_moves(&printed).expect("printed moves parse");
                assert_eq!(again, moves);
            }
        });
}

#[test]
fn facelets() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            if let Ok(f) = twistor_cube333::FaceletCube::parse(&text) {
                if let Ok(c) = f.to_cubie() {
                    let back = twistor_cube333::FaceletCube::from_cubie(&c);
                    assert_eq!(back.to_cubie().expect("a cube's facelets read"), c);
                }
            }
        });
}

#[test]
fn geometry_descriptor() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            if let Ok(d) = twistor_geometry::Descriptor::parse(&text) {
                // Bounded by the sticker and plane limits.
                let _ = twistor_geometry::Geometry::new(&d);
            }
        });
}

#[test]
fn stage_file() {
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let text = String::from_utf8_lossy(input);
            let _ = twistor_formats::stages::read_stages(&text, "fuzz.stages", cube());
        });
}

#[test]
fn gods_checkpoint() {
    use twistor_search::gods::CheckpointStore;
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(|input: &[u8]| {
            let dir = std::env::temp_dir().join(format!("twistor-fuzz-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&dir);
            let thread = format!("{:?}", std::thread::current().id());
            let path = dir.join(thread.replace(|c: char| !c.is_ascii_alphanumeric(), ""));
            std::fs::write(&path, input).expect("the temporary directory is writable");
            let _ = twistor_store::FileCheckpoint::new(&path).load();
        });
}

/// The server's request bodies, through its router as HTTP requests (the
/// quick endpoints: `apply` and `export`; the first byte picks one).
#[test]
fn server_request() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    static APP: OnceLock<(tokio::runtime::Runtime, axum::Router)> = OnceLock::new();
    let (runtime, app) = APP.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let options = twistor_server::ServeOptions {
            memory_bytes: 64 << 20,
            ..twistor_server::ServeOptions::default()
        };
        (runtime, twistor_server::router(options))
    });
    // A router holds cells; a panic in one input leaves nothing half-done
    // that a later input reads.
    let (runtime, app) = (
        std::panic::AssertUnwindSafe(runtime),
        std::panic::AssertUnwindSafe(app),
    );
    check!()
        .with_iterations(RANDOM_INPUTS)
        .for_each(move |input: &[u8]| {
            let Some((&pick, body)) = input.split_first() else {
                return;
            };
            let path = ["/api/apply", "/api/export"][usize::from(pick) % 2];
            let request = Request::post(path)
                .header("host", "127.0.0.1:7333")
                .header("content-type", "application/json")
                .body(Body::from(body.to_vec()))
                .expect("a request");
            let response = runtime
                .block_on(app.clone().oneshot(request))
                .expect("infallible");
            let status = response.status().as_u16();
            assert!(
                matches!(status, 200 | 400 | 404 | 413 | 503),
                "{path}: {status} for {:?}",
                String::from_utf8_lossy(body)
            );
        });
}
