//! Layered breadth-first reachability: layer `k + 1` is the successors of
//! layer `k`'s non-terminal states not seen before.

use super::game::{Game, Stop};
use super::Clock;
use biodivine_lib_bdd::Bdd;

pub struct Reached {
    /// Every reachable state.
    pub all: Bdd,
    /// States per layer (layer 0: the initial state).
    pub layers: Vec<u128>,
}

/// The reachable states, or where the limits stopped it (the layers done).
pub fn reach(game: &mut Game, clock: &Clock) -> Result<Reached, (Stop, Reached)> {
    let mut all = game.init.clone();
    let mut frontier = game.init.clone();
    let mut layers = vec![1];
    loop {
        if let Err(stop) = clock.check() {
            return Err((stop, Reached { all, layers }));
        }
        let open = frontier.and_not(&game.terminal);
        let new = game.image(&open).and_not(&all);
        if new.is_false() {
            return Ok(Reached { all, layers });
        }
        all = game.space.note(all.or(&new));
        layers.push(game.space.count(&new));
        crate::job::progress("solve --symbolic: reachable layers", || {
            format!(
                "layer {}: {} states",
                layers.len() - 1,
                layers[layers.len() - 1]
            )
        });
        frontier = new;
    }
}
