//! The cache directory stays bounded: a size limit kept by removing the
//! least recently used tables, and the temporary files of killed writers
//! removed when the cache is opened.

use std::fs;
use std::path::PathBuf;

use twistor_core::store::{PayloadLen, TableKey, TableStore};
use twistor_store::{DirStore, HEADER_LEN};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("twistor-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn tables_in(dir: &PathBuf) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tbl"))
        .map(|e| {
            let len = e.metadata().unwrap().len();
            (e.file_name().to_string_lossy().into_owned(), len)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_cache_stays_under_its_limit_least_recently_used_first() {
    let dir = fresh_dir("cache-limit");
    const PAYLOAD: usize = 64 << 10;
    let file = (HEADER_LEN + PAYLOAD) as u64;
    let store = DirStore::new(&dir).with_limit(3 * file);
    let save = |i: u64| {
        let key = TableKey::new("table", i);
        store
            .save(&key, &[], PAYLOAD as u64, &mut |w| {
                w.write_all(&vec![i as u8; PAYLOAD])
            })
            .unwrap();
    };
    for i in 0..3 {
        save(i);
        // Modification times have a coarse grain on some file systems.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(tables_in(&dir).len(), 3);
    // Table 0 is used again: table 1 is now the least recently used.
    let used = store
        .load(
            &TableKey::new("table", 0),
            PayloadLen::Exactly(PAYLOAD as u64),
        )
        .unwrap()
        .expect("table 0 is cached");
    assert_eq!(used.bytes[0], 0);
    std::thread::sleep(std::time::Duration::from_millis(20));
    save(3);
    let names: Vec<String> = tables_in(&dir).into_iter().map(|t| t.0).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("0000000000000000.tbl")),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.ends_with("0000000000000001.tbl")),
        "{names:?}"
    );
    // Fifty more: never above the limit.
    for i in 4..54 {
        save(i);
        let total: u64 = tables_in(&dir).iter().map(|t| t.1).sum();
        assert!(total <= 3 * file, "{total} bytes after table {i}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stale_temporary_file_is_removed_at_start() {
    let dir = fresh_dir("cache-stale");
    // pid_max is at most 2^22 on Linux: no process has this id.
    let stale = dir.join(".table-0000000000000007.tbl.tmp4000000000");
    let ours = dir.join(format!(
        ".table-0000000000000008.tbl.tmp{}",
        std::process::id()
    ));
    let foreign = dir.join("notes.tmp12");
    for f in [&stale, &ours, &foreign] {
        fs::write(f, b"half a table").unwrap();
    }
    let removed = DirStore::new(&dir).remove_stale_temporaries();
    assert_eq!(removed, 1);
    assert!(!stale.exists());
    assert!(ours.exists(), "a live writer's file stays");
    assert!(foreign.exists(), "a file that is not a table's stays");
    fs::remove_dir_all(&dir).unwrap();
}
