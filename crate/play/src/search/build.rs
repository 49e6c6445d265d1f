//! A player built from its [`PlayerSpec`] for one game: what the spec
//! leaves to the game (heuristics, the solver's material and exploration
//! constant, `auto` thread counts) is settled here.

use super::spec::{AlphaBetaSpec, Exploration, MctsSpec, PlayerSpec};
use super::subgames::{Part, SubgamePlayer, SubgameView};
use super::{
    alphabeta, alphabeta_parallel, bestfirst, ensemble, fjo, heuristics, mcts, minimax,
    LegalPlayer, Player, RandomPlayer,
};
use crate::error::SearchError;
use crate::program::Program;
use crate::reasoner::StateMachine;

/// Builds a player from its spec. `program` is the game's rules (the fuzzy
/// heuristic reads the goal and terminal formulas from it).
pub fn build_player<M: StateMachine + Clone + Send + 'static>(
    spec: &PlayerSpec,
    program: &Program,
    m: &mut M,
    seed: u64,
) -> Result<Box<dyn Player<M>>, SearchError>
where
    M::State: Send + Sync,
{
    match spec {
        PlayerSpec::Random => Ok(Box::new(RandomPlayer::new(seed))),
        PlayerSpec::Legal => Ok(Box::new(LegalPlayer)),
        PlayerSpec::Minimax(s) => {
            let h = heuristics::build(&s.heuristic, program, m)?;
            Ok(Box::new(minimax::MinimaxPlayer::new(h, s.budget)))
        }
        PlayerSpec::AlphaBeta(s) => alphabeta_player(s, program, m),
        PlayerSpec::BestFirst(s) => {
            if m.roles().len() != 1 {
                return Err(SearchError::OnePlayerOnly(m.roles().len()));
            }
            let h = heuristics::build(&s.heuristic, program, m)?;
            Ok(Box::new(bestfirst::BestFirst::new(h, s.budget)))
        }
        PlayerSpec::Mcts(s) | PlayerSpec::MctsSolver(s) => {
            // One tree, grown by `threads=N` (or `cores=auto|N`) threads.
            let cfg = match s.solver {
                true => solver_config(s, program, m, seed)?,
                false => s.config(),
            };
            let threads = s.threads.count();
            // Subgames where two roles or more move in one (a board both
            // play on): one moved in by one role alone is a race or a
            // puzzle whose worth depends on the others' progress, which a
            // search of that part alone holds still.
            let contested = m.subgames().iter().any(|&movers| movers >= 2);
            if s.solver && s.subgames.unwrap_or(true) && contested {
                return subgame_player(s, program, m, seed);
            }
            Ok(Box::new(mcts::SolverMcts::new(cfg, seed, threads)))
        }
        PlayerSpec::CoolerJo(s) => Ok(fjo::coolerjo(program, m, s.budget)?),
        PlayerSpec::Ensemble(s) => {
            let (names, ms) = ensemble::from_spec(s, program, m);
            Ok(Box::new(ensemble::Ensemble::new(program, m, &names, ms)?))
        }
        PlayerSpec::Hyperplay(s) => Ok(Box::new(super::hidden::Hyperplay::new(
            s.config(),
            s.samples,
            seed,
        ))),
    }
}

/// `subgames=auto`: one MCTS-Solver per subgame that two roles or more move
/// in, on a view of the game that holds the rest of the state, besides one
/// for the whole game.
fn subgame_player<M: StateMachine + Clone + Send + 'static>(
    s: &MctsSpec,
    program: &Program,
    m: &mut M,
    seed: u64,
) -> Result<Box<dyn Player<M>>, SearchError>
where
    M::State: Send + Sync,
{
    let threads = s.threads.count();
    let whole = Box::new(mcts::SolverMcts::new(
        solver_config(s, program, m, seed)?,
        seed,
        threads,
    ));
    let mut parts: Vec<Option<Part<M>>> = Vec::new();
    for (part, movers) in m.subgames().into_iter().enumerate() {
        if movers < 2 {
            parts.push(None);
            continue;
        }
        let mut view = SubgameView::new(m.clone(), part as u32)?;
        let cfg = solver_config(s, program, &mut view, seed)?;
        let player = Box::new(mcts::SolverMcts::new(cfg, seed, threads));
        parts.push(Some((view, player)));
    }
    Ok(Box::new(SubgamePlayer::new(whole, parts)))
}

/// `threads=N` or `cores=auto|N`: lazy SMP; one thread is the one-core
/// player itself.
fn alphabeta_player<M: StateMachine + Clone + Send + 'static>(
    s: &AlphaBetaSpec,
    program: &Program,
    m: &mut M,
) -> Result<Box<dyn Player<M>>, SearchError>
where
    M::State: Send + Sync,
{
    let threads = s.threads.count();
    if threads > 1 {
        let hs = (0..threads)
            .map(|_| heuristics::build(&s.heuristic, program, m))
            .collect::<Result<Vec<_>, _>>()?;
        // One table shared by the threads.
        return Ok(Box::new(alphabeta_parallel::ParallelAlphaBeta::new(
            hs,
            s.config(),
            true,
        )));
    }
    let h = heuristics::build(&s.heuristic, program, m)?;
    Ok(Box::new(alphabeta::AlphaBeta::new(h, s.config())))
}

/// The MCTS-Solver configuration of a spec with the solver, for the player
/// and for each wasm worker alike: whether its playouts are greedy
/// (`greedy=auto`: unless they are dear), the material it counts
/// (`eval=material`), what depends on it (`tactics`, `choke`,
/// `transpositions`: `auto`) and its exploration constant (`c=auto`, from
/// the game's length), settled from the player's seed.
pub fn solver_config<M: StateMachine>(
    s: &MctsSpec,
    program: &Program,
    m: &mut M,
    seed: u64,
) -> Result<mcts::solver::Config, SearchError> {
    // Random playouts' lengths, for what is left to `auto`.
    let auto = s.greedy.is_none() || s.tactics.is_none();
    let lengths = match auto || matches!(s.exploration, Exploration::Auto) {
        true => Some(mcts::solver::Lengths::measure(m, seed, 200, 300.0)?),
        false => None,
    };
    // A game that ends at a set length (reversi) has no win to take nor
    // to prove before its last plies: there greedy steps and the check
    // cost playouts for nothing (BENCHMARKS.md).
    let fixed = lengths.is_some_and(|l| l.fixed());
    // greedy=auto: unless greedy playouts are dear in this game.
    let greedy = match s.greedy {
        Some(on) => on,
        None => !fixed && mcts::solver::auto_greedy(m, seed, 100, 300.0)?,
    };
    let material = if s.material {
        solver_material(program, m, seed, greedy)?
    } else {
        None
    };
    let counted = material.is_some();
    // tactics=auto: the check where the material is counted. Against
    // Sancho it doubled the score in breakthrough; in connect four, where
    // its thread grows the tree instead, the series scored less with it
    // (BENCHMARKS.md).
    let tactics = s.tactics.unwrap_or(counted && !fixed);
    // transpositions=auto: one node per state where no material is
    // counted (a node's material shift depends on the move into it).
    // Against Sancho in connect four (BENCHMARKS.md).
    let transpositions = s.transpositions.unwrap_or(!counted);
    // choke=auto: moves into proven losses choked off where the material
    // is counted. Against Sancho at 30 s / 5 s it lifted breakthrough
    // above half; in connect four the series without it scored more
    // (BENCHMARKS.md).
    let choke = s.choke.unwrap_or(counted);
    let exploration = match s.exploration {
        Exploration::Fixed(c) => c,
        Exploration::Auto => {
            let lengths = lengths.expect("measured for c=auto");
            mcts::solver::auto_exploration(&lengths, counted)
        }
    };
    // Progress moves where no latched piece names the moves to take, and
    // greedy steps are not asked for.
    let latched = material.as_ref().is_some_and(|e| e.latches.is_some());
    let progress = match latched || s.greedy == Some(true) {
        true => Vec::new(),
        false => mcts::progress::find(m, seed, mcts::solver::Config::default().playout_steps)?,
    };
    // The playouts take them instead of greedy steps (a win raises the
    // goal too).
    let greedy = greedy && progress.is_empty();
    Ok(mcts::solver::Config {
        budget: s.budget,
        exploration,
        progress,
        ponder: s.ponder,
        greedy,
        material,
        tactics,
        choke,
        transpositions,
        ..mcts::solver::Config::default()
    })
}

/// The pieces `eval=material` counts: in a two-role game whose boards have
/// pieces whose count could be learnt from playouts like the player's own
/// (`greedy`) and tells something of the outcome
/// ([`mcts::learned::MATERIAL_MIN_FIT`]).
fn solver_material<M: StateMachine>(
    program: &Program,
    m: &mut M,
    seed: u64,
    greedy: bool,
) -> Result<Option<std::sync::Arc<mcts::learned::LearnedEval>>, SearchError> {
    if m.roles().len() != 2 {
        return Ok(None);
    }
    let options = crate::structure::features::HEURISTIC_OPTIONS;
    let st = crate::structure::find(program, m, options)?;
    if st.boards.is_empty() {
        return Ok(None);
    }
    let eval = mcts::learned::LearnedEval::before_first_move(m, seed, greedy, Some(&st.boards))?;
    Ok(eval
        .filter(|e| e.material.is_some() && e.fit >= mcts::learned::MATERIAL_MIN_FIT)
        .map(std::sync::Arc::new))
}
