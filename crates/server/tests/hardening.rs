//! The server against the requests that used to take it down or around,
//! each test named after what it was: a foreign `Host` or `Origin` (DNS
//! rebinding), connections left idle, bodies axum answered in plain text,
//! a random state whose group needs gigabytes, and a crowd of mixed
//! requests at once.

mod support;

use std::io::Read;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use support::{get, post, post_raw, post_with, Server};

#[test]
fn dns_rebinding_a_foreign_host_or_origin_gets_403() {
    let server = Server::start(1);
    let body = r#"{"puzzle":"3x3x3","alg":"R U"}"#;
    let own = format!("Host: {}", server.addr);
    // The page's own requests, and scripts without an Origin, are served.
    let origin = format!("Origin: http://{}", server.addr);
    let (status, answer) = post_with(&server, "/api/apply", &[&own, &origin], body);
    assert_eq!(status, 200, "{answer}");
    let port = server.addr.port();
    let localhost = format!("Host: localhost:{port}");
    let (status, _) = post_with(&server, "/api/apply", &[&localhost], body);
    assert_eq!(status, 200);
    // A page whose name was rebound to 127.0.0.1 sends its own name.
    let rebound = format!("Host: attacker.example:{port}");
    let (status, answer) = post_with(&server, "/api/apply", &[&rebound], body);
    assert_eq!(status, 403, "{answer}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("attacker.example"));
    // Another site's page, through the right Host.
    let foreign = "Origin: http://attacker.example";
    let (status, answer) = post_with(&server, "/api/solve", &[&own, foreign], body);
    assert_eq!(status, 403, "{answer}");
    let (status, _) = post_with(&server, "/api/apply", &[&own, "Origin: null"], body);
    assert_eq!(status, 403);
    // No Host at all.
    let (status, _) = post_with(&server, "/api/apply", &[], body);
    assert_eq!(status, 403);
    // Told to allow a name, the server serves it.
    let named = Server::start_with(1, |o| o.allowed_hosts = vec!["cube.lan".into()]);
    let host = format!("Host: cube.lan:{}", named.addr.port());
    let origin = format!("Origin: http://cube.lan:{}", named.addr.port());
    let (status, _) = post_with(&named, "/api/apply", &[&host, &origin], body);
    assert_eq!(status, 200);
}

#[test]
fn idle_connections_are_closed_after_the_timeout() {
    let server = Server::start_with(1, |o| o.idle_seconds = 1);
    let mut idle = TcpStream::connect(server.addr).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let t0 = Instant::now();
    let mut buf = [0u8; 64];
    // The server closes it: end of stream (or a reset), not our timeout.
    match idle.read(&mut buf) {
        Ok(0) => {}
        Ok(n) => panic!("{n} bytes from an idle connection"),
        Err(e) => assert_ne!(e.kind(), std::io::ErrorKind::WouldBlock, "{e}"),
    }
    let waited = t0.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(10),
        "closed after {waited:?}"
    );
    // A request that keeps streaming is not idle: a job's heartbeat every
    // second keeps it open past the timeout.
    let (status, text) = post_raw(
        &server,
        "/api/gods",
        r#"{"puzzle":"2x2x2","moves":"U,F,R"}"#,
    );
    assert_eq!(status, 200);
    assert!(text.contains("\"done\""), "{text}");
}

#[test]
fn bodies_that_are_not_the_request_get_the_json_error_body() {
    let server = Server::start(1);
    for (body, status) in [
        ("not json", 400),
        (r#"{"puzzle": 3, "alg": ""}"#, 400),
        (r#"{"puzzle": "3x3x3", "alg": "R", "step": -1}"#, 400),
        (r#"{"event": ["333"]}"#, 400),
    ] {
        let path = if body.contains("event") {
            "/api/scramble"
        } else {
            "/api/apply"
        };
        let (got, answer) = post(&server, path, body);
        assert_eq!(got, status, "{body}: {answer}");
        let message = answer["error"].as_str().unwrap_or_default();
        assert!(message.starts_with("request body: "), "{body}: {answer}");
    }
    // An alg past the request's limit, under the body limit.
    let long = serde_json::json!({"puzzle": "3x3x3", "alg": "R U ".repeat(40_000)});
    let (status, answer) = post(&server, "/api/apply", &long.to_string());
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("KiB"),
        "{answer}"
    );
}

#[test]
fn random_state_whose_group_needs_gigabytes_gives_random_moves() {
    // The 40x40x40's group takes 2.4 GiB; an icosahedron with 23 vertex
    // cuts' far more. At -M 64 neither is built: random moves instead,
    // said so, and the server's memory stays where it was.
    let server = Server::start(1);
    let before = support::rss_kib();
    let descriptor = format!(
        "i {}",
        (0..23)
            .map(|i| format!("v {:.2}", 0.05 + 0.04 * i as f64))
            .collect::<Vec<_>>()
            .join(" ")
    );
    for puzzle in ["40x40x40", descriptor.as_str()] {
        let request = serde_json::json!({"puzzle": puzzle, "seed": 3});
        let (status, answer) = post(&server, "/api/random", &request.to_string());
        assert_eq!(status, 200, "{puzzle}: {answer}");
        assert_eq!(answer["random_state"], false, "{answer}");
        let note = answer["note"].as_str().unwrap();
        assert!(note.contains("needs up to"), "{note}");
        assert_eq!(
            answer["alg"].as_str().unwrap().split(' ').count(),
            30,
            "{answer}"
        );
    }
    let grown = support::rss_kib().saturating_sub(before);
    assert!(grown < 512 << 10, "memory grew by {grown} KiB");
}

#[test]
fn two_hundred_concurrent_mixed_requests_are_answered_or_refused() {
    let server = Server::start_with(2, |o| o.queue = 8);
    let before = support::rss_kib();
    let requests: Vec<(&str, String)> = vec![
        (
            "/api/apply",
            r#"{"puzzle":"3x3x3","alg":"R U R' U'"}"#.into(),
        ),
        (
            "/api/apply",
            r#"{"puzzle":"megaminx","alg":"R++ D--"}"#.into(),
        ),
        ("/api/scramble", r#"{"event":"222"}"#.into()),
        ("/api/random", r#"{"puzzle":"2x2x2"}"#.into()),
        ("/api/random", r#"{"puzzle":"40x40x40"}"#.into()),
        ("/api/solve", r#"{"puzzle":"2x2x2","alg":"R U F"}"#.into()),
        (
            "/api/export",
            r#"{"puzzle":"pyraminx","alg":"R U","format":"tws"}"#.into(),
        ),
        ("/api/apply", r#"{"puzzle":"3x3x3","alg":"R Q"}"#.into()),
        ("/api/apply", "{".into()),
        ("/api/gods", r#"{"puzzle":"2x2x2","moves":"U,R"}"#.into()),
    ];
    let answers: Vec<(u16, String)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..200)
            .map(|i| {
                let (server, (path, body)) = (&server, &requests[i % requests.len()]);
                scope.spawn(move || post_raw(server, path, body))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (i, (status, text)) in answers.iter().enumerate() {
        let (path, body) = &requests[i % requests.len()];
        assert!(
            matches!(status, 200 | 400 | 404 | 503),
            "{path} {body}: {status} {text}"
        );
    }
    let answered = answers.iter().filter(|(s, _)| *s == 200).count();
    assert!(answered >= 20, "{answered} answered");
    let grown = support::rss_kib().saturating_sub(before);
    // Two workers at -M 64, the quick requests and the puzzles kept.
    assert!(grown < 768 << 10, "memory grew by {grown} KiB");
    let (_, status) = get(&server, "/api/status");
    assert!(status["most_running"].as_u64().unwrap() <= 2, "{status}");
}

#[test]
fn the_table_cache_stays_bounded_across_fifty_renamed_uploads() {
    let dir = std::env::temp_dir().join(format!("twistor-serve-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let limit = 64u64 << 20;
    let store_dir = dir.clone();
    let server = Server::start_with(1, move |o| {
        o.store = std::sync::Arc::new(twistor_store::DirStore::new(store_dir).with_limit(limit))
    });
    let cube = twistor_geometry::build("2x2x2", &twistor_geometry::PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    let definition = twistor_formats::tws::write_tws(&cube).unwrap();
    let tables = || -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .map(|e| {
                        let len = e.metadata().unwrap().len();
                        (e.file_name().to_string_lossy().into_owned(), len)
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut first = None;
    for i in 0..50 {
        // Only the Name line differs.
        let renamed = definition.replacen("Name ", &format!("Name upload{i}-"), 1);
        let request = serde_json::json!({
            "definition": renamed, "filename": format!("upload{i}.tws"),
            "alg": "R U F' R2", "engine": "optimal",
        });
        let (status, text) = post_raw(&server, "/api/solve", &request.to_string());
        assert_eq!(status, 200);
        assert!(text.contains("\"solution\""), "{text}");
        let now = tables();
        let total: u64 = now.iter().map(|t| t.1).sum();
        assert!(total <= limit, "{total} bytes after {i} uploads");
        match &first {
            None => {
                assert!(!now.is_empty(), "the first solve caches its tables");
                first = Some(now);
            }
            Some(f) => assert_eq!(&now, f, "upload {i} found the first one's tables"),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
