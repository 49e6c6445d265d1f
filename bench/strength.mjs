// Playing strength: matches of `gdlkit serve` (the candidate player) against
// an opponent, run by `gdlkit host` one match at a time with the seats
// alternated. The opponent is either another `gdlkit serve` (the baseline
// player spec, the quick signal) or any GGP player URL (Sancho, ggp-base's
// sample players: ../shared/ggp/opponents/README.md says how to run them).
// Prints per game W/D/L of the candidate, its mean score with a 95%
// interval, errors per side (TO timeout, IL illegal, CE connection) and the
// machine's load before and after.
//
//   cargo build --release -p gdlkit-cli
//   node bench/strength.mjs [--games connectFour,breakthrough] [--matches 4]
//       [--start 10] [--play 1] [--candidate SPEC] [--baseline SPEC]
//       [--opponent URL] [--out FILE.json] [--log FILE] [--port P]
//       [--gdlkit PATH] [--browser SPEC]
//
// Defaults: ticTacToe, connectFour, breakthrough and reversi from
// ../shared/games/repository, 4 matches each, 10 s / 1 s, candidate = the
// serve default, baseline `mcts`. A `--games` entry may be a path to a .kif.
// `--log F` keeps the servers' logs in F.candidate and F.baseline; ports P
// (candidate) and P+1 (baseline), default 9400. `--gdlkit` runs another
// build (e.g. a copy of an earlier commit's) instead of target/release.
//
// `--browser SPEC`: the candidate is instead the page's engine (the Match
// view's engine seat, player SPEC from the page's list, e.g. `mcts`) in
// headless Chromium, the page hosting the match against the opponent (by
// default a native `gdlkit serve` with the baseline spec). Games are then
// names from the site's library (games/); it needs `npm run build`.
// Not part of `npm test`: it takes minutes and needs quiet cores.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
    else if (k === '--opponent') o.opponent = v;
    else if (k === '--out') o.out = v;
    else if (k === '--log') o.log = v;
    else if (k === '--port') o.port = Number(v);
    else if (k === '--gdlkit') GDLKIT = resolve(v);
    else if (k === '--browser') o.browser = v;
    else throw new Error(`unknown option ${k}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

/** Starts `gdlkit serve` with a player spec on a port; returns the process and URL. */
function serve(spec, port, name, logFile) {
  const args = ['serve', '--port', String(port), '--name', name];
  if (spec) args.push('--player', spec);
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
  const [{ chromium }, { serve: serveSite }, { browserPaths }, { CHROMIUM_ARGS, SITE }] = await Promise.all([
    import('playwright-core'),
    import('../scripts/serve.mjs'),
    import('../scripts/setup.mjs'),
    import('../scripts/lib.mjs'),
  ]);
  if (!existsSync(join(SITE, 'pkg'))) throw new Error('build the site first: npm run build');
  const site = await serveSite({ port: 0, quiet: true });
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

/** Mean and 95% half-width (normal approximation) of scores in 0..100. */
function interval(xs) {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, half: n > 1 ? (1.96 * sd) / Math.sqrt(n) : Number.NaN };
}

/** One match by `gdlkit host` between two player servers, `seat` the candidate's role index. */
async function hostedMatch(game, seat, cand, opp, o, seed) {
  const file = game.endsWith('.kif') ? game : join(CORPUS, `${game}.kif`);
  if (!existsSync(file)) throw new Error(`no game ${file}`);
  await ready(cand);
  await ready(opp);
  return hostMatch(file, seat === 0 ? [cand, opp] : [opp, cand], o, seed);
}

/**
 * One match hosted by the page in Chromium (the Match view): the page's
 * engine plays role `seat`, the opponent's URL every other role. The
 * record is the page's match JSON (ggp-base's layout).
 */
async function pageMatch(game, seat, page, opp, o) {
  await ready(opp);
  const tab = await page.browser.newContext({ acceptDownloads: true });
  try {
    const p = await tab.newPage();
    p.setDefaultTimeout(60_000);
    await p.goto(new URL(`?view=match&game=${encodeURIComponent(game)}`, page.url).href);
    await p.waitForSelector('body[data-ready="true"]');
    await p.waitForSelector('.match-seat select.match-kind');
    const roles = await p.$$eval('.match-seat select.match-kind', (ss) => ss.map((s) => s.dataset.role));
    for (const [r, role] of roles.entries()) {
      const row = `.match-seat:nth-child(${r + 1})`;
      await p.selectOption(`${row} select.match-kind`, r === seat ? 'engine' : 'remote');
      if (r === seat) await p.selectOption(`${row} select[aria-label="Engine of ${role}"]`, o.browser);
      else await p.fill(`${row} input.match-url`, `${opp}/`);
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

async function playGame(game, oneMatch, o) {
  const row = { game, scores: [], wins: 0, draws: 0, losses: 0, aborted: 0 };
  row.errors = { candidate: { TO: 0, IL: 0, CE: 0 }, opponent: { TO: 0, IL: 0, CE: 0 } };
  for (let g = 0; g < o.matches; g++) {
    const seat = g % 2;
    const m = await oneMatch(game, seat, g + 1);
    const goals = m.goalValues ?? [];
    const mine = goals[seat] ?? 0;
    const best = Math.max(...goals.filter((_, r) => r !== seat), 0);
    row.scores.push(mine);
    if (m.isAborted) row.aborted += 1;
    if (mine > best) row.wins += 1;
    else if (mine === best) row.draws += 1;
    else row.losses += 1;
    errorCounts(m, seat, row.errors.candidate);
    errorCounts(m, 1 - seat, row.errors.opponent);
    const errs = (m.errors ?? []).flatMap((r) => r.filter((e) => e)).length;
    console.error(`${game} ${g + 1}/${o.matches}: candidate as ${m.gameRoleNames[seat]} scored ${mine} (goals ${goals.join('/')}, ${m.moves.length} moves, ${errs} errors)`);
  }
  return { ...row, ...interval(row.scores) };
}

const fmtErr = (e) => `TO ${e.TO} IL ${e.IL} CE ${e.CE}`;

async function main() {
  const o = options(process.argv.slice(2));
  if (!existsSync(GDLKIT)) throw new Error(`build first: cargo build --release -p gdlkit-cli (${GDLKIT})`);
  // The candidate: the page in Chromium, or a native player server.
  const page = o.browser ? await openPage() : null;
  const c = o.browser ? null : serve(o.candidate, o.port, 'candidate', o.log);
  const oppUrl = o.opponent ?? serve(o.baseline, o.port + 1, 'baseline', o.log).url;
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
  const rows = [];
  try {
    for (const game of o.games) {
      const oneMatch = page
        ? (g, seat) => pageMatch(g, seat, page, oppUrl, o)
        : (g, seat, seed) => hostedMatch(g, seat, c.url, oppUrl, o, seed);
      rows.push(await playGame(game, oneMatch, o));
    }
  } finally {
    stop();
  }
  const loadAfter = loadavg();
  const cand = o.browser ? `the page's engine ${o.browser} (Chromium, Match view)` : (o.candidate ?? '(serve default)');
  const head = `candidate ${cand} vs ${o.opponent ?? `baseline ${o.baseline}`}, ${o.start} s / ${o.play} s, seats alternated`;
  console.log(head);
  console.log('| game | matches | W/D/L | mean score (95%) | errors candidate | errors opponent |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const ci = Number.isNaN(r.half) ? '' : ` ± ${r.half.toFixed(1)}`;
    console.log(`| ${r.game} | ${r.scores.length} | ${r.wins}/${r.draws}/${r.losses} | ${r.mean.toFixed(1)}${ci} | ${fmtErr(r.errors.candidate)} | ${fmtErr(r.errors.opponent)} |`);
  }
  const la = (l) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`load (1/5/15 min) before: ${la(loadBefore)}, after: ${la(loadAfter)}`);
  if (o.out) writeFileSync(o.out, `${JSON.stringify({ options: o, rows, loadBefore, loadAfter }, null, 1)}\n`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
