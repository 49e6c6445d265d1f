//! The forward pass's pipeline: every core expands pieces of a block of
//! states while this thread takes the pieces' successors into the index
//! in order. Interning is the one serial part of the pass (the index and
//! the states' order are shared), so instead of waiting for all cores to
//! finish a block and then interning while they idle, the other cores go
//! on expanding; this thread expands a piece itself only when the next
//! piece to intern is not ready yet.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex};

use crate::ground::FastEngine;
use crate::search::parallel::{has_threads, run_beside, Job};

/// States per piece: small enough that the cores stay busy to the end
/// of a block, large enough that handing pieces out costs nothing.
pub(super) const PIECE: usize = 512;

/// Expands the `count` states of a block in pieces of [`PIECE`], piece
/// `p` by `expand(engine, p)` on any core, and hands each piece's result
/// to `absorb` on this thread, in piece order. Stops early when `absorb`
/// returns `false`. The first engine is this thread's, each other one
/// gets a thread of its own (when there are threads: `has_threads`).
pub(super) fn run<T: Send>(
    engines: &mut [FastEngine],
    count: usize,
    expand: &(dyn Fn(&mut FastEngine, usize) -> T + Sync),
    absorb: &mut dyn FnMut(T) -> bool,
) {
    let pieces = count.div_ceil(PIECE);
    let (mine, others) = engines.split_first_mut().expect("an engine per core");
    if others.is_empty() || !has_threads() {
        for p in 0..pieces {
            if !absorb(expand(mine, p)) {
                return;
            }
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done = Done::new(others.len());
    let workers = (others.iter_mut())
        .map(|engine| {
            let (next, stop, done) = (&next, &stop, &done);
            Box::new(move || {
                let _leaving = Leaving(done);
                while !stop.load(Relaxed) {
                    let p = next.fetch_add(1, Relaxed);
                    if p >= pieces {
                        break;
                    }
                    done.put(p, expand(engine, p));
                }
            }) as Job<'_, ()>
        })
        .collect();
    let main = || {
        let mut ready: Vec<Option<T>> = (0..pieces).map(|_| None).collect();
        let mut want = 0;
        while want < pieces {
            done.take(&mut ready, false);
            if let Some(t) = ready[want].take() {
                want += 1;
                if !absorb(t) {
                    break;
                }
                continue;
            }
            let p = next.fetch_add(1, Relaxed);
            if p < pieces {
                ready[p] = Some(expand(mine, p));
            } else if !done.take(&mut ready, true) {
                // Every worker is gone with `want` missing: one panicked,
                // and `run_beside` re-raises its panic.
                break;
            }
        }
        stop.store(true, Relaxed);
    };
    run_beside(main, workers);
}

/// The pieces the workers finished, and how many workers still run. (A
/// mutex and a condition variable rather than a channel: `std`'s channels
/// park threads, which hangs in WebAssembly's shared memory.)
struct Done<T> {
    state: Mutex<(Vec<(usize, T)>, usize)>,
    changed: Condvar,
}

impl<T> Done<T> {
    fn new(workers: usize) -> Done<T> {
        Done {
            state: Mutex::new((Vec::new(), workers)),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (Vec<(usize, T)>, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn put(&self, p: usize, t: T) {
        self.lock().0.push((p, t));
        self.changed.notify_one();
    }

    /// Moves the finished pieces into `ready`; with `wait`, first waits
    /// for one. `false` when waiting found every worker gone and no piece.
    fn take(&self, ready: &mut [Option<T>], wait: bool) -> bool {
        let mut state = self.lock();
        while wait && state.0.is_empty() && state.1 > 0 {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        let any = !state.0.is_empty();
        for (p, t) in state.0.drain(..) {
            ready[p] = Some(t);
        }
        any
    }
}

/// Counts a worker out when it leaves, also by a panic.
struct Leaving<'a, T>(&'a Done<T>);

impl<T> Drop for Leaving<'_, T> {
    fn drop(&mut self) {
        self.0.lock().1 -= 1;
        self.0.changed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_arrive_in_order_and_stop_when_asked() {
        let text = "(role a) (init p) (legal a go) (<= (next p) (true p)) (goal a 100) (<= terminal (true p))";
        let engine = crate::engine::load_engine(text, crate::engine::EngineChoice::Fast);
        let Ok(crate::engine::Engine::Fast(fast)) = engine else {
            panic!("grounds")
        };
        let mut engines = vec![(*fast).clone(), (*fast).clone(), (*fast).clone()];
        let count = 20 * PIECE + 7;
        let mut seen = Vec::new();
        run(&mut engines, count, &|_, p| p, &mut |p| {
            seen.push(p);
            true
        });
        assert_eq!(seen, (0..count.div_ceil(PIECE)).collect::<Vec<_>>());
        seen.clear();
        run(&mut engines, count, &|_, p| p, &mut |p| {
            seen.push(p);
            p < 3
        });
        assert_eq!(seen, vec![0, 1, 2, 3]);
    }
}
