// The npm package, as a user gets it: `npm pack`, install the tarball into
// a scratch project (a temporary folder, offline), then
//   - a Node script that validates and plays a game,
//   - the worker (gdlkit/worker) in Node: progress, soft and hard cancel,
//   - the Node CLI: a game with an error (exit 1), without (exit 0), replay
//     against conformance traces, every command the native CLI has,
//   - `tsc --noEmit` on TypeScript using the API (bundler and NodeNext
//     resolution), and the hand-written types against wasm-bindgen's,
//   - a Vite build of a small page importing the package, the same page on
//     Vite's dev server, and without a bundler (an import map), in headless
//     Chromium: a move is played and the worker runs,
//   - the JS examples of README.md and docs/js-api.md, executed.
// Needs `npm run build` (pkg/). GDLKIT_KEEP_SCRATCH=1 keeps the folder.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACTS, CHROMIUM_ARGS, nativeBinary, PKG, ROOT } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const scratch = mkdtempSync(join(tmpdir(), 'gdlkit-npm-'));
const pkgDir = join(scratch, 'node_modules', 'gdlkit');
const FIXTURES = join(ROOT, 'wasm-tests', 'fixtures');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const COINS = `(role you)
(init (coins 0))
(<= (legal you take) (true (coins ?n)) (less ?n 2))
(<= (next (coins ?m)) (does you take) (true (coins ?n)) (succ ?n ?m))
(<= terminal (true (coins 2)))
(<= (goal you 100) (true (coins 2)))
(succ 0 1) (succ 1 2)
(less 0 2) (less 1 2)
`;

/** Runs a command in the scratch project; returns {code, stdout, stderr}. */
function sh(command, args, options = {}) {
  const r = spawnSync(command, args, { cwd: scratch, encoding: 'utf8', ...options });
  if (r.error) {
    throw r.error;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a Node script (text) in the scratch project, as an ES module file. */
function node(name, source, args = []) {
  writeFileSync(join(scratch, name), source);
  return sh(process.execPath, [name, ...args]);
}

/** The installed CLI: node_modules/.bin/gdlkit (the `bin` entry). */
function gdlkit(...args) {
  return sh(join(scratch, 'node_modules', '.bin', 'gdlkit'), args);
}

function explain(r) {
  return `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

let tarball;

before(() => {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const info = JSON.parse(packed.stdout)[0];
  tarball = { ...info, path: join(scratch, info.filename) };
  writeFileSync(join(scratch, 'package.json'), `${JSON.stringify({ name: 'scratch', private: true, type: 'module' }, null, 2)}\n`);
  const installed = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${info.filename}`]);
  assert.equal(installed.code, 0, explain(installed));
  writeFileSync(join(scratch, 'coins.kif'), COINS);
  cpSync(join(ROOT, 'games', 'ticTacToe.kif'), join(scratch, 'ticTacToe.kif'));
  cpSync(join(ROOT, 'games', 'rockPaperScissors.kif'), join(scratch, 'rps.kif'));
  cpSync(join(ROOT, 'games', 'threePlayerTicTacToe.kif'), join(scratch, 'ttt3.kif'));
  cpSync(join(ROOT, 'games', 'connectFour.kif'), join(scratch, 'connectFour.kif'));
});

after(() => {
  if (process.env.GDLKIT_KEEP_SCRATCH) {
    console.log(`scratch project kept in ${scratch}`);
  } else {
    rmSync(scratch, { recursive: true, force: true });
  }
});

describe('the tarball', () => {
  test('holds the JS layer, the types, the wasm package and nothing else', () => {
    const files = tarball.files.map((f) => f.path).sort();
    for (const f of ['package.json', 'README.md', 'js/index.js', 'js/node.js', 'js/index.d.ts', 'js/worker.js', 'js/worker.d.ts', 'js/cli.js', 'pkg/gdlkit.js', 'pkg/gdlkit_bg.wasm', 'pkg-threads/gdlkit_bg.wasm']) {
      assert.ok(files.includes(f), `${f} is not in the tarball`);
    }
    const stray = files.filter((f) => !/^(js\/|pkg\/gdlkit(\.js|\.d\.ts|_bg\.wasm|_bg\.wasm\.d\.ts|-standalone\.html)$|pkg-threads\/gdlkit(\.js|\.d\.ts|_bg\.wasm)$|package\.json$|README\.md$|LICENSE)/.test(f));
    assert.deepEqual(stray, []);
  });

  test('every file the exports map and bin name exists in the installed package', () => {
    const targets = [];
    const walk = (v) => (typeof v === 'string' ? targets.push(v) : Object.values(v).forEach(walk));
    walk(manifest.exports);
    targets.push(...Object.values(manifest.bin), manifest.types);
    for (const t of targets) {
      assert.ok(existsSync(join(pkgDir, t)), `${t} (exports/bin/types) is missing from the installed package`);
    }
  });
});

describe('Node', () => {
  test('a script validates and plays a game', () => {
    const r = node(
      'play.mjs',
      `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, analyze, AnalysisJob, Game, check, format, hasErrors, isGdlError, replay, runCli, version } from 'gdlkit';
await init();
assert.match(version(), /^\\d+\\.\\d+\\.\\d+/);

// validate: a broken text gives diagnostics with positions, a good one none
const broken = check('(role x)\\n(init (cell 1 1 \\u00e9)\\n');
assert.ok(hasErrors(broken));
assert.equal(broken[0].line, 2);
assert.equal(typeof broken[0].from, 'number');
const kif = readFileSync('ticTacToe.kif', 'utf8');
assert.ok(!hasErrors(check(kif)));
assert.equal(format(format(kif)), format(kif));
assert.throws(() => format('(role x'), { name: 'GdlDiagnosticsError' });
try {
  new Game('(role x');
  assert.fail('no error');
} catch (e) {
  assert.ok(isGdlError(e, 'GdlDiagnosticsError'));
  assert.equal(e.diagnostics[0].code, 'GDL002');
}

// play: x takes the top row
const game = new Game(kif);
assert.deepEqual(game.roles(), ['x', 'o']);
let state = game.initialState();
for (const [x, o] of [['(mark 1 1)', 'noop'], ['noop', '(mark 2 1)'], ['(mark 1 2)', 'noop'], ['noop', '(mark 2 2)'], ['(mark 1 3)', 'noop']]) {
  assert.ok(game.legalMoves(state, 'x').includes(x));
  assert.ok(game.legalMoves(state, 1).includes(o));
  assert.equal(game.isTerminal(state), false);
  state = game.next(state, [x, o]);
}
assert.equal(game.isTerminal(state), true);
assert.deepEqual(game.goals(state), [100, 0]);
assert.throws(() => game.next(state, ['noop', 'noop']), { name: 'GdlMoveError' });
assert.throws(() => game.legalMoves(state, 'z'), RangeError);
game.free();
game.free();
assert.throws(() => game.roles(), { name: 'TypeError', message: /freed/ });

// the semantic analysis, in one call and as a job
const { report } = analyze(kif);
assert.equal(report.properties.playable.holds, true);
const job = new AnalysisJob(kif, { budget: 100, engine: 'interpreter' });
assert.equal(job.engine(), 'interpreter');
let p;
do {
  p = job.step(1000);
} while (!p.done);
assert.equal(job.report().mode, 'sampled');
assert.equal(job.result().report.mode, 'sampled');
job.free();
assert.throws(() => job.step(), { name: 'TypeError', message: /freed/ });

// replay and the CLI
assert.equal(replay(kif, [['(mark 2 2)', 'noop']]).steps.length, 2);
assert.equal(runCli(['check', 'g.kif'], { 'g.kif': kif }).code, 0);
console.log('played');
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.match(r.stdout, /played/);
  });

  test('the entries export the documented names, the same in Node and browsers; deep imports are closed', () => {
    const names = 'AlphaBetaWorker AnalysisJob DEFAULT_REPOSITORY EnsembleMember Game MctsWorker Player PlayoutJob SolveJob alphabetaChoose analyze autoCores check defaultPlayer ensembleChoose ensembleMembers explain fix format gameText games groundReport hasErrors heuristics init initSync isGdlError isReady mctsChoose memoryBudget parallelBestMove parallelEnsembleMove parsePlayerSpec parseTree playerSpec players renderBoard reorderTree replay repositoryGame repositoryGames runCli runMatch search searchTree setMemoryBudget solve solveSymbolic structure version';
    const inNode = node('exports-node.mjs', `console.log(Object.keys(await import('gdlkit')).sort().join(' '));\n`);
    assert.equal(inNode.code, 0, explain(inNode));
    assert.equal(inNode.stdout.trim(), names);
    // the browser entry, imported by path (Node can load it; init is not called)
    const inBrowser = node('exports-browser.mjs', `console.log(Object.keys(await import('./node_modules/gdlkit/js/index.js')).sort().join(' '));\n`);
    assert.equal(inBrowser.code, 0, explain(inBrowser));
    assert.equal(inBrowser.stdout.trim(), names);
    const deep = node('exports-deep.mjs', `await import('gdlkit/js/api.js');\n`);
    assert.equal(deep.code, 1);
    assert.match(deep.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  test('solve: tic-tac-toe is a draw with 5,478 states, as a job with a solution file', () => {
    const r = node(
      'solve.mjs',
      `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Game, init, solve, SolveJob } from 'gdlkit';
await init();
const kif = readFileSync('ticTacToe.kif', 'utf8');
const s = solve(kif);
assert.equal(s.complete, true);
assert.equal(s.concept, 'zero-sum');
assert.equal(s.stats.states, 5478);
assert.deepEqual(s.initial, { goals: [50, 50], movesToEnd: 9 });
assert.equal(s.byValue.reduce((n, c) => n + c.states, 0), 5478);
const job = new SolveJob(kif, { engine: 'interpreter' });
let p;
let steps = 0;
do {
  p = job.step(500);
  steps += 1;
} while (!p.done);
assert.ok(steps > 5, 'progress in slices');
assert.deepEqual(job.summary().initial.goals, [50, 50]);
const file = job.solutionFile();
assert.match(file, /^gdlkit-solution 1\\n/);
assert.equal(file.trim().split('\\n').length, 2 + 5478);
// A position's moves with their outcome for the role to move (every first move keeps the draw).
const game = new Game(kif);
const start = game.fluents(game.initialState());
const pos = job.position(start);
assert.equal(pos.role, 0);
assert.equal(pos.moves.length, 9);
assert.ok(pos.moves.every((m) => m.outcome === 'draw' && m.best && m.value.movesToEnd === 8), JSON.stringify(pos));
assert.deepEqual(job.values([start, ['(control x)']]), [{ goals: [50, 50], movesToEnd: 9 }, null]);
assert.throws(() => job.position(['(cell 1']), { name: 'TypeError' });
const fresh = new SolveJob(kif);
assert.equal(fresh.position(start), null, 'null until done');
fresh.free();
game.free();
job.free();
// Both roles choose at once: solved, but the start has no value in pure moves.
const rps = solve(readFileSync('rps.kif', 'utf8'));
assert.equal(rps.complete, true);
assert.equal(rps.initial, null);
assert.ok(rps.stats.simultaneous > 0 && rps.byValue.some((c) => c.goals === null), JSON.stringify(rps.stats));
assert.throws(() => new SolveJob(readFileSync('ttt3.kif', 'utf8')).step(100000), { name: 'GdlSolveError', message: /3 roles/ });
console.log('solved');
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.match(r.stdout, /solved/);
  });

  test('players, search, traces and matches', () => {
    const r = node(
      'search.mjs',
      `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Game, Player, playerSpec, runMatch, search, searchTree } from 'gdlkit';
const kif = readFileSync('ticTacToe.kif', 'utf8');

// the classic tree: root 3, best move the first child, one cut-off in the
// second MIN node after its leaf 2, pruning its leaves 4 and 6
const tree = searchTree('((3 12 8) (2 4 6) (14 5 2))', { trace: true });
assert.equal(tree.value, 3);
assert.equal(tree.bestMove, '1');
assert.deepEqual(tree.tree, [[3, 12, 8], [2, 4, 6], [14, 5, 2]]);
const cutoffs = tree.events.filter((e) => e.type === 'cutoff');
assert.equal(cutoffs.length, 1);
assert.deepEqual([cutoffs[0].alpha, cutoffs[0].value, cutoffs[0].pruned], [3, 2, [{ move: '2' }, { move: '3' }]]);
assert.equal(tree.events.filter((e) => e.type === 'leaf').length, 7);
assert.deepEqual(tree.events.find((e) => e.type === 'return' && e.node === 0), { type: 'return', node: 0, value: 3 });
assert.equal(tree.events.filter((e) => e.type === 'enter').length, tree.events.filter((e) => e.type === 'return').length);
assert.equal(searchTree('((3 12 8) (2 4 6) (14 5 2))', { algorithm: 'minimax' }).value, 3);

// a ticTacToe position where x wins with (mark 1 3) (o threatens row 2)
const game = new Game(kif);
let state = game.initialState();
for (const joint of [['(mark 1 1)', 'noop'], ['noop', '(mark 2 1)'], ['(mark 1 2)', 'noop'], ['noop', '(mark 2 2)']]) {
  state = game.next(state, joint);
}
const fluents = game.fluents(state);
for (const spec of ['alphabeta:depth=3', { name: 'alphabeta', ms: 200 }, { name: 'minimax', depth: 2 }, 'mcts:playouts=300']) {
  // solution: false, so that the search finds the move (by default it would come from the solve at the start).
  const player = new Player(kif, spec, { seed: 5, solution: false });
  const move = player.selectMove(fluents, 'x');
  assert.equal(move, '(mark 1 3)', \`\${player.name} chose \${move}\`);
  assert.ok(player.lastStats().nodes > 0);
  assert.equal(player.lastMoveSolved, false);
  assert.deepEqual(game.goals(game.next(state, [move, 'noop'])), [100, 0]);
  player[Symbol.dispose]();
  assert.equal(player.freed, true);
}
// Without a spec: the player of gdlkit serve (MCTS-Solver, one second a move).
const plain = new Player(kif);
assert.ok(plain.name.startsWith('mcts(solver'), plain.name);
// It solved tic-tac-toe at its start: the winning move comes from the solution.
assert.equal(plain.solution.stats.states, 5478);
assert.equal(plain.selectMove(fluents, 'x'), '(mark 1 3)');
assert.equal(plain.lastMoveSolved, true);
plain.free();
const blocker = new Player(kif, 'alphabeta:depth=3');
assert.equal(blocker.name, 'alphabeta(fuzzy, depth 3)');
assert.equal(blocker.selectMove(fluents, 1), 'noop');
assert.throws(() => blocker.selectMove(fluents, 'z'), RangeError);
assert.throws(() => blocker.selectMove(fluents, 2), RangeError);
blocker.free();
blocker.free();
assert.throws(() => blocker.selectMove(fluents, 0), { name: 'TypeError', message: /freed/ });
assert.throws(() => new Player(kif, 'best'), { name: 'TypeError', message: /unknown player/ });
assert.equal(playerSpec({ name: 'alphabeta', heuristic: 'fuzzy', ms: 200 }), 'alphabeta:heuristic=fuzzy,ms=200');
game.free();

// a search from the initial state: ticTacToe is a draw, solved
const solved = search(kif, { depth: 9 });
assert.deepEqual([solved.value, solved.solved, solved.role, solved.algorithm], [50, true, 'x', 'alphabeta']);
assert.ok(solved.stats.nodes > 1000);
const o = search(kif, { depth: 9, role: 'o' });
assert.deepEqual([o.value, o.bestMove], [50, 'noop']);
const coins = search(readFileSync('coins.kif', 'utf8'), { trace: true, depth: 3 });
assert.deepEqual([coins.value, coins.bestMove, coins.solved], [100, 'take', true]);
assert.deepEqual(coins.states.map((s) => s.join(' ')), ['(coins 0)', '(coins 1)', '(coins 2)']);
// options go to the binding as they are: it refuses unknown ones
assert.throws(() => search(kif, { budgett: 5 }), { name: 'TypeError', message: /unknown search option \`budgett\`/ });
assert.throws(() => search(kif, { algorithm: 'mcts', trace: true }), TypeError);
assert.throws(() => search('(role x', {}), { name: 'GdlDiagnosticsError' });

// a match: zero-sum ticTacToe, every game's goals sum to 100; the solving
// player never loses to the random one
const match = runMatch(kif, ['random', { name: 'alphabeta', depth: 9 }], { games: 4, seed: 2 });
assert.equal(match.results.length, 4);
for (const g of match.results) {
  assert.equal(g.goals[0] + g.goals[1], 100);
  assert.equal(g.terminal, true);
}
assert.deepEqual(match.results.map((g) => g.seats), [[0, 1], [1, 0], [0, 1], [1, 0]]);
const [random, solver] = match.players;
assert.equal(solver.losses, 0);
assert.equal(solver.wins + solver.draws, 4);
assert.equal(random.meanGoal + solver.meanGoal, 100);
// onGame: called after each game with the records the result holds
const seen = [];
const again = runMatch(kif, ['random', { name: 'alphabeta', depth: 9 }], { games: 4, seed: 2, onGame: (g) => seen.push(g) });
assert.deepEqual(seen, again.results);
assert.deepEqual(again.results, match.results, 'same seed, same games');
assert.throws(() => runMatch(kif, ['legal', 'legal'], { games: 2, onGame: () => { throw new RangeError('stop'); } }), { name: 'RangeError', message: 'stop' });
assert.throws(() => runMatch(kif, ['legal', 'legal'], { gamez: 2, onGame: () => {} }), { name: 'TypeError', message: /gamez/ });
assert.throws(() => runMatch(kif, ['random'], {}), { name: 'GdlSearchError', message: /one player per role/ });
assert.throws(() => runMatch(kif, ['random'], { onGame: () => {} }), { name: 'GdlSearchError', message: /one player per role/ });
// the engine option, with and without onGame, and for a player
for (const engine of ['interpreter', 'fast']) {
  assert.equal(runMatch(kif, ['legal', 'legal'], { games: 1, engine }).engine, engine);
  assert.equal(runMatch(kif, ['legal', 'legal'], { games: 1, engine, onGame: () => {} }).engine, engine);
  const p = new Player(kif, 'legal', { engine });
  assert.equal(p.engine, engine);
  p.free();
  assert.equal(search(kif, { depth: 1, engine }).engine, engine);
}
assert.throws(() => runMatch(kif, ['legal', 'legal'], { engine: 'quick', onGame: () => {} }), TypeError);
assert.throws(() => runMatch(kif, ['random', 'random'], { game: 3 }), TypeError);
console.log('search ok');
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.match(r.stdout, /search ok/);
  });

  test('a game whose goal would not ground runs on the hybrid engine', () => {
    // A puzzle whose goal alone would not ground (10^10 instances).
    const puzzle = readFileSync(join(ROOT, 'crate', 'engine', 'testdata', 'hybrid_puzzle.kif'), 'utf8');
    const r = node(
      'hybrid.mjs',
      `import assert from 'node:assert/strict';
import { Game, Player, groundReport } from 'gdlkit';
const puzzle = ${JSON.stringify(puzzle)};
const game = new Game(puzzle);
assert.equal(game.engine.name, 'hybrid', game.engine.reason);
assert.match(game.engine.reason, /goal is asked of the interpreter.*alldifferent/);
// Its playouts score as the interpreter's: the same seeds, the same goals.
const plain = new Game(puzzle, { engine: 'interpreter' });
const a = game.playouts({ count: 8, seed: 3, record: true });
const b = plain.playouts({ count: 8, seed: 3, record: true });
assert.equal(a.playouts, 8);
assert.deepEqual(a.games.map((g) => g.goals), b.games.map((g) => g.goals));
assert.deepEqual(a.games.map((g) => g.jointMoves), b.games.map((g) => g.jointMoves));
// A player given the game searches on the same engine.
const player = new Player(game, 'mcts:playouts=200', { seed: 1, solution: false });
assert.equal(player.engine, 'hybrid');
assert.match(player.selectMove(game.initialState(), 'p'), /^\\(mark \\d \\d\\)$/);
player.free();
// The instantiation report: refused whole, the rest's network shown.
const report = groundReport(puzzle);
assert.equal(report.outcome, 'refused');
assert.equal(report.hybrid, 'goal');
assert.ok(report.network.gates > 0 && report.relations.some((c) => c.relation === 'legal/2'));
console.log('hybrid ok');
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.match(r.stdout, /hybrid ok/);
  });

  test('Symbol.dispose frees a Game', () => {
    const r = node(
      'dispose.mjs',
      `import assert from 'node:assert/strict';
import { Game } from 'gdlkit';
const game = new Game(${JSON.stringify(COINS)});
assert.equal(typeof Symbol.dispose, 'symbol');
game[Symbol.dispose]();
assert.equal(game.freed, true);
`,
    );
    assert.equal(r.code, 0, explain(r));
  });

  test('one engine: quick fixes, seeded playouts, searches from a state in any order, trees, outcomes, the engine choice', () => {
    const r = node(
      'one-engine.mjs',
      `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { check, fix, Game, parsePlayerSpec, parseTree, players, reorderTree, runCli, searchTree } from 'gdlkit';
const kif = readFileSync('ticTacToe.kif', 'utf8');
// Quick fixes: the edits each diagnostic carries remove it.
const samples = {
  GDL001: '(<= terminal (true (p 1))))\\n',
  GDL002: '(<= terminal (true (p 1))\\n\\n(<= (goal x 0) (true (p 2)))\\n',
  GDL003: '(<= terminal (true (p ?)))\\n',
  GDL011: '(:- terminal (true (p 1)))\\n',
  GDL103: '(<= terminal (lne 1))\\n(<= (line ?x) (true (p ?x)))\\n',
  GDL107: '(<= (terminal) (true (p 1)))\\n',
  GDL109: '(<= terminal (true (p 1)))\\n(<= terminal (true (p 1)))\\n',
  GDL111: '(<= terminal)\\n',
};
const base = '(role x)\\n(init (p 1))\\n(<= (legal x noop) (true (p 1)))\\n(<= (next (p 1)) (true (p 1)))\\n(<= (goal x 100) (true (p 1)))\\n';
const count = (text, code) => check(text).filter((d) => d.code === code).length;
for (const [code, extra] of Object.entries(samples)) {
  const text = base + extra;
  const d = check(text).find((x) => x.code === code);
  assert.ok(d && d.fixes.length > 0, code);
  let out = text;
  for (const e of [...d.fixes[0].edits].sort((a, b) => b.from - a.from)) out = out.slice(0, e.from) + e.insert + out.slice(e.to);
  assert.equal(count(out, code), count(text, code) - 1, code + ': ' + out);
  const all = fix(text, { unsafe: true });
  assert.equal(count(all.text, code), 0, code);
  assert.ok(all.applied.some((a) => a.code === code), code);
}
assert.equal(count(fix(base + samples.GDL103).text, 'GDL103'), 1, 'a guess needs unsafe');
assert.throws(() => fix(base, { unsafeFixes: true }), TypeError);
// Seeded playouts: the same games as gdlkit play --seed.
const game = new Game(kif);
assert.equal(game.engine.name, 'fast');
assert.equal(new Game(kif, { engine: 'interpreter' }).engine.name, 'interpreter');
assert.throws(() => new Game(kif, { engines: 'fast' }), TypeError);
const p = game.playouts({ count: 4, seed: 9, record: true });
assert.equal(p.playouts, 4);
p.games.forEach((g, i) => {
  const cli = JSON.parse(runCli(['play', 'g.kif', '--seed', String(9 + i), '--format', 'json'], { 'g.kif': kif }).stdout);
  assert.deepEqual(g.jointMoves, cli.joint_moves);
  assert.deepEqual(g.goals, cli.roles.map((r) => cli.goals[r]));
});
assert.throws(() => game.playouts({ cout: 3 }), TypeError);
// Searches from a state handle, in every order: same value, best first searches least.
let s = game.initialState();
for (const m of [['(mark 1 1)', 'noop'], ['noop', '(mark 2 1)'], ['(mark 1 2)', 'noop'], ['noop', '(mark 2 2)']]) s = game.next(s, m);
const nodes = {};
for (const ordering of ['given', 'reversed', 'best', 'worst']) {
  const r = game.search(s, { depth: 3, trace: true, ordering });
  assert.equal(r.value, 100, ordering);
  assert.equal(r.bestMove, '(mark 1 3)', ordering);
  nodes[ordering] = r.stats.nodes;
}
assert.ok(nodes.best <= nodes.given && nodes.given <= nodes.worst, JSON.stringify(nodes));
// Outcomes.
const end = game.next(s, ['(mark 1 3)', 'noop']);
assert.deepEqual(game.describe(end).outcome, { score: 100, winners: [0], draw: false, results: ['win', 'loss'] });
assert.equal(game.describe(s).outcome, null);
// Abstract trees: the lecture's counts in one pass, reordering with labels.
assert.deepEqual([searchTree('((3 12 8) (2 4 6) (14 5 2))', { algorithm: 'minimax' }).stats.nodes, searchTree('((3 12 8) (2 4 6) (14 5 2))').stats.leaves], [13, 7]);
const best = searchTree('((3 12 8) (2 4 6) (14 5 2))', { trace: true, ordering: 'best' });
assert.deepEqual([best.stats.nodes, best.tree], [9, [[3, 8, 12], [2, 4, 6], [2, 5, 14]]]);
assert.deepEqual(best.labels[2].sub.map((l) => l.label), [3, 2, 1]);
assert.equal(reorderTree('((1 2) (3 4))', 'reversed').text, '((4 3) (2 1))');
assert.deepEqual(parseTree('((1 2) 3)'), [[1, 2], 3]);
assert.throws(() => parseTree('((1 x))'), TypeError);
// One registry of players.
assert.equal(parsePlayerSpec('best-first:ms=200').name, 'bestfirst');
assert.deepEqual(parsePlayerSpec({ name: 'alpha-beta', ms: 50 }), { name: 'alphabeta', options: { ms: '50' } });
assert.ok(players().some((x) => x.name === 'mcts'));
assert.throws(() => parsePlayerSpec('nope'), TypeError);
console.log('one engine');
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.match(r.stdout, /one engine/);
  });

  test('the worker: check, playouts with progress, soft cancel with a partial result, hard cancel', () => {
    const r = node(
      'worker.mjs',
      `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GdlWorker } from 'gdlkit/worker';
const kif = readFileSync('ticTacToe.kif', 'utf8');
// A soft cancel must be answered within the grace period, which a loaded
// machine can stretch: 10 s (the bench below waits it out once).
const worker = new GdlWorker({ sliceMs: 5, cancelGraceMs: 10_000 });
const info = await worker.ready;
assert.ok(info.kinds.includes('playouts'));
assert.equal((await worker.check('(role x')).length, 1);
await assert.rejects(worker.replay(kif, [['noop', 'noop']]), { name: 'GdlMoveError', step: 1 });
assert.equal(await worker.format('(role   x)'), '(role x)\\n');
await assert.rejects(worker.format('(role x'), (e) => e.name === 'GdlDiagnosticsError' && e.diagnostics[0].code === 'GDL002');

// playouts to the end, with progress
const seen = [];
const done = await worker.playouts(kif, { count: 300, seed: 7 }, { onProgress: (p) => seen.push(p.done) });
assert.equal(done.playouts, 300);
assert.equal(done.terminal, 300);
assert.ok(seen.length > 0 && seen.every((n, i) => i === 0 || n >= seen[i - 1]));
assert.deepEqual(await worker.playouts(kif, { count: 300, seed: 7 }), done, 'same seed, same result');

// soft cancel: stops between slices, the partial result comes with the AbortError
const long = worker.playouts(kif, { count: 1_000_000 }, { onProgress: (p) => p.done > 20 && long.cancel() });
const soft = await long.then(() => assert.fail('not cancelled'), (e) => e);
assert.equal(soft.name, 'AbortError');
assert.equal(soft.hard, false);
assert.ok(soft.partial.playouts > 20);

// an AbortSignal cancels too
const controller = new AbortController();
const viaSignal = worker.playouts(kif, { count: 1_000_000 }, { signal: controller.signal, onProgress: () => controller.abort() });
await assert.rejects(viaSignal, { name: 'AbortError' });

// hard cancel: one long call (bench) cannot stop between slices; after the
// grace period the worker is restarted and the other task starts again
let restarts = 0;
worker.addEventListener('restart', () => restarts++);
const bench = worker.cli(['bench', 'ticTacToe.kif', '--seconds', '30'], { 'ticTacToe.kif': kif });
const other = worker.check(kif);
await new Promise((r) => setTimeout(r, 100));
bench.cancel();
const hard = await bench.then(() => assert.fail('not cancelled'), (e) => e);
assert.equal(hard.name, 'AbortError');
assert.equal(hard.hard, true);
assert.equal(restarts, 1);
assert.deepEqual(await other, [], 'the other task ran on the new worker');
assert.equal((await worker.check('(role x')).length, 1);

// the semantic analysis in slices; a soft cancel keeps what was found
const progress = [];
const analysis = await worker.analyze(kif, {}, { onProgress: (p) => progress.push(p.phase) });
assert.equal(analysis.report.mode, 'exhaustive');
assert.equal(analysis.report.properties.terminates.holds, true);
assert.ok(analysis.diagnostics.some((d) => d.code === 'GDL204'));
assert.ok(progress.includes('exploring'));
// (the interpreter: the fast engine may explore all of ticTacToe within one slice)
const stopped = worker.analyze(kif, { engine: 'interpreter' }, { onProgress: (p) => p.states > 500 && stopped.cancel() });
const partial = await stopped.then(() => assert.fail('not cancelled'), (e) => e.partial);
assert.equal(partial.report.mode, 'sampled');
assert.equal(partial.report.properties.stronglyWinnable.holds, null);
await assert.rejects(worker.analyze(kif, { budgett: 1 }), { name: 'TypeError', message: /budgett/ });

// search in the worker: one wasm call each; cancelling one restarts the worker at once
assert.ok(['search', 'searchTree', 'match', 'bestMove'].every((k) => info.kinds.includes(k)));
const traced = await worker.searchTree('((3 12 8) (2 4 6) (14 5 2))', { trace: true });
assert.deepEqual([traced.value, traced.bestMove, traced.events.filter((e) => e.type === 'cutoff').length], [3, '1', 1]);
const position = ['(cell 1 1 x)', '(cell 1 2 x)', '(cell 1 3 blank)', '(cell 2 1 o)', '(cell 2 2 o)', '(cell 2 3 blank)', '(cell 3 1 blank)', '(cell 3 2 blank)', '(cell 3 3 blank)', '(control x)'];
const chosen = await worker.bestMove(kif, { spec: { name: 'alphabeta', depth: 3 }, fluents: position, role: 'x' });
assert.equal(chosen.move, '(mark 1 3)');
assert.equal(chosen.player, 'alphabeta(fuzzy, depth 3)');
// It solved tic-tac-toe at its start: no search ran for this move.
assert.equal(chosen.solved, true);
const searched = await worker.bestMove(kif, { spec: { name: 'alphabeta', depth: 3 }, solution: false, fluents: position, role: 'x' });
assert.deepEqual([searched.move, searched.solved], ['(mark 1 3)', false]);
assert.ok(searched.stats.nodes > 0);
const oMove = await worker.bestMove(kif, { spec: { name: 'alphabeta', depth: 3 }, fluents: position, role: 1 });
assert.equal(oMove.move, 'noop');
await assert.rejects(worker.bestMove(kif, { spec: 'best', fluents: position }), { name: 'TypeError', message: /unknown player/ });
assert.equal((await worker.search(kif, { depth: 9 })).value, 50);
const matchProgress = [];
const records = [];
const played = await worker.match(kif, ['random', 'alphabeta:depth=9'], { games: 3, onGame: (g) => records.push(g) }, { onProgress: (p) => matchProgress.push([p.games, p.total]) });
assert.ok(played.results.every((g) => g.goals[0] + g.goals[1] === 100));
assert.deepEqual(matchProgress, [[1, 3], [2, 3], [3, 3]]);
assert.deepEqual(records, played.results);
await assert.rejects(worker.search(kif, { budgett: 1 }), { name: 'TypeError', message: /budgett/ });
// (connectFour: alpha-beta solves ticTacToe early, whatever the budget)
const endless = worker.search(readFileSync('connectFour.kif', 'utf8'), { budgetMs: 60000 });
const queued = worker.check('(role x');
await new Promise((r) => setTimeout(r, 100));
endless.cancel();
const stopped2 = await endless.then(() => assert.fail('not cancelled'), (e) => e);
assert.deepEqual([stopped2.name, stopped2.hard], ['AbortError', true]);
assert.equal(restarts, 2);
assert.equal((await queued).length, 1);

// restart(): every task in flight rejects
const a = worker.playouts(kif, { count: 1_000_000 });
worker.restart();
await assert.rejects(a, { name: 'AbortError', hard: true });
worker.terminate();
assert.throws(() => worker.ready, /terminated/);
console.log('worker ok');
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.match(r.stdout, /worker ok/);
  });

  test('an idle GdlWorker does not keep Node alive', () => {
    const r = node(
      'idle.mjs',
      `import { GdlWorker } from 'gdlkit/worker';
const worker = new GdlWorker();
console.log((await worker.check('(role x')).map((d) => d.code).join());
`,
    );
    assert.equal(r.code, 0, explain(r));
    assert.equal(r.stdout.trim(), 'GDL002');
  });
});

describe('the Node CLI (npx gdlkit)', () => {
  test('a game with an error: exit 1 and the diagnostic on stderr', () => {
    writeFileSync(join(scratch, 'broken.kif'), '(role x)\n(init (cell 1 1)\n');
    const r = gdlkit('check', 'broken.kif');
    assert.equal(r.code, 1, explain(r));
    assert.match(r.stdout + r.stderr, /broken\.kif:2:1: error\[GDL002\]/);
  });

  test('a game without errors: exit 0', () => {
    const r = gdlkit('check', 'ticTacToe.kif');
    assert.equal(r.code, 0, explain(r));
    const viaNpx = sh('npm', ['exec', '--offline', '--', 'gdlkit', 'check', 'coins.kif']);
    assert.equal(viaNpx.code, 0, explain(viaNpx));
  });

  test('usage and I/O errors: exit 2, worded like the native binary', () => {
    const missing = gdlkit('check', 'missing.kif');
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'gdlkit check: cannot read missing.kif: No such file or directory (os error 2)\n');
    writeFileSync(join(scratch, 'latin1.kif'), Buffer.from([0x28, 0x72, 0x6f, 0x6c, 0x65, 0x20, 0xe9, 0x29]));
    const latin1 = gdlkit('check', 'latin1.kif');
    assert.equal(latin1.code, 2);
    assert.match(latin1.stderr, /not valid UTF-8/);
    const none = gdlkit();
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage:/);
    assert.equal(gdlkit('frobnicate').code, 2);
  });

  test('export: a standalone file from the template the package ships', () => {
    const r = gdlkit('export', '--tree', '((3 12 8) (2 4 6) (14 5 2))', '--out', 'tree.html');
    assert.equal(r.code, 0, explain(r));
    const html = readFileSync(join(scratch, 'tree.html'), 'utf8');
    assert.match(html, /<gdl-tree tree="\(\(3 12 8\) \(2 4 6\) \(14 5 2\)\)"><\/gdl-tree>/);
    assert.match(html, /<script type="text\/plain" id="gdlkit-wasm">\s*AGFzbQ/, 'the wasm is inlined (base64 of "\\0asm")');
  });

  test('play and bench run; help lists the commands', () => {
    const play = gdlkit('play', 'coins.kif', '--format', 'json');
    assert.equal(play.code, 0, explain(play));
    assert.deepEqual(JSON.parse(play.stdout).goals, { you: [100] });
    const bench = gdlkit('bench', 'coins.kif', '--seconds', '0.2');
    assert.equal(bench.code, 0, explain(bench));
    const help = gdlkit('help');
    assert.equal(help.code, 0);
    for (const command of ['check', 'fmt', 'analyze', 'play', 'replay', 'search', 'match', 'bench', 'serve', 'host', 'explain', 'structure', 'export', 'solve', 'ground', 'games', 'fetch-game', 'completions']) {
      assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));
    }
  });

  test('every command answers --help; --version, suggestions and completions', () => {
    for (const command of ['check', 'fmt', 'analyze', 'play', 'replay', 'search', 'match', 'bench', 'serve', 'host', 'explain', 'structure', 'export', 'solve', 'ground', 'games', 'fetch-game', 'completions']) {
      const r = gdlkit(command, '--help');
      assert.equal(r.code, 0, `${command} --help: ${explain(r)}`);
      assert.match(r.stdout, new RegExp(`^Usage: gdlkit ${command}`, 'm'));
      assert.match(r.stdout, /^ {2}-h, --help/m, command);
    }
    assert.match(gdlkit('play', '--help').stdout, /--max-steps <N>/);
    assert.match(gdlkit('serve', '--help').stdout, /--margin-ms <MS>/);
    assert.match(gdlkit('host', '--help').stdout, /--play-clock <S>/);
    const v = gdlkit('--version');
    assert.equal(v.code, 0, explain(v));
    assert.equal(v.stdout, `gdlkit ${manifest.version}\n`);
    const misspelt = gdlkit('play', 'coins.kif', '--sed', '3');
    assert.equal(misspelt.code, 2);
    assert.match(misspelt.stderr, /similar argument exists: '--seed'/);
    const serve = gdlkit('serve', '--prot', '9000');
    assert.equal(serve.code, 2);
    assert.match(serve.stderr, /similar argument exists: '--port'/);
    const bash = gdlkit('completions', 'bash');
    assert.equal(bash.code, 0, explain(bash));
    assert.match(bash.stdout, /complete -F _gdlkit/);
  });

  test('search and match: the trace of the classic tree, a match whose goals sum to 100', () => {
    const tree = gdlkit('search', '--tree', '((3 12 8) (2 4 6) (14 5 2))', '--trace', '--format', 'json');
    assert.equal(tree.code, 0, explain(tree));
    const traced = JSON.parse(tree.stdout);
    assert.deepEqual([traced.value, traced.best_move], [3, '1']);
    assert.deepEqual(traced.events.filter((e) => e.type === 'cutoff').map((e) => e.pruned.length), [2]);
    const text = gdlkit('search', 'ticTacToe.kif', '--depth', '9');
    assert.equal(text.code, 0, explain(text));
    assert.match(text.stdout, /^value: 50 \(solved\)$/m);
    const match = gdlkit('match', 'ticTacToe.kif', '--players', 'random', 'alphabeta:depth=9', '--games', '2', '--format', 'json');
    assert.equal(match.code, 0, explain(match));
    const { results, players } = JSON.parse(match.stdout);
    assert.deepEqual(results.map((g) => g.goals[0] + g.goals[1]), [100, 100]);
    assert.equal(players[1].losses, 0);
    const bad = gdlkit('search', 'ticTacToe.kif', '--algorithm', 'nope');
    assert.equal(bad.code, 2, explain(bad));
  });

  test('the same output and exit codes as the native binary', () => {
    // The native CLI the native Rust tests built.
    const native = nativeBinary();
    writeFileSync(join(scratch, 'bad.kif'), '(role x)\n(init (cell 1 1)\n(<= (legal y a) (true (q ?z)))\n');
    writeFileSync(join(scratch, 'ttt-moves.json'), JSON.stringify([['(mark 2 2)', 'noop'], ['noop', '(mark 1 1)']]));
    // Timings differ from run to run: dropped from the JSON before comparing.
    const timeless = (out) => JSON.stringify(JSON.parse(out), (k, v) => (/elapsed_ms|_per_second|ms_per_move/.test(k) ? undefined : v));
    const cases = [
      [['help']],
      [['check', 'ticTacToe.kif']],
      [['check', 'bad.kif']],
      [['check', 'bad.kif', '--format', 'json']],
      [['fmt', 'ticTacToe.kif']],
      [['fmt', 'bad.kif']],
      [['analyze', 'coins.kif', '--format', 'json']],
      [['play', 'ticTacToe.kif', '--seed', '3']],
      [['play', 'ticTacToe.kif', '--seed', '3', '--format', 'json']],
      [['replay', 'ticTacToe.kif', 'ttt-moves.json']],
      [['search', '--tree', '((3 12 8) (2 4 6) (14 5 2))', '--trace', '--format', 'json'], timeless],
      [['search', 'ticTacToe.kif', '--depth', '3', '--trace', '--format', 'json'], timeless],
      [['search', 'ticTacToe.kif', '--depth', '9', '--role', 'o', '--format', 'json'], timeless],
      [['match', 'ticTacToe.kif', '--players', 'legal', 'alphabeta:depth=9', '--games', '2', '--format', 'json'], timeless],
      // seeded randomness draws the same moves on wasm32 as natively
      [['match', 'ticTacToe.kif', '--players', 'random', 'mcts:playouts=200', '--games', '4', '--seed', '5', '--format', 'json'], timeless],
      [['analyze', 'ticTacToe.kif', '--budget', '100', '--playouts', '20', '--format', 'json']],
      [['search', 'ticTacToe.kif', '--algorithm', 'nope']],
      [['match', 'ticTacToe.kif', '--players', 'random']],
      [['bench', 'missing.kif']],
      [['frobnicate']],
      [['--version']],
      [['play', '--help']],
      [['serve', '--help']],
      [['play', 'ticTacToe.kif', '--sed', '3']],
      [['serve', '--prot', '9000']],
      [['completions', 'bash']],
    ];
    for (const [args, normalize = (out) => out] of cases) {
      const fromNode = gdlkit(...args);
      const fromNative = sh(native, args);
      const what = `gdlkit ${args.join(' ')}`;
      assert.equal(fromNode.code, fromNative.code, `${what}: exit code\n${explain(fromNode)}\n${explain(fromNative)}`);
      assert.equal(normalize(fromNode.stdout), normalize(fromNative.stdout), `${what}: stdout`);
      assert.equal(fromNode.stderr, fromNative.stderr, `${what}: stderr`);
    }
  });

  test('analyze: the semantic checks, as JSON', () => {
    const r = gdlkit('analyze', 'coins.kif', '--format', 'json');
    assert.equal(r.code, 0, explain(r));
    const report = JSON.parse(r.stdout);
    assert.equal(report.mode, 'exhaustive');
    assert.equal(report.states, 3);
    assert.equal(report.properties.strongly_winnable.holds, true);
  });

  test('replay reproduces the conformance traces exactly', () => {
    for (const folder of readdirSync(FIXTURES).filter((f) => !f.includes('.'))) {
      for (const file of readdirSync(join(FIXTURES, folder)).filter((f) => f.endsWith('.json'))) {
        const trace = JSON.parse(readFileSync(join(FIXTURES, folder, file), 'utf8'));
        const kif = join(FIXTURES, folder, file.replace(/\.json$/, '.kif'));
        const playout = trace.playouts[0];
        const moves = join(scratch, 'moves.json');
        writeFileSync(moves, JSON.stringify(playout));
        const r = gdlkit('replay', kif, moves);
        assert.equal(r.code, 0, `${folder}/${file}: ${explain(r)}`);
        assert.deepEqual(JSON.parse(r.stdout), { roles: trace.roles, steps: playout.steps }, `${folder}/${file}`);
      }
    }
  });

  test('replay: an illegal move, or one after the end, is an error naming the step and the move', () => {
    writeFileSync(join(scratch, 'illegal.json'), JSON.stringify([['take'], ['give']]));
    const illegal = gdlkit('replay', 'coins.kif', 'illegal.json');
    assert.equal(illegal.code, 1, explain(illegal));
    assert.equal(illegal.stdout, '');
    assert.match(illegal.stderr, /step 2: move give of role you is not legal/);
    writeFileSync(join(scratch, 'late.json'), JSON.stringify({ joint_moves: [['take'], ['take'], ['take']] }));
    const late = gdlkit('replay', 'coins.kif', 'late.json');
    assert.equal(late.code, 1, explain(late));
    assert.match(late.stderr, /step 3: the state is terminal/);
  });

  test('fmt --write rewrites the file', () => {
    writeFileSync(join(scratch, 'messy.kif'), '(role   you)\n(init (coins 0))   (<= terminal (true (coins 0)))\n');
    const check = gdlkit('fmt', 'messy.kif', '--check');
    assert.equal(check.code, 1, explain(check));
    const w = gdlkit('fmt', 'messy.kif', '--write');
    assert.equal(w.code, 0, explain(w));
    const formatted = readFileSync(join(scratch, 'messy.kif'), 'utf8');
    assert.notEqual(formatted, '(role   you)\n(init (coins 0))   (<= terminal (true (coins 0)))\n');
    assert.equal(gdlkit('fmt', 'messy.kif', '--check').code, 0);
  });
});

describe('TypeScript', () => {
  const TS_USE = `import { init, analyze, Game, check, hasErrors, isGdlError, replay, runCli, version, type AnalysisResult, type Diagnostic, type StateHandle } from 'gdlkit';
import { GdlWorker, type GdlTask, type PlayoutsResult, type BestMoveResult } from 'gdlkit/worker';
import { Player, runMatch, search, searchTree, type MatchResult, type SearchResult, type TraceEvent } from 'gdlkit';

await init();
const diags: Diagnostic[] = check('(role x)');
const line: number = diags[0]?.line ?? 0;
// @ts-expect-error a line is a number
const wrong: string = diags[0].line;
console.log(hasErrors(diags), line, wrong, version());
try {
  using game = new Game('(role x)');
  const s: StateHandle = game.initialState();
  const moves: string[] = game.legalMoves(s, 'x');
  // @ts-expect-error moves are strings
  game.next(s, [1]);
  const goals: (number | null)[] = game.goals(game.next(s, { x: moves[0] }));
  const d = game.describe(s);
  const legal: string[][] = d.legal;
  console.log(goals, legal, game.fluents(s).join(' '));
} catch (e) {
  if (isGdlError(e, 'GdlDiagnosticsError')) {
    const first: Diagnostic | undefined = e.diagnostics[0];
    console.log(first?.from, first?.related[0]?.to);
  } else if (isGdlError(e, 'GdlMoveError')) {
    console.log(e.step);
  }
}
const r = replay('(role x)', [['a']]);
console.log(r.steps[0].legal['x'], runCli(['check', 'g.kif'], { 'g.kif': '(role x)' }).stdout);
const analysis: AnalysisResult = analyze('(role x)', { budget: 10, engine: 'fast' });
const holds: boolean | null = analysis.report.properties.terminates.holds;
// @ts-expect-error no such option
analyze('(role x)', { budgett: 10 });
console.log(holds);
const worker = new GdlWorker({ sliceMs: 10 });
const analyzed = await worker.analyze('(role x)', {}, { onProgress: (p) => console.log(p.phase, p.states) });
console.log(analyzed.diagnostics.length);
const task: GdlTask<PlayoutsResult> = worker.playouts('(role x)', { count: 3 }, { onProgress: (p) => console.log(p.done / p.total) });
task.cancel();
const means: (number | null)[] = (await task).meanGoals;
const diagnostics: Diagnostic[] = await worker.check('(role x)');
console.log(means, diagnostics, (await worker.ready).version);
const found: SearchResult = search('(role x)', { depth: 2, algorithm: 'mcts', budgetMs: 5 });
const bestMove: string | null = found.bestMove;
const events: TraceEvent[] = searchTree('((3 12 8) (2 4 6) (14 5 2))', { trace: true }).events ?? [];
for (const e of events) {
  if (e.type === 'cutoff') {
    console.log(e.pruned.map((p) => p.move), e.alpha);
  } else if (e.type === 'enter') {
    console.log(e.kind, e.parent);
  }
}
// @ts-expect-error a depth is a number
search('(role x)', { depth: '2' });
// @ts-expect-error an unknown option is a type error (and a TypeError at run time)
search('(role x)', { engine: 'fast', futureOption: 1 });
search('(role x)', { engine: 'fast', ordering: 'best', from: ['(cell 1 1 x)'] });
// @ts-expect-error no such ordering
search('(role x)', { ordering: 'random' });
// @ts-expect-error no such engine
search('(role x)', { engine: 'quick' });
const match: MatchResult = runMatch('(role x)', ['random', { name: 'mcts', ms: 100 }], { games: 2, maxSteps: 10 });
const goalSums: number[] = match.results.map((g) => g.goals.reduce((a, b) => a + b, 0));
// @ts-expect-error no such match option
runMatch('(role x)', ['random'], { rounds: 2 });
{
  using player = new Player('(role x)', 'alphabeta:ms=10', { seed: 1 });
  const move: string = player.selectMove(['(cell 1 1 b)'], 'x');
  console.log(move, player.name, player.lastStats().nodes, bestMove, goalSums);
}
const chosen: BestMoveResult = await worker.bestMove('(role x)', { spec: { name: 'mcts', ms: 50 }, fluents: [], role: 0 });
const traced: SearchResult = await worker.searchTree('(1 2)', { trace: true });
const played: MatchResult = await worker.match('(role x)', ['random'], { games: 2, onGame: (g) => console.log(g.goals) }, { onProgress: (p) => console.log(p.games / p.total, p.record.steps) });
console.log(chosen.move, chosen.stats.depth, traced.value, played.players[0]?.ci95[1]);
worker.terminate();
`;

  // The hand-written types must agree with the wasm-bindgen declarations.
  const TS_AGREE = `import type * as api from 'gdlkit';
import type * as pkg from 'gdlkit-pkg';
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const checks: [
  Same<api.Diagnostic, pkg.Diagnostic>,
  Same<api.StateDescription, pkg.StateDescription>,
  Same<api.ReplayResult, pkg.ReplayResult>,
  Same<api.CliResult, pkg.CliResult>,
  Same<api.CliFiles, pkg.CliFiles>,
  Same<api.AnalysisOptions, pkg.AnalysisOptions>,
  Same<api.AnalysisProgress, pkg.AnalysisProgress>,
  Same<api.AnalysisReport, pkg.AnalysisReport>,
  Same<api.Explanation, pkg.Explanation>,
  Same<api.ExplainOptions, pkg.ExplainOptions>,
] = [true, true, true, true, true, true, true, true, true, true];
`;

  // Every function and class method that js/index.d.ts and wasm-bindgen's
  // declarations both name: what the binding returns must be what
  // index.d.ts promises (assignable to it). Generated from the two files, so
  // a new binding is checked without a line here.
  function declared(text) {
    const fns = new Set([...text.matchAll(/^\s*export (?:declare )?function (\w+)/gm)].map((m) => m[1]));
    const classes = new Map();
    for (const m of text.matchAll(/^\s*export (?:declare )?class (\w+)[^{]*\{([\s\S]*?)^\s*\}/gm)) {
      const methods = [...m[2].matchAll(/^\s+(\w+)\(/gm)].map((x) => x[1]);
      classes.set(m[1], new Set(methods.filter((x) => x !== 'constructor' && x !== 'free')));
    }
    return { fns, classes };
  }
  function returnChecks() {
    const api = declared(readFileSync(join(ROOT, 'js', 'index.d.ts'), 'utf8'));
    const pkg = declared(readFileSync(join(PKG, 'gdlkit.d.ts'), 'utf8'));
    const lines = ['type Returns<G, A> = [G] extends [A] ? true : false;'];
    for (const f of [...api.fns].filter((f) => pkg.fns.has(f) && !['init', 'initSync'].includes(f))) {
      lines.push('export const fn_' + f + ': Returns<ReturnType<typeof pkg.' + f + '>, ReturnType<typeof api.' + f + '>> = true;');
    }
    for (const [c, methods] of api.classes) {
      for (const m of [...methods].filter((m) => pkg.classes.get(c)?.has(m))) {
        lines.push('export const ' + c + '_' + m + ": Returns<ReturnType<pkg." + c + "['" + m + "']>, ReturnType<api." + c + "['" + m + "']>> = true;");
      }
    }
    return lines;
  }

  test('the bindings return what js/index.d.ts declares (at least 40 functions and methods compared)', () => {
    const lines = returnChecks();
    assert.ok(lines.length > 40, lines.join('\n'));
  });

  for (const [name, options, agree] of [
    ['bundler resolution; the types agree with wasm-bindgen\'s', { module: 'ESNext', moduleResolution: 'bundler' }, true],
    ['NodeNext resolution', { module: 'NodeNext', moduleResolution: 'NodeNext' }, false],
  ]) {
    test(`tsc --noEmit on code using the API (${name})`, () => {
      const dir = join(scratch, `ts-${options.moduleResolution.toLowerCase()}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'main.mts'), TS_USE);
      const files = ['main.mts'];
      const extra = {};
      if (agree) {
        writeFileSync(join(dir, 'agree.mts'), [TS_AGREE, ...returnChecks()].join('\n'));
        files.push('agree.mts');
        extra.paths = { 'gdlkit-pkg': [join(pkgDir, 'pkg', 'gdlkit.d.ts')] };
      }
      const config = {
        compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022', 'ESNext.Disposable', 'DOM', 'DOM.Iterable'], types: [], ...options, ...extra },
        files,
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2));
      const r = sh(process.execPath, [TSC, '-p', dir]);
      assert.equal(r.code, 0, explain(r));
    });
  }
});

describe('the browser (headless Chromium)', () => {
  let chromium;
  let browser;
  const servers = [];

  before(async () => {
    ({ chromium } = await import('playwright-core'));
    browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    for (const s of servers) {
      s.close();
    }
  });

  // The page: plays a move with Game, searches a tree, runs a check,
  // playouts (progress, soft cancel) and a player's move in the worker, and
  // reports on window.result.
  const PAGE_JS = `import { init, Game, check, searchTree } from 'gdlkit';
import { GdlWorker } from 'gdlkit/worker';

const kif = ${JSON.stringify(COINS)};
await init();
const game = new Game(kif);
let state = game.initialState();
const before = game.fluents(state);
state = game.next(state, ['take']);
const after = game.fluents(state);
document.querySelector('#out').textContent = after.join(' ');
const worker = new GdlWorker({ sliceMs: 5, cancelGraceMs: 30_000 }); // a soft cancel below, however loaded the machine
const progress = [];
const playouts = await worker.playouts(kif, { count: 2000 }, { onProgress: (p) => progress.push(p.done) });
const endless = worker.playouts(kif, { count: 1_000_000 }, { onProgress: (p) => p.done > 50 && endless.cancel() });
const cancelled = await endless.then(() => null, (e) => ({ name: e.name, hard: e.hard, partial: e.partial.playouts }));
const chosen = await worker.bestMove(kif, { spec: 'alphabeta:depth=3', fluents: before, role: 'you' });
window.result = {
  before,
  after,
  tree: searchTree('((3 12 8) (2 4 6) (14 5 2))', { trace: true }).value,
  chosen: chosen.move,
  diagnostics: check('(role x').map((d) => d.code),
  worker: { diagnostics: (await worker.check('(role x')).length, playouts: playouts.playouts, progress: progress.length, cancelled },
};
worker.terminate();
game.free();
document.body.dataset.done = 'true';
`;

  const PAGE_HTML = (head, script) => `<!doctype html>
<html><head><meta charset="utf-8"><title>gdlkit</title><link rel="icon" href="data:,">${head}</head>
<body><pre id="out"></pre><script type="module" src="${script}"></script></body></html>
`;

  async function open(url) {
    const page = await browser.newPage({ serviceWorkers: 'block' });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);
    await page.waitForSelector('body[data-done="true"]', { timeout: 60_000 }).catch(() => {});
    const result = await page.evaluate(() => window.result);
    mkdirSync(ARTIFACTS, { recursive: true });
    return { page, errors, result };
  }

  function checkResult({ errors, result }) {
    assert.deepEqual(errors, []);
    assert.ok(result, 'the page did not finish');
    assert.deepEqual(result.before, ['(coins 0)']);
    assert.deepEqual(result.after, ['(coins 1)']);
    assert.equal(result.tree, 3);
    assert.equal(result.chosen, 'take');
    assert.deepEqual(result.diagnostics, ['GDL002']);
    assert.equal(result.worker.diagnostics, 1);
    assert.equal(result.worker.playouts, 2000);
    assert.ok(result.worker.progress > 0);
    assert.equal(result.worker.cancelled.name, 'AbortError');
    assert.equal(result.worker.cancelled.hard, false);
    assert.ok(result.worker.cancelled.partial > 50);
  }

  test('a Vite build of a page importing gdlkit plays a move (wasm and worker found without configuration)', async () => {
    const app = join(scratch, 'vite-app');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'index.html'), PAGE_HTML('', './main.js'));
    writeFileSync(join(app, 'main.js'), PAGE_JS);
    const { build } = await import('vite');
    const outDir = join(scratch, 'vite-dist');
    await build({ root: app, logLevel: 'error', configFile: false, build: { outDir, emptyOutDir: true } });
    const assets = readdirSync(join(outDir, 'assets'));
    assert.ok(assets.some((f) => f.endsWith('.wasm')), `no .wasm among ${assets}`);
    const { server, url } = await serve({ root: outDir, port: 0, quiet: true });
    servers.push(server);
    const opened = await open(url);
    await opened.page.screenshot({ path: join(ARTIFACTS, 'npm-vite-page.png') });
    await opened.page.close();
    checkResult(opened);
  });

  test('the Vite dev server, with the optimizeDeps.exclude docs/js-api.md gives', async () => {
    const app = join(scratch, 'vite-app');
    const { createServer } = await import('vite');
    const server = await createServer({
      root: app,
      configFile: false,
      logLevel: 'error',
      server: { port: 0, host: '127.0.0.1' },
      optimizeDeps: { exclude: ['gdlkit'] },
    });
    await server.listen();
    try {
      const opened = await open(server.resolvedUrls.local[0]);
      await opened.page.close();
      checkResult(opened);
    } finally {
      await server.close();
    }
  });

  test('without a bundler: an import map to the installed package', async () => {
    const importMap = `<script type="importmap">${JSON.stringify({
      imports: { gdlkit: '/node_modules/gdlkit/js/index.js', 'gdlkit/worker': '/node_modules/gdlkit/js/worker.js' },
    })}</script>`;
    writeFileSync(join(scratch, 'plain.html'), PAGE_HTML(importMap, '/plain.js'));
    writeFileSync(join(scratch, 'plain.js'), PAGE_JS);
    const { server, url } = await serve({ root: scratch, port: 0, quiet: true });
    servers.push(server);
    const opened = await open(`${url}plain.html`);
    await opened.page.close();
    checkResult(opened);
  });

  test('a trap on the main thread rebuilds the instance: that call fails with a GdlCrashError, new games play', async () => {
    // testTrap is the module's own test hook (not exported by the package):
    // imported from the installed file, as the page's fault tests do.
    const importMap = `<script type="importmap">${JSON.stringify({ imports: { gdlkit: '/node_modules/gdlkit/js/index.js' } })}</script>`;
    writeFileSync(join(scratch, 'trap.html'), PAGE_HTML(importMap, '/trap.js'));
    writeFileSync(
      join(scratch, 'trap.js'),
      `import { init, Game } from 'gdlkit';
import { wasm } from '/node_modules/gdlkit/js/wasm.js';
await init();
const before = new Game(${JSON.stringify(COINS)});
let crash = null;
try { wasm.testTrap(); } catch (e) { crash = { name: e.name, rebuilt: /rebuilt/.test(e.message), cause: e.cause instanceof WebAssembly.RuntimeError }; }
let old = null;
try { before.initialState(); } catch (e) { old = e.name; }
// On a browser's main thread a module past 8 MB (the ci profile's) is
// rebuilt in the background, as docs/js-api.md says: init() waits for it.
await init();
const after = new Game(${JSON.stringify(COINS)});
const state = after.next(after.initialState(), ['take']);
window.result = { crash, old, after: after.fluents(state) };
document.querySelector('#out').textContent = 'done'; // a visible body: open() waits for it
document.body.dataset.done = 'true';
`,
    );
    const { server, url } = await serve({ root: scratch, port: 0, quiet: true });
    servers.push(server);
    const opened = await open(`${url}trap.html`);
    await opened.page.close();
    assert.deepEqual(opened.errors, []);
    assert.deepEqual(opened.result, { crash: { name: 'GdlCrashError', rebuilt: true, cause: true }, old: 'GdlCrashError', after: ['(coins 1)'] });
  });
});

describe('documentation', () => {
  /**
   * The fenced ```js blocks of a Markdown file, each with the ```text block
   * right after it (only blank lines between), which is its expected output.
   */
  function jsBlocks(file) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return [...text.matchAll(/^```js\n([\s\S]*?)^```\n(?:\s*\n)*(?:```text\n([\s\S]*?)^```$)?/gm)].map((m) => ({ code: m[1], output: m[2] }));
  }

  for (const file of ['README.md', 'docs/js-api.md']) {
    test(`the JS examples of ${file} run and print what the page shows`, () => {
      const blocks = jsBlocks(file);
      assert.ok(blocks.length > 0, `${file} has no \`\`\`js example`);
      for (const [i, { code, output }] of blocks.entries()) {
        const r = node(`example-${file.replace(/\W/g, '-')}-${i + 1}.mjs`, code);
        assert.equal(r.code, 0, `${file}, example ${i + 1}:\n${code}\n${explain(r)}`);
        if (output !== undefined) {
          assert.equal(r.stdout, output, `${file}, example ${i + 1}: the output shown after it`);
        }
      }
    });
  }
});
