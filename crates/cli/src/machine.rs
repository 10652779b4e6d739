//! What the machine has: the memory free for a solver's tables when the
//! user gives no `-M`.

/// The most memory this process has held so far (Linux's `VmHWM`), in
/// bytes, if known.
pub fn peak_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_kib_field(&text, "VmHWM:")
}

/// This process's resident memory now (Linux's `VmRSS`), in bytes; 0
/// where unknown.
pub fn resident_memory() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|text| parse_kib_field(&text, "VmRSS:"))
        .unwrap_or(0)
}

/// The bytes work known to the byte (God's algorithm's arrays, a fixed
/// table) may take under `-M` (MiB) for the whole process, beside what
/// is resident now (see [`twistor_tools::budget::for_tables`]).
pub fn exact_memory(limit_mib: u64) -> u64 {
    twistor_tools::budget::for_tables(
        limit_mib.saturating_mul(1 << 20),
        resident_memory(),
        twistor_tools::budget::EXACT_RESERVE,
    )
}

/// Bytes of memory available (Linux's `MemAvailable`), if known.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

/// `MemAvailable` from the text of `/proc/meminfo`, in bytes.
fn parse_mem_available(meminfo: &str) -> Option<u64> {
    parse_kib_field(meminfo, "MemAvailable:")
}

/// A `NAME: N kB` line's value in bytes.
fn parse_kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => kib.checked_mul(1024),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_is_read_in_bytes() {
        let text =
            "MemTotal:       24570000 kB\nMemFree:         1000 kB\nMemAvailable:   20480000 kB\n";
        assert_eq!(parse_mem_available(text), Some(20_480_000 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: lots\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: 12 MB\n"), None);
        let status = "Name:\ttwistor\nVmPeak:\t  900 kB\nVmHWM:\t    512 kB\n";
        assert_eq!(parse_kib_field(status, "VmHWM:"), Some(512 * 1024));
    }
}
