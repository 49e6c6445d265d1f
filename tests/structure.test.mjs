// The structure of a game and its board as SVG through the npm API
// (js/structure.js over crate/wasm/src/wasm/structure.rs) and the Node worker.
// Runs on the wasm build in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { Game, renderBoard, structure } from '../js/node.js';
import { GdlWorker } from '../js/worker-node.js';

const game = (name) => readFileSync(join(ROOT, 'games', name), 'utf8');

test('structure() finds the tic-tac-toe board, roles and features', () => {
  const st = structure(game('ticTacToe.kif'));
  assert.deepEqual(st.roles, ['x', 'o']);
  assert.equal(st.turnTaking, true);
  assert.deepEqual(st.noopMoves, ['noop']);
  assert.equal(st.constantSum, 100);
  assert.equal(st.boards.length, 1);
  const b = st.boards[0];
  assert.equal(b.fluent, 'cell');
  assert.deepEqual(b.coordinates, [0, 1]);
  assert.deepEqual(b.size, [3, 3]);
  assert.deepEqual(b.markers, ['blank', 'o', 'x']);
  assert.ok(st.features.includes('count.cell.x'));
  assert.ok(st.statesSampled >= 100);
  // The board's fluent is first defined by the `init` rule on line 17.
  assert.equal(st.definedAt.cell.line, 17);
  assert.throws(() => structure(game('ticTacToe.kif'), { bogus: 1 }), TypeError);
  assert.throws(() => structure('(role'), (e) => e.name === 'GdlDiagnosticsError');
});

test('renderBoard() draws the state of a game as SVG, from KIF or a structure', () => {
  const kif = game('ticTacToe.kif');
  const g = new Game(kif);
  const s0 = g.initialState();
  const x = g.legalMoves(s0, 'x')[0];
  const s1 = g.next(s0, [x, 'noop']);
  const fluents = g.fluents(s1);
  const svg = renderBoard(kif, fluents);
  assert.match(svg, /^<svg /);
  assert.equal((svg.match(/<rect /g) ?? []).length, 9, 'one square per cell');
  // The marked cell shows an x mark (pieces.rs); the others nothing.
  assert.equal((svg.match(/M24 24 L76 76/g) ?? []).length, 1);
  assert.doesNotMatch(svg, /<text [^>]*>(x|b|blank)</);
  assert.equal(renderBoard(structure(kif), { fluents }), svg);
  g.free();
  // A game without a board draws its scene: Buttons and Lights' two lamps, lit while they hold.
  const lights = game('buttonsAndLights.kif');
  const lamps = (svg, cls) => (svg.match(new RegExp(`class="${cls}"`, 'g')) ?? []).length;
  assert.equal(lamps(renderBoard(lights, []), 'bulb'), 2);
  assert.equal(lamps(renderBoard(lights, []), 'halo'), 0);
  assert.equal(lamps(renderBoard(lights, ['p']), 'halo'), 1);
});

test('boards look like their games: checkers men and kings, Hex a rhombus of hexagons', () => {
  const checkers = structure(game('checkers.kif')).boards[0];
  const kinds = Object.fromEntries(checkers.drawings.map((d) => [d.content, [d.kind, d.owner]]));
  assert.deepEqual(kinds, { b: ['blank', null], bman: ['man', 1], wman: ['man', 0], bking: ['king', 1], wking: ['king', 0] });
  const hex = structure(game('hex.kif'));
  assert.equal(hex.boards[0].geometry, 'hex');
  assert.equal(hex.boards[0].shear, 0.5);
  assert.equal(structure(game('ticTacToe.kif')).boards[0].geometry, 'square');
  const start = new Game(game('hex.kif'), { engine: 'interpreter' });
  const svg = renderBoard(hex, start.fluents(start.initialState()));
  start.free();
  assert.equal((svg.match(/<polygon /g) ?? []).length, 25, 'one hexagon per cell');
});

test("nine men's morris: 24 points joined by 32 lines, from the rules", () => {
  const kif = game('nineMensMorris.kif');
  const board = structure(kif).boards.find((b) => b.geometry === 'lines');
  assert.ok(board, 'a lines board');
  assert.equal(board.links.length, 32, 'each of the 16 mills is two lines');
  const points = new Set(board.links.flatMap(([x, y, u, v]) => [`${x} ${y}`, `${u} ${v}`]));
  assert.equal(points.size, 24);
  for (const [x, y, u, v] of board.links) assert.ok(x === u || y === v, `(${x} ${y})-(${u} ${v}) is straight`);
  const start = new Game(kif, { engine: 'interpreter' });
  const svg = renderBoard(structure(kif), start.fluents(start.initialState()));
  start.free();
  assert.equal((svg.match(/<line /g) ?? []).length, 32, 'one line per link');
  assert.equal((svg.match(/<rect [^>]*stroke=/g) ?? []).length, 0, 'no squares');
  assert.equal(structure(game('ticTacToe.kif')).boards[0].links.length, 0);
});

test('a board with three coordinates is drawn as its layers side by side (battleship: one sea per player)', () => {
  const kif = game('battleship.kif');
  const st = structure(kif);
  const sea = st.boards.find((b) => b.fluent === 'sea');
  assert.equal(sea?.coordinates.length, 3);
  const start = new Game(kif, { engine: 'interpreter' });
  const svg = renderBoard(st, start.fluents(start.initialState()));
  start.free();
  assert.equal((svg.match(/<svg /g) ?? []).length, 3, 'two layers inside the drawing');
  for (const role of ['first', 'second']) assert.match(svg, new RegExp(`>${role}</text>`), `the ${role} layer is captioned`);
});

test('the worker finds the same structure', async () => {
  const worker = new GdlWorker();
  try {
    const kif = game('connectFour.kif');
    const st = await worker.structure(kif);
    assert.deepEqual(st, structure(kif));
    assert.deepEqual(st.boards[0].ordered, [true, true]);
    const svg = await worker.renderBoard(st, []);
    assert.match(svg, /^<svg /);
  } finally {
    worker.terminate();
  }
});
