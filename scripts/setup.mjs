// Installs what the build and the tests need, when it is missing (the
// Debian packages in the background, beside the rest):
//   - the Rust target wasm32-unknown-unknown and the standard library's
//     source (rustup's rust-src: the threaded wasm rebuilds std),
//   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock,
//   - the npm packages (npm install),
//   - wasm-opt (Debian's package binaryen) for the release wasm; without
//     it (no apt-get) the build goes on with unoptimised wasm,
//   - for the tests (`--browser`): Chromium and ChromeDriver (Debian's
//     packages `chromium` and `chromium-driver`), unless GDLKIT_CHROMIUM and
//     GDLKIT_CHROMEDRIVER name existing binaries.
//
// Usage: node scripts/setup.mjs [--browser]

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { capture, hasFlag, heading, info, isMain, lockedVersion, ROOT, runOrThrow } from './lib.mjs';

const WASM_TARGET = 'wasm32-unknown-unknown';

function ensureWasmTarget() {
  const installed = capture('rustup', ['target', 'list', '--installed']);
  if (installed === null) {
    // No rustup (e.g. a distribution's Rust): the build will say if the target is missing.
    info('rustup not found; assuming the wasm32-unknown-unknown target is available');
    return;
  }
  if (installed.split('\n').map((l) => l.trim()).includes(WASM_TARGET)) {
    info(`rust target ${WASM_TARGET}: installed`);
  } else {
    runOrThrow('rustup', ['target', 'add', WASM_TARGET]);
  }
  const components = capture('rustup', ['component', 'list', '--installed']) ?? '';
  if (components.split('\n').map((l) => l.trim()).includes('rust-src')) {
    info('rust component rust-src: installed');
  } else {
    runOrThrow('rustup', ['component', 'add', 'rust-src']);
  }
}

/** The version a wasm-bindgen tool prints ("wasm-bindgen 0.2.130" → "0.2.130"), or null. */
function toolVersion(command) {
  const out = capture(command, ['--version']);
  return out?.trim().split(/\s+/)[1] ?? null;
}

function ensureWasmBindgen() {
  const wanted = lockedVersion('wasm-bindgen');
  const have = toolVersion('wasm-bindgen');
  const runner = toolVersion('wasm-bindgen-test-runner');
  if (have === wanted && runner === wanted) {
    info(`wasm-bindgen ${wanted}: installed`);
    return;
  }
  info(`wasm-bindgen ${have ?? 'missing'} (test runner ${runner ?? 'missing'}), Cargo.lock wants ${wanted}: installing`);
  // Not --locked: the CLI's own lock file does not build with this toolchain.
  runOrThrow('cargo', ['install', 'wasm-bindgen-cli', '--version', wanted, '--force']);
}

function ensureNpmPackages() {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const wanted = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const missing = wanted.filter((name) => !existsSync(join(ROOT, 'node_modules', name, 'package.json')));
  if (missing.length === 0) {
    info('npm packages: installed');
    return;
  }
  info(`npm packages missing (${missing.join(', ')}): installing`);
  runOrThrow('npm', ['install', '--no-audit', '--no-fund'], { shell: process.platform === 'win32' });
}

/**
 * `apt-get update` and `apt-get install` of `packages` (as root, this
 * project's machines, as it is; elsewhere through sudo), started in the
 * background: it mostly waits on the network and the disk while
 * `cargo install` compiles. Resolves to null, or to why it failed.
 */
function aptInstallInBackground(packages) {
  const script = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  const asRoot = process.getuid?.() === 0;
  const [command, args] = asRoot ? ['sh', ['-c', script]] : ['sudo', ['-E', 'sh', '-c', script]];
  console.log(`$ ${script} (in the background)`);
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return new Promise((resolve) => {
    child.on('error', (e) => resolve(e.message));
    child.on('close', (code) => resolve(code === 0 ? null : `exit code ${code}`));
  });
}

/** Paths of the browser and its driver for the tests. */
export function browserPaths() {
  return {
    chromium: process.env.GDLKIT_CHROMIUM || '/usr/bin/chromium',
    chromedriver: process.env.GDLKIT_CHROMEDRIVER || '/usr/bin/chromedriver',
  };
}

/** Whether the browser is missing (throws when GDLKIT_CHROMIUM / GDLKIT_CHROMEDRIVER name missing files). */
function browserMissing() {
  const { chromium, chromedriver } = browserPaths();
  if (existsSync(chromium) && existsSync(chromedriver)) {
    info(`browser: ${chromium}, driver: ${chromedriver}`);
    return false;
  }
  if (process.env.GDLKIT_CHROMIUM || process.env.GDLKIT_CHROMEDRIVER) {
    throw new Error(`GDLKIT_CHROMIUM / GDLKIT_CHROMEDRIVER name missing files: ${chromium}, ${chromedriver}`);
  }
  info('Chromium or ChromeDriver missing: installing Debian packages chromium and chromium-driver');
  return true;
}

/**
 * The Debian packages: wasm-opt (binaryen; optional) and, for the tests,
 * the browser, in one background apt-get. Resolves when installed; rejects
 * when the browser could not be.
 */
async function ensureDebianPackages(browser) {
  const wasmOpt = () => capture('wasm-opt', ['--version'])?.trim();
  const packages = [];
  if (wasmOpt()) {
    info(`wasm-opt: ${wasmOpt()}`);
  } else {
    info('wasm-opt missing: installing the Debian package binaryen');
    packages.push('binaryen');
  }
  const needBrowser = browser && browserMissing();
  if (needBrowser) packages.push('chromium', 'chromium-driver');
  if (packages.length === 0) return;
  const failed = await aptInstallInBackground(packages);
  if (failed && !wasmOpt()) info(`could not install binaryen (${failed}): the wasm will not be optimised by wasm-opt`);
  const { chromium, chromedriver } = browserPaths();
  if (needBrowser && (!existsSync(chromium) || !existsSync(chromedriver))) {
    throw new Error(`after installing (${failed ?? 'no error'}), ${chromium} or ${chromedriver} is still missing`);
  }
}

/** Installs what is missing; `browser` adds Chromium for the tests. */
export async function setup({ browser = false } = {}) {
  heading('setup: install what is missing');
  const debian = ensureDebianPackages(browser);
  try {
    ensureWasmTarget();
    ensureWasmBindgen();
    ensureNpmPackages();
  } finally {
    // Waited for also when a step failed: no apt-get is left running.
    await debian.catch(() => {});
  }
  await debian;
}

if (isMain(import.meta.url)) {
  try {
    await setup({ browser: hasFlag('--browser') });
  } catch (e) {
    console.error(`setup failed: ${e.message}`);
    process.exit(1);
  }
}
