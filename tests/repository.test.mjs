// GGP repositories from JavaScript (repositoryGames, repositoryGame) against
// a local server in ggp-base's layout; failures say what failed. Runs on
// the wasm build in pkg/ (`npm run build`).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { DEFAULT_REPOSITORY, repositoryGame, repositoryGames } from '../js/node.js';

const NIM = '(role a) (role b) (init (heap 2))';
const FILES = {
  '/repo/games/': '["nim", "broken", "ghost"]',
  '/repo/games/nim/': '{"version": 4, "gameName": "Nim", "description": "take coins", "rulesheet": "nim.kif"}',
  '/repo/games/nim/v4/nim.kif': NIM,
  '/repo/games/broken/': '{"version": "one", "rulesheet": "b.kif"}',
};
let server;
let repo;

before(async () => {
  server = createServer((req, res) => {
    const body = FILES[req.url];
    res.writeHead(body === undefined ? 404 : 200, { 'Access-Control-Allow-Origin': '*' });
    res.end(body ?? 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  repo = `http://127.0.0.1:${server.address().port}/repo`;
});

after(() => server?.close());

test('the keys and a game of a repository', async () => {
  assert.equal(DEFAULT_REPOSITORY, 'http://games.ggp.org/base/');
  assert.deepEqual(await repositoryGames({ repo }), ['broken', 'ghost', 'nim']);
  const nim = await repositoryGame('nim', { repo });
  assert.equal(nim.gameName, 'Nim');
  assert.equal(nim.version, 4);
  assert.equal(nim.rulesUrl, `${repo}/games/nim/v4/nim.kif`);
  assert.equal(nim.rules, NIM);
});

test('malformed metadata, a missing game and a closed port give clear errors', async () => {
  await assert.rejects(repositoryGame('broken', { repo }), /metadata of broken .*no `version`/);
  await assert.rejects(repositoryGame('ghost', { repo }), /answered 404/);
  await assert.rejects(repositoryGame('../up', { repo }), /not a game key/);
  await assert.rejects(repositoryGames({ repo: 'ftp://x/' }), /starts with http/);
  const refusing = (url) => Promise.reject(new TypeError(`fetch failed for ${url}`));
  await assert.rejects(repositoryGames({ repo, fetch: refusing }), /cannot connect/);
});
