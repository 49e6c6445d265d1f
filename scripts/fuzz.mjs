// `npm run fuzz -- --seconds N [--targets parse,fmt,play,analyze,js,http]`:
// coverage-guided fuzzing with cargo-fuzz (libFuzzer, nightly Rust). Installs
// the nightly toolchain and cargo-fuzz when missing, writes a seed corpus
// (the project's games and the adversarial families of tests/adversarial.mjs),
// runs each target for N seconds (default 60), and prints the executions run
// and the crashes found (saved in fuzz/artifacts/TARGET/; each one belongs
// in crate/cli/tests/integration/adversarial.rs as a regression test). Exits 1 on a crash.
// The `js` target is the npm API fuzzer (tests/js-fuzz.mjs, on the build in
// pkg/; `--seed S`, default random): its failures belong in tests/. The
// `http` target is the GGP servers' byte-stream fuzzer (tests/http-fuzz.mjs:
// the native `gdlkit serve` and the Node one, in parallel; `--seed S`): its
// failures belong in that file's REGRESSIONS.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chain, families, oddTexts } from '../tests/adversarial.mjs';
import { capture, ROOT, runOrThrow } from './lib.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const seconds = Number(option('seconds', '60'));
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error('--seconds expects a number of seconds greater than 0');
  process.exit(2);
}
const targets = option('targets', 'parse,fmt,play,analyze,js,http').split(',');
const FUZZ = join(ROOT, 'fuzz');

// The npm API fuzzer needs no nightly: run it first.
let jsFailures = 0;
if (targets.includes('js')) {
  const seed = Number(option('seed', String(Date.now() % 1_000_000)));
  const api = await import(join(ROOT, 'js', 'node.js'));
  const { fuzzApi } = await import('../tests/js-fuzz.mjs');
  console.log(`\n== fuzz js (the npm API) for ${seconds} s, seed ${seed}`);
  const run = fuzzApi(api, { seconds, seed });
  for (const f of run.failures) {
    console.log(`call ${f.call} ${f.label}: ${f.error}`);
  }
  jsFailures = run.failures.length;
  console.log(`js: ${run.calls} calls in ${run.seconds.toFixed(1)} s (slowest ${run.slowest.label}, ${run.slowest.ms.toFixed(0)} ms), ${jsFailures} failures (replay: --targets js --seed ${seed})`);
}
if (targets.includes('http')) {
  const seed = Number(option('seed', String(Date.now() % 1_000_000)));
  const { fuzzHttp, nativeBinary, startServer } = await import('../tests/http-fuzz.mjs');
  console.log(`\n== fuzz http (the GGP servers, native and Node) for ${seconds} s, seed ${seed}`);
  const servers = await Promise.all([startServer('node', ['--player', 'random']), startServer('native', ['--player', 'random'], nativeBinary())]);
  const run = await fuzzHttp(servers, { seconds, seed });
  for (const s of servers) s.child.kill();
  for (const f of run.failures) {
    console.log(`${f.server} case ${f.case} (${f.label}): ${f.error}`);
  }
  jsFailures += run.failures.length;
  console.log(`http: ${run.cases} cases in ${run.seconds.toFixed(1)} s, ${run.failures.length} failures (replay: --targets http --seed ${seed})`);
}
const rustTargets = targets.filter((t) => t !== 'js' && t !== 'http');
if (rustTargets.length === 0) {
  process.exit(jsFailures > 0 ? 1 : 0);
}

// Tools: nightly and cargo-fuzz.
if (!(capture('rustup', ['toolchain', 'list']) ?? '').includes('nightly')) {
  runOrThrow('rustup', ['toolchain', 'install', 'nightly', '--profile', 'minimal']);
}
if (capture('cargo', ['+nightly', 'fuzz', '--version']) === null) {
  runOrThrow('cargo', ['install', 'cargo-fuzz', '--locked']);
}

// Seeds: the project's games and small instances of every adversarial family.
const seeds = [];
for (const f of readdirSync(join(ROOT, 'games')).filter((f) => f.endsWith('.kif'))) {
  seeds.push([f, readFileSync(join(ROOT, 'games', f))]);
}
const enc = (s) => Buffer.from(s, 'utf8');
seeds.push(['chain-50', enc(chain(50))], ['chain-2000', enc(chain(2000))]);
seeds.push(['deep-term', enc(families.deepTerm(300))], ['wide-rule', enc(families.wideRule(40))]);
seeds.push(['huge-arity', enc(families.hugeArity(300))], ['exponential-join', enc(families.exponentialJoin(8))]);
seeds.push(['term-growth', enc(families.termGrowth())], ['joint-moves', enc(families.jointMoves(8, 6))]);
for (const [name, bytes] of oddTexts()) seeds.push([name, Buffer.from(bytes)]);

let crashes = 0;
let executions = 0;
for (const target of rustTargets) {
  const corpus = join(FUZZ, 'corpus', target);
  mkdirSync(corpus, { recursive: true });
  for (const [name, bytes] of seeds) {
    const path = join(corpus, `seed-${name}`);
    if (!existsSync(path)) writeFileSync(path, bytes);
  }
  const artifacts = join(FUZZ, 'artifacts', target);
  const before = existsSync(artifacts) ? readdirSync(artifacts).length : 0;
  console.log(`\n== fuzz ${target} for ${seconds} s`);
  const r = spawnSync(
    'cargo',
    ['+nightly', 'fuzz', 'run', target, corpus, '--', `-max_total_time=${seconds}`, '-max_len=300000', '-timeout=20', '-rss_limit_mb=4096', '-print_final_stats=1'],
    { cwd: FUZZ, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] },
  );
  const log = r.stderr ?? '';
  process.stderr.write(log.split('\n').slice(-15).join('\n'));
  const runs = Number(log.match(/stat::number_of_executed_units:\s*(\d+)/)?.[1] ?? 0);
  const after = existsSync(artifacts) ? readdirSync(artifacts).length : 0;
  executions += runs;
  crashes += after - before;
  console.log(`\n${target}: ${runs} executions, ${after - before} new crashes, exit ${r.status}`);
  if (r.status !== 0 && after === before) crashes += 1; // a failure without an artifact
}
console.log(`\nfuzzing: ${executions} executions over ${rustTargets.length} targets, ${crashes} crashes`);
process.exit(crashes + jsFailures > 0 ? 1 : 0);
