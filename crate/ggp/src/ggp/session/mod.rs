//! The player side: a session is fed GGP messages and returns replies, as
//! ggp-base's `GamePlayer` answers them. One match at a time; messages for
//! another match get `busy`. START does the meta-gaming (parse, ground,
//! build the player and its heuristic) under the start clock; PLAY searches
//! for the play clock minus a safety margin.
//!
//! GDL-II (a `random` role or `sees` rules, the Dresden server's PLAY and
//! STOP forms): the session cannot apply the joint move, so it keeps the
//! states consistent with its own moves and percepts ([`Belief`]), hands
//! those to the player ([`Player::observe`]), and lets a player that
//! needs a state search one of them.

use super::http::{self, Parsed, Request};
use super::message::{self, spaced, Message, Sight};
use crate::engine::{Engine, EngineChoice, EngineState};
use crate::error::MessageError;
pub use crate::error::SessionError;
use crate::reasoner::StateMachine;
use crate::search::hidden::{observe_text, Belief};
use crate::search::{build_player, Player, PlayerSpec, RandomPlayer};
use crate::solve::{self, Solution};
use crate::terms::TermId;

/// How the player plays.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The name in INFO replies.
    pub name: String,
    pub spec: PlayerSpec,
    pub engine: EngineChoice,
    /// Milliseconds kept free of each clock for parsing and the network.
    pub margin_ms: f64,
    pub seed: u64,
    /// Whether START tries to solve the game (`crate::solve`) and, when it
    /// can within part of the start clock, plays perfect moves.
    pub solve: bool,
}

impl Default for PlayerConfig {
    fn default() -> PlayerConfig {
        PlayerConfig {
            name: "gdlkit".into(),
            spec: crate::search::DEFAULT_PLAYER
                .parse()
                .expect("the default player is a player"),
            engine: EngineChoice::Auto,
            margin_ms: 500.0,
            seed: 1,
            solve: true,
        }
    }
}

/// A reply to one message: HTTP status, body, and one log line (followed
/// by diagnostics when a rules text is refused).
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub log: String,
}

/// A request read from a client, its message parsed.
pub enum Input {
    /// A CORS preflight.
    Options,
    Message {
        /// Sent as ggp-base's `GET /?(info)` form.
        get: bool,
        text: String,
        parsed: Result<Message, MessageError>,
    },
    /// Not a request: the HTTP status and why.
    Refused { status: u16, why: String },
}

impl Input {
    /// Parses the message of a request (no session needed).
    pub fn read(parsed: Parsed) -> Input {
        match parsed {
            Parsed::Done(Request { method, .. }) if method == "OPTIONS" => Input::Options,
            Parsed::Done(Request { method, message }) => Input::Message {
                get: method == "GET",
                parsed: message::parse(&message),
                text: message,
            },
            Parsed::Bad(why) => Input::Refused { status: 400, why },
            Parsed::TooLarge(why) => Input::Refused { status: 413, why },
            Parsed::Incomplete => Input::Refused {
                status: 400,
                why: "incomplete request".into(),
            },
        }
    }
}

/// A reply a server sends in the session's place when the session has not
/// answered by `at_ms` (`clock::now_ms`): left before a search or START's
/// work, halfway through the margin, so a search that overruns (a machine
/// busier than the margin allows for) still answers within the clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Fallback {
    pub at_ms: f64,
    /// The HTTP response.
    pub response: Vec<u8>,
    pub log: String,
}

/// Where the session leaves the [`Fallback`] for the request it answers.
pub type Watch = std::sync::Arc<std::sync::Mutex<Option<Fallback>>>;

struct Current {
    id: String,
    /// Milliseconds of each play clock.
    clock: f64,
    /// Milliseconds of each play clock the player may think.
    think: f64,
    /// The spec's own time budget (`ms`), at most `think`; none for
    /// players without one.
    cap: Option<f64>,
    role: usize,
    engine: Engine,
    player: Box<dyn Player<Engine>>,
    state: EngineState,
    /// Nothing left to ponder: the state is terminal, or pondering failed.
    over: bool,
    /// The game solved at START, when it is small enough: its moves are
    /// perfect and cost no search.
    solution: Option<Solution>,
    /// The solution values the current state: nothing to ponder. (Where
    /// both roles choose, a state may have no value in pure moves; in a
    /// game that can repeat, one nobody can force an end of.)
    settled: bool,
    /// GDL-II: the states consistent with what we saw; `state` is one
    /// of them.
    belief: Option<Belief<EngineState>>,
}

/// A player server's protocol state.
pub struct Session {
    cfg: PlayerConfig,
    current: Option<Current>,
    /// While a request is answered: where its fallback goes.
    watch: Option<Watch>,
}

/// Players whose budget has a time option (`ms`).
const TIMED: &[&str] = &[
    "minimax",
    "alphabeta",
    "bestfirst",
    "mcts",
    "mcts-solver",
    "hyperplay",
];

impl Session {
    pub fn new(cfg: PlayerConfig) -> Session {
        Session {
            cfg,
            current: None,
            watch: None,
        }
    }

    /// Whether a match is running.
    pub fn busy(&self) -> bool {
        self.current.is_some()
    }

    /// Whether [`Session::ponder`] has something to think about: a match
    /// runs, its state not settled by a solution, not over, and its player
    /// keeps what it learns.
    pub fn ponders(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|cur| !cur.settled && !cur.over && cur.player.ponders())
    }

    /// Thinks for about `ms` milliseconds about the current state on the
    /// opponents' time (the server calls it while no message waits; the
    /// next message's clock still runs from its arrival); the playouts it
    /// added. An evaluation error ends the pondering of this match, not the
    /// match.
    pub fn ponder(&mut self, ms: f64) -> u64 {
        if !self.ponders() {
            return 0;
        }
        let Some(cur) = self.current.as_mut() else {
            return 0;
        };
        let added = match cur.engine.is_terminal(&cur.state) {
            Ok(false) => cur
                .player
                .ponder(&mut cur.engine, &cur.state, cur.role, ms)
                .ok(),
            _ => None,
        };
        cur.over |= added.is_none();
        added.unwrap_or(0)
    }

    /// Answers one HTTP request (already parsed) as if it arrived now.
    pub fn respond(&mut self, parsed: Parsed) -> (Vec<u8>, String) {
        self.respond_at(parsed, crate::clock::now_ms())
    }

    /// Answers one HTTP request whose first byte arrived at `arrival`
    /// (`clock::now_ms`); returns the response bytes and the log line.
    pub fn respond_at(&mut self, parsed: Parsed, arrival: f64) -> (Vec<u8>, String) {
        self.answer(Input::read(parsed), arrival)
    }

    /// Answers a request read with [`Input::read`] (a server parses the
    /// message before it takes the session, so a huge message never holds
    /// the session while it is parsed).
    pub fn answer(&mut self, input: Input, arrival: f64) -> (Vec<u8>, String) {
        match input {
            Input::Options => (
                http::response(200, ""),
                "OPTIONS -> (CORS preflight)".into(),
            ),
            Input::Message { get, text, parsed } => {
                let r = self.handle_parsed(&text, parsed, arrival);
                let log = if get { format!("GET {}", r.log) } else { r.log };
                (http::response(r.status, &r.body), log)
            }
            Input::Refused { status, why } => (
                http::response(status, &error_body(&why)),
                format!("bad request: {why}"),
            ),
        }
    }

    /// [`Session::answer`], leaving in `watch` a reply for the server to
    /// send in time should the answer come too late.
    pub fn answer_watched(
        &mut self,
        input: Input,
        arrival: f64,
        watch: Watch,
    ) -> (Vec<u8>, String) {
        self.watch = Some(watch);
        let answer = self.answer(input, arrival);
        self.watch = None;
        answer
    }

    /// Answers one message text as if it arrived now.
    pub fn handle(&mut self, text: &str) -> Reply {
        self.handle_at(text, crate::clock::now_ms())
    }

    /// Answers one message text that arrived at `arrival` (`clock::now_ms`):
    /// the clocks of START and PLAY run from then.
    pub fn handle_at(&mut self, text: &str, arrival: f64) -> Reply {
        self.handle_parsed(text, message::parse(text), arrival)
    }

    fn handle_parsed(
        &mut self,
        text: &str,
        m: Result<Message, MessageError>,
        arrival: f64,
    ) -> Reply {
        let mut r = match m.map_err(|e| e.to_string()) {
            Err(why) => Reply {
                status: 400,
                body: error_body(&why),
                log: format!(
                    "malformed message: {}: {}",
                    message::excerpt(&why, 200),
                    message::excerpt(text, 80)
                ),
            },
            Ok(m) => self.dispatch(m, arrival),
        };
        r.log = format!("{} ({:.0} ms)", r.log, crate::clock::now_ms() - arrival);
        r
    }

    fn dispatch(&mut self, m: Message, arrival: f64) -> Reply {
        let kind = m.kind();
        let ok = |body: String, note: String| Reply {
            status: 200,
            log: format!("{kind} {note}-> {body}"),
            body,
        };
        // A message for another match than the running one: busy.
        if let (Some(cur), Some(id)) = (&self.current, m.match_id()) {
            if cur.id != id || matches!(m, Message::Start { .. }) {
                return ok("busy".into(), format!("{id} (playing {}) ", cur.id));
            }
        }
        match m {
            Message::Info => {
                let status = if self.busy() { "busy" } else { "available" };
                ok(
                    format!("( ( name {} ) ( status {status} ) )", self.cfg.name),
                    String::new(),
                )
            }
            Message::Preview { rules, .. } => {
                if self.busy() {
                    return ok("busy".into(), String::new());
                }
                match crate::engine::load_engine(&rules, EngineChoice::Interpreter) {
                    Ok(_) => ok("done".into(), String::new()),
                    Err(d) => refused("PREVIEW", &rules, &d),
                }
            }
            Message::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => self.start(id, role, rules, (start_clock, play_clock), arrival),
            Message::Play { id, moves } => match self.play(moves, arrival) {
                Ok((mv, note)) => ok(mv, format!("{id} {note}")),
                Err(e) => Reply {
                    status: 400,
                    body: error_body(&e),
                    log: format!("PLAY {id} error: {e}"),
                },
            },
            Message::Stop { id, moves } => {
                if self.current.is_none() {
                    return ok("busy".into(), format!("{id} (no match) "));
                }
                let goals = self.finish(moves);
                self.current = None;
                ok("done".into(), format!("{id} {goals}"))
            }
            Message::PlaySeen { id, sight } => {
                let seen = self.current.as_mut().map_or(Ok(()), |cur| see(cur, &sight));
                let played = seen.and_then(|()| self.choose(arrival));
                match played {
                    Ok((mv, note)) => ok(mv, format!("{id} turn {} {note}", sight.turn)),
                    Err(e) => Reply {
                        status: 400,
                        body: error_body(&e),
                        log: format!("PLAY {id} error: {e}"),
                    },
                }
            }
            Message::StopSeen { id, sight } => {
                let Some(cur) = self.current.as_mut() else {
                    return ok("busy".into(), format!("{id} (no match) "));
                };
                let note = match see(cur, &sight) {
                    Ok(()) => format!("turn {}", sight.turn),
                    Err(e) => format!("({e})"),
                };
                self.current = None;
                ok("done".into(), format!("{id} {note} "))
            }
            Message::Abort { id } => {
                if self.current.is_none() {
                    return ok("busy".into(), format!("{id} (no match) "));
                }
                self.current = None;
                ok("aborted".into(), format!("{id} "))
            }
        }
    }

    fn start(
        &mut self,
        id: String,
        role: String,
        rules: String,
        (sc, pc): (u64, u64),
        arrival: f64,
    ) -> Reply {
        let start_ms = sc as f64 * 1000.0;
        let at = arrival + deadline(start_ms, self.cfg.margin_ms);
        offer(&self.watch, at, "ready", format!("START {id}"));
        let mut budget = crate::ground::Budget::default();
        // Grounding gets part of the start clock (which runs from the
        // message's arrival); past it, the interpreter runs.
        let spent = crate::clock::now_ms() - arrival;
        budget.max_ms = budget
            .max_ms
            .min((sc as f64 * 1000.0 * 0.6 - self.cfg.margin_ms - spent).max(100.0));
        let crate::Game {
            program,
            mut engine,
        } = match crate::Game::load_with(&rules, self.cfg.engine, budget) {
            Ok(g) => g,
            Err(d) => return refused("START", &rules, &d),
        };
        let err = |e: crate::EvalError| Reply {
            status: 400,
            body: error_body(&e.to_string()),
            log: format!("START {id} error: {e}"),
        };
        let Some(r) = engine
            .roles()
            .iter()
            .position(|&t| engine.terms().display(t).eq_ignore_ascii_case(&role))
        else {
            let why = format!("the rules have no role `{role}`");
            return Reply {
                status: 400,
                body: error_body(&why),
                log: format!("START {id} refused: {why}"),
            };
        };
        let state = match engine.initial_state() {
            Ok(s) => s,
            Err(e) => return err(e),
        };
        let gdl2 = crate::reasoner::chance_role(&engine).is_some() || engine.has_percepts();
        let belief = match gdl2.then(|| Belief::new(&mut engine, r, self.cfg.seed)) {
            Some(Ok(b)) => Some(b),
            Some(Err(e)) => return err(e),
            None => None,
        };
        let think = think_ms(pc, self.cfg.margin_ms);
        // GDL-II: the default player cannot see the state; hyperplay can
        // do without.
        let chosen = match gdl2 && self.cfg.spec.to_string() == crate::search::DEFAULT_PLAYER {
            true => crate::search::GDL2_PLAYER
                .parse()
                .expect("the GDL-II player is a player"),
            false => self.cfg.spec.clone(),
        };
        let spec = timed_spec(&chosen, think);
        let cap = spec.get("ms").and_then(|v| v.parse::<f64>().ok());
        let (player, note) = match build_player(&spec, &program, &mut engine, self.cfg.seed) {
            Ok(p) => (p, String::new()),
            Err(e) => (
                Box::new(RandomPlayer::new(self.cfg.seed)) as Box<dyn Player<Engine>>,
                format!(" ({e}; playing random moves)"),
            ),
        };
        // A solution assumes the state is known: not in GDL-II. A `random`
        // or `legal` player stays what it is (a baseline), as in npm.
        let searches = !matches!(chosen, PlayerSpec::Random | PlayerSpec::Legal);
        let solution = if self.cfg.solve && searches && !gdl2 {
            solve_at_start(&engine, sc, self.cfg.margin_ms, arrival)
        } else {
            None
        };
        let solved = if solution.is_some() { ", solved" } else { "" };
        let log = format!(
            "START {id} as {role}, {} engine, {} {think:.0} ms/move{note}{solved} -> ready",
            engine.name(),
            player.name()
        );
        self.current = Some(Current {
            id,
            clock: pc as f64 * 1000.0,
            think,
            cap,
            role: r,
            engine,
            player,
            state,
            // No pondering on a state that is only a guess.
            over: gdl2,
            solution,
            settled: false,
            belief,
        });
        if let Some(cur) = self.current.as_mut() {
            cur.settled = settled(cur);
        }
        Reply {
            status: 200,
            body: "ready".into(),
            log,
        }
    }

    /// Applies joint moves (texts in role order) to the running match
    /// without choosing any: a player rebuilt after its worker died (the
    /// page's Match view) is sent the match's START again, then catches up
    /// with the moves before the pending message's.
    pub fn catch_up(&mut self, moves: &[Vec<String>]) -> Result<(), SessionError> {
        let Some(cur) = self.current.as_mut() else {
            return Err(SessionError::NoMatch);
        };
        for joint in moves {
            move_on(cur, joint)?;
        }
        Ok(())
    }

    /// Applies the previous joint move and chooses our move within the play
    /// clock, which runs from the message's `arrival`.
    fn play(
        &mut self,
        moves: Option<Vec<String>>,
        arrival: f64,
    ) -> Result<(String, String), String> {
        let Some(cur) = self.current.as_mut() else {
            return Ok(("busy".into(), "(no match) ".into()));
        };
        if let Some(ms) = moves {
            move_on(cur, &ms).map_err(|e| e.to_string())?;
            // Every role's moves: the state is known again.
            cur.belief = None;
        }
        self.choose(arrival)
    }

    /// Chooses our move in the current state within the play clock.
    fn choose(&mut self, arrival: f64) -> Result<(String, String), String> {
        let Some(cur) = self.current.as_mut() else {
            return Ok(("busy".into(), "(no match) ".into()));
        };
        let legal = cur
            .engine
            .legal_moves(&cur.state, cur.role)
            .map_err(|e| e.to_string())?;
        if legal.is_empty() {
            return Err("our role has no legal move in this state".into());
        }
        // A forced move is sent at once, without a search; in a solved
        // game a move that keeps the solved value, also without one.
        let solved = solved_move(cur, &legal);
        let mv: TermId = if legal.len() == 1 {
            legal[0]
        } else if let Some(m) = solved {
            m
        } else {
            // Should the search overrun: the move the player would make
            // from what it kept (a tree grown on the opponents' time),
            // else our first legal move.
            let at = arrival + deadline(cur.clock, self.cfg.margin_ms);
            let known = cur
                .player
                .known_move(&cur.state, cur.role)
                .filter(|m| legal.contains(m));
            let fallback = spaced(&cur.engine.terms().display(known.unwrap_or(legal[0])));
            offer(&self.watch, at, &fallback, format!("PLAY {}", cur.id));
            if let Some(cap) = cur.cap {
                let left = cur.think - (crate::clock::now_ms() - arrival);
                cur.player.set_time_ms(cap.min(left).max(1.0));
            }
            match cur
                .player
                .select_move(&mut cur.engine, &cur.state, cur.role)
            {
                Ok(m) if legal.contains(&m) => m,
                // Never leave the manager without a legal move.
                _ => legal[0],
            }
        };
        let stats = cur.player.last_stats();
        let note = if legal.len() == 1 {
            "(forced) ".into()
        } else if solved.is_some() {
            "(solved) ".into()
        } else {
            format!("({} nodes, {} playouts) ", stats.nodes, stats.playouts)
        };
        Ok((spaced(&cur.engine.terms().display(mv)), note))
    }

    /// Applies the last joint move (if any) and describes the goals.
    fn finish(&mut self, moves: Option<Vec<String>>) -> String {
        let Some(cur) = self.current.as_mut() else {
            return String::new();
        };
        if let Some(ms) = moves {
            match advance(cur, &ms) {
                Ok(s) => cur.state = s,
                Err(e) => return format!("({e}) "),
            }
        }
        match cur.engine.goals(&cur.state) {
            Ok(g) => format!(
                "(our goal {}) ",
                g.get(cur.role)
                    .copied()
                    .flatten()
                    .map_or("none".into(), |v| v.to_string())
            ),
            Err(e) => format!("({e}) "),
        }
    }
}

/// States the solver may explore at START: few enough that valuing them
/// after the exploration (the packed solver's backward pass, the graph
/// solver's retrograde analysis) takes a few seconds at most, and enough
/// for biddingTicTacToe (531K states, all valued: 6 s in all on a loaded
/// 2-core machine).
const SOLVE_AT_START_STATES: usize = 1_000_000;

/// The whole game solved within part of what is left of the start clock,
/// or `None` (too large, refused, or no time).
fn solve_at_start(engine: &Engine, sc: u64, margin_ms: f64, arrival: f64) -> Option<Solution> {
    let left = sc as f64 * 1000.0 - margin_ms - (crate::clock::now_ms() - arrival);
    if left < 1000.0 {
        return None;
    }
    let limits = solve::Limits {
        seconds: (left * 0.4 / 1000.0).min(30.0),
        max_states: SOLVE_AT_START_STATES,
    };
    solve::try_solve(engine, limits)
}

/// A legal move of ours that keeps the solved value of the current state.
fn solved_move(cur: &mut Current, legal: &[TermId]) -> Option<TermId> {
    let sol = cur.solution.as_ref()?;
    let m = sol
        .solved_move(&mut cur.engine, &cur.state, cur.role)
        .ok()??;
    legal.contains(&m).then_some(m)
}

/// GDL-II: our last move and percepts narrow the belief and go to the
/// player; the state searched is then one of the consistent ones.
fn see(cur: &mut Current, sight: &Sight) -> Result<(), String> {
    let Some(mv) = &sight.last_move else {
        return Ok(());
    };
    let Some(belief) = cur.belief.as_mut() else {
        return Err("a GDL-II message in a game without `random` or `sees`".into());
    };
    let (own, percepts) = observe_text(
        &mut cur.engine,
        cur.player.as_mut(),
        cur.role,
        mv,
        sight.percepts.as_deref().unwrap_or(&[]),
    )
    .map_err(|e| e.to_string())?;
    belief
        .observe(&mut cur.engine, own, &percepts)
        .map_err(|e| e.to_string())?;
    if let Some(s) = belief.sample(1).pop() {
        cur.state = s;
    }
    Ok(())
}

/// Moves the match on by a joint move given as KIF texts in role order.
fn move_on(cur: &mut Current, moves: &[String]) -> Result<(), SessionError> {
    cur.state = advance(cur, moves)?;
    cur.settled = settled(cur);
    Ok(())
}

/// Whether the solution, if any, values the current state.
fn settled(cur: &mut Current) -> bool {
    let Some(sol) = cur.solution.as_ref() else {
        return false;
    };
    sol.value_of(&mut cur.engine, &cur.state).is_some()
}

/// The state after a joint move given as KIF texts in role order.
fn advance(cur: &mut Current, moves: &[String]) -> Result<EngineState, SessionError> {
    let n = cur.engine.roles().len();
    if moves.len() != n {
        return Err(SessionError::MoveCount {
            roles: n,
            given: moves.len(),
        });
    }
    let joint = moves
        .iter()
        .map(|m| crate::program::parse_ground_term(cur.engine.terms_mut(), m))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(cur.engine.next_state(&cur.state, &joint)?)
}

/// Leaves `body` as the reply to send at `at_ms` unless another is sent
/// by then (where a server watches).
fn offer(watch: &Option<Watch>, at_ms: f64, body: &str, log: String) {
    if let Some(w) = watch {
        let fallback = Fallback {
            at_ms,
            response: http::response(200, body),
            log: format!("{log} -> {body} (sent at the deadline, the answer not ready)"),
        };
        *w.lock().unwrap_or_else(|e| e.into_inner()) = Some(fallback);
    }
}

/// When, from a message's arrival, a server sends the fallback: halfway
/// through the margin kept back from a clock of `clock_ms` (the search
/// ends at its start).
fn deadline(clock_ms: f64, margin_ms: f64) -> f64 {
    clock_ms - (clock_ms - think_ms_of(clock_ms, margin_ms)) / 2.0
}

/// The milliseconds of a play clock of `pc` seconds a player may think.
fn think_ms(pc: u64, margin_ms: f64) -> f64 {
    think_ms_of(pc as f64 * 1000.0, margin_ms)
}

/// The milliseconds of a clock of `clock_ms` a search may take: the clock
/// minus the margin, but at least a quarter of it.
fn think_ms_of(clock_ms: f64, margin_ms: f64) -> f64 {
    (clock_ms - margin_ms).max(clock_ms / 4.0).max(10.0)
}

/// The spec with its time budget capped at `think_ms` (players with a
/// time option only; random and legal answer at once).
fn timed_spec(spec: &PlayerSpec, think_ms: f64) -> PlayerSpec {
    if !TIMED.contains(&spec.name()) {
        return spec.clone();
    }
    let ms = spec
        .get("ms")
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(think_ms, |v| v.min(think_ms));
    // A whole number of at least 10 ms (`think_ms_of`) is a valid time.
    spec.with("ms", &format!("{ms:.0}"))
        .unwrap_or_else(|_| spec.clone())
}

fn refused(kind: &str, rules: &str, diags: &[crate::Diagnostic]) -> Reply {
    let errors: Vec<_> = diags
        .iter()
        .filter(|d| d.severity == crate::Severity::Error)
        .cloned()
        .collect();
    let first = errors
        .first()
        .map_or("the rules have errors".to_string(), |d| {
            format!("{}: {}", d.code, d.message)
        });
    let rendered = crate::diagnostic::render(&errors, "rules", rules, false);
    Reply {
        status: 400,
        body: error_body(&format!("the rules have errors: {first}")),
        log: format!(
            "{kind} refused: the rules have {} error(s)\n{}",
            errors.len(),
            rendered.trim_end()
        ),
    }
}

/// An error reply: `( error "…" )` (quotes in the reason dropped).
pub fn error_body(why: &str) -> String {
    let clean: String = why
        .chars()
        .map(|c| if c == '"' || c.is_control() { ' ' } else { c })
        .collect();
    format!("( error \"{clean}\" )")
}

#[cfg(test)]
mod tests;
