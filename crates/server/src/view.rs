//! What the page's 3D view draws: `POST /api/geometry` gives a puzzle
//! built from geometry as stickers in space (polygon, the face colour it
//! starts with, its slice on every axis) and its axes; `/api/apply` then
//! gives each position as one colour a sticker ([`colors`]) and each move
//! as the slices it turns and by what angle ([`turns`]). The page needs
//! nothing else to draw any position and animate any move, and computes
//! no puzzle of its own.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use twistor_core::Pattern;
use twistor_formats::alg::{Alg, AlgNode};
use twistor_formats::resolve::move_word;
use twistor_geometry::svg::{draw, face_colors, sticker_faces, SvgOptions};
use twistor_geometry::view::turn_parts;
use twistor_geometry::{GeneratedPuzzle, Vec3};
use twistor_tools::picture::Drawing;

use crate::api::{blocking, ApiError, JsonBody};
use crate::puzzles::PuzzleRef;
use crate::AppState;

/// Moves of an alg whose turns `/api/apply` gives; past them the page
/// shows each position without animating the move (a long alg is
/// scrubbed, not watched).
const TURNS_LIMIT: usize = 2000;

/// `POST /api/geometry`.
#[derive(Deserialize)]
pub struct GeometryRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
}

/// `POST /api/geometry`: `{"kind": "3d", ...}` for a puzzle built from
/// geometry (see the README), `{"kind": "flat"}` for one drawn in 2D only
/// (the clock, the Square-1, loopover: the SVG of `/api/apply`),
/// `{"kind": "none"}` for an uploaded definition (whose SVG is the diagram
/// of its orbits).
pub async fn geometry(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<GeometryRequest>,
) -> Result<Json<Value>, ApiError> {
    blocking(Arc::clone(&state.quick), move || {
        let loaded = state.puzzles.load(&r.puzzle, state.options.memory_bytes)?;
        Ok(Json(match &loaded.drawing {
            Some(Drawing::Net(g)) => solid(&loaded.name, g),
            Some(Drawing::Model(..)) => json!({ "kind": "flat", "name": loaded.name }),
            None => json!({ "kind": "none", "name": loaded.name }),
        }))
    })
    .await
}

/// Rounded for the wire: a sticker a thousand times smaller than the
/// puzzle is still placed to a thousandth of its size.
fn coord(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn point(p: Vec3) -> Value {
    json!([coord(p.x), coord(p.y), coord(p.z)])
}

fn solid(name: &str, g: &GeneratedPuzzle) -> Value {
    let geometry = g.geometry();
    let faces = geometry.solid().faces();
    let colors = face_colors(g);
    // The net's sticker names, so that a sticker is the same in both views.
    let ids: Vec<String> = draw(g, g.puzzle().start(), &SvgOptions::default())
        .into_iter()
        .map(|s| s.id)
        .collect();
    let stickers: Vec<Value> = (geometry.stickers().iter().enumerate())
        .map(|(i, st)| {
            json!({
                "id": ids.get(i),
                "face": st.face,
                "points": st.polygon.iter().map(|&p| point(p)).collect::<Vec<_>>(),
                "slices": &*geometry.cubies()[st.cubie].slices,
            })
        })
        .collect();
    let axes: Vec<Value> = (geometry.axes().iter())
        .map(|a| json!({ "name": a.pos_name(), "normal": point(a.normal()), "order": a.order() }))
        .collect();
    json!({
        "kind": "3d",
        "name": name,
        "faces": faces.iter().zip(&colors).map(|(f, c)| json!({ "name": f.name, "color": c })).collect::<Vec<_>>(),
        "stickers": stickers,
        "axes": axes,
    })
}

/// The face whose colour each sticker shows in `pattern` (a pattern of
/// the drawing's puzzle), `null` for an untracked piece; `None` for a
/// drawing that is not built from geometry.
pub fn colors(drawing: &Drawing, pattern: &Pattern) -> Option<Value> {
    let Drawing::Net(g) = drawing else {
        return None;
    };
    Some(json!(sticker_faces(g, pattern)))
}

/// Each step's turns: a list of `{"axis", "slices", "angle"}` turned at
/// once, or `null` where a move turns about two axes (then the page
/// shows the next position without animating); `None` for a drawing not
/// built from geometry or an alg of more than [`TURNS_LIMIT`] moves.
pub fn turns(drawing: &Drawing, steps: &[Alg]) -> Option<Value> {
    let Drawing::Net(g) = drawing else {
        return None;
    };
    if steps.len() > TURNS_LIMIT {
        return None;
    }
    let one = |step: &Alg| -> Value {
        let [AlgNode::Move(m)] = step.nodes() else {
            return Value::Null;
        };
        let Some((word, times)) = move_word(g.puzzle(), m) else {
            return Value::Null;
        };
        match turn_parts(g, &word, times) {
            Some(parts) => parts
                .iter()
                .map(|p| json!({ "axis": p.axis, "slices": p.slices, "angle": coord(p.angle(g)) }))
                .collect(),
            None => Value::Null,
        }
    };
    Some(steps.iter().map(one).collect())
}
