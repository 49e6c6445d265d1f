// The worker side of `gdlkit/worker`: runs jobs sent by the main thread
// (GdlWorker in worker.js) in slices driven by the main thread: after each
// slice the worker reports progress and waits for a `step` message, so a
// `cancel` message is seen between two slices. The message protocol is
// documented in docs/js-api.md ("The worker protocol").
//
// A job is `{ step(sliceMs) -> {done, progress?, value?}, partial?(), free?() }`,
// made by `KINDS[kind](api, params, report)`; `report(progress)` sends
// progress from inside a step (a match, after each game).
// One-shot kinds (check, format, replay, cli, and the search kinds: search,
// searchTree, match, bestMove) finish in their first step; sliced kinds
// (playouts, analyze, solve) take many.
//
// serve(scope, api) is independent of the environment: `scope` has
// postMessage(message) and receives messages through the `onMessage`
// function serve returns; `api` is the gdlkit module (index.js in a
// browser worker, node.js in a Node worker thread).

/** Protocol version, sent in the `ready` message. */
export const PROTOCOL = 1;

/** A plain, cloneable description of an error (name, message, extras). */
export function serializeError(e) {
  if (!(e instanceof Error) && !(e && typeof e === 'object')) {
    return { name: 'Error', message: String(e) };
  }
  const out = { name: String(e.name ?? 'Error'), message: String(e.message ?? e) };
  if (Array.isArray(e.diagnostics)) {
    out.diagnostics = e.diagnostics;
  }
  if (typeof e.step === 'number') {
    out.step = e.step;
  }
  return out;
}

const now = () => (globalThis.performance?.now ? globalThis.performance.now() : Date.now());

/** A job that is done after one call of `f`. */
function oneShot(f) {
  return { step: () => ({ done: true, value: f() }) };
}

/**
 * Random playouts from the initial state, in slices, played by the engine
 * (`PlayoutJob`: playout i is the game `gdlkit play --seed seed+i` plays).
 * Result: `{roles, playouts, terminal, meanSteps, meanGoals}`.
 */
function playouts(api, { kif, count = 100, maxSteps = 1000, seed = 1, engine }) {
  const job = new api.PlayoutJob(kif, { count, maxSteps, seed }, { engine });
  let chunk = 1;
  let first = true;
  return {
    step(sliceMs) {
      // The first slice plays one playout and reports, so progress shows at once.
      const end = first ? 0 : now() + sliceMs;
      first = false;
      let done = false;
      do {
        const t = now();
        done = job.step(chunk);
        // About a quarter of a slice per call.
        const dt = now() - t;
        chunk = dt > 0 ? Math.max(1, Math.min(10_000, Math.round((chunk * sliceMs) / 4 / dt))) : Math.min(10_000, chunk * 2);
      } while (!done && now() < end);
      const progress = { done: job.done, total: count };
      return done ? { done: true, progress, value: job.result() } : { done: false, progress };
    },
    partial: () => job.result(),
    free: () => job.free(),
  };
}

/**
 * The semantic analysis in slices: each slice steps the job until the time
 * is up; a soft cancel stops it and keeps what was found (the partial
 * result is a full report whose unsettled properties are null). The work
 * per call adapts so that one call takes about a quarter of a slice (its
 * cost per unit varies with the game and the phase).
 */
function analyze(api, { kif, options = {} }) {
  const job = new api.AnalysisJob(kif, options);
  return sliced(job, { work: 100, minWork: 10, result: () => job.result() });
}

/**
 * The solver in slices: each slice steps the job until the time is up; a
 * soft cancel ends the exploration and solves what was explored (a partial
 * summary). Work per call adapts as in `analyze`.
 */
function solve(api, { kif, options = {} }) {
  const job = new api.SolveJob(kif, options);
  return sliced(job, { work: 1000, minWork: 100, result: () => job.summary() });
}

/**
 * A resumable job (`step(work)` → progress with `done`, `stop()`, `free()`)
 * as a task: each slice steps it until the time is up, the work per call
 * adapting so that one call takes about a quarter of a slice; `result()`
 * is the value once done, or what a soft cancel keeps after `stop()`.
 */
export function sliced(job, { work, minWork, result }) {
  return {
    step(sliceMs) {
      const end = now() + sliceMs;
      const target = Math.max(1, sliceMs / 4);
      let p;
      do {
        const t = now();
        p = job.step(work);
        const dt = now() - t;
        const factor = dt > 0 ? Math.min(2, Math.max(0.5, target / dt)) : 2;
        work = Math.max(minWork, Math.min(1_000_000, Math.round(work * factor)));
      } while (!p.done && now() < end);
      return p.done ? { done: true, value: result() } : { done: false, progress: p };
    },
    partial() {
      job.stop();
      return result();
    },
    free: () => job.free(),
  };
}

/**
 * The players of the last `bestMove` jobs by game, spec, seed, engine and
 * solution option, kept so that a player keeps its tables (and the solve
 * made at its start) from one move to the next (the 4 most recently used;
 * older ones are freed).
 */
const players = new Map();

function bestMove(api, { kif, spec = api.defaultPlayer(), seed, engine, solution, fluents, role = 0, seen }) {
  const key = JSON.stringify([kif, api.playerSpec(spec), seed ?? null, engine ?? null, solution ?? null]);
  let player = players.get(key);
  players.delete(key); // re-inserted below: the most recent last
  player ??= new api.Player(kif, spec, { seed, engine, solution });
  players.set(key, player);
  for (const [k, old] of players) {
    if (players.size <= 4) {
      break;
    }
    old.free();
    players.delete(k);
  }
  if (Array.isArray(seen)) {
    // GDL-II: the player is told the game as `role` saw it (its moves and
    // percepts, `[{move, percepts}]` per step), from the start.
    player.newGame();
    for (const step of seen) {
      player.observe(role, step.move, step.percepts);
    }
  }
  return oneShot(() => {
    const move = player.selectMove(fluents, role);
    return { move, player: player.name, stats: player.lastStats(), solved: player.lastMoveSolved };
  });
}

/**
 * Root-parallel MCTS (js/parallel.js): this worker's root statistics, with
 * its MctsWorker kept (by game, spec, seed, worker number and engine) so
 * its random generator runs on from move to move, as natively.
 */
const mctsWorkers = new Map();

function mctsRoot(api, { kif, spec = api.defaultPlayer(), seed, worker = 0, engine, fluents, role = 0 }) {
  const key = JSON.stringify([kif, spec, seed ?? null, worker, engine ?? null]);
  let w = mctsWorkers.get(key);
  mctsWorkers.delete(key);
  w ??= new api.MctsWorker(kif, spec, { seed, worker, engine });
  mctsWorkers.set(key, w);
  for (const [k, old] of mctsWorkers) {
    if (mctsWorkers.size <= 4) {
      break;
    }
    old.free();
    mctsWorkers.delete(k);
  }
  return oneShot(() => w.rootStats(fluents, role));
}

/**
 * Parallel alpha-beta (js/parallel.js): this worker's search result, with
 * its AlphaBetaWorker kept (by game, spec, worker number and engine) so its
 * transposition table carries over from move to move, as natively.
 */
const alphabetaWorkers = new Map();

function alphabetaRoot(api, { kif, spec = 'alphabeta', worker = 0, engine, fluents, role = 0 }) {
  const key = JSON.stringify([kif, spec, worker, engine ?? null]);
  const w = keep(alphabetaWorkers, key, () => new api.AlphaBetaWorker(kif, spec, { worker, engine }), 4);
  return oneShot(() => w.rootResult(fluents, role));
}

/**
 * The ensemble across workers (js/parallel.js `parallelEnsembleMove`): the
 * member lists by game and spec, and each worker's members, kept (by game,
 * spec, member number and engine) so their tables survive from move to move.
 */
const ensembleLists = new Map();
const ensembleMembers = new Map();

function keep(cache, key, make, max = 8) {
  let v = cache.get(key);
  cache.delete(key); // re-inserted below: the most recent last
  v ??= make();
  cache.set(key, v);
  for (const [k, old] of cache) {
    if (cache.size <= max) {
      break;
    }
    old.free?.();
    cache.delete(k);
  }
  return v;
}

function ensembleMember(api, { kif, spec = 'ensemble', member = 0, engine, fluents, role = 0 }) {
  const key = JSON.stringify([kif, spec, member, engine ?? null]);
  const m = keep(ensembleMembers, key, () => new api.EnsembleMember(kif, spec, { member, engine }));
  return oneShot(() => m.search(fluents, role));
}

function ensembleMemberList(api, { kif, spec = 'ensemble', engine }) {
  const key = JSON.stringify([kif, spec, engine ?? null]);
  return oneShot(() => keep(ensembleLists, key, () => api.ensembleMembers(kif, spec, { engine })));
}

/** The job kinds: `kind -> (api, params, report) => job`. */
export const KINDS = {
  check: (api, { text }) => oneShot(() => api.check(text)),
  format: (api, { text }) => oneShot(() => api.format(text)),
  replay: (api, { kif, moves }) => oneShot(() => api.replay(kif, moves)),
  cli: (api, { args, files = {}, isTerminal = false }) => oneShot(() => api.runCli(args, files, { isTerminal })),
  version: (api) => oneShot(() => api.version()),
  playouts,
  analyze,
  solve,
  // Search: each is one wasm call, which cannot stop between slices (a
  // cancel restarts the worker; see ATOMIC_KINDS in worker.js). A match
  // reports each finished game while it runs (`report`).
  search: (api, { kif, options }) => oneShot(() => api.search(kif, options)),
  searchTree: (api, { tree, options }) => oneShot(() => api.searchTree(tree, options)),
  match: (api, { kif, players, options = {} }, report) => {
    const total = options.games ?? 10; // runMatch's default
    let games = 0;
    const onGame = (record) => report({ games: ++games, total, record });
    return oneShot(() => api.runMatch(kif, players, { ...options, onGame }));
  },
  bestMove,
  // The values of a position's moves (docs/planning.md): one wasm call.
  explain: (api, { kif, options }) => oneShot(() => api.explain(kif, options)),
  // The structure of a game (one wasm call) and a board's SVG.
  structure: (api, { kif, options }) => oneShot(() => api.structure(kif, options)),
  renderBoard: (api, { game, state, options }) => oneShot(() => api.renderBoard(game, state, options)),
  // Root-parallel MCTS.
  mctsRoot,
  mctsChoose: (api, { parts }) => oneShot(() => api.mctsChoose(parts)),
  // Parallel alpha-beta (lazy SMP).
  alphabetaRoot,
  alphabetaChoose: (api, { parts }) => oneShot(() => api.alphabetaChoose(parts)),
  // The ensemble player across workers.
  ensembleMembers: ensembleMemberList,
  ensembleMember,
  ensembleChoose: (api, { parts }) => oneShot(() => api.ensembleChoose(parts)),
};

/**
 * Serves the protocol. Returns the function to call with each message
 * received from the main thread.
 */
export function serve(scope, api) {
  const jobs = new Map(); // id -> job, between two slices
  const backlog = []; // messages received before init finished
  let sliceMs = 16;
  let ready = false;

  const post = (message) => scope.postMessage(message);

  const finish = (id) => {
    const job = jobs.get(id);
    jobs.delete(id);
    try {
      job?.free?.();
    } catch {
      // freeing cannot fail in a way the caller could act on
    }
  };

  // One slice of a job. Between two slices the worker is idle, so a
  // `cancel` from the main thread is handled at once; the main thread
  // answers each `progress` with the `step` that runs the next slice.
  function slice(id) {
    const job = jobs.get(id);
    if (!job) {
      return;
    }
    let r;
    try {
      r = job.step(sliceMs);
    } catch (e) {
      post({ type: 'error', id, error: serializeError(e) });
      finish(id);
      return;
    }
    if (r.done) {
      post({ type: 'result', id, value: r.value });
      finish(id);
    } else {
      post({ type: 'progress', id, progress: r.progress ?? null });
    }
  }

  function handle(message) {
    switch (message?.type) {
      case 'start': {
        const { id, kind, params } = message;
        const make = KINDS[kind];
        if (!make) {
          post({ type: 'error', id, error: { name: 'TypeError', message: `unknown job kind ${kind}` } });
          return;
        }
        try {
          // `report(progress)`: progress from inside a long call (no `step` expected).
          jobs.set(id, make(api, params ?? {}, (progress) => post({ type: 'progress', id, progress, running: true })));
        } catch (e) {
          post({ type: 'error', id, error: serializeError(e) });
          return;
        }
        slice(id);
        return;
      }
      case 'step':
        slice(message.id);
        return;
      case 'cancel': {
        const { id } = message;
        const job = jobs.get(id);
        if (!job) {
          return; // finished already (its result is on its way) or unknown
        }
        let partial;
        try {
          partial = job.partial?.();
        } catch {
          partial = undefined;
        }
        post({ type: 'cancelled', id, partial });
        finish(id);
        return;
      }
      default:
        post({ type: 'error', id: message?.id ?? 0, error: { name: 'TypeError', message: `unknown message type ${message?.type}` } });
    }
  }

  return function onMessage(message) {
    if (message?.type === 'init') {
      if (typeof message.sliceMs === 'number' && message.sliceMs > 0) {
        sliceMs = message.sliceMs;
      }
      Promise.resolve(api.init(message.wasm))
        .then(() => {
          ready = true;
          post({ type: 'ready', version: api.version(), protocol: PROTOCOL, kinds: Object.keys(KINDS) });
          for (const m of backlog.splice(0)) {
            handle(m);
          }
        })
        .catch((e) => post({ type: 'init-error', error: serializeError(e) }));
      return;
    }
    if (!ready) {
      backlog.push(message);
      return;
    }
    handle(message);
  };
}
