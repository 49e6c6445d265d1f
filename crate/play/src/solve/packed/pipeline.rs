//! The forward pass's pipeline: every core expands pieces of a block of
//! states while this thread takes the pieces' successors into the index
//! in order. Interning is the one serial part of the pass (the index and
//! the states' order are shared), so instead of waiting for all cores to
//! finish a block and then interning while they idle, the other cores go
//! on expanding; this thread expands a piece itself only when the next
//! piece to intern is not ready yet.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;

use crate::ground::FastEngine;

/// States per piece: small enough that the cores stay busy to the end
/// of a block, large enough that handing pieces out costs nothing.
pub(super) const PIECE: usize = 512;

/// Expands the `count` states of a block in pieces of [`PIECE`], piece
/// `p` by `expand(engine, p)` on any core, and hands each piece's result
/// to `absorb` on this thread, in piece order. Stops early when `absorb`
/// returns `false`. The first engine is this thread's, each other one
/// gets a thread of its own (none on `wasm32`, where there is one).
pub(super) fn run<T: Send>(
    engines: &mut [FastEngine],
    count: usize,
    expand: &(dyn Fn(&mut FastEngine, usize) -> T + Sync),
    absorb: &mut dyn FnMut(T) -> bool,
) {
    let pieces = count.div_ceil(PIECE);
    let (mine, others) = engines.split_first_mut().expect("an engine per core");
    if others.is_empty() || cfg!(target_arch = "wasm32") {
        for p in 0..pieces {
            if !absorb(expand(mine, p)) {
                return;
            }
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        for engine in others {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            s.spawn(move || {
                while !stop.load(Relaxed) {
                    let p = next.fetch_add(1, Relaxed);
                    if p >= pieces || tx.send((p, expand(engine, p))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut ready: Vec<Option<T>> = (0..pieces).map(|_| None).collect();
        let mut want = 0;
        while want < pieces {
            for (p, t) in rx.try_iter() {
                ready[p] = Some(t);
            }
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
            } else if let Ok((p, t)) = rx.recv() {
                ready[p] = Some(t);
            } else {
                // Every sender is gone with `want` missing: a worker
                // panicked, and the scope re-raises its panic.
                break;
            }
        }
        stop.store(true, Relaxed);
    });
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
