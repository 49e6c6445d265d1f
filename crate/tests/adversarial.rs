//! Games written to break engines (`common/adversarial.rs`) through the CLI
//! and the library: each gives an answer within the limits or a clear error
//! with exit code 1, never a panic, a stack overflow or a hang.

#[path = "common/adversarial.rs"]
mod adversarial;
use adversarial::*;
use gdlkit::{EvalError, Interpreter, Limits, StateMachine};

struct Mem(Vec<(String, String)>);

impl gdlkit::cli::Host for Mem {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        let f = self.0.iter().find(|(p, _)| p == path);
        f.map(|(_, t)| t.clone()).ok_or_else(|| "not found".into())
    }
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String> {
        self.0.push((path.into(), content.into()));
        Ok(())
    }
    fn stdout_is_terminal(&self) -> bool {
        false
    }
}

fn cli(args: &[&str], game: &str) -> gdlkit::cli::Output {
    let mut host = Mem(vec![("g.kif".into(), game.into())]);
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    gdlkit::cli::run(&args, &mut host)
}

/// Runs `f` on a thread with a small stack: recursion that is not guarded
/// overflows it at once.
fn small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn ok_or_clear_error(out: &gdlkit::cli::Output, what: &str) {
    assert!(
        out.code == 0 || out.code == 1,
        "{what}: exit {} ({})",
        out.code,
        out.stderr
    );
    if out.code == 1 {
        assert!(!out.stderr.trim().is_empty() || !out.stdout.trim().is_empty());
    }
}

#[test]
fn closure_over_a_5000_long_chain_is_answered_on_a_small_stack() {
    for args in [
        &["play", "g.kif", "--engine", "interpreter"][..],
        &["search", "g.kif", "--engine", "interpreter", "--depth", "1"],
    ] {
        let out = small_stack(move || cli(args, &chain(5000)));
        ok_or_clear_error(&out, args[0]);
        if args[0] == "play" {
            assert_eq!(out.code, 0, "{}", out.stderr);
            assert!(out.stdout.contains("goals: you=100"), "{}", out.stdout);
        }
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error_naming_it_and_the_machine_recovers() {
    let program = gdlkit::parse_program(&chain(3000));
    let limits = Limits {
        max_nesting: 50,
        ..Limits::default()
    };
    let mut m = Interpreter::with_limits(&program, limits).unwrap();
    let s = m.initial_state().unwrap();
    let e = m.is_terminal(&s).unwrap_err();
    assert!(matches!(e, EvalError::Limit { limit: 50, .. }), "{e:?}");
    assert!(e.to_string().contains("max_nesting"), "{e}");
    // The same machine answers a shorter question afterwards.
    let program = gdlkit::parse_program(&chain(30));
    let mut m = Interpreter::with_limits(&program, limits).unwrap();
    let s = m.initial_state().unwrap();
    assert!(m.is_terminal(&s).unwrap());
    assert_eq!(m.goals(&s).unwrap(), vec![Some(100)]);
}

#[test]
fn every_family_gives_an_answer_or_a_clear_error_in_every_command() {
    let games = [
        ("chain", chain(600)),
        ("deep-term", deep_term(100_000)),
        ("deep-term-ok", deep_term(150)),
        ("wide-rule", wide_rule(300)),
        ("huge-arity", huge_arity(2000)),
        ("exponential-join", exponential_join(9)),
        ("term-growth", term_growth()),
        ("joint-moves", joint_moves(12, 10)),
    ];
    let commands: [&[&str]; 7] = [
        &["check", "g.kif"],
        &["fmt", "g.kif", "--check"],
        &[
            "play",
            "g.kif",
            "--max-steps",
            "30",
            "--engine",
            "interpreter",
        ],
        &["play", "g.kif", "--max-steps", "30"],
        &[
            "analyze",
            "g.kif",
            "--budget",
            "200",
            "--playouts",
            "5",
            "--depth",
            "20",
        ],
        &["search", "g.kif", "--depth", "1", "--heuristic", "none"],
        &["bench", "g.kif", "--playouts", "2"],
    ];
    let mut runs = 0;
    for (name, game) in &games {
        for args in commands {
            let (game, args2) = (game.clone(), args.to_vec());
            eprintln!("{name}: {}", args.join(" "));
            let out = small_stack(move || cli(&args2, &game));
            ok_or_clear_error(&out, &format!("{name}: {}", args.join(" ")));
            runs += 1;
        }
    }
    assert!(runs >= 50);
}

#[test]
fn deep_terms_are_a_syntax_error() {
    let out = cli(&["check", "g.kif"], &deep_term(100_000));
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("GDL004"), "{}", out.stdout);
}

#[test]
fn exponential_joins_are_answered_or_stop_at_a_limit() {
    let out = cli(
        &["play", "g.kif", "--engine", "interpreter"],
        &exponential_join(12),
    );
    match out.code {
        0 => assert!(out.stdout.contains("you=50/80"), "{}", out.stdout),
        _ => assert!(out.stderr.contains("more than"), "{}", out.stderr),
    }
}

#[test]
fn byte_oddities_are_read_properly() {
    for (name, bytes) in odd_texts() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let out = cli(&["check", "g.kif", "--format", "json"], &text);
        ok_or_clear_error(&out, name);
        match name {
            // A byte-order mark is not part of the text.
            "bom" => assert_eq!(out.code, 0, "{}", out.stdout),
            // A NUL byte is an error, not a name character.
            "nul" => {
                assert_eq!(out.code, 1);
                assert!(out.stdout.contains("GDL005"), "{}", out.stdout);
            }
            "cr-only" => assert_eq!(out.code, 0, "{}", out.stdout),
            // The hint counts every unclosed `(`.
            "unclosed" => assert!(out.stdout.contains("100000 `)`"), "{}", out.stdout),
            _ => {}
        }
    }
}
