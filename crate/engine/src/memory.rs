//! The memory budget of long jobs, checked by [`crate::job::check`] in the
//! same inner loops as the time limit, so a game that makes the reasoner,
//! the grounder or `analyze` allocate without bound ends with a clear error
//! instead of being killed by the operating system (natively) or trapping
//! (in wasm, where running out of memory aborts the instance).
//!
//! - Natively the measure is the process's resident memory (`VmRSS` of
//!   `/proc/self/status`, read at most every 50 ms; other systems: no
//!   check). The CLI's `--memory MB` sets the budget (default: 4,096 MB or
//!   three quarters of the machine's memory, whichever is less).
//! - In wasm the measure is the bytes the allocator handed out (a counting
//!   wrapper of the global allocator); the budget (default 1,536 MB,
//!   `setMemoryBudget`) stays below the module's maximum memory (2,048 MB,
//!   a linker flag in `.cargo/config.toml`) so the check fires before an
//!   allocation can fail.
//!
//! Limits and their defaults are listed in `docs/limits.md`.

use crate::error::EvalError;
use std::sync::atomic::{AtomicU64, Ordering};

/// The budget in MB; 0: not set yet (the default applies).
static BUDGET_MB: AtomicU64 = AtomicU64::new(0);

/// The maximum memory of the wasm module in MB (`--max-memory` in `.cargo/config.toml`).
#[cfg(target_arch = "wasm32")]
pub const WASM_MAX_MB: u64 = 2048;

/// What the budget error names as the way to raise it.
#[cfg(not(target_arch = "wasm32"))]
const RAISE: &str = "MB of memory (the memory budget; --memory MB raises it)";
#[cfg(target_arch = "wasm32")]
const RAISE: &str = "MB of memory (the memory budget; setMemoryBudget(mb) raises it)";

/// The default budget in MB (see the module documentation).
pub fn default_budget_mb() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        WASM_MAX_MB * 3 / 4
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let total = proc_kb("/proc/meminfo", "MemTotal:").map(|kb| kb / 1024 * 3 / 4);
        total.map_or(4096, |t| t.min(4096))
    }
}

/// The budget in MB.
pub fn budget_mb() -> u64 {
    match BUDGET_MB.load(Ordering::Relaxed) {
        0 => default_budget_mb(),
        mb => mb,
    }
}

/// Sets the budget (at least 16 MB; in wasm at most 15/16 of the maximum
/// memory, so the check still fires before an allocation fails).
pub fn set_budget_mb(mb: u64) {
    let mb = mb.max(16);
    #[cfg(target_arch = "wasm32")]
    let mb = mb.min(WASM_MAX_MB / 16 * 15);
    BUDGET_MB.store(mb, Ordering::Relaxed);
}

/// Runs `f` with the budget `mb` (none: the current one), then restores
/// the budget before (a long-lived wasm instance runs many commands).
pub fn with_budget_mb<R>(mb: Option<u64>, f: impl FnOnce() -> R) -> R {
    let before = BUDGET_MB.load(Ordering::Relaxed);
    if let Some(mb) = mb {
        set_budget_mb(mb);
    }
    let r = f();
    BUDGET_MB.store(before, Ordering::Relaxed);
    r
}

/// `--memory MB` from the command line: a whole number of megabytes ≥ 16.
pub fn parse_mb(text: &str) -> Result<u64, crate::error::OptionError> {
    match text.trim().parse::<u64>() {
        Ok(mb) if (16..=1 << 30).contains(&mb) => Ok(mb),
        _ => Err(crate::error::OptionError::Memory(text.into())),
    }
}

/// The memory in use in MB, as far as this platform can tell.
pub fn used_mb() -> Option<u64> {
    #[cfg(target_arch = "wasm32")]
    {
        Some(counting::allocated() >> 20)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        proc_kb("/proc/self/status", "VmRSS:").map(|kb| kb / 1024)
    }
}

/// Whether the memory in use is above `fraction` of the budget (loops that
/// can stop early with what they have, before [`check`] fails).
pub fn above(fraction: f64) -> bool {
    used_mb().is_some_and(|u| u as f64 > budget_mb() as f64 * fraction)
}

/// Fails when the memory in use is over the budget. Natively it measures
/// at most every 50 ms (`now_ms`: the caller's clock reading).
pub fn check(now_ms: f64) -> Result<(), EvalError> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::cell::Cell;
        thread_local!(static LAST: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) });
        if now_ms - LAST.with(Cell::get) < 50.0 {
            return Ok(());
        }
        LAST.with(|l| l.set(now_ms));
    }
    let _ = now_ms;
    over_budget(used_mb(), budget_mb())
}

fn over_budget(used: Option<u64>, budget: u64) -> Result<(), EvalError> {
    match used {
        Some(used) if used > budget => Err(EvalError::Limit {
            what: RAISE,
            limit: budget,
        }),
        _ => Ok(()),
    }
}

/// A `Key:  123 kB` line of a `/proc` file, in kB.
#[cfg(not(target_arch = "wasm32"))]
fn proc_kb(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// The wasm allocator, counting the bytes in use (single-threaded per
/// instance: a relaxed counter is enough).
#[cfg(target_arch = "wasm32")]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicU64, Ordering};

    static IN_USE: AtomicU64 = AtomicU64::new(0);

    pub fn allocated() -> u64 {
        IN_USE.load(Ordering::Relaxed)
    }

    struct Counting;

    // Not inlined: every allocation site would otherwise carry a copy of
    // the allocator's fast path (a larger module).
    unsafe impl GlobalAlloc for Counting {
        #[inline(never)]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                IN_USE.fetch_add(layout.size() as u64, Ordering::Relaxed);
            }
            p
        }
        #[inline(never)]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            let p = unsafe { System.alloc_zeroed(layout) };
            if !p.is_null() {
                IN_USE.fetch_add(layout.size() as u64, Ordering::Relaxed);
            }
            p
        }
        #[inline(never)]
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) };
            IN_USE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        }
        #[inline(never)]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                IN_USE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
                IN_USE.fetch_add(new_size as u64, Ordering::Relaxed);
            }
            p
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_is_checked() {
        assert_eq!(parse_mb("512"), Ok(512));
        for bad in ["0", "-1", "x", "15", "1e3", ""] {
            assert!(parse_mb(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn over_the_budget_is_an_error_naming_it() {
        assert!(over_budget(Some(100), 100).is_ok());
        assert!(over_budget(None, 16).is_ok());
        let e = over_budget(Some(101), 100).unwrap_err().to_string();
        assert!(
            e.contains("100 MB of memory") && e.contains("--memory"),
            "{e}"
        );
        // Linux measures the process: a test binary uses some memory, far below the default.
        if cfg!(target_os = "linux") {
            let used = used_mb().expect("VmRSS");
            assert!(used < default_budget_mb(), "{used} MB");
            assert!(check(f64::INFINITY).is_ok());
        }
    }
}
