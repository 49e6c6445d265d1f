//! Threads for a build with shared memory (the `atomics` target feature):
//! JavaScript starts workers on the same module and memory
//! (`js/threads-node.js` in Node, `site/src/engine/worker-threads.js` in
//! the page), each of which calls `threadPoolWorker` and from then on runs
//! the jobs of `crate::search::parallel` (the solver's cores, MCTS-Solver's
//! walkers on one shared tree, the ensemble's members). A build without
//! shared memory reports no threads.

use wasm_bindgen::prelude::*;

/// Whether this build can run threads (its memory is shared).
#[wasm_bindgen(js_name = sharedMemory)]
pub fn shared_memory() -> bool {
    cfg!(target_feature = "atomics")
}

/// The cores the library's parallel work uses: this thread and the
/// workers running `threadPoolWorker` (1 without threads).
#[wasm_bindgen(js_name = threadCount)]
pub fn thread_count() -> usize {
    crate::search::parallel::available_cores()
}

/// Turns the calling worker into one of the pool's threads; never
/// returns. Called by those scripts in each worker it starts, after
/// instantiating the module on the main instance's module and memory.
#[cfg(target_feature = "atomics")]
#[wasm_bindgen(js_name = threadPoolWorker)]
pub fn thread_pool_worker() {
    super::js::init();
    crate::search::parallel::pool::worker_loop()
}

/// The compiled module and its shared memory, for starting workers
/// (`{ module, memory }`); `null` without shared memory.
#[wasm_bindgen(js_name = threadShare)]
pub fn thread_share() -> JsValue {
    if !cfg!(target_feature = "atomics") {
        return JsValue::NULL;
    }
    let share = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&share, &"module".into(), &wasm_bindgen::module());
    let _ = js_sys::Reflect::set(&share, &"memory".into(), &wasm_bindgen::memory());
    share.into()
}
