// `gdlkit/worker`: GdlWorker, the main-thread client of a worker that runs
// gdlkit jobs (validation, replay, the CLI, random playouts, the semantic
// analysis, search, matches and players' moves) off the main thread, with progress
// events and cancellation. Protocol: docs/js-api.md ("The worker protocol").
//
//   const worker = new GdlWorker();
//   const task = worker.playouts(kif, { count: 1000 }, { onProgress: (p) => ... });
//   task.cancel();               // soft: stops at the next slice, rejects with AbortError
//   worker.restart();            // hard: terminates the worker, rejects every task
//
// A soft cancel that is not acknowledged within `cancelGraceMs` (the worker
// is inside one long call) becomes a hard one: the worker is terminated and
// restarted, and the other tasks in flight are started again on the new one.

import { mainThreadWorker, resilientWorker, workerFrom } from './worker-start.js';

/**
 * Job kinds that are one long wasm call: the worker cannot see a cancel
 * until the call returns, so cancelling one restarts the worker at once.
 */
const ATOMIC_KINDS = new Set(['search', 'searchTree', 'match', 'bestMove', 'explain', 'structure', 'mctsRoot', 'mctsChoose', 'alphabetaRoot', 'alphabetaChoose', 'ensembleMembers', 'ensembleMember', 'ensembleChoose']);

function abortError(message, extra = {}) {
  const e = typeof DOMException === 'function' ? new DOMException(message, 'AbortError') : Object.assign(new Error(message), { name: 'AbortError' });
  return Object.assign(e, extra);
}

/** Rebuilds an error sent by the worker (name, message, diagnostics, step). */
function reviveError(data) {
  const ctor = { TypeError, RangeError }[data?.name] ?? Error;
  const e = new ctor(data?.message ?? 'unknown error in the gdlkit worker');
  if (data?.name && e.name !== data.name) {
    e.name = data.name;
  }
  if (data?.diagnostics) {
    e.diagnostics = data.diagnostics;
  }
  if (typeof data?.step === 'number') {
    e.step = data.step;
  }
  return e;
}

/** A URL or string made absolute (the worker resolves against its own URL). */
function absolute(input) {
  if (typeof input === 'string' || input instanceof URL) {
    const base = globalThis.location?.href;
    return base ? new URL(String(input), base).href : String(input);
  }
  return input; // bytes or a WebAssembly.Module: cloned as they are
}

/**
 * The default worker: the module worker script next to this file, from any
 * origin (worker-start.js: a same-origin blob imports a cross-origin script;
 * a blocked URL is named in the error; without workers the jobs run on the
 * main thread in slices). The same-origin case keeps the literal
 * `new Worker(new URL(…, import.meta.url))` that bundlers recognise.
 */
function defaultWorker() {
  const here = import.meta.url;
  const script = new URL('./worker-script.js', here);
  const sameOrigin = script.origin === globalThis.location?.origin;
  return webWorker(
    () => (sameOrigin ? new Worker(new URL('./worker-script.js', import.meta.url), { type: 'module' }) : workerFrom({ url: script })),
    { script: script.href, wasm: new URL('../pkg/gdlkit_bg.wasm', here).href },
    async () => ({ api: await import('./index.js'), serve: (await import('./worker-core.js')).serve }),
  );
}

/** A worker started by `create` through worker-start.js; `urls` are checked when it fails to start. */
function webWorker(create, urls, loadMainThread) {
  return resilientWorker({ create, urls, fallback: loadMainThread ? () => mainThreadWorker(loadMainThread) : undefined });
}

/** Connects a Web Worker or a Node worker_threads Worker. */
function connect(worker, onMessage, onError) {
  if (typeof worker.on === 'function') {
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', (code) => code !== 0 && code !== 1 && onError(new Error(`the gdlkit worker exited (code ${code})`)));
    return;
  }
  worker.onmessage = (event) => onMessage(event.data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    onError(new Error(`the gdlkit worker failed: ${event.message ?? 'script error'}`));
  };
  worker.onmessageerror = () => onError(new Error('the gdlkit worker sent a message that cannot be read'));
}

export class GdlWorker extends EventTarget {
  #options;
  #worker = null;
  #ready = null;
  #tasks = new Map();
  #nextId = 1;
  #closed = false;

  /**
   * Options: `wasm` (URL, bytes or WebAssembly.Module of gdlkit_bg.wasm;
   * default: next to the package's module), `workerUrl` (the worker
   * script), `createWorker` (a function returning a Worker, instead of
   * both), `sliceMs` (work per slice, default 16), `cancelGraceMs` (how long
   * a soft cancel may take before the worker is restarted, default 1000).
   */
  constructor(options = {}) {
    super();
    this.#options = { sliceMs: 16, cancelGraceMs: 1000, ...options };
  }

  /** Resolves with `{version, protocol, kinds}` once the worker has loaded the wasm. */
  get ready() {
    this.#spawn();
    const worker = this.#worker;
    worker.ref?.(); // Node: stay alive until the worker answers
    this.#ready.finally(() => this.#tasks.size === 0 && worker.unref?.()).catch(() => {});
    return this.#ready;
  }

  #spawn() {
    if (this.#closed) {
      throw new Error('gdlkit/worker: this GdlWorker was terminated');
    }
    if (this.#worker) {
      return;
    }
    const o = this.#options;
    let worker;
    if (o.createWorker) {
      worker = o.createWorker();
    } else if (o.workerUrl) {
      const wasm = typeof o.wasm === 'string' || o.wasm instanceof URL ? absolute(o.wasm) : undefined;
      worker = webWorker(() => workerFrom({ url: o.workerUrl }), { script: absolute(o.workerUrl), wasm }, o.mainThread);
    } else {
      worker = defaultWorker();
    }
    this.#worker = worker;
    let resolveReady;
    let rejectReady;
    this.#ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    this.#ready.catch(() => {}); // reported through the tasks too
    connect(
      worker,
      (message) => {
        if (this.#worker !== worker) {
          return; // a message from a terminated worker
        }
        if (message?.type === 'ready') {
          resolveReady({ version: message.version, protocol: message.protocol, kinds: message.kinds });
        } else if (message?.type === 'init-error') {
          const e = reviveError(message.error);
          rejectReady(e);
          this.#fail(worker, e);
        } else {
          this.#onMessage(message);
        }
      },
      (error) => {
        if (this.#worker === worker) {
          rejectReady(error);
          this.#fail(worker, error);
        }
      },
    );
    worker.unref?.();
    worker.postMessage({ type: 'init', wasm: absolute(o.wasm), sliceMs: o.sliceMs });
  }

  /** The worker is broken: every task fails, the next one starts a new worker. */
  #fail(worker, error) {
    this.#kill(worker);
    for (const task of [...this.#tasks.values()]) {
      this.#settle(task, () => task.reject(error));
    }
  }

  #kill(worker) {
    if (this.#worker === worker) {
      this.#worker = null;
    }
    try {
      worker.terminate();
    } catch {
      // already gone
    }
  }

  #settle(task, action) {
    if (this.#tasks.get(task.id) === task) {
      this.#tasks.delete(task.id);
      clearTimeout(task.timer);
      task.unlisten?.();
      if (this.#tasks.size === 0) {
        this.#worker?.unref?.(); // Node: an idle worker thread does not keep the process alive
      }
      action();
    }
  }

  #onMessage(message) {
    const task = this.#tasks.get(message?.id);
    if (!task) {
      return;
    }
    switch (message.type) {
      case 'progress':
        // The worker waits for `step` before the next slice; a task being
        // cancelled gets no step (the cancel message is on its way).
        if (task.timer === undefined && !message.running) {
          this.#worker.postMessage({ type: 'step', id: task.id });
        }
        if (message.progress !== null && message.progress !== undefined) {
          task.onProgress?.(message.progress);
          this.dispatchEvent(Object.assign(new Event('progress'), { detail: { id: task.id, kind: task.kind, progress: message.progress } }));
        }
        break;
      case 'result':
        this.#settle(task, () => task.resolve(message.value));
        break;
      case 'error':
        this.#settle(task, () => task.reject(reviveError(message.error)));
        break;
      case 'cancelled':
        this.#settle(task, () => task.reject(abortError(`${task.kind} cancelled`, { partial: message.partial, hard: false })));
        break;
      default:
        break;
    }
  }

  /**
   * Starts a job of `kind` with `params` in the worker. Returns a promise
   * with `id` and `cancel()`. Options: `onProgress(progress)`, `signal` (an
   * AbortSignal that cancels the task).
   */
  run(kind, params = {}, { onProgress, signal } = {}) {
    let task;
    const promise = new Promise((resolve, reject) => {
      task = { id: this.#nextId++, kind, params, resolve, reject, onProgress, timer: undefined };
    });
    promise.id = task.id;
    promise.cancel = (options) => this.cancel(task.id, options);
    if (signal?.aborted) {
      task.reject(abortError(`${kind} cancelled`, { hard: false }));
      return promise;
    }
    try {
      this.#spawn();
    } catch (e) {
      task.reject(e);
      return promise;
    }
    this.#tasks.set(task.id, task);
    if (signal) {
      const abort = () => this.cancel(task.id);
      signal.addEventListener('abort', abort, { once: true });
      task.unlisten = () => signal.removeEventListener('abort', abort);
    }
    this.#worker.ref?.();
    this.#worker.postMessage({ type: 'start', id: task.id, kind, params });
    return promise;
  }

  /**
   * Cancels a task (by id). Soft by default: the worker stops it at the
   * next slice and the task rejects with an AbortError (with `partial`, the
   * result so far, for sliced jobs). If the worker does not answer within
   * `cancelGraceMs`, or with `{hard: true}`, or for a search kind (one long
   * call), the worker is restarted.
   */
  cancel(id, { hard = false } = {}) {
    const task = this.#tasks.get(id);
    if (!task || !this.#worker) {
      return;
    }
    if (hard || ATOMIC_KINDS.has(task.kind)) {
      this.#hardCancel(task);
      return;
    }
    if (task.timer === undefined) {
      this.#worker.postMessage({ type: 'cancel', id });
      task.timer = setTimeout(() => this.#hardCancel(task), this.#options.cancelGraceMs);
    }
  }

  /** Terminates the worker; the task rejects, the other tasks start again on a new worker. */
  #hardCancel(task) {
    if (this.#tasks.get(task.id) !== task) {
      return;
    }
    this.#settle(task, () => task.reject(abortError(`${task.kind} cancelled (worker restarted)`, { hard: true })));
    const others = [...this.#tasks.values()];
    this.#kill(this.#worker);
    this.dispatchEvent(Object.assign(new Event('restart'), { detail: { reason: 'cancel', id: task.id } }));
    if (others.length > 0) {
      this.#spawn();
      this.#worker.ref?.();
      for (const t of others) {
        clearTimeout(t.timer);
        t.timer = undefined;
        this.#worker.postMessage({ type: 'start', id: t.id, kind: t.kind, params: t.params });
      }
    }
  }

  /**
   * Hard cancel of everything: terminates the worker and rejects every
   * task in flight with an AbortError. The next task starts a new worker.
   */
  restart() {
    const tasks = [...this.#tasks.values()];
    if (this.#worker) {
      this.#kill(this.#worker);
    }
    for (const t of tasks) {
      this.#settle(t, () => t.reject(abortError(`${t.kind} cancelled (worker restarted)`, { hard: true })));
    }
    this.dispatchEvent(Object.assign(new Event('restart'), { detail: { reason: 'restart' } }));
  }

  /** Terminates the worker for good; tasks in flight reject with an AbortError. */
  terminate() {
    this.restart();
    this.#closed = true;
  }

  /** How many tasks are in flight. */
  get pending() {
    return this.#tasks.size;
  }

  // ------------------------------------------------------------ the jobs

  /** Diagnostics of a game text (as `check` of the main module). */
  check(text, options) {
    return this.run('check', { text }, options);
  }

  /** The canonical layout of a game text (as `format`). */
  format(text, options) {
    return this.run('format', { text }, options);
  }

  /** The conformance replay of joint moves (as `replay`). */
  replay(kif, moves, options) {
    return this.run('replay', { kif, moves }, options);
  }

  /** The command line over an object of files (as `runCli`). */
  cli(args, files = {}, options) {
    return this.run('cli', { args, files: files instanceof Map ? Object.fromEntries(files) : files }, options);
  }

  /**
   * The semantic analysis (as `analyze`), in slices: progress is the
   * job's `{phase, mode, states, expanded, playouts, ...}`; result
   * `{report, diagnostics, error}`. A soft cancel keeps what was found: the
   * AbortError's `partial` is such a result.
   */
  analyze(kif, options = {}, taskOptions) {
    return this.run('analyze', { kif, options }, taskOptions);
  }

  /**
   * The solver (as `solve`), in slices: progress is the job's `{states,
   * expanded, edges, done}`; result the summary. A soft cancel solves what
   * was explored: the AbortError's `partial` is a partial summary.
   */
  solve(kif, options = {}, taskOptions) {
    return this.run('solve', { kif, options }, taskOptions);
  }

  /**
   * A search from the initial state (as `search`): one wasm call, so no
   * progress reports; cancelling it restarts the worker at once.
   */
  search(kif, options = {}, taskOptions) {
    return this.run('search', { kif, options }, taskOptions);
  }

  /** The values of a position's moves (as `explain`): one wasm call. */
  explain(kif, options = {}, taskOptions) {
    return this.run('explain', { kif, options }, taskOptions);
  }

  /** A search of an abstract tree (as `searchTree`), with the trace when `options.trace`. */
  searchTree(tree, options = {}, taskOptions) {
    return this.run('searchTree', { tree, options }, taskOptions);
  }

  /**
   * A match between players (as `runMatch`); players are spec strings or
   * `{name, ...options}`. Progress after each game: `{games, total, record}`
   * (`record` as in the result's `results`).
   */
  match(kif, players, options = {}, taskOptions = {}) {
    const { onGame, ...rest } = options; // a function cannot go to the worker: called here
    const onProgress = onGame
      ? (p) => {
          onGame(p.record);
          taskOptions.onProgress?.(p);
        }
      : taskOptions.onProgress;
    return this.run('match', { kif, players, options: rest }, { ...taskOptions, onProgress });
  }

  /**
   * A player's move in a state (as `Player.selectMove`): `{move, player,
   * stats}` (`player`: its name with its options). The worker keeps the
   * last few players (by game, spec and seed) between calls, so their
   * tables carry over from move to move. GDL-II: `seen` (the role's moves
   * and percepts so far) is told to the player before it moves.
   * `solution`: as `new Player`'s option.
   */
  bestMove(kif, { spec, seed, engine, solution, fluents, role = 0, seen } = {}, taskOptions) {
    return this.run('bestMove', { kif, spec, seed, engine, solution, fluents, role, seen }, taskOptions);
  }

  /**
   * Random playouts from the initial state, in slices, played by the
   * engine (playout i is `gdlkit play --seed seed+i`): progress `{done,
   * total}`; result `{roles, playouts, terminal, meanSteps, meanGoals}`.
   */
  playouts(kif, { count = 100, maxSteps = 1000, seed = 1, engine } = {}, options) {
    return this.run('playouts', { kif, count, maxSteps, seed, engine }, options);
  }

  /** The structure of a game (as `structure`): one wasm call, bounded by `options.ms`. */
  structure(kif, options = {}, taskOptions) {
    return this.run('structure', { kif, options }, taskOptions);
  }

  /** The SVG of a state's board (as `renderBoard`); `game`: KIF text or a structure. */
  renderBoard(game, state, options = {}, taskOptions) {
    return this.run('renderBoard', { game, state, options }, taskOptions);
  }
}

if (typeof Symbol.dispose === 'symbol') {
  GdlWorker.prototype[Symbol.dispose] = function dispose() {
    this.terminate();
  };
}
