//! `gdlkit play GAME.kif`: one random playout ([`crate::playouts::play`]),
//! printed move by move, and the final board (every board with
//! `--verbose`) drawn from the game's structure.

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{load_game, Fail, Host, Output, EXIT_OK};
use crate::reasoner::StateMachine;
use crate::structure::board;
use serde_json::json;
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// The random moves' seed
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Joint moves at most
    #[arg(long, value_name = "N", default_value_t = crate::playouts::DEFAULT_MAX_STEPS)]
    max_steps: usize,
    /// Draw the board after every joint move
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

pub fn run(args: PlayArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let (seed, max_steps) = (args.seed, args.max_steps);
    let path = args.game;
    let (
        _,
        crate::Game {
            program,
            engine: mut m,
        },
    ) = load_game(host, &path, args.engine.choice)?;
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    let root = m.initial_state().map_err(err)?;
    // The same function as JS `game.playouts({seed})`'s first game.
    let played = crate::playouts::play(&mut m, &root, seed, max_steps).map_err(err)?;
    let verbose = args.verbose;
    let boards = if json {
        Vec::new()
    } else {
        crate::structure::find(&program, &mut m, crate::structure::DISPLAY_OPTIONS)
            .map_err(err)?
            .boards
    };
    // With --verbose, the board after each joint move: the playout replayed.
    let mut boards_after: Vec<String> = Vec::new();
    if verbose && !boards.is_empty() {
        let mut state = root.clone();
        for jm in &played.joint_moves {
            let joint = jm
                .iter()
                .map(|t| crate::program::parse_ground_term(m.terms_mut(), t))
                .collect::<Result<Vec<_>, _>>()
                .map_err(Fail::game)?;
            state = m.next_state(&state, &joint).map_err(err)?;
            boards_after.push(board::text_all(&boards, m.terms(), &m.fluents(&state)));
        }
    }
    let last = played.last;
    let (moves, terminal, stuck, goals) = (
        played.joint_moves,
        played.terminal,
        played.stuck,
        played.goals,
    );
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
        if let Some(b) = boards_after.get(i) {
            s.push_str(b);
        }
    }
    if !verbose {
        s.push_str(&board::text_all(&boards, m.terms(), &last));
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
