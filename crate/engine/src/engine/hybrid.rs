//! The hybrid engine: a game whose `goal` rules, or whose `terminal` and
//! `goal` rules, would not ground runs its moves on the network and asks
//! the interpreter only those two questions.
//!
//! The rules that explode in the corpus are mostly checks of the whole
//! board at the end: sudoku's `goal` compares every line with the 9!
//! permutations of the digits, laikLee_hex's `terminal` and `goal` look for
//! a winning path as an explicit list of cells. Legal moves and successor
//! states (what a playout does at every step) ground in a few thousand
//! atoms. [`split`] drops the exploding keywords and the relations only
//! they need; [`Hybrid`] answers `legal` and `next` on the grounded rest
//! and hands `terminal` and `goal` to an interpreter of the whole game,
//! given the state's fluents.

use super::Engine;
use crate::diagnostic::Span;
use crate::ground::estimate::Estimate;
use crate::ground::{self, split, BitState, Budget, FastEngine, GroundError};
use crate::program::Program;
use crate::reasoner::{EvalError, FluentState, Interpreter, StateMachine};
use crate::terms::{copy_term, TermId};
use rustc_hash::FxHashMap;

/// The network for moves, the interpreter for `goal` and, when the split
/// dropped it, for `terminal`.
#[derive(Clone)]
pub struct Hybrid {
    pub(super) fast: FastEngine,
    interpreter: Interpreter,
    terminal_by_interpreter: bool,
    /// The interpreter's id of each fluent of the network copied so far.
    copied: FxHashMap<TermId, TermId>,
    /// What the network leaves to the interpreter, and why.
    pub(super) why: String,
}

impl Hybrid {
    pub fn new(fast: FastEngine, interpreter: Interpreter, terminal: bool, why: String) -> Hybrid {
        Hybrid {
            fast,
            interpreter,
            terminal_by_interpreter: terminal,
            copied: FxHashMap::default(),
            why,
        }
    }

    pub fn fast(&self) -> &FastEngine {
        &self.fast
    }

    pub fn fast_mut(&mut self) -> &mut FastEngine {
        &mut self.fast
    }

    /// The interpreter's state of a network state.
    fn fluent_state(&mut self, state: &BitState) -> FluentState {
        let store = self.fast.terms();
        let to = self.interpreter.terms_mut();
        let fluents = self
            .fast
            .fluents(state)
            .into_iter()
            .map(|f| {
                *self
                    .copied
                    .entry(f)
                    .or_insert_with(|| copy_term(store, f, to))
            })
            .collect();
        FluentState::new(fluents)
    }

    pub fn is_terminal(&mut self, state: &BitState) -> Result<bool, EvalError> {
        if !self.terminal_by_interpreter {
            return self.fast.is_terminal(state);
        }
        let s = self.fluent_state(state);
        self.interpreter.is_terminal(&s)
    }

    pub fn goal_values(&mut self, state: &BitState) -> Result<Vec<Vec<i64>>, EvalError> {
        let s = self.fluent_state(state);
        self.interpreter.goal_values(&s)
    }
}

/// A hybrid engine of `program` (valid) with `goal`, and `terminal` too
/// when asked, left to the interpreter, if the rest grounds within
/// `budget` (no estimate, no trial: [`build`] is `auto`'s choice).
pub fn ground_hybrid(
    program: &Program,
    budget: Budget,
    terminal: bool,
) -> Result<Hybrid, GroundError> {
    let interpreter = Interpreter::new(program).map_err(|d| {
        GroundError::Unsupported(d.first().map_or_else(String::new, |d| d.message.clone()))
    })?;
    let rest = split::split(program, split::dropped(terminal)).ok_or_else(|| {
        GroundError::Unsupported("another keyword needs the end tests' rules".into())
    })?;
    let fast = ground::ground(&rest, budget)?;
    Ok(Hybrid::new(fast, interpreter, terminal, note(terminal)))
}

fn note(terminal: bool) -> String {
    let asked = if terminal {
        "terminal and goal are"
    } else {
        "goal is"
    };
    format!("the network runs the moves; {asked} asked of the interpreter")
}

/// The hybrid engine for a game whose whole grounding the size estimate
/// refused (`whole`): the first rest of [`split::rest_within`] (`goal`,
/// then `terminal` and `goal` left to the interpreter), if it grounds and
/// random walks run faster on it than on the interpreter alone (the trial
/// of [`super::choice`]). `None` otherwise.
pub fn build(
    program: &Program,
    interpreter: &Interpreter,
    budget: Budget,
    whole: &Estimate,
    location: &dyn Fn(Span) -> String,
) -> Option<Hybrid> {
    let split::Rest {
        terminal, program, ..
    } = split::rest_within(program, &budget)?;
    crate::job::progress("grounding: the moves without the end tests", String::new);
    let fast = ground::ground(&program, budget).ok()?;
    let why = format!(
        "{}, because the whole game would not ground: {}",
        note(terminal),
        whole.reason(&budget, location)
    );
    let mut hybrid = Engine::Hybrid(Box::new(Hybrid::new(
        fast,
        interpreter.clone(),
        terminal,
        why,
    )));
    let mut slow = Engine::Interpreter {
        interpreter: interpreter.clone(),
        fallback: None,
    };
    crate::job::progress("grounding: choosing the engine", String::new);
    let t = super::choice::trial(&mut hybrid, &mut slow)?;
    if t.ratio() >= 1.0 {
        return None;
    }
    match hybrid {
        Engine::Hybrid(h) => Some(*h),
        _ => None,
    }
}
