// The gdlkit JavaScript API, analysis area: the semantic validator
// (termination, playability, goals, monotonicity, winnability; docs/analysis.md)
// as a resumable job. A thin layer over crate/wasm/src/wasm/analysis.rs.

import { needReady, needString, wasm } from './wasm.js';

const freed = () => new TypeError('gdlkit: this AnalysisJob was freed');

/**
 * The semantic validator over a game, run in slices: `step(work)` does a
 * bounded amount of work and returns the progress; once `done`, `report()`
 * and `diagnostics()` hold the result. `stop()` ends it early, keeping what
 * was found. Free it with free() (or `using`).
 */
export class AnalysisJob {
  #job;

  /** Options: `budget` (states), `playouts`, `depth`, `seed`, `engine`. Throws a GdlDiagnosticsError for a game with errors. */
  constructor(kif, options = {}) {
    needReady();
    this.#job = new wasm.AnalysisJob(needString(kif, 'new AnalysisJob(kif, options): kif'), options);
  }

  #j() {
    if (!this.#job) {
      throw freed();
    }
    return this.#job;
  }

  /** Does about `work` units (a state expansion costs 1 plus its joint moves) and returns the progress. */
  step(work = 5000) {
    return this.#j().step(work);
  }

  /** The progress, without doing anything. */
  progress() {
    return this.#j().progress();
  }

  /** Ends the job now, keeping what it found (the rest is not established). */
  stop() {
    return this.#j().stop();
  }

  /** The report (the JSON of `gdlkit analyze --format json`), or null until done. */
  report() {
    return this.#j().report();
  }

  /** The refuted properties as diagnostics (GDL201–GDL208), or null until done. */
  diagnostics() {
    return this.#j().diagnostics();
  }

  /** The evaluation error that ended the job early, if any. */
  error() {
    return this.#j().error() ?? null;
  }

  /** The state machine running the analysis: "fast" or "interpreter". */
  engine() {
    return this.#j().engine();
  }

  /** `{report, diagnostics, error}` once done, else null. */
  result() {
    const report = this.report();
    return report === null ? null : { report, diagnostics: this.diagnostics(), error: this.error() };
  }

  get freed() {
    return !this.#job;
  }

  /** Releases the job (idempotent). */
  free() {
    const j = this.#job;
    this.#job = undefined;
    j?.free();
  }
}

if (typeof Symbol.dispose === 'symbol') {
  AnalysisJob.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}

/**
 * Runs the semantic validator to the end on the calling thread:
 * `{report, diagnostics, error}`. For a page, prefer GdlWorker.analyze
 * (progress, cancellation, the main thread stays free).
 */
export function analyze(kif, options = {}) {
  const job = new AnalysisJob(kif, options);
  try {
    while (!job.step(1 << 20).done) {
      // each step returns early when the phase changes
    }
    return job.result();
  } finally {
    job.free();
  }
}
