//! The errors of the GGP protocol's side of the library: messages that do
//! not read, replies and URLs of players, a manager's match, a player's
//! session, and the game repositories. Each variant's message is what the
//! command line and the bindings show.

use gdlkit_engine::error::EvalError;
use gdlkit_lang::program::TermError;

/// Why a GGP message does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// The reader's message.
    #[error("not KIF: {0}")]
    NotKif(String),
    #[error("expected one message, found {0} forms")]
    Forms(usize),
    #[error("a message is a list such as (info)")]
    NotAList,
    #[error("a message starts with its keyword, e.g. (info)")]
    NoKeyword,
    #[error("({keyword} …) takes {takes} argument{}, got {got}", plural(*.takes))]
    Arity {
        keyword: String,
        takes: usize,
        got: usize,
    },
    /// `what` names the argument (`match id`, `role`).
    #[error("the {what} must be a symbol, got `{got}`")]
    NotASymbol { what: &'static str, got: String },
    #[error("the {what} must be whole seconds, got `{got}`")]
    NotSeconds { what: &'static str, got: String },
    #[error("the rules must be a list of rules")]
    NotRules,
    #[error("moves must be nil or a list of moves, got `{0}`")]
    NotMoves(String),
    #[error("the turn must be a whole number, got `{0}`")]
    NotTurn(String),
    #[error("unknown message `{0}` (info, start, play, stop, abort, preview)")]
    Unknown(String),
}

/// Why a player's HTTP reply could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError {
    #[error("reply larger than {max} bytes")]
    TooLarge { max: usize },
    #[error("the connection closed without a reply")]
    ClosedEmpty,
    #[error("the connection closed inside the reply headers")]
    ClosedInHeaders,
    #[error("the connection closed inside the reply")]
    ClosedInBody,
}

/// Why a player's URL is not `http://host[:port][/path]`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("`{0}`: a player URL starts with http://")]
    NotHttp(String),
    #[error("`{url}`: bad port `{port}`")]
    BadPort { url: String, port: String },
    #[error("`{0}`: no host")]
    NoHost(String),
}

/// Why a manager's match could not start or go on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ManagerError {
    /// The rules do not load; `rendered` holds their diagnostics.
    #[error("{rendered}")]
    Rules { rendered: String },
    /// Not one player per role; `roles` are the game's.
    #[error("the game has {} role{} ({}); give one player per role, got {given}", .roles.len(), plural(.roles.len()), .roles.join(" "))]
    Players { roles: Vec<String>, given: usize },
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why a player's session could not apply moves.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error("no match is running: START first")]
    NoMatch,
    #[error("a joint move has {roles} moves (one per role), got {given}")]
    MoveCount { roles: usize, given: usize },
    #[error(transparent)]
    BadMove(#[from] TermError),
    #[error(transparent)]
    Eval(#[from] EvalError),
}

/// Why a game repository's URL, list or metadata is not usable, or a
/// fetch failed.
#[derive(Debug, thiserror::Error)]
pub enum RepositoryError {
    #[error("`{0}`: a repository URL starts with http:// or https://")]
    NotHttp(String),
    #[error("`{0}` is not a game key (letters, digits, _ - . only)")]
    NotAKey(String),
    #[error("the repository's game list is not JSON: {0}")]
    IndexNotJson(serde_json::Error),
    #[error("the repository's game list is not a JSON array of keys")]
    IndexNotArray,
    /// The item, as JSON.
    #[error("the repository's game list holds {0}, not a game key")]
    IndexItem(String),
    /// `url` is the metadata's URL (empty when it has none).
    #[error("the metadata of {key} ({url}): {problem}")]
    Metadata {
        key: String,
        url: String,
        problem: MetadataProblem,
    },
    #[error("{url}: {failure}")]
    Fetch { url: String, failure: FetchFailure },
}

/// What is wrong with a game's metadata.
#[derive(Debug, thiserror::Error)]
pub enum MetadataProblem {
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("not a JSON object")]
    NotAnObject,
    #[error("no `version` (a non-negative integer)")]
    NoVersion,
    #[error("no `rulesheet` (the rules' file name)")]
    NoRulesheet,
    #[error("`rulesheet` {0:?} is not a file name")]
    BadRulesheet(String),
}

/// Why `GET url` failed (the URL is in [`RepositoryError::Fetch`]).
#[derive(Debug, thiserror::Error)]
pub enum FetchFailure {
    #[error("the command line fetches over http:// only (the GGP repositories serve http)")]
    NotHttp,
    #[error("bad port `{0}`")]
    BadPort(String),
    #[error("cannot resolve {host}: {source}")]
    Resolve {
        host: String,
        source: std::io::Error,
    },
    #[error("no address for {0}")]
    NoAddress(String),
    #[error("cannot connect: {0}")]
    Connect(std::io::Error),
    #[error("cannot send the request: {0}")]
    Send(std::io::Error),
    #[error("no complete reply within {ms} ms ({source})")]
    Timeout { ms: u64, source: std::io::Error },
    #[error("the reply is larger than 64 MB")]
    TooLarge,
    #[error("not an HTTP reply")]
    NotHttpReply,
    /// `status` is the reply's status line.
    #[error("the server answered {code} ({status})")]
    Status { code: String, status: String },
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
