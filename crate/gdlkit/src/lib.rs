//! gdlkit: a General Game Playing toolkit for the Game Description Language.
//!
//! A game's rules (KIF text) go in; out come diagnostics, a formatted text,
//! a state machine to play on, searches and players, the game's structure
//! and explanations of a position. The public API:
//!
//! - **Load a game**: [`load_engine`] builds an [`Engine`] (the fast engine,
//!   a grounded propositional network, when the game grounds; the reference
//!   [`Interpreter`] otherwise, [`Engine::fallback`] says why) and
//!   [`load_game`] builds the interpreter alone. Both implement
//!   [`StateMachine`]: roles, initial state, legal moves, next state,
//!   terminal test and goals. Moves and fluents are [`TermId`]s of the
//!   machine's [`TermStore`]; [`program::parse_ground_term`] reads one,
//!   [`TermStore::display`] writes one.
//! - **Check, fix, format**: [`check_text`] (every static diagnostic),
//!   [`fix::fix_text`], [`format::format`], and the semantic validator
//!   [`analysis`] (terminating, playable, winnable, proved or sampled).
//! - **Search and play**: [`build_player`] makes a [`Player`] from a
//!   [`PlayerSpec`] parsed from text such as `alphabeta:heuristic=fuzzy,ms=200`
//!   (a [`SpecError`] names the valid options and values; the default is
//!   [`DEFAULT_PLAYER`]); [`search`] holds the players (minimax,
//!   alpha-beta, best-first, MCTS and MCTS-Solver), the heuristics and
//!   matches; [`playouts`] (seeded random games), [`trace`] (search events
//!   for lectures). `examples/play.rs` plays a game in twenty lines.
//! - **Solve**: [`solve()`] gives the value of every reachable state under
//!   perfect play ([`Solution`]).
//! - **Structure and explanations**: [`structure`] (boards, successor and
//!   order relations, from the semantics), [`search::explain`].
//! - **Long work**: [`job`] (time limits, cancellation, progress; [`clock`]
//!   a wall clock and deadlines that work in WebAssembly too) and the GGP
//!   protocol [`ggp`] (messages, HTTP framing, player and manager sessions).
//! - **Errors**: [`error`] gathers the typed errors of every function that
//!   can fail (their `Display` is the message the command line prints).
//!
//! Behind it, one crate per layer, each re-exported here: `gdlkit-lang`
//! (KIF text → s-expressions → rules; the validator), `gdlkit-engine` (the
//! interpreter, the grounded network, the limits of long jobs),
//! `gdlkit-play` (players, structure, solving, analysis) and `gdlkit-ggp`
//! (the GGP protocol). The `gdlkit` command (`gdlkit-cli`) and the
//! WebAssembly bindings (`gdlkit-wasm`) sit on top of them.
//!
//! # Example
//!
//! Load tic-tac-toe, list the first player's legal moves, play each role's
//! first legal move until the game ends, and read the goals:
//!
//! ```
//! use gdlkit::{load_engine, EngineChoice, StateMachine};
//!
//! let rules = "
//!     (role x) (role o)
//!     (index 1) (index 2) (index 3)
//!     (<= (init (cell ?r ?c b)) (index ?r) (index ?c))
//!     (init (control x))
//!     (<= (legal ?p (mark ?r ?c)) (true (control ?p)) (true (cell ?r ?c b)))
//!     (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
//!     (<= (next (cell ?r ?c ?p)) (does ?p (mark ?r ?c)))
//!     (<= (next (cell ?r ?c ?v)) (true (cell ?r ?c ?v)) (not (marked ?r ?c)))
//!     (<= (marked ?r ?c) (does ?p (mark ?r ?c)))
//!     (<= (next (control o)) (true (control x)))
//!     (<= (next (control x)) (true (control o)))
//!     (<= (line ?p) (role ?p) (true (cell ?r 1 ?p)) (true (cell ?r 2 ?p)) (true (cell ?r 3 ?p)))
//!     (<= (line ?p) (role ?p) (true (cell 1 ?c ?p)) (true (cell 2 ?c ?p)) (true (cell 3 ?c ?p)))
//!     (<= (line ?p) (role ?p) (true (cell 1 1 ?p)) (true (cell 2 2 ?p)) (true (cell 3 3 ?p)))
//!     (<= (line ?p) (role ?p) (true (cell 1 3 ?p)) (true (cell 2 2 ?p)) (true (cell 3 1 ?p)))
//!     (<= open (true (cell ?r ?c b)))
//!     (<= terminal (line ?p))
//!     (<= terminal (not open))
//!     (<= (goal ?p 100) (line ?p))
//!     (<= (goal x 0) (line o))
//!     (<= (goal o 0) (line x))
//!     (<= (goal ?p 50) (role ?p) (not (line x)) (not (line o)))
//! ";
//! // `Auto`: the fast engine, or the interpreter when the game does not ground.
//! let mut game = load_engine(rules, EngineChoice::Auto).expect("valid rules");
//! let mut state = game.initial_state()?;
//!
//! let moves = game.legal_moves(&state, 0)?;
//! let names: Vec<String> = moves.iter().map(|&m| game.terms().display(m)).collect();
//! assert_eq!(names.len(), 9);
//! assert!(names.contains(&"(mark 2 2)".to_string()));
//!
//! let mut turns = 0;
//! while !game.is_terminal(&state)? {
//!     let joint: Vec<_> = game
//!         .all_legal_moves(&state)?
//!         .iter()
//!         .map(|moves| moves[0])
//!         .collect();
//!     state = game.next_state(&state, &joint)?;
//!     turns += 1;
//! }
//! // x takes the first free cell each turn and completes the diagonal
//! // (1 3) (2 2) (3 1) on its fourth mark.
//! assert_eq!(turns, 7);
//! assert_eq!(game.goals(&state)?, vec![Some(100), Some(0)]);
//! # Ok::<(), gdlkit::EvalError>(())
//! ```

// The layers, one crate each, under the module names they have always had.
pub mod error;

pub use gdlkit_engine::{clock, engine, job, playouts, reasoner, replay};
pub use gdlkit_ggp::{ggp, repository};
pub use gdlkit_lang::{check, diagnostic, fix, format, program, syntax, terms};
pub use gdlkit_play::{analysis, evaluation, ordering, search, solve, structure, trace};

pub use gdlkit_engine::{
    load_engine, load_game, Engine, EngineChoice, EngineState, EvalError, Game, Interpreter,
    Limits, StateMachine,
};
pub use gdlkit_lang::{
    check_program, check_text, parse_program, Diagnostic, Program, Severity, Span, TermId,
    TermStore,
};
pub use gdlkit_play::search::{build_player, Player, PlayerSpec, SpecError, DEFAULT_PLAYER};
pub use gdlkit_play::solve::{solve, Solution};
