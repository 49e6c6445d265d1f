//! The command line's grammar: every command answers `--help`, `--version`
//! names the crate's version, a misspelt option or command gets a
//! suggestion and exit 2, shell completions are generated; the library
//! function and the native binary answer alike.

use gdlkit_cli::cli::{run, MemoryHost, Output};

const COINS: &str = "(role you)\n(init (coins 0))\n(<= (legal you take) (true (coins 0)))\n\
(<= (next (coins 1)) (does you take))\n(<= terminal (true (coins 1)))\n(goal you 100)\n";

fn cli(args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut files = MemoryHost::with([("coins.kif", COINS)]);
    run(&args, &mut files)
}

/// The commands the tool has (others may be added; none may go missing).
const COMMANDS: [&str; 18] = [
    "check",
    "fmt",
    "replay",
    "play",
    "bench",
    "search",
    "match",
    "analyze",
    "serve",
    "host",
    "export",
    "explain",
    "structure",
    "solve",
    "ground",
    "games",
    "fetch-game",
    "completions",
];

#[test]
fn every_command_answers_help_with_its_options() {
    let grammar = gdlkit_cli::cli::command();
    let names: Vec<&str> = grammar.get_subcommands().map(|c| c.get_name()).collect();
    for c in COMMANDS {
        assert!(names.contains(&c), "{c} is a command: {names:?}");
    }
    let mut options_seen = 0;
    for sub in grammar.get_subcommands() {
        let name = sub.get_name();
        for help in ["--help", "-h"] {
            let out = cli(&[name, help]);
            assert_eq!(out.code, 0, "{name} {help}: {}", out.stderr);
            assert!(out.stderr.is_empty(), "{name} {help}: {}", out.stderr);
            assert!(
                out.stdout.contains(&format!("Usage: gdlkit {name}")),
                "{name} {help}: {}",
                out.stdout
            );
            for long in sub.get_arguments().filter_map(|a| a.get_long()) {
                assert!(
                    out.stdout.contains(&format!("--{long}")),
                    "{name} {help} mentions --{long}: {}",
                    out.stdout
                );
                options_seen += 1;
            }
        }
        // `gdlkit help COMMAND` says the same.
        let via_help = cli(&["help", name]);
        assert_eq!(via_help.code, 0, "help {name}");
        assert_eq!(
            via_help.stdout,
            cli(&[name, "--help"]).stdout,
            "help {name}"
        );
    }
    assert!(options_seen > 100, "{options_seen} options documented");
    // The time limit's help names each command's own default.
    assert!(cli(&["match", "--help"]).stdout.contains("(default 600)"));
    assert!(cli(&["play", "--help"]).stdout.contains("(default 60)"));
}

#[test]
fn help_lists_the_commands_and_version_names_the_crate() {
    let help = cli(&["--help"]);
    assert_eq!(help.code, 0);
    for c in COMMANDS {
        assert!(
            help.stdout.contains(&format!("  {c} ")),
            "{c}: {}",
            help.stdout
        );
    }
    assert_eq!(cli(&["help"]).stdout, help.stdout);
    for flag in ["--version", "-V"] {
        let v = cli(&[flag]);
        assert_eq!(v.code, 0);
        assert_eq!(v.stdout, format!("gdlkit {}\n", env!("CARGO_PKG_VERSION")));
    }
    // No command: the usage on stderr, a usage error.
    let none = cli(&[]);
    assert_eq!(none.code, 2);
    assert!(none.stdout.is_empty());
    assert!(none.stderr.contains("Usage: gdlkit"), "{}", none.stderr);
}

#[test]
fn misspelt_options_and_commands_get_a_suggestion_and_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["play", "coins.kif", "--sed", "3"], "--seed"),
        (&["bench", "coins.kif", "--playout", "3"], "--playouts"),
        (
            &[
                "host",
                "coins.kif",
                "--players",
                "http://a:1",
                "--play-clok",
                "3",
            ],
            "--play-clock",
        ),
        (&["plya", "coins.kif"], "play"),
        (&["analyse", "coins.kif"], "analyze"),
    ];
    for (args, suggested) in cases {
        let out = cli(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            out.stderr.contains("similar") && out.stderr.contains(&format!("'{suggested}'")),
            "{args:?} suggests {suggested}: {}",
            out.stderr
        );
    }
    // Bad values name the option and exit 2 too.
    for (args, option) in [
        (&["play", "coins.kif", "--seed", "x"][..], "--seed"),
        (&["play", "coins.kif", "--format", "xml"], "--format"),
        (&["play", "coins.kif", "--engine", "quick"], "--engine"),
        (&["play", "coins.kif", "--seconds", "inf"], "--seconds"),
        (&["play", "coins.kif", "--memory", "1"], "--memory"),
        (&["fmt", "coins.kif", "--write", "--check"], "--check"),
        (&["check", "coins.kif", "--unsafe-fixes"], "--fix"),
        (&["search"], "--tree"),
    ] {
        let out = cli(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(option), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn options_work_in_any_order_and_old_spellings_still_parse() {
    let a = cli(&["play", "coins.kif", "--seed", "2", "--format", "json"]);
    let b = cli(&[
        "play",
        "--format=json",
        "--memory",
        "512",
        "--seed=2",
        "coins.kif",
    ]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!((a.stdout.as_str(), b.code), (b.stdout.as_str(), 0));
    let v: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    assert_eq!(v["goals"]["you"], serde_json::json!([100]));
    let words = |clock: &str, seconds: &str| -> Vec<String> {
        [
            "coins.kif",
            "--players",
            "http://127.0.0.1:9147",
            clock,
            seconds,
        ]
        .map(String::from)
        .to_vec()
    };
    for spelling in ["--play-clock", "--playclock"] {
        let o = gdlkit_cli::cli::host::options(&words(spelling, "7"))
            .ok()
            .unwrap();
        assert_eq!((o.play_clock, o.start_clock), (7, 10), "{spelling}");
    }
    let bad = gdlkit_cli::cli::host::options(&words("--startclock", "0"));
    assert!(bad.is_err(), "a clock of 0 seconds is refused");
    // The players' list ends at the next option.
    let o = gdlkit_cli::cli::host::options(
        &["g.kif", "--players", "http://a:1", "http://b:2", "--rotate"].map(String::from),
    )
    .ok()
    .unwrap();
    assert_eq!((o.players.len(), o.rotate), (2, true));
}

#[test]
fn completions_are_generated_for_bash_zsh_and_fish() {
    let bash = cli(&["completions", "bash"]);
    assert_eq!(bash.code, 0, "{}", bash.stderr);
    assert!(bash.stdout.contains("_gdlkit()"), "{}", bash.stdout);
    assert!(
        bash.stdout.contains("complete -F _gdlkit"),
        "{}",
        bash.stdout
    );
    for word in ["structure", "--max-steps", "--players", "--format"] {
        assert!(bash.stdout.contains(word), "bash completes {word}");
    }
    for shell in ["zsh", "fish"] {
        let out = cli(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        // zsh spells options `--max-steps`, fish `-l max-steps`.
        assert!(out.stdout.contains("max-steps"), "{shell}");
    }
    let bad = cli(&["completions", "tcsh"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("possible values"), "{}", bad.stderr);
}

/// The native binary prints what the library function returns.
#[test]
fn the_native_binary_answers_help_version_and_usage_errors() {
    let bin = env!("CARGO_BIN_EXE_gdlkit");
    for args in [
        &["--version"][..],
        &["play", "--help"],
        &["serve", "--help"],
        &["completions", "bash"],
        &["play", "x.kif", "--sed", "1"],
    ] {
        let native = std::process::Command::new(bin)
            .args(args)
            .output()
            .expect("run gdlkit");
        let lib = cli(args);
        assert_eq!(native.status.code(), Some(lib.code), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&native.stdout),
            lib.stdout,
            "{args:?}"
        );
        assert_eq!(
            String::from_utf8_lossy(&native.stderr),
            lib.stderr,
            "{args:?}"
        );
    }
}

/// The JSON summary of coins.kif solved: its two states, the initial
/// state worth 100 after one move.
fn assert_coins_solved(json: &str) {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["complete"], true, "{v}");
    assert_eq!(v["stats"]["states"], 2, "{v}");
    assert_eq!(v["initial"]["goals"], serde_json::json!([100]), "{v}");
    assert_eq!(v["initial"]["moves_to_end"], 1, "{v}");
}

/// `solve` through the command line: the two states of the one-move game,
/// the initial state worth 100 after one move.
#[test]
fn solve_parses_its_options() {
    let out = cli(&["solve", "coins.kif", "--format", "json", "--seconds", "20"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_coins_solved(&out.stdout);
    let bad = cli(&["solve", "coins.kif", "--max-states", "many"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--max-states"), "{}", bad.stderr);
}

/// `solve --spill DIR`: the out-of-core solver gives the same summary as
/// the in-memory one and leaves no directory; it excludes `--out`.
#[test]
fn solve_spills_to_a_directory() {
    let dir = std::env::temp_dir().join(format!("gdlkit-cli-spill-{}", std::process::id()));
    let dir_arg = dir.to_string_lossy().to_string();
    let out = cli(&[
        "solve",
        "coins.kif",
        "--spill",
        &dir_arg,
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_coins_solved(&out.stdout);
    assert!(!dir.exists(), "{dir_arg} is removed");
    let text = cli(&["solve", "coins.kif", "--spill", &dir_arg]);
    assert!(text.stdout.contains("solved (complete)"), "{}", text.stdout);
    let both = cli(&["solve", "coins.kif", "--spill", &dir_arg, "--out", "x"]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

/// `bench --greedy` plays the default player's greedy playouts: once a
/// playout has learnt a winning move, later ones try it, and the report
/// counts those tries; random playouts report none.
#[test]
fn bench_greedy_counts_the_moves_it_tried_for_a_win() {
    let game = include_str!("../../../../games/ticTacToe.kif");
    let bench = |extra: &[&str]| {
        let mut args: Vec<String> = ["bench", "t.kif", "--playouts", "300", "--engine", "fast"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        args.extend(extra.iter().map(|a| a.to_string()));
        let out = run(&args, &mut MemoryHost::with([("t.kif", game)]));
        assert_eq!(out.code, 0, "{}", out.stderr);
        serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()
    };
    let greedy = bench(&["--greedy"]);
    assert_eq!(greedy["playouts"], 300);
    assert!(greedy["greedy_tries"].as_u64().unwrap() > 0, "{greedy}");
    let random = bench(&[]);
    assert_eq!(random["playouts"], 300);
    assert!(random.get("greedy_tries").is_none(), "{random}");
}
