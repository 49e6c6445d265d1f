//! Searching one subgame at a time: where a game's state splits into parts
//! that the moves change independently (the two boards of
//! connectFourSimultaneous; the fast engine finds them, see
//! `gdlkit_engine::ground::subgames`), a role whose moves all fall in one
//! part searches that part alone, the rest of the state held as it is.
//!
//! In connectFourSimultaneous both roles move at once, each on another
//! board: searched whole, every node has 64 joint moves and a board's
//! position recurs under every position of the other. Searched alone, a
//! board is an alternating connect four (the role moving on the other board
//! passes), which the solver searches as it does connectFour. This is how
//! the field's champion, Sancho, plays such games ("factoring").

use super::{Player, Stats};
use crate::reasoner::greedy::Enders;
use crate::reasoner::mast::Mast;
use crate::reasoner::{EvalError, Playout, StateMachine};
use crate::terms::{TermId, TermStore};

/// The game seen from subgame `part` (the machine plays in it, see
/// [`StateMachine::enter_subgame`]): a role without a move in the part
/// passes; the game ends where it ends, or where no role can move in the
/// part (then every role scores the middle value, 50).
#[derive(Clone)]
pub struct SubgameView<M> {
    m: M,
    pass: TermId,
}

/// What every role scores where no role can move in the subgame.
const STALLED: i64 = 50;

impl<M: StateMachine> SubgameView<M> {
    /// `m` seen from subgame `part` (numbered as `m.subgames()` lists them).
    pub fn new(mut m: M, part: u32) -> Result<SubgameView<M>, EvalError> {
        let store = m.terms_mut();
        let pass = store.symbols.intern("gdlkit-pass");
        let pass = store.constant(pass);
        m.enter_subgame(part, pass)?;
        Ok(SubgameView { m, pass })
    }

    /// Holds `state` outside the part (see [`StateMachine::hold_subgame`])
    /// and returns the state of the part, the root to search from.
    pub fn hold(&mut self, state: &M::State) -> Result<M::State, EvalError> {
        self.m.hold_subgame(state)
    }

    /// Whether no role can move in the part (the game not over).
    fn stalled(&mut self, state: &M::State) -> Result<bool, EvalError> {
        for r in 0..self.m.roles().len() {
            if !self.m.legal_moves(state, r)?.is_empty() {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The one subgame all of `moves` play in, if there is one.
pub fn subgame_of<M: StateMachine>(m: &M, role: usize, moves: &[TermId]) -> Option<u32> {
    let first = m.subgame_of_move(role, *moves.first()?)?;
    moves[1..]
        .iter()
        .all(|&mv| m.subgame_of_move(role, mv) == Some(first))
        .then_some(first)
}

impl<M: StateMachine> StateMachine for SubgameView<M> {
    type State = M::State;

    fn roles(&self) -> &[TermId] {
        self.m.roles()
    }
    fn terms(&self) -> &TermStore {
        self.m.terms()
    }
    fn terms_mut(&mut self) -> &mut TermStore {
        self.m.terms_mut()
    }
    fn initial_state(&mut self) -> Result<M::State, EvalError> {
        self.m.initial_state()
    }

    fn legal_moves(&mut self, state: &M::State, role: usize) -> Result<Vec<TermId>, EvalError> {
        let moves = self.m.legal_moves(state, role)?;
        Ok(if moves.is_empty() {
            vec![self.pass]
        } else {
            moves
        })
    }

    fn next_state(&mut self, state: &M::State, joint: &[TermId]) -> Result<M::State, EvalError> {
        self.m.next_state(state, joint)
    }

    fn is_terminal(&mut self, state: &M::State) -> Result<bool, EvalError> {
        Ok(self.m.is_terminal(state)? || self.stalled(state)?)
    }

    fn goal_values(&mut self, state: &M::State) -> Result<Vec<Vec<i64>>, EvalError> {
        if !self.m.is_terminal(state)? && self.stalled(state)? {
            return Ok(vec![vec![STALLED]; self.m.roles().len()]);
        }
        self.m.goal_values(state)
    }

    // Playouts in the machine, which plays in the subgame.
    fn random_playout(
        &mut self,
        state: &M::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> Result<Playout<M::State>, EvalError> {
        self.m.random_playout(state, rng, max_steps)
    }
    fn mast_playout(
        &mut self,
        state: &M::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        mast: &mut Mast,
    ) -> Result<Playout<M::State>, EvalError> {
        self.m.mast_playout(state, rng, max_steps, mast)
    }
    fn greedy_playout(
        &mut self,
        state: &M::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut Enders,
    ) -> Result<Playout<M::State>, EvalError> {
        self.m.greedy_playout(state, rng, max_steps, enders)
    }
    fn greedy_mast_playout(
        &mut self,
        state: &M::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut Enders,
        mast: &mut Mast,
    ) -> Result<Playout<M::State>, EvalError> {
        self.m
            .greedy_mast_playout(state, rng, max_steps, enders, mast)
    }
    fn move_slot(&mut self, mast: &mut Mast, role: usize, mv: TermId) -> u32 {
        self.m.move_slot(mast, role, mv)
    }
    fn slot_move(&self, mast: &Mast, slot: u32) -> Option<TermId> {
        self.m.slot_move(mast, slot)
    }

    fn fluents(&self, state: &M::State) -> Vec<TermId> {
        self.m.fluents(state)
    }
    fn state_from_fluents(&mut self, fluents: &[TermId]) -> M::State {
        self.m.state_from_fluents(fluents)
    }
    fn state_key(&mut self, state: &M::State) -> crate::reasoner::content_keys::Key {
        self.m.state_key(state)
    }
    fn term_key(&mut self, t: TermId) -> crate::reasoner::content_keys::Key {
        self.m.term_key(t)
    }
    fn clones_share_terms(&self) -> bool {
        self.m.clones_share_terms()
    }
}

/// A subgame's view and the player that searches it.
pub type Part<M> = (SubgameView<M>, Box<dyn Player<SubgameView<M>>>);

/// A player that searches the subgame its role's moves fall in, with one
/// player per subgame (each keeps its own tree: its states leave out what
/// is outside the part, see [`SubgameView::hold`]), and the whole game with
/// another where the moves span several or fall in a subgame without a
/// player.
pub struct SubgamePlayer<M: StateMachine> {
    whole: Box<dyn Player<M>>,
    parts: Vec<Option<Part<M>>>,
    /// The subgame searched last (for its counters), or none, with the
    /// state searched and its root there.
    last: Option<usize>,
    root: Option<(M::State, M::State)>,
    /// The part pondered last (pondering takes the parts in turn).
    pondered: usize,
}

impl<M: StateMachine> SubgamePlayer<M> {
    /// `whole` for the whole game and a player per subgame searched alone
    /// (`parts`, by subgame).
    pub fn new(whole: Box<dyn Player<M>>, parts: Vec<Option<Part<M>>>) -> SubgamePlayer<M> {
        SubgamePlayer {
            whole,
            parts,
            last: None,
            root: None,
            pondered: 0,
        }
    }

    /// The subgame `role` moves in at `state`, if its moves are in one.
    fn part_at(
        &self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<Option<usize>, EvalError> {
        let moves = m.legal_moves(state, role)?;
        Ok(subgame_of(m, role, &moves)
            .map(|p| p as usize)
            .filter(|&p| self.parts.get(p).is_some_and(Option::is_some)))
    }
}

impl<M: StateMachine> Player<M> for SubgamePlayer<M> {
    fn name(&self) -> String {
        format!("{} by subgames", self.whole.name())
    }

    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        self.last = self.part_at(m, state, role)?;
        match self.last {
            Some(p) => {
                let (view, player) = self.parts[p].as_mut().expect("a part searched");
                let root = view.hold(state)?;
                self.root = Some((state.clone(), root.clone()));
                player.select_move(view, &root, role)
            }
            None => self.whole.select_move(m, state, role),
        }
    }

    fn new_game(&mut self) {
        self.whole.new_game();
        for (_, p) in self.parts.iter_mut().flatten() {
            p.new_game();
        }
    }

    fn set_time_ms(&mut self, ms: f64) {
        self.whole.set_time_ms(ms);
        for (_, p) in self.parts.iter_mut().flatten() {
            p.set_time_ms(ms);
        }
    }

    fn known_move(&self, state: &M::State, role: usize) -> Option<TermId> {
        match self.last {
            Some(p) => {
                let (view, player) = self.parts[p].as_ref()?;
                let (searched, root) = self.root.as_ref()?;
                let root = Some(root).filter(|_| searched == state)?;
                (player.known_move(root, role)).filter(|&mv| mv != view.pass)
            }
            None => self.whole.known_move(state, role),
        }
    }

    fn last_stats(&self) -> Stats {
        match self.last {
            Some(p) => {
                (self.parts[p].as_ref()).map_or_else(Stats::default, |(_, pl)| pl.last_stats())
            }
            None => self.whole.last_stats(),
        }
    }

    fn ponders(&self) -> bool {
        self.whole.ponders()
    }

    fn ponder(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
        ms: f64,
    ) -> Result<u64, EvalError> {
        if self.part_at(m, state, role)?.is_none() {
            return self.whole.ponder(m, state, role, ms);
        }
        // Every part searched alone in turn: where the others move now is
        // where this role moves next (connectFourSimultaneous's other
        // board), and the trees are kept. A part with nothing left to
        // search (its root proven) passes its turn to the next at once.
        let parts: Vec<usize> = (0..self.parts.len())
            .filter(|&p| self.parts[p].is_some())
            .collect();
        for _ in 0..parts.len() {
            self.pondered = (self.pondered + 1) % parts.len();
            let (view, player) = self.parts[parts[self.pondered]]
                .as_mut()
                .expect("a part searched");
            let root = view.hold(state)?;
            let playouts = player.ponder(view, &root, role, ms)?;
            if playouts > 0 {
                return Ok(playouts);
            }
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineChoice, EngineState};
    use crate::search::{build_player, PlayerSpec};

    const GAME: &str = include_str!("../../../engine/testdata/two_boards_game.kif");

    fn game() -> crate::Game {
        crate::Game::load(GAME, EngineChoice::Fast).expect("the game grounds")
    }

    /// Red controls board 1 and black board 2: seen from board 1, red
    /// marks its cells, black passes, and board 2 stays as it was.
    #[test]
    fn a_view_holds_the_other_board() {
        let crate::Game { mut engine, .. } = game();
        let s = engine.initial_state().unwrap();
        let red_moves = engine.legal_moves(&s, 0).unwrap();
        let part = subgame_of(&engine, 0, &red_moves).expect("red moves on one board");
        let mut view = SubgameView::new(engine.clone(), part).unwrap();
        assert_eq!(view.legal_moves(&s, 0).unwrap(), red_moves);
        let black = view.legal_moves(&s, 1).unwrap();
        assert_eq!(black, vec![view.pass], "black's board is the other one");
        let next = view.next_state(&s, &[red_moves[0], view.pass]).unwrap();
        let marked = |m: &mut crate::engine::Engine, st: &EngineState| {
            let store_cells = m.fluents(st);
            (store_cells.iter())
                .filter(|&&f| m.terms().display(f).starts_with("(cell"))
                .count()
        };
        assert_eq!(marked(&mut engine, &next), 1, "red's mark only");
        // Now black moves on board 1 and red passes.
        assert_eq!(view.legal_moves(&next, 0).unwrap(), vec![view.pass]);
        assert_eq!(view.legal_moves(&next, 1).unwrap().len(), 8);
    }

    /// The default player searches the board its role moves on, and takes
    /// a win there: after four steps red has two marks in a row on board
    /// 1, where it moves next; black has no win on board 2.
    #[test]
    fn the_default_player_wins_on_its_board() {
        let crate::Game {
            program,
            mut engine,
        } = game();
        let steps = [
            ("(mark 1 1 1)", "(mark 2 1 1)"),
            ("(mark 2 2 2)", "(mark 1 3 3)"),
            ("(mark 1 1 2)", "(mark 2 3 1)"),
            ("(mark 2 2 1)", "(mark 1 2 2)"),
        ];
        let mut s = engine.initial_state().unwrap();
        for (red, black) in steps {
            let joint = [red, black].map(|text| {
                let role = usize::from(text == black);
                let moves = engine.legal_moves(&s, role).unwrap();
                let found = moves
                    .into_iter()
                    .find(|&mv| engine.terms().display(mv) == text);
                found.expect("a legal move")
            });
            s = engine.next_state(&s, &joint).unwrap();
        }
        let specs = [
            ("mcts-solver:playouts=300", true),
            ("mcts-solver:playouts=300,subgames=off", false),
        ];
        for (spec, split) in specs {
            let spec: PlayerSpec = spec.parse().unwrap();
            let mut p = build_player(&spec, &program, &mut engine, 1).unwrap();
            assert_eq!(p.name().ends_with("by subgames"), split, "{}", p.name());
            let mv = p.select_move(&mut engine, &s, 0).unwrap();
            assert_eq!(engine.terms().display(mv), "(mark 1 1 3)", "{}", p.name());
        }
    }

    /// Pondering takes the parts in turn: the board where black moves
    /// now, and red next, grows on the opponents' time too, and red's
    /// search there starts from what it found.
    #[test]
    fn pondering_grows_the_board_moved_on_next() {
        let crate::Game {
            program,
            mut engine,
        } = game();
        let spec: PlayerSpec = "mcts-solver:playouts=1".parse().unwrap();
        let mut p = build_player(&spec, &program, &mut engine, 1).unwrap();
        let s = engine.initial_state().unwrap();
        for _ in 0..4 {
            assert!(p.ponder(&mut engine, &s, 0, 40.0).unwrap() > 0);
        }
        let joint = [0, 1].map(|r| engine.legal_moves(&s, r).unwrap()[0]);
        let next = engine.next_state(&s, &joint).unwrap();
        let (now, then) = [&s, &next]
            .map(|st| engine.legal_moves(st, 0).unwrap())
            .into();
        let (first, part) = (subgame_of(&engine, 0, &now), subgame_of(&engine, 0, &then));
        assert!(
            part.is_some() && part != first,
            "red moves on the other board"
        );
        p.select_move(&mut engine, &next, 0).unwrap();
        let nodes = p.last_stats().nodes;
        assert!(nodes > 20, "{nodes} nodes: the tree was not grown");
    }

    /// Pondering that adds a fixed number of playouts: 0 stands for a
    /// part whose search is over (its root proven).
    struct Fixed(u64);

    impl<M: StateMachine> Player<M> for Fixed {
        fn name(&self) -> String {
            format!("fixed({})", self.0)
        }
        fn select_move(
            &mut self,
            _: &mut M,
            _: &M::State,
            role: usize,
        ) -> Result<TermId, EvalError> {
            Err(crate::search::no_move(role))
        }
        fn ponder(&mut self, _: &mut M, _: &M::State, _: usize, _: f64) -> Result<u64, EvalError> {
            Ok(self.0)
        }
    }

    /// A part whose search is over passes its pondering turn on at once:
    /// every slice grows the other part.
    #[test]
    fn pondering_skips_a_part_already_decided() {
        let crate::Game { mut engine, .. } = game();
        let s = engine.initial_state().unwrap();
        let parts: Vec<Option<Part<crate::engine::Engine>>> = [0, 7]
            .into_iter()
            .enumerate()
            .map(|(part, playouts)| {
                let view = SubgameView::new(engine.clone(), part as u32).unwrap();
                Some((view, Box::new(Fixed(playouts)) as Box<dyn Player<_>>))
            })
            .collect();
        let mut p = SubgamePlayer::new(Box::new(Fixed(1)), parts);
        for slice in 0..4 {
            let playouts = p.ponder(&mut engine, &s, 0, 1.0).unwrap();
            assert_eq!(playouts, 7, "slice {slice}");
        }
    }
}
