//! `twistor serve` as a person uses it: the real binary, driven in a real
//! browser (Debian's Chromium, headless, through chromedriver), through
//! the flows the page exists for. Screenshots of each flow are saved to
//! `target/tmp/screenshots/` (artifacts, not committed).
//!
//! Without `chromium` and `chromedriver` on the machine the browser flows
//! say so and are skipped (`.ci/run` installs them); the loopback test
//! needs no browser.

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
    c.find(Locator::Id("first"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until("step 0", 20, || async {
        body_data(&c, "step").await == "0"
    })
    .await;
    for want in ["1", "2"] {
        c.find(Locator::Id("forward"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
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
    c.find(Locator::Id("scramble"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
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
    c.find(Locator::Id("solve"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until("a two-phase solution", 120, || async {
        text_of(&c, "solve-status").await.starts_with("solution")
    })
    .await;
    c.find(Locator::Id("last"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
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
    c.find(Locator::Id("solve-optimal"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until("the job running", 30, || async {
        served.status()["running"] == 1
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    c.find(Locator::Id("cancel"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
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
    until("the located error", 20, || async {
        text_of(&c, "alg-error").await.contains("broken.tws:5")
    })
    .await;
    screenshot(&c, "4-broken-upload").await;

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
    c.find(Locator::Id("gods"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until("the distribution", 120, || async {
        text_of(&c, "gods-status")
            .await
            .starts_with("3,674,160 positions")
    })
    .await;
    let bars = c.find_all(Locator::Css("#histogram rect")).await.unwrap();
    assert_eq!(bars.len(), 12, "distances 0 to 11");
    screenshot(&c, "5-gods").await;

    c.close().await.unwrap();
    let _ = driver.kill();
    let _ = driver.wait();
}
