//! `gdlkit fetch-game [KEY] [--repo URL] [--out FILE] [--format text|json]
//! [--seconds S]`: a game of a GGP repository (`crate::repository`).
//! Without KEY it lists the repository's keys; with KEY it prints the rules
//! (or writes them to FILE). Native only: in JavaScript, `fetch` does the
//! transport (npm `repositoryGames`, `repositoryGame`).

use super::{Args, Fail, Host, Output, EXIT_OK};
use crate::repository::{self, DEFAULT_REPOSITORY};

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["repo", "out", "format", "seconds"])?;
    let repo = args.get("repo").unwrap_or(DEFAULT_REPOSITORY);
    let timeout_ms = (args.seconds(10.0)? * 1000.0) as u64;
    let json = args.json()?;
    let fetch = |url: &str| fetch(url, timeout_ms).map_err(Fail::usage);
    let Some(key) = args.positional.first() else {
        let keys =
            repository::parse_index(&fetch(&repository::index_url(repo).map_err(Fail::usage)?)?)
                .map_err(Fail::usage)?;
        out.stdout = if json {
            format!("{}\n", serde_json::to_string(&keys).expect("serialisable"))
        } else {
            keys.iter().map(|k| format!("{k}\n")).collect()
        };
        return Ok(EXIT_OK);
    };
    let meta_url = repository::metadata_url(repo, key).map_err(Fail::usage)?;
    let meta = repository::parse_metadata(repo, key, &fetch(&meta_url)?).map_err(Fail::usage)?;
    let rules = fetch(&meta.rules_url)?;
    if json {
        let mut v = serde_json::to_value(&meta).expect("serialisable");
        v["rules"] = serde_json::Value::String(rules);
        out.stdout = format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
    } else if let Some(path) = args.get("out") {
        host.write_file(path, &rules)
            .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
        out.stderr = format!(
            "wrote {path} ({}, version {})\n",
            meta.game_name.as_deref().unwrap_or(key),
            meta.version
        );
    } else {
        out.stdout = rules;
    }
    Ok(EXIT_OK)
}

#[cfg(not(target_arch = "wasm32"))]
fn fetch(url: &str, timeout_ms: u64) -> Result<String, String> {
    repository::get(url, timeout_ms)
}

#[cfg(target_arch = "wasm32")]
fn fetch(url: &str, _timeout_ms: u64) -> Result<String, String> {
    Err(format!(
        "{url}: fetch-game needs the native binary; in JavaScript use repositoryGames() and repositoryGame()"
    ))
}
