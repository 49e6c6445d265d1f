// Playing strength: matches of `gdlkit serve` (the candidate player) against
// opponents, run by `gdlkit host` one match at a time with the candidate's
// seat rotated over the roles. The opponent is either another `gdlkit serve` (the baseline
// player spec, the quick signal) or any GGP player URL (Sancho, ggp-base's
// sample players: ../shared/ggp/opponents/README.md says how to run them).
// Prints per game W/D/L of the candidate and its mean score with a 95%
// Wilson interval over the *clean* matches (neither side had an error), the
// matches that were not clean listed apart with each side's errors (TO
// timeout, IL illegal, CE connection, or the host's failure), the commit,
// the clocks and the machine's load before and after.
//
//   cargo build --release -p gdlkit-cli
//   node bench/strength.mjs [--games connectFour,breakthrough] [--matches 4]
//       [--start 10] [--play 1] [--candidate SPEC] [--baseline SPEC]
//       [--opponent URL[,URL...]] [--out FILE.json] [--log FILE] [--port P]
//       [--gdlkit PATH] [--browser SPEC] [--draw N] [--seed S] [--seat K] [--exclude G,...]
//
// Defaults: ticTacToe, connectFour, breakthrough and reversi from
// ../shared/games/repository, 4 matches each, 10 s / 1 s, candidate = the
// serve default, baseline `mcts`. A `--games` entry may be a path to a .kif.
// `--log F` keeps the servers' logs in F.candidate and F.baseline; ports P
// (candidate) and P+1, P+2, ... (baselines), default 9400.
//
// More than two roles: the other seats get the `--opponent` URLs in order,
// then baseline servers. A win is a goal above every other player's, a
// loss one below some other's, and the table gives the fair share beside
// the mean score: the mean of all players' goals per match. `--gdlkit` runs another
// build (e.g. a copy of an earlier commit's) instead of target/release.
//
// `--draw N`: instead of `--games`, N two-player games of the corpus drawn
// at random (seeded by `--seed`, default 1; the order is printed), each
// kept only if its first match is clean on the opponent's side: a game the
// opponent cannot set up (out of memory, a propnet that never finishes) is
// listed and replaced by the next drawn game. The k-th kept game's first
// match puts the candidate in seat k + K (`--seat K`, default 0), so a pool
// of one match a game alternates seats, and `--seat 1` plays the other
// seats of the same pool; `--exclude a,b` skips games set aside by an
// earlier series of the pool without playing them again. Start Sancho with its 10 GB
// heap (`sancho.sh` in ../shared/ggp/opponents, `SANCHO_JOPTS`).
//
// `--browser SPEC`: the candidate is instead the page's engine (the Match
// view's engine seat, player SPEC from the page's list, e.g. `mcts`) in
// headless Chromium, the page hosting the match against the opponent (by
// default a native `gdlkit serve` with the baseline spec). The site is
// served cross-origin isolated, as `npm start` serves it, so the engine
// thinks on one thread per core (up to 8), one tree; an `--opponent` is reached through `gdlkit serve --relay` (Sancho sends no
// CORS headers). The page is given the corpus's rules (a name not in the
// corpus is taken from the site's library); it needs `npm run build`.
//
// `--out FILE` is written after every match, so a stopped series keeps
// what it played.
// Not part of `npm test`: it takes minutes and needs quiet cores.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The shared corpus beside the checkout (or beside its parent, for a worktree).
const CORPUS = [join(ROOT, '..', 'shared'), join(ROOT, '..', '..', 'shared')]
  .map((d) => join(d, 'games', 'repository'))
  .find((d) => existsSync(d)) ?? join(ROOT, '..', 'shared', 'games', 'repository');
let GDLKIT = join(ROOT, 'target', 'release', 'gdlkit');

function options(argv) {
  const o = {
    games: ['ticTacToe', 'connectFour', 'breakthrough', 'reversi'],
    matches: 4,
    start: 10,
    play: 1,
    candidate: null,
    baseline: 'mcts',
    opponent: null,
    out: null,
    log: null,
    port: 9400,
    browser: null,
    draw: 0,
    seed: 1,
    seat: 0,
    exclude: [],
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (v === undefined) throw new Error(`option ${k} needs a value`);
    if (k === '--games') o.games = v.split(',');
    else if (k === '--matches') o.matches = Number(v);
    else if (k === '--start') o.start = Number(v);
    else if (k === '--play') o.play = Number(v);
    else if (k === '--candidate') o.candidate = v;
    else if (k === '--baseline') o.baseline = v;
    else if (k === '--opponent') o.opponent = v.split(',');
    else if (k === '--out') o.out = v;
    else if (k === '--log') o.log = v;
    else if (k === '--port') o.port = Number(v);
    else if (k === '--gdlkit') GDLKIT = resolve(v);
    else if (k === '--browser') o.browser = v;
    else if (k === '--draw') o.draw = Number(v);
    else if (k === '--seed') o.seed = Number(v);
    else if (k === '--seat') o.seat = Number(v);
    else if (k === '--exclude') o.exclude = v.split(',');
    else throw new Error(`unknown option ${k}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The checkout's commit, as the tables name it; with `--gdlkit` the binary too (a copy may be of another commit). */
const commit = () => {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() || 'unknown';
  return GDLKIT === join(ROOT, 'target', 'release', 'gdlkit') ? head : `${GDLKIT} (checkout ${head})`;
};

/**
 * The player's INFO status, or null while it does not answer. A raw socket,
 * not fetch: ggp-base's players (Sancho) end header lines with a bare LF,
 * which fetch's parser refuses.
 */
function info(url) {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    let text = '';
    const sock = connect({ host: hostname, port: Number(port) || 80 });
    const finish = (v) => {
      sock.destroy();
      done(v);
    };
    sock.setTimeout(2000, () => finish(null));
    sock.on('error', () => finish(null));
    sock.on('data', (d) => {
      text += d;
    });
    sock.on('end', () => {
      const body = text.split(/\r?\n\r?\n/).slice(1).join('\n');
      finish(/available/i.test(body) ? 'available' : /busy/i.test(body) ? 'busy' : text ? body.trim() : null);
    });
    const msg = '( INFO )';
    sock.write(`POST / HTTP/1.0\r\nHost: ${hostname}\r\nContent-Type: text/acl\r\nContent-Length: ${msg.length}\r\n\r\n${msg}`);
  });
}

/** Waits until `url` answers INFO `available` (Sancho restarts after every match). */
async function ready(url, ms = 120000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if ((await info(url)) === 'available') return;
    await sleep(500);
  }
  throw new Error(`${url} is not available after ${ms / 1000} s`);
}

/** The processes this script started: stopped with it. */
const children = new Set();
const child = (proc) => {
  children.add(proc);
  return proc;
};

/**
 * Starts `gdlkit serve` with a player spec (or `{relay: URL}`) on a port;
 * returns the process and URL.
 */
function serve(spec, port, name, logFile) {
  const args = ['serve', '--port', String(port)];
  if (spec?.relay) args.push('--relay', spec.relay);
  else args.push('--name', name);
  if (spec && !spec.relay) args.push('--player', spec);
  // The servers' logs (one line per message) go to the log file, if any.
  if (logFile) args.push('--log', `${logFile}.${name}`);
  const proc = child(spawn(GDLKIT, args, { stdio: ['ignore', 'ignore', 'pipe'] }));
  // A server that ends before it is stopped (a port in use, say) would
  // leave its matches to whatever else answers there: stop everything.
  let why = '';
  proc.stderr.on('data', (d) => {
    why = (why + d).slice(-2000);
  });
  proc.once('exit', (code) => {
    if (proc.killed) return;
    console.error(`gdlkit serve (${name}, port ${port}) ended (${code}): ${why.trim().slice(-500)}`);
    process.exit(1);
  });
  return { proc, url: `http://127.0.0.1:${port}` };
}

/**
 * The built site served on a free port and headless Chromium (as the
 * page tests run it); `close()` stops both.
 */
async function openPage() {
  const [{ chromium }, { ISOLATION, serve: serveSite }, { browserPaths }, { CHROMIUM_ARGS, SITE }] = await Promise.all([
    import('playwright-core'),
    import('../scripts/serve.mjs'),
    import('../scripts/setup.mjs'),
    import('../scripts/lib.mjs'),
  ]);
  if (!existsSync(join(SITE, 'pkg-threads'))) throw new Error('build the site first: npm run build');
  const site = await serveSite({ port: 0, quiet: true, headers: ISOLATION });
  const browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
  return {
    browser,
    url: site.url,
    close: () => {
      browser.close();
      site.server.close();
    },
  };
}

/**
 * One match by `gdlkit host`: the parsed match JSON. The host runs as a
 * child while the event loop goes on, so a stopped series stops it too.
 */
function hostMatch(file, players, o, seed) {
  const args = ['host', file, '--players', ...players, '--startclock', String(o.start), '--playclock', String(o.play)];
  args.push('--matches', '1', '--format', 'json', '--seed', String(seed));
  return new Promise((resolve, reject) => {
    const proc = child(spawn(GDLKIT, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    const out = [];
    let err = '';
    proc.stdout.on('data', (d) => out.push(d));
    proc.stderr.on('data', (d) => {
      err = (err + d).slice(-2000);
    });
    proc.once('error', reject);
    proc.once('close', (status) => {
      children.delete(proc);
      if (status !== 0) reject(new Error(`gdlkit host failed (${status}): ${err}`));
      else resolve(JSON.parse(Buffer.concat(out).toString('utf8')).matches[0]);
    });
  });
}

/** Counts of TO / IL / CE in one role's column of a match's errors. */
function errorCounts(match, role, into) {
  for (const row of match.errors ?? []) {
    const e = row[role] ?? '';
    for (const kind of ['TO', 'IL', 'CE']) if (e.startsWith(kind)) into[kind] += 1;
  }
}

/**
 * Mean of scores in 0..100 and its 95% Wilson score interval, the score
 * read as a proportion (a draw counts half): unlike the normal
 * approximation it does not shrink to nothing when every match is won.
 */
function interval(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const p = mean / 100;
  const z = 1.96;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z / d) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { mean, lo: 100 * Math.max(0, centre - half), hi: 100 * Math.min(1, centre + half) };
}

/** "mean [lo, hi]" for a table cell. */
function showInterval({ mean, lo, hi }) {
  return `${mean.toFixed(1)} [${lo.toFixed(1)}, ${hi.toFixed(1)}]`;
}

const gameFile = (game) => (game.endsWith('.kif') ? game : join(CORPUS, `${game}.kif`));

/** The game's roles: its `(role NAME)` facts (not `(role ?x)` in rule bodies). */
function rolesOf(game) {
  const file = gameFile(game);
  if (!existsSync(file)) throw new Error(`no game ${file}`);
  return (readFileSync(file, 'utf8').match(/\(\s*role\s+[^\s()?][^\s()]*\s*\)/g) ?? []).length;
}

/**
 * One match by `gdlkit host`, the candidate in role `seat` and the
 * opponents' URLs in the other roles, in order.
 */
async function hostedMatch(game, seat, cand, opps, o, seed) {
  const others = opps.slice(0, rolesOf(game) - 1);
  const players = [...others.slice(0, seat), cand, ...others.slice(seat)];
  for (const url of players) await ready(url);
  return hostMatch(gameFile(game), players, o, seed);
}

/**
 * One match hosted by the page in Chromium (the Match view): the page's
 * engine plays role `seat`, the opponent's URL every other role. The
 * record is the page's match JSON (ggp-base's layout).
 */
async function pageMatch(game, seat, page, opp, o) {
  await ready(opp.player);
  const tab = await page.browser.newContext({ acceptDownloads: true });
  try {
    const p = await tab.newPage();
    p.setDefaultTimeout(60_000);
    // The corpus's rules, as the native series plays them, else the site library's game of that name.
    const file = gameFile(game);
    const rules = existsSync(file) ? `kif=${deflateSync(readFileSync(file)).toString('base64url')}` : `game=${encodeURIComponent(game)}`;
    await p.goto(new URL(`?view=match&${rules}`, page.url).href);
    await p.waitForSelector('body[data-ready="true"]');
    await p.waitForSelector('.match-seat select.match-kind');
    const roles = await p.$$eval('.match-seat select.match-kind', (ss) => ss.map((s) => s.dataset.role));
    for (const [r, role] of roles.entries()) {
      const row = `.match-seat:nth-child(${r + 1})`;
      await p.selectOption(`${row} select.match-kind`, r === seat ? 'engine' : 'remote');
      if (r === seat) await p.selectOption(`${row} select[aria-label="Engine of ${role}"]`, o.browser);
      else await p.fill(`${row} input.match-url`, `${opp.via}/`);
    }
    await p.fill('input[aria-label="Start clock (s)"]', String(o.start));
    await p.fill('input[aria-label="Play clock (s)"]', String(o.play));
    await p.click('text=Start match');
    // Every step within its clock, plus the start: a game of 500 steps at most.
    const wait = (o.start + 500 * (o.play + 1)) * 1000;
    await p.waitForFunction(() => /Match over|Match aborted|The match stopped/.test(document.querySelector('.match-status')?.textContent ?? ''), null, { timeout: wait, polling: 1000 });
    const status = await p.textContent('.match-status');
    if (/stopped/.test(status)) throw new Error(`${game}: ${status}`);
    const [download] = await Promise.all([p.waitForEvent('download'), p.click('text=Download match JSON')]);
    return JSON.parse(readFileSync(await download.path(), 'utf8'));
  } finally {
    await tab.close();
  }
}

/** The errors of a match, per side: `TO`/`IL`/`CE` counts, none when clean. */
function matchErrors(m, seat) {
  const e = { candidate: { TO: 0, IL: 0, CE: 0 }, opponent: { TO: 0, IL: 0, CE: 0 } };
  errorCounts(m, seat, e.candidate);
  for (let r = 0; r < (m.gameRoleNames ?? []).length; r++) if (r !== seat) errorCounts(m, r, e.opponent);
  return e;
}

const anyError = (e) => e.TO + e.IL + e.CE > 0;

/**
 * `o.matches` matches of `game`, the candidate's seat rotated over the
 * roles. Only clean matches count; the others (an error on either side, an
 * aborted match, a host that failed) are kept in `failures` with what went
 * wrong. With more than two roles a win is a goal above every other
 * player's, a loss one below some other's; `share` is the mean of all
 * players' goals per match (what the candidate scores with no edge).
 */
async function playGame(game, oneMatch, o, stopEarly = false, firstSeat = o.seat) {
  const roles = rolesOf(game);
  const row = { game, roles, played: 0, scores: [], shares: [], wins: 0, draws: 0, losses: 0, failures: [] };
  for (let g = 0; g < o.matches; g++, o.saveRow?.(row)) {
    const seat = (g + firstSeat) % roles;
    row.played += 1;
    let m;
    try {
      m = await oneMatch(game, seat, g + 1);
    } catch (e) {
      row.failures.push({ match: g + 1, seat, side: 'host', what: e.message.slice(0, 300) });
      console.error(`${game} ${g + 1}/${o.matches}: failed: ${e.message.slice(0, 300)}`);
      if (stopEarly) break;
      continue;
    }
    const goals = m.goalValues ?? [];
    const mine = goals[seat] ?? 0;
    const e = matchErrors(m, seat);
    const errs = (m.errors ?? []).flatMap((r) => r.filter((x) => x)).length;
    console.error(`${game} ${g + 1}/${o.matches}: candidate as ${m.gameRoleNames[seat]} scored ${mine} (goals ${goals.join('/')}, ${m.moves.length} moves, ${errs} errors)`);
    if (m.isAborted || anyError(e.candidate) || anyError(e.opponent)) {
      const side = anyError(e.candidate) ? (anyError(e.opponent) ? 'both' : 'candidate') : 'opponent';
      row.failures.push({ match: g + 1, seat, side, what: `candidate ${fmtErr(e.candidate)}, opponent ${fmtErr(e.opponent)}${m.isAborted ? ', aborted' : ''}` });
      if (stopEarly && side !== 'candidate') break;
      continue;
    }
    const best = Math.max(...goals.filter((_, r) => r !== seat), 0);
    row.scores.push(mine);
    row.shares.push(goals.reduce((a, b) => a + b, 0) / Math.max(goals.length, 1));
    if (mine > best) row.wins += 1;
    else if (mine === best) row.draws += 1;
    else row.losses += 1;
  }
  return { ...row, ...(row.scores.length ? interval(row.scores) : { mean: Number.NaN }) };
}

/** Two-player games of the corpus in a random order drawn from `seed` (mulberry32). */
function drawnGames(seed) {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.kif')).sort();
  const twoPlayer = files.filter((f) => {
    const roles = readFileSync(join(CORPUS, f), 'utf8').match(/\(\s*role\s+[^\s()?][^\s()]*\s*\)/g) ?? [];
    return roles.length === 2 && !roles.some((r) => /\brandom\b/.test(r));
  });
  let t = seed >>> 0;
  const random = () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = twoPlayer.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [twoPlayer[i], twoPlayer[j]] = [twoPlayer[j], twoPlayer[i]];
  }
  return twoPlayer.map((f) => f.slice(0, -4));
}

/**
 * The rows of `o.draw` drawn games whose first match the opponent played
 * cleanly, and the games set aside.
 */
async function playDrawn(oneMatch, o) {
  const rows = [];
  const setAside = [];
  for (const game of drawnGames(o.seed)) {
    if (rows.length >= o.draw) break;
    if (o.exclude.includes(game)) {
      setAside.push(`${game} (excluded)`);
      continue;
    }
    // The kept games' first seats alternate, so one match a game still
    // plays both seats across the pool.
    const row = await playGame(game, oneMatch, o, true, o.seat + rows.length);
    const first = row.failures.find((f) => f.match === 1 && f.side !== 'candidate');
    if (first && /not available/.test(first.what)) {
      // The opponent stopped answering (Sancho can hang after its watchdog
      // aborts a game): every game after would be set aside for it.
      setAside.push(`${game} (${first.side}: ${first.what}; the series stopped here: restart the opponent and go on with --exclude)`);
      break;
    }
    if (first) setAside.push(`${game} (${first.side}: ${first.what})`);
    else rows.push(row);
  }
  return { rows, setAside };
}

const fmtErr = (e) => `TO ${e.TO} IL ${e.IL} CE ${e.CE}`;

async function main() {
  const o = options(process.argv.slice(2));
  if (!existsSync(GDLKIT)) throw new Error(`build first: cargo build --release -p gdlkit-cli (${GDLKIT})`);
  // The candidate: the page in Chromium, or a native player server.
  const page = o.browser ? await openPage() : null;
  const c = o.browser ? null : serve(o.candidate, o.port, 'candidate', o.log);
  // One opponent per other seat: the URLs given, then baseline servers.
  const most = Math.max(...(o.draw > 0 ? [2] : o.games.map(rolesOf)));
  const opps = [...(o.opponent ?? [])];
  for (let i = opps.length; i < most - 1; i++) opps.push(serve(o.baseline, o.port + 1 + i, `baseline${i || ''}`, o.log).url);
  const stop = () => {
    for (const p of children) p.kill();
    page?.close();
  };
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.on(signal, () => {
      stop();
      process.exit(code);
    });
  }
  const loadBefore = loadavg();
  let rows = [];
  let setAside = [];
  // What has been played so far, kept after every match.
  const done = [];
  o.saveRow = (row) => {
    if (!done.includes(row)) done.push(row);
    if (o.out) writeFileSync(o.out, `${JSON.stringify({ options: o, rows: done, partial: true, loadBefore }, null, 1)}\n`);
  };
  // The page reaches an opponent that sends no CORS headers through a relay.
  const pageOpp = page && {
    player: opps[0],
    via: o.opponent ? serve({ relay: opps[0].replace(/\/?$/, '/') }, o.port + 9, 'relay', o.log).url : opps[0],
  };
  const oneMatch = page
    ? (g, seat) => pageMatch(g, seat, page, pageOpp, o)
    : (g, seat, seed) => hostedMatch(g, seat, c.url, opps, o, seed);
  try {
    if (o.draw > 0) ({ rows, setAside } = await playDrawn(oneMatch, o));
    else for (const game of o.games) rows.push(await playGame(game, oneMatch, o));
  } finally {
    stop();
  }
  const loadAfter = loadavg();
  const cand = o.browser ? `the page's engine ${o.browser} (Chromium, Match view)` : (o.candidate ?? '(serve default)');
  const drawn = o.draw > 0 ? `, ${o.draw} games drawn with seed ${o.seed} (first seats from ${o.seat})` : '';
  const against = [...(o.opponent ?? []), ...(opps.length > (o.opponent?.length ?? 0) ? [`baseline ${o.baseline}`] : [])].join(', ');
  const head = `candidate ${cand} vs ${against}, ${o.start} s / ${o.play} s, seats rotated${drawn}, gdlkit ${commit()}`;
  console.log(head);
  console.log('| game | clean / played | W/D/L | mean score [95% Wilson] |');
  console.log('|---|---|---|---|');
  const all = [];
  for (const r of rows) {
    const mean = Number.isNaN(r.mean) ? '–' : showInterval(r);
    const share = r.roles > 2 && r.shares.length ? ` (fair share ${(r.shares.reduce((a, b) => a + b, 0) / r.shares.length).toFixed(1)})` : '';
    console.log(`| ${r.game}${r.roles > 2 ? ` (${r.roles} roles)` : ''} | ${r.scores.length} / ${r.played} | ${r.wins}/${r.draws}/${r.losses} | ${mean}${share} |`);
    all.push(...r.scores);
  }
  if (rows.length > 1 && all.length) {
    const t = interval(all);
    const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
    console.log(`| all | ${all.length} / ${sum('played')} | ${sum('wins')}/${sum('draws')}/${sum('losses')} | ${showInterval(t)} |`);
  }
  const failures = rows.flatMap((r) => r.failures.map((f) => `${r.game} match ${f.match} (${f.side}): ${f.what}`));
  if (failures.length) console.log(`not counted:\n${failures.map((f) => `- ${f}`).join('\n')}`);
  if (setAside.length) console.log(`set aside (the opponent failed its first match):\n${setAside.map((f) => `- ${f}`).join('\n')}`);
  const la = (l) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`load (1/5/15 min) before: ${la(loadBefore)}, after: ${la(loadAfter)}`);
  if (o.out) writeFileSync(o.out, `${JSON.stringify({ options: o, rows, setAside, loadBefore, loadAfter }, null, 1)}\n`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
