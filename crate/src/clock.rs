//! Wall-clock milliseconds that work natively and in WebAssembly
//! (`std::time::Instant` panics on `wasm32-unknown-unknown`).
//! Use this module, never `Instant`, in library code.

/// Milliseconds since an arbitrary fixed point.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    js_sys::Date::now()
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
    pub fn passed(&self) -> bool {
        self.0.is_finite() && now_ms() >= self.0
    }
    pub fn remaining_ms(&self) -> f64 {
        (self.0 - now_ms()).max(0.0)
    }
}
