// `npm test`: installs what is missing (Chromium too), builds, then runs
// every test and prints a summary. Exits non-zero when anything fails.
//
//   1. native Rust tests: cargo test --profile ci --workspace --features gdlkit-wasm/typescript
//      (unit tests, the conformance traces, the CLI)
//   2. wasm tests in Node:     cargo test --profile ci --target wasm32-unknown-unknown -p gdlkit-wasm-tests
//   3. wasm tests in Chromium: the same with WASM_BINDGEN_USE_BROWSER=1 (chromedriver)
//   4. workflow files: node --test tests/workflows.test.mjs
//   5. the page: node --test tests/page.test.mjs (Playwright + Chromium)
//   6. the npm package: node --test tests/npm.test.mjs (npm pack, installed
//      into a scratch project: Node, worker, CLI, tsc, Vite + Chromium, docs)
//
// Add a step to STEPS below; `needs` names what it requires ('build').

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { ARTIFACTS, cargoTargetDir, heading, ROOT, run } from './lib.mjs';
import { browserPaths, setup } from './setup.mjs';

// The `ci` profile (optimised, no fat LTO, parallel codegen): `--release`
// would link each of the wasm test binaries with fat LTO, minutes apiece.
const WASM_TEST = ['test', '--profile', 'ci', '--target', 'wasm32-unknown-unknown', '-p', 'gdlkit-wasm-tests'];
// The native tests build with the `typescript` feature too, so the
// generated-TypeScript step below reuses their build instead of compiling
// the crate a second time with other features.
const NATIVE_TEST = ['test', '--profile', 'ci', '--workspace', '--features', 'gdlkit-wasm/typescript'];

/** webdriver.json for the browser run: wasm-tests/webdriver.json with the browser found by setup. */
function webdriverJson() {
  const caps = JSON.parse(readFileSync(join(ROOT, 'wasm-tests', 'webdriver.json'), 'utf8'));
  caps['goog:chromeOptions'].binary = browserPaths().chromium;
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, 'webdriver.json');
  writeFileSync(path, `${JSON.stringify(caps, null, 2)}\n`);
  return path;
}

function nodeTest(file) {
  return run(process.execPath, ['--test', '--test-reporter=spec', join('tests', file)]);
}

const STEPS = [
  {
    name: 'native Rust tests (cargo test --profile ci --workspace)',
    run: () => run('cargo', NATIVE_TEST),
  },
  {
    name: 'wasm tests in Node (wasm-bindgen-test)',
    run: () => run('cargo', WASM_TEST, { env: { ...process.env, WASM_BINDGEN_TEST_TIMEOUT: '600' } }),
  },
  {
    name: 'wasm tests in headless Chromium (wasm-bindgen-test)',
    run: () =>
      run('cargo', WASM_TEST, {
        env: {
          ...process.env,
          WASM_BINDGEN_USE_BROWSER: '1',
          WASM_BINDGEN_TEST_TIMEOUT: '600',
          WASM_BINDGEN_TEST_WEBDRIVER_JSON: webdriverJson(),
          CHROMEDRIVER: browserPaths().chromedriver,
        },
      }),
  },
  {
    name: 'workflow files (YAML, npm scripts)',
    run: () => nodeTest('workflows.test.mjs'),
  },
  {
    name: 'page test (Playwright, headless Chromium)',
    needs: 'build',
    run: () => nodeTest('page.test.mjs'),
  },
  {
    name: 'npm package (pack, install; Node, worker, CLI, tsc, Vite + Chromium, doc examples)',
    needs: 'build',
    run: () => nodeTest('npm.test.mjs'),
  },
];

// Style gates: the tree is rustfmt-formatted, clippy-clean and
// Biome-clean (biome.json); these run first, as they are quick.
STEPS.unshift(
  { name: 'cargo fmt --check', run: () => run('cargo', ['fmt', '--all', '--check']) },
  {
    name: 'cargo clippy --all-targets -- -D warnings',
    run: () => run('cargo', ['clippy', '--workspace', '--all-targets', '--profile', 'ci', '--', '-D', 'warnings']),
  },
  {
    name: 'JavaScript lint (Biome)',
    run: () => run(join(ROOT, 'node_modules', '.bin', 'biome'), ['lint', '.']),
  },
);

// API docs gate: the library crates' documentation builds without
// warnings (no broken links, none to private items); the facade's example
// runs as a doctest with the native tests. After fmt and clippy, with the
// quick gates.
const DOCUMENTED = ['gdlkit', 'gdlkit-lang', 'gdlkit-engine', 'gdlkit-play', 'gdlkit-ggp', 'gdlkit-cli'];
STEPS.splice(2, 0, {
  name: 'cargo doc --no-deps --lib, the library crates (RUSTDOCFLAGS=-D warnings)',
  run: () =>
    run('cargo', ['doc', '--no-deps', '--lib', ...DOCUMENTED.flatMap((p) => ['-p', p])], {
      env: { ...process.env, RUSTDOCFLAGS: '-D warnings' },
    }),
});

// Generated TypeScript: js/types.d.ts is what the Rust types
// generate (`node scripts/types.mjs` rewrites it), and a typed usage file
// compiles against it (unknown and snake_case keys are errors there).
STEPS.splice(3, 0, {
  name: 'generated TypeScript is current; tsc over tests/types/usage.ts',
  run: () =>
    run('cargo', [...NATIVE_TEST, '--test', 'typescript']) ||
    run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join('tests', 'types')]),
});

// Node test files not listed above still run, so a new one cannot be forgotten.
const listed = new Set(['workflows.test.mjs', 'page.test.mjs', 'npm.test.mjs']);
for (const file of readdirSync(join(ROOT, 'tests')).filter((f) => f.endsWith('.test.mjs')).sort()) {
  if (!listed.has(file)) {
    STEPS.push({ name: `tests/${file}`, needs: 'build', run: () => nodeTest(file) });
  }
}

const results = [];
const started = Date.now();

function record(name, status, seconds) {
  results.push({ name, status, seconds });
}

try {
  setup({ browser: true });
} catch (e) {
  console.error(`\nsetup failed: ${e.message}`);
  process.exit(1);
}

// Tests that need the ../shared corpus list themselves here when it is
// missing (crate/gdlkit/tests/common/corpus.rs, in Cargo's target directory,
// which CARGO_TARGET_DIR may move); printed with the summary.
const SKIPPED_CORPUS = join(cargoTargetDir(), 'tmp', 'skipped-corpus-tests.txt');
rmSync(SKIPPED_CORPUS, { force: true });

let built = true;
{
  const t = Date.now();
  try {
    await build();
    record('build (wasm + site)', 'passed', (Date.now() - t) / 1000);
  } catch (e) {
    console.error(`build failed: ${e.message}`);
    record('build (wasm + site)', 'failed', (Date.now() - t) / 1000);
    built = false;
  }
}

for (const step of STEPS) {
  if (step.needs === 'build' && !built) {
    record(step.name, 'skipped', 0);
    continue;
  }
  heading(step.name);
  const t = Date.now();
  let status;
  try {
    status = step.run() === 0 ? 'passed' : 'failed';
  } catch (e) {
    console.error(e);
    status = 'failed';
  }
  record(step.name, status, (Date.now() - t) / 1000);
}

const count = (s) => results.filter((r) => r.status === s).length;
heading('summary');
for (const r of results) {
  console.log(`   ${r.status.padEnd(7)} ${r.seconds.toFixed(0).padStart(5)} s  ${r.name}`);
}
console.log(`   total ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (existsSync(SKIPPED_CORPUS)) {
  const names = [...new Set(readFileSync(SKIPPED_CORPUS, 'utf8').split('\n').filter(Boolean))];
  console.log(`\nno ../shared corpus: ${names.length} corpus tests skipped:\n   ${names.join('\n   ')}`);
}
const [passed, failed, skipped] = [count('passed'), count('failed'), count('skipped')];
console.log(`\nsteps: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed + skipped > 0 ? 1 : 0);
