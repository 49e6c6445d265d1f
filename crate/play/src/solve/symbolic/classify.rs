//! Retrograde classification of the reachable states, as sets: the same
//! solution concepts as the explicit solver (`retro.rs`, docs/solve.md).
//! The transition relations are cut to the reachable states first
//! ([`Game::restrict`]), so every preimage stays within them.
//!
//! A layered game (`reach.rs`) is classified backwards layer by layer, as
//! Kissmann and Edelkamp do: every successor of layer `k` is in layer
//! `k + 1`, already classified, so each mover takes its preferred value
//! among its successors' in one pass per value. Other games (states that
//! can repeat, or successors in earlier layers) go through attractors
//! (one role, zero-sum) or backward induction in rounds (general-sum).

use super::game::Game;
use super::reach::Reached;
use super::Clock;
use super::Stop;
use crate::solve::Concept;
use biodivine_lib_bdd::Bdd;

/// Goal pair (the second `0` for one role) and its states.
pub type Valued = Vec<([u8; 2], Bdd)>;

/// The terminal states by goal pair, for the pairs of reachable ones.
pub fn terminal_values(game: &Game, reach: &Bdd) -> Valued {
    let ended = reach.and(&game.terminal);
    let mut out = Vec::new();
    for (v0, b0) in &game.goal_eq[0] {
        let s0 = game.terminal.and(b0);
        if ended.and(&s0).is_false() {
            continue;
        }
        if game.roles == 1 {
            out.push(([*v0 as u8, 0], s0));
            continue;
        }
        for (v1, b1) in &game.goal_eq[1] {
            let s = s0.and(b1);
            if !ended.and(&s).is_false() {
                out.push(([*v0 as u8, *v1 as u8], s));
            }
        }
    }
    out
}

pub fn concept(roles: usize, terminal: &Valued) -> Concept {
    if roles == 1 {
        return Concept::OnePlayer;
    }
    let sum = |g: &[u8; 2]| u16::from(g[0]) + u16::from(g[1]);
    match terminal.first() {
        Some((g, _)) if terminal.iter().all(|(h, _)| sum(h) == sum(g)) => Concept::ZeroSum,
        Some(_) => Concept::GeneralSum,
        None => Concept::ZeroSum,
    }
}

/// The states of `reached` by value (unknown states are in none).
pub fn classify(
    game: &mut Game,
    reached: &Reached,
    terminal: &Valued,
    concept: Concept,
    clock: &Clock,
) -> Result<Valued, Stop> {
    let reach = &reached.all;
    if reached.layered {
        return layered(game, &reached.sets, terminal, clock);
    }
    match concept {
        Concept::OnePlayer | Concept::ZeroSum => attractors(game, reach, terminal, concept, clock),
        Concept::GeneralSum => backward(game, reach, terminal, clock),
    }
}

/// Backwards over the layers (every successor of layer `k` in layer
/// `k + 1`, so every state gets a value): a terminal state its goals, a
/// non-terminal one the value its mover prefers among its successors'
/// (own goal first, then the opponent's lower goal; for zero-sum games
/// that is minimax, for one role the best goal). `values[i]` holds the
/// states with value `i` of the layer after the current one.
fn layered(
    game: &mut Game,
    layers: &[Bdd],
    terminal: &Valued,
    clock: &Clock,
) -> Result<Valued, Stop> {
    let mut out: Valued = terminal.iter().map(|(g, _)| (*g, game.space.f())).collect();
    let mut next: Vec<Bdd> = vec![game.space.f(); terminal.len()];
    for layer in layers.iter().rev() {
        clock.check()?;
        let mut here: Vec<Bdd> = terminal.iter().map(|(_, b)| b.and(layer)).collect();
        let open = layer.and_not(&game.terminal);
        for r in 0..game.roles {
            let mut left = open.and(&game.mover[r]);
            let mut order: Vec<usize> = (0..terminal.len()).collect();
            order.sort_by_key(|&i| {
                let g = terminal[i].0;
                (std::cmp::Reverse(g[r]), g[1 - r])
            });
            for i in order {
                if left.is_false() {
                    break;
                }
                if next[i].is_false() {
                    continue;
                }
                let gained = left.and(&game.pre(&next[i], Some(r), clock)?);
                left = left.and_not(&gained);
                here[i] = here[i].or(&gained);
            }
        }
        for (i, set) in here.iter().enumerate() {
            out[i].1 = game.space.note(out[i].1.or(set));
        }
        next = here;
    }
    Ok(out)
}

/// The states from which `attacker` forces the game into `target`.
fn attractor(
    game: &mut Game,
    reach: &Bdd,
    attacker: usize,
    target: Bdd,
    clock: &Clock,
) -> Result<Bdd, Stop> {
    let open = reach.and_not(&game.terminal);
    let target = target.and(reach);
    let mine = open.and(&game.mover[attacker]);
    let theirs = open.and_not(&game.mover[attacker]);
    let mut a = target;
    loop {
        clock.check()?;
        let some = game.pre(&a, None, clock)?;
        let escape = game.pre(&reach.and_not(&a), None, clock)?;
        let grown = a.or(&mine.and(&some)).or(&theirs.and_not(&escape));
        if grown == a {
            return Ok(a);
        }
        a = game.space.note(grown);
    }
}

fn attractors(
    game: &mut Game,
    reach: &Bdd,
    terminal: &Valued,
    concept: Concept,
    clock: &Clock,
) -> Result<Valued, Stop> {
    let mut values: Vec<u8> = terminal.iter().map(|(g, _)| g[0]).collect();
    values.sort_unstable();
    values.dedup();
    let none = game.space.f();
    let ended = |keep: &dyn Fn(u8) -> bool| -> Bdd {
        terminal
            .iter()
            .filter(|(g, _)| keep(g[0]))
            .fold(none.clone(), |acc, (_, b)| acc.or(b))
    };
    // at_least[k]: the first role forces at least values[k].
    let mut at_least = Vec::new();
    for &t in &values {
        let target = ended(&|v| v >= t);
        at_least.push(attractor(game, reach, 0, target, clock)?);
    }
    let exactly = |sets: &[Bdd], k: usize, up: bool| -> Bdd {
        let beyond = if up { k + 1 < sets.len() } else { k > 0 };
        match beyond {
            true => sets[k].and_not(&sets[if up { k + 1 } else { k - 1 }]),
            false => sets[k].clone(),
        }
    };
    if concept == Concept::OnePlayer {
        return Ok((0..values.len())
            .map(|k| ([values[k], 0], exactly(&at_least, k, true)))
            .collect());
    }
    let sum = terminal.first().map_or(0, |(g, _)| g[0] + g[1]);
    let mut at_most = Vec::new();
    for &t in &values {
        let target = ended(&|v| v <= t);
        at_most.push(attractor(game, reach, 1, target, clock)?);
    }
    Ok((0..values.len())
        .map(|k| {
            let lo = exactly(&at_least, k, true);
            let hi = exactly(&at_most, k, false);
            ([values[k], sum - values[k]], lo.and(&hi))
        })
        .collect())
}

/// General-sum backward induction by rounds.
fn backward(
    game: &mut Game,
    reach: &Bdd,
    terminal: &Valued,
    clock: &Clock,
) -> Result<Valued, Stop> {
    let open = reach.and_not(&game.terminal);
    let mut values: Valued = terminal.iter().map(|(g, b)| (*g, b.and(reach))).collect();
    let mut decided = reach.and(&game.terminal);
    loop {
        clock.check()?;
        let ready =
            open.and_not(&decided)
                .and_not(&game.pre(&reach.and_not(&decided), None, clock)?);
        if ready.and(reach).is_false() {
            return Ok(values);
        }
        for r in 0..game.roles {
            let mut left = ready.and(&game.mover[r]);
            // The mover's preference: own goal, then the other's lower goal.
            let mut order: Vec<usize> = (0..values.len()).collect();
            order.sort_by_key(|&i| {
                let g = values[i].0;
                (std::cmp::Reverse(g[r]), g[1 - r])
            });
            let mut gained = Vec::new();
            for i in order {
                if left.is_false() {
                    break;
                }
                let here = left.and(&game.pre(&values[i].1, Some(r), clock)?);
                left = left.and_not(&here);
                gained.push((i, here));
            }
            for (i, here) in gained {
                values[i].1 = values[i].1.or(&here);
            }
        }
        decided = game.space.note(decided.or(&ready));
    }
}
