//! `gdlkit fetch-game [KEY] [--repo URL] [--out FILE] [--format text|json]
//! [--seconds S]`: a game of a GGP repository (`crate::repository`).
//! Without KEY it lists the repository's keys; with KEY it prints the rules
//! (or writes them to FILE). Native only: in JavaScript, `fetch` does the
//! transport (npm `repositoryGames`, `repositoryGame`).

use super::options::FormatArg;
use super::{Fail, Host, Output, EXIT_OK};
use crate::repository::{self, DEFAULT_REPOSITORY};

#[derive(clap::Args, Debug)]
pub struct FetchArgs {
    /// The game's key in the repository (without it: the repository's keys)
    #[arg(value_name = "KEY")]
    key: Option<String>,
    /// The repository (ggp-base layout)
    #[arg(long, value_name = "URL", default_value = DEFAULT_REPOSITORY)]
    repo: String,
    /// Write the rules to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    #[command(flatten)]
    format: FormatArg,
    /// Time limit of each request in seconds
    #[arg(long, value_name = "S", default_value_t = 10.0,
          value_parser = crate::job::parse_seconds, allow_negative_numbers = true)]
    seconds: f64,
}

pub fn run(args: FetchArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let repo = args.repo.as_str();
    let timeout_ms = (args.seconds * 1000.0) as u64;
    let json = args.format.json();
    let fetch = |url: &str| fetch(url, timeout_ms).map_err(Fail::usage);
    let Some(key) = args.key.as_deref() else {
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
    } else if let Some(path) = &args.out {
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
    repository::get(url, timeout_ms).map_err(|e| e.to_string())
}

#[cfg(target_arch = "wasm32")]
fn fetch(url: &str, _timeout_ms: u64) -> Result<String, String> {
    Err(format!(
        "{url}: fetch-game needs the native binary; in JavaScript use repositoryGames() and repositoryGame()"
    ))
}
