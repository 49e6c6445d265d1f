use super::*;
use crate::reasoner::StateMachine;
use crate::terms::kw;

const TIC_TAC_TOE: &str = include_str!("../../../../../games/ticTacToe.kif");
const CHESS: &str = include_str!("../../../../../games/chess.kif");

/// A game of three ground rules and a handful of facts.
const TINY: &str = "(role p) (init (at 1)) (succ 1 2)
(<= (legal p go) (true (at ?x)))
(<= (next (at ?y)) (does p go) (true (at ?x)) (succ ?x ?y))
(<= terminal (true (at 2)))
(<= (goal p 100) (true (at 2)))";

fn ground_tic_tac_toe() -> (Program, GroundProgram, GroundReport) {
    let program = crate::parse_program(TIC_TAC_TOE);
    let gp = ground_program(&program, Budget::default()).expect("ticTacToe grounds");
    let r = report(&program, TIC_TAC_TOE, Budget::default());
    (program, gp, r)
}

/// The report's counts are the grounded program's atoms, counted here
/// from the atoms themselves: program relations by their id in the
/// compiled graph, `true` tables by the base fluents' functors.
#[test]
fn tic_tac_toe_counts_are_the_grounded_atoms() {
    let (program, gp, r) = ground_tic_tac_toe();
    assert_eq!(r.outcome, Outcome::Grounded, "{:?}", r.stop);
    let it = Interpreter::new(&program).expect("valid");
    let g = &it.compiled().graph;
    let reported = |name: &str| {
        r.relations
            .iter()
            .find(|c| c.relation == name)
            .map_or(0, |c| c.atoms)
    };
    let mut checked = 0;
    for (id, k) in g.rels.iter().enumerate() {
        let name = format!("{}/{}", it.terms().symbols.name(k.sym), k.arity);
        let direct = gp.atoms.rel.iter().filter(|&&r| r as usize == id).count();
        assert_eq!(reported(&name), direct, "{name}");
        checked += usize::from(direct > 0);
    }
    assert!(checked >= 5, "only {checked} relations have atoms");
    let cells = gp
        .fluents
        .iter()
        .filter(|&&f| gp.store.symbols.name(gp.store.functor(f)) == "cell")
        .count();
    assert!(cells >= 27, "{cells} cell fluents");
    assert_eq!(reported("true cell/3"), cells);
    let listed: usize = r.relations.iter().map(|c| c.atoms).sum();
    assert_eq!(listed + r.auxiliary_atoms, gp.atoms.len());
    let net = r.network.as_ref().expect("a network");
    assert_eq!(net.atoms, gp.atoms.len());
    assert_eq!(net.base, gp.fluents.len());
    assert!(net.gates > 0 && net.links > 0 && net.depth > 0, "{net:?}");
    assert!(g.id_of(kw::LEGAL, 2).is_some());
}

/// The top rules are sorted, name program relations with their line, and
/// account for every rule instance when they are all listed.
#[test]
fn tic_tac_toe_top_rules_are_sorted_and_complete() {
    let (_, gp, r) = ground_tic_tac_toe();
    assert!(r.top_rules.len() >= 3, "{:?}", r.top_rules);
    for w in r.top_rules.windows(2) {
        assert!(w[0].instances >= w[1].instances, "{:?}", r.top_rules);
    }
    for t in &r.top_rules {
        let first = TIC_TAC_TOE.lines().nth(t.line as usize - 1).unwrap_or("");
        let head = t.head.split('/').next().unwrap_or("");
        assert!(first.contains(head) || t.text.contains(head), "{t:?}");
        assert!(t.text.starts_with("(<="), "{t:?}");
    }
    let sum: usize = r.top_rules.iter().map(|t| t.instances).sum();
    if r.top_rules.len() < TOP_RULES {
        assert_eq!(sum, gp.inst.len() - gp.facts);
    } else {
        assert!(sum <= gp.inst.len() - gp.facts);
    }
    assert_eq!(r.ground_rule_count, gp.inst.len());
}

/// A small game's ground rules are listed, one per instance.
#[test]
fn a_small_game_lists_its_ground_rules() {
    let program = crate::parse_program(TINY);
    let r = report(&program, TINY, Budget::default());
    assert_eq!(r.outcome, Outcome::Grounded, "{:?}", r.stop);
    assert_eq!(r.ground_rules.len(), r.ground_rule_count);
    assert!(r.ground_rule_count >= 4, "{:?}", r.ground_rules);
    let has = |s: &str| r.ground_rules.iter().any(|g| g == s);
    assert!(
        has("(<= (legal p go) (true (at 1)))"),
        "{:?}",
        r.ground_rules
    );
    assert!(has("(<= terminal (true (at 2)))"), "{:?}", r.ground_rules);
    // The `next` rule's body is split: `succ` is static, the auxiliary
    // reads the `true` table.
    let next = r
        .ground_rules
        .iter()
        .find(|g| g.starts_with("(<= (next (at 2)) (does p go)"));
    assert!(next.is_some(), "{:?}", r.ground_rules);
}

/// Chess (the project's) within a budget too short for it (50 ms; it
/// grounds in about 0.7 s): the size estimate does not refuse it, the
/// grounder runs out of time; the stop names the reason and the
/// estimate's costliest rule with its line.
#[test]
fn chess_stops_with_its_reason_rule_and_line() {
    let program = crate::parse_program(CHESS);
    let budget = Budget {
        max_ms: 50.0,
        ..Budget::default()
    };
    let r = report(&program, CHESS, budget);
    assert_ne!(r.outcome, Outcome::Grounded);
    let stop = r.stop.expect("a stop");
    assert!(stop.reason.contains("50 milliseconds"), "{}", stop.reason);
    let (rule, line) = (stop.rule.expect("a rule"), stop.line.expect("a line"));
    assert!(
        stop.reason.contains(&format!("line {line}")),
        "{}",
        stop.reason
    );
    assert!(stop.reason.contains(&rule), "{}", stop.reason);
    let text = CHESS
        .lines()
        .nth(line as usize - 1)
        .expect("the line exists");
    let name = rule.split('/').next().expect("name/arity");
    assert!(text.contains(name), "line {line}: {text} (rule {rule})");
    assert!(r.network.is_none() && r.relations.is_empty());
}

/// A game the size estimate refuses is reported so, before grounding.
#[test]
fn a_game_over_the_estimate_is_refused() {
    let program = crate::parse_program(TIC_TAC_TOE);
    let budget = Budget {
        max_atoms: 1,
        max_literals: 1,
        ..Budget::default()
    };
    let r = report(&program, TIC_TAC_TOE, budget);
    assert_eq!(r.outcome, Outcome::Refused, "{:?}", r.stop);
    let stop = r.stop.expect("a stop");
    assert!(
        stop.reason.contains("estimated before instantiating"),
        "{}",
        stop.reason
    );
    let line = stop.line.expect("a line") as usize;
    let name = stop.rule.expect("a rule");
    let name = name.split('/').next().expect("name/arity");
    assert!(TIC_TAC_TOE
        .lines()
        .nth(line - 1)
        .unwrap_or("")
        .contains(name));
}

/// A game refused whole whose moves ground without its goal: the report
/// says so and gives the rest's network (the hybrid engine's), whose
/// relations include the moves but not the goal's.
#[test]
fn a_game_refused_whole_reports_the_hybrid_network() {
    let text = include_str!("../../../testdata/hybrid_game.kif");
    let program = crate::parse_program(text);
    let budget = Budget {
        max_literals: 5_000,
        max_atoms: 2_000,
        ..Budget::default()
    };
    let r = report(&program, text, budget);
    assert_eq!(r.outcome, Outcome::Refused, "{:?}", r.stop);
    assert_eq!(r.hybrid.as_deref(), Some("goal"));
    let stop = r.stop.expect("the whole game's stop");
    assert!(stop
        .rule
        .is_some_and(|rule| rule.starts_with("alldifferent")));
    let n = r.network.expect("the rest's network");
    assert!(n.atoms > 0 && n.atoms < 200, "{n:?}");
    let names: Vec<&str> = r.relations.iter().map(|c| c.relation.as_str()).collect();
    assert!(names.contains(&"legal/2"), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("alldifferent") || n.starts_with("goal")),
        "{names:?}"
    );
}

/// A static cross product (60^5 atoms, no literal in the network) is
/// refused for its atoms, and the stop blames the rule that makes them,
/// not the dynamic rule with the most literals.
#[test]
fn a_static_cross_product_is_blamed_for_its_atoms() {
    let nums: Vec<String> = (0..60).map(|i| format!("(num {i})")).collect();
    let game = [
        "(role a) (role b) (init (count 0))",
        &nums.join(" "),
        "(<= (big ?v ?w ?x ?y ?z) (num ?v) (num ?w) (num ?x) (num ?y) (num ?z))",
        "(<= (legal a (pick ?v)) (true (count ?v)) (big ?v ?w ?x ?y ?z))",
        "(legal b noop)",
        "(<= (next (count ?v)) (does a (pick ?v)))",
        "(<= terminal (true (count 59)))",
        "(goal a 100) (goal b 0)",
    ]
    .join("\n");
    let program = crate::parse_program(&game);
    let r = report(&program, &game, Budget::default());
    assert_eq!(r.outcome, Outcome::Refused, "{:?}", r.stop);
    let stop = r.stop.expect("a stop");
    assert_eq!(stop.rule.as_deref(), Some("big/5"), "{}", stop.reason);
    assert_eq!(stop.line, Some(3));
    let n = stop.estimated_instances.expect("instances");
    assert!((n / 60f64.powi(5) - 1.0).abs() < 0.01, "{n}");
    assert!(
        stop.reason.contains("the rule for big/5 at line 3"),
        "{}",
        stop.reason
    );
}

/// The report says what decomposition did, as the grounded program has it.
#[test]
fn the_report_counts_auxiliary_rules_and_exclusions() {
    const GAME: &str = include_str!("../../../testdata/exclusion_game.kif");
    let program = crate::parse_program(GAME);
    let gp = ground_program(&program, Budget::default()).expect("the game grounds");
    let r = report(&program, GAME, Budget::default());
    assert_eq!(r.outcome, Outcome::Grounded, "{:?}", r.stop);
    assert_eq!(r.exclusions, gp.exclusions);
    assert_eq!(r.auxiliary_rules, gp.aux_rules);
    assert!(
        r.exclusions >= 1 && r.auxiliary_rules >= r.exclusions,
        "{r:?}"
    );
}

/// The counting rules are reported, and their ground rules read "at least
/// k of" the members (one per role and rule).
#[test]
fn the_report_counts_counting_rules() {
    const GAME: &str = include_str!("../../../testdata/counting_game.kif");
    let r = report(&crate::parse_program(GAME), GAME, Budget::default());
    assert_eq!(r.outcome, Outcome::Grounded, "{:?}", r.stop);
    assert_eq!(r.counting_rules, 2);
    let counts = |k: &str| {
        let part = format!("(at_least {k} ");
        r.ground_rules.iter().filter(|g| g.contains(&part)).count()
    };
    assert_eq!((counts("2"), counts("3")), (2, 2), "{:?}", r.ground_rules);
}

/// The guards the engine kept are reported: five pancakes' flips each
/// guard their 120 orderings' ANDs (as `flips_guard_their_orderings_ands`
/// counts in the engine), and tic-tac-toe tries none.
#[test]
fn the_guards_kept_are_reported() {
    let text = include_str!("../../../testdata/guarded_game.kif");
    let r = report(&crate::parse_program(text), text, Budget::default());
    let n = r.network.expect("the pancakes ground");
    assert_eq!((n.guards, n.guarded_ands), (5, 5 * 120));
    assert!(n.guard_candidates >= n.guards, "{n:?}");
    let (_, _, r) = ground_tic_tac_toe();
    let n = r.network.expect("ticTacToe grounds");
    assert_eq!((n.guard_candidates, n.guards, n.guarded_ands), (0, 0, 0));
}

/// Two tic-tac-toe boards played at once: the report lists the boards as
/// subgames, each with both roles moving, counted here from the grounded
/// fluents and moves: a board's cells and control fluents, and the step
/// counter that both share; its marks for each role.
#[test]
fn two_boards_are_two_subgames() {
    const TWO_BOARDS: &str = include_str!("../../../testdata/two_boards_game.kif");
    let program = crate::parse_program(TWO_BOARDS);
    let r = report(&program, TWO_BOARDS, Budget::default());
    let net = r.network.as_ref().expect("a network");
    assert_eq!(net.subgames.len(), 2, "{net:?}");
    let gp = ground_program(&program, Budget::default()).expect("grounds");
    let texts: Vec<String> = gp.fluents.iter().map(|&f| gp.store.display(f)).collect();
    let shared = texts.iter().filter(|t| t.starts_with("(step")).count();
    assert!(shared >= 10, "{texts:?}");
    for (b, part) in (1..=2).zip(&net.subgames) {
        let own = texts
            .iter()
            .filter(|t| t.starts_with(&format!("(cell {b} ")) || t.ends_with(&format!(" {b})")))
            .filter(|t| !t.starts_with("(step"))
            .count();
        assert_eq!(own, 9 * 2 + 2, "board {b}'s cells and control");
        assert_eq!(part.movers, 2);
        // Every legal proposition is a mark on one board, by either role.
        assert_eq!(part.legals, 2 * 9);
        assert!(
            part.base == own + shared,
            "{part:?}: {own} own, {shared} shared"
        );
    }
    assert_eq!(
        net.subgames.iter().map(|p| p.legals).sum::<usize>(),
        net.legals
    );
    // One board is one game: ticTacToe has none.
    assert!(ground_tic_tac_toe()
        .2
        .network
        .expect("a network")
        .subgames
        .is_empty());
}
