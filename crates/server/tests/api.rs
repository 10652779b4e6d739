//! The JSON API over real HTTP: located errors with 4xx statuses,
//! bounded bodies, a bounded worker pool under a hundred concurrent jobs,
//! and a job that stops when its client goes away.

mod support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::{get, post, post_first_line, Server};

#[test]
fn bad_input_gets_located_messages_and_4xx() {
    let server = Server::start(2);
    let (status, body) = post(&server, "/api/apply", r#"{"puzzle":"megamix","alg":""}"#);
    assert_eq!(status, 404, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("did you mean megaminx"),
        "{body}"
    );

    let (status, body) = post(
        &server,
        "/api/apply",
        r#"{"puzzle":"3x3x3","alg":"R U Q2"}"#,
    );
    assert_eq!(status, 400);
    assert_eq!(body["column"], 5, "{body}");

    let broken = "Name broken\nSet CORNERS 8 3\nSolved\nCORNERS\n1 2 3\nEnd\n";
    let request = serde_json::json!({"definition": broken, "filename": "broken.tws", "alg": ""});
    let (status, body) = post(&server, "/api/apply", &request.to_string());
    assert_eq!(status, 400);
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("broken.tws:5"),
        "the file and line: {message}"
    );

    // Larger than the body limit: 413, before any work.
    let huge = format!(r#"{{"puzzle":"3x3x3","alg":"{}"}}"#, "R ".repeat(600_000));
    let (status, _) = post(&server, "/api/apply", &huge);
    assert_eq!(status, 413);
    let (status, body) = post(&server, "/api/scramble", r#"{"event":"444444"}"#);
    assert_eq!(status, 404, "{body}");
}

#[test]
fn apply_steps_through_an_alg() {
    let server = Server::start(2);
    let (status, body) = post(
        &server,
        "/api/apply",
        r#"{"puzzle":"3x3x3","alg":"R U R' U'","step":2}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"].as_array().unwrap().len(), 4);
    assert_eq!(body["step"], 2);
    assert_eq!(body["spans"][2], serde_json::json!([4, 6]));
    assert_eq!(body["solved"], false);
    // Six times the sexy move is the identity.
    let alg = "R U R' U' ".repeat(6);
    let (_, body) = post(
        &server,
        "/api/apply",
        &serde_json::json!({"puzzle": "3x3x3", "alg": alg}).to_string(),
    );
    assert_eq!(body["solved"], true, "{body}");
}

#[test]
fn a_hundred_concurrent_jobs_stay_within_the_pool() {
    let server = Server::start(2);
    let rss_before = support::rss_kib();
    let answers: Vec<(u16, String)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..100)
            .map(|i| {
                let server = &server;
                scope.spawn(move || {
                    let alg = ["R U F", "F R2 U'", "U R F2", "R' F U2"][i % 4];
                    let body = serde_json::json!({"puzzle": "2x2x2", "alg": alg}).to_string();
                    support::post_raw(server, "/api/solve", &body)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let solved = answers
        .iter()
        .filter(|(s, body)| *s == 200 && body.contains("\"solution\""))
        .count();
    let busy = answers.iter().filter(|(s, _)| *s == 503).count();
    assert_eq!(
        solved + busy,
        100,
        "every request solved or told the server is busy"
    );
    // At least as many as the workers and the queue take at once.
    assert!(solved >= 6, "{solved} solved");
    let (_, status) = get(&server, "/api/status");
    assert!(status["most_running"].as_u64().unwrap() <= 2, "{status}");
    assert_eq!(status["running"], 0);
    let grown = support::rss_kib().saturating_sub(rss_before);
    assert!(grown < 2 << 20, "memory grew by {grown} KiB");
    // And the server takes work again afterwards.
    let (status, text) =
        support::post_raw(&server, "/api/solve", r#"{"puzzle":"2x2x2","alg":"R U"}"#);
    assert_eq!(status, 200);
    assert!(text.contains("\"solution\""), "{text}");
}

#[test]
fn a_client_that_goes_away_stops_its_job() {
    let server = Server::start(1);
    // An optimal solve of an 18-move 3x3x3: the search (and the dedicated
    // solver's table build) takes far longer than this test.
    let body = serde_json::json!({
        "puzzle": "3x3x3",
        "alg": "R U2 F' L D2 B R' U F2 L' D B2 U' R2 F D' L2 B'",
        "engine": "optimal",
    })
    .to_string();
    let first = post_first_line(&server, "/api/solve", &body);
    assert!(first.starts_with('{'), "{first}");
    // The connection is closed now; the worker must stop within seconds.
    let t0 = Instant::now();
    loop {
        let (_, status) = get(&server, "/api/status");
        if status["running"] == 0 && status["started"] == 1 {
            assert_eq!(status["finished"], 1);
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "still running: {status}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn gods_algorithm_streams_the_distribution() {
    let server = Server::start(1);
    let (status, text) = support::post_raw(
        &server,
        "/api/gods",
        r#"{"puzzle":"2x2x2","moves":"U,F,R"}"#,
    );
    assert_eq!(status, 200);
    let done: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["event"] == "done")
        .expect("a done line");
    // OEIS A079761: the 2x2x2 <U, F, R> in the half-turn metric.
    assert_eq!(done["total"], 3_674_160);
    assert_eq!(
        done["counts"],
        serde_json::json!([
            1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644
        ])
    );
}

#[test]
fn a_random_state_is_reached_by_its_alg() {
    let server = Server::start(1);
    let (status, body) = post(&server, "/api/random", r#"{"puzzle":"2x2x2","seed":11}"#);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["random_state"], true);
    // The same seed draws the same state in the library; the alg reaches it.
    let options = twistor_geometry::PuzzleOptions {
        notation_rotations: true,
        ..Default::default()
    };
    let p = twistor_tools::catalog::build_named("2x2x2", &options, false)
        .unwrap()
        .in_notation()
        .unwrap();
    let grips: Vec<usize> = (0..p.moves().len())
        .filter(|&i| p.moves()[i].is_search_move())
        .collect();
    let drawn = twistor_tools::random::RandomStates::new(&p, &grips, 11).next_pattern();
    let text = body["alg"].as_str().unwrap();
    let alg = twistor_formats::alg::Alg::parse(text).unwrap();
    let t = twistor_formats::resolve::alg_transformation(&p, &alg).unwrap();
    assert_eq!(p.layout().apply(p.start(), &t), drawn);
    // Half turns as cubers write them, not the inverse's U2'.
    assert!(!text.contains("2'"), "{text}");
}

#[test]
fn positions_are_imported_as_algs() {
    let server = Server::start(1);
    // A twsearch scramble file holding a 2x2x2 position as a pattern: the
    // alg given back reaches it.
    let (_, exported) = post(
        &server,
        "/api/export",
        r#"{"puzzle":"2x2x2","alg":"R U F' R2","format":"scramble"}"#,
    );
    let text = exported["text"].as_str().unwrap();
    let request = serde_json::json!({"puzzle": "2x2x2", "text": text, "name": "mine.scr"});
    let (status, body) = post(&server, "/api/import", &request.to_string());
    assert_eq!(status, 200, "{body}");
    let alg = body["alg"].as_str().unwrap();
    // The imported alg, then the original's inverse: solved.
    let inverse = serde_json::json!({"puzzle": "2x2x2", "alg": format!("{alg} R2 F U' R'")});
    let (_, b) = post(&server, "/api/apply", &inverse.to_string());
    assert_eq!(b["solved"], true, "{alg}");
    // Alg lines come back as they are; a broken file gets its location.
    let lines = serde_json::json!({"puzzle": "3x3x3", "text": "R U R' U'\n", "name": "a.txt"});
    let (_, body) = post(&server, "/api/import", &lines.to_string());
    assert_eq!(body["alg"], "R U R' U'");
    let broken = serde_json::json!({"puzzle": "2x2x2", "text": "Scramble x\nCORNERS\n1 2\nEnd\n", "name": "bad.scr"});
    let (status, body) = post(&server, "/api/import", &broken.to_string());
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("bad.scr"),
        "{body}"
    );
}

#[test]
fn every_named_puzzle_has_a_3d_view_that_matches_its_net() {
    let server = Server::start(2);
    let (_, list) = get(&server, "/api/puzzles");
    let mut drawn = 0;
    for name in list["puzzles"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        let request = serde_json::json!({ "puzzle": name });
        let (status, g) = post(&server, "/api/geometry", &request.to_string());
        assert_eq!(status, 200, "{name}: {g}");
        let kind = g["kind"].as_str().unwrap();
        let request = serde_json::json!({ "puzzle": name, "alg": "", "step": 0 });
        let (status, at_start) = post(&server, "/api/apply", &request.to_string());
        assert_eq!(status, 200, "{name}: {at_start}");
        if kind != "3d" {
            // The hand-made puzzles: drawn flat, in their own 2D form or as
            // the diagram of their orbits.
            assert!(
                at_start["svg"].as_str().is_some_and(|s| s.contains("<svg")),
                "{name}"
            );
            continue;
        }
        drawn += 1;
        let stickers = g["stickers"].as_array().unwrap();
        let axes = g["axes"].as_array().unwrap().len();
        for s in stickers {
            let points = s["points"].as_array().unwrap();
            assert!(points.len() >= 3, "{name}: a sticker is a polygon");
            assert!(points
                .iter()
                .flat_map(|p| p.as_array().unwrap())
                .all(|x| x.as_f64().is_some_and(f64::is_finite)));
            assert_eq!(s["slices"].as_array().unwrap().len(), axes, "{name}");
        }
        // The net draws the same stickers, and solved, each shows its own
        // face's colour.
        let svg = at_start["svg"].as_str().unwrap();
        // (Stickers with curved edges are paths of arcs.)
        let shapes = svg.matches("<polygon").count() + svg.matches("<path").count();
        assert_eq!(shapes, stickers.len(), "{name}");
        let colors = at_start["colors"].as_array().unwrap();
        assert_eq!(colors.len(), stickers.len(), "{name}");
        // (Pieces a named puzzle leaves out, the Rex Cube's corner tips,
        // are drawn untracked.)
        let leaves_out = twistor_tools::catalog::CURVED
            .iter()
            .any(|(n, _, omit)| *n == name && !omit.is_empty());
        for (s, c) in stickers.iter().zip(colors) {
            if c.is_null() && leaves_out {
                continue;
            }
            assert_eq!(
                &s["face"], c,
                "{name}: solved, every sticker its face's colour"
            );
        }
    }
    assert!(drawn >= 72, "{drawn} puzzles in 3D");
}
