// `npm test`: installs what is missing (Chromium too), builds, then runs
// every test and prints a summary. Exits non-zero when anything fails.
//
// Two lanes run side by side, each step after the other within its lane:
//   rust: fmt, clippy, cargo doc, the generated TypeScript, the native Rust
//         tests (cargo test --profile ci --workspace --features
//         gdlkit-wasm/typescript)
//   site: the wasm packages (in the ci profile: optimised, parallel codegen,
//         debug assertions; `npm start` builds them for release) and the
//         site (scripts/build.mjs), the wasm tests in Node and in headless
//         Chromium (cargo test --profile ci --target wasm32-unknown-unknown
//         -p gdlkit-wasm-tests), Biome, then every
//         tests/*.test.mjs file: the page (Playwright + Chromium), the npm
//         package (npm pack, installed into a scratch project: Node, worker,
//         CLI, tsc, Vite + Chromium, docs) and the rest.
// Much of each lane runs on one core (one browser, one Node process), so
// the two together take little more than the longer one. Each step's output goes to test-artifacts/logs/ and is printed
// whole when the step ends; a line marks each start and end.
//
// Add a step to RUST or SITE below.

import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, cargoTargetDir, heading, NATIVE_TEST, ROOT } from './lib.mjs';
import { WASM_CI_TARGET_DIR } from './build.mjs';
import { browserPaths, setup } from './setup.mjs';

// The `ci` profile (optimised, no fat LTO, parallel codegen): `--release`
// would link the wasm test binary with fat LTO. In the target directory of
// the site lane's wasm builds (GDLKIT_WASM_PROFILE=ci), done by then: the
// native tests' cargo lock would hold them back until those end.
const WASM_TEST = ['test', '--profile', 'ci', '--target', 'wasm32-unknown-unknown', '-p', 'gdlkit-wasm-tests', '--target-dir', join(cargoTargetDir(), WASM_CI_TARGET_DIR)];
const LOGS = join(ARTIFACTS, 'logs');

/** webdriver.json for the browser run: wasm-tests/webdriver.json with the browser found by setup. */
function webdriverJson() {
  const caps = JSON.parse(readFileSync(join(ROOT, 'wasm-tests', 'webdriver.json'), 'utf8'));
  caps['goog:chromeOptions'].binary = browserPaths().chromium;
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, 'webdriver.json');
  writeFileSync(path, `${JSON.stringify(caps, null, 2)}\n`);
  return path;
}

/**
 * A step's runner: `exec(command, args, options)` runs one command with its
 * output appended to the step's log, resolving to its exit status.
 */
function logged(log) {
  return (command, args, options = {}) =>
    new Promise((resolve) => {
      const out = createWriteStream(log, { flags: 'a' });
      out.write(`$ ${[command, ...args].join(' ')}\n`);
      const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...options });
      child.stdout.pipe(out, { end: false });
      child.stderr.pipe(out, { end: false });
      child.on('error', (e) => {
        out.end(`cannot run ${command}: ${e.message}\n`);
        resolve(1);
      });
      child.on('close', (code) => out.end(() => resolve(code ?? 1)));
    });
}

const nodeTest = (file) => (exec) => exec(process.execPath, ['--test', '--test-reporter=spec', join('tests', file)]);
const wasmEnv = { ...process.env, WASM_BINDGEN_TEST_TIMEOUT: '600' };

const RUST = [
  // Style gates first: the tree is rustfmt-formatted and clippy-clean.
  { name: 'cargo fmt --check', run: (exec) => exec('cargo', ['fmt', '--all', '--check']) },
  {
    name: 'cargo clippy --all-targets -- -D warnings',
    run: (exec) => exec('cargo', ['clippy', '--workspace', '--all-targets', '--profile', 'ci', '--', '-D', 'warnings']),
  },
  // API docs: the library crates' documentation builds without warnings
  // (no broken links, none to private items); the facade's example runs as
  // a doctest with the native tests.
  {
    name: 'cargo doc --no-deps --lib, the library crates (RUSTDOCFLAGS=-D warnings)',
    run: (exec) =>
      // `--profile ci`: the dependencies' metadata from clippy's build.
      exec('cargo', ['doc', '--profile', 'ci', '--no-deps', '--lib', ...['gdlkit', 'gdlkit-lang', 'gdlkit-engine', 'gdlkit-play', 'gdlkit-ggp', 'gdlkit-cli'].flatMap((p) => ['-p', p])], {
        env: { ...process.env, RUSTDOCFLAGS: '-D warnings' },
      }),
  },
  // Generated TypeScript: js/types.d.ts is what the Rust types generate
  // (`node scripts/types.mjs` rewrites it), and a typed usage file compiles
  // against it (unknown and snake_case keys are errors there). Built with
  // the native tests' features, so that build is reused.
  {
    name: 'generated TypeScript is current; tsc over tests/types/usage.ts',
    run: async (exec) =>
      (await exec('cargo', [...NATIVE_TEST, '--test', 'typescript'])) || exec(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join('tests', 'types')]),
  },
  { name: 'native Rust tests (cargo test --profile ci --workspace)', run: (exec) => exec('cargo', NATIVE_TEST) },
];

// The wasm tests run in the site lane right after its build.
const WASM_STEPS = [
  { name: 'wasm tests in Node (wasm-bindgen-test)', run: (exec) => exec('cargo', WASM_TEST, { env: wasmEnv }) },
  {
    name: 'wasm tests in headless Chromium (wasm-bindgen-test)',
    run: (exec) =>
      exec('cargo', WASM_TEST, {
        env: {
          ...wasmEnv,
          WASM_BINDGEN_USE_BROWSER: '1',
          WASM_BINDGEN_TEST_WEBDRIVER_JSON: webdriverJson(),
          CHROMEDRIVER: browserPaths().chromedriver,
        },
      }),
  },
];

// The Node tests that build the native command line (`nativeBinary`) come
// last: by then the rust lane has built it.
const NEEDS_NATIVE = ['npm.test.mjs', 'ggp.test.mjs', 'http-fuzz.test.mjs'];
const FIRST = ['workflows.test.mjs', 'page.test.mjs'];

function siteSteps() {
  const files = readdirSync(join(ROOT, 'tests'))
    .filter((f) => f.endsWith('.test.mjs'))
    .sort();
  // Every test file runs, so a new one cannot be forgotten.
  const rest = files.filter((f) => !FIRST.includes(f) && !NEEDS_NATIVE.includes(f));
  const order = [...FIRST, ...rest, ...NEEDS_NATIVE].filter((f) => files.includes(f));
  return [
    {
      name: 'build (wasm in the ci profile + site)',
      build: true,
      run: (exec) => exec(process.execPath, [join('scripts', 'build.mjs')], { env: { ...process.env, GDLKIT_WASM_PROFILE: 'ci' } }),
    },
    ...WASM_STEPS,
    { name: 'JavaScript lint (Biome)', run: (exec) => exec(join(ROOT, 'node_modules', '.bin', 'biome'), ['lint', '.']) },
    ...order.map((f) => ({ name: `tests/${f}`, needsBuild: true, run: nodeTest(f) })),
  ];
}

const results = [];
const started = Date.now();
const clock = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s`;

/** Runs a lane's steps in order; a failed build skips the steps that need it. */
async function lane(label, steps) {
  let built = true;
  for (const [i, step] of steps.entries()) {
    const log = join(LOGS, `${label}-${String(i + 1).padStart(2, '0')}.log`);
    if (step.needsBuild && !built) {
      results.push({ lane: label, name: step.name, status: 'skipped', seconds: 0 });
      continue;
    }
    console.log(`${clock()}  [${label}] start: ${step.name}`);
    const t = Date.now();
    let status;
    try {
      status = (await step.run(logged(log))) === 0 ? 'passed' : 'failed';
    } catch (e) {
      writeFileSync(log, `${e.stack ?? e}\n`, { flag: 'a' });
      status = 'failed';
    }
    if (step.build && status !== 'passed') built = false;
    const seconds = (Date.now() - t) / 1000;
    results.push({ lane: label, name: step.name, status, seconds });
    heading(`[${label}] ${step.name}: ${status} in ${seconds.toFixed(0)} s`);
    console.log(existsSync(log) ? readFileSync(log, 'utf8') : '');
    console.log(`${clock()}  [${label}] ${status}: ${step.name}`);
  }
}

try {
  await setup({ browser: true });
} catch (e) {
  console.error(`\nsetup failed: ${e.message}`);
  process.exit(1);
}
rmSync(LOGS, { recursive: true, force: true });
mkdirSync(LOGS, { recursive: true });

// Tests that need the ../shared corpus list themselves here when it is
// missing (crate/gdlkit/tests/integration/common/corpus.rs, in Cargo's
// target directory, which CARGO_TARGET_DIR may move); printed with the summary.
const SKIPPED_CORPUS = join(cargoTargetDir(), 'tmp', 'skipped-corpus-tests.txt');
rmSync(SKIPPED_CORPUS, { force: true });

await Promise.all([lane('rust', RUST), lane('site', siteSteps())]);

const count = (s) => results.filter((r) => r.status === s).length;
heading('summary');
for (const r of results) {
  console.log(`   ${r.status.padEnd(7)} ${r.seconds.toFixed(0).padStart(5)} s  [${r.lane}] ${r.name}`);
}
console.log(`   total ${((Date.now() - started) / 1000).toFixed(0)} s (the lanes side by side)`);
if (existsSync(SKIPPED_CORPUS)) {
  const names = [...new Set(readFileSync(SKIPPED_CORPUS, 'utf8').split('\n').filter(Boolean))];
  console.log(`\nno ../shared corpus: ${names.length} corpus tests skipped:\n   ${names.join('\n   ')}`);
}
const [passed, failed, skipped] = [count('passed'), count('failed'), count('skipped')];
console.log(`\nsteps: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed + skipped > 0 ? 1 : 0);
