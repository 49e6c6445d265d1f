// The page's side of the engine: GdlWorker (the npm package's
// `gdlkit/worker`, js/worker.js) running the site's worker script
// (engine/worker.js: the package's job kinds plus the site's own), started
// from any origin by engine/start.js.
//
// The page uses separate workers for separate jobs so that one never waits
// for another: `check` (the editor's check and format, on every pause in
// typing, on the small check wasm: runCheck), `lint` (the same on the
// engine where the check wasm cannot run; features, the standalone file), `game`
// (the play view's states), `think` (engine moves, search trees, semantic
// analysis: long jobs that the user can stop). A hard cancel restarts a
// worker; the next call starts a fresh one.

import { isStandalone, newCheckWorker, newEngineWorker, warmEngineWorker } from './start.js';

/**
 * The package's job kinds (js/worker-core.js); every other operation is a
 * `site.*` kind of engine/worker.js.
 */
const PACKAGE_KINDS = new Set(['check', 'format', 'replay', 'cli', 'version', 'playouts', 'analyze', 'searchTree', 'bestMove', 'explain', 'mctsRoot', 'mctsChoose', 'alphabetaRoot', 'alphabetaChoose', 'ensembleMembers', 'ensembleMember', 'ensembleChoose']);

// ---- faults: a worker that dies is restarted, and the page is
// told so that it can say so and reload what the worker held (the play
// view's game and its moves). The page's text and history live outside the
// workers; they are saved before any job that may run long.

/**
 * The player an engine seat gets unless told otherwise: the engine's
 * `defaultPlayer()` (a test checks that they agree), known here before
 * the engine loads.
 */
export const DEFAULT_PLAYER = 'mcts-solver';

/** `restarted` events ({detail: {worker, message}}) after a worker fault. */
export const engineEvents = new EventTarget();

/** Jobs that may run long (grounding, searches, analyses): the page saves its work first. */
const LONG_KINDS = new Set(['playouts', 'analyze', 'searchTree', 'bestMove', 'explain', 'mctsRoot', 'alphabetaRoot', 'ensembleMember', 'site.load', 'site.structure', 'site.groundReport', 'site.searchGame', 'site.ggpNew', 'site.solve', 'site.solveSymbolic']);
const beforeLong = new Set();

/** Calls `fn()` before every job that may run long (the page saves its text). */
export function onBeforeLongJob(fn) {
  beforeLong.add(fn);
}

/** The workers by name, the latest of each (the test mode's trap finds the Match view's `ggp-N` here). */
const named = new Map();

export class EngineWorker {
  /** `name` labels the worker in errors; `start(options)` makes its GdlWorker (engine/start.js). */
  constructor(name, start = newEngineWorker) {
    this.name = name;
    this.start = start;
    this.worker = null;
    named.set(name, this);
  }

  get gdl() {
    this.worker ??= this.start({ sliceMs: 40, cancelGraceMs: 500 });
    return this.worker;
  }

  /**
   * Runs `op` in the worker. Returns a promise with two extra methods:
   * `cancel()` stops a sliced job between two slices (it rejects with an
   * error named `Cancelled`, carrying `partial`), `terminate()` stops the
   * worker at once (every pending call of this worker rejects with
   * `Cancelled`).
   */
  call(op, args = {}, { onProgress } = {}) {
    const kind = PACKAGE_KINDS.has(op) ? op : `site.${op}`;
    if (LONG_KINDS.has(kind)) {
      for (const fn of beforeLong) {
        try {
          fn();
        } catch {
          // saving is best effort; the job runs anyway
        }
      }
    }
    const task = this.gdl.run(kind, args, { onProgress });
    const promise = task.catch((e) => {
      if (e?.name === 'AbortError') {
        throw Object.assign(new Error('cancelled'), { name: 'Cancelled', partial: e.partial, hard: e.hard });
      }
      if (isFault(e)) {
        // A trap can leave the wasm instance corrupt: start a fresh worker
        // for the next call (the page's text and history live outside it).
        this.terminate();
        const restarted = Object.assign(new Error(`the engine failed (${e.message}) and was restarted; your rules and moves are kept`), {
          name: 'EngineRestarted',
          cause: e,
        });
        engineEvents.dispatchEvent(Object.assign(new Event('restarted'), { detail: { worker: this.name, message: e.message } }));
        throw restarted;
      }
      throw e;
    });
    promise.cancel = () => task.cancel();
    promise.terminate = () => this.terminate();
    return promise;
  }

  /**
   * The threads this worker's engine runs on (1 where the page cannot
   * share memory, engine/start.js): with more than one, a player's
   * `threads=N` grows one tree (MCTS) or fills one table (alpha-beta) on
   * N threads in this worker, instead of N workers that share nothing.
   */
  threads() {
    this.threadsPromise ??= this.call('features').then(
      (f) => f.threads ?? 1,
      () => 1,
    );
    return this.threadsPromise;
  }

  /** Hard cancel: restarts the worker; pending calls reject with `Cancelled`. */
  terminate() {
    this.worker?.restart();
  }

  /** Whether a call is running. */
  get busy() {
    return (this.worker?.pending ?? 0) > 0;
  }
}

/** A wasm trap, stack overflow or a dead worker (not a GDL error). */
function isFault(e) {
  return e?.name === 'RuntimeError' || /Maximum call stack|memory access out of bounds|unreachable|gdlkit worker failed|out of memory/i.test(String(e?.message ?? ''));
}

// Test mode (set by the page test before the page loads, never by the UI):
// `__gdlkitTrap(worker)` traps that worker's wasm instance (the `testTrap`
// kind, which only workers started in test mode accept: engine/start.js).
if (globalThis.__gdlkitTestFaults === true) {
  globalThis.__gdlkitTrap = (name = 'game') =>
    (engine()[name] ?? named.get(name)).call('testTrap').then(
      () => 'no trap',
      (e) => e.name,
    );
}

let shared = null;

/** An engine worker on threads (where the page can share memory: engine/start.js). */
export const onThreads = (options) => newEngineWorker({ ...options, threads: true });

/** The threads the `think` worker's engine runs on (EngineWorker.threads). */
export function thinkThreads() {
  return engine().think.threads();
}

/** The players whose spec takes `threads=N` (docs/search.md). */
const THREADED = new Set(['mcts', 'mcts-solver', 'alphabeta']);

/** `spec` on `n` threads: `threads=n` added for a player that takes it and has no thread count yet. */
export function specOnThreads(spec, n) {
  const [name, options = ''] = spec.split(/:(.*)/s);
  if (n <= 1 || !THREADED.has(name) || /\b(threads|cores)=/.test(options)) return spec;
  return options ? `${spec},threads=${n}` : `${spec}:threads=${n}`;
}

/** The page's workers, created on first use. */
export function engine() {
  if (!shared) {
    shared = {
      lint: new EngineWorker('lint'),
      game: new EngineWorker('game'),
      // Engine moves and the solver on threads where the page is cross-origin isolated.
      think: new EngineWorker('think', onThreads),
      // The Perfect-play switch's solver; it keeps the solution for the views' queries.
      solve: new EngineWorker('solve', onThreads),
      // The BDD solver: one blocking call, so Cancel ends this worker alone.
      symbolic: new EngineWorker('symbolic'),
      // The editor's checks on the small check wasm (runCheck below).
      check: new EngineWorker('check', newCheckWorker),
    };
  }
  return shared;
}

/**
 * `n` workers for root-parallel MCTS (`think` and `think-1`...): each
 * searches with its own seed, messages only (js/parallel.js).
 */
export function thinkers(n) {
  const e = engine();
  e.pool ??= [];
  while (e.pool.length < n - 1) e.pool.push(new EngineWorker(`think-${e.pool.length + 1}`));
  return [e.think, ...e.pool.slice(0, n - 1)];
}

/** Hard cancel of every thinking worker. */
export function terminateThinkers() {
  engine().think.terminate();
  for (const w of engine().pool ?? []) w.terminate();
}

/** The cores `cores: auto` uses on this machine (at most 8: each worker holds its own copy of the game). */
export function autoCores() {
  return Math.min(Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1), 8);
}

let featuresPromise = null;

/**
 * What this build's engine has: {version, format, search, searchTree,
 * searchFrom, searchPlayer, analysis}. The first call loads the engine;
 * `{deferred: true}` (the page's automatic load) waits until the editor
 * has its first diagnostics when the editor holds it (deferEngineUntil).
 */
export function features({ deferred = false } = {}) {
  if (deferred && !featuresPromise) return engineGate.then(() => features());
  featuresPromise ??= engine().lint.call('features').catch(() => ({}));
  return featuresPromise;
}

// ---- First load: the editor's diagnostics come from the
// check wasm (engine/check-worker.js, a fifth of the engine's size), and the
// engine's own load waits until the check wasm is in (or the first
// diagnostics are out, whichever comes first), so that on a slow line the
// two downloads do not share it. Only the automatic load waits: a view or a
// job that needs the engine starts it at once.

let engineGate = Promise.resolve();
let openEngineGate = () => {};

/** Holds the automatic load of the engine (`features({deferred: true})`) until `promise` settles or the check wasm is in (startChecker). */
export function deferEngineUntil(promise) {
  engineGate = new Promise((resolve) => {
    openEngineGate = resolve;
    Promise.resolve(promise).finally(resolve).catch(() => {});
  });
}

let checkUsable = null;

/** Whether the check worker started (memoised; starts it): false in a standalone file or where it failed. */
function checkWorkerUsable() {
  const e = engine();
  checkUsable ??= isStandalone()
    ? Promise.resolve(false)
    : e.check.gdl.ready.then(
        () => true,
        () => {
          e.check.terminate();
          return false;
        },
      );
  return checkUsable;
}

/**
 * Starts the check worker ahead of the first check, and the engine's worker
 * script beside it (engine/start.js); the engine's wasm may load once the
 * check wasm is in: the first diagnostics are then milliseconds away and
 * the line is free.
 */
export function startChecker() {
  checkWorkerUsable().then(() => openEngineGate());
  warmEngineWorker();
}

/**
 * Runs `op` ('check' or 'format') for the editor in the check worker or,
 * where it cannot start, in the engine's `lint` worker (the same Rust
 * functions). Resolves `{value, wasm}`: `wasm` names which answered,
 * 'check' or 'engine'.
 */
export async function runCheck(op, args) {
  const e = engine();
  if (await checkWorkerUsable()) return { value: await e.check.call(op, args), wasm: 'check' };
  return { value: await e.lint.call(op, args), wasm: 'engine' };
}
