//! Threads in WebAssembly (a build with the `atomics` target feature):
//! JavaScript starts workers that instantiate this module on the same
//! shared memory and call [`worker_loop`]; [`run_beside`] hands jobs to
//! them. `std::thread::spawn` has no workers to run on in `wasm32`, so
//! this small pool is what [`super::run_all`] and the solver's pipeline
//! use there instead of scoped threads.
//!
//! A job borrows from the caller's stack: [`run_beside`] returns only
//! after every job it handed out has finished, as `std::thread::scope`
//! does. A panic on a worker (a bug) aborts that worker's instance; the
//! panic hook calls [`poison`], and a caller waiting for its jobs then
//! panics too instead of waiting forever, so the whole instance fails
//! and JavaScript rebuilds it.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

type Task = Box<dyn FnOnce() + Send + 'static>;

static TASKS: Mutex<VecDeque<Task>> = Mutex::new(VecDeque::new());
static TASK_READY: Condvar = Condvar::new();
static WORKERS: AtomicUsize = AtomicUsize::new(0);
static POISONED: AtomicBool = AtomicBool::new(false);

thread_local!(static ON_WORKER: Cell<bool> = const { Cell::new(false) });

/// The workers that can take jobs from this thread: none on a worker
/// itself (a job's own jobs run one after the other, so a full pool
/// never waits on itself).
pub fn workers() -> usize {
    if ON_WORKER.with(Cell::get) {
        0
    } else {
        WORKERS.load(SeqCst)
    }
}

/// A worker's life: takes jobs until the instance goes away. Called by
/// JavaScript on each worker it starts (it never returns).
pub fn worker_loop() -> ! {
    ON_WORKER.with(|w| w.set(true));
    WORKERS.fetch_add(1, SeqCst);
    loop {
        let task = {
            let mut tasks = TASKS.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                match tasks.pop_front() {
                    Some(t) => break t,
                    None => tasks = TASK_READY.wait(tasks).unwrap_or_else(|e| e.into_inner()),
                }
            }
        };
        task();
    }
}

/// Marks the pool as failed (a thread panicked): waiting callers panic.
pub fn poison() {
    POISONED.store(true, SeqCst);
}

/// Counts the jobs of one [`run_beside`] down to zero.
struct Latch {
    left: Mutex<usize>,
    done: Condvar,
}

impl Latch {
    fn count_down(&self) {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        *left -= 1;
        if *left == 0 {
            self.done.notify_all();
        }
    }

    /// Waits for the jobs, running any still queued on this thread
    /// first, and panics if a thread failed meanwhile.
    fn wait(&self) {
        while let Some(task) = pop_task() {
            task();
        }
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        while *left > 0 {
            assert!(!POISONED.load(SeqCst), "a worker thread failed");
            left = (self.done.wait_timeout(left, Duration::from_millis(50)))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

fn pop_task() -> Option<Task> {
    TASKS.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
}

/// Runs `main` on this thread while the workers run `jobs`; returns
/// `main`'s result once every job has finished.
pub fn run_beside<'a, R>(main: impl FnOnce() -> R, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) -> R {
    let latch = Latch {
        left: Mutex::new(jobs.len()),
        done: Condvar::new(),
    };
    {
        let latch_ref = &latch;
        let mut tasks = TASKS.lock().unwrap_or_else(|e| e.into_inner());
        for job in jobs {
            let task: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
                job();
                latch_ref.count_down();
            });
            // SAFETY: the task borrows `latch` and what `job` borrows, all
            // of which outlive this call, and this call returns only after
            // `latch.wait()` saw every task finish (a panic anywhere aborts
            // the instance: wasm32 builds abort on panic).
            tasks.push_back(unsafe {
                std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Task>(task)
            });
        }
    }
    TASK_READY.notify_all();
    let result = main();
    latch.wait();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn jobs_borrow_from_the_caller_and_all_finish() {
        for _ in 0..2 {
            std::thread::spawn(|| worker_loop());
        }
        while WORKERS.load(SeqCst) < 2 {
            std::thread::yield_now();
        }
        for round in 0..50u64 {
            let sums: Vec<AtomicU64> = (0..5).map(|_| AtomicU64::new(0)).collect();
            let jobs = (sums.iter().enumerate())
                .map(|(i, s)| {
                    Box::new(move || s.store((0..=(i as u64 + round)).sum(), SeqCst))
                        as Box<dyn FnOnce() + Send + '_>
                })
                .collect();
            let main = run_beside(|| round * 2, jobs);
            assert_eq!(main, round * 2);
            for (i, s) in sums.iter().enumerate() {
                let n = i as u64 + round;
                assert_eq!(s.load(SeqCst), n * (n + 1) / 2);
            }
        }
    }
}
