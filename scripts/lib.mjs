// Helpers shared by the scripts in this folder: paths, running commands,
// logging. Node built-ins only (these scripts run before `npm install`).

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the wasm build goes: an ES module, the .wasm and TypeScript declarations. */
export const PKG = join(ROOT, 'pkg');
/** The static site; the build copies `pkg/` and `games/` into it. */
export const SITE = join(ROOT, 'site');
/** Screenshots and other files the tests leave behind (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts');

/**
 * Chromium flags for headless runs here and in CI (as root, on a machine
 * whose network is closed: no background connections, no sandbox).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Binaries installed by `cargo install` and `rustup` live in $CARGO_HOME/bin.
const cargoBin = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin');
if (!(process.env.PATH ?? '').split(delimiter).includes(cargoBin)) {
  process.env.PATH = `${cargoBin}${delimiter}${process.env.PATH ?? ''}`;
}

/** Prints a step heading. */
export function heading(text) {
  console.log(`\n== ${text}`);
}

/** Prints an informational line. */
export function info(text) {
  console.log(`   ${text}`);
}

/**
 * Runs a command with inherited stdio (output streams to the terminal) and
 * returns its exit status (1 when it could not start).
 */
export function run(command, args, options = {}) {
  console.log(`$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) {
    console.error(`cannot run ${command}: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

/** Runs a command and throws when it fails. */
export function runOrThrow(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    throw new Error(`\`${[command, ...args].join(' ')}\` failed (exit code ${status})`);
  }
}

/** Runs a command quietly and returns its stdout, or null when it fails. */
export function capture(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', ...options });
  return result.status === 0 ? result.stdout : null;
}

/** The version of a package in Cargo.lock (e.g. "wasm-bindgen"). */
export function lockedVersion(name) {
  const lock = readFileSync(join(ROOT, 'Cargo.lock'), 'utf8');
  for (const block of lock.split('[[package]]')) {
    const nameMatch = block.match(/^name = "([^"]+)"$/m);
    const versionMatch = block.match(/^version = "([^"]+)"$/m);
    if (nameMatch?.[1] === name && versionMatch) {
      return versionMatch[1];
    }
  }
  throw new Error(`${name} is not in Cargo.lock`);
}

/** Cargo's target directory (honours CARGO_TARGET_DIR and cargo config). */
export function cargoTargetDir() {
  const out = capture('cargo', ['metadata', '--format-version', '1', '--no-deps']);
  if (out === null) {
    throw new Error('`cargo metadata` failed: is Rust installed?');
  }
  return JSON.parse(out).target_directory;
}

/** Whether the command line asked for `--flag`. */
export function hasFlag(flag) {
  return process.argv.slice(2).includes(flag);
}

/** True when this module is the script Node was started with. */
export function isMain(importMetaUrl) {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}

/**
 * `cargo test` of the native tests, as `npm test` runs them: the `ci`
 * profile, the whole workspace, and the `typescript` feature (so the
 * generated-TypeScript check reuses their build).
 */
export const NATIVE_TEST = ['test', '--profile', 'ci', '--workspace', '--features', 'gdlkit-wasm/typescript'];

/**
 * The native command line: `GDLKIT_BIN` when set, else the binary the
 * native tests build (`NATIVE_TEST --no-run`: nothing to do after them; a
 * build with other packages or features would compile the crates again).
 */
export function nativeBinary() {
  if (process.env.GDLKIT_BIN) return process.env.GDLKIT_BIN;
  const built = spawnSync('cargo', [...NATIVE_TEST, '--no-run'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`cargo build failed:\n${built.stderr}`);
  return join(cargoTargetDir(), 'ci', 'gdlkit');
}
