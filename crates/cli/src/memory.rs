//! A guard against allocations larger than the machine: sizes are refused before allocating.

/// The memory this machine has available now, in bytes, where the system tells it (Linux's
/// /proc/meminfo).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses a Hex transposition table of `tt_mb` MiB that the available memory cannot hold. The
/// table grows to that size and keeps the slots it grows from until it has copied them, so its
/// last growth needs half as much again.
pub fn ensure_table_fits(tt_mb: usize) -> anyhow::Result<()> {
    ensure_fits(
        &format!(
            "a {tt_mb} MiB transposition table (with the {} MiB it grows from)",
            tt_mb / 2
        ),
        (tt_mb as u128 * 3 / 2) << 20,
        |available| format!("--tt-mb {} fits", ((available / 3 * 2) >> 20).max(1)),
    )
}

/// Fails with a clear message if `bytes` for `what` exceed the memory available; `fits` says,
/// from the bytes available, the largest request that would fit (e.g. "--max 2^28 fits").
pub fn ensure_fits(
    what: &str,
    bytes: u128,
    fits: impl FnOnce(u64) -> String,
) -> anyhow::Result<()> {
    if let Some(available) = available_memory() {
        if bytes > u128::from(available) {
            anyhow::bail!(
                "{what} needs about {} MiB of memory but only {} MiB is available; {}",
                bytes >> 20,
                available >> 20,
                fits(available)
            );
        }
    }
    Ok(())
}
