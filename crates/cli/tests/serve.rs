//! `twistor serve` as a person uses it: the real binary, driven in a real
//! browser (Debian's Chromium, headless, through chromedriver), through
//! the flows the page exists for. Screenshots of each flow are saved to
//! `target/tmp/screenshots/` (artifacts, not committed).
//!
//! Without `chromium` and `chromedriver` on the machine the browser flows
//! say so and are skipped (`.ci/run` installs them); the loopback test
//! needs no browser.
//!
//! Long (past 800 lines) because the browser session is one test: starting
//! Chromium costs seconds, so every flow runs in it in turn, with the
//! small page helpers it needs beside it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// A `twistor serve` process, stopped when dropped.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(extra: &[&str]) -> Served {
        let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-tables");
        let mut child = Command::new(env!("CARGO_BIN_EXE_twistor"))
            .args(["serve", "--port", "0", "--cache-dir"])
            .arg(&cache)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("twistor serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        Served {
            child,
            url: line.trim().to_string(),
        }
    }

    fn addr(&self) -> String {
        self.url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string()
    }

    /// `GET /api/status`.
    fn status(&self) -> Value {
        let mut s = TcpStream::connect(self.addr()).unwrap();
        write!(
            s,
            "GET /api/status HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr()
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
        serde_json::from_str(body).unwrap_or(Value::Null)
    }

    /// `POST path` with a JSON body; the JSON answer.
    fn post(&self, path: &str, body: &Value) -> Value {
        let body = body.to_string();
        let mut s = TcpStream::connect(self.addr()).unwrap();
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr(),
            body.len()
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
        serde_json::from_str(body).unwrap_or(Value::Null)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_binds_loopback_unless_told_otherwise() {
    let served = Served::start(&[]);
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    let port = served.addr().rsplit(':').next().unwrap().to_string();
    // This machine's other addresses do not reach it.
    let others = Command::new("hostname").arg("-I").output();
    let others = others.map_or(String::new(), |o| String::from_utf8_lossy(&o.stdout).into());
    for ip in others
        .split_whitespace()
        .filter(|ip| !ip.starts_with("127."))
    {
        let addr = if ip.contains(':') {
            format!("[{ip}]:{port}")
        } else {
            format!("{ip}:{port}")
        };
        assert!(
            TcpStream::connect_timeout(&addr.parse().unwrap(), Duration::from_secs(2)).is_err(),
            "{addr} reached a server bound to loopback"
        );
    }
    // Bound to every address when asked.
    let open = Served::start(&["--bind", "0.0.0.0"]);
    assert!(open.url.starts_with("http://0.0.0.0:"), "{}", open.url);
}

/// The browser, or `None` (and a note) when this machine has none.
async fn browser() -> Option<(Client, Child)> {
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists())?;
    let Ok(driver_path) = which("chromedriver") else {
        eprintln!("skipped: no chromedriver (apt-get install chromium-driver)");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let driver = Command::new(driver_path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let caps = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1300,1000"],
        }
    });
    let caps: serde_json::Map<String, Value> = caps.as_object().unwrap().clone();
    let t0 = Instant::now();
    loop {
        match ClientBuilder::native()
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => return Some((c, driver)),
            Err(e) if t0.elapsed() > Duration::from_secs(20) => {
                panic!("chromedriver did not answer: {e}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

fn which(name: &str) -> Result<PathBuf, ()> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name))
        .find(|p| p.exists())
        .ok_or(())
}

/// Waits until `check` holds (polling), or fails with `what`.
async fn until<F, Fut>(what: &str, secs: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let t0 = Instant::now();
    while !check().await {
        assert!(
            t0.elapsed() < Duration::from_secs(secs),
            "timed out waiting: {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn body_data(c: &Client, key: &str) -> String {
    c.execute(&format!("return document.body.dataset.{key} || ''"), vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Clicks the element with this id.
async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

async fn screenshot(c: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Sticker id → colour, from an SVG the page or `twistor show` drew.
fn sticker_colours(svg: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in svg.split("<polygon").skip(1) {
        let attr = |name: &str| {
            part.split(&format!("{name}=\""))
                .nth(1)
                .and_then(|s| s.split('"').next())
                .map(str::to_string)
        };
        if let (Some(id), Some(fill)) = (attr("id"), attr("fill")) {
            out.push((id, fill.to_ascii_lowercase()));
        }
    }
    out.sort();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_in_a_real_browser() {
    let served = Served::start(&["--workers", "1"]);
    let Some((c, mut driver)) = browser().await else {
        eprintln!("skipped: no chromium (apt-get install chromium chromium-driver)");
        return;
    };

    // 1. The 3x3x3, an alg typed, stepped to its second move: the picture
    // is the one `twistor show` draws of R U.
    c.goto(&format!("{}?puzzle=3x3x3", served.url))
        .await
        .unwrap();
    let alg = c.find(Locator::Id("alg")).await.unwrap();
    alg.send_keys("R U R' U'").await.unwrap();
    until("four moves", 20, || async {
        body_data(&c, "step").await == "4"
    })
    .await;
    click(&c, "first").await;
    until("step 0", 20, || async {
        body_data(&c, "step").await == "0"
    })
    .await;
    for want in ["1", "2"] {
        click(&c, "forward").await;
        until("the next step", 20, || async {
            body_data(&c, "step").await == want
        })
        .await;
    }
    let page_svg = c
        .find(Locator::Id("svg"))
        .await
        .unwrap()
        .html(true)
        .await
        .unwrap();
    let shown = Command::new(env!("CARGO_BIN_EXE_twistor"))
        .args(["show", "3x3x3", "R U", "--svg"])
        .output()
        .unwrap();
    let shown = String::from_utf8(shown.stdout).unwrap();
    let (page, cli) = (sticker_colours(&page_svg), sticker_colours(&shown));
    assert_eq!(page.len(), 54, "the 3x3x3 has 54 stickers");
    assert_eq!(page, cli, "the page's R U against twistor show's");
    let current = c
        .find(Locator::Css("#alg-moves .current"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(current, "U", "the current move is highlighted");
    screenshot(&c, "1-step-through").await;

    // 2. A WCA scramble, solved by Solve (two-phase, for the 3x3x3): the
    // solution, stepped to its end, solves the cube.
    c.find(Locator::Css("#event option[value='333']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click(&c, "scramble").await;
    until("a scramble", 60, || async {
        let v = c
            .find(Locator::Id("alg"))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap();
        v.is_some_and(|v| v.split_whitespace().count() >= 15)
    })
    .await;
    click(&c, "solve").await;
    until("a two-phase solution", 120, || async {
        text_of(&c, "solve-status").await.starts_with("solution")
    })
    .await;
    click(&c, "last").await;
    until("solved at the end", 20, || async {
        body_data(&c, "solved").await == "true"
    })
    .await;
    screenshot(&c, "2-scramble-solve").await;

    // 3. An optimal solve of a hard position, cancelled: the server's
    // worker stops.
    let hard = "R U2 F' L D2 B R' U F2 L' D B2 U' R2 F D' L2 B'";
    c.goto(&format!(
        "{}?puzzle=3x3x3&alg={}",
        served.url,
        hard.replace(' ', "+").replace('\'', "%27")
    ))
    .await
    .unwrap();
    until("the position", 20, || async {
        body_data(&c, "step").await == "18"
    })
    .await;
    let started = served.status()["started"].as_u64().unwrap();
    click(&c, "solve-optimal").await;
    until("the job running", 30, || async {
        served.status()["running"] == 1
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    click(&c, "cancel").await;
    until("the worker stopped", 30, || async {
        let s = served.status();
        s["running"] == 0 && s["finished"].as_u64() == Some(started + 1)
    })
    .await;
    assert_eq!(text_of(&c, "solve-status").await, "cancelled");
    screenshot(&c, "3-cancelled").await;

    // 4. A broken definition uploaded: the located error.
    let broken = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("broken.tws");
    std::fs::write(
        &broken,
        "Name broken\nSet CORNERS 8 3\nSolved\nCORNERS\n1 2 3 4 5 6 7\nEnd\n",
    )
    .unwrap();
    c.find(Locator::Id("upload"))
        .await
        .unwrap()
        .send_keys(broken.to_str().unwrap())
        .await
        .unwrap();
    until("the located error, by the definition", 20, || async {
        text_of(&c, "definition-error")
            .await
            .contains("broken.tws:5")
    })
    .await;
    screenshot(&c, "4-broken-upload").await;

    // A definition pasted: drawn as the diagram of its orbits, the first
    // two corners swapped after its move.
    c.execute("document.getElementById('files').open = true", vec![])
        .await
        .unwrap();
    c.find(Locator::Id("alg"))
        .await
        .unwrap()
        .clear()
        .await
        .unwrap();
    c.find(Locator::Id("definition-text"))
        .await
        .unwrap()
        .send_keys(
            "Name pasted\nSet CORNERS 3 1\nSolved\nCORNERS\n1 2 3\nEnd\n\
             Move A\nCORNERS\n2 1 3\nEnd\n",
        )
        .await
        .unwrap();
    click(&c, "use-definition").await;
    until("the pasted puzzle", 20, || async {
        text_of(&c, "puzzle-name").await == "pasted"
    })
    .await;
    assert_eq!(text_of(&c, "definition-error").await, "");
    c.find(Locator::Id("alg"))
        .await
        .unwrap()
        .send_keys("A")
        .await
        .unwrap();
    until("its orbit diagram after A", 20, || async {
        let svg = c
            .find(Locator::Id("svg"))
            .await
            .unwrap()
            .html(true)
            .await
            .unwrap();
        svg.contains("id=\"orbit-CORNERS\"")
            && svg.contains(">2</text>")
            && body_data(&c, "step").await == "1"
    })
    .await;
    screenshot(&c, "4-pasted-definition").await;

    // 5. God's algorithm on the 2x2x2 <U, F, R>.
    c.goto(&format!("{}?puzzle=2x2x2", served.url))
        .await
        .unwrap();
    until("the 2x2x2", 20, || async {
        body_data(&c, "step").await == "0"
    })
    .await;
    c.find(Locator::Id("gods-moves"))
        .await
        .unwrap()
        .send_keys("U,F,R")
        .await
        .unwrap();
    click(&c, "gods").await;
    until("the distribution", 120, || async {
        text_of(&c, "gods-status")
            .await
            .starts_with("3,674,160 positions")
    })
    .await;
    let bars = c.find_all(Locator::Css("#histogram rect")).await.unwrap();
    assert_eq!(bars.len(), 12, "distances 0 to 11");
    screenshot(&c, "5-gods").await;

    // 6. Another puzzle: the distribution and its message were the old
    // puzzle's, and go.
    let puzzle = c.find(Locator::Id("puzzle")).await.unwrap();
    puzzle.clear().await.unwrap();
    puzzle.send_keys("pyraminx\n").await.unwrap();
    c.execute(
        "document.getElementById('puzzle').dispatchEvent(new Event('change'))",
        vec![],
    )
    .await
    .unwrap();
    until("the pyraminx", 20, || async {
        text_of(&c, "puzzle-name").await == "pyraminx"
    })
    .await;
    let bars = c.find_all(Locator::Css("#histogram rect")).await.unwrap();
    assert!(bars.is_empty(), "the 2x2x2's histogram is gone");
    assert_eq!(text_of(&c, "gods-status").await, "");
    screenshot(&c, "6-switched").await;

    c.close().await.unwrap();
    let _ = driver.kill();
    let _ = driver.wait();
}

/// Runs `script` in the page and returns what it returns.
async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Waits until the page's 3D view holds `n` stickers and shows step `step`.
async fn view_ready(c: &Client, n: usize, step: &str) {
    until("the 3D view", 30, || async {
        js(
            c,
            "return window.twistor ? twistor.view.stickers.length : 0",
        )
        .await
            == json!(n)
            && body_data(c, "step").await == step
    })
    .await;
}

/// For each sticker facing the viewer: its net id, the colour drawn at its
/// centre (read back from the canvas) and the brightness it was drawn with.
const READ_BACK: &str = r#"
const v = twistor.view;
v.draw();
const ctx = v.canvas.getContext("2d");
return v.stickers.map((s, i) => {
  const p = v.probe(i);
  if (!p.facing) return null;
  const d = ctx.getImageData(Math.round(p.x), Math.round(p.y), 1, 1).data;
  return { id: s.id, rgb: [d[0], d[1], d[2]], shade: p.shade };
}).filter((x) => x);
"#;

fn rgb(hex: &str) -> [f64; 3] {
    let n = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(n >> 16) as f64, ((n >> 8) & 255) as f64, (n & 255) as f64]
}

/// The stickers the view draws facing the viewer, seen from six sides
/// (every face of a convex puzzle faces one of them squarely enough).
const DRAWN_ALL_SIDES: &str = r#"
const v = twistor.view;
const home = v.orientation;
const drawn = new Set();
const sides = [[0, 1, 0], [Math.PI / 2, 1, 0], [Math.PI, 1, 0], [-Math.PI / 2, 1, 0], [Math.PI / 2, 0, 1], [-Math.PI / 2, 0, 1]];
for (const [a, y, x] of sides) {
  v.orientation = home.slice();
  v.turnView(a * y, a * x);
  v.draw();
  v.drawn.forEach((i) => drawn.add(i));
}
v.orientation = home;
v.draw();
return { stickers: v.stickers.length, drawn: drawn.size };
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_3d_view_in_a_real_browser() {
    let served = Served::start(&["--workers", "1"]);
    let Some((c, mut driver)) = browser().await else {
        eprintln!("skipped: no chromium (apt-get install chromium chromium-driver)");
        return;
    };
    let twistor = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_twistor"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "twistor {args:?}");
        String::from_utf8(out.stdout).unwrap()
    };

    // 1. The 3x3x3 after R U in 3D: the pixels drawn at the stickers'
    // centres are the colours of `twistor show`'s net, sticker by sticker
    // (shaded as the view says it shades them).
    c.goto(&format!("{}?puzzle=3x3x3&alg=R+U", served.url))
        .await
        .unwrap();
    view_ready(&c, 54, "2").await;
    let net: std::collections::HashMap<String, String> =
        sticker_colours(&twistor(&["show", "3x3x3", "R U", "--svg"]))
            .into_iter()
            .collect();
    let seen = js(&c, READ_BACK).await;
    let seen = seen.as_array().unwrap();
    assert!(seen.len() >= 6, "at least 6 stickers face the viewer");
    for s in seen {
        let id = s["id"].as_str().unwrap();
        let shade = s["shade"].as_f64().unwrap();
        let want = rgb(&net[id]).map(|x| (x * shade).round());
        let got: Vec<f64> = (0..3).map(|k| s["rgb"][k].as_f64().unwrap()).collect();
        for k in 0..3 {
            assert!(
                (got[k] - want[k]).abs() <= 3.0,
                "sticker {id}: drawn {got:?}, {} shaded {shade:.2} is {want:?}",
                net[id]
            );
        }
    }
    screenshot(&c, "3d-1-r-u").await;

    // 2. No sticker missing: every sticker of the net is drawn, seen from
    // one side or the other, on the megaminx, pyraminx, FTO and a
    // descriptor puzzle.
    for (name, query) in [
        ("megaminx", "megaminx"),
        ("pyraminx", "pyraminx"),
        ("FTO", "FTO"),
        ("o f 0.333 v 0.5", "o+f+0.333+v+0.5"),
    ] {
        let polygons = sticker_colours(&twistor(&["show", name, "", "--svg"])).len();
        c.goto(&format!("{}?puzzle={query}", served.url))
            .await
            .unwrap();
        view_ready(&c, polygons, "0").await;
        let counts = js(&c, DRAWN_ALL_SIDES).await;
        assert_eq!(counts["drawn"], json!(polygons), "{name}: {counts}");
        screenshot(&c, &format!("3d-2-{}", name.replace(' ', "_"))).await;
    }

    // 3. R turned part-way: its stickers are between places; turned all
    // the way, each lands on a sticker, which shows after R the colour it
    // showed before.
    c.goto(&format!("{}?puzzle=3x3x3&alg=R+U+F&step=0", served.url))
        .await
        .unwrap();
    view_ready(&c, 54, "0").await;
    let turned = js(
        &c,
        r#"
const v = twistor.view, parts = twistor.turns()[0];
const rest = v.stickers.map((_, i) => v.probe(i));
const before = v.colors.slice();
const moving = v.stickers.map((s, i) => i).filter((i) => parts[0].slices.includes(v.stickers[i].slices[parts[0].axis]));
const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
v.setPose(parts, 1); v.draw();
const lands = moving.map((i) => { const p = v.probe(i); let best = 0; rest.forEach((r, k) => { if (dist(p, r) < dist(p, rest[best])) best = k; }); return [i, best, dist(p, rest[best])]; });
// Half way, each sticker that moves at all is neither where it was nor
// where it goes (the one on the axis turns in place).
v.setPose(parts, 0.5); v.draw();
const half = lands.filter(([i, to]) => dist(rest[i], rest[to]) > 2).map(([i, to]) => Math.min(dist(v.probe(i), rest[i]), dist(v.probe(i), rest[to])));
return { moving: moving.length, half, lands, before };
"#,
    )
    .await;
    screenshot(&c, "3d-3-r-half-turned").await;
    assert_eq!(turned["moving"], json!(21), "R turns 9 + 12 stickers");
    for d in turned["half"].as_array().unwrap() {
        assert!(
            d.as_f64().unwrap() > 2.0,
            "part-way, not at either end: {d}"
        );
    }
    let after =
        served.post("/api/apply", &json!({"puzzle": "3x3x3", "alg": "R"}))["colors"].clone();
    for l in turned["lands"].as_array().unwrap() {
        let (from, to, off) = (
            l[0].as_u64().unwrap() as usize,
            l[1].as_u64().unwrap() as usize,
            l[2].as_f64().unwrap(),
        );
        assert!(off < 1.0, "sticker {from} lands {off} px from sticker {to}");
        assert_eq!(
            after[to], turned["before"][from],
            "{from} → {to} keeps its colour"
        );
    }

    // 4. Forward at a slow tempo: a frame part-way through the turn.
    js(
        &c,
        "document.getElementById('tempo').value = '0.25'; return 0",
    )
    .await;
    click(&c, "forward").await;
    until("a frame part-way through R", 10, || async {
        let f = js(
            &c,
            "return twistor.view.pose ? twistor.view.pose.fraction : -1",
        )
        .await;
        f.as_f64().is_some_and(|f| f > 0.05 && f < 0.95)
    })
    .await;
    until("R done", 10, || async {
        body_data(&c, "step").await == "1"
    })
    .await;

    // 5. A click on a move goes to it.
    c.find(Locator::Css("#alg-moves span[data-index='2']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until("at F", 10, || async { body_data(&c, "step").await == "3" }).await;
    let current = c
        .find(Locator::Css("#alg-moves .current"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(current, "F");

    // 6. An alg pasted from a web page, typographic primes and all.
    c.goto(&format!("{}?puzzle=3x3x3", served.url))
        .await
        .unwrap();
    view_ready(&c, 54, "0").await;
    c.find(Locator::Id("alg"))
        .await
        .unwrap()
        .send_keys("R U R’ U’")
        .await
        .unwrap();
    until("four moves", 20, || async {
        body_data(&c, "step").await == "4"
    })
    .await;
    assert_eq!(text_of(&c, "alg-error").await, "");

    // 7. Square-1 in its own notation.
    c.goto(&format!(
        "{}?puzzle=sq1&alg=%281%2C0%29+%2F+%283%2C3%29+%2F",
        served.url
    ))
    .await
    .unwrap();
    until("the Square-1", 20, || async {
        body_data(&c, "step").await == "4"
    })
    .await;
    let steps: Vec<String> = {
        let v = js(
            &c,
            "return [...document.querySelectorAll('#alg-moves span')].map((s) => s.textContent)",
        )
        .await;
        serde_json::from_value(v).unwrap()
    };
    assert_eq!(steps, ["(1, 0)", "/", "(3, 3)", "/"]);

    // 8. A phone: nothing wider than the screen, every control on it.
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&format!("{}?puzzle=3x3x3&alg=R+U", served.url))
        .await
        .unwrap();
    view_ready(&c, 54, "2").await;
    let fit = js(
        &c,
        r#"
const w = window.innerWidth;
const out = [...document.querySelectorAll("button, input, select, textarea, canvas, summary")]
  .filter((e) => e.getClientRects().length)
  .map((e) => e.getBoundingClientRect())
  .filter((r) => r.left < -0.5 || r.right > w + 0.5).length;
return { width: w, document: document.documentElement.scrollWidth, outside: out };
"#,
    )
    .await;
    assert!(
        fit["document"].as_f64() <= fit["width"].as_f64() && fit["outside"] == json!(0),
        "at 390 px: {fit}"
    );
    screenshot(&c, "3d-4-phone").await;

    c.close().await.unwrap();
    let _ = driver.kill();
    let _ = driver.wait();
}

/// A benchmark, not a test (`cargo test --release -p twistor-cli --test
/// serve -- --ignored --nocapture`): frames a second the 3D view draws
/// while it animates turns in headless Chromium, and the size and time of
/// `/api/geometry`, for a few puzzles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark"]
async fn view_frames_per_second() {
    let served = Served::start(&["--workers", "1"]);
    let Some((c, mut driver)) = browser().await else {
        return;
    };
    println!("| puzzle | stickers | /api/geometry | bytes | frames/s animating |");
    println!("|---|---|---|---|---|");
    for (name, alg) in [
        ("3x3x3", "(R U R' U')30"),
        ("megaminx", "(R U R' U')30"),
        ("7x7x7", "(3R U 2F' 3U')30"),
    ] {
        let t0 = Instant::now();
        let geometry = served.post("/api/geometry", &json!({ "puzzle": name }));
        let (ms, bytes) = (t0.elapsed().as_secs_f64() * 1e3, geometry.to_string().len());
        let stickers = geometry["stickers"].as_array().unwrap().len();
        let query = alg.replace(' ', "+").replace('\'', "%27");
        c.goto(&format!("{}?puzzle={name}&alg={query}&step=0", served.url))
            .await
            .unwrap();
        view_ready(&c, stickers, "0").await;
        js(&c, "document.getElementById('tempo').value = '4'; return 0").await;
        click(&c, "play").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let f0 = js(&c, "return twistor.view.frames").await.as_f64().unwrap();
        let t0 = Instant::now();
        tokio::time::sleep(Duration::from_secs(4)).await;
        let f1 = js(&c, "return twistor.view.frames").await.as_f64().unwrap();
        let fps = (f1 - f0) / t0.elapsed().as_secs_f64();
        click(&c, "play").await;
        println!("| {name} | {stickers} | {ms:.0} ms | {bytes} | {fps:.0} |");
    }
    c.close().await.unwrap();
    let _ = driver.kill();
    let _ = driver.wait();
}

#[test]
fn the_server_applies_the_vector_algs_as_the_command_line_does() {
    let served = Served::start(&[]);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../formats/tests/data/alg-syntax.jsonl"
    );
    let mut checked = 0;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["ok"] != true {
            continue;
        }
        let alg = v["alg"].as_str().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_twistor"))
            .args(["apply", "3x3x3", alg, "--json"])
            .output()
            .unwrap();
        if !out.status.success() {
            continue;
        }
        let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
        let page = served.post("/api/apply", &json!({ "puzzle": "3x3x3", "alg": alg }));
        assert_eq!(page["pattern"], cli, "{alg:?}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}
