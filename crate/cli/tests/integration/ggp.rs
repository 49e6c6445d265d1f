//! The GGP protocol end to end on 127.0.0.1: raw messages to `gdlkit serve`,
//! `gdlkit host` against two `serve` processes, and scripted misbehaving
//! players. Every server binds port 0 and reports its port in its first log
//! line; every wait is bounded.

use gdlkit::StateMachine;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gdlkit");

fn game(name: &str) -> String {
    format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A running `gdlkit serve`, its port and its log so far.
struct Server {
    child: Child,
    port: u16,
    log: Arc<Mutex<String>>,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .expect("gdlkit serve starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let first = lines.next().expect("a first log line").unwrap();
        let port = first
            .rsplit_once("127.0.0.1:")
            .and_then(|(_, rest)| rest.split('/').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no port in `{first}`"));
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            for l in lines.map_while(Result::ok) {
                let mut s = sink.lock().unwrap();
                s.push_str(&l);
                s.push('\n');
            }
        });
        Server { child, port, log }
    }
    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
    /// Sends raw bytes, returns the whole raw reply.
    fn raw(&self, bytes: &[u8]) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(bytes).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }
    /// POSTs a message as ggp-base's manager does; returns the body.
    fn post(&self, body: &str) -> String {
        let reply = self.raw(&gdlkit::ggp::http::request("localhost", "test", body));
        reply.split_once("\r\n\r\n").unwrap().1.to_string()
    }
    /// The log once it contains every one of `needles` (the server writes
    /// a line after replying), or after 60 s (a hang bound only: a loaded
    /// machine may take long to write it).
    fn log_with(&self, needles: &[&str]) -> String {
        for _ in 0..1200 {
            let text = self.log.lock().unwrap().clone();
            if needles.iter().all(|n| text.contains(n)) {
                return text;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_message(id: &str, role: &str, rules: &str, sc: u64, pc: u64) -> String {
    gdlkit::ggp::message::print(&gdlkit::ggp::Message::Start {
        id: id.into(),
        role: role.into(),
        rules: rules.into(),
        start_clock: sc,
        play_clock: pc,
    })
}

#[test]
fn every_message_kind_gets_its_reply() {
    let s = Server::start(&["--player", "random"]);
    let rules = std::fs::read_to_string(game("ticTacToe.kif")).unwrap();

    // INFO, exactly as ggp-base frames it.
    let reply = s.raw(&gdlkit::ggp::http::request("localhost", "p", "( INFO )"));
    assert!(
        reply.starts_with("HTTP/1.0 200 OK\r\nContent-type: text/acl\r\nContent-length: 40\r\n"),
        "{reply}"
    );
    assert!(reply.contains("\r\nAccess-Control-Allow-Origin: *\r\n"));
    assert!(reply.contains("\r\nAccess-Control-Allow-Methods: POST, GET, OPTIONS\r\n"));
    assert!(
        reply.ends_with("\r\n\r\n( ( name gdlkit ) ( status available ) )"),
        "{reply}"
    );
    // ggp-base's GET form and the CORS preflight.
    let get = s.raw(b"GET /?(info) HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(
        get.ends_with("( ( name gdlkit ) ( status available ) )"),
        "{get}"
    );
    let pre = s.raw(b"OPTIONS / HTTP/1.1\r\nOrigin: http://example.org\r\n\r\n");
    assert!(
        pre.contains("Access-Control-Allow-Headers: Content-Type\r\n") && pre.ends_with("\r\n\r\n"),
        "{pre}"
    );

    // PREVIEW, then a match: START, PLAY nil, PLAY with moves, STOP.
    assert_eq!(s.post(&format!("( PREVIEW ({rules}) 5 )")), "done");
    assert_eq!(s.post(&start_message("m.1", "x", &rules, 5, 2)), "ready");
    assert_eq!(s.post("( info )"), "( ( name gdlkit ) ( status busy ) )");
    assert_eq!(s.post(&start_message("m.2", "o", &rules, 5, 2)), "busy");
    assert_eq!(s.post("( PLAY m.2 NIL )"), "busy");
    let mut game = gdlkit::load_game(&rules).unwrap();
    let state = game.initial_state().unwrap();
    let first = s.post("( PLAY m.1 NIL )");
    let legal: Vec<String> = game
        .legal_moves(&state, 0)
        .unwrap()
        .iter()
        .map(|&t| gdlkit::ggp::message::spaced(&game.terms().display(t)))
        .collect();
    assert!(legal.contains(&first), "{first} not in {legal:?}");
    assert_eq!(
        s.post(&format!("(play m.1 ({first} noop))")),
        "noop",
        "o's turn: x has only noop"
    );
    assert_eq!(s.post(&format!("( STOP m.1 ({first} noop) )")), "done");
    assert_eq!(
        s.post("( info )"),
        "( ( name gdlkit ) ( status available ) )"
    );

    // ABORT ends a match; then the player is free again.
    assert_eq!(s.post(&start_message("m.3", "o", &rules, 5, 2)), "ready");
    assert_eq!(s.post("( ABORT m.3 )"), "aborted");
    assert_eq!(s.post("( ABORT m.3 )"), "busy", "no match is running");
    assert_eq!(
        s.post("( info )"),
        "( ( name gdlkit ) ( status available ) )"
    );

    let kinds = [
        "INFO",
        "PREVIEW",
        "START m.1",
        "PLAY m.1",
        "STOP m.1",
        "ABORT m.3",
        "OPTIONS",
        "GET INFO",
    ];
    let log = s.log_with(&kinds);
    for kind in kinds {
        assert!(log.contains(kind), "no `{kind}` line in the log:\n{log}");
    }
}

#[test]
fn bad_messages_and_bad_rules_get_errors_and_the_server_goes_on() {
    let s = Server::start(&["--player", "legal"]);
    for bad in ["(bogus", "( hello )", "( START m r )", "( PLAY m.9 x )", ""] {
        let body = s.post(bad);
        assert!(body.starts_with("( error \""), "`{bad}` -> {body}");
    }
    let raw = s.raw(b"BREW / HTTP/1.1\r\n\r\n");
    assert!(raw.starts_with("HTTP/1.0 400 "), "{raw}");
    // Rules with errors: refused, with the diagnostics in the log.
    let bad_rules = "(role a) (init (p)) (<= (legal a go) (true (q ?x)) (distinct ?y 1))";
    let body = s.post(&start_message("m.bad", "a", bad_rules, 5, 2));
    assert!(
        body.starts_with("( error \"the rules have errors"),
        "{body}"
    );
    // The diagnostics follow the first line: wait for both, not only it.
    let log = s.log_with(&["START refused", "GDL"]);
    assert!(
        log.contains("START refused") && log.contains("GDL"),
        "{log}"
    );
    // Still serving, and not in a match.
    assert_eq!(
        s.post("( INFO )"),
        "( ( name gdlkit ) ( status available ) )"
    );
}

/// Reads a match record and checks it against the documented fields and
/// the rules: every joint move legal, the goals those of the last state.
fn check_record(rules: &str, j: &Value) -> usize {
    for field in [
        "matchId",
        "startTime",
        "startClock",
        "playClock",
        "gameRoleNames",
        "playerNamesFromHost",
        "states",
        "moves",
        "errors",
        "stateTimes",
        "goalValues",
        "isCompleted",
        "isAborted",
    ] {
        assert!(j.get(field).is_some(), "no {field} in {j}");
    }
    let mut m = gdlkit::load_game(rules).unwrap();
    let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    assert_eq!(j["gameRoleNames"], serde_json::json!(roles));
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(j["states"].as_array().unwrap().len(), moves.len() + 1);
    assert_eq!(j["stateTimes"].as_array().unwrap().len(), moves.len() + 1);
    // START's errors first, then one entry per step (ggp-base's alignment).
    assert_eq!(j["errors"].as_array().unwrap().len(), moves.len() + 1);
    check_ggp_base_layout(j, roles.len());
    let mut s = m.initial_state().unwrap();
    for jm in moves {
        let legal = m.all_legal_moves(&s).unwrap();
        let joint: Vec<_> = jm
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                gdlkit::program::parse_ground_term(m.terms_mut(), t.as_str().unwrap()).unwrap()
            })
            .collect();
        for (r, mv) in joint.iter().enumerate() {
            assert!(legal[r].contains(mv), "illegal move {jm} recorded");
        }
        s = m.next_state(&s, &joint).unwrap();
    }
    assert!(m.is_terminal(&s).unwrap());
    assert_eq!(j["isCompleted"], true);
    let goals: Vec<i64> = m.goals(&s).unwrap().iter().map(|g| g.unwrap()).collect();
    assert_eq!(j["goalValues"], serde_json::json!(goals));
    moves.len()
}

/// Checks a record against what ggp-base's `Match(String theJSON, Game,
/// String)` constructor reads (`org.ggp.base.util.match.Match`): each key
/// with the JSON getter it is read with (`getString`, `getInt`, `getLong`,
/// `getBoolean`, `getJSONArray`), the required ones present; moves and
/// states are parsed as GDL terms there, so they must parse here; and the
/// histories line up as `GameServer` writes them.
fn check_ggp_base_layout(j: &Value, roles: usize) {
    let int = |v: &Value| v.as_i64().is_some_and(|n| i32::try_from(n).is_ok());
    let strings = |v: &Value| v.as_array().is_some_and(|a| a.iter().all(Value::is_string));
    // Required: getString/getInt/getLong/getBoolean/getJSONArray throw
    // when a key is missing or of another type.
    assert!(j["matchId"].is_string(), "matchId: {j}");
    assert!(int(&j["startClock"]) && int(&j["playClock"]));
    assert!(j["startTime"].as_i64().is_some(), "startTime is a long");
    let token = j["randomToken"].as_str().expect("randomToken is a string");
    assert!(token.len() == 32 && token.chars().all(|c| c.is_ascii_alphanumeric()));
    assert!(j["isCompleted"].is_boolean());
    // Optional, read with `has` first.
    assert!(
        int(&j["previewClock"]),
        "previewClock: {}",
        j["previewClock"]
    );
    assert!(j["isAborted"].is_boolean());
    assert!(j["scrambled"].is_boolean());
    assert!(j.get("tournamentNameFromHost").is_none_or(Value::is_string));
    assert!(strings(&j["playerNamesFromHost"]));
    assert!(j.get("isPlayerHuman").is_none());
    let mut terms = gdlkit::terms::TermStore::default();
    let mut is_term = |t: &str| gdlkit::program::parse_ground_term(&mut terms, t).is_ok();
    // moves: JSONArray of JSONArray of strings, each `GdlFactory.createTerm`.
    let moves = j["moves"].as_array().expect("moves");
    for jm in moves {
        let jm = jm.as_array().expect("a joint move is an array");
        assert_eq!(jm.len(), roles);
        assert!(
            jm.iter().all(|m| m.as_str().is_some_and(&mut is_term)),
            "{jm:?}"
        );
    }
    // states: strings, each a symbol list whose elements are terms.
    let states = j["states"].as_array().expect("states");
    for st in states {
        let text = st.as_str().expect("a state is a string");
        let inner = text
            .strip_prefix("( ")
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or_else(|| panic!("not a symbol list: {text}"));
        let mut facts = gdlkit::syntax::parse(inner);
        assert!(facts.diagnostics.is_empty(), "{text}");
        for f in facts.forms.drain(..) {
            assert!(is_term(f.text(inner)), "{text}");
        }
    }
    let times = j["stateTimes"].as_array().expect("stateTimes");
    assert!(times.iter().all(|t| t.as_i64().is_some()));
    // errors: JSONArray of JSONArray of strings.
    let errors = j["errors"].as_array().expect("errors");
    assert!(errors
        .iter()
        .all(|e| strings(e) && e.as_array().unwrap().len() == roles));
    assert!(j["goalValues"]
        .as_array()
        .expect("goalValues")
        .iter()
        .all(int));
    // Aligned as GameServer writes them: a state per step plus the
    // initial one, START's errors at index 0, then an entry per step.
    assert_eq!(states.len(), moves.len() + 1);
    assert_eq!(times.len(), states.len());
    assert_eq!(errors.len(), states.len());
}

fn host(args: &[&str]) -> (Value, String) {
    let out = Command::new(BIN).arg("host").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    (
        serde_json::from_slice(&out.stdout).expect("JSON on stdout"),
        stderr,
    )
}

#[test]
fn host_runs_matches_between_two_servers() {
    // A slow player setting: mcts asks for a minute per move, the play clock
    // is 2 s; the server must cut its search to the clock (no TO errors).
    // The margin (1.5 s, plus the manager's 1 s of grace) is what a loaded
    // machine may take to schedule the reply: the search itself gets 0.5 s.
    let a = Server::start(&["--player", "mcts:ms=60000", "--margin-ms", "1500"]);
    let b = Server::start(&["--player", "random"]);
    let dir = std::env::temp_dir().join(format!("gdlkit-ggp-{}", std::process::id()));
    for (name, matches) in [("ticTacToe.kif", "2"), ("connectFour.kif", "1")] {
        let path = game(name);
        let rules = std::fs::read_to_string(&path).unwrap();
        let (report, _) = host(&[
            &path,
            "--players",
            &a.url(),
            &b.url(),
            "--playclock",
            "2",
            "--startclock",
            "10",
            "--matches",
            matches,
            "--rotate",
            "--format",
            "json",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let ms = report["matches"].as_array().unwrap();
        assert_eq!(ms.len(), matches.parse::<usize>().unwrap());
        for (g, j) in ms.iter().enumerate() {
            assert!(check_record(&rules, j) >= 5, "a real game was played");
            // The slow setting never cost a timeout; nobody erred.
            assert!(
                j["errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|e| e.as_array().unwrap())
                    .all(|e| e == ""),
                "{}",
                j["errors"]
            );
            // --rotate: the first player has the first role in even matches.
            let first = if g % 2 == 0 { a.url() } else { b.url() };
            assert_eq!(j["playerNamesFromHost"][0], first.as_str());
            let file = dir.join(format!("{}.json", j["matchId"].as_str().unwrap()));
            let saved: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            assert_eq!(&saved, j);
        }
        let st = report["standings"].as_array().unwrap();
        assert_eq!(st.len(), 2);
        for p in st {
            let sum = p["wins"].as_u64().unwrap()
                + p["draws"].as_u64().unwrap()
                + p["losses"].as_u64().unwrap();
            assert_eq!(sum, ms.len() as u64);
        }
    }
    let log = a.log_with(&["STOP gdlkit.connectFour"]);
    assert!(
        log.contains("START gdlkit.connectFour") && log.contains("STOP gdlkit.connectFour"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-step simultaneous game: both choose heads or tails.
const COIN: &str = "(role a) (role b) (init (open)) (side heads) (side tails)
    (<= (legal ?r (pick ?s)) (role ?r) (side ?s) (true (open)))
    (<= (next (picked ?r ?s)) (does ?r (pick ?s)))
    (<= terminal (not (true (open))))
    (<= (goal a 100) (true (picked a ?s)) (true (picked b ?s)))
    (<= (goal a 0) (true (picked a ?s)) (true (picked b ?t)) (distinct ?s ?t))
    (<= (goal b 100) (goal a 0)) (<= (goal b 0) (goal a 100))";

/// A scripted player on 127.0.0.1: `ready` to START, `done` to the rest,
/// and to PLAY whatever `play` does with the connection.
fn fake_player(play: fn(TcpStream)) -> String {
    fake_player_seeing(play).0
}

/// [`fake_player`] and the messages it received.
fn fake_player_seeing(play: fn(TcpStream)) -> (String, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    std::thread::spawn(move || {
        for stream in l.incoming().map_while(Result::ok) {
            let mut stream = stream;
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            let message = loop {
                if let gdlkit::ggp::http::Parsed::Done(r) =
                    gdlkit::ggp::http::parse_request(&buf, false)
                {
                    break r.message;
                }
                match stream.read(&mut chunk) {
                    Ok(0) | Err(_) => break String::new(),
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            };
            record.lock().unwrap().push(message.clone());
            if message.to_ascii_uppercase().contains("PLAY") {
                play(stream);
            } else {
                let body = if message.to_ascii_uppercase().contains("START") {
                    "ready"
                } else {
                    "done"
                };
                let _ = stream.write_all(&gdlkit::ggp::http::response(200, body));
            }
        }
    });
    (url, seen)
}

#[test]
fn misbehaving_players_get_random_moves_and_errors_recorded() {
    let dir = std::env::temp_dir().join(format!("gdlkit-ggp-coin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("coin.kif");
    std::fs::write(&path, COIN).unwrap();
    let illegal = fake_player(|mut s| {
        let _ = s.write_all(&gdlkit::ggp::http::response(200, "( pick edge )"));
    });
    let garbage = fake_player(|mut s| {
        let _ = s.write_all(&gdlkit::ggp::http::response(200, "((("));
    });
    let closes = fake_player(drop);
    let sleeps = fake_player(|s| {
        // Holds the connection past the manager's PLAY timeout (2 s + 1 s).
        std::thread::sleep(Duration::from_secs(8));
        drop(s);
    });
    let p = path.to_str().unwrap();
    for (x, y, ex, ey) in [
        (&illegal, &closes, "IL ( pick edge )", "CE"),
        (&garbage, &sleeps, "IL (((", "TO"),
    ] {
        // The fake players answer at once: the clocks only need to cover a
        // loaded machine's scheduling (the start clock has no grace).
        let (report, stderr) = host(&[
            p,
            "--players",
            x,
            y,
            "--playclock",
            "2",
            "--startclock",
            "10",
            "--format",
            "json",
        ]);
        let j = &report["matches"][0];
        check_record(COIN, j);
        assert_eq!(
            j["errors"],
            serde_json::json!([["", ""], [ex, ey]]),
            "{stderr}"
        );
        assert_eq!(report["standings"][0]["errors"], 1);
        assert!(
            stderr.contains("instead"),
            "the substitution is reported: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_start_failure_is_recorded_and_huge_illegal_replies_are_cut() {
    let dir = std::env::temp_dir().join(format!("gdlkit-ggp-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("coin.kif");
    std::fs::write(&path, COIN).unwrap();
    // Nobody listens on a port just released: START (and PLAY) get CE.
    let gone = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    // 1 MB of reply with control bytes (a bell, an escape, NUL).
    let huge = fake_player(|mut s| {
        let body = format!("( pick {} )", "\u{7}\u{1b}[2J\0x".repeat(200_000));
        let _ = s.write_all(&gdlkit::ggp::http::response(200, &body));
    });
    let (report, stderr) = host(&[
        path.to_str().unwrap(),
        "--players",
        &gone,
        &huge,
        "--playclock",
        "2",
        "--startclock",
        "10",
        "--format",
        "json",
    ]);
    let j = &report["matches"][0];
    check_record(COIN, j);
    assert_eq!(j["errors"][0], serde_json::json!(["CE", ""]), "{stderr}");
    assert_eq!(j["errors"][1][0], "CE");
    let il = j["errors"][1][1].as_str().unwrap();
    assert!(il.starts_with("IL ( pick "), "{il}");
    assert!(il.chars().count() <= 3 + 200 + 1, "{} chars", il.len());
    assert!(!il.chars().any(char::is_control), "{il:?}");
    assert!(
        stderr.contains("START") && stderr.contains("connection error"),
        "{stderr}"
    );
    assert!(stderr.len() < 10_000, "{} bytes of stderr", stderr.len());
    assert!(!stderr.contains('\u{7}') && !stderr.contains('\0'));
    assert_eq!(report["standings"][0]["errors"], 2, "START and PLAY");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Milliseconds since `t`.
fn since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// Sends `bytes` and reads the reply (at most 60 s).
fn exchange(port: u16, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(bytes).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// A match's messages from a good client, each timed: INFO, START, PLAY,
/// ABORT. Returns the slowest in ms.
fn good_client(port: u16, id: &str) -> f64 {
    let rules = std::fs::read_to_string(game("ticTacToe.kif")).unwrap();
    let mut worst: f64 = 0.0;
    for (msg, want) in [
        (
            "( INFO )".to_string(),
            "( ( name gdlkit ) ( status available ) )",
        ),
        (start_message(id, "o", &rules, 10, 5), "ready"),
        (format!("( PLAY {id} NIL )"), "noop"),
        (format!("( ABORT {id} )"), "aborted"),
    ] {
        let t = Instant::now();
        let reply = exchange(port, &gdlkit::ggp::http::request("localhost", "p", &msg));
        worst = worst.max(since(t));
        assert!(reply.ends_with(want), "{msg:.40} -> {reply}");
    }
    worst
}

#[test]
fn slow_clients_do_not_delay_a_good_one_and_are_cut_off() {
    let s = Server::start(&["--player", "random"]);
    let base = good_client(s.port, "base");
    // Five idle connections and one sending a byte every 300 ms.
    let idle: Vec<TcpStream> = (0..5)
        .map(|_| TcpStream::connect(("127.0.0.1", s.port)).unwrap())
        .collect();
    let answered = Arc::new(Mutex::new(None::<(f64, String)>));
    let port = s.port;
    let slow = {
        let answered = answered.clone();
        std::thread::spawn(move || {
            let t = Instant::now();
            let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
            let mut reader = c.try_clone().unwrap();
            let got = answered.clone();
            std::thread::spawn(move || {
                reader
                    .set_read_timeout(Some(Duration::from_secs(60)))
                    .unwrap();
                let mut out = Vec::new();
                let _ = reader.read_to_end(&mut out);
                *got.lock().unwrap() = Some((since(t), String::from_utf8_lossy(&out).into_owned()));
            });
            let req = b"POST / HTTP/1.0\r\nContent-Length: 1000\r\n\r\n( INFO )";
            for b in req.iter().cycle().take(400) {
                if answered.lock().unwrap().is_some() || c.write_all(&[*b]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(300));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let worst = good_client(s.port, "good");
    // Answered while the slow client was still sending (it is cut off
    // only after 10 s), and within 1 s of the idle server's time.
    assert!(
        answered.lock().unwrap().is_none(),
        "the slow client was answered first"
    );
    assert!(
        worst < 1000.0 + base,
        "{worst:.0} ms (idle server: {base:.0} ms)"
    );
    // The slow client's request has a total deadline (10 s), though it
    // never stops sending; a deadline per read would never pass.
    slow.join().unwrap();
    for _ in 0..600 {
        if answered.lock().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let (ms, reply) = answered
        .lock()
        .unwrap()
        .clone()
        .expect("the slow client was answered");
    assert!(reply.starts_with("HTTP/1.0 400 "), "{reply}");
    assert!(reply.contains("within 10 s"), "{reply}");
    assert!(
        (9_000.0..40_000.0).contains(&ms),
        "cut off after {ms:.0} ms"
    );
    drop(idle);
}

#[test]
fn a_huge_request_does_not_delay_a_good_one_and_is_read_in_linear_time() {
    let s = Server::start(&["--player", "random"]);
    let base = good_client(s.port, "base");
    // 30 MB of INFO (whitespace inside the list), sent in 1 MB pieces
    // 100 ms apart.
    let mut body = b"( INFO".to_vec();
    body.resize(30 << 20, b' ');
    body.push(b')');
    let port = s.port;
    let big = std::thread::spawn(move || {
        let t = Instant::now();
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        c.write_all(
            format!("POST / HTTP/1.0\r\nContent-Length: {}\r\n\r\n", body.len()).as_bytes(),
        )
        .unwrap();
        for piece in body.chunks(1 << 20) {
            c.write_all(piece).unwrap();
            std::thread::sleep(Duration::from_millis(100));
        }
        let sent = since(t);
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        (sent, since(t), String::from_utf8_lossy(&out).into_owned())
    });
    std::thread::sleep(Duration::from_millis(200));
    let worst = good_client(s.port, "good");
    assert!(
        !big.is_finished(),
        "the huge request ended before the good client's"
    );
    assert!(
        worst < 1000.0 + base,
        "{worst:.0} ms (idle server: {base:.0} ms)"
    );
    let (sent, total, reply) = big.join().unwrap();
    assert!(
        reply.ends_with("( ( name gdlkit ) ( status available ) )"),
        "{reply:.200}"
    );
    // Reading and parsing 30 MB after the last byte: quadratic reading
    // took 23 s; a linear one well under a second on an idle machine.
    assert!(
        total - sent < 15_000.0,
        "answered {:.0} ms after the last byte",
        total - sent
    );
}

#[test]
fn a_content_length_over_the_cap_gets_413_at_once() {
    let s = Server::start(&["--player", "random"]);
    for len in ["1000000000000000", "33554433"] {
        let t = Instant::now();
        let mut c = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!("POST / HTTP/1.0\r\nContent-Length: {len}\r\n\r\n( INFO ");
        c.write_all(head.as_bytes()).unwrap();
        // Some body follows while the server replies; the reply arrives.
        let _ = c.write_all(&vec![b' '; 1 << 20]);
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        let reply = String::from_utf8_lossy(&out);
        assert!(reply.starts_with("HTTP/1.0 413 "), "{reply}");
        // Not after the 10 s request deadline: at once.
        assert!(since(t) < 8000.0, "{:.0} ms", since(t));
    }
    assert_eq!(
        s.post("( INFO )"),
        "( ( name gdlkit ) ( status available ) )"
    );
}

#[test]
fn play_replies_arrive_within_the_clock_on_a_loaded_machine() {
    // The default player (`mcts-solver`) searches between messages too
    // (`ggp/net.rs`).
    replies_within_the_clock_under_load(&["--no-solve"]);
}

#[test]
fn a_plain_mcts_player_answers_within_the_clock_on_a_loaded_machine() {
    replies_within_the_clock_under_load(&["--no-solve", "--player", "mcts"]);
}

fn replies_within_the_clock_under_load(args: &[&str]) {
    // Four threads spin for the test's duration; the server searches on
    // all cores (its default) against them.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinners: Vec<_> = (0..4)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    // Searched, not solved at START: the search's clock is what is tested.
    let s = Server::start(args);
    let rules = std::fs::read_to_string(game("ticTacToe.kif")).unwrap();
    let setup = gdlkit::ggp::MatchSetup {
        match_id: "loaded.1".into(),
        start_clock: 5,
        play_clock: 2,
        players: vec![s.url(), "local".into()],
        seed: 3,
        max_steps: 20,
        start_time: 0.0,
    };
    let mut m = gdlkit::ggp::GameMatch::new(&rules, gdlkit::EngineChoice::Auto, setup).unwrap();
    let mut times = Vec::new();
    while !m.is_done() {
        let phase = m.phase();
        let mut answers = Vec::new();
        for o in m.requests() {
            if o.role == 1 {
                // The other seat: the first legal move, at once.
                let first = m.legal_moves(1).unwrap().remove(0);
                answers.push(Ok(if phase == "play" {
                    first
                } else {
                    "ready".into()
                }));
                continue;
            }
            let t = Instant::now();
            answers.push(gdlkit::ggp::net::post(
                &m.setup.players[0],
                &o.body,
                o.timeout_ms,
            ));
            times.push((phase, since(t)));
        }
        m.deliver(answers, 0.0).unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for h in spinners {
        h.join().unwrap();
    }
    assert!(m.completed, "{:?}", m.events);
    let plays: Vec<f64> = times
        .iter()
        .filter(|(p, _)| *p == "play")
        .map(|t| t.1)
        .collect();
    assert!(plays.len() >= 5, "{times:?}");
    for (phase, ms) in &times {
        let clock = if *phase == "start" { 5000.0 } else { 2000.0 };
        assert!(*ms < clock, "{phase} answered after {ms:.0} ms: {times:?}");
    }
    assert!(
        m.errors.iter().flatten().all(String::is_empty),
        "{:?}",
        m.errors
    );
}

#[test]
fn ctrl_c_sends_abort_and_records_an_aborted_match() {
    // Slow but legal-looking answers keep the match going for seconds.
    let slow = |mut s: TcpStream| {
        std::thread::sleep(Duration::from_millis(500));
        let _ = s.write_all(&gdlkit::ggp::http::response(200, "noop"));
    };
    let (x, seen) = fake_player_seeing(slow);
    let (o, _) = fake_player_seeing(slow);
    let mut child = Command::new(BIN)
        .args([
            "host",
            &game("ticTacToe.kif"),
            "--players",
            &x,
            &o,
            "--playclock",
            "2",
        ])
        .args(["--startclock", "10", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.starts_with("match 1 of 1"), "{first}");
    // Interrupt once the match is under way (a first PLAY received), not
    // after a fixed time: a loaded machine may not have sent START yet.
    // At 0.5 s per reply, at least five more plies remain.
    for _ in 0..1200 {
        if seen.lock().unwrap().iter().any(|s| s.starts_with("( PLAY")) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        seen.lock().unwrap().iter().any(|s| s.starts_with("( PLAY")),
        "no PLAY within 60 s"
    );
    // Ctrl-C: SIGINT to our own child process.
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let m = &report["matches"][0];
    assert_eq!(m["isAborted"], true);
    assert_eq!(m["isCompleted"], false);
    let seen = seen.lock().unwrap();
    assert!(seen.iter().any(|s| s.contains("ABORT")), "{seen:?}");
    assert!(!seen.iter().any(|s| s.contains("STOP")), "{seen:?}");
}
