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
    /// The states of each layer (layer 0: the initial state); when only
    /// counting, the last layer alone.
    pub sets: Vec<Bdd>,
    /// States per layer.
    pub layers: Vec<u128>,
    /// Seconds spent on each layer (finding it from the one before).
    pub seconds: Vec<f64>,
    /// Terminal states in the layers whose states were checked.
    pub terminal: u128,
    /// No successor of a layer's states is in that layer or before it.
    pub layered: bool,
}

impl Reached {
    /// The initial state alone.
    pub fn start(game: &Game) -> Reached {
        Reached {
            all: game.init.clone(),
            sets: vec![game.init.clone()],
            layers: vec![1],
            seconds: vec![0.0],
            terminal: 0,
            layered: true,
        }
    }
}

/// The reachable states from `r` on (the initial state, or the layers of
/// a checkpoint), with why the limits stopped it (then the layers done).
/// `keep` keeps every layer's set (the classification needs them); after
/// each new layer, `done` sees the layers so far (a checkpoint saves them).
pub fn reach(
    game: &mut Game,
    clock: &Clock,
    mut r: Reached,
    keep: bool,
    done: &mut dyn FnMut(&Reached) -> Result<(), Stop>,
) -> (Reached, Result<(), Stop>) {
    loop {
        let started = crate::clock::now_ms();
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
        if !keep {
            r.sets.clear();
        }
        r.sets.push(new);
        r.seconds.push((crate::clock::now_ms() - started) / 1000.0);
        crate::job::progress("solve --symbolic: reachable layers", || {
            let k = r.layers.len() - 1;
            format!("layer {k}: {} states in {:.1} s", r.layers[k], r.seconds[k])
        });
        if let Err(stop) = done(&r) {
            return (r, Err(stop));
        }
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
