//! The map in `ARCHITECTURE.md`, checked against the code: every crate's
//! dependencies on the workspace's crates are exactly the arrows the map
//! lists (an arrow added to a `Cargo.toml` and not to the map fails here),
//! and the engines do no terminal, file or environment I/O.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The engine crates: no I/O, nothing above them.
const ENGINES: [&str; 6] = [
    "search",
    "cube333",
    "cube444",
    "square1",
    "staged",
    "distributed",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The arrows the map lists: its "Dependency arrows" block, one line a
/// crate, `crate: dependencies...`.
fn mapped() -> BTreeMap<String, Vec<String>> {
    let map = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let block = map
        .split("<!-- arrows -->")
        .nth(1)
        .expect("ARCHITECTURE.md has its arrows between <!-- arrows --> marks");
    block
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(name, deps)| {
            let mut deps: Vec<String> = deps.split_whitespace().map(String::from).collect();
            deps.sort();
            (name.trim().to_string(), deps)
        })
        .collect()
}

/// Each crate's `[dependencies]` among the workspace's crates.
fn actual() -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(workspace().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(toml) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let mut deps = Vec::new();
        let mut in_deps = false;
        for line in toml.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_deps = line == "[dependencies]";
            } else if in_deps {
                if let Some(rest) = line.strip_prefix("twistor-") {
                    let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
                    deps.push(name);
                }
            }
        }
        deps.sort();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        out.insert(name, deps);
    }
    out
}

#[test]
fn every_dependency_is_an_arrow_of_the_map() {
    let (map, code) = (mapped(), actual());
    for (name, deps) in &code {
        let listed = map
            .get(name)
            .unwrap_or_else(|| panic!("crate {name} is not on the map"));
        assert_eq!(
            deps, listed,
            "{name}: Cargo.toml depends on {deps:?}, the map says {listed:?}"
        );
    }
    for name in map.keys() {
        assert!(
            code.contains_key(name),
            "the map lists {name}, which is no crate"
        );
    }
    // The layering the map states in words.
    assert!(code["core"].is_empty(), "core depends on no crate of ours");
    for (name, deps) in &code {
        assert!(!deps.contains(&"cli".to_string()), "{name} depends on cli");
        if name != "cli" {
            assert!(
                !deps.contains(&"server".to_string()),
                "{name} depends on server"
            );
        }
    }
    for engine in ENGINES {
        for above in ["tools", "server", "cli", "store"] {
            assert!(
                !code[engine].contains(&above.to_string()),
                "{engine} depends on {above}"
            );
        }
    }
    assert!(!code["search"].contains(&"cube333".to_string()));
}

/// The non-test Rust lines of crate `name`'s sources.
fn crate_code(name: &str) -> Vec<(PathBuf, usize, String)> {
    let mut lines = Vec::new();
    code_lines(
        &workspace().join("crates").join(name).join("src"),
        &mut lines,
    );
    lines
}

/// The non-test Rust lines under `dir`: comments and `#[cfg(test)]`
/// modules (at the end of their files) left out.
fn code_lines(dir: &Path, out: &mut Vec<(PathBuf, usize, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            code_lines(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let t = line.trim_start();
                if t.starts_with("#[cfg(test)]") {
                    break;
                }
                if !t.starts_with("//") {
                    out.push((path.clone(), i + 1, line.to_string()));
                }
            }
        }
    }
}

#[test]
fn engines_do_no_terminal_file_or_environment_io() {
    let forbidden = [
        "std::fs",
        "std::env",
        "env::var",
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
        "io::stdout",
        "io::stderr",
        "io::stdin",
        "File::",
    ];
    for engine in ENGINES {
        let lines = crate_code(engine);
        assert!(lines.len() > 100, "{engine}: its sources were read");
        for (path, n, line) in lines {
            for f in forbidden {
                assert!(
                    !line.contains(f),
                    "{}:{n}: an engine uses {f}: {line}",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn library_errors_name_no_command_line_flag() {
    // Hints that name flags (`-M`, `--subgroup`, `--resume`) belong to the
    // front ends: the same error reaches the web page, where no flag exists.
    // Every crate on the map but the front ends and the tests.
    let libraries = mapped()
        .into_keys()
        .filter(|name| !["cli", "server", "fuzz"].contains(&name.as_str()));
    for name in libraries {
        let lines = crate_code(&name);
        // An #[error(...)] attribute and the line after it (long ones wrap).
        for (i, (path, n, line)) in lines.iter().enumerate() {
            if !line.contains("#[error(") {
                continue;
            }
            let text = match lines.get(i + 1) {
                Some((_, _, next)) => format!("{line} {next}"),
                None => line.clone(),
            };
            let flag = text.split([' ', '(', '"']).any(|w| {
                (w.starts_with("--") && w.len() > 2 && w.as_bytes()[2].is_ascii_lowercase())
                    || w == "-M"
            });
            assert!(
                !flag,
                "{}:{n}: an error names a flag: {text}",
                path.display()
            );
        }
    }
}

/// The crates allowed `unsafe`, each for a measured reason the map gives.
const UNSAFE_CRATES: [&str; 4] = ["memory", "cube333", "store", "cli"];

#[test]
fn unsafe_code_lives_only_where_the_map_says_and_is_forbidden_elsewhere() {
    for entry in std::fs::read_dir(workspace().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let root = ["src/lib.rs", "src/main.rs"]
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.exists());
        let Some(root) = root else { continue };
        let mut lines = Vec::new();
        code_lines(&dir.join("src"), &mut lines);
        let uses = lines.iter().find(|(_, _, l)| {
            l.contains("unsafe {") || l.contains("unsafe fn") || l.contains("unsafe impl")
        });
        if UNSAFE_CRATES.contains(&name.as_str()) {
            assert!(
                uses.is_some(),
                "{name} is listed as using unsafe and does not: take it off the list and forbid it"
            );
        } else {
            if let Some((path, n, line)) = uses {
                panic!(
                    "{}:{n}: unsafe outside the crates allowed it: {line}",
                    path.display()
                );
            }
            let text = std::fs::read_to_string(&root).unwrap();
            assert!(
                text.contains("#![forbid(unsafe_code)]"),
                "{}: a crate without unsafe forbids it",
                root.display()
            );
        }
    }
    let map = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    for name in UNSAFE_CRATES {
        assert!(map.contains(&format!("`{name}`")), "the map names {name}");
    }
}

#[test]
fn the_cli_modules_import_in_no_circle() {
    // Module → the modules of the CLI it names (`crate::x`,
    // `crate::commands::y`).
    let src = workspace().join("crates/cli/src");
    let mut graph: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files = Vec::new();
    code_lines(&src, &mut files);
    for (path, _, line) in &files {
        let rel = path.strip_prefix(&src).unwrap().with_extension("");
        let name = rel.to_string_lossy().replace('/', "::");
        let name = name.trim_end_matches("::mod").to_string();
        for part in line.split("crate::").skip(1) {
            let path: Vec<&str> = part
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .collect();
            let target = match path.as_slice() {
                ["commands", m, ..] if !m.is_empty() => format!("commands::{m}"),
                [m, ..] if !m.is_empty() => m.to_string(),
                _ => continue,
            };
            if target != name && !target.starts_with(char::is_uppercase) {
                let deps = graph.entry(name.clone()).or_default();
                if !deps.contains(&target) {
                    deps.push(target);
                }
            }
        }
    }
    assert!(graph.len() > 10, "the CLI's modules were read: {graph:?}");
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        graph: &BTreeMap<String, Vec<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) {
        match state.get(n) {
            Some(2) => return,
            Some(1) => panic!("an import circle: {} → {n}", stack.join(" → ")),
            _ => {}
        }
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            visit(m, graph, state, stack);
        }
        stack.pop();
        state.insert(n.to_string(), 2);
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        visit(n, &graph, &mut state, &mut Vec::new());
    }
}
