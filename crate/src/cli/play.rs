//! `gdlkit play GAME.kif`: one random playout, printed move by move.

use super::{load_engine, Args, Fail, Host, Output, EXIT_OK};
use crate::reasoner::StateMachine;
use serde_json::json;
use std::fmt::Write as _;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["seed", "max-steps", "format", "engine", "seconds"])?;
    let json = args.json()?;
    let seed: u64 = args.number("seed", 1)?;
    let max_steps: usize = args.number("max-steps", 1000)?;
    let path = args.positional(0, "GAME.kif")?.to_string();
    let (_, mut m) = load_engine(host, &path, &args)?;
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let mut rng = fastrand::Rng::with_seed(seed);
    let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    let mut state = m.initial_state().map_err(err)?;
    let mut moves: Vec<Vec<String>> = Vec::new();
    let mut stuck = false;
    while !m.is_terminal(&state).map_err(err)? && moves.len() < max_steps {
        let legal = m.all_legal_moves(&state).map_err(err)?;
        if legal.iter().any(Vec::is_empty) {
            stuck = true;
            break;
        }
        let joint: Vec<_> = legal
            .iter()
            .map(|ms| ms[crate::reasoner::random_index(&mut rng, ms.len())])
            .collect();
        moves.push(joint.iter().map(|&t| m.terms().display(t)).collect());
        state = m.next_state(&state, &joint).map_err(err)?;
    }
    let terminal = m.is_terminal(&state).map_err(err)?;
    let goals = m.goal_values(&state).map_err(err)?;
    if json {
        let goals_obj: serde_json::Map<_, _> = roles
            .iter()
            .cloned()
            .zip(goals.iter().map(|g| json!(g)))
            .collect();
        out.stdout = format!(
            "{}\n",
            json!({ "roles": roles, "joint_moves": moves, "terminal": terminal, "goals": goals_obj })
        );
        return Ok(EXIT_OK);
    }
    let s = &mut out.stdout;
    let _ = writeln!(s, "roles: {}", roles.join(" "));
    for (i, jm) in moves.iter().enumerate() {
        let _ = writeln!(s, "{:>4}. {}", i + 1, jm.join("  "));
    }
    let end = if terminal {
        "terminal"
    } else if stuck {
        "stopped: a role has no legal move"
    } else {
        "stopped: --max-steps reached"
    };
    let _ = writeln!(s, "{end} after {} steps", moves.len());
    let goal_text: Vec<String> = roles
        .iter()
        .zip(&goals)
        .map(|(r, g)| {
            format!(
                "{r}={}",
                g.iter().map(i64::to_string).collect::<Vec<_>>().join("/")
            )
        })
        .collect();
    let _ = writeln!(s, "goals: {}", goal_text.join(" "));
    Ok(EXIT_OK)
}
