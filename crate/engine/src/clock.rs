//! Wall-clock milliseconds that work natively and in WebAssembly
//! (`std::time::Instant` panics on `wasm32-unknown-unknown`).
//! Use this module, never `Instant`, in library code. Cancellation
//! ([`cancel`]) lives here too: it ends every [`Deadline`].

use std::sync::atomic::{AtomicBool, Ordering};

/// Milliseconds since an arbitrary fixed point.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// `performance.now()` where the JS host has it (browsers, workers, Node),
/// otherwise `Date.now()`.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    js_clock::now_ms()
}

#[cfg(target_arch = "wasm32")]
mod js_clock {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        type Performance;
        #[wasm_bindgen(method)]
        fn now(this: &Performance) -> f64;
    }

    thread_local! {
        /// `globalThis.performance`, looked up once, if it has a `now` function.
        static PERFORMANCE: Option<Performance> = {
            let get = |target: &JsValue, key: &str| js_sys::Reflect::get(target, &JsValue::from_str(key)).ok();
            get(&js_sys::global(), "performance")
                .filter(|p| p.is_object() && get(p, "now").is_some_and(|f| f.is_function()))
                .map(|p| p.unchecked_into::<Performance>())
        };
    }

    pub fn now_ms() -> f64 {
        PERFORMANCE.with(|p| match p {
            Some(p) => p.now(),
            None => js_sys::Date::now(),
        })
    }
}

/// A deadline `ms` milliseconds from now.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(f64);

impl Deadline {
    pub fn after_ms(ms: f64) -> Deadline {
        Deadline(now_ms() + ms)
    }
    pub fn never() -> Deadline {
        Deadline(f64::INFINITY)
    }
    /// Whether the time is up, or the job was cancelled (Ctrl-C,
    /// [`cancel`]): every loop that stops at its deadline then
    /// stops with what it has.
    pub fn passed(&self) -> bool {
        (self.0.is_finite() && now_ms() >= self.0) || cancelled()
    }
    pub fn remaining_ms(&self) -> f64 {
        (self.0 - now_ms()).max(0.0)
    }
}

static CANCELLED: AtomicBool = AtomicBool::new(false);

/// Asks every running job to stop (thread-safe; the Ctrl-C handler).
pub fn cancel() {
    CANCELLED.store(true, Ordering::Relaxed);
}

/// Whether [`cancel`] was called.
pub fn cancelled() -> bool {
    CANCELLED.load(Ordering::Relaxed)
}

/// Forgets an earlier [`cancel`] (a long-lived host starting a new job).
pub fn reset_cancel() {
    CANCELLED.store(false, Ordering::Relaxed);
}
