//! Conversion to and from the cubing.js KPattern JSON of the 3x3x3.
//!
//! cubing.js numbers the pieces differently from Kociemba (EDGES UF UR UB
//! UL DF DR DB DL FR FL BR BL, CORNERS UFR URB UBL ULF DRF DFL DLB DBR) but
//! uses the same orientation conventions, so the conversion is a
//! relabelling of slots and pieces. Centres are fixed by face turns; their
//! orientation is a multiple of quarter turns that cubing.js ignores
//! (`orientationMod` 1), so it is written as 0 and not read.

use serde_json::{json, Value};

use crate::cubie::CubieCube;
use crate::error::CubeError;

/// Kociemba edge index of each cubing.js edge index.
const EDGE_FROM_KPUZZLE: [u8; 12] = [1, 0, 3, 2, 5, 4, 7, 6, 8, 9, 11, 10];
/// Kociemba corner index of each cubing.js corner index.
const CORNER_FROM_KPUZZLE: [u8; 8] = [0, 3, 2, 1, 4, 5, 6, 7];

fn inverse_map<const N: usize>(m: &[u8; N]) -> [u8; N] {
    let mut r = [0u8; N];
    for (i, &x) in m.iter().enumerate() {
        r[x as usize] = i as u8;
    }
    r
}

/// The KPattern JSON (`{"EDGES": {"pieces": [...], "orientation": [...]}, ...}`).
pub fn to_kpattern(c: &CubieCube) -> Value {
    let edge_to = inverse_map(&EDGE_FROM_KPUZZLE);
    let corner_to = inverse_map(&CORNER_FROM_KPUZZLE);
    let mut ep = [0u8; 12];
    let mut eo = [0u8; 12];
    for (k, &kslot) in EDGE_FROM_KPUZZLE.iter().enumerate() {
        ep[k] = edge_to[c.ep[kslot as usize] as usize];
        eo[k] = c.eo[kslot as usize];
    }
    let mut cp = [0u8; 8];
    let mut co = [0u8; 8];
    for (k, &kslot) in CORNER_FROM_KPUZZLE.iter().enumerate() {
        cp[k] = corner_to[c.cp[kslot as usize] as usize];
        co[k] = c.co[kslot as usize];
    }
    json!({
        "EDGES": {"pieces": ep, "orientation": eo},
        "CORNERS": {"pieces": cp, "orientation": co},
        "CENTERS": {"pieces": [0, 1, 2, 3, 4, 5], "orientation": [0, 0, 0, 0, 0, 0], "orientationMod": [1, 1, 1, 1, 1, 1]},
    })
}

fn read_orbit<const N: usize>(
    v: &Value,
    orbit: &str,
    modulus: u64,
) -> Result<([u8; N], [u8; N]), CubeError> {
    let o = v
        .get(orbit)
        .ok_or_else(|| CubeError::KPattern(format!("missing orbit {orbit}")))?;
    let list = |key: &str, bound: u64| -> Result<[u8; N], CubeError> {
        let arr = o
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| CubeError::KPattern(format!("{orbit}.{key} must be an array")))?;
        if arr.len() != N {
            return Err(CubeError::KPattern(format!(
                "{orbit}.{key} has {} entries, expected {N}",
                arr.len()
            )));
        }
        let mut out = [0u8; N];
        for (i, x) in arr.iter().enumerate() {
            let n = x.as_u64().filter(|&n| n < bound).ok_or_else(|| {
                CubeError::KPattern(format!(
                    "{orbit}.{key}[{i}] = {x} is not an integer in 0..{bound}"
                ))
            })?;
            out[i] = n as u8;
        }
        Ok(out)
    };
    Ok((list("pieces", N as u64)?, list("orientation", modulus)?))
}

/// Reads a KPattern JSON of the 3x3x3 and checks that it is solvable.
pub fn from_kpattern(v: &Value) -> Result<CubieCube, CubeError> {
    let (kep, keo) = read_orbit::<12>(v, "EDGES", 2)?;
    let (kcp, kco) = read_orbit::<8>(v, "CORNERS", 3)?;
    if let Some(centers) = v.get("CENTERS") {
        let pieces = centers.get("pieces").and_then(Value::as_array);
        let fixed = pieces.is_some_and(|p| {
            p.iter()
                .enumerate()
                .all(|(i, x)| x.as_u64() == Some(i as u64))
        });
        if !fixed {
            return Err(CubeError::KPattern(
                "CENTERS must be in place (whole-cube rotations are not supported)".into(),
            ));
        }
    }
    let mut c = CubieCube::SOLVED;
    for k in 0..12 {
        let slot = EDGE_FROM_KPUZZLE[k] as usize;
        c.ep[slot] = EDGE_FROM_KPUZZLE[kep[k] as usize];
        c.eo[slot] = keo[k];
    }
    for k in 0..8 {
        let slot = CORNER_FROM_KPUZZLE[k] as usize;
        c.cp[slot] = CORNER_FROM_KPUZZLE[kcp[k] as usize];
        c.co[slot] = kco[k];
    }
    c.validate()?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveSeq;
    use twistor_core::random::SeededRng;

    fn pattern_of(alg: &str) -> Value {
        let s: MoveSeq = alg.parse().unwrap();
        to_kpattern(&CubieCube::from_moves(&s.0))
    }

    /// Values from cubing.js's 3x3x3 definition (its R move and its F move).
    #[test]
    fn r_and_f_match_cubing_js() {
        let r = pattern_of("R");
        assert_eq!(
            r["EDGES"]["pieces"],
            json!([0, 8, 2, 3, 4, 10, 6, 7, 5, 9, 1, 11])
        );
        assert_eq!(r["CORNERS"]["pieces"], json!([4, 0, 2, 3, 7, 5, 6, 1]));
        assert_eq!(r["CORNERS"]["orientation"], json!([2, 1, 0, 0, 1, 0, 0, 2]));
        let f = pattern_of("F");
        assert_eq!(
            f["EDGES"]["pieces"],
            json!([9, 1, 2, 3, 8, 5, 6, 7, 0, 4, 10, 11])
        );
        assert_eq!(
            f["EDGES"]["orientation"],
            json!([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0])
        );
        assert_eq!(f["CORNERS"]["pieces"], json!([3, 1, 2, 5, 0, 4, 6, 7]));
        assert_eq!(f["CORNERS"]["orientation"], json!([1, 0, 0, 2, 2, 1, 0, 0]));
    }

    #[test]
    fn round_trip_random_cubes() {
        let mut rng = SeededRng::new(5);
        for _ in 0..100 {
            let c = CubieCube::random(|| rng.next_u64());
            assert_eq!(from_kpattern(&to_kpattern(&c)).unwrap(), c);
        }
    }

    #[test]
    fn rejects_defects() {
        let mut v = pattern_of("R U");
        v["EDGES"]["orientation"][0] = json!(1);
        v["EDGES"]["orientation"][1] = json!(1 - v["EDGES"]["orientation"][1].as_u64().unwrap());
        assert!(from_kpattern(&v).is_ok());
        v["EDGES"]["orientation"][2] = json!(1 - v["EDGES"]["orientation"][2].as_u64().unwrap());
        assert_eq!(from_kpattern(&v), Err(CubeError::Flip));
        let mut v = pattern_of("");
        v["CORNERS"]["pieces"][0] = json!(9);
        assert!(matches!(from_kpattern(&v), Err(CubeError::KPattern(_))));
    }
}
