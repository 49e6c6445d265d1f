// Installs what the build and the tests need, when it is missing:
//   - the Rust target wasm32-unknown-unknown (rustup),
//   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock,
//   - the npm packages (npm install),
//   - wasm-opt (Debian's package binaryen) for the release wasm; without
//     it (no apt-get) the build goes on with unoptimised wasm,
//   - for the tests (`--browser`): Chromium and ChromeDriver (Debian's
//     packages `chromium` and `chromium-driver`), unless GDLKIT_CHROMIUM and
//     GDLKIT_CHROMEDRIVER name existing binaries.
//
// Usage: node scripts/setup.mjs [--browser]

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
    return;
  }
  runOrThrow('rustup', ['target', 'add', WASM_TARGET]);
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

/** apt-get install: as root (this project's machines) as it is, elsewhere through sudo. */
function aptInstall(...packages) {
  const asRoot = process.getuid?.() === 0;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const aptGet = (...args) =>
    asRoot ? runOrThrow('apt-get', args, { env }) : runOrThrow('sudo', ['-E', 'apt-get', ...args], { env });
  aptGet('update');
  aptGet('install', '-y', ...packages);
}

function ensureWasmOpt() {
  const have = () => capture('wasm-opt', ['--version'])?.trim();
  if (have()) {
    info(`wasm-opt: ${have()}`);
    return;
  }
  info('wasm-opt missing: installing the Debian package binaryen');
  try {
    aptInstall('binaryen');
  } catch (e) {
    info(`could not install binaryen (${e.message}): the wasm will not be optimised by wasm-opt`);
  }
}

/** Paths of the browser and its driver for the tests. */
export function browserPaths() {
  return {
    chromium: process.env.GDLKIT_CHROMIUM || '/usr/bin/chromium',
    chromedriver: process.env.GDLKIT_CHROMEDRIVER || '/usr/bin/chromedriver',
  };
}

function ensureBrowser() {
  const { chromium, chromedriver } = browserPaths();
  if (existsSync(chromium) && existsSync(chromedriver)) {
    info(`browser: ${chromium}, driver: ${chromedriver}`);
    return;
  }
  if (process.env.GDLKIT_CHROMIUM || process.env.GDLKIT_CHROMEDRIVER) {
    throw new Error(`GDLKIT_CHROMIUM / GDLKIT_CHROMEDRIVER name missing files: ${chromium}, ${chromedriver}`);
  }
  info('Chromium or ChromeDriver missing: installing Debian packages chromium and chromium-driver');
  aptInstall('chromium', 'chromium-driver');
  if (!existsSync(chromium) || !existsSync(chromedriver)) {
    throw new Error(`after installing, ${chromium} or ${chromedriver} is still missing`);
  }
}

/** Installs what is missing; `browser` adds Chromium for the tests. */
export function setup({ browser = false } = {}) {
  heading('setup: install what is missing');
  ensureWasmTarget();
  ensureWasmBindgen();
  ensureNpmPackages();
  ensureWasmOpt();
  if (browser) {
    ensureBrowser();
  }
}

if (isMain(import.meta.url)) {
  try {
    setup({ browser: hasFlag('--browser') });
  } catch (e) {
    console.error(`setup failed: ${e.message}`);
    process.exit(1);
  }
}
