// The gdlkit JavaScript API, GGP repositories: games of a repository in
// ggp-base's layout (the Stanford base repository by default). JavaScript
// only fetches; the URLs and the answers are Rust's (crate/ggp/src/repository.rs).

import { needReady, wasm } from './wasm.js';

/** The Stanford base repository. */
export const DEFAULT_REPOSITORY = 'http://games.ggp.org/base/';

async function get(url, fetchImpl) {
  let r;
  try {
    r = await fetchImpl(url);
  } catch (e) {
    throw new Error(`${url}: cannot connect (${e?.message ?? e})`);
  }
  if (!r.ok) throw new Error(`${url}: the server answered ${r.status}`);
  return r.text();
}

/**
 * The keys of a repository's games, sorted. `options`: `{repo, fetch}`
 * (the repository URL, default the Stanford base repository; a fetch
 * function, default globalThis.fetch).
 */
export async function repositoryGames(options = {}) {
  needReady();
  const repo = options.repo ?? DEFAULT_REPOSITORY;
  return wasm.repositoryParseIndex(await get(wasm.repositoryIndexUrl(repo), options.fetch ?? globalThis.fetch));
}

/**
 * One game of a repository: its metadata (`{key, version, gameName,
 * description, rulesheet, rulesUrl}`) and `rules`, the KIF text. Options
 * as for `repositoryGames`.
 */
export async function repositoryGame(key, options = {}) {
  needReady();
  const repo = options.repo ?? DEFAULT_REPOSITORY;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const meta = wasm.repositoryParseMetadata(repo, key, await get(wasm.repositoryMetadataUrl(repo, key), fetchImpl));
  return { ...meta, rules: await get(meta.rulesUrl, fetchImpl) };
}
