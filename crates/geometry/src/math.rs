//! Vectors and rotation quaternions: the little linear algebra the geometry
//! needs, in one place so the tolerances live in one place too.

use std::ops::{Add, Mul, Neg, Sub};

/// Distances below this are treated as zero when deciding which side of a
/// plane a point lies on or whether two directions coincide.
pub(crate) const EPS: f64 = 1e-9;

/// Looser tolerance for matching points computed along different paths
/// (rotated copies, rebuilt intersections).
pub(crate) const MATCH_EPS: f64 = 1e-6;

/// A point or direction in space.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Vec3 {
    /// x coordinate.
    pub x: f64,
    /// y coordinate.
    pub y: f64,
    /// z coordinate.
    pub z: f64,
}

impl Vec3 {
    /// The vector (x, y, z).
    pub const fn new(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3 { x, y, z }
    }

    /// Dot product.
    pub fn dot(self, o: Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product.
    pub fn cross(self, o: Vec3) -> Vec3 {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Euclidean length.
    pub fn norm(self) -> f64 {
        self.dot(self).sqrt()
    }

    /// The unit vector in the same direction (the zero vector stays zero).
    pub fn normalized(self) -> Vec3 {
        let n = self.norm();
        if n == 0.0 {
            self
        } else {
            self * (1.0 / n)
        }
    }

    /// Distance to another point.
    pub fn dist(self, o: Vec3) -> f64 {
        (self - o).norm()
    }

    /// Whether two points coincide within `tol`.
    pub(crate) fn near(self, o: Vec3, tol: f64) -> bool {
        self.dist(o) < tol
    }

    /// Some unit vector perpendicular to this one.
    pub(crate) fn perpendicular(self) -> Vec3 {
        let a = Vec3::new(self.x.abs(), self.y.abs(), self.z.abs());
        let axis = if a.x <= a.y && a.x <= a.z {
            Vec3::new(1.0, 0.0, 0.0)
        } else if a.y <= a.z {
            Vec3::new(0.0, 1.0, 0.0)
        } else {
            Vec3::new(0.0, 0.0, 1.0)
        };
        self.cross(axis).normalized()
    }

    /// The average of some points.
    pub(crate) fn mean(points: &[Vec3]) -> Vec3 {
        let mut s = Vec3::default();
        for &p in points {
            s = s + p;
        }
        s * (1.0 / points.len().max(1) as f64)
    }
}

impl Mul for Quat {
    type Output = Quat;
    /// The Hamilton product `self * o`: rotate by `o`, then by `self`.
    fn mul(self, o: Quat) -> Quat {
        Quat {
            w: self.w * o.w - self.v.dot(o.v),
            v: o.v * self.w + self.v * o.w + self.v.cross(o.v),
        }
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f64) -> Vec3 {
        Vec3::new(self.x * k, self.y * k, self.z * k)
    }
}

impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}

/// A unit quaternion `w + xi + yj + zk` standing for a rotation; `q` and
/// `-q` are the same rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quat {
    /// Real part: cos(angle / 2).
    pub w: f64,
    /// Vector part: sin(angle / 2) times the unit axis.
    pub v: Vec3,
}

impl Quat {
    /// The identity rotation.
    pub const IDENTITY: Quat = Quat {
        w: 1.0,
        v: Vec3::new(0.0, 0.0, 0.0),
    };

    /// The quaternion with these four components.
    pub const fn new(w: f64, x: f64, y: f64, z: f64) -> Quat {
        Quat {
            w,
            v: Vec3::new(x, y, z),
        }
    }

    /// The rotation by `angle` radians about `axis`, counterclockwise when
    /// seen from the tip of `axis` (right-hand rule).
    pub fn about(axis: Vec3, angle: f64) -> Quat {
        let a = axis.normalized();
        let (s, c) = (angle / 2.0).sin_cos();
        Quat { w: c, v: a * s }
    }

    /// The inverse rotation.
    pub fn conj(self) -> Quat {
        Quat {
            w: self.w,
            v: -self.v,
        }
    }

    /// The point `p` rotated (`q p q*`).
    pub fn rotate(self, p: Vec3) -> Vec3 {
        let t = self.v.cross(p) * 2.0;
        p + t * self.w + self.v.cross(t)
    }

    /// Whether two quaternions are the same rotation (`q ≈ ±o`).
    pub(crate) fn same_rotation(self, o: Quat) -> bool {
        let d1 = (self.w - o.w).abs() + (self.v - o.v).norm();
        let d2 = (self.w + o.w).abs() + (self.v + o.v).norm();
        d1 < MATCH_EPS || d2 < MATCH_EPS
    }

    /// Whether this is the identity rotation.
    pub(crate) fn is_identity(self) -> bool {
        self.same_rotation(Quat::IDENTITY)
    }
}

/// The closure of a set of rotations under products, in breadth-first
/// discovery order: the identity, then `g * q` for each element `q` found
/// so far and each generator `g` in turn. The order matters: named
/// puzzles take their face numbering and axis directions from it.
pub(crate) fn closure(generators: &[Quat]) -> Vec<Quat> {
    let mut group = vec![Quat::IDENTITY];
    let mut i = 0;
    while i < group.len() {
        for g in generators {
            let q = *g * group[i];
            if !group.iter().any(|e| e.same_rotation(q)) {
                group.push(q);
                // Generators of a finite rotation group close quickly; this
                // bound only protects against bad input.
                if group.len() > 120 {
                    return group;
                }
            }
        }
        i += 1;
    }
    group
}

/// The circle through three points of a plane: centre and radius, or
/// `None` when they are in a line.
pub(crate) fn circumcircle(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Option<([f64; 2], f64)> {
    let d = 2.0 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]));
    if d.abs() < 1e-12 {
        return None;
    }
    let sq = |p: [f64; 2]| p[0] * p[0] + p[1] * p[1];
    let x = (sq(a) * (b[1] - c[1]) + sq(b) * (c[1] - a[1]) + sq(c) * (a[1] - b[1])) / d;
    let y = (sq(a) * (c[0] - b[0]) + sq(b) * (a[0] - c[0]) + sq(c) * (b[0] - a[0])) / d;
    Some(([x, y], (a[0] - x).hypot(a[1] - y)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_follows_the_right_hand_rule() {
        let q = Quat::about(Vec3::new(0.0, 0.0, 1.0), std::f64::consts::FRAC_PI_2);
        let p = q.rotate(Vec3::new(1.0, 0.0, 0.0));
        assert!(p.near(Vec3::new(0.0, 1.0, 0.0), 1e-12), "{p:?}");
    }

    #[test]
    fn product_rotates_right_factor_first() {
        let a = Quat::about(Vec3::new(0.0, 0.0, 1.0), 0.7);
        let b = Quat::about(Vec3::new(1.0, 2.0, 0.5), 1.3);
        let p = Vec3::new(0.3, -0.2, 0.9);
        let direct = a.rotate(b.rotate(p));
        assert!((a * b).rotate(p).near(direct, 1e-12));
        assert!((a * a.conj()).is_identity());
    }

    #[test]
    fn closure_sizes_are_the_rotation_group_orders() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let cube = closure(&[Quat::new(s, s, 0.0, 0.0), Quat::new(s, 0.0, s, 0.0)]);
        assert_eq!(cube.len(), 24);
        let tet = closure(&[
            Quat::new(0.5, 0.5, 0.5, 0.5),
            Quat::new(0.5, 0.5, 0.5, -0.5),
        ]);
        assert_eq!(tet.len(), 12);
    }
}
