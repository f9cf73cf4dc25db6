//! Two threads computing blocks of heaps together.
//!
//! Heap N reaches the heaps just below it through few options: the moves that leave one heap
//! N - k, and the splits (a, m - a) whose large heap m - a is near N, which have a small. So the
//! heaps of a block n..n + B are computed by both threads at once, from the table of the heaps
//! below n, which neither thread changes while they run:
//!
//! - the first thread takes heaps from the bottom of the block, in order, keeping their values
//!   in a tail of its own: each heap's options that involve the tail are taken from it (see
//!   [`Worker::compute`]), so these values are exact;
//! - the second takes heaps from the top, and computes for each heap N the smallest value v
//!   that no option of N made of the heaps below n has. Once every heap below N is known,
//!   G(N) = v unless one of the options left out (few: those that involve a heap n or above)
//!   has the value v, since adding options other than the mex of a set does not change its
//!   mex. In that case the first thread computes G(N) again from every option.
//!
//! The threads take heaps until they meet, so both finish a block at about the same time
//! however long its heaps take. They share the table behind a read-write lock: both read while
//! they compute, and the first thread alone appends the block's values, while the second waits
//! for the next block. How a heap is computed never changes its value.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};
use std::thread::{ScopedJoinHandle, Thread};
use std::time::{Duration, Instant};

use super::{check_heap, value, SparseEngine, Tables, Worker, SLICED_FIRST_CHECK};
use crate::GrundyError;

/// Below this table length sharing does not pay (the heaps are too quick).
const PARALLEL_FROM: usize = 1 << 12;

/// Heaps per block. The more, the less often the threads stop to append, and the more options
/// of the second thread's heaps are left out (each may force a heap to be computed again).
const BLOCK: usize = 64;

// The second thread leaves out splits (a, m - a) with a < BLOCK: the bit-sliced search, which
// starts at a = SLICED_FIRST_CHECK, must not reach them.
const _: () = assert!(BLOCK <= SLICED_FIRST_CHECK);

/// Heaps a thread takes at a time. One does best (measured against two and four on `0.6` and
/// `4!.0`): the threads finish a block closest together, and a take costs far less than a
/// heap.
const TAKE: usize = 1;

/// Heaps per round of the choice between computing alone and shared.
const ROUND: usize = 1024;

/// Rounds per period of that choice.
const PROBE_PERIOD: usize = 256;

/// Spins of a waiting thread before it parks: a block takes tens of microseconds, so the other
/// thread is usually about to answer, but on a busy machine it may not be running at all.
const SPINS: u32 = 1 << 14;

/// The longest park of a waiting thread.
const PARK: Duration = Duration::from_millis(10);

/// The job word that ends the second thread.
const STOP: u64 = u64::MAX;

/// How heaps are shared with the second thread, kept from one call to the next.
#[derive(Debug, Clone)]
pub(super) struct Sharing {
    /// Rounds computed so far by [`SparseEngine::extend_to_parallel`].
    round: usize,
    /// Seconds per heap of the last timed rounds computed alone and shared.
    seconds: [f64; 2],
    /// The second thread's working space, kept between calls.
    helper: Option<Box<Worker>>,
}

impl Sharing {
    pub(super) fn new() -> Self {
        Sharing {
            round: 0,
            seconds: [f64::INFINITY; 2],
            helper: None,
        }
    }
}

/// What the two threads pass each other.
struct Handoff {
    /// One more than the first heap of the block to compute, or [`STOP`].
    job: AtomicU64,
    /// The heaps of the block not taken yet, `low << 32 | high` (offsets in the block): the
    /// first thread takes from `low` up, the second from `high` down.
    left: AtomicU64,
    /// The job word of the block whose second-thread values are in `values`.
    done: AtomicU64,
    /// The values the second thread found, for the top heaps of the block, increasing.
    values: Mutex<Vec<u32>>,
}

impl Handoff {
    /// Takes up to [`TAKE`] heaps of the block, from the bottom or from the top; returns the
    /// range of offsets taken, empty once the block is all taken.
    fn take(&self, from_top: bool) -> std::ops::Range<usize> {
        let mut left = self.left.load(Ordering::Relaxed);
        loop {
            let (low, high) = (left >> 32, left & u64::from(u32::MAX));
            let count = (TAKE as u64).min(high - low);
            if count == 0 {
                return 0..0;
            }
            let (taken, rest) = if from_top {
                (high - count..high, low << 32 | (high - count))
            } else {
                (low..low + count, (low + count) << 32 | high)
            };
            match self
                .left
                .compare_exchange_weak(left, rest, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return taken.start as usize..taken.end as usize,
                Err(now) => left = now,
            }
        }
    }
}

impl SparseEngine {
    /// Computes values until G(max) is known, with a second thread computing the top heaps of
    /// each block (see `pair.rs`) when rayon's pool has two threads or more. The values are the
    /// same as [`SparseEngine::extend_to`]'s for any number of threads.
    ///
    /// ```
    /// use zermelo_grundy::{OctalGame, SparseEngine};
    /// let game: OctalGame = "0.6".parse().unwrap();
    /// let (mut a, mut b) = (SparseEngine::new(&game).unwrap(), SparseEngine::new(&game).unwrap());
    /// a.extend_to(70_000).unwrap();
    /// b.extend_to_parallel(70_000).unwrap();
    /// assert_eq!(a.values(), b.values());
    /// ```
    pub fn extend_to_parallel(&mut self, max: usize) -> Result<(), GrundyError> {
        self.extend_to_parallel_from(max, PARALLEL_FROM, false)
    }

    /// [`SparseEngine::extend_to_parallel`] with the table length to start from, and the choice
    /// of sharing every block (tests share the blocks of small tables).
    pub(super) fn extend_to_parallel_from(
        &mut self,
        max: usize,
        from: usize,
        always_share: bool,
    ) -> Result<(), GrundyError> {
        // Without splits a heap takes a few options: nothing to share.
        if self.tables.splits.is_empty() || rayon::current_num_threads() < 2 {
            return self.extend_to(max);
        }
        while self.tables.g.len() <= max && self.tables.g.len() < from {
            self.step()?;
        }
        if self.tables.g.len() > max {
            return Ok(());
        }
        let mut helper = self
            .sharing
            .helper
            .take()
            .unwrap_or_else(|| Box::new(Worker::new()));
        let handoff = Handoff {
            job: AtomicU64::new(0),
            left: AtomicU64::new(0),
            done: AtomicU64::new(0),
            values: Mutex::new(Vec::with_capacity(BLOCK)),
        };
        let main = std::thread::current();
        let tables = RwLock::new(&mut self.tables);
        // A thread of its own rather than one of rayon's: it waits for its next block while the
        // first thread appends, and rayon would put it to sleep and wake it every block.
        let result = std::thread::scope(|scope| {
            let second = scope.spawn(|| help(&tables, &handoff, &main, &mut helper));
            let result = drive(
                &tables,
                &handoff,
                &second,
                &mut self.worker,
                &mut self.sharing,
                max,
                always_share,
            );
            handoff.job.store(STOP, Ordering::Release);
            second.thread().unpark();
            result
        });
        self.sharing.helper = Some(helper);
        result
    }
}

/// The first thread's side: rounds of heaps, each computed alone or shared. In each period of
/// rounds, the second round computed alone and the second computed shared are timed, and the
/// rest of the period goes the faster way: sharing only pays when the second thread has a core
/// of its own, which on a busy machine it may not.
fn drive(
    tables: &RwLock<&mut Tables>,
    handoff: &Handoff,
    second: &ScopedJoinHandle<'_, ()>,
    worker: &mut Worker,
    sharing: &mut Sharing,
    max: usize,
    always_share: bool,
) -> Result<(), GrundyError> {
    let read = || tables.read().unwrap_or_else(PoisonError::into_inner);
    let write = || tables.write().unwrap_or_else(PoisonError::into_inner);
    let mut n = {
        let mut t = write();
        if t.review_due() {
            t.choose_mask();
        }
        t.g.len()
    };
    let mut tail = Vec::with_capacity(BLOCK);
    let mut helped = Vec::with_capacity(BLOCK);
    while n <= max {
        let round = sharing.round % PROBE_PERIOD;
        let shared = match round {
            _ if always_share => true,
            0 | 1 => false,
            2 | 3 => true,
            _ => sharing.seconds[1] <= sharing.seconds[0],
        };
        let start = Instant::now();
        let end = (n + ROUND).min(max + 1);
        let first = n;
        while n < end {
            let size = BLOCK.min(end - n);
            check_heap(n + size - 1)?;
            let job = n as u64 + 1;
            tail.clear();
            helped.clear();
            // Alone, the first thread takes the whole block.
            handoff.left.store(size as u64, Ordering::Relaxed);
            if shared {
                handoff.job.store(job, Ordering::Release);
                second.thread().unpark();
            }
            {
                let t = read();
                loop {
                    let taken = handoff.take(false);
                    if taken.is_empty() {
                        break;
                    }
                    for h in n + taken.start..n + taken.end {
                        let v = worker.compute(&t, h, &tail);
                        tail.push(value(v, h)?);
                    }
                }
            }
            if shared {
                let mut spins = 0;
                while handoff.done.load(Ordering::Acquire) != job {
                    if second.is_finished() {
                        // It panicked: the scope passes the panic on once this thread returns.
                        return Ok(());
                    }
                    wait(&mut spins);
                }
                helped.extend_from_slice(
                    &handoff
                        .values
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner),
                );
            }
            debug_assert_eq!(tail.len() + helped.len(), size);
            let mut t = write();
            for &v in &tail {
                t.push(v);
            }
            for &v in &helped {
                let h = t.g.len();
                let v = if t.made_from(n, v) {
                    worker.compute(&t, h, &[])
                } else {
                    v
                };
                t.push(value(v, h)?);
            }
            if t.review_due() {
                t.choose_mask();
            }
            n += size;
        }
        if round == 1 || round == 3 {
            sharing.seconds[usize::from(shared)] =
                start.elapsed().as_secs_f64() / (n - first) as f64;
        }
        sharing.round += 1;
    }
    Ok(())
}

/// The second thread's side: takes heaps from the top of each block it is given and computes
/// each from the options made of the heaps below the block, until told to stop.
fn help(tables: &RwLock<&mut Tables>, handoff: &Handoff, main: &Thread, worker: &mut Worker) {
    let mut last = 0;
    let mut values = Vec::with_capacity(BLOCK);
    loop {
        let mut spins = 0;
        let job = loop {
            let job = handoff.job.load(Ordering::Acquire);
            if job != last {
                break job;
            }
            wait(&mut spins);
        };
        if job == STOP {
            return;
        }
        last = job;
        let first = job as usize - 1;
        values.clear();
        {
            let t = tables.read().unwrap_or_else(PoisonError::into_inner);
            loop {
                let taken = handoff.take(true);
                if taken.is_empty() {
                    break;
                }
                for h in (first + taken.start..first + taken.end).rev() {
                    values.push(worker.compute(&t, h, &[]));
                }
            }
        }
        values.reverse();
        handoff
            .values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone_from(&values);
        handoff.done.store(job, Ordering::Release);
        main.unpark();
    }
}

/// One round of waiting for the other thread: a spin, or once spun long enough, a park (the
/// other thread unparks this one after each word it stores; a park may also end early, and
/// ends after a while so that the first thread can see whether the second has failed).
fn wait(spins: &mut u32) {
    if *spins < SPINS {
        *spins += 1;
        std::hint::spin_loop();
    } else {
        std::thread::park_timeout(PARK);
    }
}
