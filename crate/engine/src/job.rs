//! Bounds and voice for long work, in one place every module can call:
//!
//! - a **time limit** for the current job ([`scope`]), checked inside the
//!   evaluators' inner loops through [`check`] (so one state that takes
//!   forever to evaluate still stops), natively and in wasm;
//! - **cancellation** ([`cancel`], called by the native CLI on Ctrl-C):
//!   every [`Deadline`](crate::clock::Deadline) then counts as passed, so the
//!   loops that already stop at their deadline stop with what they have;
//! - **progress** ([`progress`]): a phase and a detail, rate-limited, sent to
//!   the sink the host installed ([`set_progress_sink`]; the native CLI
//!   draws a status line on stderr when it is a terminal).
//!
//! Limits and their defaults are listed in `docs/limits.md`.

// Cancellation lives with the clock, whose deadlines it ends.
use crate::clock::now_ms;
pub use crate::clock::{cancel, cancelled, reset_cancel};
use crate::error::{EvalError, OptionError};
use std::cell::{Cell, RefCell};

thread_local! {
    /// End of the current job in `clock::now_ms` milliseconds (infinite:
    /// none) and the limit it came from, for the error message.
    static LIMIT: Cell<(f64, f64)> = const { Cell::new((f64::INFINITY, 0.0)) };
    /// The soft end: when loops that can stop between units of work should
    /// (see [`scope_with_grace`]).
    static SOFT_END: Cell<f64> = const { Cell::new(f64::INFINITY) };
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
    /// (start of the job, last report) in milliseconds.
    static PROGRESS: Cell<(f64, f64)> = const { Cell::new((0.0, f64::NEG_INFINITY)) };
}

/// Runs `f` as a job that must end within `ms` milliseconds (infinite: no
/// limit): [`check`] fails once they have passed. Scopes nest; the inner
/// limit applies until it returns.
pub fn scope<R>(ms: f64, f: impl FnOnce() -> R) -> R {
    scope_with_grace(ms, 0.0, f)
}

/// [`scope`] where loops that can stop between units of work (games of a
/// match, playouts) stop at `ms` ([`soft_passed`]) and the evaluators only
/// `grace_ms` later ([`check`]), so a job ends with what it has.
pub fn scope_with_grace<R>(soft_ms: f64, grace_ms: f64, f: impl FnOnce() -> R) -> R {
    let outer_soft = SOFT_END.with(|s| s.get());
    SOFT_END.with(|s| s.set(outer_soft.min(now_ms() + soft_ms)));
    let ms = soft_ms + grace_ms;
    let outer = LIMIT.with(|l| l.get());
    let end = (now_ms() + ms).min(outer.0);
    let limit = if end < outer.0 { ms } else { outer.1 };
    LIMIT.with(|l| l.set((end, limit)));
    let started = PROGRESS.with(|p| p.replace((now_ms(), f64::NEG_INFINITY)));
    let r = f();
    SOFT_END.with(|s| s.set(outer_soft));
    LIMIT.with(|l| l.set(outer));
    PROGRESS.with(|p| p.set(started));
    r
}

/// Whether the current job must stop: its time limit passed, it was
/// cancelled or the memory in use is over the budget. Cheap enough for every few thousand steps of an inner loop.
pub fn check() -> Result<(), EvalError> {
    if cancelled() {
        return Err(EvalError::Limit {
            what: "interruptions (stopped by Ctrl-C)",
            limit: 0,
        });
    }
    let (end, limit) = LIMIT.with(|l| l.get());
    let now = now_ms();
    if end.is_finite() && now >= end {
        return Err(EvalError::Limit {
            what: "milliseconds of the job's time limit (--seconds)",
            limit: limit.max(0.0) as u64,
        });
    }
    // The memory budget (crate::memory), in the same loops.
    crate::memory::check(now)
}

/// Whether work that can stop between units should stop now: the soft end
/// of the job passed, or it was cancelled.
pub fn soft_passed() -> bool {
    cancelled() || now_ms() >= SOFT_END.with(|s| s.get())
}

/// One progress report.
#[derive(Clone, Debug)]
pub struct Progress {
    /// What is running ("breadth-first", "playouts", "grounding", ...).
    pub phase: &'static str,
    /// Counts so far, free text ("12,345 states").
    pub detail: String,
    /// Milliseconds since the current [`scope`] began.
    pub elapsed_ms: f64,
}

/// Where progress reports go.
pub type Sink = Box<dyn FnMut(&Progress)>;

/// Installs (or with `None` removes) where progress goes on this thread.
pub fn set_progress_sink(sink: Option<Sink>) {
    SINK.with(|s| *s.borrow_mut() = sink);
}

/// Reports progress at most every 200 ms; `detail` is only built then.
pub fn progress(phase: &'static str, detail: impl FnOnce() -> String) {
    let now = now_ms();
    let (start, last) = PROGRESS.with(|p| p.get());
    if now - last < 200.0 {
        return;
    }
    let has_sink = SINK.with(|s| s.borrow().is_some());
    if !has_sink {
        return;
    }
    PROGRESS.with(|p| p.set((start, now)));
    let report = Progress {
        phase,
        detail: detail(),
        elapsed_ms: now - start,
    };
    SINK.with(|s| {
        if let Some(sink) = s.borrow_mut().as_mut() {
            sink(&report)
        }
    });
}

/// The longest time limit an `ms` option may give: a day (the CLI's
/// `--seconds` allows more; an `ms` of 1e300 is a typo, not a plan).
pub const MAX_MS: f64 = 86_400_000.0;

/// An `ms` option (`explain`, `structure`, a player's `ms=`): a finite
/// number of milliseconds above 0 and at most [`MAX_MS`]; else the error
/// names `what` and the range (a `RangeError` in JavaScript).
pub fn check_ms(what: &str, ms: f64) -> Result<f64, OptionError> {
    if ms.is_finite() && ms > 0.0 && ms <= MAX_MS {
        Ok(ms)
    } else {
        Err(OptionError::Ms {
            what: what.into(),
            ms,
            max: MAX_MS,
        })
    }
}

/// A time limit in seconds from the command line: a finite number > 0.
pub fn parse_seconds(text: &str) -> Result<f64, OptionError> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(s),
        _ => Err(OptionError::Seconds(text.into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_ends_and_restores_the_outer_limit() {
        assert!(check().is_ok());
        let e = scope(0.0, check).unwrap_err();
        assert!(e.to_string().contains("--seconds"), "{e}");
        assert!(scope(1e9, check).is_ok());
        // The inner scope cannot extend the outer one.
        assert!(scope(0.0, || scope(1e9, check)).is_err());
        assert!(check().is_ok());
    }

    #[test]
    fn seconds_must_be_finite_and_positive() {
        for bad in ["inf", "-1", "NaN", "0", "", "1e300", "x"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        for bad in [f64::NAN, f64::INFINITY, -5.0, 0.0, 1e300] {
            assert!(
                check_ms("ms", bad).unwrap_err().to_string().contains("ms"),
                "{bad}"
            );
        }
        assert_eq!(check_ms("ms", 250.0), Ok(250.0));
    }
}
