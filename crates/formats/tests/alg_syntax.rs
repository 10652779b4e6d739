//! The alg reader and printer against cubing.js 0.63.4: an alg is read
//! exactly when cubing.js reads it, and printed (and inverted) as
//! cubing.js prints it. Vectors: `data/alg-syntax.jsonl`, made by
//! `data/alg-syntax.mjs`.

use serde_json::Value;
use twistor_formats::alg::Alg;

/// Paste artefacts twistor reads as their ASCII forms where cubing.js
/// refuses them (the README says so): typographic primes and quotes and
/// no-break spaces, as web pages print algs.
fn deliberate_extension(alg: &str) -> bool {
    alg.contains(['\u{2019}', '\u{2032}', '\u{00a0}'])
}

/// Where twistor refuses what cubing.js reads, and why: a commutator of
/// nothing, which the conformance suite lists among bad inputs.
const REFUSED_DELIBERATELY: [&str; 2] = ["[, ]", "[,]"];

#[test]
fn algs_read_and_print_as_cubing_js_does() {
    let text = include_str!("data/alg-syntax.jsonl");
    let vectors: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut differences = Vec::new();
    for v in &vectors {
        let alg = v["alg"].as_str().unwrap();
        if deliberate_extension(alg) {
            // Read as its ASCII form is: as cubing.js reads that, where
            // the vectors have it.
            let ascii: String = alg
                .chars()
                .map(|c| match c {
                    '\u{2019}' | '\u{2032}' => '\'',
                    '\u{00a0}' => ' ',
                    c => c,
                })
                .collect();
            let ours = Alg::parse(alg).map(|a| a.to_string()).ok();
            if let Some(w) = vectors.iter().find(|w| w["alg"] == ascii.as_str()) {
                let theirs = w["ok"]
                    .as_bool()
                    .unwrap()
                    .then(|| w["string"].as_str().unwrap().to_string());
                if ours != theirs {
                    differences.push(format!(
                        "{alg:?}: {ours:?}, its ASCII form in cubing.js {theirs:?}"
                    ));
                }
            } else if ours.is_none() {
                differences.push(format!("{alg:?}: refused, a paste artefact to read"));
            }
            continue;
        }
        let ours = Alg::parse(alg);
        match (v["ok"].as_bool().unwrap(), &ours) {
            (true, Ok(a)) => {
                let (string, invert) = (a.to_string(), a.invert().to_string());
                if string != v["string"] || invert != v["invert"] {
                    differences.push(format!(
                        "{alg:?}: printed {string:?} / inverse {invert:?}, cubing.js {} / {}",
                        v["string"], v["invert"]
                    ));
                }
            }
            (true, Err(_)) if REFUSED_DELIBERATELY.contains(&alg) => {}
            (true, Err(e)) => {
                differences.push(format!("{alg:?}: refused ({e}), cubing.js reads it"))
            }
            (false, Ok(a)) => differences.push(format!(
                "{alg:?}: read as {:?}, cubing.js refuses it ({})",
                a.to_string(),
                v["error"]
            )),
            (false, Err(_)) => {}
        }
    }
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

/// The paste artefacts read as their ASCII forms, columns kept.
#[test]
fn typographic_primes_and_no_break_spaces_read_as_ascii() {
    let pasted = Alg::parse("R U R\u{2019} U\u{2032}\u{00a0}F\u{2018}").unwrap();
    assert_eq!(pasted.to_string(), "R U R' U' F'");
    let e = Alg::parse("R\u{2019} %").unwrap_err();
    assert_eq!(e.column, 4);
}
