//! God's-algorithm checkpoints in a file: what the search engine's
//! [`CheckpointStore`] asks for, on disk. The file is the header's text,
//! the words (8 bytes each, little-endian) and their checksum, replaced
//! atomically (a temporary file beside it, flushed, then renamed over it).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use twistor_search::gods::{
    CheckpointChecksum, CheckpointError, CheckpointHeader, CheckpointStore, GodsError,
};

/// Checkpoints in a file, replaced atomically.
#[derive(Clone, Debug)]
pub struct FileCheckpoint {
    path: PathBuf,
}

impl FileCheckpoint {
    /// Checkpoints kept at `path`.
    pub fn new(path: impl Into<PathBuf>) -> FileCheckpoint {
        FileCheckpoint { path: path.into() }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the temporary files of this checkpoint that killed
    /// processes left beside it (see [`crate::remove_stale_temporaries`]);
    /// returns how many.
    pub fn remove_stale_temporaries(&self) -> usize {
        let (Some(dir), Some(name)) = (self.path.parent(), self.path.file_name()) else {
            return 0;
        };
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        crate::remove_stale_temporaries(dir, |written| *written == *name)
    }

    fn temp_path(&self) -> PathBuf {
        let mut name = self
            .path
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(format!(".tmp{}", std::process::id()));
        self.path.with_file_name(name)
    }
}

fn io_error(path: &Path, source: std::io::Error) -> GodsError {
    GodsError::Checkpoint(CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    })
}

impl CheckpointStore for FileCheckpoint {
    fn save(
        &mut self,
        header: &CheckpointHeader,
        words: &mut dyn Iterator<Item = u64>,
    ) -> Result<(), GodsError> {
        let temp = self.temp_path();
        let text = header.to_text();
        let fill = |body: &mut BufWriter<File>| {
            let mut sum = CheckpointChecksum::new(&text);
            let mut write = |bytes: &[u8]| body.write_all(bytes).map_err(|e| io_error(&temp, e));
            write(text.as_bytes())?;
            for w in words {
                sum.word(w);
                write(&w.to_le_bytes())?;
            }
            write(&sum.value().to_le_bytes())
        };
        crate::write_atomically(&self.path, &temp, fill, io_error)
    }

    fn load(&mut self) -> Result<Option<(CheckpointHeader, Vec<u64>)>, GodsError> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error(&self.path, e)),
        };
        let path = &self.path;
        let corrupt = |what: &str| {
            GodsError::Checkpoint(CheckpointError::Corrupt {
                path: path.clone(),
                reason: what.to_string(),
            })
        };
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut text = String::new();
        let mut lines: Vec<String> = Vec::new();
        loop {
            let mut line = String::new();
            let n = (&mut r)
                .take(4096)
                .read_line(&mut line)
                .map_err(|e| io_error(path, e))?;
            if n == 0 || !line.ends_with('\n') {
                return Err(corrupt("the header is cut short"));
            }
            text.push_str(&line);
            let line = line.trim_end_matches('\n');
            if line == "end" {
                break;
            }
            lines.push(line.to_string());
            if lines.len() > 32 {
                return Err(corrupt("the header is too long"));
            }
        }
        let header = CheckpointHeader::from_lines(&lines).map_err(|e| corrupt(&e.to_string()))?;
        // The words fill the file between the header and the checksum.
        let len = std::fs::metadata(path)
            .map_err(|e| io_error(path, e))?
            .len();
        let body = len
            .checked_sub(8 + text.len() as u64)
            .filter(|b| b % 8 == 0)
            .ok_or_else(|| corrupt("its length does not fit its header"))?;
        let count = body / 8;
        let mut sum = CheckpointChecksum::new(&text);
        let mut words = Vec::new();
        words
            .try_reserve_exact(count as usize)
            .map_err(|_| corrupt("more words than memory holds"))?;
        let mut buf = [0u8; 8];
        for _ in 0..count {
            r.read_exact(&mut buf).map_err(|e| io_error(path, e))?;
            let w = u64::from_le_bytes(buf);
            sum.word(w);
            words.push(w);
        }
        r.read_exact(&mut buf).map_err(|e| io_error(path, e))?;
        if u64::from_le_bytes(buf) != sum.value() {
            return Err(corrupt("checksum mismatch"));
        }
        Ok(Some((header, words)))
    }
}
