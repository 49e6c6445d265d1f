//! `gdlkit::solve` against known values and independent solvers written
//! here: tic-tac-toe's draw and state count, minichess's forced win, the
//! corpus' nim games against
//! their Sprague–Grundy values, a brute-force minimax on every state of
//! small games (random games written as GDL included, with cycles against
//! a naive fixpoint), connect-3 on a 4x3 board against a dedicated solver,
//! a one-player puzzle's plan against breadth-first search, and partial
//! solutions that claim nothing wrong.

use gdlkit::solve::{self, Concept, Limits, Solution, Value};
use gdlkit::{load_engine, Engine, EngineChoice, EngineState, StateMachine};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;

use crate::common::corpus;

fn game_text(name: &str) -> String {
    let path = corpus::root().join("games").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn engine(text: &str, choice: EngineChoice) -> Engine {
    load_engine(text, choice).unwrap_or_else(|d| panic!("{:?}", d.first()))
}

fn solved(text: &str, choice: EngineChoice) -> (Engine, Solution) {
    let e = engine(text, choice);
    let s = solve::solve(e.clone(), Limits::default()).unwrap_or_else(|r| panic!("{r}"));
    assert!(s.complete, "{:?}", s.stopped);
    (e, s)
}

#[test]
fn tic_tac_toe_is_a_draw_with_5478_states() {
    for choice in [EngineChoice::Auto, EngineChoice::Interpreter] {
        let (_, s) = solved(&game_text("ticTacToe.kif"), choice);
        assert_eq!(s.len(), 5478, "{choice:?}");
        assert_eq!(s.concept, Concept::ZeroSum);
        let v = s.initial().unwrap();
        assert_eq!(v.goals, vec![50, 50]);
        // A draw fills the board: nine marks.
        assert_eq!(v.moves_to_end, 9);
        let total: u64 = s.counts().iter().map(|(_, n)| n).sum();
        assert_eq!(total, 5478);
        assert!(
            s.counts().iter().all(|(v, _)| v.is_some()),
            "acyclic: all decided"
        );
    }
}

#[test]
fn minichess_is_a_forced_win_for_white() {
    // The library's minichess (a mate problem on a small board): white
    // wins under perfect play, and a brute-force minimax over its states
    // gives the same value and length.
    let (mut e, s) = solved(&game_text("minichess.kif"), EngineChoice::Auto);
    let v = s.initial().unwrap().clone();
    assert_eq!(v.goals, vec![100, 0], "white wins");
    let init = e.initial_state().unwrap();
    let b = brute_force(&mut e, &init, &mut HashMap::new());
    assert_eq!((b.goals, b.moves_to_end), (v.goals, v.moves_to_end));
}

/// The brute-force value of every reachable state: the mover (the role
/// with a choice; the first role of a one-role game) picks its best goal,
/// then the opponent's lowest, then the fewest moves when it gets more than
/// the opponent (or as much, being the first role), else the most.
fn brute_force(e: &mut Engine, s: &EngineState, memo: &mut HashMap<EngineState, Value>) -> Value {
    if let Some(v) = memo.get(s) {
        return v.clone();
    }
    let v = if e.is_terminal(s).unwrap() {
        let goals = e
            .goals(s)
            .unwrap()
            .iter()
            .map(|g| g.unwrap() as u8)
            .collect();
        Value {
            goals,
            moves_to_end: 0,
        }
    } else {
        let legal = e.all_legal_moves(s).unwrap();
        let mover = (0..legal.len()).find(|&r| legal[r].len() > 1).unwrap_or(0);
        let mut best: Option<(Value, (u8, u8, i64))> = None;
        for &m in &legal[mover] {
            let joint: Vec<_> = (0..legal.len())
                .map(|r| if r == mover { m } else { legal[r][0] })
                .collect();
            let next = e.next_state(s, &joint).unwrap();
            let mut v = brute_force(e, &next, memo);
            v.moves_to_end += 1;
            let key = rank(&v, mover);
            if best.as_ref().is_none_or(|(_, k)| key > *k) {
                best = Some((v, key));
            }
        }
        best.unwrap().0
    };
    memo.insert(s.clone(), v.clone());
    v
}

fn rank(v: &Value, mover: usize) -> (u8, u8, i64) {
    let own = v.goals[mover];
    let other = if v.goals.len() == 2 {
        v.goals[1 - mover]
    } else {
        0
    };
    let hurry = v.goals.len() == 1 || own > other || (own == other && mover == 0);
    let d = i64::from(v.moves_to_end);
    (own, u8::MAX - other, if hurry { -d } else { d })
}

/// Compares the solution with the brute force on every reachable state.
fn agrees_with_brute_force(text: &str, what: &str) {
    let (mut e, s) = solved(text, EngineChoice::Auto);
    let init = e.initial_state().unwrap();
    let mut memo = HashMap::new();
    brute_force(&mut e, &init, &mut memo);
    assert_eq!(memo.len(), s.len(), "{what}: reachable states");
    for (state, v) in &memo {
        assert_eq!(s.value_of(&mut e, state).as_ref(), Some(v), "{what}");
    }
}

#[test]
fn every_state_of_small_games_agrees_with_a_brute_force() {
    for name in ["ticTacToe.kif", "nim.kif"] {
        agrees_with_brute_force(&game_text(name), name);
    }
    agrees_with_brute_force(&connect3_gdl(), "connect-3 4x3");
}

/// A random game on `n` nodes as GDL: node `i` belongs to a role (or is
/// terminal with goals) and has edges to later nodes (and, with `cycles`,
/// to earlier ones).
fn random_game(
    rng: &mut fastrand::Rng,
    n: usize,
    roles: usize,
    zero_sum: bool,
    cycles: bool,
) -> String {
    let names = ["a", "b"];
    let mut t = String::new();
    for r in &names[..roles] {
        t += &format!("(role {r})\n");
    }
    t += "(init (at n0))\n";
    let goals = [0, 25, 50, 75, 100];
    for i in 0..n {
        let last = i + 1 == n;
        if last || (i > 0 && rng.u8(..4) == 0) {
            t += &format!("(term n{i})\n");
            let g0 = goals[rng.usize(..5)];
            let g1 = if zero_sum {
                100 - g0
            } else {
                goals[rng.usize(..5)]
            };
            for (r, g) in names[..roles].iter().zip([g0, g1]) {
                t += &format!("(gv n{i} {r} {g})\n");
            }
            continue;
        }
        t += &format!("(owner n{i} {})\n", names[rng.usize(..roles)]);
        let mut targets: HashSet<usize> = HashSet::new();
        for _ in 0..1 + rng.usize(..3) {
            targets.insert(rng.usize(i + 1..n));
        }
        if cycles && rng.u8(..3) == 0 {
            targets.insert(rng.usize(..=i));
        }
        for j in targets {
            t += &format!("(edge n{i} n{j})\n");
        }
    }
    t += "
        (<= (legal ?p (go ?y)) (true (at ?x)) (owner ?x ?p) (edge ?x ?y))
        (<= (legal ?p noop) (role ?p) (true (at ?x)) (owner ?x ?q) (distinct ?p ?q))
        (<= (next (at ?y)) (does ?p (go ?y)))
        (<= terminal (true (at ?x)) (term ?x))
        (<= (goal ?p ?g) (true (at ?x)) (gv ?x ?p ?g))
    ";
    t
}

#[test]
fn random_acyclic_games_agree_with_a_brute_force() {
    let mut rng = fastrand::Rng::with_seed(25);
    let mut games = 0;
    for round in 0..60 {
        let roles = 1 + round % 2;
        let zero_sum = round % 3 != 0;
        let n = 4 + rng.usize(..20);
        let text = random_game(&mut rng, n, roles, zero_sum, false);
        agrees_with_brute_force(&text, &text);
        games += 1;
    }
    assert_eq!(games, 60);
}

/// The first role's value by the definition, computed naively: repeated
/// sweeps until nothing changes of "the first role can force the end with
/// at least t" and "the second can force it with at most t"; a value where
/// the two meet.
fn naive_cyclic_values(e: &mut Engine) -> HashMap<EngineState, Option<u8>> {
    let init = e.initial_state().unwrap();
    let mut states = vec![init.clone()];
    let mut seen: HashSet<EngineState> = HashSet::from([init]);
    let mut info = Vec::new(); // (terminal goal of a, mover, successors)
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        if e.is_terminal(&s).unwrap() {
            info.push((Some(e.goals(&s).unwrap()[0].unwrap() as u8), 0, vec![]));
        } else {
            let legal = e.all_legal_moves(&s).unwrap();
            let mover = (0..legal.len()).find(|&r| legal[r].len() > 1).unwrap_or(0);
            let mut succ = Vec::new();
            for &m in &legal[mover] {
                let joint: Vec<_> = (0..legal.len())
                    .map(|r| if r == mover { m } else { legal[r][0] })
                    .collect();
                let next = e.next_state(&s, &joint).unwrap();
                if seen.insert(next.clone()) {
                    states.push(next.clone());
                }
                succ.push(next);
            }
            info.push((None, mover, succ));
        }
        i += 1;
    }
    let pos: HashMap<EngineState, usize> = states.iter().cloned().zip(0..).collect();
    let forces = |role: usize, good: &dyn Fn(u8) -> bool| {
        let mut win = vec![false; states.len()];
        loop {
            let mut changed = false;
            for (k, (goal, mover, succ)) in info.iter().enumerate() {
                let w = match goal {
                    Some(g) => good(*g),
                    None if *mover == role => succ.iter().any(|s| win[pos[s]]),
                    None => succ.iter().all(|s| win[pos[s]]),
                };
                if w && !win[k] {
                    win[k] = true;
                    changed = true;
                }
            }
            if !changed {
                return win;
            }
        }
    };
    let mut out = HashMap::new();
    let lo: Vec<Vec<bool>> = (0..=100).map(|t| forces(0, &|g| g >= t)).collect();
    let hi: Vec<Vec<bool>> = (0..=100).map(|t| forces(1, &|g| g <= t)).collect();
    for (k, s) in states.iter().enumerate() {
        let best_lo = (0..=100u8).rev().find(|&t| lo[t as usize][k]);
        let best_hi = (0..=100u8).find(|&t| hi[t as usize][k]);
        let v = match (best_lo, best_hi) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        };
        out.insert(s.clone(), v);
    }
    out
}

#[test]
fn random_zero_sum_games_with_cycles_agree_with_a_naive_fixpoint() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut unknown = 0;
    for _ in 0..40 {
        let n = 4 + rng.usize(..14);
        let text = random_game(&mut rng, n, 2, true, true);
        let (mut e, s) = solved(&text, EngineChoice::Auto);
        let naive = naive_cyclic_values(&mut e);
        assert_eq!(naive.len(), s.len(), "{text}");
        for (state, v) in &naive {
            let got = s.value_of(&mut e, state).map(|v| v.goals[0]);
            assert_eq!(got, *v, "{text}");
            unknown += usize::from(v.is_none());
        }
    }
    // Some positions really repeat for ever (the case is exercised).
    assert!(unknown > 0);
}

/// Connect three in a row on 4 columns x 3 rows, pieces falling down.
fn connect3_gdl() -> String {
    "
    (role red) (role black)
    (init (control red))
    (col 1) (col 2) (col 3) (col 4) (row 1) (row 2) (row 3)
    (succ 1 2) (succ 2 3) (succ 3 4)
    (<= (full ?c) (col ?c) (true (cell ?c 3 ?x)))
    (<= (filled ?c ?r) (true (cell ?c ?r ?x)))
    (<= (lands ?c 1) (col ?c) (not (filled ?c 1)))
    (<= (lands ?c ?r2) (filled ?c ?r1) (succ ?r1 ?r2) (row ?r2) (not (filled ?c ?r2)))
    (<= (legal ?p (drop ?c)) (true (control ?p)) (col ?c) (not (full ?c)))
    (<= (legal red noop) (true (control black)))
    (<= (legal black noop) (true (control red)))
    (<= (next (cell ?c ?r ?p)) (does ?p (drop ?c)) (lands ?c ?r))
    (<= (next (cell ?c ?r ?x)) (true (cell ?c ?r ?x)))
    (<= (next (control black)) (true (control red)))
    (<= (next (control red)) (true (control black)))
    (<= (line ?p) (true (cell ?c1 ?r ?p)) (succ ?c1 ?c2) (true (cell ?c2 ?r ?p))
        (succ ?c2 ?c3) (true (cell ?c3 ?r ?p)))
    (<= (line ?p) (true (cell ?c ?r1 ?p)) (succ ?r1 ?r2) (true (cell ?c ?r2 ?p))
        (succ ?r2 ?r3) (true (cell ?c ?r3 ?p)))
    (<= (line ?p) (true (cell ?c1 ?r1 ?p)) (succ ?c1 ?c2) (succ ?r1 ?r2)
        (true (cell ?c2 ?r2 ?p)) (succ ?c2 ?c3) (succ ?r2 ?r3) (true (cell ?c3 ?r3 ?p)))
    (<= (line ?p) (true (cell ?c1 ?r1 ?p)) (succ ?c1 ?c2) (succ ?r2 ?r1)
        (true (cell ?c2 ?r2 ?p)) (succ ?c2 ?c3) (succ ?r3 ?r2) (true (cell ?c3 ?r3 ?p)))
    (<= open (col ?c) (not (full ?c)))
    (<= terminal (line ?p))
    (<= terminal (not open))
    (<= (goal ?p 100) (line ?p))
    (<= (goal ?p 0) (role ?p) (line ?q) (distinct ?p ?q))
    (<= (goal ?p 50) (role ?p) (not (line red)) (not (line black)))
    "
    .to_string()
}

/// A board: `cells[c][r]`, 0 empty, 1 red, 2 black.
type Board = [[u8; 3]; 4];

fn has_line(b: &Board, p: u8) -> bool {
    let at = |c: i32, r: i32| {
        (0..4).contains(&c) && (0..3).contains(&r) && b[c as usize][r as usize] == p
    };
    (0..4).any(|c| {
        (0..3).any(|r| {
            [(1, 0), (0, 1), (1, 1), (1, -1)]
                .iter()
                .any(|&(dc, dr)| (0..3).all(|k| at(c + k * dc, r + k * dr)))
        })
    })
}

/// Negamax with the solver's pace rule: (score for the side to move:
/// 1 win, 0 draw, -1 loss; moves to the end).
fn connect3(b: &Board, red: bool, memo: &mut HashMap<(Board, bool), (i8, u32)>) -> (i8, u32) {
    if let Some(&v) = memo.get(&(*b, red)) {
        return v;
    }
    let (me, them) = if red { (1, 2) } else { (2, 1) };
    let v = if has_line(b, them) {
        (-1, 0)
    } else if has_line(b, me) {
        (1, 0)
    } else if b.iter().all(|col| col[2] != 0) {
        (0, 0)
    } else {
        let mut best: Option<(i8, u32)> = None;
        for c in 0..4 {
            let Some(r) = (0..3).find(|&r| b[c][r] == 0) else {
                continue;
            };
            let mut next = *b;
            next[c][r] = me;
            let (s, d) = connect3(&next, !red, memo);
            let (s, d) = (-s, d + 1);
            let hurry = s > 0 || (s == 0 && red);
            let key = |(s, d): (i8, u32)| (s, if hurry { -i64::from(d) } else { i64::from(d) });
            if best.is_none_or(|b| key((s, d)) > key(b)) {
                best = Some((s, d));
            }
        }
        best.unwrap()
    };
    memo.insert((*b, red), v);
    v
}

#[test]
fn connect3_on_4x3_agrees_with_a_dedicated_solver() {
    let (mut e, s) = solved(&connect3_gdl(), EngineChoice::Auto);
    let mut memo = HashMap::new();
    // Every reachable state of the game, read back as a board.
    let init = e.initial_state().unwrap();
    let mut queue = VecDeque::from([init.clone()]);
    let mut seen = HashSet::from([init]);
    while let Some(state) = queue.pop_front() {
        let mut board: Board = [[0; 3]; 4];
        let mut red = true;
        for f in e.fluents(&state) {
            let t = e.terms().display(f);
            let w: Vec<&str> = t
                .trim_matches(|c| c == '(' || c == ')')
                .split(' ')
                .collect();
            match w.as_slice() {
                ["cell", c, r, p] => {
                    let (c, r): (usize, usize) = (c.parse().unwrap(), r.parse().unwrap());
                    board[c - 1][r - 1] = if *p == "red" { 1 } else { 2 };
                }
                ["control", p] => red = *p == "red",
                _ => panic!("{t}"),
            }
        }
        let (score, depth) = connect3(&board, red, &mut memo);
        let mover = usize::from(!red);
        let mine = [0u8, 50, 100][(score + 1) as usize];
        let mut goals = vec![0u8; 2];
        goals[mover] = mine;
        goals[1 - mover] = 100 - mine;
        let got = s.value_of(&mut e, &state).unwrap();
        assert_eq!(
            (got.goals, got.moves_to_end),
            (goals, depth),
            "{board:?} red {red}"
        );
        if !e.is_terminal(&state).unwrap() {
            for joint in e.legal_joint_moves(&state).unwrap() {
                let next = e.next_state(&state, &joint).unwrap();
                if seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
    }
    assert_eq!(seen.len(), s.len());
}

fn nim_heaps(text: &str) -> Vec<(String, u32)> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("(init (heap "))
        .map(|rest| {
            let w: Vec<&str> = rest.trim_end_matches(')').split(' ').collect();
            (w[0].to_string(), w[1].parse().unwrap())
        })
        .collect()
}

/// The game with every `(init (heap X N))` lowered to at most `cap`.
fn cap_heaps(text: &str, cap: u32) -> String {
    text.lines()
        .map(|l| match l.trim().strip_prefix("(init (heap ") {
            Some(rest) => {
                let w: Vec<&str> = rest.trim_end_matches(')').split(' ').collect();
                let n: u32 = w[1].parse().unwrap();
                format!("(init (heap {} {}))", w[0], n.min(cap))
            }
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn corpus_nim_games_agree_with_sprague_grundy() {
    let Some(shared) = corpus::shared_or_skip("solve::corpus_nim_games_agree_with_sprague_grundy")
    else {
        return;
    };
    let mut checked = 0;
    for k in 1..=4 {
        let path: PathBuf = shared.join(format!("games/repository/nim{k}.kif"));
        // The rules of each corpus nim, from heaps of at most 6: their own
        // starts (heaps up to 25, 130,000 states of ~60 moves each) take
        // half a minute apiece and check the same rules.
        let text = cap_heaps(&std::fs::read_to_string(&path).unwrap(), 6);
        let heaps = nim_heaps(&text);
        assert_eq!(heaps.len(), 4, "{}", path.display());
        let (mut e, s) = solved(&text, EngineChoice::Auto);
        let roles: Vec<String> = s.roles.clone();
        // The rules' own goals at the empty heaps say the convention: in
        // misère nim the role to move there (who did not take the last
        // object) wins.
        let misere = {
            let mut fluents = vec![format!("(control {})", roles[0])];
            for (name, _) in &heaps {
                fluents.push(format!("(heap {name} 0)"));
            }
            let ids: Vec<_> = fluents
                .iter()
                .map(|f| gdlkit::program::parse_ground_term(e.terms_mut(), f).unwrap())
                .collect();
            let end = e.state_from_fluents(&ids);
            e.goals(&end).unwrap()[0] == Some(100)
        };
        // Every heap tuple with either role to move. Normal play: the mover
        // wins iff the xor of the heaps is not 0. Misère: the same while a
        // heap holds more than one, else iff the xor is 0.
        let mut found = 0;
        let mut tuple = vec![0u32; 4];
        loop {
            for (r, role) in roles.iter().enumerate() {
                let mut fluents = vec![format!("(control {role})")];
                for (h, (name, _)) in heaps.iter().enumerate() {
                    fluents.push(format!("(heap {name} {})", tuple[h]));
                }
                let ids: Vec<_> = fluents
                    .iter()
                    .map(|f| gdlkit::program::parse_ground_term(e.terms_mut(), f).unwrap())
                    .collect();
                let state = e.state_from_fluents(&ids);
                let Some(v) = s.value_of(&mut e, &state) else {
                    continue;
                };
                found += 1;
                let xor = tuple.iter().fold(0, |a, h| a ^ h);
                let mover_wins = if misere && tuple.iter().all(|&h| h <= 1) {
                    xor == 0
                } else {
                    xor != 0
                };
                assert_eq!(v.goals[r] == 100, mover_wins, "nim{k} {tuple:?} {role}");
            }
            // The next tuple below the initial heaps.
            let mut h = 0;
            while h < 4 && tuple[h] == heaps[h].1 {
                tuple[h] = 0;
                h += 1;
            }
            if h == 4 {
                break;
            }
            tuple[h] += 1;
        }
        assert_eq!(found, s.len(), "nim{k}: every solved state checked");
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// Breadth-first search of a one-player game: the best reachable goal and
/// the fewest moves to it.
fn bfs_plan(e: &mut Engine) -> (u8, u32) {
    let init = e.initial_state().unwrap();
    let mut dist = HashMap::from([(init.clone(), 0u32)]);
    let mut queue = VecDeque::from([init]);
    let mut best = (0u8, u32::MAX);
    let mut any = false;
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        if e.is_terminal(&s).unwrap() {
            let g = e.goals(&s).unwrap()[0].unwrap() as u8;
            if !any || g > best.0 || (g == best.0 && d < best.1) {
                best = (g, d);
                any = true;
            }
            continue;
        }
        for joint in e.legal_joint_moves(&s).unwrap() {
            let next = e.next_state(&s, &joint).unwrap();
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    best
}

#[test]
fn one_player_puzzles_have_the_breadth_first_plan() {
    for name in ["maze.kif", "buttonsAndLights.kif"] {
        let (mut e, s) = solved(&game_text(name), EngineChoice::Auto);
        assert_eq!(s.concept, Concept::OnePlayer);
        let (goal, moves) = bfs_plan(&mut e);
        let v = s.initial().unwrap();
        assert_eq!((v.goals[0], v.moves_to_end), (goal, moves), "{name}");
        // Following the best moves reaches that goal in that many moves.
        let mut state = e.initial_state().unwrap();
        let mut steps = 0;
        while !e.is_terminal(&state).unwrap() {
            let best = s.best_moves(&mut e, &state, 0).unwrap();
            state = e.next_state(&state, &[best[0].r#move]).unwrap();
            steps += 1;
        }
        assert_eq!(steps, moves, "{name}");
        assert_eq!(e.goals(&state).unwrap()[0], Some(i64::from(goal)));
    }
}

#[test]
fn a_tiny_time_limit_gives_a_partial_solution_that_claims_nothing_wrong() {
    let text = game_text("ticTacToe.kif");
    let (mut e, full) = solved(&text, EngineChoice::Auto);
    for seconds in [1e-9, 0.002, 0.02] {
        let limits = Limits {
            seconds,
            ..Limits::default()
        };
        let s = solve::solve(e.clone(), limits).unwrap();
        if s.complete {
            continue; // a fast machine may finish in 20 ms
        }
        assert!(s.stopped.as_deref().unwrap().contains("time limit"));
        let mut memo = HashMap::new();
        let init = e.initial_state().unwrap();
        brute_force(&mut e, &init, &mut memo);
        for (state, v) in &memo {
            if let Some(got) = s.value_of(&mut e, state) {
                assert_eq!(got.goals, v.goals);
            }
        }
        assert!(s.initial().is_none() || s.initial() == full.initial());
    }
    let s = solve::solve(
        e.clone(),
        Limits {
            seconds: 1e-9,
            ..Limits::default()
        },
    )
    .unwrap();
    assert!(!s.complete && s.initial().is_none());
}

#[test]
fn a_solution_file_loads_and_answers_for_the_same_engine() {
    let (mut e, s) = solved(&game_text("ticTacToe.kif"), EngineChoice::Auto);
    let back = solve::read_solution(&solve::write_solution(&s)).unwrap();
    let init = e.initial_state().unwrap();
    assert_eq!(back.value_of(&mut e, &init), s.initial());
    assert_eq!(back.counts(), s.counts());
}
