// The page's engine worker: the npm package's worker (`gdlkit/worker`,
// js/worker-core.js: job protocol with progress and cancellation, driven
// by GdlWorker on the page) extended with the site's own job kinds. Every
// call into the WebAssembly engine made by the page runs here, never on the
// UI thread.
//
// Kinds added here (named `site.*`): the play view's games held by id and
// their states by handle (`site.load`, `site.next`, `site.replayMoves`,
// ...), the registry of players and parsed player specs (`site.players`),
// the structure that boards are drawn from (`site.structure`), what
// grounding does (`site.groundReport`, the Instantiation panel), traced
// searches of a game from a given position and move order
// (`site.searchGame`, through the engine's `from` and `ordering`), and
// `site.features` (what this build has), `site.repository` (a GGP
// repository's URLs and answers), `site.standalone` (the
// standalone lecture file; the page's wasm has no command line). Engine
// moves and abstract trees are the package's own kinds (`bestMove`, which
// keeps players between moves, and `searchTree`).

import * as api from '../../../js/index.js';
import { KINDS, serve, sliced } from '../../../js/worker-core.js';
// The same module instance as js/api.js (initialised by `api.init` when the page's GdlWorker starts this worker).
import * as wasm from '../../../pkg/gdlkit.js';

/** An export of the wasm module that older builds may not have (null then). */
function optional(name) {
  const f = wasm[name];
  return typeof f === 'function' ? f : null;
}

/** GGP matches of the Match view by id, and the page's engine players by key. */
const ggpMatches = new Map();
const ggpPlayers = new Map();

function ggpMatch(id) {
  const m = ggpMatches.get(id);
  if (!m) throw Object.assign(new Error(`no match ${id} in the worker (reloaded?)`), { name: 'GdlStaleGame' });
  return m;
}

/** Structures of the matches by id (for their boards). */
const ggpStructures = new Map();

/** What the Match view draws after each phase (`board`: see boardOf). */
function ggpSnapshot(m, id) {
  const legal = m.phase === 'play' ? m.roles.map((_, r) => m.legalMoves(r)) : m.roles.map(() => []);
  const fluents = m.fluents;
  const board = boardsOf(ggpStructures.get(id), [fluents])[0];
  return { phase: m.phase, isDone: m.isDone, fluents, events: m.events, record: m.record(), legal, board };
}

/**
 * The board cells of each state (a list of fluent texts) for drawing:
 * `{fluent, size, xs, ys, zs, cells: [{x, y, z, content}], rest}` or null,
 * split in Rust (`boardCells`, crate/play/src/structure/board.rs).
 */
function boardsOf(structure, states) {
  const boardCells = optional('boardCells');
  if ((!structure?.boards?.length && !structure?.scene) || !boardCells) return states.map(() => null);
  return boardCells(structure, states);
}

/** The structure for drawing boards: a short simulation (crate/play/src/structure). */
function structureOf(text) {
  try {
    return api.structure(text, { states: 300, ms: 1500 });
  } catch {
    return null;
  }
}

/** Loaded games of the play view: id → Game. */
const games = new Map();
// Ids start at random, so an id from a worker that died is unknown to its
// successor (GdlStaleGame) rather than naming another game. (The page's
// only Math.random: a name, no game's randomness, which is the engine's
// seeded generator.)
let nextGameId = 1 + Math.floor(Math.random() * 1e6) * 1000;

function game(id) {
  const g = games.get(id);
  if (!g) {
    throw Object.assign(new Error(`no game ${id} in the worker (reloaded?)`), { name: 'GdlStaleGame' });
  }
  return g;
}

/** Structures of the loaded games (for the board cells that moves name): Game → structure. */
const structures = new WeakMap();

/**
 * A state for the play view; with the game's board, `cells` maps each
 * legal move (and the joint move `joint` that led here) to the board cells
 * it names, computed in Rust (`moveCells`).
 */
function describe(g, handle, joint = []) {
  const d = { handle, ...g.describe(handle) };
  const st = structures.get(g);
  const moveCells = optional('moveCells');
  if (st?.boards?.length && moveCells) d.cells = moveCells(st, [...new Set([...d.legal.flat(), ...joint])]);
  d.board = boardsOf(st, [d.fluents])[0];
  return d;
}

/**
 * The state after `joint` in state `handle`, described; in GDL-II games
 * with `percepts`: what each role perceived on the way (the engine's
 * `percepts`, the ones `replay` records).
 */
function step(g, handle, joint) {
  const d = describe(g, g.next(handle, joint), joint);
  if (g.isGdl2) {
    d.percepts = g.percepts(handle, joint);
    // Chance's draw as cards or dice (Rust: chanceDrawings), in all and as each role saw it.
    const c = g.chanceRole();
    const st = structures.get(g);
    const draw = optional('chanceDrawings');
    if (c !== null && st && draw) {
      d.chanceDrawn = { all: draw(st, joint[c]), seen: d.percepts.map((p) => draw(st, joint[c], p)) };
    }
  }
  return d;
}

const ops = {
  features() {
    return {
      version: api.version(),
      format: Boolean(optional('format')),
      search: Boolean(optional('search')),
      searchTree: Boolean(optional('searchTree')),
      searchFrom: Boolean(optional('search')),
      searchPlayer: Boolean(optional('SearchPlayer')),
      analysis: Boolean(optional('AnalysisJob')),
      // The threads of this worker's engine (engine/worker-threads.js; 1 without shared memory).
      threads: optional('threadCount')?.() ?? 1,
    };
  },

  /** The roles of a text's `(role r)` facts (Rust, without loading the game). */
  roles({ text }) {
    return wasm.roles(text);
  },

  // ---- play: games held by id, states by handle ----
  load({ text }) {
    const g = new api.Game(text);
    const id = nextGameId++;
    games.set(id, g);
    // The page keeps one game at a time (plus one while switching).
    for (const old of [...games.keys()]) {
      if (games.size > 2 && old !== id) {
        games.get(old).free();
        games.delete(old);
      }
    }
    const initial = g.initialState();
    const structure = structureOf(text);
    if (structure) structures.set(g, structure);
    // GDL-II: the chance role (drawn, never seated) and whether roles see only their percepts.
    const gdl2 = typeof g.chanceRole === 'function' && g.isGdl2;
    return { id, roles: g.roles(), initial: describe(g, initial), structure, gdl2, chance: gdl2 ? g.chanceRole() : null };
  },

  /** The game's structure (boards, pieces, ...), found in Rust; null when it cannot be found. */
  structure({ text }) {
    return structureOf(text);
  },

  /** What grounding does to the game (`groundReport`, Rust); null when the rules have errors. */
  groundReport({ text }) {
    try {
      return api.groundReport(text);
    } catch (e) {
      if (e?.name === 'GdlDiagnosticsError') return null;
      throw e;
    }
  },

  /** The board cells of each state (fluent texts) of a game with this structure (see boardsOf). */
  boardCells({ structure, states }) {
    return boardsOf(structure, states);
  },

  unload({ id }) {
    games.get(id)?.free();
    games.delete(id);
  },

  next({ id, handle, joint }) {
    return step(game(id), handle, joint);
  },

  /**
   * GDL-II: what `role` knows after `steps` (`{move, percepts}` per step;
   * the engine's `belief`), with the board of its known fluents and, per
   * uncertain fluent, the cells it would fill (`uncertainCells`) or, off
   * the board, the fluent itself (`uncertainRest`).
   */
  belief({ id, role, steps }) {
    const g = game(id);
    const view = g.belief(role, steps);
    const st = structures.get(g);
    // The board of the known fluents; when none of them is on the board
    // (no board is drawn from them), the empty frame of every fluent that may hold.
    const [known, frame] = boardsOf(st, [view.known, [...view.known, ...view.uncertain.map((u) => u.fluent)]]);
    const board = known ?? (frame ? { ...frame, cells: [], rest: view.known } : null);
    const each = boardsOf(st, view.uncertain.map((u) => [u.fluent]));
    const uncertainCells = [];
    const uncertainRest = [];
    view.uncertain.forEach((u, i) => {
      // A scene draws each of its places, empty or not: only a filled one is the fluent's.
      const cells = (each[i]?.cells ?? []).filter((c) => c.content !== '');
      if (board && cells.length) for (const c of cells) uncertainCells.push({ ...c, fluent: u.fluent, chance: u.chance });
      else uncertainRest.push(u);
    });
    return { ...view, board, uncertainCells, uncertainRest };
  },

  /** GDL-II: the chance role's move in a state, drawn by the engine's generator seeded with `seed`. */
  drawChance({ id, handle, seed }) {
    return game(id).drawChance(handle, seed);
  },

  /** Replays joint moves from the initial state: one description per state reached. */
  replayMoves({ id, moves }) {
    const g = game(id);
    const out = [describe(g, g.initialState())];
    for (const joint of moves) {
      const last = out[out.length - 1];
      try {
        out.push(step(g, last.handle, joint));
      } catch (e) {
        return { states: out, error: { name: e.name, message: e.message } };
      }
    }
    return { states: out };
  },

  stateFromFluents({ id, fluents }) {
    const g = game(id);
    return describe(g, g.stateFromFluents(fluents));
  },

  /** An example abstract tree: random leaves, the same for a seed (the engine's generator). */
  randomTree({ branching, depth, seed }) {
    return wasm.randomTree(branching, depth, seed);
  },

  // ---- the players of the play view, from the one registry (crate/play/src/search) ----
  /**
   * The registry's players (`[{name, description}]`) and each of `specs`
   * parsed by it: `{name, options}`, `{name: 'human'}` (the page's own
   * player, not an engine) or `{error}` with the engine's message.
   */
  players({ specs = [] }) {
    const parsed = specs.map((spec) => {
      if (String(spec ?? '').trim().toLowerCase() === 'human') return { name: 'human', options: {} };
      try {
        return api.parsePlayerSpec(String(spec));
      } catch (e) {
        return { error: e.message };
      }
    });
    return { registry: api.players(), parsed, heuristics: optional('heuristics')?.() ?? [] };
  },

  // ---- search traces of games for the tree view ----
  /**
   * A traced search of a game from its initial state or, with `fluents`,
   * from that position, in the move order `order` (given, reversed, best,
   * worst): the engine's own `search` options `from` and `ordering`.
   */
  searchGame({ text, options, fluents, order }) {
    return api.search(text, { ...options, ...(fluents ? { from: fluents } : {}), ordering: order ?? 'given' });
  },


  // ---- GGP matches (the Match view): the manager and the page's engine
  // players are the protocol's Rust code (GgpMatch, GgpPlayer); the page
  // only sends the messages. ----
  ggpNew({ text, setup }) {
    const m = new wasm.GgpMatch(text, setup);
    const id = nextGameId++;
    ggpMatches.set(id, m);
    const structure = structureOf(text);
    if (structure) ggpStructures.set(id, structure);
    return { id, roles: m.roles, requests: m.requests(), ...ggpSnapshot(m, id) };
  },

  /** `now`: the time of the answers (the Match view gives it, to replay them after a fault). */
  ggpDeliver({ id, answers, now }) {
    const m = ggpMatch(id);
    m.deliver(answers, now ?? Date.now());
    return { requests: m.requests(), ...ggpSnapshot(m, id) };
  },

  ggpAbort({ id }) {
    const m = ggpMatch(id);
    return { requests: m.abort(), ...ggpSnapshot(m, id) };
  },

  ggpDrop({ id }) {
    ggpMatches.get(id)?.free();
    ggpMatches.delete(id);
    ggpStructures.delete(id);
  },

  /** One message to the page's engine player `key` (created with `spec`, `marginMs`). */
  ggpPlayer({ key, spec, marginMs, message }) {
    if (!ggpPlayers.has(key)) ggpPlayers.set(key, new wasm.GgpPlayer(spec, marginMs));
    const reply = ggpPlayers.get(key).handle(message);
    if (!reply.busy) {
      ggpPlayers.get(key).free();
      ggpPlayers.delete(key);
    }
    return reply;
  },

  /**
   * The player of `key` rebuilt in a fresh worker (the last one died): its
   * match's START again, then the joint moves before the pending message's
   * applied without choosing (`GgpPlayer.catchUp`). Returns START's reply.
   */
  ggpPlayerResume({ key, spec, marginMs, start, moves }) {
    ggpPlayers.get(key)?.free();
    ggpPlayers.delete(key);
    const player = new wasm.GgpPlayer(spec, marginMs);
    const reply = player.handle(start);
    if (!reply.busy) {
      player.free();
      return reply;
    }
    try {
      player.catchUp(moves);
    } catch (e) {
      player.free();
      throw e;
    }
    ggpPlayers.set(key, player);
    return reply;
  },

  // ---- GGP repositories (the gallery): URLs and answers read in Rust (crate/ggp/src/repository.rs); the page fetches ----
  repository({ repo, key, body }) {
    if (body === undefined) return key === undefined ? wasm.repositoryIndexUrl(repo) : wasm.repositoryMetadataUrl(repo, key);
    return key === undefined ? wasm.repositoryParseIndex(body) : wasm.repositoryParseMetadata(repo, key, body);
  },

  // ---- "Download as standalone HTML": the file `gdlkit export` writes (crate/play/src/standalone.rs) ----
  standalone({ template, request }) {
    return wasm.standaloneHtml(template, request);
  },
};

const oneShot = (f) => ({ step: () => ({ done: true, value: f() }) });

// ---- the Perfect-play switch: one solved game kept in this worker ----
/** `{text, job}`: the last game solved (its SolveJob answers the positions' values). */
let solved = null;

/**
 * `site.solve`: solves a game in slices with the solver's default limits
 * (progress: states found); a soft cancel solves what was explored. The
 * result is the summary; the job stays for `site.solvedPosition`.
 */
KINDS['site.solve'] = (_api, { text }) => {
  solved?.job.free();
  solved = null;
  const job = new api.SolveJob(text);
  solved = { text, job };
  const task = sliced(job, { work: 1000, minWork: 100, result: () => job.summary() });
  return { step: task.step, partial: task.partial };
};

/**
 * `site.solveSymbolic`: a symbolic solve (BDDs, Rust's `solve_symbolic`)
 * with its progress reports; one blocking call, so a cancel ends the worker.
 */
KINDS['site.solveSymbolic'] = (_api, { text, seconds }, report) => oneShot(() => api.solveSymbolic(text, seconds ? { seconds } : {}, (p) => report(p)));

/** `site.loadSolution`: a solution file of the game `text` kept as the solved game; the result is its summary. */
KINDS['site.loadSolution'] = (_api, { text, file }) =>
  oneShot(() => {
    const job = api.SolveJob.fromSolution(text, file);
    solved?.job.free();
    solved = { text, job };
    return job.summary();
  });

/** The solved game for `text`, or null (another game, or none). */
const solvedJob = (text) => (solved && solved.text === text ? solved.job : null);

/** A position's solved value and its moves' (SolvedPosition), or null when `text` is not the game solved. */
KINDS['site.solvedPosition'] = (_api, { text, fluents }) => oneShot(() => solvedJob(text)?.position(fluents) ?? null);

/** The solved values of states (lists of fluents), or null when `text` is not the game solved. */
KINDS['site.solvedValues'] = (_api, { text, states }) => oneShot(() => solvedJob(text)?.values(states) ?? null);

// Each site operation is a one-shot job. (The semantic check is the
// package's own sliced `analyze` kind.)
for (const [name, fn] of Object.entries(ops)) {
  KINDS[`site.${name}`] = (_api, params) => oneShot(() => fn(params ?? {}));
}

// Test mode only (a worker started with `?test-faults=1` by the page test,
// engine/start.js): `site.testTrap` traps the wasm instance as a bug would,
// so the page's recovery can be tested. Never registered otherwise.
const inWorker = typeof WorkerGlobalScope === 'function' && self instanceof WorkerGlobalScope;
if (inWorker && /[?&]test-faults=1\b/.test(globalThis.location?.href ?? '')) {
  KINDS['site.testTrap'] = () => oneShot(() => wasm.testTrap());
}

// In a worker: serve the page. On the main thread (workers blocked),
// engine/start.js serves the same kinds with these exports.
if (inWorker) {
  const onMessage = serve(self, api);
  self.onmessage = (event) => onMessage(event.data);
}
export { api, serve };
