//! The instance's memory budget (`setMemoryBudget`, `memoryBudget`;
//! [`crate::memory`]) and `testTrap`, which the page's fault-recovery test
//! uses to kill a worker's instance the way a bug would.

use wasm_bindgen::prelude::*;

/// Sets the memory budget in MB of this instance (at least 16, at most
/// 15/16 of the module's maximum memory): evaluation stops with a
/// `GdlEvalError` naming it once the engine holds more.
#[wasm_bindgen(js_name = setMemoryBudget)]
pub fn set_memory_budget(mb: f64) -> Result<(), JsValue> {
    let max = (crate::memory::WASM_MAX_MB / 16 * 15) as f64;
    if !(mb.is_finite() && (16.0..=max).contains(&mb)) {
        return Err(super::js::range_error(&format!(
            "setMemoryBudget({mb}): give a number of MB from 16 to {max}"
        )));
    }
    crate::memory::set_budget_mb(mb as u64);
    Ok(())
}

/// The memory budget in MB and the memory in use in MB.
#[wasm_bindgen(js_name = memoryBudget, unchecked_return_type = "MemoryBudget")]
pub fn memory_budget() -> Result<JsValue, JsValue> {
    super::js::to_js(&crate::js_api::MemoryBudget {
        budget_mb: crate::memory::budget_mb() as f64,
        used_mb: crate::memory::used_mb().unwrap_or(0) as f64,
    })
}

/// Test only: traps this instance (a wasm `unreachable`), as a bug would.
/// The page calls it only from a worker started in test mode
/// (site/src/engine/worker.js); afterwards the instance is unusable.
#[wasm_bindgen(js_name = testTrap)]
pub fn test_trap() {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
}
