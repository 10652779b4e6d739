//! A run's checkpoints: the counts so far and every index's code, saved
//! between levels and read back to resume.

use super::*;

/// The state of a run between levels, as checkpoints hold it.
pub(super) struct Progress {
    pub(super) counts: Vec<u64>,
    pub(super) local: Vec<u64>,
    pub(super) strong: Vec<u64>,
}

pub(super) const ENGINE: &str = "bits";

pub(super) fn save(
    ctx: &mut Context<'_, '_>,
    p: &Progress,
    mem: &[AtomicU64],
    size: u64,
) -> Result<(), GodsError> {
    let depth = p.counts.len() - 1;
    let header = ctx.checkpoint_header(&format!("{ENGINE} index={size}"), depth);
    let Some(store) = ctx.checkpoint.as_deref_mut() else {
        return Ok(());
    };
    let head = [
        p.counts.len() as u64,
        p.local.len() as u64,
        mem.len() as u64,
    ];
    let mut payload = head
        .into_iter()
        .chain(p.counts.iter().copied())
        .chain(p.local.iter().copied())
        .chain(p.strong.iter().copied())
        .chain(mem.iter().map(|a| a.load(Relaxed)));
    store.save(&header, &mut payload)?;
    ctx.emit(GodsEvent::CheckpointSaved { depth });
    Ok(())
}

pub(super) fn load(
    ctx: &mut Context<'_, '_>,
    size: u64,
) -> Result<(Progress, Vec<AtomicU64>), GodsError> {
    let (header, payload) = ctx.load_checkpoint(&format!("{ENGINE} index={size}"))?;
    let bad = || GodsError::Checkpoint(CheckpointError::Inconsistent);
    let mut it = payload.into_iter();
    let mut next = || it.next().ok_or_else(bad);
    let (nc, nl, nw) = (next()? as usize, next()? as usize, next()? as usize);
    if nc == 0 || nc != header.depth + 1 || nl > nc || nw as u64 != size.div_ceil(32) {
        return Err(bad());
    }
    let mut read = |n: usize| (0..n).map(|_| next()).collect::<Result<Vec<u64>, _>>();
    let counts = read(nc)?;
    let local = read(nl)?;
    let strong = read(nl)?;
    let words = read(nw)?;
    let mem = words.into_iter().map(AtomicU64::new).collect();
    ctx.emit(GodsEvent::Resumed { depth: nc - 1 });
    Ok((
        Progress {
            counts,
            local,
            strong,
        },
        mem,
    ))
}
