//! `gdlkit structure GAME.kif`: the structure of a game (boards, pieces,
//! counters, roles, ...; [`crate::structure`]) as text or JSON.

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{load_game, Fail, Host, Output, EXIT_OK};
use crate::structure::{self, Options, Structure};
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Boards, pieces, markers, counters, quantities, successors, orders, \
                  turn-taking, teams and the feature names (heuristics feature:NAME:max|min), \
                  from the rules and --states sampled states."
)]
pub struct StructureArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// The sampled states' seed
    #[arg(long, value_name = "N", default_value_t = Options::default().seed)]
    seed: u64,
    /// States sampled at most
    #[arg(long, value_name = "N", default_value_t = Options::default().max_states)]
    states: usize,
    /// Milliseconds of sampling at most
    #[arg(long, value_name = "T", default_value_t = Options::default().max_ms, value_parser = sampling_ms,
          allow_negative_numbers = true)]
    ms: f64,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

fn sampling_ms(text: &str) -> Result<f64, String> {
    let ms = text
        .parse()
        .map_err(|_| format!("--ms {text}: give a number of milliseconds"))?;
    crate::job::check_ms("--ms", ms).map_err(|e| e.to_string())
}

pub fn run(args: StructureArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let options = Options {
        seed: args.seed,
        max_states: args.states,
        max_ms: args.ms,
    };
    let path = args.game;
    let (
        text,
        crate::Game {
            program,
            engine: mut m,
        },
    ) = load_game(host, &path, args.engine.choice)?;
    let mut st =
        structure::find(&program, &mut m, options).map_err(|e| Fail::game(e.to_string()))?;
    structure::locate(&mut st, &program, &text);
    out.stdout = if json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&st).expect("plain data")
        )
    } else {
        describe(&st)
    };
    Ok(EXIT_OK)
}

/// The structure as readable text.
pub fn describe(st: &Structure) -> String {
    let mut s = String::new();
    let join = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(" ")
        }
    };
    let _ = writeln!(
        s,
        "roles: {} ({})",
        st.roles.join(" "),
        if st.turn_taking {
            "turn-taking"
        } else {
            "simultaneous"
        }
    );
    if !st.noop_moves.is_empty() {
        let _ = writeln!(s, "no-op moves: {}", st.noop_moves.join(" "));
    }
    let teams: Vec<String> = st
        .teams
        .iter()
        .map(|t| format!("[{}]", t.join(" ")))
        .collect();
    let _ = writeln!(s, "teams: {}", teams.join(" "));
    let sum = st.constant_sum.map_or("no".to_string(), |v| v.to_string());
    let _ = writeln!(s, "constant sum: {sum}");
    for (r, v) in &st.goal_values {
        let _ = writeln!(s, "goal values of {r}: {v}");
    }
    for x in &st.successors {
        let _ = writeln!(s, "successor {}: {}", x.relation, x.chain.join(" "));
    }
    for o in &st.orders {
        let _ = writeln!(s, "order {} (along {})", o.relation, o.successor);
    }
    for b in &st.boards {
        let size: Vec<String> = b.size.iter().map(usize::to_string).collect();
        let ordered: Vec<&str> = b
            .ordered
            .iter()
            .map(|&o| if o { "ordered" } else { "unordered" })
            .collect();
        let _ = writeln!(
            s,
            "board {}/{}: coordinates {:?} contents {:?}, size {}, {}; pieces: {}; markers: {}",
            b.fluent,
            b.arity,
            b.coordinates,
            b.contents,
            size.join("x"),
            ordered.join(" "),
            join(&b.pieces),
            join(&b.markers)
        );
    }
    for c in &st.counters {
        let _ = writeln!(
            s,
            "counter {} argument {} along {}, limit {}",
            c.fluent,
            c.argument,
            c.successor,
            c.limit.as_deref().unwrap_or("?")
        );
    }
    for q in &st.quantities {
        let _ = writeln!(
            s,
            "quantity {} argument {} (inputs {:?}) along {}",
            q.fluent, q.argument, q.inputs, q.successor
        );
    }
    let _ = writeln!(s, "features: {}", join(&st.features));
    let _ = writeln!(
        s,
        "states sampled: {} ({} terminal)",
        st.states_sampled, st.terminal_states_sampled
    );
    s
}
