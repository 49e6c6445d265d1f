// The GitHub workflow files parse as YAML, have the expected shape, and every
// `npm run X` (and `npm test` / `npm start`) they use is a script in
// package.json.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../scripts/lib.mjs';

const WORKFLOWS = join(ROOT, '.github', 'workflows');
const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts ?? {};
const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();

/** Every `run:` command of every step of every job. */
function runCommands(workflow) {
  return Object.values(workflow.jobs ?? {}).flatMap((job) =>
    (job.steps ?? []).filter((s) => typeof s.run === 'string').map((s) => s.run),
  );
}

/** npm scripts a shell command invokes: `npm run X`, `npm run-script X`, `npm test`, `npm start`. */
function npmScripts(command) {
  const used = [];
  for (const m of command.matchAll(/\bnpm\s+(?:run|run-script)\s+(?:--?[\w-]+(?:=\S+)?\s+)*([\w:.-]+)/g)) {
    used.push(m[1]);
  }
  for (const m of command.matchAll(/\bnpm\s+(test|start|t)\b/g)) {
    used.push(m[1] === 't' ? 'test' : m[1]);
  }
  return used;
}

test('the three workflows exist', () => {
  for (const name of ['ci.yml', 'pages.yml', 'publish.yml']) {
    assert.ok(files.includes(name), `${name} is missing`);
  }
});

for (const file of files) {
  test(`${file} parses and uses only existing npm scripts`, () => {
    const text = readFileSync(join(WORKFLOWS, file), 'utf8');
    const workflow = parse(text, { prettyErrors: true, strict: true, uniqueKeys: true });
    assert.equal(typeof workflow, 'object');
    assert.ok(workflow.on ?? workflow[true], `${file}: no trigger (on:)`);
    assert.ok(Object.keys(workflow.jobs ?? {}).length > 0, `${file}: no jobs`);
    for (const [id, job] of Object.entries(workflow.jobs)) {
      assert.ok(job['runs-on'] || job.uses, `${file}: job ${id} has no runs-on`);
      for (const step of job.steps ?? []) {
        assert.ok(step.uses || step.run, `${file}: job ${id} has a step with neither uses nor run`);
      }
    }
    const used = runCommands(workflow).flatMap(npmScripts);
    for (const name of used) {
      assert.ok(name in scripts, `${file} runs \`npm run ${name}\`, which package.json does not define`);
    }
  });
}

test('the script check itself finds npm scripts', () => {
  assert.deepEqual(npmScripts('npm ci && npm run build\nnpm test'), ['build', 'test']);
  assert.deepEqual(npmScripts('npm run --silent bench:wasm -- x'), ['bench:wasm']);
});

test('publish.yml publishes with provenance from a version tag, after the package tests', () => {
  const workflow = parse(readFileSync(join(WORKFLOWS, 'publish.yml'), 'utf8'));
  const permissions = { ...workflow.permissions, ...workflow.jobs.publish.permissions };
  assert.equal(permissions['id-token'], 'write', 'provenance (and trusted publishing) need id-token: write');
  assert.deepEqual((workflow.on ?? workflow[true]).push.tags, ['v*']);
  const commands = runCommands(workflow);
  const publish = commands.findIndex((c) => /\bnpm publish\b/.test(c));
  assert.ok(publish >= 0, 'no npm publish');
  assert.match(commands[publish], /--provenance/);
  for (const before of ['npm run build', 'npm run test:package']) {
    const i = commands.findIndex((c) => c.includes(before));
    assert.ok(i >= 0 && i < publish, `\`${before}\` must run before npm publish`);
  }
});

test('pages.yml deploys only a commit whose CI passed', () => {
  const workflow = parse(readFileSync(join(WORKFLOWS, 'pages.yml'), 'utf8'));
  const on = workflow.on ?? workflow[true];
  assert.equal(on.push, undefined, 'a push must not deploy before CI has passed');
  assert.deepEqual(on.workflow_run.workflows, ['CI']);
  assert.match(workflow.jobs.build.if, /workflow_run\.conclusion == 'success'/);
  const checkout = workflow.jobs.build.steps.find((s) => String(s.uses).startsWith('actions/checkout'));
  assert.match(checkout.with.ref, /workflow_run\.head_sha/, 'deploy the commit CI tested');
});
