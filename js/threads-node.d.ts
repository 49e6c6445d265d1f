// Types of `gdlkit/threads` (js/threads-node.js). `wasm` is wasm-bindgen's
// module with shared memory: its types are the ones wasm-bindgen generates
// from the Rust bindings (pkg-threads/gdlkit.d.ts).

export interface Threaded {
  /** The module's raw bindings (wasm-bindgen's, unguarded). */
  wasm: typeof import('../pkg-threads/gdlkit.js');
  /** The cores its parallel work uses: this thread and the workers. */
  threads: number;
  /** Stops the workers. */
  terminate(): Promise<number[]>;
}

/** Loads the module with shared memory and starts `threads - 1` worker threads (default: every core). */
export function loadThreaded(options?: { threads?: number }): Promise<Threaded>;
