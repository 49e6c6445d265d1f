//! Layered breadth-first reachability: layer `k + 1` is the successors of
//! layer `k`'s non-terminal states not seen before. The game is *layered*
//! when every successor of a layer's states is in the next layer (a step
//! counter, a board that only fills): then the classification can go
//! backwards layer by layer (`classify::layered`).

use super::game::Game;
use super::Clock;
use super::Stop;
use biodivine_lib_bdd::Bdd;

pub struct Reached {
    /// Every reachable state.
    pub all: Bdd,
    /// The states of each layer (layer 0: the initial state).
    pub sets: Vec<Bdd>,
    /// States per layer.
    pub layers: Vec<u128>,
    /// No successor of a layer's states is in that layer or before it.
    pub layered: bool,
}

/// The reachable states, or where the limits stopped it (the layers done).
pub fn reach(game: &mut Game, clock: &Clock) -> Result<Reached, (Stop, Reached)> {
    let mut r = Reached {
        all: game.init.clone(),
        sets: vec![game.init.clone()],
        layers: vec![1],
        layered: true,
    };
    loop {
        let frontier = r.sets.last().expect("layer 0");
        let open = frontier.and_not(&game.terminal);
        let image = match clock.check().and_then(|()| game.image(&open, clock)) {
            Ok(image) => image,
            Err(stop) => return Err((stop, r)),
        };
        let new = image.and_not(&r.all);
        r.layered &= new == image;
        if new.is_false() {
            return Ok(r);
        }
        r.all = game.space.note(r.all.or(&new));
        r.layers.push(game.space.count(&new));
        r.sets.push(new);
        crate::job::progress("solve --symbolic: reachable layers", || {
            format!(
                "layer {}: {} states",
                r.layers.len() - 1,
                r.layers[r.layers.len() - 1]
            )
        });
    }
}
