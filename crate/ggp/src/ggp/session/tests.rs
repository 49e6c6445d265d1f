use super::*;

const GAME: &str = "(role a) (role b) (init (s 0)) (<= (legal a (go ?x)) (true (s 0)) (n ?x))
    (<= (legal b wait) (true (s 0))) (n 1) (n 2) (<= (next (s ?x)) (does a (go ?x)))
    (<= terminal (not (true (s 0)))) (<= (goal a 100) (true (s 2))) (<= (goal a 0) (true (s 1)))
    (<= (goal b 0) (true (s 2))) (<= (goal b 100) (true (s 1)))";

fn start(id: &str, role: &str) -> String {
    format!("(start {id} {role} ({GAME}) 5 1)")
}

#[test]
fn gdl2_percepts_narrow_the_belief_and_impossible_ones_are_errors() {
    let rules = include_str!("../../../../../games/montyHall.kif");
    let cfg = PlayerConfig {
        spec: "random".parse().unwrap(),
        ..PlayerConfig::default()
    };
    let mut s = Session::new(cfg);
    let start = format!("(start m candidate ({rules}) 5 1)");
    assert_eq!(s.handle(&start).body, "ready");
    assert!(s.handle("( PLAY m 0 NIL NIL )").body.contains("choose"));
    // Whatever we answered, the manager says door 1 was chosen for us.
    assert_eq!(s.handle("( PLAY m 1 ( choose 1 ) ( ) )").body, "noop");
    let cur = s.current.as_ref().unwrap();
    let belief = cur.belief.as_ref().unwrap();
    // The car is behind any of the three doors.
    assert_eq!((belief.states().len(), belief.is_exact()), (3, true));
    // The host cannot open the chosen door: no state explains it.
    let bad = s.handle("( PLAY m 2 noop (( opened 1 ) ) )");
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("no state is consistent"), "{}", bad.body);
    let mut s = Session::new(PlayerConfig {
        spec: "random".parse().unwrap(),
        ..PlayerConfig::default()
    });
    s.handle(&start);
    s.handle("( PLAY m 0 NIL NIL )");
    s.handle("( PLAY m 1 ( choose 1 ) ( ) )");
    let last = s.handle("( PLAY m 2 noop (( opened 3 ) ) )").body;
    assert!(last == "switch" || last == "stay", "{last}");
    let cur = s.current.as_ref().unwrap();
    let belief = cur.belief.as_ref().unwrap();
    // The car is behind door 1 or door 2, door 2 twice as likely.
    let w = belief.weights();
    assert_eq!(w.len(), 2);
    let (lo, hi) = (w[0].min(w[1]), w[0].max(w[1]));
    assert!((hi / lo - 2.0).abs() < 1e-9, "{w:?}");
    assert_eq!(s.handle("( STOP m 3 switch (( car 2 ) ) )").body, "done");
    assert!(!s.busy());
}

#[test]
fn a_match_from_start_to_stop() {
    let mut s = Session::new(PlayerConfig {
        spec: "alphabeta".parse().unwrap(),
        ..PlayerConfig::default()
    });
    assert_eq!(
        s.handle(&start("m", "A")).body,
        "ready",
        "roles match case-insensitively"
    );
    assert!(s.busy());
    assert_eq!(s.handle(&start("other", "b")).body, "busy");
    assert_eq!(s.handle("(play other nil)").body, "busy");
    // Alpha-beta finds the win: (go 2).
    assert_eq!(s.handle("(play m nil)").body, "( go 2 )");
    let r = s.handle("(stop m ((go 2) wait))");
    assert_eq!(r.body, "done");
    assert!(r.log.contains("our goal 100"), "{}", r.log);
    assert!(!s.busy());
}

/// Answers `text` (arrived at 1 s); the fallback it left, if any.
fn answer(s: &mut Session, text: &str) -> Option<Fallback> {
    let watch = Watch::default();
    let input = Input::Message {
        get: false,
        text: text.into(),
        parsed: message::parse(text),
    };
    s.answer_watched(input, 1_000.0, watch.clone());
    let left = watch.lock().unwrap().take();
    left
}

#[test]
fn the_fallback_is_the_move_the_kept_tree_would_make() {
    // As x: the first search keeps its tree. After o's reply that
    // tree has searched, PLAY leaves the move the tree would make.
    let ttt = include_str!("../../../../../games/ticTacToe.kif");
    let mut s = Session::new(PlayerConfig {
        spec: "mcts:solver=on,playouts=3000".parse().unwrap(),
        solve: false,
        ..PlayerConfig::default()
    });
    assert_eq!(s.handle(&format!("(start m x ({ttt}) 5 2)")).body, "ready");
    let first = s.handle("(play m nil)").body;
    assert_eq!(s.handle(&format!("(play m ({first} noop))")).body, "noop");
    let cur = s.current.as_mut().unwrap();
    let reply = cur
        .player
        .known_move(&cur.state, 1)
        .expect("o's replies searched");
    let wait = cur.engine.legal_moves(&cur.state, 0).unwrap()[0];
    let after = cur.engine.next_state(&cur.state, &[wait, reply]).unwrap();
    let known = cur
        .player
        .known_move(&after, 0)
        .expect("x's answers searched");
    let show = |t: TermId| spaced(&cur.engine.terms().display(t));
    let (reply, known) = (show(reply), show(known));
    let f = answer(&mut s, &format!("(play m (noop {reply}))")).expect("a fallback");
    let text = |r: &[u8]| String::from_utf8_lossy(r).into_owned();
    assert_eq!(text(&f.response), text(&http::response(200, &known)));
}

#[test]
fn start_and_play_leave_a_fallback_due_halfway_through_the_margin() {
    let mut s = Session::new(PlayerConfig {
        spec: "mcts:playouts=50".parse().unwrap(),
        // Solved, the game's moves would cost no search.
        solve: false,
        ..PlayerConfig::default()
    });
    // START (5 s): "ready", due 250 ms before the start clock ends.
    let f = answer(&mut s, &start("m", "a")).expect("START leaves a fallback");
    assert_eq!(f.at_ms, 1_000.0 + 5_000.0 - 250.0);
    assert_eq!(f.response, http::response(200, "ready"));
    // PLAY (1 s): one of a's legal moves, due 250 ms before the clock.
    let f = answer(&mut s, "(play m nil)").expect("PLAY leaves a fallback");
    assert_eq!(f.at_ms, 1_000.0 + 1_000.0 - 250.0);
    let legal = ["( go 1 )", "( go 2 )"].map(|mv| http::response(200, mv));
    assert!(legal.contains(&f.response), "{}", f.log);
    // A forced move is sent at once: no fallback.
    let mut b = Session::new(PlayerConfig::default());
    answer(&mut b, &start("n", "b"));
    assert_eq!(answer(&mut b, "(play n nil)"), None);
}

#[test]
fn a_rebuilt_player_catches_up_and_plays_on() {
    // Tic-tac-toe as o: x's first mark and o's centre are caught up
    // with, then PLAY brings x's second mark, a threat on the first
    // line; every other answer loses at once, so o blocks at (1 3).
    let ttt = include_str!("../../../../../games/ticTacToe.kif");
    let mut s = Session::new(PlayerConfig {
        spec: "alphabeta:depth=4,heuristic=none".parse().unwrap(),
        ..PlayerConfig::default()
    });
    assert!(s.catch_up(&[]).is_err(), "no match yet");
    assert_eq!(s.handle(&format!("(start m o ({ttt}) 5 2)")).body, "ready");
    let joint = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    s.catch_up(&[joint("(mark 1 1)", "noop"), joint("noop", "(mark 2 2)")])
        .unwrap();
    let r = s.handle("(play m ((mark 1 2) noop))");
    assert_eq!(r.body, "( mark 1 3 )", "{}", r.log);
    // A move that does not parse is an error, not a panic.
    assert!(s.catch_up(&[joint("(mark 1", "noop")]).is_err());
}

/// The tree size in a PLAY reply's log: `(N nodes, P playouts)`.
fn nodes_in(log: &str) -> u64 {
    let at = log.find(" nodes").expect("a searched move");
    let digits = log[..at].rsplit('(').next().unwrap();
    digits.parse().unwrap()
}

#[test]
fn what_the_player_learns_on_the_opponents_time_is_kept() {
    // Tic-tac-toe as x, searched with 50 playouts a move; one session
    // ponders while o thinks, the other does not. The next search
    // starts from what pondering grew under o's reply. A tree, not a
    // graph: one node per state soon proves the game, and a proven
    // root leaves nothing to ponder.
    let ttt = include_str!("../../../../../games/ticTacToe.kif");
    let session = |spec: &str| {
        let mut s = Session::new(PlayerConfig {
            spec: spec.parse().unwrap(),
            solve: false,
            ..PlayerConfig::default()
        });
        assert_eq!(
            s.handle(&format!("(start m x ({ttt}) 60 30)")).body,
            "ready"
        );
        s
    };
    let (mut pondering, mut idle) = (
        session("mcts:solver=on,transpositions=off,playouts=50"),
        session("mcts:solver=on,transpositions=off,playouts=50"),
    );
    let first = pondering.handle("(play m nil)").body;
    assert_eq!(idle.handle("(play m nil)").body, first, "the same seed");
    let ours = first.trim_matches(|c| c == '(' || c == ')' || c == ' ');
    let after_ours = format!("(play m (({ours}) noop))");
    for s in [&mut pondering, &mut idle] {
        assert_eq!(s.handle(&after_ours).body, "noop", "o moves");
        assert!(s.ponders());
    }
    let mut added = 0;
    while added < 2000 {
        let n = pondering.ponder(20.0);
        assert!(n > 0, "every slice plays at least one playout");
        added += n;
    }
    let theirs = if ours == "mark 2 2" {
        "(mark 1 1)"
    } else {
        "(mark 2 2)"
    };
    let reply = format!("(play m (noop {theirs}))");
    let (p, i) = (pondering.handle(&reply), idle.handle(&reply));
    assert!(
        nodes_in(&p.log) >= nodes_in(&i.log) + 50,
        "pondered: {}; not: {}",
        p.log,
        i.log
    );
    // Plain MCTS does not ponder.
    assert!(!session("mcts").ponders());
    assert!(!session("mcts:solver=on,ponder=off").ponders());
    assert_eq!(session("mcts").ponder(10.0), 0);
}

#[test]
fn bad_moves_and_bad_rules_are_errors_not_panics() {
    let mut s = Session::new(PlayerConfig::default());
    assert_eq!(s.handle(&start("m", "b")).body, "ready");
    let r = s.handle("(play m ((go 3) wait))");
    assert_eq!(r.status, 400, "{r:?}");
    let r = s.handle("(play m ((go 1)))");
    assert!(r.body.contains("one per role"), "{r:?}");
    assert_eq!(s.handle("(abort m)").body, "aborted");
    let r = s.handle("(start m2 a ((role a) (<= (p ?x) (q))) 5 1)");
    assert_eq!(r.status, 400);
    assert!(
        r.log.contains("START refused") && r.log.contains("GDL"),
        "{}",
        r.log
    );
    assert!(!s.busy());
    let r = s.handle("(start m3 nobody ((role a)) 5 1)");
    assert!(r.body.contains("no role"), "{r:?}");
}

#[test]
fn the_play_clock_runs_from_the_arrival_and_forced_moves_are_immediate() {
    let ttt = include_str!("../../../../../games/ticTacToe.kif");
    let mut s = Session::new(PlayerConfig {
        spec: "mcts".parse().unwrap(),
        // Searched, not solved: the clock is what is tested.
        solve: false,
        ..PlayerConfig::default()
    });
    // A 60 s play clock: o's only move (noop) must not wait for it.
    assert_eq!(
        s.handle(&format!("(start m o ({ttt}) 60 60)")).body,
        "ready"
    );
    let t = crate::clock::now_ms();
    let r = s.handle("(play m nil)");
    assert_eq!(r.body, "noop");
    assert!(r.log.contains("(forced)"), "{}", r.log);
    assert!(crate::clock::now_ms() - t < 10_000.0, "{}", r.log);
    assert_eq!(s.handle("(abort m)").body, "aborted");
    // x with a 4 s clock (3.5 s of thinking) whose message arrived
    // 3.4 s ago: about 0.1 s is left, not 3.5 s.
    assert_eq!(
        s.handle(&format!("(start m2 x ({ttt}) 60 4)")).body,
        "ready"
    );
    let t = crate::clock::now_ms();
    let r = s.handle_at("(play m2 nil)", t - 3400.0);
    assert!(r.body.starts_with("( mark"), "{r:?}");
    let took = crate::clock::now_ms() - t;
    assert!(
        took < 2000.0,
        "searched {took:.0} ms of a clock nearly spent"
    );
}

#[test]
fn a_small_game_is_solved_at_start_and_played_perfectly() {
    // Tic-tac-toe as o after x's (1 1) and (1 2) with o's centre: every
    // move but the block at (1 3) loses, and the solved move needs no
    // search (a 1 ms search would not be sure to find it).
    let ttt = include_str!("../../../../../games/ticTacToe.kif");
    let config = |spec: &str, solve: bool| PlayerConfig {
        spec: spec.parse().unwrap(),
        solve,
        ..PlayerConfig::default()
    };
    let mut s = Session::new(config("mcts:ms=1", true));
    let r = s.handle(&format!("(start m o ({ttt}) 30 2)"));
    assert_eq!(r.body, "ready");
    assert!(r.log.contains("solved"), "{}", r.log);
    let joint = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    s.catch_up(&[joint("(mark 1 1)", "noop"), joint("noop", "(mark 2 2)")])
        .unwrap();
    let r = s.handle("(play m ((mark 1 2) noop))");
    assert_eq!(r.body, "( mark 1 3 )", "{}", r.log);
    assert!(r.log.contains("(solved)"), "{}", r.log);
    // Not when solving is off, and never for a baseline that does not
    // search (`random`, `legal`), as in npm.
    for (spec, solve) in [("mcts:ms=1", false), ("random", true), ("legal", true)] {
        let mut s = Session::new(config(spec, solve));
        let r = s.handle(&format!("(start m o ({ttt}) 30 2)"));
        assert_eq!(r.body, "ready");
        assert!(!r.log.contains("solved"), "{spec}: {}", r.log);
    }
}

#[test]
fn where_both_roles_choose_a_solved_game_plays_its_securing_move() {
    // Both pick a number at once; a wins with 2 whatever b picks, and with
    // 1 only against 1: solved at start, a picks 2 without a search.
    let game = "(role a) (role b) (num 1) (num 2) (init (open))
        (<= (legal ?r (pick ?n)) (role ?r) (num ?n) (true (open)))
        (<= (next (picked ?r ?n)) (does ?r (pick ?n)))
        (<= terminal (not (true (open))))
        (<= won (true (picked a 2)))
        (<= won (true (picked a 1)) (true (picked b 1)))
        (<= (goal a 100) won) (<= (goal a 0) (not won))
        (<= (goal b 0) won) (<= (goal b 100) (not won))";
    let config = PlayerConfig {
        spec: "mcts:ms=1".parse().unwrap(),
        solve: true,
        ..PlayerConfig::default()
    };
    let mut s = Session::new(config.clone());
    let r = s.handle(&format!("(start m a ({game}) 30 2)"));
    assert!(r.log.contains("solved"), "{}", r.log);
    assert!(!s.ponders(), "a settled state: nothing to ponder");
    let r = s.handle("(play m nil)");
    assert_eq!(r.body, "( pick 2 )", "{}", r.log);
    assert!(r.log.contains("(solved)"), "{}", r.log);
    // Rock-paper-scissors' start has no value in pure moves: solved, but
    // the first move is searched, and pondered on the opponent's time.
    let rps = include_str!("../../../../../games/rockPaperScissors.kif");
    let mut s = Session::new(PlayerConfig {
        spec: "mcts-solver:ms=1".parse().unwrap(),
        ..config
    });
    let r = s.handle(&format!("(start m left ({rps}) 30 2)"));
    assert!(r.log.contains("solved"), "{}", r.log);
    assert!(s.ponders());
    let r = s.handle("(play m nil)");
    assert!(!r.log.contains("(solved)"), "{}", r.log);
    assert!(r.body.starts_with("( throw "), "{}", r.body);
}

#[test]
fn the_time_budget_is_cut_to_the_play_clock() {
    let spec: PlayerSpec = "mcts:ms=60000".parse().unwrap();
    assert_eq!(timed_spec(&spec, 1500.0).get("ms"), Some("1500"));
    let spec: PlayerSpec = "alphabeta:ms=200".parse().unwrap();
    assert_eq!(timed_spec(&spec, 1500.0).get("ms"), Some("200"));
    let spec: PlayerSpec = "random".parse().unwrap();
    assert_eq!(timed_spec(&spec, 1500.0), spec, "random takes no ms option");
}
