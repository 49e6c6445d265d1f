//! Deep recursion over user data without stack overflows.
//!
//! Natively, [`guarded`] grows the stack on the heap when less than
//! [`RED_ZONE`] bytes are left (any thread, any stack size). In wasm the
//! stack is one fixed region (its size is set in `.cargo/config.toml`), so
//! there the callers' depth limits (e.g. `Limits::max_nesting`) are what
//! keeps recursion inside it.

#[cfg(not(target_arch = "wasm32"))]
/// Stack that must remain before a guarded call runs on the current stack.
pub const RED_ZONE: usize = 128 * 1024;
#[cfg(not(target_arch = "wasm32"))]
/// Size of each stack segment allocated when the red zone is reached.
pub const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, first moving to a fresh stack segment if this one is nearly full.
#[inline]
pub fn guarded<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(not(target_arch = "wasm32"))]
    {
        stacker::maybe_grow(RED_ZONE, SEGMENT, f)
    }
    #[cfg(target_arch = "wasm32")]
    {
        f()
    }
}
