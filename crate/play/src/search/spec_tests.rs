//! The player spec parser against the rules it replaced: every message
//! names the valid keys or values, `mcts-solver` is `mcts` with its presets
//! before the spec's own options, aliases lose to names.

use super::*;

fn err(text: &str) -> String {
    text.parse::<PlayerSpec>().unwrap_err().to_string()
}

fn mcts(text: &str) -> MctsSpec {
    match text.parse::<PlayerSpec>().unwrap() {
        PlayerSpec::Mcts(s) | PlayerSpec::MctsSolver(s) => s,
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unknown_option_lists_the_players_options() {
    let list = "ms, playouts, nodes, c, threads, cores, greedy, solver, ponder, eval, tactics, transpositions, choke, subgames";
    for name in ["mcts", "mcts-solver", "uct", "MCTS"] {
        assert_eq!(
            err(&format!("{name}:bogus=1")),
            format!("player `mcts` has no option `bogus` (options: {list})")
        );
    }
    assert_eq!(
        err("alphabeta:x=1"),
        "player `alphabeta` has no option `x` (options: depth, ms, nodes, heuristic, mode, threads, cores)"
    );
    assert_eq!(
        err("random:ms=1"),
        "player `random` has no option `ms` (options: )"
    );
    assert_eq!(
        err("ensemble:depth=1"),
        "player `ensemble` has no option `depth` (options: workers, ms, heuristics, cores)"
    );
}

#[test]
fn bad_values_name_the_values_an_option_takes() {
    let cases = [
        (
            "alphabeta:mode=x",
            "player option mode expects auto, paranoid or maxn, got `x`",
        ),
        (
            "mcts:greedy=maybe",
            "player option greedy expects on, off or auto, got `maybe`",
        ),
        (
            "mcts:threads=0",
            "player option threads expects auto or a number from 1 to 256, got `0`",
        ),
        (
            "mcts:cores=many",
            "player option threads expects auto or a number from 1 to 256, got `many`",
        ),
        (
            "mcts:c=-1",
            "player option c expects a finite number at least 0, or auto, got `-1`",
        ),
        (
            "mcts:playouts=1.5",
            "player option playouts expects a whole number, got `1.5`",
        ),
        (
            "mcts-solver:tactics=maybe",
            "player option tactics expects on, off or auto, got `maybe`",
        ),
        (
            "mcts:ms=-1",
            "player option ms -1: give a number of milliseconds above 0 and at most 86400000",
        ),
        ("mcts:ms", "player option `ms` must be written name=value"),
        (
            "mcts-solver:solver=on",
            "mcts-solver always solves: for plain MCTS use mcts",
        ),
        ("mcts:c=auto", "player option c=auto needs solver=on"),
        (
            "mcts:greedy=auto",
            "player option greedy=auto needs solver=on",
        ),
        ("mcts:eval=on", "player option eval needs solver=on"),
        (
            "mcts:solver=off,choke=on",
            "player option choke needs solver=on",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(err(text), message, "{text}");
    }
    assert!(err("nope").starts_with("unknown player `nope` (players: random, legal,"));
}

#[test]
fn mcts_solver_is_mcts_with_its_presets_before_the_specs_options() {
    let preset = mcts("mcts-solver");
    let spelled = mcts("mcts:solver=on,greedy=auto,eval=material,tactics=auto");
    assert_eq!(
        PlayerSpec::MctsSolver(preset.clone()).to_string(),
        "mcts-solver"
    );
    assert_eq!(
        MctsSpec {
            written: vec![],
            ..spelled.clone()
        },
        preset,
    );
    assert!(preset.solver && preset.material);
    assert_eq!(preset.greedy, None, "greedy=auto");
    assert_eq!(preset.tactics, None);
    assert_eq!(preset.exploration, Exploration::Auto);
    let own = mcts("mcts-solver:greedy=off,eval=off,tactics=on,c=0.5");
    assert!(own.greedy == Some(false) && !own.material);
    assert_eq!(own.tactics, Some(true));
    assert_eq!(own.exploration, Exploration::Fixed(0.5));
    // Plain UCT: 0.7, no tactics, no solver.
    let plain = mcts("mcts");
    assert!(!plain.solver && plain.greedy == Some(false) && !plain.material);
    assert_eq!(plain.exploration, Exploration::Fixed(0.7));
    assert_eq!(plain.tactics, Some(false));
    assert_eq!(mcts("mcts:solver=on").tactics, Some(false));
    assert_eq!(mcts("mcts:solver=on").exploration, Exploration::Auto);
}

#[test]
fn budgets_aliases_and_the_last_value() {
    let s = mcts("mcts:nodes=5,playouts=10");
    assert_eq!(s.budget.nodes, Some(5), "nodes wins over playouts");
    assert_eq!(mcts("mcts:playouts=10").budget.ms, None);
    assert_eq!(mcts("mcts").budget.ms, Some(DEFAULT_MS));
    assert_eq!(mcts("mcts:ms=5,ms=7").budget.ms, Some(7.0));
    assert_eq!(mcts("mcts:threads=3,cores=2").threads, Threads::Count(3));
    assert_eq!(mcts("mcts:cores=2,threads=3").threads, Threads::Count(3));
    assert_eq!(mcts("mcts:cores=auto").threads, Threads::Auto);
    assert_eq!(mcts("mcts:greedy=yes").greedy, Some(true));
    let PlayerSpec::AlphaBeta(ab) = "alpha-beta:depth=3,mode=maxn"
        .parse::<PlayerSpec>()
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(ab.budget.depth, Some(3));
    assert_eq!(ab.budget.ms, None);
    assert_eq!(ab.mode, alphabeta::Mode::MaxN);
    assert_eq!(ab.heuristic, "fuzzy");
    let PlayerSpec::Ensemble(e) = "ensemble:heuristics=a+b".parse::<PlayerSpec>().unwrap() else {
        panic!()
    };
    assert_eq!(
        (e.workers, e.ms, e.heuristics.as_deref()),
        (4, DEFAULT_MS, Some("a+b"))
    );
}

#[test]
fn the_text_is_the_spec_as_written_and_parses_back() {
    for text in [
        "random",
        "mcts:solver=on,greedy=on",
        "mcts-solver:playouts=300,threads=1,tactics=off",
        "alphabeta:heuristic=fuzzy,ms=200,cores=auto",
        "bestfirst:nodes=100",
        "coolerjo:depth=3",
        "ensemble:workers=2,ms=50",
        "minimax:depth=2,heuristic=none",
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
        assert_eq!(spec.to_string().parse::<PlayerSpec>().unwrap(), spec);
    }
    let spec: PlayerSpec = " Best-First : MS = 200 ".parse().unwrap();
    assert_eq!(spec.to_string(), "bestfirst:ms=200");
    let timed = "mcts:ms=900,greedy=on".parse::<PlayerSpec>().unwrap();
    let timed = timed.with("ms", "300").unwrap();
    assert_eq!(timed.to_string(), "mcts:greedy=on,ms=300");
    assert_eq!(mcts(&timed.to_string()).budget.ms, Some(300.0));
    assert!(timed.with("ms", "0").is_err());
}

#[test]
fn every_player_of_the_registry_parses_with_its_declared_defaults() {
    for p in super::super::PLAYERS {
        let spec: PlayerSpec = p.name.parse().unwrap();
        assert_eq!(spec.name(), p.name);
        let written: Vec<String> = (options_of(p.name).iter())
            .filter(|o| o.default != "-")
            .filter(|o| !(p.name == "mcts" && super::SOLVER_ONLY.contains(&o.name)))
            .map(|o| format!("{}={}", o.name, o.default))
            .collect();
        if written.is_empty() {
            continue;
        }
        // Every declared default is a valid value, and spelling the
        // defaults out is the spec without them.
        let full: PlayerSpec = format!("{}:{}", p.name, written.join(","))
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let bare = spec.to_string().parse::<PlayerSpec>().unwrap();
        let strip = |s: PlayerSpec| s.with("ms", "1000").unwrap();
        assert_eq!(
            format!("{:?}", strip(full)).split("written").next(),
            format!("{:?}", strip(bare)).split("written").next(),
            "{}",
            p.name
        );
    }
}
