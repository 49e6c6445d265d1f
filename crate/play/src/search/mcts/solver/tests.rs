//! MCTS-Solver's tests: proofs, the choke, transpositions, the kept tree,
//! the material shift, threads and the tactical check.

use super::exchange::Exchange;
use super::*;
use crate::engine::{load_engine, Engine, EngineChoice, EngineState};
use crate::reasoner::rewards;
use crate::search::mcts::root::merge_roots;

/// Every role's value of `s` when each mover takes the child it values
/// most (goal values at the end): the exact values of a small game.
fn exact(m: &mut Engine, s: &<Engine as StateMachine>::State) -> Vec<f64> {
    if m.is_terminal(s).unwrap() {
        return rewards(m, s).unwrap();
    }
    let legal = m.all_legal_moves(s).unwrap();
    let mover = (0..legal.len()).find(|&r| legal[r].len() > 1).unwrap_or(0);
    let mut best: Option<Vec<f64>> = None;
    for &mv in &legal[mover] {
        let joint: Vec<TermId> = (0..legal.len())
            .map(|r| if r == mover { mv } else { legal[r][0] })
            .collect();
        let child = m.next_state(s, &joint).unwrap();
        let v = exact(m, &child);
        if best.as_ref().is_none_or(|b| v[mover] > b[mover]) {
            best = Some(v);
        }
    }
    best.unwrap()
}

/// Take-away: the mover takes 1 or 2 stones; taking the last one wins.
/// A pile that is a multiple of 3 is lost for the mover.
pub(crate) fn take_away(pile: u32) -> Engine {
    load_engine(&take_away_text(pile), EngineChoice::Interpreter).expect("the test game loads")
}

fn take_away_text(pile: u32) -> String {
    let mut text = format!(
        "(role a) (role b) (init (pile {pile})) (init (control a))
         (<= (legal ?r (take ?k)) (true (control ?r)) (true (pile ?n)) (minus ?n ?k ?m))
         (<= (legal a noop) (true (control b))) (<= (legal b noop) (true (control a)))
         (<= (next (pile ?m)) (does ?r (take ?k)) (true (pile ?n)) (minus ?n ?k ?m))
         (<= (next (control b)) (true (control a))) (<= (next (control a)) (true (control b)))
         (<= (next (last ?r)) (does ?r (take ?k)))
         (<= terminal (true (pile 0)))
         (<= (goal ?r 100) (true (last ?r)))
         (<= (goal ?r 0) (role ?r) (not (true (last ?r))))"
    );
    for n in 1..=12 {
        for k in 1..=2u32.min(n) {
            text.push_str(&format!(" (minus {n} {k} {})", n - k));
        }
    }
    text
}

pub(super) fn cfg(playouts: u64) -> Config {
    Config {
        budget: Budget::nodes(playouts),
        ..Config::default()
    }
}

pub(super) fn shown(m: &Engine, t: Option<TermId>) -> String {
    t.map_or("none".into(), |t| m.terms().display(t).to_string())
}

#[test]
fn proves_a_forced_win_and_plays_it() {
    // From 4 the only winning move is to take 1, from 5 to take 2.
    // One thread, and two sharing the tree.
    let cases = [(4, "(take 1)"), (5, "(take 2)"), (7, "(take 1)")];
    for ((pile, win), threads) in cases.into_iter().flat_map(|c| [(c, 1), (c, 2)]) {
        let mut m = take_away(pile);
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(20_000), 3, threads);
        let r = p.search(&mut m, &root, 0).unwrap();
        assert_eq!(shown(&m, r.best_move), win, "pile {pile}");
        assert!(r.solved, "pile {pile}: the win is proven");
        assert_eq!(r.value, 100.0);
        // The root itself is proven a win for a, and the search stopped
        // early once it was.
        let tree = &p.tree.nodes;
        assert_eq!(tree[0].proven.as_deref(), Some(&[1.0, 0.0][..]));
        assert!(r.stats.playouts < 20_000, "pile {pile}");
    }
}

#[test]
fn the_move_known_without_a_search_is_the_trees_choice() {
    let ttt = include_str!("../../../../../../games/ticTacToe.kif");
    let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::new(cfg(3_000), 5, 1);
    assert_eq!(
        p.tree.known_move(&root, 0),
        None,
        "an empty tree knows nothing"
    );
    let r = p.search(&mut m, &root, 0).unwrap();
    assert_eq!(p.tree.known_move(&root, 0), r.best_move);
    // At a child (o to move): o's most visited move there.
    let legal = m.all_legal_moves(&root).unwrap();
    let x = r.best_move.unwrap();
    let child = m.next_state(&root, &[x, legal[1][0]]).unwrap();
    let id = p
        .tree
        .find(&child)
        .expect("the played move's child is in the tree");
    let view = p.tree.view(id, 1, 0);
    let o = p
        .tree
        .known_move(&child, 1)
        .expect("o's replies were searched");
    let i = view
        .moves
        .iter()
        .position(|&mv| mv == o)
        .expect("a legal move of o");
    assert_eq!(Some(i), choose(&view).map(|c| c.0));
    assert!(view.visits[i] > 0 && view.visits[i] == *view.visits.iter().max().unwrap());
    // Three plies down the tree holds nothing to go by.
    let lc = m.all_legal_moves(&child).unwrap();
    let grandchild = m.next_state(&child, &[lc[0][0], o]).unwrap();
    let lg = m.all_legal_moves(&grandchild).unwrap();
    let deeper = m.next_state(&grandchild, &[lg[0][0], lg[1][0]]).unwrap();
    assert_eq!(p.tree.known_move(&deeper, 1), None);
}

#[test]
fn the_check_thread_walks_once_its_check_has_ended() {
    // In tic-tac-toe the check proves all it can in milliseconds; with
    // a time budget its thread then walks (its walker's generator has
    // moved on), with a playout budget it does not.
    let ttt = include_str!("../../../../../../games/ticTacToe.kif");
    let walked = |budget: Budget| {
        let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
        let root = m.initial_state().unwrap();
        let cfg = Config {
            tactics: true,
            budget,
            ..Config::default()
        };
        let mut p = SolverMcts::new(cfg, 3, 2);
        p.search_view(&mut m, &root, 0).unwrap();
        let fresh = fastrand::Rng::with_seed(worker_seed(3, 1)).u64(..);
        p.walkers[1].rng.u64(..) != fresh
    };
    assert!(walked(Budget::ms(3_000.0)));
    assert!(!walked(Budget::nodes(2_000)));
}

#[test]
fn tactics_prove_a_win_the_tree_has_not_seen() {
    // From 11 only (take 2) wins, seven plies deep: three playouts
    // prove nothing, the check beside them (two threads) or after them
    // (one) does.
    let search = |tactics, threads| {
        let mut m = take_away(11);
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(Config { tactics, ..cfg(3) }, 3, threads);
        let r = p.search(&mut m, &root, 0).unwrap();
        (shown(&m, r.best_move), r.solved, r.value)
    };
    assert!(!search(false, 1).1, "the tree alone proves nothing");
    for threads in [1, 2] {
        assert_eq!(search(true, threads), ("(take 2)".into(), true, 100.0));
    }
}

#[test]
fn moves_banned_at_the_root_are_left_while_another_is_open() {
    let mut m = take_away(8);
    let root = m.initial_state().unwrap();
    let mut t = Searcher::new(cfg(100));
    t.start(&mut m, &root).unwrap();
    let moves = t.nodes[0].legal[0].clone();
    let mut rng = fastrand::Rng::with_seed(1);
    t.ban(0, &moves[..1]);
    // Untried moves first, then by UCB1: never the banned one.
    for visits in [0, 10] {
        t.nodes[0].arms[0]
            .iter_mut()
            .for_each(|a| a.visits = visits);
        t.nodes[0].visits = 2 * visits;
        for _ in 0..50 {
            assert_eq!(t.select(0, 0, &mut rng), 1);
        }
    }
    // Every move banned (a lost root): the ban is ignored.
    t.nodes[0].arms[0].iter_mut().for_each(|a| a.visits = 0);
    t.ban(0, &moves);
    let picks: FxHashSet<u16> = (0..50).map(|_| t.select(0, 0, &mut rng)).collect();
    assert_eq!(picks.len(), 2);
    // A new search starts with nothing banned.
    t.start(&mut m, &root).unwrap();
    assert!(t.banned.is_empty());
}

#[test]
fn tactics_stay_sound_from_move_to_move() {
    // a has a forced win from 11: with tactics on two threads (the
    // check on a clone, whose terms the interpreter names apart) and
    // three playouts a move, a wins a whole game on both engines.
    for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
        let mut m = load_engine(&take_away_text(11), choice).unwrap();
        let mut s = m.initial_state().unwrap();
        let mut p = SolverMcts::new(
            Config {
                tactics: true,
                ..cfg(3)
            },
            7,
            2,
        );
        while !m.is_terminal(&s).unwrap() {
            let legal = m.all_legal_moves(&s).unwrap();
            let a = match legal[0].len() {
                1 => legal[0][0],
                _ => p.select_move(&mut m, &s, 0).unwrap(),
            };
            let b = *legal[1].last().unwrap();
            s = m.next_state(&s, &[a, b]).unwrap();
        }
        assert_eq!(rewards(&mut m, &s).unwrap(), [1.0, 0.0], "{choice:?}");
    }
}

#[test]
fn a_move_proven_lost_by_tactics_is_not_played() {
    let mut m = take_away(8);
    let root = m.initial_state().unwrap();
    let moves = m.legal_moves(&root, 0).unwrap();
    let mut view = RootStats {
        moves: moves.clone(),
        visits: vec![10, 5],
        totals: vec![8.0, 2.0],
        playouts: 15,
        proven: vec![None, None],
        plies: Vec::new(),
    };
    assert_eq!(choose(&view).map(|c| c.0), Some(0));
    let lost = Proofs {
        lost: vec![moves[0]],
        ..Proofs::default()
    };
    mark_proofs(&mut view, &lost);
    assert_eq!(view.proven, [Some(0.0), None]);
    assert_eq!(choose(&view).map(|c| c.0), Some(1));
    // A value the tree proved stands.
    view.proven[0] = Some(1.0);
    mark_proofs(&mut view, &lost);
    assert_eq!(choose(&view).map(|c| c.0), Some(0));
}

#[test]
fn root_parallel_parts_keep_their_proofs() {
    // Take-away from 7, two searches with their own seeds (the page's
    // workers): the merged root keeps the proven win (take 1, to 6),
    // and the merge plays it whatever the visits.
    let mut m = take_away(7);
    let root = m.initial_state().unwrap();
    let parts: Vec<RootStats> = (0..2)
        .map(|w| {
            let mut p = SolverMcts::new(cfg(20_000), worker_seed(3, w), 1);
            p.search_view(&mut m, &root, 0).unwrap().0
        })
        .collect();
    let merged = merge_roots(&parts).unwrap();
    let win = merged
        .moves
        .iter()
        .position(|&t| shown(&m, Some(t)) == "(take 1)");
    let win = win.expect("take 1 is legal");
    // The search stops once the root is proven, so the other move
    // may be left unproven, but never proven a win.
    assert_eq!(merged.proven[win], Some(1.0));
    assert_ne!(merged.proven[1 - win], Some(1.0));
    let mut skewed = merged.clone();
    skewed.visits[win] = 0;
    assert_eq!(choose(&skewed), Some((win, 1.0)));
    // A part that proves nothing (plain MCTS) takes nothing away.
    let plain = RootStats {
        proven: Vec::new(),
        ..parts[0].clone()
    };
    assert_eq!(
        merge_roots(&[plain, parts[1].clone()]).unwrap().proven,
        parts[1].proven
    );
    // Proven values of another length are refused.
    let bad = RootStats {
        proven: vec![None],
        ..parts[0].clone()
    };
    assert!(merge_roots(&[parts[0].clone(), bad]).is_err());
}

#[test]
fn threads_grow_one_tree_and_lose_no_update() {
    // Tic-tac-toe, two threads of 3,000 playouts each on one tree:
    // every playout reaches the root but those taken back (a move into
    // a proven loss), and at every node each move's visits are its
    // child's visits (one lost or doubled update between the threads
    // breaks this).
    let ttt = include_str!("../../../../../../games/ticTacToe.kif");
    let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::new(cfg(3_000), 11, 2);
    let (view, stats) = p.search_view(&mut m, &root, 0).unwrap();
    assert!(stats.playouts > 3_000, "both threads searched: {stats:?}");
    let tree = &p.tree.nodes;
    let choked = p.tree.choked;
    assert_eq!(tree[0].visits as u64 + choked, stats.playouts);
    assert_eq!(view.visits.iter().sum::<u64>() + choked, stats.playouts);
    let mut checked = 0;
    for node in tree {
        let Some(r) = node.mover() else { continue };
        for (&k, &c) in &node.children {
            let i = (k / node.strides[r]) as usize;
            assert_eq!(node.arms[r][i].visits, tree[c as usize].visits);
            checked += 1;
        }
    }
    assert!(checked >= 1_000, "{checked} moves checked");
}

#[test]
fn an_immediate_win_is_played_without_searching() {
    // From 2, taking both stones wins at once: the decisive-move check
    // of the root proves it before any playout.
    let mut m = take_away(2);
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::new(cfg(1_000), 1, 1);
    let r = p.search(&mut m, &root, 0).unwrap();
    assert_eq!(shown(&m, r.best_move), "(take 2)");
    assert_eq!((r.value, r.solved, r.stats.playouts), (100.0, true, 0));
}

/// Adds to `s` the child of node `id` by `role`'s move `mv` (the other
/// role's only move), counting the visit as a descent does: the child
/// and the descent's step.
fn descend_to(
    s: &mut Searcher<EngineState>,
    m: &mut Engine,
    id: u32,
    role: usize,
    mv: &str,
) -> (u32, (u32, Vec<u16>)) {
    let node = &mut s.nodes[id as usize];
    let picks: Vec<u16> = (node.legal.iter().enumerate())
        .map(|(r, l)| match r == role {
            true => l.iter().position(|&t| m.terms().display(t) == mv).unwrap() as u16,
            false => 0,
        })
        .collect();
    let (key, joint) = node.visit(&picks);
    let (state, exchange) = (node.state.clone(), node.exchange);
    let next = m.next_state(&state, &joint).unwrap();
    let child = Searcher::make_node(m, next, &s.cfg, Some(exchange)).unwrap();
    let c = s.nodes.len() as u32;
    s.nodes.push(child);
    s.nodes[id as usize].children.insert(key, c);
    (c, (id, picks))
}

#[test]
fn a_move_into_a_proven_loss_is_not_counted_above_its_node() {
    // From 6 a takes 2; at 4 b's (take 2) leaves 2, which a takes: a
    // loss for b, whose (take 1) is still open.
    let mut m = take_away(6);
    let root = m.initial_state().unwrap();
    for choke in [true, false] {
        let mut s = Searcher::new(Config { choke, ..cfg(1) });
        s.start(&mut m, &root).unwrap();
        let (p, top) = descend_to(&mut s, &mut m, 0, 0, "(take 2)");
        let (e, step) = descend_to(&mut s, &mut m, p, 1, "(take 2)");
        s.decisive(&mut m, e).unwrap();
        assert_eq!(s.nodes[e as usize].proven.as_deref(), Some(&[1.0, 0.0][..]));
        let path = [top.clone(), step.clone()];
        s.backup(e, &path, &[1.0, 0.0]);
        assert!(s.nodes[p as usize].proven.is_none());
        // The losing move counts at b's node, either way.
        let lost = s.nodes[p as usize].arms[1][step.1[1] as usize];
        assert_eq!((lost.visits, lost.total), (1, 0.0));
        let above = s.nodes[0].arms[0][top.1[0] as usize];
        let expected = if choke { (0, 0.0, 0) } else { (1, 1.0, 1) };
        assert_eq!(
            (above.visits, above.total, s.nodes[0].visits),
            expected,
            "choke {choke}"
        );
    }
}

#[test]
fn a_playout_won_at_its_first_step_proves_the_new_node_at_once() {
    // From 4 a's (take 2) leaves 2: b's (take 2) wins at once, its
    // (take 1) only a step later. Random playouts take either.
    let mut m = take_away(4);
    let root = m.initial_state().unwrap();
    let mut seen = (0, 0);
    for seed in 0..40 {
        let config = cfg(1);
        let mut s = Searcher::new(config.clone());
        s.start(&mut m, &root).unwrap();
        let (c, (_, picks)) = descend_to(&mut s, &mut m, 0, 0, "(take 2)");
        let child = s.nodes.pop().unwrap();
        let node = &s.nodes[0];
        let leaf = Leaf::Expand {
            parent: 0,
            key: node
                .children
                .iter()
                .find(|(_, &v)| v == c)
                .map(|(&k, _)| k)
                .unwrap(),
            state: node.state.clone(),
            joint: (picks.iter().enumerate())
                .map(|(r, &i)| node.legal[r][i as usize])
                .collect(),
            room: true,
            exchange: node.exchange,
        };
        let mut w = Walker::new(seed);
        let (end, rewards) = w.explore(&mut m, leaf, 2, &config).unwrap();
        let End::New { node, found, .. } = end else {
            panic!("a new node");
        };
        assert!(node.state == child.state);
        match found {
            Some(found) => {
                let (i, goals) = found.win.expect("the decisive move");
                assert_eq!(shown(&m, Some(node.legal[1][i as usize])), "(take 2)");
                assert_eq!((goals.clone(), rewards), (vec![0.0, 1.0], goals));
                seen.0 += 1;
            }
            None => seen.1 += 1,
        }
    }
    assert!(seen.0 >= 5 && seen.1 >= 5, "{seen:?}");
}

#[test]
fn transpositions_keep_the_proofs_exact() {
    // A pile that is a multiple of 3 is lost for the mover, any other
    // won by leaving one: one thread, and two sharing the graph.
    for (pile, threads) in (3..=10).flat_map(|p| [(p, 1), (p, 2)]) {
        let mut m = take_away(pile);
        let root = m.initial_state().unwrap();
        let cfg = Config {
            transpositions: true,
            ..cfg(50_000)
        };
        let mut p = SolverMcts::new(cfg, 3, threads);
        let r = p.search(&mut m, &root, 0).unwrap();
        let won = pile % 3 != 0;
        let value: &[f64] = if won { &[1.0, 0.0] } else { &[0.0, 1.0] };
        assert_eq!(
            p.tree.nodes[0].proven.as_deref(),
            Some(value),
            "pile {pile}"
        );
        if won {
            let take = format!("(take {})", pile % 3);
            assert_eq!(shown(&m, r.best_move), take, "pile {pile}");
        }
    }
}

#[test]
fn transpositions_give_each_state_one_node_through_a_reroot() {
    let mut m = take_away(12);
    let root = m.initial_state().unwrap();
    let distinct = |s: &Searcher<EngineState>| {
        let states: FxHashSet<&EngineState> = s.nodes.iter().map(|n| &n.state).collect();
        states.len() == s.size()
    };
    // Without transpositions two move orders to one pile make two nodes.
    for transpositions in [false, true] {
        let cfg = Config {
            transpositions,
            ..cfg(3_000)
        };
        let mut p = SolverMcts::new(cfg, 9, 1);
        p.search_view(&mut m, &root, 0).unwrap();
        assert_eq!(distinct(&p.tree), transpositions);
    }
    let cfg = Config {
        transpositions: true,
        ..cfg(300)
    };
    let mut p = SolverMcts::new(cfg, 9, 1);
    p.search_view(&mut m, &root, 0).unwrap();
    let s = &mut p.tree;
    let c = *s.nodes[0].children.values().next().unwrap();
    let g = *s.nodes[c as usize].children.values().next().unwrap();
    let (state, visits) = (
        s.nodes[g as usize].state.clone(),
        s.nodes[g as usize].visits,
    );
    let before = s.size();
    assert!(s.reroot(&state));
    assert!(s.size() < before && s.nodes[0].visits == visits);
    // Each kept node once, reachable, and indexed by its state.
    assert!(distinct(s));
    let mut seen = vec![false; s.size()];
    let mut stack = vec![0u32];
    while let Some(id) = stack.pop() {
        if !std::mem::replace(&mut seen[id as usize], true) {
            stack.extend(s.nodes[id as usize].children.values());
        }
    }
    assert!(seen.iter().all(|&x| x));
    for (i, node) in s.nodes.iter().enumerate() {
        assert_eq!(s.indexed(&node.state), Some(i as u32));
    }
    assert_eq!(s.index.len(), s.size());
}

#[test]
fn transpositions_prove_tic_tac_toe_in_fewer_playouts() {
    // After 1 to 3 marks (each role's first legal move), one thread:
    // the proof is exact either way, and the graph needs fewer
    // playouts than the tree, which proves each move order apart
    // (after one mark, a draw: about 44,000 against 1,100).
    let ttt = include_str!("../../../../../../games/ticTacToe.kif");
    let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
    let mut s = m.initial_state().unwrap();
    for marks in 0..=3 {
        if marks > 0 {
            let exact = exact(&mut m, &s);
            let mut playouts = [0u64; 2];
            for (i, transpositions) in [false, true].into_iter().enumerate() {
                let cfg = Config {
                    transpositions,
                    greedy: true,
                    ..cfg(200_000)
                };
                let mut p = SolverMcts::new(cfg, 11, 1);
                let r = p.search(&mut m, &s, 0).unwrap();
                let proven = p.tree.nodes[0].proven.as_deref();
                assert_eq!(proven, Some(&exact[..]), "{marks} marks, {transpositions}");
                playouts[i] = r.stats.playouts;
            }
            assert!(playouts[1] <= playouts[0], "{marks} marks: {playouts:?}");
            if marks == 1 {
                assert!(playouts[1] * 10 < playouts[0], "{playouts:?}");
            }
        }
        let joint: Vec<TermId> = (m.all_legal_moves(&s).unwrap().iter())
            .map(|l| l[0])
            .collect();
        s = m.next_state(&s, &joint).unwrap();
    }
}

/// A one-player ring of three states that `go` walks round; `stop`
/// ends the game, with nothing won.
fn ring() -> Engine {
    let text = "(role a) (init (p 1)) (succ 1 2) (succ 2 3) (succ 3 1)
         (<= (legal a go) (true (p ?x))) (<= (legal a stop) (true (p ?x)))
         (<= (next (p ?y)) (does a go) (true (p ?x)) (succ ?x ?y))
         (<= (next done) (does a stop))
         (<= terminal (true done))
         (goal a 0)";
    load_engine(text, EngineChoice::Interpreter).expect("the test game loads")
}

#[test]
fn transpositions_link_a_cycle_without_walking_round_it() {
    let mut m = ring();
    let root = m.initial_state().unwrap();
    let cfg = Config {
        transpositions: true,
        playout_steps: 20,
        ..cfg(2_000)
    };
    let mut p = SolverMcts::new(cfg, 1, 1);
    let r = p.search(&mut m, &root, 0).unwrap();
    assert!(r.stats.playouts >= 2_000);
    // p 1, p 2, p 3 and done: one node each; going round never ends.
    assert_eq!(p.tree.size(), 4);
    assert!(p.tree.nodes[0].proven.is_none());
}

#[test]
fn kept_subtree_keeps_its_statistics() {
    let mut m = take_away(12);
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::new(cfg(3_000), 9, 1);
    p.search_view(&mut m, &root, 0).unwrap();
    let s = &mut p.tree;
    // The most visited child and, below it, a grandchild.
    let best_child = |s: &Searcher<_>, id: u32| -> u32 {
        let n: &Node<_> = &s.nodes[id as usize];
        *n.children
            .values()
            .max_by_key(|&&c| s.nodes[c as usize].visits)
            .unwrap()
    };
    let c = best_child(s, 0);
    let g = best_child(s, c);
    // The same state may be reached by two move orders: the kept node
    // is the most visited of them (ties: the first made, as in reroot).
    let state = s.nodes[g as usize].state.clone();
    let g = (0..s.nodes.len())
        .filter(|&i| s.nodes[i].state == state)
        .max_by_key(|&i| (s.nodes[i].visits, std::cmp::Reverse(i)))
        .unwrap();
    let node = &s.nodes[g];
    let visits = node.visits;
    let arms: Vec<Vec<u32>> = node
        .arms
        .iter()
        .map(|a| a.iter().map(|x| x.visits).collect())
        .collect();
    let kids: Vec<(u64, u32)> = {
        let mut k: Vec<(u64, u32)> = node
            .children
            .iter()
            .map(|(&k, &c)| (k, s.nodes[c as usize].visits))
            .collect();
        k.sort();
        k
    };
    assert!(visits > 10 && !kids.is_empty());
    assert!(s.reroot(&state));
    let root = &s.nodes[0];
    assert_eq!(root.visits, visits);
    let arms_after: Vec<Vec<u32>> = root
        .arms
        .iter()
        .map(|a| a.iter().map(|x| x.visits).collect())
        .collect();
    assert_eq!(arms_after, arms);
    let mut kids_after: Vec<(u64, u32)> = root
        .children
        .iter()
        .map(|(&k, &c)| (k, s.nodes[c as usize].visits))
        .collect();
    kids_after.sort();
    assert_eq!(kids_after, kids);
    // Every kept node is reachable from the new root exactly once.
    let mut seen = vec![false; s.nodes.len()];
    let mut stack = vec![0u32];
    while let Some(id) = stack.pop() {
        assert!(!seen[id as usize]);
        seen[id as usize] = true;
        stack.extend(s.nodes[id as usize].children.values());
    }
    assert!(seen.iter().all(|&x| x));
    // A search from there starts with those visits and adds its own.
    let (view, _) = p.search_view(&mut m, &state, 0).unwrap();
    assert_eq!(p.tree.nodes[0].visits, visits + view.playouts as u32);
    // A state that is not in the tree empties it.
    let fresh = m.initial_state().unwrap();
    assert!(!p.tree.reroot(&fresh));
    assert_eq!(p.tree.size(), 0);
}

#[test]
fn an_exchange_shifts_rewards_by_its_outcome_once_it_ends() {
    // Balances of 20 pieces: role 0 takes one (10 against 9), then
    // role 1 takes one back (9 against 9), then a quiet move.
    let root = Exchange::after(None, 0.0, 20.0);
    let take = Exchange::after(Some(root), 1.0 / 19.0, 19.0);
    assert!(take.took && take.shift == 0.0 && take.before == 0.0);
    let quiet = Exchange::after(Some(take), 1.0 / 19.0, 19.0);
    assert!(!quiet.took && quiet.shift > 0.0, "{quiet:?}");
    let back = Exchange::after(Some(take), 0.0, 18.0);
    assert_eq!(
        back.before, 0.0,
        "the exchange began before the first capture"
    );
    let even = Exchange::after(Some(back), 0.0, 18.0);
    assert_eq!(even.shift, 0.0, "an even exchange shifts nothing");
    // Quiet moves without an exchange before shift nothing either.
    assert_eq!(Exchange::after(Some(quiet), 1.0 / 19.0, 19.0).shift, 0.0);
    // The shift moves role 0's reward up by its share of the distance
    // left, role 1's down, and keeps a zero-sum sum.
    for (r0, r1) in [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)] {
        let mut rewards = [r0, r1];
        quiet.apply(&mut rewards);
        let s = quiet.shift;
        assert!((rewards[0] - (r0 + (1.0 - r0) * s)).abs() < 1e-12);
        assert!((rewards[0] + rewards[1] - 1.0).abs() < 1e-12, "{rewards:?}");
    }
    // Role 1's gain shifts the other way.
    let lost = Exchange::after(Some(root), -1.0 / 19.0, 19.0);
    let mut rewards = [0.5, 0.5];
    Exchange::after(Some(lost), -1.0 / 19.0, 19.0).apply(&mut rewards);
    assert!(rewards[1] > 0.5 && rewards[0] < 0.5, "{rewards:?}");
}

#[test]
fn backed_up_rewards_are_shifted_above_an_exchange_that_ended() {
    // Root, then A (a capture: no shift), then B (the exchange's end,
    // shifting by 0.2 towards role 0). A playout's rewards from B reach
    // A's and the root's move shifted; proven rewards are not.
    let mut m = take_away(4);
    let s0 = m.initial_state().unwrap();
    let joint = |m: &mut Engine, s| {
        let legal = m.all_legal_moves(s).unwrap();
        legal.iter().map(|l| l[0]).collect::<Vec<_>>()
    };
    let j0 = joint(&mut m, &s0);
    let s1 = m.next_state(&s0, &j0).unwrap();
    let j1 = joint(&mut m, &s1);
    let s2 = m.next_state(&s1, &j1).unwrap();
    let mut tree = Searcher::new(cfg(1));
    for (s, took, shift) in [(s0, false, 0.0), (s1, true, 0.0), (s2, false, 0.2)] {
        let mut node = Searcher::make_node(&mut m, s, &cfg(1), None).unwrap();
        node.exchange = Exchange {
            took,
            shift,
            ..Exchange::default()
        };
        tree.nodes.push(node);
    }
    let path = vec![(0, vec![0, 0]), (1, vec![0, 0])];
    tree.backup(2, &path, &[0.5, 0.5]);
    let total = |t: &Searcher<_>, id: usize, r: usize| t.nodes[id].arms[r][0].total;
    for id in [0, 1] {
        assert!((total(&tree, id, 0) - 0.6).abs() < 1e-12, "node {id}");
        assert!((total(&tree, id, 1) - 0.4).abs() < 1e-12, "node {id}");
    }
    tree.nodes[2].proven = Some(vec![0.0, 1.0].into_boxed_slice());
    tree.backup(2, &path, &[0.0, 1.0]);
    assert!((total(&tree, 0, 0) - 0.6).abs() < 1e-12);
    assert!((total(&tree, 0, 1) - 1.4).abs() < 1e-12);
}

#[test]
fn captures_are_seeded_and_tried_first() {
    // Take-away from 4: role a moves; pretend its second move captures
    // (role 0's balance up by 0.1 of 20 pieces), its first not.
    let mut m = take_away(4);
    let s0 = m.initial_state().unwrap();
    let mut tree = Searcher::new(cfg(1));
    tree.nodes
        .push(Searcher::make_node(&mut m, s0, &cfg(1), None).unwrap());
    let alike = vec![(0.1, 20.0), (0.1, 20.0)];
    tree.settle(
        0,
        Checked {
            captures: alike,
            ..Checked::default()
        },
    );
    let arms = &tree.nodes[0].arms[0];
    assert!(
        arms.iter().all(|a| a.seed.is_nan()),
        "moves alike: no seeds"
    );
    let captures = vec![(0.0, 20.0), (0.1, 20.0)];
    tree.settle(
        0,
        Checked {
            captures,
            ..Checked::default()
        },
    );
    let arms = &tree.nodes[0].arms[0];
    assert!(arms[0].seed.is_nan(), "a quiet move is not seeded");
    let seed = arms[1].seed as f64;
    let expected = 0.5 + 0.5 * (2.0 / (1.0 + (-0.5f64).exp()) - 1.0);
    assert!((seed - expected).abs() < 1e-6, "{seed} against {expected}");
    let mut rng = fastrand::Rng::with_seed(1);
    assert_eq!(tree.select(0, 0, &mut rng), 1, "the capture first");
    // Role 1 losing as much is displaced the other way.
    assert!(Exchange::displace(0.5, 1, 0.1, 20.0) < 0.5);
    assert!((Exchange::displace(0.5, 1, 0.1, 20.0) + seed - 1.0).abs() < 1e-6);
}

#[test]
fn latched_gains_are_seeded_as_wins_and_tried_first() {
    let mut m = take_away(4);
    let s0 = m.initial_state().unwrap();
    let mut tree = Searcher::new(cfg(1));
    tree.nodes
        .push(Searcher::make_node(&mut m, s0, &cfg(1), None).unwrap());
    // Both moves gain a latched piece (connect four): nothing told apart.
    let alike = Checked {
        latched: vec![1, 1],
        ..Checked::default()
    };
    tree.settle(0, alike);
    assert!(tree.nodes[0].arms[0].iter().all(|a| a.seed.is_nan()));
    // The second gains one (a corner), over a capture's seed of the first.
    let corner = Checked {
        captures: vec![(0.1, 20.0), (0.0, 20.0)],
        latched: vec![0, 1],
        ..Checked::default()
    };
    tree.settle(0, corner);
    let arms = &tree.nodes[0].arms[0];
    assert_eq!(arms[1].seed, 1.0, "the latched piece is seeded as a win");
    assert!(arms[0].seed < 1.0, "the capture keeps its own seed");
    let mut rng = fastrand::Rng::with_seed(1);
    assert_eq!(tree.select(0, 0, &mut rng), 1, "the latched piece first");
    // A move that lets another role gain more is seeded as a loss.
    let given = Checked {
        latched: vec![-1, 0],
        ..Checked::default()
    };
    tree.settle(0, given);
    assert_eq!(tree.nodes[0].arms[0][0].seed, 0.0);
}

#[test]
fn proven_values_overrule_visits() {
    let a = RootStats {
        moves: vec![TermId(1), TermId(2)],
        visits: vec![3, 5],
        totals: vec![1.0, 2.0],
        proven: vec![None, None],
        plies: Vec::new(),
        playouts: 8,
    };
    let mut b = a.clone();
    b.proven[0] = Some(1.0);
    // The proven win is chosen over the more visited move.
    assert_eq!(choose(&b), Some((0, 1.0)));
    // A proven loss is not played while another move is open.
    let mut c = a;
    c.proven[1] = Some(0.0);
    assert_eq!(choose(&c).map(|x| x.0), Some(0));
}
