//! A guard against allocations larger than the machine: sizes are refused before allocating.

/// The machine's total memory in bytes, where the system tells it (Linux's /proc/meminfo).
fn total_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Fails with a clear message if `bytes` for `what` exceed the machine's memory.
pub fn ensure_fits(bytes: u64, what: &str) -> anyhow::Result<()> {
    if let Some(total) = total_memory() {
        if bytes > total {
            anyhow::bail!(
                "{what} needs {} MiB but this machine has {} MiB of memory",
                bytes >> 20,
                total >> 20
            );
        }
    }
    Ok(())
}
