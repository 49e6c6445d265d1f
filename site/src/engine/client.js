// The page's side of the engine worker (engine/worker.js): calls with
// promises, progress callbacks and cancellation.
//
// The page uses separate workers for separate jobs so that one never waits
// for another: `lint` (check and format, on every pause in typing), `game`
// (the play view's states), `think` (engine moves, search trees, semantic
// analysis: long jobs that the user can stop). A hard cancel terminates a
// worker; the next call starts a fresh one.

const WORKER_URL = new URL('./worker.js', import.meta.url);

export class EngineWorker {
  /** `name` only labels errors and the worker (devtools). */
  constructor(name) {
    this.name = name;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.generation = 0;
  }

  spawn() {
    if (this.worker) {
      return this.worker;
    }
    const worker = new Worker(WORKER_URL, { type: 'module', name: `gdlkit-${this.name}` });
    worker.onmessage = (event) => {
      const msg = event.data;
      const job = this.pending.get(msg.id);
      if (!job) {
        return;
      }
      if (msg.progress !== undefined) {
        job.onProgress?.(msg.progress);
        return;
      }
      this.pending.delete(msg.id);
      if (msg.ok) {
        job.resolve(msg.result);
      } else {
        job.reject(Object.assign(new Error(msg.error.message), msg.error));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.fail(new Error(`the ${this.name} worker failed: ${event.message ?? 'unknown error'}`));
    };
    this.worker = worker;
    this.generation += 1;
    return worker;
  }

  /** Rejects every pending call and forgets the worker. */
  fail(error) {
    this.worker?.terminate();
    this.worker = null;
    for (const job of this.pending.values()) {
      job.reject(error);
    }
    this.pending.clear();
  }

  /**
   * Calls `op` in the worker. Returns a promise with two extra methods:
   * `cancel()` asks a stepping job to stop (it resolves with what it has),
   * `terminate()` stops the worker at once (every pending call rejects with
   * an error named `Cancelled`).
   */
  call(op, args = {}, { onProgress } = {}) {
    const worker = this.spawn();
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
    });
    worker.postMessage({ id, op, args });
    promise.cancel = () => this.worker?.postMessage({ cancel: id });
    promise.terminate = () => this.terminate();
    return promise;
  }

  /** Hard cancel: stops the worker; pending calls reject with `Cancelled`. */
  terminate() {
    if (this.worker) {
      this.fail(Object.assign(new Error('cancelled'), { name: 'Cancelled' }));
    }
  }

  /** Whether a call is running. */
  get busy() {
    return this.pending.size > 0;
  }
}

let shared = null;

/** The page's workers, created on first use. */
export function engine() {
  if (!shared) {
    shared = {
      lint: new EngineWorker('lint'),
      game: new EngineWorker('game'),
      think: new EngineWorker('think'),
    };
  }
  return shared;
}
