//! The player for hidden information: its belief always holds the true
//! state (seeded random games on the library's GDL-II games, the true
//! state known to the test, checked at every step for every role), and on
//! Monty Hall it switches, winning about two games in three (staying wins
//! one in three: the probability is the oracle).

use gdlkit::reasoner::{chance_role, draw_chance_move, random_index};
use gdlkit::search::hidden::Belief;
use gdlkit::search::matches::{run_match, MatchConfig};
use gdlkit::{load_game, parse_program, StateMachine};

fn game(name: &str) -> String {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// Plays `games` seeded random games of `name`; every role's belief is
/// advanced by its own move and percepts and must hold the true state
/// whenever it holds every consistent state. Returns the checks made.
fn beliefs_hold_the_truth(name: &str, games: u64) -> usize {
    let mut m = load_game(&game(name)).unwrap();
    let n = m.roles().len();
    let chance = chance_role(&m);
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut beliefs: Vec<Belief<_>> = (0..n)
            .map(|r| Belief::new(&mut m, r, seed).unwrap())
            .collect();
        let mut s = m.initial_state().unwrap();
        while !m.is_terminal(&s).unwrap() {
            let legal = m.all_legal_moves(&s).unwrap();
            let joint: Vec<_> = (0..n)
                .map(|r| match Some(r) == chance {
                    true => draw_chance_move(&m, &legal[r], &mut rng).unwrap(),
                    false => legal[r][random_index(&mut rng, legal[r].len())],
                })
                .collect();
            let seen = m.percepts(&s, &joint).unwrap();
            s = m.next_state(&s, &joint).unwrap();
            for (r, b) in beliefs.iter_mut().enumerate() {
                if Some(r) == chance {
                    continue;
                }
                b.observe(&mut m, joint[r], &seen[r]).unwrap();
                assert!(b.weights().iter().all(|&w| w > 0.0));
                if b.is_exact() {
                    assert!(
                        b.states().contains(&s),
                        "{name} seed {seed}: role {r} lost the true state after {} steps",
                        b.steps()
                    );
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn the_belief_always_holds_the_true_state() {
    for (name, games, floor) in [
        ("montyHall.kif", 30, 60),
        ("kuhnPoker.kif", 30, 60),
        ("blindTicTacToe.kif", 6, 30),
    ] {
        let checked = beliefs_hold_the_truth(name, games);
        assert!(
            checked >= floor,
            "{name}: only {checked} exact beliefs checked"
        );
    }
}

/// The lower end of the 95% Wilson interval of `wins` in `n`.
fn wilson_low(wins: usize, n: usize) -> f64 {
    let (n, p, z) = (n as f64, wins as f64 / n as f64, 1.96);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - spread) / (1.0 + z * z / n)
}

#[test]
fn hyperplay_switches_in_monty_hall() {
    let text = game("montyHall.kif");
    let program = parse_program(&text);
    let mut m = load_game(&text).unwrap();
    let specs = vec!["hyperplay:playouts=300".parse().unwrap()];
    let cfg = MatchConfig {
        games: 200,
        seed: 11,
        max_steps: 20,
    };
    let r = run_match(&program, &mut m, &specs, &cfg, &mut |_| {}).unwrap();
    let n = r.games.len();
    assert_eq!(n, 200, "every game ran");
    let wins = r.games.iter().filter(|g| g.goals[0] == 100).count();
    let low = wilson_low(wins, n);
    // Staying wins a third; a coin flip between the doors a half.
    assert!(
        wins as f64 / n as f64 >= 0.6 && low > 0.5,
        "{wins} wins in {n} (Wilson low {low:.3})"
    );
}

/// A step told as text (`observe_text`: `serve` and the page's players)
/// narrows the player's belief as the same step told as terms narrows a
/// belief; text that is no term is an error naming it.
#[test]
fn a_step_told_as_text_is_the_step_told_as_terms() {
    use gdlkit::search::hidden::{observe_text, Hyperplay};
    use gdlkit::search::mcts;
    let mut m = load_game(&game("montyHall.kif")).unwrap();
    let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    let candidate = roles.iter().position(|r| r == "candidate").unwrap();
    let chance = chance_role(&m).unwrap();
    let mut player = Hyperplay::new(mcts::Config::default(), 4, 1);
    let mut belief = Belief::new(&mut m, candidate, 1).unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut s = m.initial_state().unwrap();
    let mut steps = 0;
    while !m.is_terminal(&s).unwrap() {
        let legal = m.all_legal_moves(&s).unwrap();
        let mut joint = legal.iter().map(|l| l[0]).collect::<Vec<_>>();
        joint[chance] = draw_chance_move(&m, &legal[chance], &mut rng).unwrap();
        let seen = m.percepts(&s, &joint).unwrap();
        let own = m.terms().display(joint[candidate]);
        let texts: Vec<String> = seen[candidate]
            .iter()
            .map(|&p| m.terms().display(p))
            .collect();
        let (id, ids) = observe_text(&mut m, &mut player, candidate, &own, &texts).unwrap();
        assert_eq!((id, &ids), (joint[candidate], &seen[candidate]));
        belief
            .observe(&mut m, joint[candidate], &seen[candidate])
            .unwrap();
        let held = player.belief().unwrap();
        assert_eq!(
            (held.states(), held.steps()),
            (belief.states(), belief.steps())
        );
        s = m.next_state(&s, &joint).unwrap();
        steps += 1;
    }
    assert!(steps >= 3, "Monty Hall ended after {steps} steps");
    let err = observe_text(&mut m, &mut player, candidate, "(choose", &[]).unwrap_err();
    assert!(err.to_string().contains("(choose"), "{err}");
}

/// What Monty Hall's candidate knows after choosing door 1 and seeing door
/// 3 opened: its choice and the step for sure; the car behind door 2 with
/// chance 2/3 (the host had to open 3), behind door 1 with 1/3.
#[test]
fn the_candidate_knows_its_door_and_the_cars_chances() {
    use gdlkit::search::hidden::BeliefTracker;
    let mut m = load_game(&game("montyHall.kif")).unwrap();
    let steps = vec![
        ("(choose 1)".to_string(), vec![]),
        ("noop".to_string(), vec!["(opened 3)".to_string()]),
    ];
    let mut cache = None;
    let v = BeliefTracker::view(&mut cache, &mut m, 0, &steps).unwrap();
    assert!(v.exact);
    assert_eq!(v.states, 2);
    assert_eq!(
        v.known,
        ["(chosen 1)", "(closed 1)", "(closed 2)", "(step 3)"]
    );
    let chances: Vec<(&str, f64)> = v
        .uncertain
        .iter()
        .map(|u| (u.fluent.as_str(), u.chance))
        .collect();
    assert_eq!(chances.len(), 2, "{chances:?}");
    assert_eq!(chances[0].0, "(car 1)");
    assert!((chances[0].1 - 1.0 / 3.0).abs() < 1e-9, "{chances:?}");
    assert_eq!(chances[1].0, "(car 2)");
    assert!((chances[1].1 - 2.0 / 3.0).abs() < 1e-9, "{chances:?}");
    // A percept the rules cannot give is an error, and so is a move that
    // is no term; the next call starts again.
    let bad = vec![("(choose 1)".to_string(), vec!["(opened 1)".to_string()])];
    assert!(BeliefTracker::view(&mut cache, &mut m, 0, &bad).is_err());
    let garbled = vec![("(choose".to_string(), vec![])];
    let e = BeliefTracker::view(&mut cache, &mut m, 0, &garbled).unwrap_err();
    assert!(e.to_string().contains("step 1: move `(choose`"), "{e}");
    let again = BeliefTracker::view(&mut cache, &mut m, 0, &steps).unwrap();
    assert_eq!(again, v);
}

/// On every GDL-II library game, along seeded random games: an exact view
/// holds the true state (every known fluent is in it, every fluent of it
/// is known or uncertain), chances lie strictly between 0 and 1, and the
/// view kept step by step is the view computed from the whole history.
#[test]
fn a_seats_view_holds_the_true_state() {
    use gdlkit::search::hidden::BeliefTracker;
    let mut views = 0;
    for name in [
        "montyHall.kif",
        "kuhnPoker.kif",
        "blindTicTacToe.kif",
        "pig.kif",
        "meier.kif",
        "battleship.kif",
    ] {
        let mut m = load_game(&game(name)).unwrap();
        let n = m.roles().len();
        let chance = chance_role(&m);
        for seed in 0..3 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut caches: Vec<Option<BeliefTracker<_>>> = (0..n).map(|_| None).collect();
            let mut steps: Vec<Vec<(String, Vec<String>)>> = vec![Vec::new(); n];
            let mut s = m.initial_state().unwrap();
            let mut depth = 0;
            while !m.is_terminal(&s).unwrap() && depth < 12 {
                depth += 1;
                let legal = m.all_legal_moves(&s).unwrap();
                let joint: Vec<_> = (0..n)
                    .map(|r| match Some(r) == chance {
                        true => draw_chance_move(&m, &legal[r], &mut rng).unwrap(),
                        false => legal[r][random_index(&mut rng, legal[r].len())],
                    })
                    .collect();
                let seen = m.percepts(&s, &joint).unwrap();
                s = m.next_state(&s, &joint).unwrap();
                let truth: Vec<String> = m
                    .fluents(&s)
                    .iter()
                    .map(|&f| m.terms().display(f))
                    .collect();
                for r in (0..n).filter(|&r| Some(r) != chance) {
                    let own = m.terms().display(joint[r]);
                    let percepts = seen[r].iter().map(|&p| m.terms().display(p)).collect();
                    steps[r].push((own, percepts));
                    let v = BeliefTracker::view(&mut caches[r], &mut m, r, &steps[r]).unwrap();
                    assert!(
                        v.uncertain
                            .iter()
                            .all(|u| u.chance > 0.0 && u.chance < 1.0 + 1e-9),
                        "{name}: {v:?}"
                    );
                    if v.exact {
                        assert!(
                            v.known.iter().all(|f| truth.contains(f)),
                            "{name} seed {seed}: known {:?} not in {truth:?}",
                            v.known
                        );
                        assert!(
                            truth.iter().all(|f| v.known.contains(f)
                                || v.uncertain.iter().any(|u| &u.fluent == f)),
                            "{name} seed {seed}: a true fluent neither known nor uncertain"
                        );
                        let fresh = BeliefTracker::view(&mut None, &mut m, r, &steps[r]).unwrap();
                        assert_eq!(
                            fresh, v,
                            "{name} seed {seed}: step by step against the whole history"
                        );
                        views += 1;
                    }
                }
            }
        }
    }
    assert!(views >= 100, "only {views} exact views checked");
}

/// The lecture tree of Monty Hall from the start (minimax, traced): the
/// candidate's last choices fall into six information sets, one per
/// (chosen door, opened door), each of the two states that differ only in
/// where the car is; nodes in different sets differ in what it saw.
#[test]
fn a_traced_search_groups_what_the_candidate_cannot_tell_apart() {
    use gdlkit::search::report::{search_report, SearchOptions, Source};
    use gdlkit::trace::{Event, NodeKind};
    let text = game("montyHall.kif");
    let program = parse_program(&text);
    let mut m = gdlkit::engine::load_engine(&text, gdlkit::EngineChoice::Interpreter).unwrap();
    let o = SearchOptions {
        algorithm: "minimax".into(),
        depth: Some(3),
        role: Some("candidate".into()),
        trace: true,
        ..SearchOptions::default()
    };
    let r = search_report(
        Source::Game {
            label: "monty",
            program: &program,
            machine: &mut m,
            at: None,
        },
        &o,
    )
    .unwrap();
    // With the whole state in view the candidate always finds the car.
    assert_eq!(r.value, 100.0);
    let (events, states) = (r.events.unwrap(), r.states.unwrap());
    let enter = |id: u32| {
        events
            .iter()
            .find_map(|e| match e {
                Event::Enter {
                    node,
                    kind,
                    ply,
                    state,
                    ..
                } if *node == id => Some((*kind, *ply, &states[*state])),
                _ => None,
            })
            .unwrap()
    };
    let sets = r
        .information_sets
        .expect("a GDL-II game's trace has its information sets");
    assert_eq!(sets.len(), 6, "{sets:?}");
    let seen = |fluents: &Vec<String>| -> Vec<String> {
        fluents
            .iter()
            .filter(|f| f.starts_with("(chosen") || f.starts_with("(closed"))
            .cloned()
            .collect()
    };
    let mut views = Vec::new();
    for set in &sets {
        assert_eq!(set.len(), 2, "{set:?}");
        let [(k1, p1, s1), (k2, p2, s2)] = [enter(set[0]), enter(set[1])];
        assert_eq!((k1, k2, p1, p2), (NodeKind::Max, NodeKind::Max, 2, 2));
        assert_eq!(seen(s1), seen(s2), "what the candidate saw");
        assert_ne!(s1, s2, "the car is elsewhere");
        views.push(seen(s1));
    }
    views.sort();
    views.dedup();
    assert_eq!(views.len(), 6, "each set is another view");
    // A game without hidden information has none.
    let text = std::fs::read_to_string(format!(
        "{}/../../games/ticTacToe.kif",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let program = parse_program(&text);
    let mut m = gdlkit::engine::load_engine(&text, gdlkit::EngineChoice::Interpreter).unwrap();
    let o = SearchOptions {
        depth: Some(2),
        trace: true,
        ..SearchOptions::default()
    };
    let source = Source::Game {
        label: "ttt",
        program: &program,
        machine: &mut m,
        at: None,
    };
    assert!(search_report(source, &o)
        .unwrap()
        .information_sets
        .is_none());
}
