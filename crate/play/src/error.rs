//! The errors of the players' library: heuristics that cannot be built,
//! positions that cannot be reached, explanations, matches, traces and
//! solution files. Each variant's message is what the command line and the
//! bindings show. Below every other module of the crate: it names only the
//! engine's and the language's types.

use gdlkit_engine::error::{EvalError, OptionError};
use gdlkit_lang::program::TermError;

/// Why a heuristic could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HeuristicError {
    /// `known` lists the heuristics, comma-separated.
    #[error("unknown heuristic `{name}` (heuristics: {known})")]
    Unknown { name: String, known: String },
    /// `known` lists the cost presets, comma-separated.
    #[error("unknown costs `{name}` (costs: {known})")]
    UnknownCosts { name: String, known: String },
    /// A planning heuristic's relaxed problem could not be built.
    #[error("{measure} heuristic: {message}")]
    Plan {
        measure: &'static str,
        message: String,
    },
    /// The fuzzy heuristic's formulas could not be built; the message,
    /// made where the formulas are, says why.
    #[error("{0}")]
    Fuzzy(String),
    #[error("no evaluation could be learnt: too few random playouts ended")]
    NothingLearnt,
    /// The learned evaluation's playouts failed.
    #[error(transparent)]
    Learned(EvalError),
    #[error("feature heuristic `{0}`: write feature:NAME:max or feature:NAME:min")]
    FeatureSpec(String),
    #[error("feature heuristic: `{0}` is neither max nor min")]
    FeatureDirection(String),
    /// `known` lists the game's features, or is `none`.
    #[error("unknown feature `{name}` (features of this game: {known})")]
    UnknownFeature { name: String, known: String },
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why a player spec is not one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown player `{name}` (players: {players})")]
    UnknownPlayer { name: String, players: String },
    #[error("player option `{part}` must be written name=value")]
    NotKeyValue { part: String },
    #[error("player `{player}` has no option `{key}` (options: {options})")]
    UnknownOption {
        player: &'static str,
        key: String,
        options: String,
    },
    #[error("player option {key} expects {expected}, got `{value}`")]
    BadValue {
        key: &'static str,
        expected: String,
        value: String,
    },
    /// A time outside its range, with the range.
    #[error(transparent)]
    Time(#[from] OptionError),
    #[error("player option {key} needs solver=on")]
    NeedsSolver { key: &'static str },
    #[error("mcts-solver always solves: for plain MCTS use mcts")]
    SolverAlways,
}

/// Why a search or player could not be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// A bad player specification.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Best-first search plays one-player games only.
    #[error("bestfirst is for one-player games; this game has {0} roles (use alphabeta or mcts)")]
    OnePlayerOnly(usize),
    /// Root statistics that cannot be merged (root parallelisation).
    #[error("{0}")]
    Roots(&'static str),
    #[error("threads/cores expects auto or a number from 1 to 256, got `{0}`")]
    Threads(String),
    #[error("ordering must be given, reversed, best or worst, got `{0}`")]
    Ordering(String),
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why joint moves (as text) do not lead to a position; steps count from 1.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PositionError {
    #[error("step {step}: the state is terminal")]
    Terminal { step: usize },
    #[error("step {step}: {given} moves given for {roles} roles")]
    MoveCount {
        step: usize,
        given: usize,
        roles: usize,
    },
    #[error("step {step}: {error}")]
    BadMove { step: usize, error: TermError },
    #[error("step {step}: move {mv} of role {role} is not legal")]
    Illegal {
        step: usize,
        mv: String,
        role: String,
    },
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why a position could not be explained.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ExplainError {
    /// The game does not load; `rendered` holds its error diagnostics,
    /// rendered with their lines.
    #[error("the game has errors:\n{rendered}")]
    Game { rendered: String },
    #[error("the game has no roles (GDL060): nothing to explain")]
    NoRoles,
    /// `roles` lists the game's roles, comma-separated.
    #[error("unknown role `{role}` (roles: {roles})")]
    UnknownRole { role: String, roles: String },
    /// A fluent of the `from` option does not read.
    #[error("fluent {text}: {error}")]
    BadFluent { text: String, error: TermError },
    #[error("budget exhausted")]
    Budget,
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why a match between players could not be played.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MatchError {
    #[error("games {games}: give 1 to {max} games")]
    Games { games: usize, max: usize },
    /// Not one player specification per role (`roles` counts the seats:
    /// all but GDL-II's `random`, when `chance`).
    #[error(
        "the game has {roles} role{}{}; give one player per role, got {given}",
        plural(*.roles),
        if *.chance { " besides `random`, whose moves are drawn" } else { "" }
    )]
    Players {
        roles: usize,
        given: usize,
        chance: bool,
    },
    #[error("player {player} chose an illegal move {mv}")]
    IllegalMove { player: String, mv: String },
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why a trace of a search does not replay to its root's value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TraceError {
    #[error("the trace is truncated")]
    Truncated,
    #[error("value for node {0} outside that node")]
    ValueOutside(u32),
    #[error("return from node {0} with no node open")]
    ReturnUnopened(u32),
    #[error("return from node {node} while node {open} is open")]
    ReturnMismatch { node: u32, open: u32 },
    #[error("node {node} returned {value} but its children give {computed}")]
    WrongValue {
        node: u32,
        value: f64,
        computed: f64,
    },
    #[error("the trace ends inside a node")]
    Unfinished,
    #[error("the trace has no complete search")]
    NoSearch,
}

/// Why a text is not an abstract game tree, or a random tree too large.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TreeError {
    /// The text does not parse; the reader's message.
    #[error("tree: {0}")]
    Syntax(String),
    #[error("a tree is one nested list such as ((3 12 8) (2 4 6) (14 5 2))")]
    NotOneList,
    #[error("the tree has more than {max} nodes")]
    TooLarge { max: usize },
    #[error("tree leaf `{0}` is not an integer")]
    NotAnInteger(String),
    #[error("`{0}`: a tree has numbers, not variables")]
    Variable(String),
    #[error("a tree node `()` needs at least one child")]
    EmptyNode,
    #[error("empty tree")]
    Empty,
    #[error("a tree of branching {branching} and depth {depth} has more than {max} nodes")]
    RandomTooLarge {
        branching: usize,
        depth: usize,
        max: usize,
    },
}

/// Why a solution file does not read; the message names the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SolutionError(pub String);

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
