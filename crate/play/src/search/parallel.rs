//! Runs independent jobs on all cores: a small, generic runner (N closures
//! on scoped threads, results in job order) that any parallel player can
//! share. On `wasm32` there are no threads, so the jobs run one after the
//! other (the page and Node parallelise with workers instead, see
//! `js/parallel*.js`).

/// One job: a closure that may borrow from the caller's stack.
pub type Job<'a, T> = Box<dyn FnOnce() -> T + Send + 'a>;

/// Runs every job and returns their results in job order. The first job
/// runs on the calling thread, the others on scoped threads.
pub fn run_all<T: Send>(mut jobs: Vec<Job<'_, T>>) -> Vec<T> {
    if jobs.len() <= 1 || cfg!(target_arch = "wasm32") {
        return jobs.into_iter().map(|j| j()).collect();
    }
    let first = jobs.remove(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs.into_iter().map(|j| s.spawn(j)).collect();
        let mut out = vec![first()];
        for h in handles {
            // A job that panicked re-raises its panic here (a bug, not input).
            out.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        out
    })
}

/// The cores this process may use (1 when unknown, e.g. on `wasm32`).
pub fn available_cores() -> usize {
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
