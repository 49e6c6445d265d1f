//! The GGP protocol for JavaScript hosts, which own only the sockets (Node's
//! `net`, the page's `fetch`): `GgpServer` turns request bytes into reply
//! bytes (the player, as `gdlkit serve`), `GgpMatch` is one match of the
//! manager, `GgpHost` the `gdlkit host` command around it. `GgpServer` and
//! `GgpHost` take the commands' options, so they exist with the `cli`
//! feature only (the npm CLI's); the page uses `GgpMatch` and `GgpPlayer`.

use super::js::{self, range_error, to_js, type_error};
#[cfg(feature = "cli")]
use crate::cli::host::{self, HostOptions};
#[cfg(feature = "cli")]
use crate::cli::serve::{self, ServeOptions};
use crate::ggp::http;
use crate::ggp::manager::{Answer, Failure, GameMatch, MatchSetup};
use crate::ggp::session::{PlayerConfig, Session};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[cfg(feature = "cli")]
fn usage(f: crate::cli::Fail) -> JsValue {
    super::js::error("GdlUsageError", &f.message).into()
}

/// A player server's protocol (the socket is the caller's).
#[cfg(feature = "cli")]
#[wasm_bindgen]
pub struct GgpServer {
    options: ServeOptions,
    session: Session,
}

#[cfg(feature = "cli")]
#[wasm_bindgen]
impl GgpServer {
    /// `args` as for `gdlkit serve` (without `serve`); a `GdlUsageError`
    /// for bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(args: Vec<String>) -> Result<GgpServer, JsValue> {
        let options = serve::options(&args).map_err(usage)?;
        let session = serve::session(&options);
        Ok(GgpServer { options, session })
    }
    #[wasm_bindgen(getter)]
    pub fn host(&self) -> String {
        self.options.host.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn port(&self) -> u16 {
        self.options.port
    }
    /// `--log FILE`, if given.
    #[wasm_bindgen(getter)]
    pub fn log(&self) -> Option<String> {
        self.options.log.clone()
    }
    /// `--relay URL`, if given: the server forwards to that player
    /// ([`GgpServer::relay_step`]) instead of answering with its session.
    #[wasm_bindgen(getter)]
    pub fn relay(&self) -> Option<String> {
        self.options.relay.clone()
    }
    /// A relay's next step for the bytes read so far: `undefined` while the
    /// request is incomplete, `{forward: message}` to post to the player
    /// (then [`GgpServer::relay_reply`]), or `{response, log}` to send at
    /// once (a CORS preflight, a bad request).
    #[wasm_bindgen(js_name = relayStep)]
    pub fn relay_step(incoming: &GgpIncoming, closed: bool) -> JsValue {
        use crate::ggp::relay::{step, Step};
        match http::parse_incoming(&incoming.inc, closed) {
            http::Parsed::Incomplete => JsValue::UNDEFINED,
            parsed => match step(parsed) {
                Step::Forward(message) => {
                    let out = js_sys::Object::new();
                    super::js::set(&out, "forward", &JsValue::from_str(&message));
                    out.into()
                }
                Step::Answer(response, log) => reply_object(&response, &log),
            },
        }
    }
    /// The relay's `{response, log}` for the player's `answer` (as
    /// `GgpMatch.deliver` takes one) to `message`, after `ms`.
    #[wasm_bindgen(js_name = relayReply)]
    pub fn relay_reply(&self, message: &str, answer: JsValue, ms: f64) -> Result<JsValue, JsValue> {
        let to = self.options.relay.as_deref().unwrap_or_default();
        let answer = answer_from_js(
            serde_wasm_bindgen::from_value(answer)
                .map_err(|e| type_error(&format!("answer: {e}")))?,
        );
        let (response, log) = crate::ggp::relay::reply(to, message, &answer, ms);
        Ok(reply_object(&response, &log))
    }
    /// Milliseconds a relay waits for its player.
    #[wasm_bindgen(js_name = relayTimeoutMs)]
    pub fn relay_timeout_ms() -> f64 {
        crate::ggp::relay::TIMEOUT_MS as f64
    }
    /// The first log line, once listening on `addr` (`host:port`).
    pub fn banner(&self, addr: &str) -> String {
        serve::banner(&self.options, addr)
    }
    /// A log line with its time stamp.
    #[wasm_bindgen(js_name = logLine)]
    pub fn log_line(line: &str) -> String {
        serve::log_line(line)
    }
    /// The reply to the bytes read so far, or `undefined` while the request
    /// is incomplete (`closed`: the peer has finished sending):
    /// `{response: Uint8Array, log: string}`.
    pub fn respond(&mut self, bytes: &[u8], closed: bool) -> JsValue {
        let parsed = http::parse_request(bytes, closed);
        if parsed == http::Parsed::Incomplete {
            return JsValue::UNDEFINED;
        }
        self.reply(parsed, crate::clock::now_ms())
    }
    /// [`GgpServer::respond`] on the bytes of `incoming` (read in pieces:
    /// linear in their size), whose first byte arrived at `arrival`
    /// (`performance.now()`): the clocks of START and PLAY run from then.
    #[wasm_bindgen(js_name = respondTo)]
    pub fn respond_to(&mut self, incoming: &GgpIncoming, closed: bool, arrival: f64) -> JsValue {
        match http::parse_incoming(&incoming.inc, closed) {
            http::Parsed::Incomplete => JsValue::UNDEFINED,
            parsed => self.reply(parsed, arrival),
        }
    }
    /// The reply to a request not read within the deadline
    /// ([`GgpServer::deadline_ms`]).
    pub fn late(&mut self, arrival: f64) -> JsValue {
        self.reply(http::late(), arrival)
    }
    /// The reply (503) to a connection past `maxConnections` (`connections`)
    /// or to a request past `maxBuffered` bytes held over all connections.
    pub fn busy(&mut self, connections: bool, arrival: f64) -> JsValue {
        let (status, why) = http::busy(connections);
        let input = crate::ggp::session::Input::Refused { status, why };
        let (response, log) = self.session.answer(input, arrival);
        reply_object(&response, &log)
    }
    /// Thinks for about `ms` milliseconds on the opponents' time, as the
    /// native server does while no message waits; the playouts added (0:
    /// nothing to ponder until the next message).
    pub fn ponder(&mut self, ms: f64) -> f64 {
        self.session.ponder(ms) as f64
    }
    /// Connections served at once.
    #[wasm_bindgen(js_name = maxConnections)]
    pub fn max_connections() -> usize {
        http::MAX_CONNECTIONS
    }
    /// Bytes of requests held at once over all connections.
    #[wasm_bindgen(js_name = maxBuffered)]
    pub fn max_buffered() -> usize {
        http::MAX_BUFFERED
    }
    /// Milliseconds a client has to send one whole request, from its
    /// connection.
    #[wasm_bindgen(js_name = deadlineMs)]
    pub fn deadline_ms() -> f64 {
        http::REQUEST_DEADLINE.as_millis() as f64
    }
    /// Milliseconds the rest of a refused request is read and dropped after
    /// the reply, so that the client receives it.
    #[wasm_bindgen(js_name = lingerMs)]
    pub fn linger_ms() -> f64 {
        http::LINGER.as_millis() as f64
    }
}

#[cfg(feature = "cli")]
impl GgpServer {
    fn reply(&mut self, parsed: http::Parsed, arrival: f64) -> JsValue {
        let (response, log) = self.session.respond_at(parsed, arrival);
        reply_object(&response, &log)
    }
}

/// `{response: Uint8Array, log: string}`.
#[cfg(feature = "cli")]
fn reply_object(response: &[u8], log: &str) -> JsValue {
    let out = js_sys::Object::new();
    super::js::set(&out, "response", &js_sys::Uint8Array::from(response));
    super::js::set(&out, "log", &JsValue::from_str(log));
    out.into()
}

/// An HTTP message read in pieces (a request on the server, a reply on the
/// manager): each piece is scanned once.
#[wasm_bindgen]
#[derive(Default)]
pub struct GgpIncoming {
    inc: http::Incoming,
}

#[wasm_bindgen]
impl GgpIncoming {
    #[wasm_bindgen(constructor)]
    pub fn new() -> GgpIncoming {
        GgpIncoming::default()
    }
    /// Appends the bytes of one read.
    pub fn push(&mut self, bytes: &[u8]) {
        self.inc.push(bytes);
    }
    /// Bytes read so far.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inc.len()
    }
}

/// A GGP player inside the page: the same session as `gdlkit serve`, fed
/// message texts directly (no HTTP).
#[wasm_bindgen]
pub struct GgpPlayer {
    session: Session,
}

#[wasm_bindgen]
impl GgpPlayer {
    /// `spec` as for `--player` (e.g. `mcts`), `margin_ms` as `--margin-ms`.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str, margin_ms: f64) -> Result<GgpPlayer, JsValue> {
        let spec = spec
            .parse()
            .map_err(|e: crate::search::SpecError| type_error(&e.to_string()))?;
        Ok(GgpPlayer {
            session: Session::new(PlayerConfig {
                spec,
                margin_ms,
                ..PlayerConfig::default()
            }),
        })
    }
    /// The reply to one message: `{status, body, log, busy}`; `busy` is
    /// false once no match runs (after STOP or ABORT): the player can go.
    pub fn handle(&mut self, message: &str) -> Result<JsValue, JsValue> {
        let r = self.session.handle(message);
        let busy = self.session.busy();
        to_js(&Handled {
            status: r.status,
            body: &r.body,
            log: &r.log,
            busy,
        })
    }
    /// After START, applies the match's joint moves so far (`string[][]`,
    /// role order) without choosing: a player rebuilt in a fresh worker
    /// catches up with the match (the Match view, `site/src/match`).
    #[wasm_bindgen(js_name = catchUp)]
    pub fn catch_up(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[][]")] moves: JsValue,
    ) -> Result<(), JsValue> {
        let moves: Vec<Vec<String>> = serde_wasm_bindgen::from_value(moves)
            .map_err(|e| type_error(&format!("catchUp expects joint moves (string[][]): {e}")))?;
        self.session.catch_up(&moves).map_err(|e| type_error(&e))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SetupJs {
    match_id: String,
    start_clock: u64,
    play_clock: u64,
    players: Vec<String>,
    #[serde(default)]
    seed: u64,
    #[serde(default = "default_steps")]
    max_steps: usize,
    #[serde(default)]
    start_time: Option<f64>,
}

fn default_steps() -> usize {
    1000
}

/// One answer from JS: `{body}` or `{error: "timeout" | "connection", detail}`.
#[derive(Deserialize)]
struct AnswerJs {
    body: Option<String>,
    error: Option<String>,
    detail: Option<String>,
}

fn answer_from_js(a: AnswerJs) -> Answer {
    match (a.body, a.error.as_deref()) {
        (Some(b), _) => Ok(b),
        (None, Some("timeout")) => Err(Failure::Timeout),
        _ => Err(Failure::Connection(a.detail.unwrap_or_default())),
    }
}

/// One match as ggp-base's `GameServer` runs it; the caller sends the
/// messages of `requests()` and passes the answers to `deliver`.
#[wasm_bindgen]
pub struct GgpMatch {
    m: GameMatch,
    /// Events already printed by `progress` (`gdlkit host`).
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    seen: usize,
}

#[wasm_bindgen]
impl GgpMatch {
    /// `setup`: `{matchId, startClock, playClock, players, seed?, maxSteps?,
    /// startTime?}`; rules with errors throw an `Error` with the diagnostics.
    #[wasm_bindgen(constructor)]
    pub fn new(rules: &str, setup: JsValue) -> Result<GgpMatch, JsValue> {
        let s: SetupJs = serde_wasm_bindgen::from_value(setup)
            .map_err(|e| type_error(&format!("match setup: {e}")))?;
        let setup = MatchSetup {
            match_id: s.match_id,
            start_clock: s.start_clock.max(1),
            play_clock: s.play_clock.max(1),
            players: s.players,
            seed: s.seed,
            max_steps: s.max_steps,
            start_time: s.start_time.unwrap_or_else(crate::ggp::manager::epoch_ms),
        };
        let m = GameMatch::new(rules, crate::EngineChoice::Auto, setup)
            .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
        Ok(GgpMatch { m, seen: 0 })
    }
    /// The messages to send now: `[{role, body, kind, timeoutMs}]`; `kind`
    /// is the message's keyword in lower case (`start`, `play`, ...).
    pub fn requests(&self) -> Result<JsValue, JsValue> {
        outgoing(&self.m.requests())
    }
    /// The answers to `requests()`, one per role in role order.
    pub fn deliver(&mut self, answers: JsValue, now: f64) -> Result<(), JsValue> {
        let now = if now.is_finite() {
            now
        } else {
            crate::ggp::manager::epoch_ms()
        };
        let list: Vec<AnswerJs> = serde_wasm_bindgen::from_value(answers)
            .map_err(|e| type_error(&format!("answers: {e}")))?;
        let answers: Vec<Answer> = list.into_iter().map(answer_from_js).collect();
        self.m
            .deliver(answers, now)
            .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
        Ok(())
    }
    /// Marks the match aborted; returns the ABORT messages to send.
    pub fn abort(&mut self) -> Result<JsValue, JsValue> {
        outgoing(&self.m.abort())
    }
    #[wasm_bindgen(getter, js_name = isDone)]
    pub fn is_done(&self) -> bool {
        self.m.is_done()
    }
    /// `start`, `play`, `stop` or `done`.
    #[wasm_bindgen(getter)]
    pub fn phase(&self) -> String {
        self.m.phase().into()
    }
    /// The player of each role, in role order.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> Vec<String> {
        self.m.setup.players.clone()
    }
    /// Errors per role so far (`""` or the code): START's first, then
    /// one entry per step.
    #[wasm_bindgen(getter)]
    pub fn errors(&self) -> Result<JsValue, JsValue> {
        to_js(&self.m.errors)
    }
    #[wasm_bindgen(getter)]
    pub fn roles(&self) -> Vec<String> {
        self.m.roles.clone()
    }
    /// The legal moves of a role in the current state (KIF, ggp-base spacing).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self, role: usize) -> Result<Vec<String>, JsValue> {
        if role >= self.m.roles.len() {
            return Err(range_error(&format!("no role number {role}")));
        }
        self.m
            .legal_moves(role)
            .map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))
    }
    /// The current state's fluents (canonical KIF, sorted), for drawing.
    #[wasm_bindgen(getter)]
    pub fn fluents(&self) -> Vec<String> {
        self.m.state_fluents.last().cloned().unwrap_or_default()
    }
    /// Events so far (each substitution with its detail).
    #[wasm_bindgen(getter)]
    pub fn events(&self) -> Vec<String> {
        self.m.events.clone()
    }
    /// The ggp.org match record.
    pub fn record(&self) -> Result<JsValue, JsValue> {
        // ggp.org's record format spells its own fields.
        js::to_js_data(&self.m.to_json())
    }
}

/// `gdlkit host`'s view of a match (the npm CLI's).
#[cfg(feature = "cli")]
#[wasm_bindgen]
impl GgpMatch {
    /// The progress lines of `gdlkit host` since the last call.
    pub fn progress(&mut self) -> String {
        host::progress(&self.m, &mut self.seen)
    }
}

fn outgoing(out: &[crate::ggp::Outgoing]) -> Result<JsValue, JsValue> {
    let v: Vec<_> = out
        .iter()
        .map(|o| {
            let kind = crate::ggp::message::parse(&o.body)
                .map(|m| m.kind().to_ascii_lowercase())
                .unwrap_or_default();
            OutgoingJs {
                role: o.role,
                body: &o.body,
                kind,
                timeout_ms: o.timeout_ms,
            }
        })
        .collect();
    to_js(&v)
}

/// `gdlkit host` for the Node CLI: the options, each match's setup, and the
/// summary of the finished matches.
#[cfg(feature = "cli")]
#[wasm_bindgen]
pub struct GgpHost {
    options: HostOptions,
    done: Vec<GameMatch>,
}

#[cfg(feature = "cli")]
#[wasm_bindgen]
impl GgpHost {
    #[wasm_bindgen(constructor)]
    pub fn new(args: Vec<String>) -> Result<GgpHost, JsValue> {
        Ok(GgpHost {
            options: host::options(&args).map_err(usage)?,
            done: Vec::new(),
        })
    }
    #[wasm_bindgen(getter)]
    pub fn game(&self) -> String {
        self.options.game.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn matches(&self) -> usize {
        self.options.matches
    }
    #[wasm_bindgen(getter)]
    pub fn out(&self) -> Option<String> {
        self.options.out.clone()
    }
    /// Match `g` (from 0) over `rules`, seats rotated with `--rotate`.
    #[wasm_bindgen(js_name = newMatch)]
    pub fn new_match(&self, rules: &str, g: usize) -> Result<GgpMatch, JsValue> {
        let setup = host::setup(&self.options, g, crate::ggp::manager::epoch_ms());
        let m = GameMatch::new(rules, self.options.engine, setup).map_err(|e| {
            JsValue::from(js_sys::Error::new(&format!("{}: {e}", self.options.game)))
        })?;
        Ok(GgpMatch { m, seen: 0 })
    }
    /// The line that opens match `g`, and the one that closes it.
    pub fn header(&self, m: &GgpMatch, g: usize) -> String {
        host::header(&m.m, g, self.options.matches)
    }
    pub fn footer(&self, m: &GgpMatch) -> String {
        host::footer(&m.m)
    }
    /// The file name of a match record in `--out` (`<matchId>.json`) and
    /// its text.
    #[wasm_bindgen(js_name = recordText)]
    pub fn record_text(&self, m: &GgpMatch) -> String {
        format!("{:#}\n", m.m.to_json())
    }
    /// Keeps a finished match for the summary.
    pub fn finish(&mut self, m: GgpMatch) {
        self.done.push(m.m);
    }
    /// The summary table, or the JSON with `--format json`.
    pub fn report(&self) -> String {
        let refs: Vec<&GameMatch> = self.done.iter().collect();
        host::report(&refs, self.options.json)
    }
}

/// The bytes of a manager's request to `url`, as ggp-base frames it.
#[wasm_bindgen(js_name = ggpRequest)]
pub fn ggp_request(url: &str, body: &str) -> Result<Vec<u8>, JsValue> {
    let (host, _, _) = http::split_url(url).map_err(|e| type_error(&e))?;
    Ok(http::request(&host, "gdlkit", body))
}

/// [`ggp_parse_reply`] on the bytes of `incoming` (read in pieces: linear
/// in their size).
#[wasm_bindgen(js_name = ggpParseReplyFrom)]
pub fn ggp_parse_reply_from(incoming: &GgpIncoming, closed: bool) -> Result<JsValue, JsValue> {
    reply_js(http::parse_reply(&incoming.inc, closed))
}

fn reply_js(r: Option<Result<String, http::ReplyError>>) -> Result<JsValue, JsValue> {
    match r {
        None => Ok(JsValue::UNDEFINED),
        Some(Ok(body)) => to_js(&Reply::Body { body }),
        Some(Err(e)) => to_js(&Reply::Error {
            error: "connection",
            detail: e.to_string(),
        }),
    }
}

/// A player's reply read so far: `undefined` while incomplete, else
/// `{body}` or `{error: "connection", detail}`.
#[wasm_bindgen(js_name = ggpParseReply)]
pub fn ggp_parse_reply(bytes: &[u8], closed: bool) -> Result<JsValue, JsValue> {
    reply_js(http::parse_response(bytes, closed))
}

/// `GgpPlayer.handle`'s result.
#[derive(Serialize)]
struct Handled<'a> {
    status: u16,
    body: &'a str,
    log: &'a str,
    busy: bool,
}

/// A message for a player (`GgpMatch` step results).
#[derive(Serialize)]
struct OutgoingJs<'a> {
    role: usize,
    body: &'a str,
    kind: String,
    timeout_ms: u64,
}

/// A player's reply: its body, or why there is none.
#[derive(Serialize)]
#[serde(untagged)]
enum Reply {
    Body { body: String },
    Error { error: &'static str, detail: String },
}
