//! GDL-II (`sees` and the `random` role) on the library's GDL-II games:
//! each checks without a diagnostic and plays to the end; the fast engine
//! agrees with the interpreter on legal moves, next states, goals and
//! percepts along seeded random playouts; percepts appear where the rules
//! put them, and on random small GDL-II games where a brute-force
//! semantics written in the test says; and Monty Hall's switching strategy
//! wins two times in three (the probability, not a recorded number, is the
//! oracle).

use gdlkit::engine::{Engine, EngineChoice, GroundBudget};
use gdlkit::reasoner::{chance_role, draw_chance_move};
use gdlkit::search::matches::{run_match, MatchConfig};
use gdlkit::terms::TermId;
use gdlkit::{check_text, parse_program, Interpreter, StateMachine};
use std::path::Path;

/// The library's GDL-II games: (name, text).
fn gdl2_games() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("games/").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "kif") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if parse_program(&text).is_gdl2() {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((name, text));
        }
    }
    out.sort();
    assert!(out.len() >= 4, "only {} GDL-II games", out.len());
    out
}

fn fast(text: &str) -> Engine {
    let program = parse_program(text);
    match Engine::from_program(&program, EngineChoice::Fast, GroundBudget::default()) {
        Ok(e @ Engine::Fast(_)) => e,
        Ok(e) => panic!("the fast engine was not built: {}", e.name()),
        Err(d) => panic!("{}", d[0].message),
    }
}

fn texts<M: StateMachine>(m: &M, ts: &[TermId]) -> Vec<String> {
    let mut v: Vec<String> = ts.iter().map(|&t| m.terms().display(t)).collect();
    v.sort();
    v
}

fn ids<M: StateMachine>(m: &mut M, moves: &[String]) -> Vec<TermId> {
    moves
        .iter()
        .map(|t| gdlkit::program::parse_ground_term(m.terms_mut(), t).unwrap())
        .collect()
}

#[test]
fn gdl2_games_check_clean_and_are_recognised() {
    for (name, text) in gdl2_games() {
        let diags = check_text(&text);
        assert!(diags.is_empty(), "{name}: {diags:?}");
        let it = Interpreter::new(&parse_program(&text)).unwrap();
        assert!(it.has_percepts(), "{name}: no percepts");
        assert!(fast(&text).has_percepts(), "{name}: no percepts (fast)");
    }
}

/// A GDL-I game: no percepts anywhere, no chance role.
#[test]
fn gdl1_games_have_no_percepts() {
    let text = include_str!("../../../../games/ticTacToe.kif");
    assert!(!parse_program(text).is_gdl2());
    let mut m = fast(text);
    assert!(!m.has_percepts() && chance_role(&m).is_none());
    let s = m.initial_state().unwrap();
    let joint: Vec<TermId> = m
        .all_legal_moves(&s)
        .unwrap()
        .iter()
        .map(|l| l[0])
        .collect();
    assert_eq!(m.percepts(&s, &joint).unwrap(), vec![Vec::new(); 2]);
}

/// Walks both engines side by side with seeded random joint moves (chosen
/// by text, so both make the same) and compares everything, percepts too.
/// Returns the states compared and the percepts seen.
fn compare(name: &str, text: &str, seed: u64, playouts: usize) -> (usize, usize) {
    let mut it = Interpreter::new(&parse_program(text)).unwrap();
    let mut fa = fast(text);
    let mut rng = fastrand::Rng::with_seed(seed);
    let (mut states, mut seen) = (0, 0);
    for p in 0..playouts {
        let (mut s, mut f) = (it.initial_state().unwrap(), fa.initial_state().unwrap());
        for step in 0..200 {
            let at = format!("{name} playout {p} step {step}");
            assert_eq!(
                texts(&it, &it.fluents(&s)),
                texts(&fa, &fa.fluents(&f)),
                "{at}: state"
            );
            let term = it.is_terminal(&s).unwrap();
            assert_eq!(term, fa.is_terminal(&f).unwrap(), "{at}: terminal");
            assert_eq!(
                it.goal_values(&s).unwrap(),
                fa.goal_values(&f).unwrap(),
                "{at}: goals"
            );
            let li: Vec<Vec<String>> = it
                .all_legal_moves(&s)
                .unwrap()
                .iter()
                .map(|l| texts(&it, l))
                .collect();
            let lf: Vec<Vec<String>> = fa
                .all_legal_moves(&f)
                .unwrap()
                .iter()
                .map(|l| texts(&fa, l))
                .collect();
            assert_eq!(li, lf, "{at}: legal");
            states += 1;
            if term {
                break;
            }
            assert!(
                li.iter().all(|l| !l.is_empty()),
                "{at}: a role without moves"
            );
            let pick: Vec<String> = li.iter().map(|l| l[rng.usize(..l.len())].clone()).collect();
            let (ji, jf) = (ids(&mut it, &pick), ids(&mut fa, &pick));
            let pi = it.percepts(&s, &ji).unwrap();
            let pf = fa.percepts(&f, &jf).unwrap();
            let pi: Vec<Vec<String>> = pi
                .iter()
                .map(|l| l.iter().map(|&t| it.terms().display(t)).collect())
                .collect();
            let pf: Vec<Vec<String>> = pf
                .iter()
                .map(|l| l.iter().map(|&t| fa.terms().display(t)).collect())
                .collect();
            assert_eq!(pi, pf, "{at}: percepts after {pick:?}");
            // Listed sorted by text.
            for l in &pi {
                assert!(l.windows(2).all(|w| w[0] < w[1]), "{at}: {l:?} not sorted");
            }
            seen += pi.iter().map(Vec::len).sum::<usize>();
            s = it.next_state(&s, &ji).unwrap();
            f = fa.next_state(&f, &jf).unwrap();
        }
        assert!(
            it.is_terminal(&s).unwrap(),
            "{name} playout {p} did not end"
        );
    }
    (states, seen)
}

#[test]
fn fast_engine_agrees_with_interpreter_on_gdl2_games_percepts_included() {
    for (name, text) in gdl2_games() {
        let (states, seen) = compare(&name, &text, 11, 40);
        eprintln!("{name}: {states} states, {seen} percepts agree");
        assert!(states >= 40 * 3, "{name}: {states} states");
        assert!(seen >= 40, "{name}: only {seen} percepts in 40 games");
    }
}

/// Plays one game with seeded random moves on `m`, returning each step's
/// percepts (role order) and the joint moves as text.
fn play<M: StateMachine>(m: &mut M, seed: u64) -> (Vec<Vec<Vec<String>>>, Vec<Vec<String>>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut s = m.initial_state().unwrap();
    let (mut percepts, mut moves) = (Vec::new(), Vec::new());
    while !m.is_terminal(&s).unwrap() {
        let legal = m.all_legal_moves(&s).unwrap();
        let joint: Vec<TermId> = legal
            .iter()
            .map(|l| draw_chance_move(m, l, &mut rng).unwrap())
            .collect();
        let ps = m.percepts(&s, &joint).unwrap();
        percepts.push(
            ps.iter()
                .map(|l| l.iter().map(|&t| m.terms().display(t)).collect())
                .collect(),
        );
        moves.push(joint.iter().map(|&t| m.terms().display(t)).collect());
        s = m.next_state(&s, &joint).unwrap();
    }
    (percepts, moves)
}

/// The percepts the rules promise, checked against the moves made.
#[test]
fn percepts_are_where_the_rules_put_them() {
    let game = |n: &str| gdl2_games().into_iter().find(|g| g.0 == n).unwrap().1;
    for seed in 0..30 {
        // Monty Hall: at step 2 the candidate sees the opened door, which
        // is neither the car's nor the chosen one; at step 3 the car.
        let mut m = fast(&game("montyHall"));
        let (ps, mv) = play(&mut m, seed);
        assert_eq!(ps.len(), 3);
        let car = mv[0][1]
            .trim_start_matches("(hide_car ")
            .trim_end_matches(')')
            .to_string();
        let chosen = mv[0][0]
            .trim_start_matches("(choose ")
            .trim_end_matches(')')
            .to_string();
        assert_eq!(ps[0], vec![Vec::<String>::new(), vec![]]);
        let opened = mv[1][1]
            .trim_start_matches("(open_door ")
            .trim_end_matches(')')
            .to_string();
        assert!(opened != car && opened != chosen, "{mv:?}");
        assert_eq!(ps[1][0], vec![format!("(opened {opened})")]);
        assert_eq!(ps[2][0], vec![format!("(car {car})")]);
        assert!(
            ps.iter().all(|p| p[1].is_empty()),
            "chance perceives nothing"
        );

        // Kuhn poker: after the deal each player sees exactly its own card.
        let mut m = fast(&game("kuhnPoker"));
        let (ps, mv) = play(&mut m, seed);
        let deal: Vec<&str> = mv[0][2]
            .trim_start_matches("(deal ")
            .trim_end_matches(')')
            .split(' ')
            .collect();
        assert_eq!(ps[0][0], vec![format!("(your_card {})", deal[0])]);
        assert_eq!(ps[0][1], vec![format!("(your_card {})", deal[1])]);
        // Each later step: the other player sees the action taken.
        for (p, j) in ps.iter().zip(&mv).skip(1) {
            for (r, other) in [(0, 1), (1, 0)] {
                if j[r] != "noop" {
                    assert!(
                        p[other].contains(&format!("(did {} {})", ["first", "second"][r], j[r])),
                        "{p:?} {j:?}"
                    );
                }
            }
        }

        // Blind tic-tac-toe: the mover sees placed or taken, the other `moved`.
        let mut m = fast(&game("blindTicTacToe"));
        let (ps, mv) = play(&mut m, seed);
        for (p, j) in ps.iter().zip(&mv) {
            let mover = usize::from(j[0] == "noop");
            let cell = j[mover].trim_start_matches("(mark ").trim_end_matches(')');
            let own = &p[mover];
            assert!(
                *own == vec![format!("(marked {cell})")]
                    || *own == vec![format!("(occupied {cell})")],
                "{own:?} for {j:?}"
            );
            assert_eq!(p[1 - mover], vec!["moved".to_string()]);
        }
    }
}

/// Monty Hall: the candidate picks a random door and then switches (or
/// stays) over many seeded games, chance drawn by `draw_chance_move`;
/// switching wins with probability 2/3, staying 1/3, each within its 99%
/// interval over 20,000 games (± 0.0086).
#[test]
fn monty_hall_switching_wins_two_thirds() {
    let text = gdl2_games()
        .into_iter()
        .find(|g| g.0 == "montyHall")
        .unwrap()
        .1;
    let mut m = fast(&text);
    let chance = chance_role(&m).expect("random is a role");
    let mut rng = fastrand::Rng::with_seed(2026);
    let n = 20_000;
    for (policy, p) in [("switch", 2.0 / 3.0), ("stay", 1.0 / 3.0)] {
        let mut wins = 0;
        for _ in 0..n {
            let mut s = m.initial_state().unwrap();
            while !m.is_terminal(&s).unwrap() {
                let legal = m.all_legal_moves(&s).unwrap();
                let mut joint = Vec::new();
                for (r, l) in legal.iter().enumerate() {
                    let named = l.iter().find(|&&t| m.terms().display(t) == policy);
                    joint.push(match named {
                        Some(&t) if r != chance => t,
                        _ => draw_chance_move(&m, l, &mut rng).unwrap(),
                    });
                }
                s = m.next_state(&s, &joint).unwrap();
            }
            wins += usize::from(m.goals(&s).unwrap()[1 - chance] == Some(100));
        }
        // Within the 99% interval of the true probability.
        let rate = wins as f64 / n as f64;
        let half = 2.576 * (p * (1.0 - p) / n as f64).sqrt();
        eprintln!("{policy}: {wins}/{n} = {rate:.4} (expected {p:.4} ± {half:.4})");
        assert!((rate - p).abs() < half, "{policy}: {rate}");
    }
}

/// `run_match` seats players only at the other roles, draws `random`'s
/// moves from the seed (the same deals on both engines, whose legal move
/// orders differ) and records the percepts of every step.
#[test]
fn matches_draw_chance_and_record_percepts() {
    let text = gdl2_games()
        .into_iter()
        .find(|g| g.0 == "kuhnPoker")
        .unwrap()
        .1;
    let program = parse_program(&text);
    let specs: Vec<gdlkit::PlayerSpec> = ["legal", "legal"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let cfg = MatchConfig {
        games: 12,
        seed: 5,
        max_steps: 100,
    };
    let mut f = fast(&text);
    let a = run_match(&program, &mut f, &specs, &cfg, &mut |_| {}).unwrap();
    let mut it =
        Engine::from_program(&program, EngineChoice::Interpreter, GroundBudget::default()).unwrap();
    let b = run_match(&program, &mut it, &specs, &cfg, &mut |_| {}).unwrap();
    let mut deals = std::collections::BTreeSet::new();
    for (x, y) in a.games.iter().zip(&b.games) {
        let (px, py) = (x.percepts.as_ref(), y.percepts.as_ref());
        assert_eq!(px.map(|p| &p[0]), py.map(|p| &p[0]), "the same deal");
        assert_eq!(x.seats[2], 2, "no player sits at random");
        let ps = x.percepts.as_ref().expect("percepts recorded");
        assert_eq!(ps.len(), x.steps);
        deals.insert(ps[0].clone());
        assert!(
            x.terminal && x.goals[0] + x.goals[1] == 100,
            "{:?}",
            x.goals
        );
    }
    assert!(deals.len() >= 3, "chance dealt only {deals:?}");
    assert_eq!(a.players.len(), 2);
    assert!(run_match(&program, &mut f, &specs[..1], &cfg, &mut |_| {}).is_err());
    // A GDL-I match records no percepts.
    let ttt = include_str!("../../../../games/ticTacToe.kif");
    let mut m = fast(ttt);
    let r = run_match(
        &parse_program(ttt),
        &mut m,
        &specs,
        &MatchConfig { games: 2, ..cfg },
        &mut |_| {},
    )
    .unwrap();
    assert!(r.games.iter().all(|g| g.percepts.is_none()));
}

/// A replay gives each step after the first the percepts of the joint move
/// that led to it; the conformance JSON has them for GDL-II games only.
#[test]
fn replays_carry_percepts_for_gdl2_games_only() {
    let text = gdl2_games()
        .into_iter()
        .find(|g| g.0 == "montyHall")
        .unwrap()
        .1;
    let moves: Vec<Vec<String>> = [
        ["(choose 1)", "(hide_car 2)"],
        ["noop", "(open_door 3)"],
        ["switch", "noop"],
    ]
    .iter()
    .map(|j| j.iter().map(|m| m.to_string()).collect())
    .collect();
    for mut m in [
        fast(&text),
        Engine::from_program(
            &parse_program(&text),
            EngineChoice::Interpreter,
            GroundBudget::default(),
        )
        .unwrap(),
    ] {
        let r = gdlkit::replay::replay(&mut m, &moves).unwrap();
        let ps: Vec<_> = r.steps.iter().map(|s| s.percepts.clone()).collect();
        let none: Vec<String> = Vec::new();
        assert_eq!(ps[0], None);
        assert_eq!(ps[1], Some(vec![none.clone(), none.clone()]));
        assert_eq!(
            ps[2],
            Some(vec![vec!["(opened 3)".to_string()], none.clone()])
        );
        assert_eq!(ps[3], Some(vec![vec!["(car 2)".to_string()], none]));
        assert_eq!(r.steps[3].goals[0], vec![100], "switching to door 2 wins");
        let json = r.to_json();
        assert!(json["steps"][0].get("percepts").is_none());
        assert_eq!(json["steps"][2]["percepts"]["candidate"][0], "(opened 3)");
    }
    let ttt = include_str!("../../../../games/ticTacToe.kif");
    let r = gdlkit::replay::replay(&mut fast(ttt), &[vec!["(mark 1 1)".into(), "noop".into()]])
        .unwrap();
    assert!(r.to_json()["steps"][1].get("percepts").is_none());
}

/// One random `sees` rule of a generated game, as the test itself reads
/// it (the brute-force semantics below) and as KIF.
#[derive(Clone, Debug)]
enum SeesRule {
    /// `viewer` sees `mover`'s move: `(moved M)`.
    Move { viewer: usize, mover: usize },
    /// `viewer` sees `(lit I)` while lamp I is on and `mover` plays `(flip J)`.
    Lamp {
        viewer: usize,
        lamp: usize,
        mover: usize,
        flip: usize,
    },
    /// `viewer` sees `(dark I)` while lamp I is off.
    Dark { viewer: usize, lamp: usize },
    /// Every player role sees chance's move: `(drawn M)`.
    Chance,
}

/// Roles `a`, `b` and `random`; lamps 0..LAMPS; each player flips a lamp
/// or waits, chance flips a lamp, a lamp is on when flipped an odd number
/// of times in one step; four steps.
const LAMPS: usize = 3;
const ROLES: [&str; 3] = ["a", "b", "random"];

fn sees_kif(rule: &SeesRule) -> String {
    match *rule {
        SeesRule::Move { viewer, mover } => format!(
            "(<= (sees {} (moved ?m)) (does {} ?m))",
            ROLES[viewer], ROLES[mover]
        ),
        SeesRule::Lamp {
            viewer,
            lamp,
            mover,
            flip,
        } => format!(
            "(<= (sees {} (lit {lamp})) (true (on {lamp})) (does {} (flip {flip})))",
            ROLES[viewer], ROLES[mover]
        ),
        SeesRule::Dark { viewer, lamp } => format!(
            "(<= (sees {} (dark {lamp})) (not (true (on {lamp}))))",
            ROLES[viewer]
        ),
        SeesRule::Chance => {
            "(<= (sees ?r (drawn ?m)) (role ?r) (distinct ?r random) (does random ?m))".into()
        }
    }
}

/// A random small GDL-II game: its `sees` rules and its text.
fn random_gdl2_game(rng: &mut fastrand::Rng) -> (Vec<SeesRule>, String) {
    let rules: Vec<SeesRule> = (0..rng.usize(1..=4))
        .map(|_| match rng.usize(0..4) {
            0 => SeesRule::Move {
                viewer: rng.usize(0..2),
                mover: rng.usize(0..3),
            },
            1 => SeesRule::Lamp {
                viewer: rng.usize(0..2),
                lamp: rng.usize(0..LAMPS),
                mover: rng.usize(0..3),
                flip: rng.usize(0..LAMPS),
            },
            2 => SeesRule::Dark {
                viewer: rng.usize(0..2),
                lamp: rng.usize(0..LAMPS),
            },
            _ => SeesRule::Chance,
        })
        .collect();
    let mut kif = String::from("(role a) (role b) (role random)\n(init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)\n");
    for i in 0..LAMPS {
        kif += &format!("(lamp {i})\n");
    }
    kif += "(<= (legal ?r wait) (role ?r) (distinct ?r random))
(<= (legal ?r (flip ?i)) (role ?r) (lamp ?i))
(<= (flipped ?i ?r) (does ?r (flip ?i)))
(<= (odd ?i) (lamp ?i) (flipped ?i a) (not (flipped ?i b)) (not (flipped ?i random)))
(<= (odd ?i) (lamp ?i) (flipped ?i b) (not (flipped ?i a)) (not (flipped ?i random)))
(<= (odd ?i) (lamp ?i) (flipped ?i random) (not (flipped ?i a)) (not (flipped ?i b)))
(<= (odd ?i) (flipped ?i a) (flipped ?i b) (flipped ?i random))
(<= (next (on ?i)) (true (on ?i)) (not (odd ?i)))
(<= (next (on ?i)) (lamp ?i) (not (true (on ?i))) (odd ?i))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 4)))
(goal a 50) (goal b 50)\n";
    for r in &rules {
        kif += &sees_kif(r);
        kif.push('\n');
    }
    (rules, kif)
}

/// The brute-force semantics of a generated game: the lamps on after a
/// joint move, and each role's percepts (sorted, as the engines list them).
fn brute_step(
    rules: &[SeesRule],
    on: &[bool; LAMPS],
    joint: &[String; 3],
) -> ([bool; LAMPS], Vec<Vec<String>>) {
    let flip_of = |m: &str| {
        m.strip_prefix("(flip ")
            .and_then(|x| x.strip_suffix(')'))
            .and_then(|x| x.parse::<usize>().ok())
    };
    let mut next = *on;
    for (i, lamp) in next.iter_mut().enumerate() {
        let flips = joint.iter().filter(|m| flip_of(m) == Some(i)).count();
        if flips % 2 == 1 {
            *lamp = !*lamp;
        }
    }
    let mut seen: Vec<Vec<String>> = vec![Vec::new(); 3];
    for r in rules {
        match *r {
            SeesRule::Move { viewer, mover } => {
                seen[viewer].push(format!("(moved {})", joint[mover]))
            }
            SeesRule::Lamp {
                viewer,
                lamp,
                mover,
                flip,
            } => {
                if on[lamp] && flip_of(&joint[mover]) == Some(flip) {
                    seen[viewer].push(format!("(lit {lamp})"));
                }
            }
            SeesRule::Dark { viewer, lamp } => {
                if !on[lamp] {
                    seen[viewer].push(format!("(dark {lamp})"));
                }
            }
            SeesRule::Chance => {
                for v in seen.iter_mut().take(2) {
                    v.push(format!("(drawn {})", joint[2]));
                }
            }
        }
    }
    for v in &mut seen {
        v.sort();
        v.dedup();
    }
    (next, seen)
}

/// Percepts against a brute-force GDL-II semantics written here, on 40
/// random small GDL-II games: along seeded random playouts both engines'
/// lamps and every role's percepts are the ones the test computes.
#[test]
fn percepts_of_random_gdl2_games_match_a_brute_force_semantics() {
    let mut rng = fastrand::Rng::with_seed(64);
    let (mut compared, mut percepts) = (0, 0);
    for g in 0..40 {
        let (rules, text) = random_gdl2_game(&mut rng);
        assert!(
            check_text(&text).iter().all(|d| !d.is_error()),
            "game {g}:\n{text}"
        );
        let mut engines: Vec<Engine> = vec![
            Engine::from_program(
                &parse_program(&text),
                EngineChoice::Interpreter,
                GroundBudget::default(),
            )
            .unwrap(),
            fast(&text),
        ];
        for m in &mut engines {
            let mut play = fastrand::Rng::with_seed(g);
            let mut on = [false; LAMPS];
            let mut s = m.initial_state().unwrap();
            while !m.is_terminal(&s).unwrap() {
                let legal = m.all_legal_moves(&s).unwrap();
                let pick: Vec<String> = legal
                    .iter()
                    .map(|l| texts(m, l)[play.usize(..l.len())].clone())
                    .collect();
                let joint = ids(m, &pick);
                let seen: Vec<Vec<String>> = m
                    .percepts(&s, &joint)
                    .unwrap()
                    .iter()
                    .map(|l| texts(m, l))
                    .collect();
                let (next, want) = brute_step(
                    &rules,
                    &on,
                    &[pick[0].clone(), pick[1].clone(), pick[2].clone()],
                );
                assert_eq!(
                    seen,
                    want,
                    "game {g} ({}) after {pick:?} with lamps {on:?}:\n{text}",
                    m.name()
                );
                percepts += seen.iter().map(Vec::len).sum::<usize>();
                s = m.next_state(&s, &joint).unwrap();
                on = next;
                let lit: Vec<bool> = (0..LAMPS)
                    .map(|i| texts(m, &m.fluents(&s)).contains(&format!("(on {i})")))
                    .collect();
                assert_eq!(lit, on, "game {g}: the lamps");
                compared += 1;
            }
        }
    }
    assert!(compared >= 300, "only {compared} steps compared");
    assert!(percepts >= 300, "only {percepts} percepts compared");
}
