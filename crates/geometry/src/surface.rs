//! Cut surfaces: what divides a puzzle into the parts that turn.
//!
//! In the rotation-surface model (see [`crate::pronounce`]) a puzzle is a
//! solid cut by surfaces of revolution, each with an oriented axis; the
//! part *above* a surface can turn about its axis relative to the part
//! below. Today every surface is a plane, but the pipeline only asks the
//! questions in [`CutSurface`], so curved surfaces (spheres for curvy
//! puzzles, cones) can be added by implementing it.

use std::fmt;

use crate::math::{Vec3, EPS};

/// A surface of revolution that cuts a puzzle.
pub trait CutSurface: fmt::Debug + Send + Sync {
    /// The unit axis the surface revolves around; turns are about it.
    fn axis(&self) -> Vec3;

    /// Signed height of a point: positive above the surface (the side a
    /// plain turn moves, away from the centre along the axis), negative
    /// below, near zero on it.
    fn height(&self, p: Vec3) -> f64;

    /// Where the surface sits along its axis; surfaces on one axis are
    /// nested in this order (a point below one is below every later one).
    fn level(&self) -> f64;

    /// Splits a convex polygon into the part below and the part above, or
    /// `None` when no corner is strictly on each side.
    fn split(&self, polygon: &[Vec3]) -> Option<(Vec<Vec3>, Vec<Vec3>)>;
}

/// A plane `axis · x = distance`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// Unit normal; above is the side it points to.
    pub normal: Vec3,
    /// Signed distance from the centre along the normal.
    pub distance: f64,
}

impl CutSurface for Plane {
    fn axis(&self) -> Vec3 {
        self.normal
    }

    fn height(&self, p: Vec3) -> f64 {
        self.normal.dot(p) - self.distance
    }

    fn level(&self) -> f64 {
        self.distance
    }

    fn split(&self, polygon: &[Vec3]) -> Option<(Vec<Vec3>, Vec<Vec3>)> {
        let side = |p: Vec3| {
            let h = self.height(p);
            if h > EPS {
                1
            } else if h < -EPS {
                -1
            } else {
                0
            }
        };
        let sides: Vec<i8> = polygon.iter().map(|&p| side(p)).collect();
        if !sides.contains(&1) || !sides.contains(&-1) {
            return None;
        }
        let n = polygon.len();
        let mut below = Vec::with_capacity(n + 1);
        let mut above = Vec::with_capacity(n + 1);
        for k in 0..n {
            let (p, s) = (polygon[k], sides[k]);
            if s <= 0 {
                below.push(p);
            }
            if s >= 0 {
                above.push(p);
            }
            let kk = (k + 1) % n;
            if s != 0 && sides[kk] == -s {
                let (hp, hq) = (self.height(p), self.height(polygon[kk]));
                let t = hp / (hp - hq);
                let x = p * (1.0 - t) + polygon[kk] * t;
                below.push(x);
                above.push(x);
            }
        }
        Some((below, above))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_square_through_two_corners_and_across_edges() {
        let sq = [
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(1.0, 1.0, -1.0),
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(1.0, -1.0, 1.0),
        ];
        let diag = Plane {
            normal: Vec3::new(0.0, 1.0, -1.0).normalized(),
            distance: 0.0,
        };
        let (b, a) = diag.split(&sq).unwrap();
        assert_eq!((b.len(), a.len()), (3, 3));
        let third = Plane {
            normal: Vec3::new(0.0, 1.0, 0.0),
            distance: 1.0 / 3.0,
        };
        let (b, a) = third.split(&sq).unwrap();
        assert_eq!((b.len(), a.len()), (4, 4));
        assert!(a.iter().all(|&p| third.height(p) >= -EPS));
        let edge = Plane {
            normal: Vec3::new(0.0, 1.0, 0.0),
            distance: 1.0,
        };
        assert!(edge.split(&sq).is_none());
    }
}
