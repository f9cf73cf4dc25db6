//! Entries of atomic words that threads read and write consistently without locks: the
//! transposition table's and the analysis caches'.
//!
//! Word 0 of an entry is its sequence number: a writer makes it odd while it writes and even
//! again afterwards, and a reader accepts what it read only if the number was even and
//! unchanged around its reads, so a torn read (half of one entry, half of another) is
//! discarded. A writer that finds an entry being written skips its store, so no thread ever
//! waits. The fences follow the seqlock of Boehm, "Can seqlocks get along with programming
//! language memory models?" (2012): the data words are relaxed atomics, ordered by an acquire
//! fence before the reader's second look at the number and a release fence after the
//! writer's first store to it.

use std::sync::atomic::{fence, AtomicU64, Ordering};

/// Reads every word of `entry` consistently (word 0 is its even sequence number); `None` if it
/// is being written or was changed meanwhile.
#[inline(always)]
pub(crate) fn read<const N: usize>(entry: &[AtomicU64; N]) -> Option<[u64; N]> {
    let s1 = entry[0].load(Ordering::Acquire);
    if s1 & 1 == 1 {
        return None;
    }
    let mut words = [0; N];
    words[0] = s1;
    for (w, a) in words.iter_mut().zip(entry).skip(1) {
        *w = a.load(Ordering::Relaxed);
    }
    fence(Ordering::Acquire);
    (entry[0].load(Ordering::Relaxed) == s1).then_some(words)
}

/// Writes `words[1..]` into `entry`, unless another thread is writing it (then nothing).
/// `words[0]` is ignored: the sequence number is the entry's own.
#[inline(always)]
pub(crate) fn write<const N: usize>(entry: &[AtomicU64; N], words: &[u64; N]) {
    let s = entry[0].load(Ordering::Relaxed);
    if s & 1 == 1
        || entry[0]
            .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
    {
        return;
    }
    fence(Ordering::Release);
    for (a, w) in entry.iter().zip(words).skip(1) {
        a.store(*w, Ordering::Relaxed);
    }
    entry[0].store(s + 2, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two writers and a reader on one entry: every read that succeeds while they write holds
    /// one writer's words, never a mix, and once they are done a read succeeds and holds one
    /// writer's words. (How many reads succeed meanwhile depends on the scheduler: on a busy
    /// machine every one may meet a write.)
    #[test]
    fn reads_are_never_torn() {
        use std::sync::atomic::AtomicUsize;
        let entry: [AtomicU64; 8] = Default::default();
        let writing = AtomicUsize::new(2);
        // One writer's words (or the zeroed entry no writer has written yet).
        let consistent = |words: &[u64; 8]| {
            words[0] % 2 == 0
                && words[1..].iter().all(|&w| w == words[1])
                && (words[1] == 0 || matches!(words[1] >> 32, 1 | 2))
        };
        std::thread::scope(|s| {
            for w in [1u64, 2] {
                let (entry, writing) = (&entry, &writing);
                s.spawn(move || {
                    for i in 0..1_000_000u64 {
                        let v = w << 32 | i;
                        write(entry, &[0, v, v, v, v, v, v, v]);
                    }
                    writing.fetch_sub(1, Ordering::Release);
                });
            }
            while writing.load(Ordering::Acquire) > 0 {
                if let Some(words) = read(&entry) {
                    assert!(consistent(&words), "{words:?}");
                }
            }
        });
        let last = read(&entry).expect("no writer is left");
        assert!(consistent(&last) && last[1] != 0, "{last:?}");
    }
}
