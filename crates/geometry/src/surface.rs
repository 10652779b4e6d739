//! Cut surfaces: what divides a puzzle into the parts that turn.
//!
//! In the rotation-surface model (see [`crate::pronounce`]) a puzzle is a
//! solid cut by surfaces of revolution, each with an oriented axis; the
//! part *above* a surface can turn about its axis relative to the part
//! below. Three kinds are built: planes (every PuzzleGeometry puzzle),
//! spheres centred on the axis (the Rex Cube, the Curvy Copter as it
//! looks) and cones with their apex on the axis (a plane bent towards the
//! feature it turns). The pipeline only asks the questions in
//! [`CutSurface`]: which side a point is on, where the surface sits along
//! its axis, and its trace on a face (a line, a circle, a conic) for
//! cutting stickers.

use std::fmt;

use crate::arrange::P2;
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

    /// Its trace on the plane through `origin` spanned by the unit
    /// vectors `e1` and `e2` (at right angles), in those coordinates: a
    /// few polylines, curves flattened finely, running as far as they
    /// like past the face being cut (the caller clips them).
    fn trace(&self, origin: Vec3, e1: Vec3, e2: Vec3) -> Vec<Vec<P2>>;

    /// Whether it is curved (not a plane).
    fn curved(&self) -> bool;

    /// For a curved surface, whether the part that turns (its inside)
    /// lies towards the axis's end; `None` for a plane, whose side is its
    /// level's sign.
    fn turning_end(&self) -> Option<bool>;

    /// What it is, for people: `plane`, `sphere of radius 1.6 centred at
    /// +1.732051`, `cone of half angle 60° from +0.000000`.
    fn describe(&self) -> String;
}

/// Segments a full circle's trace is flattened into.
const CIRCLE_SEGMENTS: usize = 720;
/// How far past the face centre a trace is followed.
const TRACE_REACH: f64 = 8.0;

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

    fn trace(&self, origin: Vec3, e1: Vec3, e2: Vec3) -> Vec<Vec<P2>> {
        // a x + b y = c in the plane's coordinates.
        let (a, b) = (self.normal.dot(e1), self.normal.dot(e2));
        let c = self.distance - self.normal.dot(origin);
        let len = a.hypot(b);
        if len < 1e-12 {
            return Vec::new();
        }
        let foot = [a * c / (len * len), b * c / (len * len)];
        let along = [-b / len, a / len];
        let end = |s: f64| [foot[0] + along[0] * s, foot[1] + along[1] * s];
        vec![vec![end(-TRACE_REACH * 2.0), end(TRACE_REACH * 2.0)]]
    }

    fn curved(&self) -> bool {
        false
    }

    fn turning_end(&self) -> Option<bool> {
        None
    }

    fn describe(&self) -> String {
        "plane".to_string()
    }
}

impl Plane {
    /// Splits a convex polygon into the part below and the part above, or
    /// `None` when no corner is strictly on each side.
    pub fn split(&self, polygon: &[Vec3]) -> Option<(Vec<Vec3>, Vec<Vec3>)> {
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

/// A sphere centred on its axis. Its inside turns with the end its
/// centre lies towards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// The unit axis; above is the side it points to.
    pub axis: Vec3,
    /// The centre (on the axis line).
    pub centre: Vec3,
    /// The radius.
    pub radius: f64,
    /// Whether the inside is above (the centre lies towards `axis`'s end).
    pub inside_above: bool,
}

impl CutSurface for Sphere {
    fn axis(&self) -> Vec3 {
        self.axis
    }

    fn height(&self, p: Vec3) -> f64 {
        let inside = self.radius - p.dist(self.centre);
        if self.inside_above {
            inside
        } else {
            -inside
        }
    }

    fn level(&self) -> f64 {
        let t = self.centre.dot(self.axis);
        if self.inside_above {
            t - self.radius
        } else {
            t + self.radius
        }
    }

    fn trace(&self, origin: Vec3, e1: Vec3, e2: Vec3) -> Vec<Vec<P2>> {
        let rel = self.centre - origin;
        let off = rel.dot(e1.cross(e2));
        let r2 = self.radius * self.radius - off * off;
        if r2 <= 0.0 {
            return Vec::new();
        }
        let (c, r) = ([rel.dot(e1), rel.dot(e2)], r2.sqrt());
        vec![(0..=CIRCLE_SEGMENTS)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / CIRCLE_SEGMENTS as f64;
                [c[0] + r * t.cos(), c[1] + r * t.sin()]
            })
            .collect()]
    }

    fn curved(&self) -> bool {
        true
    }

    fn turning_end(&self) -> Option<bool> {
        Some(self.inside_above)
    }

    fn describe(&self) -> String {
        format!(
            "sphere of radius {} centred at {:+.6}",
            self.radius,
            self.centre.dot(self.axis)
        )
    }
}

/// A cone with its apex on its axis, opening along it: the points seen
/// from the apex within `half_angle` of `opening`. Its inside turns with
/// the end it opens towards. A half angle of 90° is the plane through the
/// apex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    /// The unit axis; above is the side it points to.
    pub axis: Vec3,
    /// The apex (on the axis line).
    pub apex: Vec3,
    /// The unit direction it opens towards (`axis` or its opposite).
    pub opening: Vec3,
    /// Half the angle at the apex, in radians (between 0 and π).
    pub half_angle: f64,
}

impl CutSurface for Cone {
    fn axis(&self) -> Vec3 {
        self.axis
    }

    fn height(&self, p: Vec3) -> f64 {
        let v = p - self.apex;
        let inside = v.dot(self.opening) - v.norm() * self.half_angle.cos();
        if self.opening.dot(self.axis) > 0.0 {
            inside
        } else {
            -inside
        }
    }

    fn level(&self) -> f64 {
        self.apex.dot(self.axis)
    }

    fn trace(&self, origin: Vec3, e1: Vec3, e2: Vec3) -> Vec<Vec<P2>> {
        let n = e1.cross(e2);
        let f1 = self.opening.perpendicular();
        let f2 = self.opening.cross(f1);
        let (cos, sin) = (self.half_angle.cos(), self.half_angle.sin());
        let steps = CIRCLE_SEGMENTS * 2;
        let mut lines: Vec<Vec<P2>> = vec![Vec::new()];
        let mut all = true;
        for i in 0..steps {
            let t = std::f64::consts::TAU * i as f64 / steps as f64;
            let u = self.opening * cos + (f1 * t.cos() + f2 * t.sin()) * sin;
            let den = n.dot(u);
            let s = if den.abs() > 1e-12 {
                n.dot(origin - self.apex) / den
            } else {
                -1.0
            };
            let p = self.apex + u * s;
            if s > 0.0 && p.dist(origin) < TRACE_REACH {
                let rel = p - origin;
                lines
                    .last_mut()
                    .expect("a line")
                    .push([rel.dot(e1), rel.dot(e2)]);
            } else {
                all = false;
                if !lines.last().expect("a line").is_empty() {
                    lines.push(Vec::new());
                }
            }
        }
        if all {
            let first = lines[0][0];
            lines[0].push(first);
        } else if lines.len() > 1 && !lines[0].is_empty() {
            // The run through angle 0 continues the last one.
            let head = lines.remove(0);
            lines.last_mut().expect("a line").extend(head);
        }
        lines.retain(|l| l.len() > 1);
        lines
    }

    fn curved(&self) -> bool {
        true
    }

    fn turning_end(&self) -> Option<bool> {
        Some(self.opening.dot(self.axis) > 0.0)
    }

    fn describe(&self) -> String {
        format!(
            "cone of half angle {}\u{b0} from {:+.6}",
            (self.half_angle.to_degrees() * 1e6).round() / 1e6,
            self.apex.dot(self.axis)
        )
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
