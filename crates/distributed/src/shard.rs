//! One worker's part of the index: three bit arrays and their checkpoint.

use twistor_search::gods::{CheckpointChecksum, NeighbourCursor};

use crate::DistributedError;

/// The positions of `lo..hi` a worker owns: seen (at any depth so far),
/// frontier (the depth being expanded) and next (found this depth).
pub(crate) struct Shard {
    pub lo: u64,
    pub hi: u64,
    pub seen: Vec<u64>,
    pub frontier: Vec<u64>,
    pub next: Vec<u64>,
    /// Positions marked new since the depth began.
    pub found: u64,
    /// The depth being computed, counted from 0 in this run: the time of
    /// the marks that belong to it.
    pub epoch: u64,
    /// Marks of the next depth, sent by a worker that is already there,
    /// held until this one is.
    pub early: Vec<u64>,
}

const MAGIC: &str = "twistor-shard 1";

/// What a checkpoint file says besides its bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ShardHeader {
    pub fingerprint: u64,
    pub shard: usize,
    pub shards: usize,
    pub size: u64,
    pub counts: Vec<u64>,
}

impl Shard {
    pub fn new(lo: u64, hi: u64) -> Shard {
        let words = (hi - lo).div_ceil(64) as usize;
        Shard {
            lo,
            hi,
            seen: vec![0; words],
            frontier: vec![0; words],
            next: vec![0; words],
            found: 0,
            epoch: 0,
            early: Vec::new(),
        }
    }

    /// Bytes a shard of `len` positions takes.
    pub fn bytes(len: u64) -> u64 {
        len.div_ceil(64) * 8 * 3
    }

    pub fn owns(&self, y: u64) -> bool {
        (self.lo..self.hi).contains(&y)
    }

    /// Marks `y` (which this shard owns) found at this depth unless seen.
    #[inline]
    pub fn mark(&mut self, y: u64) {
        let o = y - self.lo;
        let (w, b) = ((o >> 6) as usize, 1u64 << (o & 63));
        if self.seen[w] & b == 0 {
            self.seen[w] |= b;
            self.next[w] |= b;
            self.found += 1;
        }
    }

    /// Whether `y` (which this shard owns) is in the frontier.
    #[inline]
    pub fn in_frontier(&self, y: u64) -> bool {
        let o = y - self.lo;
        self.frontier[(o >> 6) as usize] & (1 << (o & 63)) != 0
    }

    /// Expands the frontier positions of the words `range`: marks the
    /// neighbours this shard owns, and adds the others to `remote`, by
    /// owner, as offsets in the owner's shard (shards of `shard_len`).
    pub fn expand(
        &mut self,
        range: std::ops::Range<usize>,
        cursor: &mut NeighbourCursor<'_>,
        neighbours: &mut [u64],
        shard_len: u64,
        remote: &mut [Vec<u32>],
    ) {
        for wi in range {
            let mut f = self.frontier[wi];
            while f != 0 {
                let x = self.lo + wi as u64 * 64 + f.trailing_zeros() as u64;
                f &= f - 1;
                cursor.neighbours(x, neighbours);
                for &y in neighbours.iter() {
                    if self.owns(y) {
                        self.mark(y);
                    } else {
                        let owner = y / shard_len;
                        remote[owner as usize].push((y - owner * shard_len) as u32);
                    }
                }
            }
        }
    }

    /// Looks for a frontier neighbour of each unseen position of the
    /// words `range`: one this shard owns marks it at once; otherwise
    /// each neighbour another shard owns becomes a question `(y, x)` in
    /// `questions` (the moves are closed under inverses, so `x` is a
    /// neighbour of `y`).
    pub fn look_back(
        &mut self,
        range: std::ops::Range<usize>,
        cursor: &mut NeighbourCursor<'_>,
        neighbours: &mut [u64],
        questions: &mut Vec<(u64, u64)>,
    ) {
        let len = self.hi - self.lo;
        for wi in range {
            let valid = match len - wi as u64 * 64 {
                n if n >= 64 => !0,
                n => (1u64 << n) - 1,
            };
            let mut u = !self.seen[wi] & valid;
            while u != 0 {
                let x = self.lo + wi as u64 * 64 + u.trailing_zeros() as u64;
                u &= u - 1;
                cursor.neighbours(x, neighbours);
                let start = questions.len();
                let mut near = false;
                for &y in neighbours.iter() {
                    if self.owns(y) {
                        if self.in_frontier(y) {
                            near = true;
                            break;
                        }
                    } else {
                        questions.push((y, x));
                    }
                }
                if near {
                    questions.truncate(start);
                    self.mark(x);
                }
            }
        }
    }

    /// Makes `y` (which this shard owns) the only position seen, and the frontier.
    pub fn start_at(&mut self, y: u64) {
        let o = y - self.lo;
        self.seen[(o >> 6) as usize] |= 1 << (o & 63);
        self.frontier[(o >> 6) as usize] |= 1 << (o & 63);
    }

    /// Marks positions another worker sent at `time`.
    pub fn receive(&mut self, time: u64, ys: impl Iterator<Item = u64>) {
        if time == self.epoch {
            for y in ys {
                self.mark(y);
            }
        } else {
            // The sender has finished this depth's count and moved on; this
            // worker has not yet (`time` is `epoch + 1`).
            self.early.extend(ys);
        }
    }

    /// Makes the positions found this depth the frontier.
    pub fn advance(&mut self) {
        std::mem::swap(&mut self.frontier, &mut self.next);
        self.next.fill(0);
        self.found = 0;
        self.epoch += 1;
        for y in std::mem::take(&mut self.early) {
            self.mark(y);
        }
    }

    /// The checkpoint of this shard after a depth: header text, then the
    /// seen and frontier words and a checksum, little-endian.
    pub fn encode(&self, header: &ShardHeader) -> Vec<u8> {
        let counts: Vec<String> = header.counts.iter().map(u64::to_string).collect();
        let text = format!(
            "{MAGIC}\nfingerprint {:016x}\nshard {} of {}\nsize {}\nrange {} {}\ncounts {}\nend\n",
            header.fingerprint,
            header.shard,
            header.shards,
            header.size,
            self.lo,
            self.hi,
            counts.join(" ")
        );
        let mut out = Vec::with_capacity(text.len() + (self.seen.len() * 2 + 1) * 8);
        out.extend_from_slice(text.as_bytes());
        let mut sum = CheckpointChecksum::new(&text);
        // Marks of the next depth that arrived early are in `next` (and in
        // `seen`); they are not part of this depth's state.
        let seen = self.seen.iter().zip(&self.next).map(|(s, n)| s & !n);
        for w in seen.chain(self.frontier.iter().copied()) {
            sum.word(w);
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&sum.value().to_le_bytes());
        out
    }

    /// Reads a checkpoint written by [`Shard::encode`] for the shard
    /// `lo..hi` of a run described by `expected` (whose counts are ignored);
    /// returns the shard and the counts it saved.
    pub fn decode(
        bytes: &[u8],
        lo: u64,
        hi: u64,
        expected: &ShardHeader,
    ) -> Result<(Shard, Vec<u64>), DistributedError> {
        let bad = |why: &str| DistributedError::BadCheckpoint {
            shard: expected.shard,
            why: why.to_string(),
        };
        let end = find(bytes, b"\nend\n").ok_or_else(|| bad("no header"))? + 5;
        let text = std::str::from_utf8(&bytes[..end]).map_err(|_| bad("a header not in UTF-8"))?;
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(bad("not a twistor shard checkpoint"));
        }
        let mut field = |name: &str| -> Result<String, DistributedError> {
            let line = lines.next().unwrap_or_default();
            line.strip_prefix(name)
                .and_then(|r| r.strip_prefix(' '))
                .map(str::to_string)
                .ok_or_else(|| bad(&format!("expected `{name}`, found `{line}`")))
        };
        let fingerprint = u64::from_str_radix(&field("fingerprint")?, 16)
            .map_err(|_| bad("a bad fingerprint"))?;
        let shard_line = field("shard")?;
        let size: u64 = field("size")?.parse().map_err(|_| bad("a bad size"))?;
        let range = field("range")?;
        let counts: Vec<u64> = field("counts")?
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad("bad counts"))?;
        let want_shard = format!("{} of {}", expected.shard, expected.shards);
        if fingerprint != expected.fingerprint || size != expected.size {
            return Err(bad("it belongs to another puzzle or move set"));
        }
        if shard_line != want_shard || range != format!("{lo} {hi}") {
            return Err(bad(&format!(
                "it is shard {shard_line}, this run needs shard {want_shard}"
            )));
        }
        if counts.is_empty() {
            return Err(bad("no counts"));
        }
        let mut shard = Shard::new(lo, hi);
        let words = shard.seen.len();
        let body = &bytes[end..];
        if body.len() != (2 * words + 1) * 8 {
            return Err(bad("it is truncated"));
        }
        let mut sum = CheckpointChecksum::new(&text[..end]);
        let mut it = body
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()));
        for w in shard.seen.iter_mut().chain(shard.frontier.iter_mut()) {
            *w = it.next().unwrap_or_default();
            sum.word(*w);
        }
        if it.next() != Some(sum.value()) {
            return Err(bad("its checksum does not match"));
        }
        Ok((shard, counts))
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> ShardHeader {
        ShardHeader {
            fingerprint: 0xfeed,
            shard: 1,
            shards: 3,
            size: 1000,
            counts: vec![1, 6, 27],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_and_damage_is_caught() {
        let mut s = Shard::new(320, 640);
        s.start_at(321);
        s.mark(639);
        s.advance();
        s.mark(400);
        let bytes = s.encode(&header());
        let (t, counts) = Shard::decode(&bytes, 320, 640, &header()).unwrap();
        assert_eq!(counts, vec![1, 6, 27]);
        // 400 was found at the next depth, which the checkpoint is not of.
        let mut seen_before = s.seen.clone();
        seen_before[(400 - 320) / 64] &= !(1 << ((400 - 320) % 64));
        assert_ne!(seen_before, s.seen);
        assert_eq!((t.seen, t.frontier), (seen_before, s.frontier.clone()));
        // A flipped bit, a short file, another shard's range: refused.
        let mut flipped = bytes.clone();
        let n = flipped.len();
        flipped[n - 20] ^= 4;
        assert!(Shard::decode(&flipped, 320, 640, &header()).is_err());
        assert!(Shard::decode(&bytes[..n - 3], 320, 640, &header()).is_err());
        assert!(Shard::decode(&bytes, 0, 320, &header()).is_err());
        assert!(Shard::decode(b"garbage", 320, 640, &header()).is_err());
    }
}
