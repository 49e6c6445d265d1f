use super::*;
use crate::engine::{load_engine, EngineChoice, EngineState};
use crate::reasoner::content_keys::Key;

fn game(name: &str) -> String {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn solve_text(text: &str, choice: EngineChoice) -> Result<Solution, Refusal> {
    solve(load_engine(text, choice).expect("loads"), Limits::default())
}

#[test]
fn nim_345_is_a_first_player_win() {
    for choice in [EngineChoice::Fast, EngineChoice::Interpreter] {
        let s = solve_text(&game("nim.kif"), choice).unwrap();
        assert!(s.complete);
        assert_eq!(s.concept, Concept::ZeroSum);
        assert_eq!(s.initial().unwrap().goals, vec![100, 0], "{choice:?}");
        // (3+1)(4+1)(5+1) heap sizes times whose turn, at most.
        assert!(s.len() <= 240, "{}", s.len());
    }
}

#[test]
fn the_winning_moves_of_nim_leave_a_zero_xor() {
    let mut e = load_engine(&game("nim.kif"), EngineChoice::Auto).unwrap();
    let s = solve(e.clone(), Limits::default()).unwrap();
    let init = e.initial_state().unwrap();
    let best = s.best_moves(&mut e, &init, 0).unwrap();
    let names: Vec<String> = best.iter().map(|m| e.terms().display(m.r#move)).collect();
    // 3 xor 4 xor 5 = 2: the only move to a zero xor takes 2 from heap a.
    assert_eq!(names, vec!["(take a 2)"]);
    // The second role is not to move: no moves to rank.
    assert!(s.best_moves(&mut e, &init, 1).unwrap().is_empty());
}

#[test]
fn three_roles_are_refused() {
    let e = solve_text(&game("threePlayerTicTacToe.kif"), EngineChoice::Auto).unwrap_err();
    assert!(e.0.contains("3 roles"), "{e}");
}

/// The oracle for games where both roles choose: role 0's pure security
/// value (the most it can force, committing to one move first wherever it
/// chooses) and role 1's (the least it can hold role 0 to), by brute force
/// over the game tree of an acyclic game, memoised per state.
fn security(e: &mut Engine, s: &EngineState, memo: &mut FxHashMap<Key, [u8; 2]>) -> [u8; 2] {
    let key = e.state_key(s);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = if e.is_terminal(s).unwrap() {
        let g = e.goals(s).unwrap()[0].unwrap() as u8;
        [g, g]
    } else {
        let legal = e.all_legal_moves(s).unwrap();
        // Per move of role 0, per move of role 1: the successor's values.
        let mut table = Vec::new();
        for &a in &legal[0] {
            let row: Vec<[u8; 2]> = (legal[1].iter())
                .map(|&b| {
                    let next = e.next_state(s, &[a, b]).unwrap();
                    security(e, &next, memo)
                })
                .collect();
            table.push(row);
        }
        let cols = legal[1].len();
        let lo = (table.iter())
            .map(|row| row.iter().map(|v| v[0]).min().unwrap())
            .max()
            .unwrap();
        let hi = (0..cols)
            .map(|b| table.iter().map(|row| row[b][1]).max().unwrap())
            .min()
            .unwrap();
        [lo, hi]
    };
    memo.insert(key, v);
    v
}

/// Every state of a zero-sum game where both roles choose: the solver
/// values it exactly when the oracle's two security values meet, and a
/// player's solved move there secures the value whatever the other plays.
/// Returns (states valued, states unknown).
fn check_security_values(text: &str) -> (usize, usize) {
    let mut e = load_engine(text, EngineChoice::Auto).unwrap();
    let s = solve(e.clone(), Limits::default()).unwrap();
    assert!(s.complete);
    assert_eq!(s.concept, Concept::ZeroSum);
    assert!(s.stats.simultaneous > 0);
    let init = e.initial_state().unwrap();
    let mut memo = FxHashMap::default();
    security(&mut e, &init, &mut memo);
    assert_eq!(memo.len(), s.len(), "the oracle reached every state");
    let (mut valued, mut unknown) = (0, 0);
    let mut stack = vec![init];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(state) = stack.pop() {
        if !seen.insert(e.state_key(&state)) {
            continue;
        }
        let [lo, hi] = memo[&e.state_key(&state)];
        let got = s.value_of(&mut e, &state).map(|v| v.goals[0]);
        assert_eq!(got, (lo == hi).then_some(lo), "security values {lo}, {hi}");
        if got.is_some() {
            valued += 1
        } else {
            unknown += 1
        }
        if e.is_terminal(&state).unwrap() {
            continue;
        }
        let legal = e.all_legal_moves(&state).unwrap();
        let both = legal.iter().all(|m| m.len() > 1);
        for r in 0..2 {
            let m = s.solved_move(&mut e, &state, r).unwrap();
            if both && got.is_some() {
                let m = m.expect("a valued state where both choose has a securing move");
                for &o in &legal[1 - r] {
                    let joint = if r == 0 { [m, o] } else { [o, m] };
                    let next = e.next_state(&state, &joint).unwrap();
                    let v = s.value_of(&mut e, &next).unwrap().goals[r];
                    assert!(v >= s.value_of(&mut e, &state).unwrap().goals[r]);
                }
            } else if both {
                assert_eq!(m, None, "no value, no solved move");
            }
        }
        for &a in &legal[0] {
            for &b in &legal[1] {
                stack.push(e.next_state(&state, &[a, b]).unwrap());
            }
        }
    }
    (valued, unknown)
}

#[test]
fn where_both_roles_choose_a_state_has_a_value_at_a_pure_saddle_point() {
    // Three rounds of rock-paper-scissors: only the states whose outcome
    // is already settled have a value; the start has none (it is a mixed
    // equilibrium, worth 50 only in expectation).
    let (valued, unknown) = check_security_values(&game("rockPaperScissors.kif"));
    assert!(
        valued >= 50 && unknown >= 20,
        "{valued} valued, {unknown} unknown"
    );
    let s = solve_text(&game("rockPaperScissors.kif"), EngineChoice::Auto).unwrap();
    assert_eq!(s.initial(), None);
    // Goofspiel: most states are settled by one dominant bid.
    let (valued, unknown) = check_security_values(&game("goofspiel.kif"));
    assert!(
        valued >= 300 && unknown >= 1,
        "{valued} valued, {unknown} unknown"
    );
}

/// Both roles pick a number at once; role 0 wins when it picked the
/// larger, 2 beats everything: role 0 secures the win by picking 2.
const DOMINANT: &str = "
    (role a) (role b)
    (num 1) (num 2)
    (init (open))
    (<= (legal ?r (pick ?n)) (role ?r) (num ?n) (true (open)))
    (<= (next (picked ?r ?n)) (does ?r (pick ?n)))
    (<= terminal (not (true (open))))
    (<= won (true (picked a 2)))
    (<= won (true (picked a 1)) (true (picked b 1)))
    (<= (goal a 100) won)
    (<= (goal a 0) (not won))
    (<= (goal b 0) won)
    (<= (goal b 100) (not won))
";

#[test]
fn a_state_with_too_many_joint_moves_is_refused_at_once() {
    // 300 × 300 joint moves in the first state: refused with the counts,
    // before any of the 90,000 successors is made.
    let mut text = String::from(
        "(role a) (role b) (init (open))
         (<= (legal ?r (pick ?n)) (role ?r) (num ?n) (true (open)))
         (<= (next (picked ?r ?n)) (does ?r (pick ?n)))
         (<= terminal (not (true (open))))
         (goal a 50) (goal b 50)",
    );
    for n in 0..300 {
        text.push_str(&format!(" (num {n})"));
    }
    let e = solve_text(&text, EngineChoice::Auto).unwrap_err();
    assert!(e.0.contains("300 × 300 = 90000 joint moves"), "{e}");
}

#[test]
fn a_dominant_move_where_both_choose_is_the_solved_move() {
    check_security_values(DOMINANT);
    let mut e = load_engine(DOMINANT, EngineChoice::Auto).unwrap();
    let s = solve(e.clone(), Limits::default()).unwrap();
    let init = e.initial_state().unwrap();
    assert_eq!(s.initial().unwrap().goals, vec![100, 0]);
    let m = s.solved_move(&mut e, &init, 0).unwrap().unwrap();
    assert_eq!(e.terms().display(m), "(pick 2)");
    // Role 1 loses whatever it picks: every move secures its value 0.
    assert!(s.solved_move(&mut e, &init, 1).unwrap().is_some());
}

/// A counter that one role may move up or down for ever: 3 is a win for
/// the first role, 0 for the second; the second can always step back.
const CYCLE: &str = "
    (role a) (role b)
    (init (at 1)) (init (control a))
    (up 0 1) (up 1 2) (up 2 3)
    (<= (legal ?p (move ?y)) (true (control ?p)) (true (at ?x)) (up ?x ?y))
    (<= (legal ?p (move ?y)) (true (control ?p)) (true (at ?x)) (up ?y ?x))
    (<= (legal a noop) (true (control b)))
    (<= (legal b noop) (true (control a)))
    (<= (next (at ?y)) (does ?p (move ?y)))
    (<= (next (control b)) (true (control a)))
    (<= (next (control a)) (true (control b)))
    (<= terminal (true (at 3)))
    (<= terminal (true (at 0)))
    (<= (goal a 100) (true (at 3)))
    (<= (goal a 0) (true (at 0)))
    (<= (goal b 0) (true (at 3)))
    (<= (goal b 100) (true (at 0)))
";

#[test]
fn positions_that_repeat_for_ever_have_no_value() {
    let s = solve_text(CYCLE, EngineChoice::Auto).unwrap();
    assert!(s.complete);
    // a moves 1->2 (not 1->0, its loss), b moves back 2->1 (not 2->3):
    // neither can force an end, so only the two terminal states have values.
    assert_eq!(s.len(), 4);
    assert_eq!(s.initial(), None);
    let known: Vec<_> = s
        .counts()
        .into_iter()
        .filter(|(v, _)| v.is_some())
        .collect();
    assert_eq!(known.iter().map(|(_, n)| n).sum::<u64>(), 2, "{known:?}");
}

#[test]
fn a_solution_file_reads_back_the_same() {
    let s = solve_text(&game("nim.kif"), EngineChoice::Auto).unwrap();
    let text = write_solution(&s);
    let back = read_solution(&text).unwrap();
    assert_eq!(back.len(), s.len());
    assert_eq!(back.concept, s.concept);
    assert_eq!(back.roles, s.roles);
    for i in 0..s.len() {
        assert_eq!(back.value_at(i), s.value_at(i));
    }
    assert_eq!(back.lookup.keys(back.len()), s.lookup.keys(s.len()));
    // Damage is reported with its line.
    let bad = text.replacen(" 0\n", " x\n", 1);
    assert!(read_solution(&bad)
        .unwrap_err()
        .to_string()
        .starts_with("line "));
    assert!(read_solution("gdlkit-solution 9\n{}")
        .unwrap_err()
        .to_string()
        .contains("version 9"));
}

#[test]
fn a_tiny_state_limit_gives_a_partial_solution_with_proved_values_only() {
    let text = game("ticTacToe.kif");
    let full = solve_text(&text, EngineChoice::Auto).unwrap();
    for max_states in [1, 10, 300, 2000] {
        let e = load_engine(&text, EngineChoice::Auto).unwrap();
        let limits = Limits {
            max_states,
            ..Limits::default()
        };
        let s = solve(e, limits).unwrap();
        assert!(!s.complete && s.stopped.is_some());
        // The same breadth-first order: state i is state i of the full solve.
        assert_eq!(
            s.lookup.keys(s.len())[..],
            full.lookup.keys(full.len())[..s.len()]
        );
        for i in 0..s.len() {
            if let Some(v) = s.value_at(i) {
                assert_eq!(Some(v.goals), full.value_at(i).map(|v| v.goals));
            }
        }
    }
}

/// The state after `joints` (move texts per role) from the initial state.
fn after(e: &mut Engine, joints: &[[&str; 2]]) -> EngineState {
    let mut s = e.initial_state().unwrap();
    for joint in joints {
        let ids: Vec<TermId> = joint
            .iter()
            .map(|m| crate::program::parse_ground_term(e.terms_mut(), m).unwrap())
            .collect();
        s = e.next_state(&s, &ids).unwrap();
    }
    s
}

#[test]
fn a_position_gives_each_move_its_outcome_for_the_role_to_move() {
    let mut e = load_engine(&game("ticTacToe.kif"), EngineChoice::Auto).unwrap();
    let s = solve(e.clone(), Limits::default()).unwrap();
    let init = e.initial_state().unwrap();
    let p = s.position(&mut e, &init).unwrap();
    assert_eq!(
        (p.role, p.outcome, p.terminal),
        (Some(0), Some(Outcome::Draw), false)
    );
    assert_eq!(p.moves.len(), 9);
    // Every first move keeps the draw: all of them are best.
    assert!(p
        .moves
        .iter()
        .all(|m| m.outcome == Some(Outcome::Draw) && m.best));
    // x (1 1), o (2 2), x (3 3), o (1 3): only (3 1) stops o's diagonal,
    // and it makes two threats; every other move loses.
    let late = after(
        &mut e,
        &[
            ["(mark 1 1)", "noop"],
            ["noop", "(mark 2 2)"],
            ["(mark 3 3)", "noop"],
            ["noop", "(mark 1 3)"],
        ],
    );
    let p = s.position(&mut e, &late).unwrap();
    assert_eq!((p.role, p.outcome), (Some(0), Some(Outcome::Win)));
    let by: Vec<_> = p
        .moves
        .iter()
        .map(|m| (m.r#move.as_str(), m.outcome, m.best))
        .collect();
    assert_eq!(by.len(), 5);
    for (m, o, best) in by {
        let win = m == "(mark 3 1)";
        assert_eq!(
            o,
            Some(if win { Outcome::Win } else { Outcome::Loss }),
            "{m}"
        );
        assert_eq!(best, win, "{m}");
    }
    // A loss is the opponent's win: o wins at once after a wrong move.
    let loss = p
        .moves
        .iter()
        .find(|m| m.outcome == Some(Outcome::Loss))
        .unwrap();
    assert_eq!(loss.value.as_ref().unwrap().goals, vec![0, 100]);
    assert_eq!(loss.value.as_ref().unwrap().moves_to_end, 1);
}

#[test]
fn one_role_outcomes_are_the_goal_and_two_roles_compare_goals() {
    let v = |goals: Vec<u8>| Value {
        goals,
        moves_to_end: 0,
    };
    assert_eq!(outcome(&v(vec![100]), 0), Outcome::Win);
    assert_eq!(outcome(&v(vec![0]), 0), Outcome::Loss);
    assert_eq!(outcome(&v(vec![40]), 0), Outcome::Score);
    assert_eq!(outcome(&v(vec![60, 40]), 1), Outcome::Loss);
    assert_eq!(outcome(&v(vec![60, 40]), 0), Outcome::Win);
    assert_eq!(outcome(&v(vec![50, 50]), 1), Outcome::Draw);
}

/// The lowest goal `role` ends with when it plays `s.solved_move` and the
/// other role tries every legal move; `None` when the solution left one of
/// `role`'s choices unsettled.
fn worst_outcome(s: &Solution, e: &mut Engine, state: &EngineState, role: usize) -> Option<u8> {
    if e.is_terminal(state).unwrap() {
        return e.goals(state).unwrap()[role].map(|g| g as u8);
    }
    let legal = e.all_legal_moves(state).unwrap();
    if legal[role].len() > 1 {
        let m = s.solved_move(e, state, role).unwrap()?;
        assert!(legal[role].contains(&m));
        let joint: Vec<TermId> = (0..legal.len())
            .map(|r| if r == role { m } else { legal[r][0] })
            .collect();
        let next = e.next_state(state, &joint).unwrap();
        return worst_outcome(s, e, &next, role);
    }
    let other = 1 - role;
    let mut worst = u8::MAX;
    for &m in &legal[other] {
        let joint: Vec<TermId> = (0..legal.len())
            .map(|r| if r == other { m } else { legal[r][0] })
            .collect();
        let next = e.next_state(state, &joint).unwrap();
        worst = worst.min(worst_outcome(s, e, &next, role)?);
    }
    Some(worst)
}

#[test]
fn the_solved_moves_never_lose_a_solved_value_against_every_reply() {
    for name in ["ticTacToe.kif", "nim.kif", "hexapawn.kif"] {
        let mut e = load_engine(&game(name), EngineChoice::Auto).unwrap();
        let s = solve(e.clone(), Limits::default()).unwrap();
        assert!(s.complete, "{name}");
        let init = e.initial_state().unwrap();
        let value = s.initial().unwrap().goals;
        for (role, &goal) in value.iter().enumerate() {
            let worst = worst_outcome(&s, &mut e, &init, role)
                .unwrap_or_else(|| panic!("{name}: a choice of role {role} left open"));
            assert_eq!(worst, goal, "{name}, role {role}");
        }
    }
}

#[test]
fn a_partial_solution_plays_only_proved_wins() {
    // Connect three explored in part: near the start most moves are open,
    // so the solution settles nothing there, while a move it settles is a
    // proved win.
    let mut e = load_engine(&game("connectThree.kif"), EngineChoice::Auto).unwrap();
    let limits = Limits {
        max_states: 20_000,
        ..Limits::default()
    };
    let s = solve(e.clone(), limits).unwrap();
    assert!(!s.complete);
    let init = e.initial_state().unwrap();
    let moves = s.move_values(&mut e, &init, 0).unwrap();
    let open = moves.iter().any(|m| m.value.is_none());
    match s.solved_move(&mut e, &init, 0).unwrap() {
        Some(m) => {
            let v = moves.iter().find(|x| x.r#move == m).unwrap();
            assert!(!open || v.value.as_ref().unwrap().goals[0] == 100);
        }
        None => assert!(open, "every move valued, yet no move"),
    }
}
