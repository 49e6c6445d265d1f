//! GDL-II on the wire: `host`'s manager against `serve`'s sessions over
//! 127.0.0.1 on the library's Monty Hall and Kuhn poker. The manager plays
//! `random`; each player is told only its own move and percepts, which the
//! test checks against the record message by message; the record's moves
//! are legal, its percepts those the rules give, its goals the end's.

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
