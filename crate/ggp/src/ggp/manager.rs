//! The manager side: one match as ggp-base's `GameServer` runs it, written
//! as a state machine over an abstract transport. [`GameMatch::requests`]
//! says which messages to send (one per role, with its timeout);
//! [`GameMatch::deliver`] takes the answers. The native CLI sends them with
//! threads and sockets, the page with `fetch`: the rules of the match are
//! here, once.
//!
//! Phases: START to every player (replies are not checked, as in
//! ggp-base, but a timeout or connection error is recorded), then PLAY with `nil` and after that the previous joint move
//! until the state is terminal, then STOP with the last joint move. A PLAY
//! answer that is late (`TO`), lost (`CE`: connection error) or not a legal
//! move (`IL <reply>`) is replaced by a random legal move and recorded in
//! `errors`; the match goes on. The record is ggp-base's `Match` JSON, with
//! its `errors` aligned as ggp-base aligns them: START's at index 0, step
//! `i`'s at index `i`.
//!
//! GDL-II (a `random` role or `sees` rules): the manager plays `random`
//! itself (uniform draws seeded from the match seed, as `gdlkit match`
//! draws them), and PLAY/STOP take the Dresden server's form: each player
//! gets the turn, its own last move and its own percepts, never another
//! role's. The record keeps every role's percepts per step.

use super::message::{excerpt, print, spaced, Message, Sight};
use crate::engine::{Engine, EngineChoice, EngineState};
pub use crate::error::ManagerError;
use crate::reasoner::{chance_role, draw_chance_move, random_index, StateMachine};
use crate::EvalError;
use serde_json::{json, Value};

/// What a match needs besides the rules.
#[derive(Clone, Debug)]
pub struct MatchSetup {
    pub match_id: String,
    /// Seconds.
    pub start_clock: u64,
    /// Seconds.
    pub play_clock: u64,
    /// The player of each role (a URL or a name), in role order. In GDL-II
    /// games the `random` role may be left out: the manager plays it.
    pub players: Vec<String>,
    pub seed: u64,
    /// Joint moves after which the match is aborted (games should end).
    pub max_steps: usize,
    /// Milliseconds since the Unix epoch at the start.
    pub start_time: f64,
}

/// A message to send to the player of `role`.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    pub role: usize,
    pub body: String,
    pub timeout_ms: u64,
}

/// Why a player gave no answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    Timeout,
    /// Refused, closed, reset: the detail for the log.
    Connection(String),
}

pub type Answer = Result<String, Failure>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Play,
    Stop,
    Done,
}

/// One match in progress and its record.
pub struct GameMatch {
    pub setup: MatchSetup,
    rules: String,
    engine: Engine,
    state: EngineState,
    phase: Phase,
    rng: fastrand::Rng,
    pub roles: Vec<String>,
    last_joint: Option<Vec<String>>,
    /// GDL-II's `random` role, which the manager plays.
    pub chance: Option<usize>,
    /// GDL-II: PLAY and STOP carry each player's own move and percepts.
    pub gdl2: bool,
    chance_rng: fastrand::Rng,
    /// GDL-II: per step, per role, the percepts as KIF.
    pub percepts: Vec<Vec<Vec<String>>>,
    /// `states` of the record: each the true fluents as KIF.
    pub states: Vec<String>,
    /// The fluents of each state as separate KIF terms (for drawing boards).
    pub state_fluents: Vec<Vec<String>>,
    pub state_times: Vec<f64>,
    pub moves: Vec<Vec<String>>,
    /// Per role: `""` or the error code; START's first, then one per step.
    pub errors: Vec<Vec<String>>,
    /// ggp-base's match token (32 letters and digits).
    pub random_token: String,
    pub goal_values: Vec<i64>,
    pub completed: bool,
    pub aborted: bool,
    /// Human-readable events (each error with its detail), in order.
    pub events: Vec<String>,
}

impl GameMatch {
    /// Loads the rules; errors in them are rendered diagnostics.
    pub fn new(
        rules: &str,
        choice: EngineChoice,
        setup: MatchSetup,
    ) -> Result<GameMatch, ManagerError> {
        let mut engine =
            crate::engine::load_engine(rules, choice).map_err(|d| ManagerError::Rules {
                rendered: crate::diagnostic::render(&d, "rules", rules, false),
            })?;
        let roles: Vec<String> = engine
            .roles()
            .iter()
            .map(|&r| engine.terms().display(r))
            .collect();
        let chance = chance_role(&engine);
        let gdl2 = chance.is_some() || engine.has_percepts();
        let mut setup = setup;
        if let Some(c) = chance.filter(|_| setup.players.len() + 1 == roles.len()) {
            setup.players.insert(c, RANDOM_PLAYER.into());
        }
        if setup.players.len() != roles.len() {
            return Err(ManagerError::Players {
                roles,
                given: setup.players.len(),
            });
        }
        let state = engine.initial_state()?;
        // Its own generator: the token does not change the moves drawn.
        let mut token_rng = fastrand::Rng::with_seed(setup.seed ^ setup.start_time.to_bits());
        let random_token = (0..32)
            .map(|_| token_rng.alphanumeric())
            .collect::<String>();
        let mut m = GameMatch {
            random_token,
            rng: fastrand::Rng::with_seed(setup.seed),
            chance_rng: fastrand::Rng::with_seed(setup.seed ^ CHANCE_SEED),
            chance,
            gdl2,
            percepts: Vec::new(),
            setup,
            rules: rules.to_string(),
            engine,
            state,
            phase: Phase::Start,
            roles,
            last_joint: None,
            states: Vec::new(),
            state_fluents: Vec::new(),
            state_times: Vec::new(),
            moves: Vec::new(),
            errors: Vec::new(),
            goal_values: Vec::new(),
            completed: false,
            aborted: false,
            events: Vec::new(),
        };
        m.record_state();
        Ok(m)
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The name of the current phase: `start`, `play`, `stop` or `done`.
    pub fn phase(&self) -> &'static str {
        match self.phase {
            Phase::Start => "start",
            Phase::Play => "play",
            Phase::Stop => "stop",
            Phase::Done => "done",
        }
    }

    /// The legal moves of `role` in the current state, as KIF.
    pub fn legal_moves(&mut self, role: usize) -> Result<Vec<String>, EvalError> {
        let legal = self.engine.legal_moves(&self.state, role)?;
        Ok(legal
            .iter()
            .map(|&t| spaced(&self.engine.terms().display(t)))
            .collect())
    }

    /// The messages of the current phase, one per role.
    pub fn requests(&self) -> Vec<Outgoing> {
        let id = self.setup.match_id.clone();
        let (pc, sc) = (self.setup.play_clock * 1000, self.setup.start_clock * 1000);
        let each = |f: &dyn Fn(usize) -> (Message, u64)| -> Vec<Outgoing> {
            (0..self.roles.len())
                .map(|r| {
                    let (m, timeout_ms) = f(r);
                    Outgoing {
                        role: r,
                        body: print(&m),
                        timeout_ms,
                    }
                })
                .collect()
        };
        match self.phase {
            Phase::Start => self.seated(each(&|r| {
                (
                    Message::Start {
                        id: id.clone(),
                        role: self.roles[r].clone(),
                        rules: self.rules.clone(),
                        start_clock: self.setup.start_clock,
                        play_clock: self.setup.play_clock,
                    },
                    sc,
                )
            })),
            Phase::Play if self.gdl2 => self.seated(each(&|r| {
                let sight = self.sight(r);
                (
                    Message::PlaySeen {
                        id: id.clone(),
                        sight,
                    },
                    pc + 1000,
                )
            })),
            Phase::Stop if self.gdl2 => self.seated(each(&|r| {
                let sight = self.sight(r);
                (
                    Message::StopSeen {
                        id: id.clone(),
                        sight,
                    },
                    pc,
                )
            })),
            Phase::Play => each(&|_| {
                (
                    Message::Play {
                        id: id.clone(),
                        moves: self.last_joint.clone(),
                    },
                    pc + 1000,
                )
            }),
            Phase::Stop => each(&|_| {
                (
                    Message::Stop {
                        id: id.clone(),
                        moves: self.last_joint.clone(),
                    },
                    pc,
                )
            }),
            Phase::Done => Vec::new(),
        }
    }

    /// The messages without the one to the `random` role (the manager's).
    fn seated(&self, out: Vec<Outgoing>) -> Vec<Outgoing> {
        out.into_iter()
            .filter(|o| Some(o.role) != self.chance)
            .collect()
    }

    /// What the player of role `r` is told in GDL-II: only its own move
    /// and percepts.
    fn sight(&self, r: usize) -> Sight {
        Sight {
            turn: self.moves.len() as u64,
            last_move: self.moves.last().map(|j| j[r].clone()),
            percepts: self.percepts.last().map(|p| p[r].clone()),
        }
    }

    /// The answers to [`GameMatch::requests`] put in role order: in GDL-II
    /// the `random` role was sent nothing, so it gets a place holder.
    fn in_role_order(&self, mut answers: Vec<Answer>) -> Vec<Answer> {
        if let Some(c) = self.chance {
            if answers.len() + 1 == self.roles.len() {
                answers.insert(c, Ok(String::new()));
            }
        }
        answers
    }

    /// The ABORT messages, and the match marked aborted.
    pub fn abort(&mut self) -> Vec<Outgoing> {
        if self.phase == Phase::Done {
            return Vec::new();
        }
        self.aborted = true;
        self.phase = Phase::Done;
        self.events.push("match aborted".into());
        (0..self.roles.len())
            .filter(|&r| Some(r) != self.chance)
            .map(|r| Outgoing {
                role: r,
                body: print(&Message::Abort {
                    id: self.setup.match_id.clone(),
                }),
                timeout_ms: self.setup.play_clock * 1000,
            })
            .collect()
    }

    /// Takes the answers to [`GameMatch::requests`] (one per request, in
    /// their order: one per role in role order, but for GDL-II's `random`)
    /// and moves to the next phase; `now` is epoch milliseconds.
    pub fn deliver(&mut self, answers: Vec<Answer>, now: f64) -> Result<(), ManagerError> {
        let answers = self.in_role_order(answers);
        match self.phase {
            Phase::Start => {
                let mut errors = Vec::new();
                for r in 0..self.roles.len() {
                    if Some(r) == self.chance {
                        errors.push(String::new());
                        continue;
                    }
                    let a = answers
                        .get(r)
                        .cloned()
                        .unwrap_or(Err(Failure::Connection("no answer".into())));
                    if !matches!(&a, Ok(body) if body.trim().eq_ignore_ascii_case("ready")) {
                        self.events.push(format!(
                            "START {}: {} (the match goes on)",
                            self.who(r),
                            describe(&a)
                        ));
                    }
                    // As ggp-base: a reply other than `ready` is no error.
                    errors.push(match a {
                        Ok(_) => String::new(),
                        Err(Failure::Timeout) => "TO".into(),
                        Err(Failure::Connection(_)) => "CE".into(),
                    });
                }
                self.errors.push(errors);
                self.phase = Phase::Play;
                self.check_end()?;
            }
            Phase::Play => {
                self.play(answers, now)?;
                self.check_end()?;
            }
            Phase::Stop => {
                self.phase = Phase::Done;
            }
            Phase::Done => {}
        }
        Ok(())
    }

    fn who(&self, r: usize) -> String {
        format!("{} ({})", self.roles[r], self.setup.players[r])
    }

    fn play(&mut self, answers: Vec<Answer>, now: f64) -> Result<(), EvalError> {
        let legal = self.engine.all_legal_moves(&self.state)?;
        let step = self.moves.len() + 1;
        let mut joint = Vec::new();
        let mut errors = Vec::new();
        for (r, moves) in legal.iter().enumerate() {
            if Some(r) == self.chance {
                let mv = draw_chance_move(&self.engine, moves, &mut self.chance_rng);
                joint
                    .push(mv.ok_or_else(|| EvalError::BadMove("random has no legal move".into()))?);
                errors.push(String::new());
                continue;
            }
            let answer = answers
                .get(r)
                .cloned()
                .unwrap_or(Err(Failure::Connection("no answer".into())));
            let chosen = match &answer {
                Ok(body) => {
                    let text = body.trim();
                    crate::program::parse_ground_term(self.engine.terms_mut(), text)
                        .ok()
                        .filter(|t| moves.contains(t))
                        .ok_or_else(|| format!("IL {}", excerpt(text, REPLY_CHARS)))
                }
                Err(Failure::Timeout) => Err("TO".to_string()),
                Err(Failure::Connection(_)) => Err("CE".to_string()),
            };
            match chosen {
                Ok(t) => {
                    joint.push(t);
                    errors.push(String::new());
                }
                Err(code) => {
                    let t = moves[random_index(&mut self.rng, moves.len())];
                    self.events.push(format!(
                        "step {step}: {}: {}; played {} instead",
                        self.who(r),
                        describe(&answer),
                        self.engine.terms().display(t)
                    ));
                    joint.push(t);
                    errors.push(code);
                }
            }
        }
        let texts: Vec<String> = joint
            .iter()
            .map(|&t| spaced(&self.engine.terms().display(t)))
            .collect();
        if self.gdl2 {
            let seen = self.engine.percepts(&self.state, &joint)?;
            let store = self.engine.terms();
            self.percepts.push(
                seen.iter()
                    .map(|ps| ps.iter().map(|&p| spaced(&store.display(p))).collect())
                    .collect(),
            );
        }
        self.state = self.engine.next_state(&self.state, &joint)?;
        self.moves.push(texts.clone());
        self.errors.push(errors);
        self.last_joint = Some(texts);
        self.record_state_at(now);
        Ok(())
    }

    /// After START or a step: on to STOP when the game is over.
    fn check_end(&mut self) -> Result<(), EvalError> {
        let terminal = self.engine.is_terminal(&self.state)?;
        let stuck = !terminal
            && self
                .engine
                .all_legal_moves(&self.state)?
                .iter()
                .any(Vec::is_empty);
        if terminal {
            self.completed = true;
        } else if stuck || self.moves.len() >= self.setup.max_steps {
            self.aborted = true;
            self.events.push(if stuck {
                "a role has no legal move: match aborted".into()
            } else {
                format!("{} steps without an end: match aborted", self.moves.len())
            });
        } else {
            return Ok(());
        }
        self.goal_values = self
            .engine
            .goals(&self.state)?
            .iter()
            .map(|g| g.unwrap_or(0))
            .collect();
        self.phase = Phase::Stop;
        Ok(())
    }

    fn record_state(&mut self) {
        let t = self.setup.start_time;
        self.record_state_at(t);
    }

    fn record_state_at(&mut self, now: f64) {
        let mut fluents: Vec<String> = self
            .engine
            .fluents(&self.state)
            .iter()
            .map(|&f| self.engine.terms().display(f))
            .collect();
        fluents.sort();
        let kif: Vec<String> = fluents.iter().map(|f| spaced(f)).collect();
        self.states.push(format!("( {} )", kif.join(" ")));
        self.state_fluents.push(fluents);
        self.state_times.push(now.round());
    }

    /// The record in ggp-base's `Match` JSON format (what ggp.org's viewers
    /// read).
    pub fn to_json(&self) -> Value {
        let mut v = self.base_json();
        if self.gdl2 {
            // Not in ggp-base's format: what each role saw, per step.
            v["percepts"] = json!(self.percepts);
        }
        v
    }

    fn base_json(&self) -> Value {
        json!({
            "matchId": self.setup.match_id,
            "randomToken": self.random_token,
            "startTime": self.setup.start_time.round() as i64,
            // -1: no PREVIEW was sent (as ggp-base writes it).
            "previewClock": -1,
            "startClock": self.setup.start_clock,
            "playClock": self.setup.play_clock,
            "scrambled": false,
            "gameRoleNames": self.roles,
            "playerNamesFromHost": self.setup.players,
            "states": self.states,
            "moves": self.moves,
            "errors": self.errors,
            "stateTimes": self.state_times.iter().map(|t| *t as i64).collect::<Vec<_>>(),
            "goalValues": self.goal_values,
            "isCompleted": self.completed,
            "isAborted": self.aborted,
        })
    }

    /// Errors per role (START's and PLAY's).
    pub fn error_counts(&self) -> Vec<usize> {
        (0..self.roles.len())
            .map(|r| self.errors.iter().filter(|e| !e[r].is_empty()).count())
            .collect()
    }
}

/// The name of the manager's own player of GDL-II's `random` role.
pub const RANDOM_PLAYER: &str = "random";

/// Mixed into the match seed for the `random` role's draws, so they do not
/// depend on the substitutes drawn for failed players.
const CHANCE_SEED: u64 = 0xC4A2_CE5E_ED00_0000;

/// Characters of a player's reply kept in the record and on stderr.
pub const REPLY_CHARS: usize = 200;

fn describe(a: &Answer) -> String {
    match a {
        Ok(body) => format!("answered `{}`", excerpt(body, REPLY_CHARS)),
        Err(Failure::Timeout) => "no answer in time".into(),
        Err(Failure::Connection(why)) => format!("connection error: {why}"),
    }
}

/// Milliseconds since the Unix epoch.
pub fn epoch_ms() -> f64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    }
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
}

/// Per-player totals over several matches.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Standing {
    pub player: String,
    pub matches: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub mean_goal: f64,
    pub errors: usize,
}

/// Wins, draws, losses, mean goal and errors per player (the players of
/// the first match, in order; a player is identified by its name). A win
/// is a goal strictly above every other role's, a draw a tie for the top,
/// else a loss; in one-player games a win is 100.
pub fn standings(matches: &[&GameMatch]) -> Vec<Standing> {
    let mut table: Vec<Standing> = Vec::new();
    let mut goal_sums: Vec<f64> = Vec::new();
    for m in matches {
        let counts = m.error_counts();
        for (r, name) in m.setup.players.iter().enumerate() {
            // `random` neither wins nor loses.
            if Some(r) == m.chance {
                continue;
            }
            let i = match table.iter().position(|s| &s.player == name) {
                Some(i) => i,
                None => {
                    table.push(Standing {
                        player: name.clone(),
                        ..Standing::default()
                    });
                    goal_sums.push(0.0);
                    table.len() - 1
                }
            };
            let s = &mut table[i];
            s.matches += 1;
            s.errors += counts[r];
            let g = m.goal_values.get(r).copied().unwrap_or(0);
            goal_sums[i] += g as f64;
            let others: Vec<i64> = m
                .goal_values
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != r && Some(o) != m.chance)
                .map(|(_, &v)| v)
                .collect();
            if others.is_empty() {
                if g == 100 {
                    s.wins += 1
                } else {
                    s.losses += 1
                }
            } else if others.iter().all(|&o| g > o) {
                s.wins += 1;
            } else if others.iter().all(|&o| g >= o) {
                s.draws += 1;
            } else {
                s.losses += 1;
            }
        }
    }
    for (s, sum) in table.iter_mut().zip(goal_sums) {
        s.mean_goal = if s.matches > 0 {
            sum / s.matches as f64
        } else {
            0.0
        };
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(role a) (role b) (init (count 0))
        (<= (legal a (go ?x)) (true (count ?c)) (number ?x)) (<= (legal b noop) (true (count ?c)))
        (number 1) (number 2)
        (<= (next (count 1)) (does a (go 1))) (<= (next (count 2)) (does a (go 2)))
        (<= terminal (true (count ?c)) (number ?c))
        (<= (goal a 100) (true (count 2))) (<= (goal a 0) (true (count 1)))
        (<= (goal b 0) (true (count 2))) (<= (goal b 100) (true (count 1)))
        (<= (goal ?r 50) (role ?r) (true (count 0)))";

    fn setup() -> MatchSetup {
        MatchSetup {
            match_id: "t.1".into(),
            start_clock: 3,
            play_clock: 2,
            players: vec!["p1".into(), "p2".into()],
            seed: 7,
            max_steps: 100,
            start_time: 1000.0,
        }
    }

    #[test]
    fn a_match_with_a_good_and_a_broken_player() {
        let mut m = GameMatch::new(GAME, EngineChoice::Auto, setup()).unwrap();
        let start = m.requests();
        assert_eq!(start.len(), 2);
        assert!(start[1]
            .body
            .starts_with("( START t.1 b (( role a ) ( role b )"));
        assert_eq!(start[0].timeout_ms, 3000);
        m.deliver(vec![Ok("ready".into()), Err(Failure::Timeout)], 1.0)
            .unwrap();
        let play = m.requests();
        assert_eq!(play[0].body, "( PLAY t.1 NIL )");
        assert_eq!(play[0].timeout_ms, 3000);
        // b answers an illegal move: a random legal one (noop) is played.
        m.deliver(vec![Ok("( go 2 )".into()), Ok("( go 1 )".into())], 2.0)
            .unwrap();
        assert_eq!(m.phase(), "stop");
        assert_eq!(m.requests()[0].body, "( STOP t.1 (( go 2 ) noop ) )");
        m.deliver(
            vec![Ok("done".into()), Err(Failure::Connection("reset".into()))],
            3.0,
        )
        .unwrap();
        assert!(m.is_done());
        let j = m.to_json();
        assert_eq!(j["moves"], json!([["( go 2 )", "noop"]]));
        // START's errors first (b timed out), as ggp-base records them.
        assert_eq!(j["errors"], json!([["", "TO"], ["", "IL ( go 1 )"]]));
        assert_eq!(j["goalValues"], json!([100, 0]));
        assert_eq!(j["states"], json!(["( ( count 0 ) )", "( ( count 2 ) )"]));
        assert_eq!(j["isCompleted"], json!(true));
        let s = standings(&[&m]);
        assert_eq!((s[0].wins, s[1].losses, s[1].errors), (1, 1, 2));
    }

    #[test]
    fn timeouts_and_closed_connections_get_random_legal_moves() {
        let mut m = GameMatch::new(GAME, EngineChoice::Interpreter, setup()).unwrap();
        m.deliver(vec![Ok("ready".into()), Ok("ready".into())], 1.0)
            .unwrap();
        m.deliver(
            vec![
                Err(Failure::Timeout),
                Err(Failure::Connection("closed".into())),
            ],
            2.0,
        )
        .unwrap();
        assert_eq!(
            m.errors,
            vec![vec![String::new(); 2], vec!["TO".into(), "CE".into()]]
        );
        assert!(m.completed);
        assert_eq!(m.events.len(), 2, "{:?}", m.events);
    }

    /// `random` hides a car behind door 1 or 2; `p` guesses and sees
    /// whether it won.
    const HIDDEN: &str = "(role p) (role random) (init (step 0)) (door 1) (door 2)
        (<= (legal random (hide ?d)) (true (step 0)) (door ?d)) (<= (legal random noop) (true (step 1)))
        (<= (legal p noop) (true (step 0))) (<= (legal p (guess ?d)) (true (step 1)) (door ?d))
        (<= (next (car ?d)) (does random (hide ?d))) (<= (next (car ?d)) (true (car ?d)))
        (<= (next (step 1)) (true (step 0))) (<= (next (step 2)) (true (step 1)))
        (<= (next (guessed ?d)) (does p (guess ?d)))
        (<= (sees p won) (does p (guess ?d)) (true (car ?d)))
        (<= terminal (true (step 2)))
        (<= (goal p 100) (true (guessed ?d)) (true (car ?d)))
        (<= (goal p 0) (true (guessed ?d)) (not (true (car ?d))))
        (<= (goal p 0) (true (step 0))) (<= (goal p 0) (true (step 1))) (goal random 0)";

    #[test]
    fn gdl2_the_manager_plays_random_and_sends_each_its_own_sight() {
        let mut s = setup();
        s.players = vec!["p1".into()];
        let mut m = GameMatch::new(HIDDEN, EngineChoice::Auto, s).unwrap();
        assert_eq!(m.chance, Some(1));
        let start = m.requests();
        assert_eq!((start.len(), start[0].role), (1, 0));
        m.deliver(vec![Ok("ready".into())], 1.0).unwrap();
        assert_eq!(m.requests()[0].body, "( PLAY t.1 0 NIL NIL )");
        m.deliver(vec![Ok("noop".into())], 2.0).unwrap();
        let play = m.requests();
        assert_eq!(play.len(), 1);
        assert_eq!(play[0].body, "( PLAY t.1 1 noop ( ) )");
        m.deliver(vec![Ok("( guess 1 )".into())], 3.0).unwrap();
        let stop = &m.requests()[0].body;
        let won = m.goal_values[0] == 100;
        let seen = if won { "(won )" } else { "( )" };
        assert_eq!(stop, &format!("( STOP t.1 2 ( guess 1 ) {seen} )"));
        // The hidden move is in the record, never in a message.
        assert!(m.moves[0][1].contains("hide") && !stop.contains("hide"));
        let j = m.to_json();
        assert_eq!(j["percepts"].as_array().map(Vec::len), Some(2));
        assert_eq!(j["errors"], json!([["", ""], ["", ""], ["", ""]]));
        let st = standings(&[&m]);
        assert_eq!(st.len(), 1, "random is nobody's seat");
        assert_eq!(st[0].wins, usize::from(won));
    }

    #[test]
    fn wrong_player_count_and_bad_rules_are_refused() {
        let mut s = setup();
        s.players.pop();
        let e = GameMatch::new(GAME, EngineChoice::Auto, s)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("2 roles"), "{e}");
        assert!(GameMatch::new("(role a", EngineChoice::Auto, setup()).is_err());
    }
}
