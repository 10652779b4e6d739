//! The tests of `notation`.

use super::*;

#[test]
fn renames_megaminx_faces() {
    let internal = [
        "U", "F", "L", "BL", "BR", "R", "C", "A", "I", "BF", "E", "D",
    ];
    assert_eq!(
        rename("DR", DODECAHEDRON_NAMES, &internal).as_deref(),
        Some("E")
    );
    assert_eq!(
        rename("Bv", DODECAHEDRON_NAMES, &internal).as_deref(),
        Some("BFv")
    );
    assert_eq!(
        rename("dl", DODECAHEDRON_NAMES, &internal).as_deref(),
        Some("i")
    );
    assert_eq!(
        rename("BL", DODECAHEDRON_NAMES, &internal).as_deref(),
        Some("BL")
    );
    assert_eq!(rename("X", DODECAHEDRON_NAMES, &internal), None);
}
