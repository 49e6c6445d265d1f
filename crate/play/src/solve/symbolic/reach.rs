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
    /// Terminal states in the layers whose states were checked.
    pub terminal: u128,
    /// No successor of a layer's states is in that layer or before it.
    pub layered: bool,
}

/// The reachable states, with why the limits stopped it (then the layers
/// done).
pub fn reach(game: &mut Game, clock: &Clock) -> (Reached, Result<(), Stop>) {
    let mut r = Reached {
        all: game.init.clone(),
        sets: vec![game.init.clone()],
        layers: vec![1],
        terminal: 0,
        layered: true,
    };
    loop {
        let frontier = r.sets.last().expect("layer 0");
        let open = match open_states(game, frontier) {
            Ok(open) => open,
            Err(stop) => return (r, Err(stop)),
        };
        r.terminal += r.layers[r.layers.len() - 1] - game.space.count(&open);
        let image = match clock.check().and_then(|()| game.image(&open, clock)) {
            Ok(image) => image,
            Err(stop) => return (r, Err(stop)),
        };
        let new = image.and_not(&r.all);
        r.layered &= new == image;
        if new.is_false() {
            return (r, Ok(()));
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

/// The states of `set` that are not terminal, the terminal parts taken
/// away one by one.
fn open_states(game: &Game, set: &Bdd) -> Result<Bdd, Stop> {
    let mut open = set.clone();
    for part in &game.terminal_parts {
        open = game.space.and_not(&open, part)?;
    }
    Ok(open)
}
