// `npm run fuzz -- --seconds N [--targets parse,fmt,play,analyze]`:
// coverage-guided fuzzing with cargo-fuzz (libFuzzer, nightly Rust). Installs
// the nightly toolchain and cargo-fuzz when missing, writes a seed corpus
// (the project's games and the adversarial families of tests/adversarial.mjs),
// runs each target for N seconds (default 60), and prints the executions run
// and the crashes found (saved in fuzz/artifacts/TARGET/; each one belongs
// in crate/tests/adversarial.rs as a regression test). Exits 1 on a crash.

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
const targets = option('targets', 'parse,fmt,play,analyze').split(',');
const FUZZ = join(ROOT, 'fuzz');

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
for (const target of targets) {
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
console.log(`\nfuzzing: ${executions} executions over ${targets.length} targets, ${crashes} crashes`);
process.exit(crashes > 0 ? 1 : 0);
