//! Plays tic-tac-toe from the game library: the default player against a
//! random one, move by move, then prints the goals.
//!
//!     cargo run --release --example play

use gdlkit::search::{build_player, PlayerSpec};
use gdlkit::{EngineChoice, Game, StateMachine};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = include_str!("../../../games/ticTacToe.kif");
    let Game {
        program,
        engine: mut m,
    } = Game::load(text, EngineChoice::Auto)
        .map_err(|d| format!("the rules have errors: {d:?}"))?;
    let specs: [PlayerSpec; 2] = ["mcts-solver:ms=200".parse()?, "random".parse()?];
    let mut players = Vec::new();
    for (seed, spec) in specs.iter().enumerate() {
        players.push(build_player(spec, &program, &mut m, seed as u64)?);
    }
    let mut state = m.initial_state()?;
    while !m.is_terminal(&state)? {
        let mut joint = Vec::new();
        for (role, player) in players.iter_mut().enumerate() {
            joint.push(player.select_move(&mut m, &state, role)?);
        }
        let shown: Vec<String> = joint.iter().map(|&mv| m.terms().display(mv)).collect();
        println!("{}", shown.join("  "));
        state = m.next_state(&state, &joint)?;
    }
    println!("goals {:?}", m.goals(&state)?);
    Ok(())
}
