//! GGP game repositories in the layout of ggp-base's
//! `RemoteGameRepository` (the Stanford base repository,
//! `http://games.ggp.org/base/`, and its mirrors):
//!
//! - `GET REPO/games/` is a JSON array of game keys;
//! - `GET REPO/games/KEY/` is the game's metadata, a JSON object with
//!   `version` (a number), `rulesheet` (a file name), and optionally
//!   `gameName` and `description`;
//! - the rules are at `REPO/games/KEY/vVERSION/RULESHEET`.
//!
//! This module builds the URLs and reads the answers (one place for every
//! platform); the native CLI fetches with [`get`], JavaScript with `fetch`.

pub use crate::error::{FetchFailure, MetadataProblem, RepositoryError};
use serde::Serialize;
use serde_json::Value;

/// The Stanford base repository.
pub const DEFAULT_REPOSITORY: &str = "http://games.ggp.org/base/";

/// A game's metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "RepositoryGame", rename_all = "camelCase")
)]
pub struct Metadata {
    pub key: String,
    pub version: u64,
    pub game_name: Option<String>,
    pub description: Option<String>,
    pub rulesheet: String,
    /// Where the rules are.
    pub rules_url: String,
}

/// The repository URL with a trailing `/` (an error unless http or https).
pub fn normalize(repo: &str) -> Result<String, RepositoryError> {
    let repo = repo.trim();
    if !(repo.starts_with("http://") || repo.starts_with("https://")) {
        return Err(RepositoryError::NotHttp(repo.into()));
    }
    Ok(if repo.ends_with('/') {
        repo.to_string()
    } else {
        format!("{repo}/")
    })
}

/// `REPO/games/`: the list of keys.
pub fn index_url(repo: &str) -> Result<String, RepositoryError> {
    Ok(format!("{}games/", normalize(repo)?))
}

/// `REPO/games/KEY/`: the metadata of a game.
pub fn metadata_url(repo: &str, key: &str) -> Result<String, RepositoryError> {
    check_key(key)?;
    Ok(format!("{}games/{key}/", normalize(repo)?))
}

/// A key is one path segment of letters, digits, `_`, `-` and `.`.
fn check_key(key: &str) -> Result<(), RepositoryError> {
    let ok = !key.is_empty()
        && key != "."
        && key != ".."
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(RepositoryError::NotAKey(key.into()))
    }
}

/// The keys of `GET REPO/games/`, sorted.
pub fn parse_index(body: &str) -> Result<Vec<String>, RepositoryError> {
    let v: Value = serde_json::from_str(body).map_err(RepositoryError::IndexNotJson)?;
    let Value::Array(items) = v else {
        return Err(RepositoryError::IndexNotArray);
    };
    let mut keys = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::String(k) if check_key(&k).is_ok() => keys.push(k),
            other => return Err(RepositoryError::IndexItem(other.to_string())),
        }
    }
    keys.sort();
    Ok(keys)
}

/// The metadata of `GET REPO/games/KEY/`, with the URL of the rules.
pub fn parse_metadata(repo: &str, key: &str, body: &str) -> Result<Metadata, RepositoryError> {
    let bad = |problem: MetadataProblem| RepositoryError::Metadata {
        key: key.into(),
        url: metadata_url(repo, key).unwrap_or_default(),
        problem,
    };
    let v: Value = serde_json::from_str(body).map_err(|e| bad(MetadataProblem::NotJson(e)))?;
    let Value::Object(o) = v else {
        return Err(bad(MetadataProblem::NotAnObject));
    };
    let version = o
        .get("version")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad(MetadataProblem::NoVersion))?;
    let rulesheet = o
        .get("rulesheet")
        .and_then(Value::as_str)
        .ok_or_else(|| bad(MetadataProblem::NoRulesheet))?
        .to_string();
    check_key(&rulesheet).map_err(|_| bad(MetadataProblem::BadRulesheet(rulesheet.clone())))?;
    let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(Metadata {
        key: key.to_string(),
        version,
        game_name: text("gameName"),
        description: text("description"),
        rules_url: format!("{}v{version}/{rulesheet}", metadata_url(repo, key)?),
        rulesheet,
    })
}

/// `GET url` over plain HTTP (native only), within `timeout_ms`: the body
/// of a 200 reply, or an error that says what failed.
#[cfg(not(target_arch = "wasm32"))]
pub fn get(url: &str, timeout_ms: u64) -> Result<String, RepositoryError> {
    use std::io::{Read, Write};
    use std::net::{TcpStream, ToSocketAddrs};
    use std::time::{Duration, Instant};
    let fail = |failure: FetchFailure| RepositoryError::Fetch {
        url: url.into(),
        failure,
    };
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| fail(FetchFailure::NotHttp))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (
            h,
            p.parse::<u16>()
                .map_err(|_| fail(FetchFailure::BadPort(p.into())))?,
        ),
        None => (authority, 80),
    };
    let deadline = Instant::now() + Duration::from_millis(timeout_ms.max(1));
    let left = || {
        deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    };
    let addr = (host, port)
        .to_socket_addrs()
        .map_err(|source| {
            fail(FetchFailure::Resolve {
                host: host.into(),
                source,
            })
        })?
        .next()
        .ok_or_else(|| fail(FetchFailure::NoAddress(host.into())))?;
    let mut stream =
        TcpStream::connect_timeout(&addr, left()).map_err(|e| fail(FetchFailure::Connect(e)))?;
    let request = format!(
        "GET {path} HTTP/1.0\r\nHost: {authority}\r\nAccept: */*\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| fail(FetchFailure::Send(e)))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        let _ = stream.set_read_timeout(Some(left()));
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(source) => {
                return Err(fail(FetchFailure::Timeout {
                    ms: timeout_ms,
                    source,
                }))
            }
        }
        if buf.len() > 64 << 20 {
            return Err(fail(FetchFailure::TooLarge));
        }
    }
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .or_else(|| text.split_once("\n\n"))
        .ok_or_else(|| fail(FetchFailure::NotHttpReply))?;
    let status = head.lines().next().unwrap_or("");
    match status.split_whitespace().nth(1) {
        Some("200") => Ok(body.to_string()),
        Some(code) => Err(fail(FetchFailure::Status {
            code: code.into(),
            status: status.trim().into(),
        })),
        None => Err(fail(FetchFailure::NotHttpReply)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_keys_and_metadata() {
        assert_eq!(index_url("http://x/base").unwrap(), "http://x/base/games/");
        assert_eq!(
            metadata_url("http://x/base/", "ticTacToe").unwrap(),
            "http://x/base/games/ticTacToe/"
        );
        assert!(metadata_url("http://x/", "../etc").is_err());
        assert!(normalize("ftp://x/").is_err());
        assert_eq!(parse_index(r#"["b","a"]"#).unwrap(), vec!["a", "b"]);
        assert!(parse_index(r#"{"a":1}"#)
            .unwrap_err()
            .to_string()
            .contains("not a JSON array"));
        assert!(parse_index(r#"["a/b"]"#).is_err());
        let m = parse_metadata(
            "http://x/",
            "nim",
            r#"{"version":3,"rulesheet":"rules.kif","gameName":"Nim"}"#,
        )
        .unwrap();
        assert_eq!(m.rules_url, "http://x/games/nim/v3/rules.kif");
        assert_eq!(m.game_name.as_deref(), Some("Nim"));
        let e = parse_metadata("http://x/", "nim", r#"{"rulesheet":"rules.kif"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no `version`") && e.contains("http://x/games/nim/"),
            "{e}"
        );
        assert!(parse_metadata("http://x/", "nim", "<html>")
            .unwrap_err()
            .to_string()
            .contains("not JSON"));
    }
}
