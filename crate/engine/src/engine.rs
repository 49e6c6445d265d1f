//! Engine choice: the fast engine (grounded propositional network) when the
//! game grounds within budget, the reference interpreter otherwise.
//!
//! [`load_engine`] is the entry point for players, the validator, the CLI and
//! the wasm layer: `auto` grounds and falls back to the interpreter (saying
//! why in [`Engine::fallback`]), `fast` fails if the game does not ground,
//! `interpreter` never grounds.

pub mod choice;
pub mod hybrid;

use crate::diagnostic::{self, Diagnostic};
/// The fast engine's grounding budget ([`load_engine_with`]) and figures.
pub use crate::ground::estimate::{Estimate as GroundEstimate, RuleEstimate};
use crate::ground::{self, BitState, Budget, FastEngine};
pub use crate::ground::{Budget as GroundBudget, GroundStats};
use crate::program::{parse_program, Program};
use crate::reasoner::preferred::Preferred;
use crate::reasoner::{
    content_keys, random_playout, EvalError, FluentState, Interpreter, Playout, StateMachine,
};
use crate::terms::{TermId, TermStore};
pub use hybrid::Hybrid;
use std::borrow::Cow;
use std::str::FromStr;
use std::sync::Arc;

/// Which engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The fast engine if the game grounds within budget and runs faster
    /// on it (see [`choice`]), else the interpreter.
    #[default]
    Auto,
    Interpreter,
    /// The fast engine or an error.
    Fast,
}

impl EngineChoice {
    /// The name `--engine` and the JS option take.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Interpreter => "interpreter",
            EngineChoice::Fast => "fast",
        }
    }
}

impl FromStr for EngineChoice {
    type Err = crate::error::OptionError;
    fn from_str(s: &str) -> Result<EngineChoice, Self::Err> {
        match s {
            "auto" => Ok(EngineChoice::Auto),
            "interpreter" => Ok(EngineChoice::Interpreter),
            "fast" => Ok(EngineChoice::Fast),
            other => Err(crate::error::OptionError::Engine(other.into())),
        }
    }
}

/// A game's state machine: the interpreter or the fast engine (cloned
/// for each worker of a parallel search).
// One per game, matched on every call: boxing the larger variant would add
// an indirection to the hot path for no saving.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Engine {
    Interpreter {
        interpreter: Interpreter,
        /// Why the fast engine is not used, when it was asked for (`auto`).
        fallback: Option<String>,
    },
    Fast(Box<FastEngine>),
    /// Moves on the network, `terminal` and `goal` (or `goal` only) asked
    /// of the interpreter: a game whose end tests would not ground.
    Hybrid(Box<Hybrid>),
}

/// A state of either engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EngineState {
    Fluents(FluentState),
    Bits(BitState),
}

/// Parses a game and builds the chosen engine; errors in the game (or, with
/// [`EngineChoice::Fast`], a game that does not ground) are diagnostics.
pub fn load_engine(text: &str, choice: EngineChoice) -> Result<Engine, Vec<Diagnostic>> {
    load_engine_with(text, choice, Budget::default())
}

/// [`load_engine`] with an explicit grounding budget.
pub fn load_engine_with(
    text: &str,
    choice: EngineChoice,
    budget: Budget,
) -> Result<Engine, Vec<Diagnostic>> {
    Game::load_with(text, choice, budget).map(|g| g.engine)
}

/// A game loaded once: its rules parsed (the program, shared) and the
/// chosen engine built from them. Whoever holds a game keeps one `Game`
/// and hands its program to what reads the rules (heuristics, players,
/// explanations) instead of parsing the text again.
pub struct Game {
    pub program: Arc<Program>,
    pub engine: Engine,
}

impl Game {
    /// Parses `text` and builds the chosen engine (see [`load_engine`]).
    pub fn load(text: &str, choice: EngineChoice) -> Result<Game, Vec<Diagnostic>> {
        Game::load_with(text, choice, Budget::default())
    }

    /// [`Game::load`] with an explicit grounding budget.
    pub fn load_with(
        text: &str,
        choice: EngineChoice,
        budget: Budget,
    ) -> Result<Game, Vec<Diagnostic>> {
        let program = parse_program(text);
        if diagnostic::has_errors(&program.diagnostics) {
            return Err(program.diagnostics);
        }
        let engine = Engine::from_program_in(&program, choice, budget, Some(text))?;
        Ok(Game {
            program: Arc::new(program),
            engine,
        })
    }
}

impl Engine {
    /// Builds the chosen engine for a program without syntax errors.
    pub fn from_program(
        program: &Program,
        choice: EngineChoice,
        budget: Budget,
    ) -> Result<Engine, Vec<Diagnostic>> {
        Engine::from_program_in(program, choice, budget, None)
    }

    /// [`Engine::from_program`]; with the program's `text`, a refusal by
    /// the size estimate names the exploding rule's line and column.
    pub fn from_program_in(
        program: &Program,
        choice: EngineChoice,
        budget: Budget,
        text: Option<&str>,
    ) -> Result<Engine, Vec<Diagnostic>> {
        let interpreter = Interpreter::new(program)?;
        if choice == EngineChoice::Interpreter {
            return Ok(Engine::Interpreter {
                interpreter,
                fallback: None,
            });
        }
        // Auto: a game whose estimated grounding is far over the budget
        // falls back at once instead of after the whole time budget.
        // `fast` still tries: the estimate is a heuristic, and asking for
        // the fast engine means wanting to know.
        if choice == EngineChoice::Auto {
            let e =
                ground::estimate::estimate(program, interpreter.compiled(), interpreter.terms());
            let location = |span: diagnostic::Span| match text {
                Some(t) => format!(
                    "line {}",
                    diagnostic::LineIndex::new(t).line_col(span.start as usize)
                ),
                None => format!("bytes {}-{}", span.start, span.end),
            };
            if e.refuses(&budget) {
                if let Some(h) = hybrid::build(program, &interpreter, budget, &e, &location) {
                    return Ok(Engine::Hybrid(Box::new(h)));
                }
                return Ok(Engine::Interpreter {
                    interpreter,
                    fallback: Some(e.reason(&budget, &location)),
                });
            }
        }
        match ground::ground(program, budget) {
            Ok(f) if choice == EngineChoice::Auto => {
                // Auto: the faster of the two (see `choice`).
                let mut fast = Engine::Fast(Box::new(f));
                let mut slow = Engine::Interpreter {
                    interpreter,
                    fallback: None,
                };
                match choice::interpreter_is_faster(&mut fast, &mut slow) {
                    Some(why) => {
                        if let Engine::Interpreter { fallback, .. } = &mut slow {
                            *fallback = Some(why);
                        }
                        Ok(slow)
                    }
                    None => Ok(fast),
                }
            }
            Ok(f) => Ok(Engine::Fast(Box::new(f))),
            Err(e) if choice == EngineChoice::Auto => Ok(Engine::Interpreter {
                interpreter,
                fallback: Some(e.to_string()),
            }),
            Err(e) => Err(vec![Diagnostic::error(
                "GDL091",
                Default::default(),
                format!("the fast engine cannot run this game: {e}"),
            )
            .with_hint(
                "use the interpreter (`--engine auto` or `--engine interpreter`)",
            )]),
        }
    }

    /// `"fast"`, `"hybrid"` or `"interpreter"`: the engine that runs.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Interpreter { .. } => "interpreter",
            Engine::Fast(_) => "fast",
            Engine::Hybrid(_) => "hybrid",
        }
    }

    /// What the hybrid engine leaves to the interpreter, and why.
    pub fn hybrid_note(&self) -> Option<&str> {
        match self {
            Engine::Hybrid(h) => Some(&h.why),
            _ => None,
        }
    }

    /// Why the interpreter runs although the fast engine was asked for.
    pub fn fallback(&self) -> Option<&str> {
        match self {
            Engine::Interpreter { fallback, .. } => fallback.as_deref(),
            Engine::Fast(_) | Engine::Hybrid(_) => None,
        }
    }

    /// Grounding figures of the fast engine.
    pub fn ground_stats(&self) -> Option<&GroundStats> {
        match self.mover() {
            Mover::Network(f) => Some(f.stats()),
            Mover::Interpreter(_) => None,
        }
    }

    /// A random playout (as [`random_playout`]); the fast engine runs it
    /// inside the network without allocating.
    pub fn random_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> Result<Playout<EngineState>, EvalError> {
        match self {
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                let (steps, terminal) = f.playout(&s, rng, max_steps);
                Ok(Playout {
                    state: EngineState::Bits(f.current_state()),
                    steps,
                    terminal,
                })
            }
            Engine::Interpreter { .. } | Engine::Hybrid(_) => {
                random_playout(self, state, rng, max_steps)
            }
        }
    }

    /// A random playout (as [`Engine::random_playout`]) and, when it ends
    /// in a terminal state, its goal values: what a player asks after each
    /// playout, so what a measure of playouts per second should time.
    pub fn scored_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> Result<(Playout<EngineState>, Option<RoleGoals>), EvalError> {
        let p = self.random_playout(state, rng, max_steps)?;
        let goals = if p.terminal {
            Some(StateMachine::goal_values(self, &p.state)?)
        } else {
            None
        };
        Ok((p, goals))
    }

    /// A greedy playout, the default player's (as
    /// [`StateMachine::greedy_playout`], learning the moves that end games
    /// into `enders`), and its goal values when it ends in a terminal state.
    pub fn greedy_scored_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut crate::reasoner::greedy::Enders,
    ) -> Result<(Playout<EngineState>, Option<RoleGoals>), EvalError> {
        let p = StateMachine::greedy_playout(self, state, rng, max_steps, enders)?;
        let goals = if p.terminal {
            Some(StateMachine::goal_values(self, &p.state)?)
        } else {
            None
        };
        Ok((p, goals))
    }
}

/// Each role's goal values in a state (as [`StateMachine::goal_values`]).
pub type RoleGoals = Vec<Vec<i64>>;

/// What makes an engine's moves: the interpreter, or a network (the fast
/// engine's own, or the hybrid's, whose end tests alone differ).
enum Mover<I, F> {
    Interpreter(I),
    Network(F),
}

impl Engine {
    fn mover(&self) -> Mover<&Interpreter, &FastEngine> {
        match self {
            Engine::Interpreter { interpreter, .. } => Mover::Interpreter(interpreter),
            Engine::Fast(f) => Mover::Network(f),
            Engine::Hybrid(h) => Mover::Network(h.fast()),
        }
    }

    fn mover_mut(&mut self) -> Mover<&mut Interpreter, &mut FastEngine> {
        match self {
            Engine::Interpreter { interpreter, .. } => Mover::Interpreter(interpreter),
            Engine::Fast(f) => Mover::Network(f),
            Engine::Hybrid(h) => Mover::Network(h.fast_mut()),
        }
    }
}

fn fast_state<'a>(f: &mut FastEngine, s: &'a EngineState) -> Result<Cow<'a, BitState>, EvalError> {
    match s {
        EngineState::Bits(b) => Ok(Cow::Borrowed(b)),
        EngineState::Fluents(fs) => Ok(Cow::Owned(f.state_from_fluents(fs.fluents()))),
    }
}

fn interp_state(s: &EngineState) -> Result<&FluentState, EvalError> {
    match s {
        EngineState::Fluents(f) => Ok(f),
        EngineState::Bits(_) => Err(EvalError::BadMove(
            "a state of the fast engine given to the interpreter".into(),
        )),
    }
}

impl StateMachine for Engine {
    type State = EngineState;

    fn roles(&self) -> &[TermId] {
        match self.mover() {
            Mover::Interpreter(i) => i.roles(),
            Mover::Network(f) => f.roles(),
        }
    }

    fn terms(&self) -> &TermStore {
        match self.mover() {
            Mover::Interpreter(i) => i.terms(),
            Mover::Network(f) => f.terms(),
        }
    }

    fn terms_mut(&mut self) -> &mut TermStore {
        match self.mover_mut() {
            Mover::Interpreter(i) => i.terms_mut(),
            Mover::Network(f) => f.terms_mut(),
        }
    }

    fn initial_state(&mut self) -> Result<EngineState, EvalError> {
        match self.mover_mut() {
            Mover::Interpreter(i) => i.initial_state().map(EngineState::Fluents),
            Mover::Network(f) => f.initial_state().map(EngineState::Bits),
        }
    }

    fn legal_moves(&mut self, state: &EngineState, role: usize) -> Result<Vec<TermId>, EvalError> {
        match self.mover_mut() {
            Mover::Interpreter(i) => i.legal_moves(interp_state(state)?, role),
            Mover::Network(f) => {
                let s = fast_state(f, state)?;
                f.legal_moves(&s, role)
            }
        }
    }

    fn all_legal_moves(&mut self, state: &EngineState) -> Result<Vec<Vec<TermId>>, EvalError> {
        match self.mover_mut() {
            Mover::Interpreter(i) => i.all_legal_moves(interp_state(state)?),
            Mover::Network(f) => {
                let s = fast_state(f, state)?;
                f.all_legal_moves(&s)
            }
        }
    }

    fn next_state(
        &mut self,
        state: &EngineState,
        joint: &[TermId],
    ) -> Result<EngineState, EvalError> {
        match self.mover_mut() {
            Mover::Interpreter(i) => i
                .next_state(interp_state(state)?, joint)
                .map(EngineState::Fluents),
            Mover::Network(f) => {
                let s = fast_state(f, state)?;
                f.next_state(&s, joint).map(EngineState::Bits)
            }
        }
    }

    fn subgames(&self) -> Vec<usize> {
        match self {
            Engine::Fast(f) => f.subgames(),
            // The hybrid plays out through the generic playouts, which end
            // where a role has no move: not in a subgame.
            Engine::Interpreter { .. } | Engine::Hybrid(_) => Vec::new(),
        }
    }

    fn subgame_of_move(&self, role: usize, mv: TermId) -> Option<u32> {
        match self {
            Engine::Fast(f) => f.subgame_of_move(role, mv),
            Engine::Interpreter { .. } | Engine::Hybrid(_) => None,
        }
    }

    fn enter_subgame(&mut self, part: u32, pass: TermId) -> Result<(), EvalError> {
        match self {
            Engine::Fast(f) => f.enter_subgame(part, pass),
            _ => Err(EvalError::BadMove(
                "only the fast engine plays subgames".into(),
            )),
        }
    }

    fn hold_subgame(&mut self, state: &EngineState) -> Result<EngineState, EvalError> {
        match self {
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                StateMachine::hold_subgame(&mut **f, &s).map(EngineState::Bits)
            }
            _ => Err(EvalError::BadMove(
                "only the fast engine plays subgames".into(),
            )),
        }
    }

    fn percepts(
        &mut self,
        state: &EngineState,
        joint: &[TermId],
    ) -> Result<Vec<Vec<TermId>>, EvalError> {
        match self.mover_mut() {
            Mover::Interpreter(i) => i.percepts(interp_state(state)?, joint),
            Mover::Network(f) => {
                let s = fast_state(f, state)?;
                f.percepts(&s, joint)
            }
        }
    }

    fn has_percepts(&self) -> bool {
        match self.mover() {
            Mover::Interpreter(i) => i.has_percepts(),
            Mover::Network(f) => f.has_percepts(),
        }
    }

    fn is_terminal(&mut self, state: &EngineState) -> Result<bool, EvalError> {
        match self {
            Engine::Interpreter { interpreter, .. } => {
                interpreter.is_terminal(interp_state(state)?)
            }
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                f.is_terminal(&s)
            }
            Engine::Hybrid(h) => {
                let s = fast_state(h.fast_mut(), state)?;
                h.is_terminal(&s)
            }
        }
    }

    fn goal_values(&mut self, state: &EngineState) -> Result<Vec<Vec<i64>>, EvalError> {
        match self {
            Engine::Interpreter { interpreter, .. } => {
                interpreter.goal_values(interp_state(state)?)
            }
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                f.goal_values(&s)
            }
            Engine::Hybrid(h) => {
                let s = fast_state(h.fast_mut(), state)?;
                h.goal_values(&s)
            }
        }
    }

    fn fluents(&self, state: &EngineState) -> Vec<TermId> {
        match (self.mover(), state) {
            (Mover::Network(f), EngineState::Bits(b)) => f.fluents(b),
            (_, EngineState::Fluents(fs)) => fs.fluents().to_vec(),
            (Mover::Interpreter(_), EngineState::Bits(_)) => Vec::new(),
        }
    }

    fn random_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> Result<Playout<EngineState>, EvalError> {
        // The inherent method: in-network playouts on the fast engine.
        Engine::random_playout(self, state, rng, max_steps)
    }

    fn mast_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        mast: &mut crate::reasoner::mast::Mast,
    ) -> Result<Playout<EngineState>, EvalError> {
        match self {
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                let (steps, terminal) = f.playout_mast(&s, rng, max_steps, mast);
                Ok(Playout {
                    state: EngineState::Bits(f.current_state()),
                    steps,
                    terminal,
                })
            }
            Engine::Interpreter { .. } | Engine::Hybrid(_) => {
                crate::reasoner::mast::mast_playout(self, state, rng, max_steps, mast)
            }
        }
    }

    fn greedy_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut crate::reasoner::greedy::Enders,
    ) -> Result<Playout<EngineState>, EvalError> {
        match self {
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                let (steps, terminal) = f.playout_greedy(&s, rng, max_steps, enders, None);
                Ok(Playout {
                    state: EngineState::Bits(f.current_state()),
                    steps,
                    terminal,
                })
            }
            Engine::Interpreter { .. } | Engine::Hybrid(_) => {
                crate::reasoner::greedy::greedy_playout(self, state, rng, max_steps, enders, None)
            }
        }
    }

    fn greedy_mast_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut crate::reasoner::greedy::Enders,
        mast: &mut crate::reasoner::mast::Mast,
    ) -> Result<Playout<EngineState>, EvalError> {
        match self {
            Engine::Fast(f) => {
                let s = fast_state(f, state)?;
                let (steps, terminal) = f.playout_greedy(&s, rng, max_steps, enders, Some(mast));
                Ok(Playout {
                    state: EngineState::Bits(f.current_state()),
                    steps,
                    terminal,
                })
            }
            Engine::Interpreter { .. } | Engine::Hybrid(_) => {
                crate::reasoner::greedy::greedy_playout(
                    self,
                    state,
                    rng,
                    max_steps,
                    enders,
                    Some(mast),
                )
            }
        }
    }

    fn preferred(&self, moves: &[(usize, TermId)]) -> Preferred {
        let mut p = Preferred::of(moves.iter().copied());
        if let Engine::Fast(f) = self {
            f.prefer_mask(&mut p);
        }
        p
    }

    fn preferring_playout(
        &mut self,
        state: &EngineState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        prefer: &Preferred,
    ) -> Result<Playout<EngineState>, EvalError> {
        match self {
            Engine::Fast(f) if !prefer.mask.is_empty() => {
                let s = fast_state(f, state)?;
                let (steps, terminal) = f.playout_preferring(&s, rng, max_steps, &prefer.mask);
                Ok(Playout {
                    state: EngineState::Bits(f.current_state()),
                    steps,
                    terminal,
                })
            }
            _ => {
                crate::reasoner::preferred::preferring_playout(self, state, rng, max_steps, prefer)
            }
        }
    }

    fn move_slot(
        &mut self,
        mast: &mut crate::reasoner::mast::Mast,
        role: usize,
        mv: TermId,
    ) -> u32 {
        match self {
            Engine::Fast(f) => f.move_slot(role, mv),
            Engine::Interpreter { .. } | Engine::Hybrid(_) => mast.slot(role, mv),
        }
    }

    fn clones_share_terms(&self) -> bool {
        // The hybrid's interpreter interns terms, but only its answers
        // (booleans, goal values) leave it.
        matches!(self, Engine::Fast(_) | Engine::Hybrid(_))
    }

    fn slot_move(&self, mast: &crate::reasoner::mast::Mast, slot: u32) -> Option<TermId> {
        match self {
            Engine::Fast(f) => f.slot_move(slot),
            Engine::Interpreter { .. } | Engine::Hybrid(_) => mast.slot_move(slot),
        }
    }

    fn state_from_fluents(&mut self, fluents: &[TermId]) -> EngineState {
        match self.mover_mut() {
            Mover::Interpreter(i) => EngineState::Fluents(i.state_from_fluents(fluents)),
            Mover::Network(f) => EngineState::Bits(f.state_from_fluents(fluents)),
        }
    }

    /// The fast engine's ids and bits mean the same in every copy (it
    /// interns nothing after grounding), so its keys are the state's hash
    /// and the move's id; the interpreter's are content keys.
    fn state_key(&mut self, state: &EngineState) -> content_keys::Key {
        match (self.mover_mut(), state) {
            (Mover::Interpreter(i), EngineState::Fluents(s)) => i.state_key(s),
            (Mover::Network(f), EngineState::Fluents(s)) => {
                content_keys::hash128(&f.state_from_fluents(s.fluents()))
            }
            // A state of the other engine is hashed as bits, as an error
            // everywhere else would say.
            (_, EngineState::Bits(b)) => content_keys::hash128(b),
        }
    }

    fn term_key(&mut self, t: TermId) -> content_keys::Key {
        match self {
            Engine::Interpreter { interpreter, .. } => interpreter.term_key(t),
            Engine::Fast(_) | Engine::Hybrid(_) => u128::from(t.0),
        }
    }
}

/// The grounding's size estimate for a valid program (what `auto` refuses
/// a game on before grounding; `ground::estimate`).
pub fn ground_estimate(program: &Program, interpreter: &Interpreter) -> ground::estimate::Estimate {
    ground::estimate::estimate(program, interpreter.compiled(), interpreter.terms())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter that ends at 3 with goal 100: a playout cut short has no
    /// goals, a finished one its final state's, on either engine.
    #[test]
    fn a_scored_playout_has_the_final_states_goals_when_it_ends() {
        let text = "(role r) (init (at 0)) (succ 0 1) (succ 1 2) (succ 2 3)
            (legal r step) (legal r skip)
            (<= (next (at ?y)) (true (at ?x)) (succ ?x ?y))
            (<= terminal (true (at 3)))
            (<= (goal r 100) (true (at 3)))
            (<= (goal r 0) (not (true (at 3))))";
        let program = crate::parse_program(text);
        let mut checked = 0;
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut e = Engine::from_program(&program, choice, Budget::default()).expect("valid");
            let init = e.initial_state().expect("initial state");
            let mut rng = fastrand::Rng::with_seed(3);
            let (cut, goals) = e.scored_playout(&init, &mut rng, 2).expect("plays");
            assert_eq!((cut.steps, cut.terminal, goals), (2, false, None));
            let (end, goals) = e.scored_playout(&init, &mut rng, 10).expect("plays");
            assert_eq!((end.steps, end.terminal), (3, true));
            assert_eq!(goals, Some(vec![vec![100]]));
            assert_eq!(goals.unwrap(), e.goal_values(&end.state).expect("goals"));
            checked += 1;
        }
        assert_eq!(checked, 2);
    }
}
