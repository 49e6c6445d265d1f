//! GDL-II on the wire: `host`'s manager against `serve`'s sessions over
//! 127.0.0.1 on the library's Monty Hall and Kuhn poker. The manager plays
//! `random`; each player is told only its own move and percepts, which the
//! test checks against the record message by message; the record's moves
//! are legal, its percepts those the rules give, its goals the end's. A
//! Monty Hall player written in the test reads the messages as plain text
//! in the Dresden format.

use gdlkit::engine::EngineChoice;
use gdlkit::ggp::manager::{GameMatch, MatchSetup};
use gdlkit::ggp::message::{self, Message, Sight};
use gdlkit::ggp::net::{self, send_all};
use gdlkit::ggp::session::{PlayerConfig, Session};
use gdlkit::{load_game, StateMachine};
use std::net::TcpListener;

fn game(name: &str) -> String {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// A `serve` session with `player` on a port of its own (the thread ends
/// with the test process).
fn server(player: &str, seed: u64) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    let cfg = PlayerConfig {
        spec: player.parse().unwrap(),
        margin_ms: 300.0,
        seed,
        ..PlayerConfig::default()
    };
    std::thread::spawn(move || {
        let mut s = Session::new(cfg);
        net::serve(l, &mut s, Box::new(|_| {}));
    });
    url
}

/// Runs one match, keeping every message sent: (role, body) per phase.
fn run(rules: &str, players: Vec<String>, seed: u64) -> (GameMatch, Vec<Vec<(usize, String)>>) {
    let setup = MatchSetup {
        match_id: format!("gdl2.{seed}"),
        start_clock: 10,
        play_clock: 1,
        players: players.clone(),
        seed,
        max_steps: 100,
        start_time: 0.0,
    };
    let mut m = GameMatch::new(rules, EngineChoice::Auto, setup).unwrap();
    let urls = m.setup.players.clone();
    let mut sent = Vec::new();
    while !m.is_done() {
        let out = m.requests();
        sent.push(out.iter().map(|o| (o.role, o.body.clone())).collect());
        let answers = send_all(&urls, &out);
        m.deliver(answers, 0.0).unwrap();
    }
    (m, sent)
}

/// Every PLAY and STOP tells its role exactly its own last move and
/// percepts from the record, and no other role's move text.
fn check_sights(m: &GameMatch, sent: &[Vec<(usize, String)>]) -> usize {
    let mut checked = 0;
    for phase in sent {
        for (r, body) in phase {
            assert_ne!(Some(*r), m.chance, "a message to random: {body}");
            let (Message::PlaySeen { sight, .. } | Message::StopSeen { sight, .. }) =
                message::parse(body).unwrap()
            else {
                assert!(body.starts_with("( START"), "{body}");
                continue;
            };
            let Sight {
                turn,
                last_move,
                percepts,
            } = sight;
            let t = turn as usize;
            if t == 0 {
                assert_eq!((last_move, percepts), (None, None));
            } else {
                assert_eq!(last_move.as_ref(), Some(&m.moves[t - 1][*r]));
                assert_eq!(percepts.as_ref(), Some(&m.percepts[t - 1][*r]));
                for (o, mv) in m.moves[t - 1].iter().enumerate() {
                    if o != *r && mv != &m.moves[t - 1][*r] && mv.contains('(') {
                        assert!(!body.contains(mv.as_str()), "{mv} of role {o} in {body}");
                    }
                }
            }
            checked += 1;
        }
    }
    checked
}

/// The record replayed: legal moves, the rules' percepts, the end's goals.
fn check_record(rules: &str, m: &GameMatch) {
    let mut g = load_game(rules).unwrap();
    let mut s = g.initial_state().unwrap();
    assert_eq!(m.percepts.len(), m.moves.len());
    for (jm, seen) in m.moves.iter().zip(&m.percepts) {
        let legal = g.all_legal_moves(&s).unwrap();
        let joint: Vec<_> = (jm.iter())
            .map(|t| gdlkit::program::parse_ground_term(g.terms_mut(), t).unwrap())
            .collect();
        for (r, mv) in joint.iter().enumerate() {
            assert!(legal[r].contains(mv), "illegal {jm:?}");
        }
        let ps: Vec<Vec<String>> = (g.percepts(&s, &joint).unwrap().iter())
            .map(|p| {
                p.iter()
                    .map(|&t| message::spaced(&g.terms().display(t)))
                    .collect()
            })
            .collect();
        assert_eq!(&ps, seen);
        s = g.next_state(&s, &joint).unwrap();
    }
    assert!(g.is_terminal(&s).unwrap() && m.completed);
    let goals: Vec<i64> = (g.goals(&s).unwrap().iter())
        .map(|v| v.unwrap_or(0))
        .collect();
    assert_eq!(m.goal_values, goals);
    assert!(
        m.errors.iter().flatten().all(String::is_empty),
        "{:?}",
        m.errors
    );
}

#[test]
fn monty_hall_and_kuhn_poker_between_host_and_serve() {
    for (name, players, matches) in [
        // The default player: hyperplay in GDL-II games.
        ("montyHall.kif", vec![server(gdlkit::DEFAULT_PLAYER, 1)], 3),
        (
            "kuhnPoker.kif",
            vec![server("mcts:playouts=300", 2), server("random", 3)],
            3,
        ),
    ] {
        let rules = game(name);
        let mut checked = 0;
        let mut percepts_seen = 0;
        for seed in 0..matches {
            let (m, sent) = run(&rules, players.clone(), seed);
            check_record(&rules, &m);
            assert!(m.moves.len() >= 2, "{name}: a real game");
            checked += check_sights(&m, &sent);
            percepts_seen += m.percepts.iter().flatten().flatten().count();
            let j = m.to_json();
            assert_eq!(j["percepts"].as_array().unwrap().len(), m.moves.len());
        }
        assert!(
            checked >= 3 * matches as usize,
            "{name}: {checked} messages"
        );
        assert!(percepts_seen > 0, "{name}: some role saw something");
    }
}

/// The top-level items of an s-expression list's inside: `a (b c) ( )`
/// gives `a`, `(b c)`, `( )`.
fn items(text: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth == 0 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// One HTTP request's body read from `stream` (headers, then
/// Content-Length bytes), and `reply` sent back.
fn exchange(stream: &mut std::net::TcpStream, reply: impl FnOnce(&str) -> String) {
    use std::io::{Read, Write};
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let body = loop {
        let n = stream.read(&mut chunk).unwrap();
        assert!(n > 0, "the request ended early");
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let len: usize = text[..end]
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .expect("a Content-Length");
            if buf.len() >= end + 4 + len {
                break String::from_utf8(buf[end + 4..end + 4 + len].to_vec()).unwrap();
            }
        }
    };
    let answer = reply(&body);
    let head = format!(
        "HTTP/1.0 200 OK\r\nContent-Type: text/acl\r\nContent-Length: {}\r\n\r\n",
        answer.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(answer.as_bytes()).unwrap();
}

/// A Monty Hall candidate written here, apart from gdlkit's own message
/// code: it reads the Dresden GDL-II messages as text (`( PLAY id turn
/// lastmove (percepts) )`, `NIL NIL` on turn 0), checks each against what
/// it played, and answers at random. Returns the host's record and what
/// the player saw per message (turn, last move, percepts).
fn random_candidate_match(seed: u64) -> (GameMatch, Vec<(String, String, String, String)>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", l.local_addr().unwrap());
    let player = std::thread::spawn(move || {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut seen = Vec::new();
        let mut played: Vec<String> = Vec::new();
        for conn in l.incoming() {
            let mut stream = conn.unwrap();
            let mut done = false;
            exchange(&mut stream, |body| {
                let inner = body
                    .trim()
                    .strip_prefix('(')
                    .and_then(|b| b.strip_suffix(')'))
                    .expect("a list");
                let parts = items(inner);
                match parts[0].to_ascii_uppercase().as_str() {
                    "START" => {
                        assert_eq!(parts[2], "candidate", "{body}");
                        "ready".to_string()
                    }
                    kind @ ("PLAY" | "STOP") => {
                        assert_eq!(parts.len(), 5, "{body}");
                        let turn: usize = parts[2].parse().expect("a turn number");
                        assert_eq!(turn, played.len(), "turns count the PLAYs: {body}");
                        if turn == 0 {
                            assert_eq!(
                                (parts[3].as_str(), parts[4].as_str()),
                                ("NIL", "NIL"),
                                "{body}"
                            );
                        } else {
                            assert_eq!(parts[3], played[turn - 1], "our own last move: {body}");
                            assert!(
                                parts[4].starts_with('(') && parts[4].ends_with(')'),
                                "{body}"
                            );
                        }
                        seen.push((
                            kind.to_string(),
                            parts[2].clone(),
                            parts[3].clone(),
                            parts[4].clone(),
                        ));
                        if kind == "STOP" {
                            done = true;
                            return "done".to_string();
                        }
                        let mv = match turn {
                            0 => format!("( choose {} )", rng.usize(1..=3)),
                            1 => "noop".to_string(),
                            _ => ["switch", "stay"][rng.usize(0..2)].to_string(),
                        };
                        played.push(mv.clone());
                        mv
                    }
                    other => panic!("unexpected message {other}: {body}"),
                }
            });
            if done {
                return seen;
            }
        }
        seen
    });
    let (m, _) = run(&game("montyHall.kif"), vec![url], seed);
    (m, player.join().unwrap())
}

/// `host` against a random Monty Hall player written in the test: the
/// messages are the Dresden format read as plain text (turns, the
/// player's own moves echoed, `NIL NIL` first, the opened door and at the
/// end the car in the percepts), the record agrees, and the player wins
/// exactly when its final door hides the car.
#[test]
fn host_speaks_the_dresden_format_to_a_player_written_here() {
    for seed in 0..6 {
        let (m, seen) = random_candidate_match(seed);
        check_record(&game("montyHall.kif"), &m);
        let kinds: Vec<(&str, &str)> = seen
            .iter()
            .map(|(k, t, _, _)| (k.as_str(), t.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [("PLAY", "0"), ("PLAY", "1"), ("PLAY", "2"), ("STOP", "3")]
        );
        let chosen = &seen[1].2; // ( choose D )
        let opened = &seen[2].3; // (( opened K ) )
        let door = |t: &str| t.chars().filter(char::is_ascii_digit).collect::<String>();
        assert!(opened.contains("opened"), "{opened}");
        assert_ne!(
            door(opened),
            door(chosen),
            "the host never opens the chosen door"
        );
        let car = door(&seen[3].3);
        assert_eq!(car.len(), 1, "the car is seen at the end: {}", seen[3].3);
        let last = &seen[3].2;
        let final_door = match last.as_str() {
            "stay" => door(chosen),
            _ => ["1", "2", "3"]
                .into_iter()
                .find(|d| *d != door(chosen) && *d != door(opened))
                .unwrap()
                .to_string(),
        };
        let won = m.goal_values[0] == 100;
        assert_eq!(
            won,
            final_door == car,
            "seed {seed}: {seen:?}, goals {:?}",
            m.goal_values
        );
    }
}
