//! Runs independent jobs on all cores: a small, generic runner (N closures
//! on scoped threads, results in job order) that any parallel player and
//! the solver share. In WebAssembly the threads are workers sharing the
//! module's memory (`pool`, a build with the `atomics` target feature);
//! without them the jobs run one after the other (the page and Node then
//! parallelise with workers that share nothing, see `js/parallel*.js`).

#[cfg(any(test, all(target_arch = "wasm32", target_feature = "atomics")))]
pub mod pool;

/// One job: a closure that may borrow from the caller's stack.
pub type Job<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// Runs every job and returns their results in job order. The first job
/// runs on the calling thread, the others on other threads.
pub fn run_all<T: Send>(mut jobs: Vec<Job<'_, T>>) -> Vec<T> {
    if jobs.len() <= 1 || !has_threads() {
        return jobs.into_iter().map(|j| j()).collect();
    }
    let first = jobs.remove(0);
    let slots: Vec<std::sync::Mutex<Option<T>>> = jobs.iter().map(|_| Default::default()).collect();
    let helpers = (jobs.into_iter().zip(&slots))
        .map(|(job, slot)| {
            Box::new(move || *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(job()))
                as Job<'_, ()>
        })
        .collect();
    let mut out = vec![run_beside(first, helpers)];
    out.extend(slots.into_iter().map(|s| {
        let done = s.into_inner().unwrap_or_else(|e| e.into_inner());
        done.expect("every job ran")
    }));
    out
}

/// Runs `main` on the calling thread while other threads run `jobs`, and
/// returns `main`'s result when all have finished (`jobs` run one after
/// the other first when there are no threads). A job that panicked
/// re-raises its panic here (a bug, not input).
pub fn run_beside<'a, R>(main: impl FnOnce() -> R, jobs: Vec<Job<'a, ()>>) -> R {
    if jobs.is_empty() || !has_threads() {
        jobs.into_iter().for_each(|j| j());
        return main();
    }
    threaded(main, jobs)
}

#[cfg(not(target_arch = "wasm32"))]
fn threaded<'a, R>(main: impl FnOnce() -> R, jobs: Vec<Job<'a, ()>>) -> R {
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs.into_iter().map(|j| s.spawn(j)).collect();
        let out = main();
        for h in handles {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
        out
    })
}

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
fn threaded<'a, R>(main: impl FnOnce() -> R, jobs: Vec<Job<'a, ()>>) -> R {
    pool::run_beside(main, jobs)
}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
fn threaded<'a, R>(main: impl FnOnce() -> R, jobs: Vec<Job<'a, ()>>) -> R {
    jobs.into_iter().for_each(|j| j());
    main()
}

/// Whether jobs can run on other threads: natively always; in WebAssembly
/// when workers share this module's memory (`pool`).
pub fn has_threads() -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    return pool::workers() > 0;
    #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
    return false;
    #[cfg(not(target_arch = "wasm32"))]
    true
}

/// The cores this process may use (1 when unknown, e.g. on `wasm32`
/// without shared memory; there the workers of `pool` and this thread).
pub fn available_cores() -> usize {
    #[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
    return 1 + pool::workers();
    #[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Parses a thread count: a positive number or `auto` (all cores).
pub fn parse_threads(text: &str) -> Result<usize, crate::error::SearchError> {
    match text.trim() {
        "auto" => Ok(available_cores()),
        t => match t.parse::<usize>() {
            Ok(n) if (1..=256).contains(&n) => Ok(n),
            _ => Err(crate::error::SearchError::Threads(t.into())),
        },
    }
}

/// The seed of worker `i` of a parallel search seeded with `seed`: worker 0
/// keeps `seed` (so one thread plays exactly like the one-core player).
pub fn worker_seed(seed: u64, i: usize) -> u64 {
    if i == 0 {
        seed
    } else {
        seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// A parallel player's name: its one-thread player's name with the thread
/// count, e.g. `alphabeta(fuzzy, 10 ms, 2 threads)`.
pub fn threaded_name(base: &str, threads: usize) -> String {
    match base.strip_suffix(')') {
        Some(b) => format!("{b}, {threads} threads)"),
        None => format!("{base}({threads} threads)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order() {
        let data = [5u64, 7, 11, 13];
        let jobs: Vec<Job<u64>> = data
            .iter()
            .map(|&x| Box::new(move || (0..=x).sum::<u64>()) as Job<u64>)
            .collect();
        assert_eq!(run_all(jobs), vec![15, 28, 66, 91]);
    }

    #[test]
    fn thread_counts() {
        assert_eq!(parse_threads("3"), Ok(3));
        assert!(parse_threads("auto").unwrap() >= 1);
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("x").is_err());
        assert_eq!(worker_seed(42, 0), 42);
        assert_ne!(worker_seed(42, 1), worker_seed(42, 2));
    }
}
