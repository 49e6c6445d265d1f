//! GGP repositories (`gdlkit fetch-game`, `gdlkit::repository`) against a
//! local HTTP server that serves a repository in ggp-base's layout: the
//! keys, a game's metadata and its rules; a malformed metadata file, a
//! missing game and a closed port give messages that say what failed.

use gdlkit_cli::cli::{run, MemoryHost};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpListener;

/// Serves `files` (path → body; others 404) on 127.0.0.1 until the test ends.
fn serve(files: HashMap<String, String>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/repo/", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let n = stream.read(&mut buf).unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]);
            let path = request.split_whitespace().nth(1).unwrap_or("").to_string();
            let reply = match files.get(&path) {
                Some(body) => format!(
                    "HTTP/1.0 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                ),
                None => "HTTP/1.0 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found".to_string(),
            };
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    url
}

fn cli(args: &[&str], host: &mut MemoryHost) -> gdlkit_cli::cli::Output {
    run(
        &args.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
        host,
    )
}

const NIM: &str = "(role a) (role b) (init (heap 2)) (succ 0 1) (succ 1 2)";

fn repository() -> String {
    let mut files = HashMap::new();
    files.insert(
        "/repo/games/".into(),
        r#"["nim", "broken", "ghost"]"#.into(),
    );
    files.insert(
        "/repo/games/nim/".into(),
        r#"{"version": 2, "gameName": "Nim", "description": "take coins", "rulesheet": "nim.kif"}"#
            .into(),
    );
    files.insert("/repo/games/nim/v2/nim.kif".into(), NIM.into());
    files.insert(
        "/repo/games/broken/".into(),
        r#"{"gameName": "Broken", "rulesheet": "b.kif"}"#.into(),
    );
    serve(files)
}

#[test]
fn lists_and_fetches_a_game() {
    let repo = repository();
    let mut host = MemoryHost::default();
    let list = cli(&["fetch-game", "--repo", &repo], &mut host);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert_eq!(list.stdout, "broken\nghost\nnim\n");
    let rules = cli(&["fetch-game", "nim", "--repo", &repo], &mut host);
    assert_eq!(rules.code, 0, "{}", rules.stderr);
    assert_eq!(rules.stdout, NIM);
    let saved = cli(
        &["fetch-game", "nim", "--repo", &repo, "--out", "nim.kif"],
        &mut host,
    );
    assert_eq!(saved.code, 0, "{}", saved.stderr);
    assert_eq!(host.0.get("nim.kif").map(String::as_str), Some(NIM));
    let json = cli(
        &["fetch-game", "nim", "--repo", &repo, "--format", "json"],
        &mut host,
    );
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["game_name"], "Nim");
    assert_eq!(v["version"], 2);
    assert_eq!(v["rules"], NIM);
    assert_eq!(v["rules_url"], format!("{repo}games/nim/v2/nim.kif"));
}

#[test]
fn failures_say_what_failed() {
    let repo = repository();
    let mut host = MemoryHost::default();
    let broken = cli(&["fetch-game", "broken", "--repo", &repo], &mut host);
    assert_eq!(broken.code, 2);
    assert!(
        broken.stderr.contains("metadata of broken") && broken.stderr.contains("no `version`"),
        "{}",
        broken.stderr
    );
    let ghost = cli(&["fetch-game", "ghost", "--repo", &repo], &mut host);
    assert_eq!(ghost.code, 2);
    assert!(ghost.stderr.contains("answered 404"), "{}", ghost.stderr);
    let bad_key = cli(&["fetch-game", "../x", "--repo", &repo], &mut host);
    assert!(
        bad_key.stderr.contains("not a game key"),
        "{}",
        bad_key.stderr
    );
    // A port nobody listens on.
    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let down = cli(
        &[
            "fetch-game",
            "--repo",
            &format!("http://{closed}/"),
            "--seconds",
            "5",
        ],
        &mut host,
    );
    assert_eq!(down.code, 2);
    assert!(down.stderr.contains("cannot connect"), "{}", down.stderr);
}
