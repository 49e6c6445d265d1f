// A fuzzer of the npm API at its boundary: every exported function and
// method called with arbitrary values (wrong types, out-of-range and
// non-finite numbers, nested objects, freed objects, foreign and released
// state handles) in every argument and option. A call may return or throw
// a TypeError, a RangeError or a gdlkit error (`name` starting with "Gdl");
// anything else is a failure: another exception, a trap (a GdlCrashError,
// which means the instance had to be rebuilt), or an instance that no
// longer plays tic-tac-toe afterwards. Seeded: a failure is replayed by
// its seed and call number.
//
// Run by tests/js-fuzz.test.mjs (a few seconds, in `npm test`) and by
// `npm run fuzz -- --targets js --seconds N` (scripts/fuzz.mjs).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TICTACTOE = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');

/** A game of two simultaneous steps for two roles: every call on it is quick. */
export const TINY = `(role a) (role b)
(init (step 0))
(<= (legal ?r (go 1)) (role ?r))
(<= (legal ?r (go 2)) (role ?r))
(<= (next (step 1)) (true (step 0)))
(<= (next (step 2)) (true (step 1)))
(<= (next (moved ?r ?m)) (does ?r (go ?m)))
(<= terminal (true (step 2)))
(<= (goal a 100) (true (moved a 1)))
(<= (goal a 0) (not (true (moved a 1))))
(<= (goal b 50) (role b))
`;

/** Every option key some function of the API reads (and a few it does not). */
const KEYS = [
  'engine', 'games', 'seed', 'maxSteps', 'onGame', 'ms', 'role', 'heuristic', 'moves', 'count', 'record', 'from',
  'algorithm', 'depth', 'budgetMs', 'nodes', 'trace', 'nodeCap', 'ordering', 'states', 'cell', 'labels', 'budget',
  'playouts', 'unsafe', 'member', 'worker', 'isTerminal', 'wasm', 'bogus', '__proto__', 'constructor',
];

const NUMBERS = [0, -0, 1, 2, -1, 1.5, 7, 100, 100001, 1e9, 2 ** 32, 2 ** 32 + 1, 2 ** 53, -1e9, 1e300, NaN, Infinity, -Infinity];
const STRINGS = ['', 'x', '(((', ')', 'auto', 'fast', 'interpreter', 'random', 'legal', 'mcts:ms=-1', 'mcts:nodes=20', 'alphabeta:nodes=50',
  'alphabeta:depth=2', 'minimax:depth=1', 'bestfirst:nodes=10', 'ensemble:ms=-5', 'mcts:c=NaN', 'fjo', 'hff', 'fuzzy', 'a', 'b', 'x', 'oplayer',
  '(go 1)', '(go 3)', '(step 0)', '(cell 1 1 b)', 'given', 'best', '((3 12 8) (2 4 6))', '\u0000', 'ü'.repeat(3), '-1', 'NaN', '1e300'];

/** A deterministic generator (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

/**
 * Runs the fuzzer on the API module `api` (js/node.js) for `seconds` (and
 * at least `minCalls` calls) from `seed`. Returns `{calls, seconds, failures: [{call, label, error}], slowest}`.
 */
export function fuzzApi(api, { seconds = 3, seed = 1, minCalls = 0, maxFailures = 20 } = {}) {
  const r = rng(seed);
  const pool = makePool(api);
  const failures = [];
  const t0 = performance.now();
  let calls = 0;
  let slowest = { ms: 0, label: '' };
  const ops = operations(api, pool, r);
  while ((calls < minCalls || performance.now() - t0 < seconds * 1000) && failures.length < maxFailures) {
    const [name, op] = r.pick(ops);
    calls += 1;
    const started = performance.now();
    const label = name;
    pool.args = [];
    try {
      op();
    } catch (e) {
      if (!allowed(api, e)) {
        failures.push({ call: calls, label, args: describe(pool.args), error: `${e?.name}: ${String(e?.message).slice(0, 300)}` });
        if (e?.name === 'GdlCrashError') {
          pool.lost(); // its objects are gone: their errors would repeat this one
        }
      }
    }
    const ms = performance.now() - started;
    if (ms > slowest.ms) {
      slowest = { ms, label };
    }
    if (calls % 50 === 0 || failures.length) {
      const dead = aliveError(api);
      if (dead) {
        failures.push({ call: calls, label: `after ${label}`, error: `the instance no longer works: ${dead}` });
        break;
      }
    }
    pool.refresh(r);
  }
  const dead = aliveError(api);
  if (dead) {
    failures.push({ call: calls, label: 'at the end', error: `the instance no longer works: ${dead}` });
  }
  pool.free();
  return { calls, seconds: (performance.now() - t0) / 1000, failures, slowest };
}

/** A short text of a call's arguments (for a failure's report). */
function describe(args) {
  const text = (x) => {
    if (typeof x === 'string') return JSON.stringify(x.length > 80 ? `${x.slice(0, 80)}…` : x);
    if (typeof x === 'bigint' || typeof x === 'symbol' || typeof x === 'function') return String(x);
    if (typeof x === 'number') return String(x);
    try {
      return JSON.stringify(x, (_, v) => (typeof v === 'bigint' || typeof v === 'symbol' ? String(v) : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v))?.slice(0, 200) ?? String(x);
    } catch {
      return Object.prototype.toString.call(x);
    }
  };
  return args.map(text).join(', ');
}

/** What a call may throw. */
function allowed(api, e) {
  if (e?.name === 'GdlCrashError' || e instanceof WebAssembly.RuntimeError) {
    return false;
  }
  return e instanceof TypeError || e instanceof RangeError || api.isGdlError(e);
}

/** Null when the instance still plays tic-tac-toe, else what went wrong. */
function aliveError(api) {
  try {
    const g = new api.Game(TICTACTOE);
    const n = g.legalMoves(g.initialState(), 0).length;
    g.free();
    return n === 9 ? null : `tic-tac-toe has ${n} first moves`;
  } catch (e) {
    return `${e?.name}: ${e?.message}`;
  }
}

/** Games (live and freed), handles (valid, released, foreign), players, jobs. */
function makePool(api) {
  const pool = {
    games: [],
    freed: [],
    handles: [],
    released: [],
    players: [],
    refresh(r) {
      if (pool.games.length < 3) {
        const g = new api.Game(r.chance(0.7) ? TINY : TICTACTOE);
        pool.games.push(g);
        pool.handles.push(g.initialState());
      }
      if (r.chance(0.02) && pool.games.length > 1) {
        const g = pool.games.shift();
        g.free();
        pool.freed.push(g);
      }
      if (pool.handles.length > 200) {
        pool.handles.splice(0, 100);
      }
    },
    /** After a rebuild: the objects of the old instance are gone. */
    lost() {
      pool.games = [];
      pool.freed = [];
      pool.handles = [];
      pool.released = [];
      pool.players = [];
      pool.refresh(rng(0));
    },
    args: [],
    free() {
      for (const g of pool.games) g.free();
      for (const p of pool.players) p.free();
    },
  };
  pool.refresh(rng(0));
  return pool;
}

/** An arbitrary value, sometimes one that fits (a game, a handle, a kif). */
function anyValue(pool, r, depth = 0) {
  switch (r.int(14)) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return r.chance(0.5);
    case 3:
    case 4:
      return r.pick(NUMBERS);
    case 5:
    case 6:
      return r.pick(STRINGS);
    case 7:
      return r.pick([TINY, TICTACTOE, '(role x', '(role r) (init (p)) (<= (legal r (go)) (true (p)))']);
    case 8:
      return depth > 3 ? [] : Array.from({ length: r.int(4) }, () => anyValue(pool, r, depth + 1));
    case 9:
      return depth > 3 ? {} : anyOptions(pool, r, depth + 1);
    case 10:
      return anyHandle(pool, r);
    case 11:
      return r.pick([...pool.games, ...pool.freed, ...pool.players, {}]);
    case 12:
      return r.pick([1n, Symbol('s'), () => 1, new Map([['a', 'b']]), new Uint8Array(3), Object.create(null)]);
    default:
      return r.pick([['(go 1)', '(go 1)'], ['(go 2)', '(go 1)'], [1, 2], ['(((', 42], ['(step 0)'], { a: '(go 1)', b: '(go 2)' }]);
  }
}

/** An options object: known keys with arbitrary values, sometimes fitting ones. */
function anyOptions(pool, r, depth = 0) {
  const o = {};
  for (let i = r.int(4); i > 0; i--) {
    const key = r.pick(KEYS);
    let value = anyValue(pool, r, depth + 1);
    // A time limit in range is obeyed: keep the fuzzer quick (the range
    // check itself still meets 1e9, NaN, -1, ...).
    if ((key === 'ms' || key === 'budgetMs') && value > 2000 && value <= 86_400_000) {
      value = 50;
    }
    o[key] = value;
  }
  return o;
}

/** A handle: of a live game, released, of a freed game, or a made-up number. */
function anyHandle(pool, r) {
  switch (r.int(4)) {
    case 0:
    case 1:
      return r.pick(pool.handles);
    case 2:
      return r.pick(pool.released.length ? pool.released : pool.handles);
    default:
      return r.pick(NUMBERS);
  }
}

/** [name, op] pairs: each op calls one function or method with arbitrary arguments. */
function operations(api, pool, r) {
  const seen = (x) => {
    pool.args.push(x);
    return x;
  };
  const v = () => seen(anyValue(pool, r));
  const o = () => (r.chance(0.8) ? seen(anyOptions(pool, r)) : v());
  const game = () => r.pick(r.chance(0.9) ? pool.games : pool.freed);
  const h = () => anyHandle(pool, r);
  const kif = () => (r.chance(0.8) ? seen(r.chance(0.85) ? 'TINY' : 'TICTACTOE') && (pool.args.at(-1) === 'TINY' ? TINY : TICTACTOE) : v());
  const role = () => r.pick([0, 1, 2, -1, 1.5, NaN, 'a', 'b', 'x', 'nobody', null, {}]);
  const keep = (x) => {
    if (typeof x === 'number') pool.handles.push(x);
    return x;
  };
  const methods = [
    ['check', () => api.check(v())],
    ['format', () => api.format(kif())],
    ['fix', () => api.fix(kif(), o())],
    ['replay', () => api.replay(kif(), v())],
    ['runCli', () => api.runCli(r.pick([['check', 'game.kif'], ['explain', 'game.kif', '--seconds', '1'], ['match', 'game.kif', '--games', String(r.pick(NUMBERS)), '--players', 'random', 'random'], v()]), { 'game.kif': TINY }, o())],
    ['explain', () => api.explain(kif(), o())],
    ['structure', () => api.structure(kif(), o())],
    ['renderBoard', () => api.renderBoard(kif(), v(), o())],
    ['search', () => api.search(kif(), o())],
    ['searchTree', () => api.searchTree(r.pick(['((3 12 8) (2 4 6))', v()]), o())],
    ['reorderTree', () => api.reorderTree(r.pick(['((3 12 8) (2 4 6))', v()]), v())],
    ['parseTree', () => api.parseTree(v())],
    ['parsePlayerSpec', () => api.parsePlayerSpec(v())],
    ['playerSpec', () => api.playerSpec(v())],
    ['runMatch', () => api.runMatch(kif(), r.pick([['random', 'random'], ['random', 'legal'], [v(), v()], v()]), o())],
    ['setMemoryBudget', () => {
      try {
        api.setMemoryBudget(r.chance(0.3) ? 1536 : v());
      } finally {
        api.setMemoryBudget(1536); // a small budget would fail what follows
      }
    }],
    ['memoryBudget', () => api.memoryBudget()],
    ['isGdlError', () => api.isGdlError(v(), v())],
    ['new Game', () => {
      const g = new api.Game(kif(), o());
      g.free();
    }],
    ['new Player', () => {
      const p = new api.Player(r.chance(0.5) ? game() : kif(), r.chance(0.5) ? r.pick(['random', 'mcts:nodes=20', 'alphabeta:nodes=50', 'mcts:ms=-1']) : v(), o());
      pool.players.push(p);
      if (pool.players.length > 4) pool.players.shift().free();
    }],
    ['player.selectMove', () => r.pick(pool.players.length ? pool.players : [{ selectMove() {} }]).selectMove(r.chance(0.5) ? h() : v(), role())],
    ['new AnalysisJob', () => {
      const j = new api.AnalysisJob(kif(), o());
      j.step(r.pick([0, 1, 100, 2 ** 32, -1, NaN]));
      j.free();
    }],
    ['new PlayoutJob', () => {
      const j = new api.PlayoutJob(kif(), o(), o());
      j.step(r.pick([0, 1, 3, -1, NaN]));
      j.free();
    }],
    ['new MctsWorker', () => {
      const w = new api.MctsWorker(kif(), r.pick(['mcts:nodes=20', v()]), o());
      w.rootStats(v(), role());
      w.free();
    }],
    ['new AlphaBetaWorker', () => {
      const w = new api.AlphaBetaWorker(kif(), r.pick(['alphabeta:nodes=20', v()]), o());
      w.rootResult(v(), role());
      w.free();
    }],
    ['new EnsembleMember', () => {
      const w = new api.EnsembleMember(kif(), r.pick(['ensemble:ms=20', v()]), o());
      w.free();
    }],
    ['mctsChoose', () => api.mctsChoose(v())],
    ['alphabetaChoose', () => api.alphabetaChoose(v())],
    ['ensembleChoose', () => api.ensembleChoose(v())],
    ['ensembleMembers', () => api.ensembleMembers(kif(), v(), o())],
    ['game.initialState', () => keep(game().initialState())],
    ['game.legalMoves', () => game().legalMoves(h(), role())],
    ['game.legalJointMoves', () => game().legalJointMoves(h())],
    ['game.next', () => keep(game().next(h(), v()))],
    ['game.next (legal)', () => {
      const g = game();
      const s = r.pick(pool.handles);
      return keep(g.next(s, g.legalJointMoves(s)[0] ?? []));
    }],
    ['game.isTerminal', () => game().isTerminal(h())],
    ['game.goals', () => game().goals(h())],
    ['game.goalValues', () => game().goalValues(h())],
    ['game.fluents', () => game().fluents(h())],
    ['game.describe', () => game().describe(h())],
    ['game.stateFromFluents', () => keep(game().stateFromFluents(v()))],
    ['game.sameState', () => game().sameState(h(), h())],
    ['game.dropState', () => {
      const s = h();
      game().dropState(s);
      pool.released.push(s);
    }],
    ['game.playouts', () => game().playouts(o())],
    ['game.search', () => game().search(h(), o())],
    ['game.explain', () => game().explain(h(), o())],
    ['game.roleIndex', () => game().roleIndex(role())],
    ['game.engine', () => game().engine],
    ['game.clearStates', () => (r.chance(0.1) ? game().clearStates() : undefined)],
  ];
  return methods;
}
