//! Player specifications: the text `name:key=value,...` parsed in one
//! place (`PlayerSpec`'s `FromStr`) into a typed spec, one config struct
//! per player. Every option is declared once ([`OptionInfo`], in
//! [`options_of`]); the CLI's help, docs/search.md's option table and the
//! npm package's types are generated from those declarations
//! (`spec_docs.rs`).

pub use crate::error::SpecError;

use super::{alphabeta, player_name, Budget, DEFAULT_MS};
use std::fmt;

/// What an option's value may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Milliseconds: above 0 and at most [`crate::job::MAX_MS`].
    Ms,
    /// A whole number.
    Count,
    /// `on` or `off` (also `true`/`yes`/`1`, `false`/`no`/`0`).
    Flag,
    /// `on`, `off` or `auto`.
    FlagAuto,
    /// One of the words.
    Choice(&'static [&'static str]),
    /// A finite number at least 0, or `auto`.
    Exploration,
    /// A number of threads from 1 to 256, or `auto` (the machine's cores).
    Threads,
    /// A heuristic's name (checked when the player is built for a game).
    Heuristic,
    /// Heuristic names joined by `+`.
    Heuristics,
}

impl Kind {
    /// The values an option takes, for people (`on or off`).
    pub fn expected(&self) -> String {
        match self {
            Kind::Ms => format!(
                "a number of milliseconds above 0 and at most {}",
                crate::job::MAX_MS
            ),
            Kind::Count => "a whole number".into(),
            Kind::Flag => "on or off".into(),
            Kind::FlagAuto => "on, off or auto".into(),
            Kind::Choice(words) => or_list(words),
            Kind::Exploration => "a finite number at least 0, or auto".into(),
            Kind::Threads => "auto or a number from 1 to 256".into(),
            Kind::Heuristic => "a heuristic's name".into(),
            Kind::Heuristics => "heuristic names joined by +".into(),
        }
    }
}

/// `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One option of a player, declared once.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    pub name: &'static str,
    /// Other spellings (the name wins when both are given).
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    /// The default, as written in a spec (`-`: none).
    pub default: &'static str,
    /// One line for people.
    pub help: &'static str,
}

const fn opt(
    name: &'static str,
    kind: Kind,
    default: &'static str,
    help: &'static str,
) -> OptionInfo {
    OptionInfo {
        name,
        aliases: &[],
        kind,
        default,
        help,
    }
}

const MS: OptionInfo = opt(
    "ms",
    Kind::Ms,
    "1000",
    "time per move (the default when no other budget is given)",
);
const NODES: OptionInfo = opt("nodes", Kind::Count, "-", "states entered per move");
const DEPTH: OptionInfo = opt("depth", Kind::Count, "-", "depth limit in joint moves");
const HEURISTIC: OptionInfo = opt(
    "heuristic",
    Kind::Heuristic,
    "fuzzy",
    "the evaluation at the depth limit (docs/search.md, Heuristics)",
);
const THREADS: OptionInfo = OptionInfo {
    aliases: &["cores"],
    ..opt(
        "threads",
        Kind::Threads,
        "1",
        "threads searching, the budget per thread",
    )
};

const MINIMAX: &[OptionInfo] = &[DEPTH, MS, NODES, HEURISTIC];
const ALPHABETA: &[OptionInfo] = &[
    DEPTH,
    MS,
    NODES,
    HEURISTIC,
    opt(
        "mode",
        Kind::Choice(&["auto", "paranoid", "maxn"]),
        "auto",
        "paranoid or max-n values; auto: max-n in two-role turn-taking games that are not zero-sum",
    ),
    THREADS,
];
const BESTFIRST: &[OptionInfo] = &[MS, NODES, HEURISTIC];
const COOLERJO: &[OptionInfo] = &[DEPTH, MS, NODES];
const ENSEMBLE: &[OptionInfo] = &[
    opt(
        "workers",
        Kind::Count,
        "4",
        "members: the exhaustive search and one per heuristic",
    ),
    MS,
    opt(
        "heuristics",
        Kind::Heuristics,
        "-",
        "the members' heuristics, a+b+... (default: fuzzy, mobility, then the game's features)",
    ),
    opt(
        "cores",
        Kind::Threads,
        "1",
        "Web Workers the members run on in the page and npm (natively they take turns)",
    ),
];

/// The options of `mcts` and `mcts-solver`, in one order; `solver` gives
/// the defaults that differ.
macro_rules! mcts_options {
    ($($solver:expr)?; $greedy:expr, $eval:expr, $tactics:expr, $c:expr) => {
        &[
            MS,
            opt("playouts", Kind::Count, "-", "playouts per move"),
            opt("nodes", Kind::Count, "-", "playouts per move (wins over playouts)"),
            opt("c", Kind::Exploration, $c, "the UCT exploration constant; auto (solver only): from the game's length"),
            OptionInfo {
                aliases: &["cores"],
                ..opt("threads", Kind::Threads, "1", "threads growing one tree, the budget per thread")
            },
            opt("greedy", Kind::FlagAuto, $greedy, "playouts take a move that wins at once and avoid one that lets the opponent win at once; auto (solver only): unless that costs more than 20 successor states a step, the game ends at a set length, or its playouts take the moves that raise their mover's goal (chinese checkers)"),
            $($solver,)?
            opt("ponder", Kind::Flag, "on", "solver only: the tree grown on the opponent's time by a player server"),
            opt("eval", Kind::Choice(&["material", "off"]), $eval, "solver only: rewards shifted at the end of exchanges of pieces, where the count tells something of the outcome, and a move that gains a latched piece (reversi's corners) tried first as a win and taken by playouts"),
            opt("tactics", Kind::FlagAuto, $tactics, "solver only: forced wins and losses proven beside the tree; auto: where the material is counted, unless the game ends at a set length"),
            opt("transpositions", Kind::FlagAuto, "auto", "solver only: one node per state; auto: where no material is counted"),
            opt("choke", Kind::FlagAuto, "auto", "solver only: a move into a proven loss counts only at its node; auto: where the material is counted"),
            opt("subgames", Kind::FlagAuto, "auto", "solver only: where the moves change independent parts of the state (two boards), the part a move is in searched alone, the rest held; auto: where the fast engine finds parts that two roles or more move in"),
        ]
    };
}
const SOLVER: OptionInfo = opt(
    "solver",
    Kind::Flag,
    "off",
    "MCTS-Solver: proven wins and losses, the tree kept between moves",
);
const MCTS: &[OptionInfo] = mcts_options!(SOLVER; "off", "off", "off", "0.7");
/// `mcts-solver` always solves: `solver` is refused.
const MCTS_SOLVER: &[OptionInfo] = mcts_options!(; "auto", "material", "auto", "auto");
const HYPERPLAY: &[OptionInfo] = &[
    MS,
    opt("playouts", Kind::Count, "-", "playouts per move, over all the states searched"),
    opt("c", Kind::Exploration, "0.7", "the UCT exploration constant (auto: 0.7)"),
    opt(
        "samples",
        Kind::Count,
        "16",
        "states of the belief searched per move (all of them, by weight, when there are at most this many)",
    ),
];

/// The options only MCTS-Solver reads: refused in `mcts` without `solver=on`.
const SOLVER_ONLY: [&str; 6] = [
    "ponder",
    "choke",
    "eval",
    "tactics",
    "transpositions",
    "subgames",
];

/// The declared options of a player (by its canonical name), in the order
/// its error messages and documents list them.
pub fn options_of(player: &str) -> &'static [OptionInfo] {
    match player {
        "minimax" => MINIMAX,
        "alphabeta" => ALPHABETA,
        "bestfirst" => BESTFIRST,
        "mcts" => MCTS,
        "mcts-solver" => MCTS_SOLVER,
        "coolerjo" => COOLERJO,
        "ensemble" => ENSEMBLE,
        "hyperplay" => HYPERPLAY,
        _ => &[],
    }
}

/// One checked value.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Number(f64),
    Count(u64),
    Flag(bool),
    Auto,
    Word(&'static str),
    Text(String),
}

fn check(info: &OptionInfo, text: &str) -> Result<Value, SpecError> {
    let bad = || SpecError::BadValue {
        key: info.name,
        expected: info.kind.expected(),
        value: text.to_string(),
    };
    let auto = text == "auto";
    Ok(match info.kind {
        Kind::Ms => {
            let ms: f64 = text.parse().map_err(|_| bad())?;
            crate::job::check_ms("player option ms", ms).map_err(SpecError::Time)?;
            Value::Number(ms)
        }
        Kind::Count => Value::Count(text.parse().map_err(|_| bad())?),
        Kind::Flag | Kind::FlagAuto => match text {
            "on" | "true" | "yes" | "1" => Value::Flag(true),
            "off" | "false" | "no" | "0" => Value::Flag(false),
            "auto" if info.kind == Kind::FlagAuto => Value::Auto,
            _ => return Err(bad()),
        },
        Kind::Choice(words) => Value::Word(words.iter().find(|w| **w == text).ok_or_else(bad)?),
        Kind::Exploration if auto => Value::Auto,
        Kind::Exploration => match text.parse::<f64>() {
            Ok(c) if c.is_finite() && c >= 0.0 => Value::Number(c),
            _ => return Err(bad()),
        },
        Kind::Threads if auto => Value::Auto,
        Kind::Threads => match text.parse::<u64>() {
            Ok(n) if (1..=256).contains(&n) => Value::Count(n),
            _ => return Err(bad()),
        },
        Kind::Heuristic | Kind::Heuristics => Value::Text(text.to_string()),
    })
}

/// The options of one spec, checked, in the order given.
struct Checked {
    given: Vec<(&'static OptionInfo, bool, Value)>,
}

impl Checked {
    fn parse(
        player: &'static str,
        decls: &'static [OptionInfo],
        written: &[(String, String)],
    ) -> Result<Checked, SpecError> {
        let mut given = Vec::new();
        for (k, v) in written {
            let Some((d, primary)) = find(decls, k) else {
                return Err(unknown_option(player, decls, k));
            };
            given.push((d, primary, check(d, v)?));
        }
        Ok(Checked { given })
    }

    /// The value of `name`: the last one given, by the name rather than an
    /// alias when both are.
    fn get(&self, name: &str) -> Option<&Value> {
        let of = |primary: bool| {
            self.given
                .iter()
                .rev()
                .find(|(d, p, _)| d.name == name && *p == primary)
                .map(|(_, _, v)| v)
        };
        of(true).or_else(|| of(false))
    }
    fn number(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Some(Value::Number(x)) => Some(*x),
            _ => None,
        }
    }
    fn count(&self, name: &str) -> Option<u64> {
        match self.get(name) {
            Some(Value::Count(n)) => Some(*n),
            _ => None,
        }
    }
    fn flag(&self, name: &str, default: bool) -> bool {
        match self.get(name) {
            Some(Value::Flag(b)) => *b,
            _ => default,
        }
    }
    /// An on/off/auto option: `None` for auto.
    fn flag_auto(&self, name: &str, default: Option<bool>) -> Option<bool> {
        match self.get(name) {
            Some(Value::Flag(b)) => Some(*b),
            Some(Value::Auto) => None,
            _ => default,
        }
    }
    fn word(&self, name: &str, default: &'static str) -> &'static str {
        match self.get(name) {
            Some(Value::Word(w)) => w,
            _ => default,
        }
    }
    fn text(&self, name: &str) -> Option<String> {
        match self.get(name) {
            Some(Value::Text(t)) => Some(t.clone()),
            _ => None,
        }
    }
    fn threads(&self) -> Threads {
        match self.get("threads") {
            Some(Value::Auto) => Threads::Auto,
            Some(Value::Count(n)) => Threads::Count(*n as usize),
            _ => Threads::Count(1),
        }
    }
    /// `ms`, `nodes` (else `playouts`) and `depth`; the default time when
    /// none of them is given.
    fn budget(&self) -> Budget {
        let ms = self.number("ms");
        let nodes = self.count("nodes").or(self.count("playouts"));
        let depth = self.count("depth").map(|d| d.min(u32::MAX as u64) as u32);
        let ms = match (ms, nodes, depth) {
            (None, None, None) => Some(DEFAULT_MS),
            _ => ms,
        };
        Budget { ms, nodes, depth }
    }
}

/// The declaration of option `key`, and whether `key` is its name (not an
/// alias).
fn find(decls: &'static [OptionInfo], key: &str) -> Option<(&'static OptionInfo, bool)> {
    decls.iter().find_map(|d| {
        (d.name == key)
            .then_some((d, true))
            .or_else(|| d.aliases.contains(&key).then_some((d, false)))
    })
}

fn unknown_option(player: &'static str, decls: &[OptionInfo], key: &str) -> SpecError {
    let names: Vec<&str> = (decls.iter())
        .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
        .collect();
    SpecError::UnknownOption {
        player,
        key: key.to_string(),
        options: names.join(", "),
    }
}

/// The options as written (keys lower-cased, both sides trimmed), kept for
/// the spec's text.
pub type Written = Vec<(String, String)>;

/// A thread count: `auto` is the machine's cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    Auto,
    Count(usize),
}

impl Threads {
    pub fn count(self) -> usize {
        match self {
            Threads::Auto => super::parallel::available_cores(),
            Threads::Count(n) => n,
        }
    }
}

/// `minimax`, `bestfirst` and `coolerjo`: a budget and (but coolerjo) a
/// heuristic.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpec {
    pub budget: Budget,
    pub heuristic: String,
    pub written: Written,
}

/// `alphabeta`.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaSpec {
    pub budget: Budget,
    pub heuristic: String,
    pub mode: alphabeta::Mode,
    pub threads: Threads,
    pub written: Written,
}

impl AlphaBetaSpec {
    /// The search's configuration (one thread's).
    pub fn config(&self) -> alphabeta::Config {
        alphabeta::Config {
            budget: self.budget,
            mode: self.mode,
            ..alphabeta::Config::default()
        }
    }
}

/// The exploration constant: a number, or from the game's length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exploration {
    Auto,
    Fixed(f64),
}

/// `mcts` and `mcts-solver` (which is `mcts` with other defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSpec {
    pub budget: Budget,
    pub exploration: Exploration,
    pub threads: Threads,
    /// On, off, or `None` for auto (from their cost in the game; solver
    /// only).
    pub greedy: Option<bool>,
    /// MCTS-Solver; the options below are read only with it.
    pub solver: bool,
    pub ponder: bool,
    /// `eval=material`: the pieces counted where they tell something.
    pub material: bool,
    /// On, off, or `None` for auto (follows the material).
    pub tactics: Option<bool>,
    pub transpositions: Option<bool>,
    pub choke: Option<bool>,
    /// On, off, or `None` for auto (on where the game has subgames).
    pub subgames: Option<bool>,
    pub written: Written,
}

impl MctsSpec {
    fn parse(solver_preset: bool, written: Written) -> Result<MctsSpec, SpecError> {
        let decls = if solver_preset { MCTS_SOLVER } else { MCTS };
        let last = |key: &str| written.iter().rev().find(|(k, _)| k == key);
        if solver_preset && last("solver").is_some() {
            return Err(SpecError::SolverAlways);
        }
        if let Some((k, _)) = written.iter().find(|(k, _)| find(MCTS, k).is_none()) {
            // Both names list the options of `mcts`, as an unknown one says.
            return Err(unknown_option("mcts", MCTS, k));
        }
        // Without the solver its options are refused whatever their value.
        let solver = match last("solver") {
            Some((_, v)) => check(&SOLVER, v)? == Value::Flag(true),
            None => solver_preset,
        };
        if !solver {
            if let Some(key) = SOLVER_ONLY.iter().find(|k| last(k).is_some()) {
                return Err(SpecError::NeedsSolver { key });
            }
            if last("c").is_some_and(|(_, v)| v == "auto") {
                return Err(SpecError::NeedsSolver { key: "c=auto" });
            }
            if last("greedy").is_some_and(|(_, v)| v == "auto") {
                return Err(SpecError::NeedsSolver { key: "greedy=auto" });
            }
        }
        let o = Checked::parse("mcts", decls, &written)?;
        let exploration = match o.get("c") {
            Some(Value::Number(c)) => Exploration::Fixed(*c),
            _ if solver => Exploration::Auto,
            _ => Exploration::Fixed(super::mcts::Config::plain().exploration),
        };
        let default_tactics = if solver_preset { None } else { Some(false) };
        Ok(MctsSpec {
            budget: o.budget(),
            exploration,
            threads: o.threads(),
            greedy: o.flag_auto("greedy", (!solver_preset).then_some(false)),
            solver,
            ponder: o.flag("ponder", true),
            material: o.word("eval", if solver_preset { "material" } else { "off" }) == "material",
            tactics: o.flag_auto("tactics", default_tactics),
            transpositions: o.flag_auto("transpositions", None),
            choke: o.flag_auto("choke", None),
            subgames: o.flag_auto("subgames", None),
            written,
        })
    }

    /// The plain MCTS configuration (budget, exploration, greedy; `auto`
    /// needs the solver, so it is never left here).
    pub fn config(&self) -> super::mcts::Config {
        let plain = super::mcts::Config::plain();
        super::mcts::Config {
            budget: self.budget,
            greedy: self.greedy.unwrap_or(false),
            exploration: match self.exploration {
                Exploration::Fixed(c) => c,
                Exploration::Auto => plain.exploration,
            },
            ..plain
        }
    }
}

/// `hyperplay`.
#[derive(Clone, Debug, PartialEq)]
pub struct HyperplaySpec {
    /// The whole move's, split among the states searched.
    pub budget: Budget,
    pub exploration: f64,
    pub samples: usize,
    pub written: Written,
}

impl HyperplaySpec {
    /// The MCTS each state is searched with.
    pub fn config(&self) -> super::mcts::Config {
        super::mcts::Config {
            budget: self.budget,
            exploration: self.exploration,
            ..super::mcts::Config::plain()
        }
    }
}

/// `ensemble`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnsembleSpec {
    pub workers: usize,
    pub ms: f64,
    /// `a+b+...`; `None`: the default members.
    pub heuristics: Option<String>,
    pub written: Written,
}

/// A player with its options, parsed from text such as
/// `alphabeta:heuristic=fuzzy,ms=200` (its `Display` gives the text back).
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    Random,
    Legal,
    Minimax(SearchSpec),
    AlphaBeta(AlphaBetaSpec),
    BestFirst(SearchSpec),
    /// Plain UCT, or MCTS-Solver with `solver=on`.
    Mcts(MctsSpec),
    /// The default player: `mcts` with solver=on, greedy=on, eval=material,
    /// tactics=auto, c=auto.
    MctsSolver(MctsSpec),
    CoolerJo(SearchSpec),
    Ensemble(EnsembleSpec),
    /// GDL-II: determinized MCTS over the states consistent with what the
    /// role saw (`search::hidden`).
    Hyperplay(HyperplaySpec),
}

impl PlayerSpec {
    /// The canonical player name.
    pub fn name(&self) -> &'static str {
        match self {
            PlayerSpec::Random => "random",
            PlayerSpec::Legal => "legal",
            PlayerSpec::Minimax(_) => "minimax",
            PlayerSpec::AlphaBeta(_) => "alphabeta",
            PlayerSpec::BestFirst(_) => "bestfirst",
            PlayerSpec::Mcts(_) => "mcts",
            PlayerSpec::MctsSolver(_) => "mcts-solver",
            PlayerSpec::CoolerJo(_) => "coolerjo",
            PlayerSpec::Ensemble(_) => "ensemble",
            PlayerSpec::Hyperplay(_) => "hyperplay",
        }
    }

    /// The options as written.
    pub fn written(&self) -> &[(String, String)] {
        match self {
            PlayerSpec::Random | PlayerSpec::Legal => &[],
            PlayerSpec::Minimax(s) | PlayerSpec::BestFirst(s) | PlayerSpec::CoolerJo(s) => {
                &s.written
            }
            PlayerSpec::AlphaBeta(s) => &s.written,
            PlayerSpec::Mcts(s) | PlayerSpec::MctsSolver(s) => &s.written,
            PlayerSpec::Ensemble(s) => &s.written,
            PlayerSpec::Hyperplay(s) => &s.written,
        }
    }

    /// The value of option `key` as written (the last one given).
    pub fn get(&self, key: &str) -> Option<&str> {
        (self.written().iter().rev())
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The spec with option `key` set to `value` (in place of any value it
    /// had), checked again.
    pub fn with(&self, key: &str, value: &str) -> Result<PlayerSpec, SpecError> {
        let mut written: Written = self.written().to_vec();
        written.retain(|(k, _)| k != key);
        written.push((key.to_string(), value.to_string()));
        PlayerSpec::from_parts(self.name(), written)
    }

    /// The spec of player `name` (canonical) with its options as written.
    fn from_parts(name: &'static str, written: Written) -> Result<PlayerSpec, SpecError> {
        let search = |written: Written| -> Result<SearchSpec, SpecError> {
            let o = Checked::parse(name, options_of(name), &written)?;
            Ok(SearchSpec {
                budget: o.budget(),
                heuristic: o.text("heuristic").unwrap_or_else(|| "fuzzy".into()),
                written,
            })
        };
        Ok(match name {
            "random" | "legal" => {
                if let Some((k, _)) = written.first() {
                    return Err(unknown_option(name, &[], k));
                }
                if name == "random" {
                    PlayerSpec::Random
                } else {
                    PlayerSpec::Legal
                }
            }
            "minimax" => PlayerSpec::Minimax(search(written)?),
            "bestfirst" => PlayerSpec::BestFirst(search(written)?),
            "coolerjo" => PlayerSpec::CoolerJo(search(written)?),
            "alphabeta" => PlayerSpec::AlphaBeta(alphabeta_spec(written)?),
            "mcts" => PlayerSpec::Mcts(MctsSpec::parse(false, written)?),
            "mcts-solver" => PlayerSpec::MctsSolver(MctsSpec::parse(true, written)?),
            "ensemble" => {
                let o = Checked::parse(name, ENSEMBLE, &written)?;
                PlayerSpec::Ensemble(EnsembleSpec {
                    workers: o.count("workers").unwrap_or(4) as usize,
                    ms: o.number("ms").unwrap_or(DEFAULT_MS),
                    heuristics: o.text("heuristics"),
                    written,
                })
            }
            "hyperplay" => {
                let o = Checked::parse(name, HYPERPLAY, &written)?;
                PlayerSpec::Hyperplay(HyperplaySpec {
                    budget: o.budget(),
                    exploration: (o.number("c"))
                        .unwrap_or(super::mcts::Config::default().exploration),
                    samples: (o.count("samples"))
                        .unwrap_or(super::hidden::DEFAULT_SAMPLES as u64)
                        .clamp(1, 10_000) as usize,
                    written,
                })
            }
            other => unreachable!("player `{other}` is in the registry but has no spec"),
        })
    }
}

fn alphabeta_spec(written: Written) -> Result<AlphaBetaSpec, SpecError> {
    let o = Checked::parse("alphabeta", ALPHABETA, &written)?;
    Ok(AlphaBetaSpec {
        budget: o.budget(),
        heuristic: o.text("heuristic").unwrap_or_else(|| "fuzzy".into()),
        mode: match o.word("mode", "auto") {
            "paranoid" => alphabeta::Mode::Paranoid,
            "maxn" => alphabeta::Mode::MaxN,
            _ => alphabeta::Mode::Auto,
        },
        threads: o.threads(),
        written,
    })
}

impl std::str::FromStr for PlayerSpec {
    type Err = SpecError;
    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, r),
            None => (text, ""),
        };
        let name = player_name(name)?;
        let mut written = Vec::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(SpecError::NotKeyValue {
                    part: part.to_string(),
                });
            };
            written.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
        PlayerSpec::from_parts(name, written)
    }
}

impl fmt::Display for PlayerSpec {
    /// `name` or `name:k=v,...`, the options as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        for (i, (k, v)) in self.written().iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
