#!/usr/bin/env node
// `npx gdlkit …`: the gdlkit command line in Node. It runs the very same
// code as the native binary (crate/cli/src/cli, through runCli in wasm), so the
// commands, options, output and exit codes are the same (`gdlkit --help`).
// Files are read from disk on demand; files a command writes (`fmt
// --write`) are written once the command has finished.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCli } from './node.js';

// What Rust's io::Error prints for the usual errors (strerror and the code).
const OS_ERRORS = {
  ENOENT: ['No such file or directory', 2],
  EACCES: ['Permission denied', 13],
  EISDIR: ['Is a directory', 21],
  ENOTDIR: ['Not a directory', 20],
  EPERM: ['Operation not permitted', 1],
  ENAMETOOLONG: ['File name too long', 36],
  ELOOP: ['Too many levels of symbolic links', 40],
  EMFILE: ['Too many open files', 24],
};

/** An error message as the native binary words it. */
function osMessage(e) {
  const known = OS_ERRORS[e?.code];
  return known ? `${known[0]} (os error ${known[1]})` : String(e?.message ?? e);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads a file as the native host does: UTF-8 or an error, BOM kept. */
function readFile(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(osMessage(e));
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new Error('the file is not valid UTF-8');
  }
}

const args = process.argv.slice(2);
// `gdlkit export` reads the standalone template of the package (pkg/, made by the build).
if (args[0] === 'export' && !args.some((a) => a === '--template' || a.startsWith('--template='))) {
  args.push('--template', fileURLToPath(new URL('../pkg/gdlkit-standalone.html', import.meta.url)));
}

// The GGP commands need sockets: the protocol runs in wasm, the sockets here
// (their --help is the Rust command line's, as for every command).
const help = args.some((a) => a === '--help' || a === '-h');
if ((args[0] === 'serve' || args[0] === 'host') && !help) {
  const ggp = await import('./ggp-node.js');
  try {
    if (args[0] === 'serve') ggp.serve(args.slice(1));
    else process.exitCode = await ggp.host(args.slice(1), readFile);
  } catch (e) {
    // A usage error is the command line's own message (as the native binary prints it).
    process.stderr.write(e.name === 'GdlUsageError' ? e.message : `gdlkit ${args[0]}: ${e.message ?? e}\n`);
    process.exitCode = e.name === 'GdlUsageError' ? 2 : 1;
  }
} else {
  runNormal();
}

function runNormal() {
  const out = runCli(args, readFile, { isTerminal: Boolean(process.stdout.isTTY) });
  let code = out.code;
  for (const [path, content] of Object.entries(out.written)) {
    try {
      writeFileSync(path, content);
    } catch (e) {
      out.stderr += `gdlkit ${args[0]}: cannot write ${path}: ${osMessage(e)}\n`;
      code = 2;
    }
  }
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = code;
}
