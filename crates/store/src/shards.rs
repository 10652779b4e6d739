//! The sharded engine's checkpoints in a directory: one file a shard and
//! depth (`shard-3-of-4.depth-7`), each written under a temporary name,
//! flushed and renamed into place, so a killed process leaves whole files.

use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use twistor_distributed::ShardStore;

/// Shard checkpoints kept in a directory (created when first written).
#[derive(Clone, Debug)]
pub struct DirShardStore {
    dir: PathBuf,
}

impl DirShardStore {
    /// Checkpoints kept in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> DirShardStore {
        DirShardStore { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Removes the temporary shard files killed processes left (see
    /// [`crate::remove_stale_temporaries`]); returns how many.
    pub fn remove_stale_temporaries(&self) -> usize {
        crate::remove_stale_temporaries(&self.dir, |written| written.starts_with("shard-"))
    }

    fn prefix(shard: usize, shards: usize) -> String {
        format!("shard-{shard}-of-{shards}.depth-")
    }

    fn path(&self, shard: usize, shards: usize, depth: usize) -> PathBuf {
        self.dir
            .join(format!("{}{depth}", Self::prefix(shard, shards)))
    }
}

fn named(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

impl ShardStore for DirShardStore {
    fn save(&self, shard: usize, shards: usize, depth: usize, bytes: &[u8]) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir).map_err(|e| named(&self.dir, e))?;
        let path = self.path(shard, shards, depth);
        let temp = path.with_extension(format!("tmp{}", std::process::id()));
        crate::write_atomically(
            &path,
            &temp,
            |out| out.write_all(bytes).map_err(|e| named(&temp, e)),
            named,
        )
    }

    fn load(&self, shard: usize, shards: usize, depth: usize) -> std::io::Result<Option<Vec<u8>>> {
        let path = self.path(shard, shards, depth);
        match fs::read(&path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(named(&path, e)),
        }
    }

    fn depths(&self, shard: usize, shards: usize) -> std::io::Result<Vec<usize>> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(named(&self.dir, e)),
        };
        let prefix = Self::prefix(shard, shards);
        let mut depths = Vec::new();
        for entry in entries {
            let name = entry.map_err(|e| named(&self.dir, e))?.file_name();
            if let Some(d) = name
                .to_str()
                .and_then(|n| n.strip_prefix(&prefix))
                .and_then(|d| d.parse().ok())
            {
                depths.push(d);
            }
        }
        depths.sort_unstable();
        Ok(depths)
    }

    fn remove(&self, shard: usize, shards: usize, depth: usize) -> std::io::Result<()> {
        let path = self.path(shard, shards, depth);
        match fs::remove_file(&path) {
            Err(e) if e.kind() != ErrorKind::NotFound => Err(named(&path, e)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_kept_apart_by_shard_count_and_depth() {
        let dir = std::env::temp_dir().join(format!("twistor-shards-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let s = DirShardStore::new(&dir);
        assert_eq!(s.depths(0, 2).unwrap(), Vec::<usize>::new());
        s.save(0, 2, 3, b"three").unwrap();
        s.save(0, 2, 10, b"ten").unwrap();
        s.save(1, 2, 3, b"other shard").unwrap();
        s.save(0, 3, 4, b"other run").unwrap();
        assert_eq!(s.depths(0, 2).unwrap(), vec![3, 10]);
        assert_eq!(s.load(0, 2, 10).unwrap().as_deref(), Some(&b"ten"[..]));
        s.remove(0, 2, 3).unwrap();
        s.remove(0, 2, 3).unwrap();
        assert_eq!(s.depths(0, 2).unwrap(), vec![10]);
        assert_eq!(s.load(0, 2, 3).unwrap(), None);
        let _ = fs::remove_dir_all(&dir);
    }
}
