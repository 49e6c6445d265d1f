//! Native sockets (not compiled for WebAssembly, where JavaScript owns the
//! sockets): the player server's accept loop, the relay's, and the
//! manager's HTTP client. Blocking I/O with timeouts; a thread per
//! connection on the servers and per player message on the manager; no
//! async runtime.

use super::http::{self, Incoming, Parsed};
use super::manager::{epoch_ms, Answer, Failure, GameMatch, Outgoing};
use super::session::{Input, Session, Watch};
use crate::error::ManagerError;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::http::LINGER;
pub use super::http::{MAX_BUFFERED, MAX_CONNECTIONS, REQUEST_DEADLINE};
/// ggp-base's manager gives up connecting after 5 s.
const CONNECT: Duration = Duration::from_secs(5);

/// A complete request on its way to the session, where its reply goes and
/// where the session leaves a reply to send if its own comes too late.
type Job = (Input, f64, mpsc::Sender<Response>, Watch);

/// Serves GGP requests forever, one log line per message. Each connection
/// is read and parsed on its own thread within [`REQUEST_DEADLINE`], so a
/// slow or huge request never delays another client; the messages then
/// reach the session in turn, on the calling thread (it plays one match at
/// a time). While no message waits, the session ponders in slices of
/// [`PONDER_SLICE_MS`] (a message's clock runs from its arrival, so a
/// slice under way only shortens the next search).
pub fn serve(listener: TcpListener, session: &mut Session, log: Box<dyn FnMut(&str) + Send>) {
    let log = Arc::new(Mutex::new(log));
    let (jobs, queue) = mpsc::channel::<Job>();
    let accept_log = log.clone();
    std::thread::spawn(move || accept(&listener, &accept_log, move |s| answer(s, &jobs)));
    loop {
        let job = if session.ponders() {
            match queue.try_recv() {
                Ok(job) => job,
                Err(mpsc::TryRecvError::Empty) => {
                    // A slice that added nothing (a proven root) would
                    // come back at once: wait for a message instead.
                    if session.ponder(PONDER_SLICE_MS) > 0 {
                        continue;
                    }
                    match queue.recv_timeout(Duration::from_millis(PONDER_SLICE_MS as u64)) {
                        Ok(job) => job,
                        Err(mpsc::RecvTimeoutError::Timeout) => continue,
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                }
                Err(mpsc::TryRecvError::Disconnected) => return,
            }
        } else {
            match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        let (input, arrival, back, watch) = job;
        let _ = back.send(session.answer_watched(input, arrival, watch));
    }
}

/// How long one pondering search runs before the queue is looked at again.
pub const PONDER_SLICE_MS: f64 = 100.0;

/// Relays GGP requests to the player at `to` forever ([`super::relay`]),
/// one log line per message; a thread per connection, so a player that
/// thinks on one message delays no other.
pub fn relay(listener: TcpListener, to: &str, log: Box<dyn FnMut(&str) + Send>) {
    let to = to.to_string();
    accept(&listener, &Arc::new(Mutex::new(log)), move |s| {
        relay_one(s, &to)
    });
}

/// Reads one request, forwards it and sends the player's reply back.
fn relay_one(mut stream: TcpStream, to: &str) -> String {
    let mut held = Held(0);
    let (parsed, _) = read_request(&mut stream, Instant::now() + REQUEST_DEADLINE, &mut held);
    drop(held);
    let (bytes, line, refused) = match super::relay::step(parsed) {
        super::relay::Step::Answer(bytes, line) => (bytes, line, true),
        super::relay::Step::Forward(text) => {
            let t0 = Instant::now();
            let answer = post(to, &text, super::relay::TIMEOUT_MS);
            let ms = t0.elapsed().as_secs_f64() * 1000.0;
            let (bytes, line) = super::relay::reply(to, &text, &answer, ms);
            (bytes, line, false)
        }
    };
    send_reply(&mut stream, &bytes, refused);
    line
}

/// Accepts connections and has `handle` serve each on its own thread;
/// `handle` returns the log line.
fn accept<H>(listener: &TcpListener, log: &Arc<Mutex<Log>>, handle: H)
where
    H: Fn(TcpStream) -> String + Clone + Send + 'static,
{
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        match stream {
            Ok(mut stream) => {
                let peer = stream
                    .peer_addr()
                    .map(|a| a.to_string())
                    .unwrap_or_else(|_| "?".into());
                if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    open.fetch_sub(1, Ordering::SeqCst);
                    let (status, why) = http::busy(true);
                    let body = super::session::error_body(&why);
                    let _ = stream.write_all(&http::response(status, &body));
                    continue;
                }
                let (handle, log, count) = (handle.clone(), log.clone(), open.clone());
                let spawned = std::thread::Builder::new()
                    .name("ggp-connection".into())
                    .spawn(move || {
                        let line = handle(stream);
                        count.fetch_sub(1, Ordering::SeqCst);
                        write_log(&log, &format!("{peer} {line}"));
                    });
                if spawned.is_err() {
                    open.fetch_sub(1, Ordering::SeqCst);
                }
            }
            Err(e) => {
                write_log(log, &format!("accept failed: {e}"));
                // E.g. out of file descriptors: do not spin.
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

type Log = Box<dyn FnMut(&str) + Send>;

fn write_log(log: &Mutex<Log>, line: &str) {
    let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
    log(line);
}

/// Reads one request within the deadline, has the session answer it and
/// closes the connection; returns the log line.
fn answer(mut stream: TcpStream, jobs: &mpsc::Sender<Job>) -> String {
    let mut held = Held(0);
    let (parsed, arrival) = read_request(&mut stream, Instant::now() + REQUEST_DEADLINE, &mut held);
    let refused = !matches!(parsed, Parsed::Done(_));
    let input = match parsed {
        Parsed::Incomplete => {
            let (status, why) = http::busy(false);
            Input::Refused { status, why }
        }
        // The message is parsed here, before it waits for the session.
        parsed => Input::read(parsed),
    };
    drop(held);
    let (back, reply) = mpsc::channel();
    let watch = Watch::default();
    let _ = jobs.send((input, arrival, back, watch.clone()));
    let Some(((bytes, line), late)) = await_reply(&reply, &watch) else {
        return "the session stopped".into();
    };
    send_reply(&mut stream, &bytes, refused);
    if !late {
        return line;
    }
    // The log says what the session would have answered, and when.
    match reply.recv() {
        Ok((_, answer)) => format!("{line}; the session's answer, dropped: {answer}"),
        Err(_) => line,
    }
}

/// How often a connection waiting for the session looks at its watch.
const WATCH_EVERY: Duration = Duration::from_millis(10);

/// A response and its log line.
type Response = (Vec<u8>, String);

/// The session's reply, or once the fallback it left is due, that one
/// (then `true`: a reply the session sends later is not sent, the manager
/// has its move). `None` if the session stopped.
fn await_reply(reply: &mpsc::Receiver<Response>, watch: &Watch) -> Option<(Response, bool)> {
    loop {
        match reply.recv_timeout(WATCH_EVERY) {
            Ok(answer) => return Some((answer, false)),
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let mut due = watch.lock().unwrap_or_else(|e| e.into_inner());
                if due
                    .as_ref()
                    .is_some_and(|f| crate::clock::now_ms() >= f.at_ms)
                {
                    return due.take().map(|f| ((f.response, f.log), true));
                }
            }
        }
    }
}

/// Bytes of requests being read, over all connections.
static BUFFERED: AtomicUsize = AtomicUsize::new(0);

/// The bytes one connection counts in [`BUFFERED`], given back when dropped.
struct Held(usize);

impl Held {
    /// Counts `n` more bytes; false (and not counted) past [`MAX_BUFFERED`].
    fn take(&mut self, n: usize) -> bool {
        if BUFFERED.fetch_add(n, Ordering::SeqCst) + n > MAX_BUFFERED {
            BUFFERED.fetch_sub(n, Ordering::SeqCst);
            return false;
        }
        self.0 += n;
        true
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        BUFFERED.fetch_sub(self.0, Ordering::SeqCst);
    }
}

/// The request, and when its first byte arrived (`clock::now_ms`): the
/// clocks of START and PLAY run from then. `Incomplete` when the requests
/// being read over all connections would hold more than [`MAX_BUFFERED`].
fn read_request(stream: &mut TcpStream, deadline: Instant, held: &mut Held) -> (Parsed, f64) {
    let mut inc = Incoming::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut arrival = None;
    let parsed = loop {
        match http::parse_incoming(&inc, false) {
            Parsed::Incomplete => {}
            done => break done,
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break http::late();
        }
        let _ = stream.set_read_timeout(Some(left));
        match stream.read(&mut chunk) {
            Ok(0) => break http::parse_incoming(&inc, true),
            Ok(n) => {
                arrival.get_or_insert_with(crate::clock::now_ms);
                if !held.take(n) {
                    break Parsed::Incomplete;
                }
                inc.push(&chunk[..n]);
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Parsed::Bad(format!("reading the request: {e}")),
        }
    };
    (parsed, arrival.unwrap_or_else(crate::clock::now_ms))
}

/// Writes a reply and closes our side; then a refused request's unread rest
/// is drained, so that closing does not reset the connection before the
/// client has read the reply.
fn send_reply(stream: &mut TcpStream, bytes: &[u8], refused: bool) {
    let _ = stream.write_all(bytes);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Write);
    if refused {
        drain(stream);
    }
}

/// Reads and drops what the client still sends, for at most [`LINGER`].
fn drain(stream: &mut TcpStream) {
    let end = Instant::now() + LINGER;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
    }
}

/// Sends one message to a player and reads its reply within `timeout_ms`.
pub fn post(url: &str, body: &str, timeout_ms: u64) -> Answer {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms.max(1));
    let (host, port, _) = http::split_url(url).map_err(|e| Failure::Connection(e.to_string()))?;
    let addr = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| Failure::Connection(format!("{url}: {e}")))?
        .next()
        .ok_or_else(|| Failure::Connection(format!("{url}: no address")))?;
    let left = || deadline.saturating_duration_since(Instant::now());
    let mut stream =
        TcpStream::connect_timeout(&addr, CONNECT.min(left()).max(Duration::from_millis(1)))
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::TimedOut => Failure::Timeout,
                _ => Failure::Connection(e.to_string()),
            })?;
    let _ = stream.set_nodelay(true);
    stream
        .write_all(&http::request(&host, "gdlkit", body))
        .map_err(|e| Failure::Connection(e.to_string()))?;
    let mut inc = Incoming::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        if let Some(done) = http::parse_reply(&inc, false) {
            return done.map_err(|e| Failure::Connection(e.to_string()));
        }
        let rest = left();
        if rest.is_zero() {
            return Err(Failure::Timeout);
        }
        let _ = stream.set_read_timeout(Some(rest));
        match stream.read(&mut chunk) {
            Ok(0) => {
                return http::parse_reply(&inc, true)
                    .unwrap_or(Err(http::ReplyError::ClosedEmpty))
                    .map_err(|e| Failure::Connection(e.to_string()))
            }
            Ok(n) => inc.push(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(Failure::Timeout)
            }
            Err(e) => return Err(Failure::Connection(e.to_string())),
        }
    }
}

/// Sends the messages in parallel (one thread each) and returns the answers
/// in the same order.
pub fn send_all(urls: &[String], out: &[Outgoing]) -> Vec<Answer> {
    std::thread::scope(|s| {
        let handles: Vec<_> = out
            .iter()
            .map(|o| {
                let url = &urls[o.role];
                s.spawn(move || post(url, &o.body, o.timeout_ms))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or(Err(Failure::Connection("sender thread failed".into())))
            })
            .collect()
    })
}

/// Runs a match to its end over HTTP; `progress` sees each phase's summary;
/// once the job is cancelled ([`crate::job::cancel`], Ctrl-C natively), the
/// players get ABORT and the match stops.
pub fn run_match(
    m: &mut GameMatch,
    progress: &mut dyn FnMut(&GameMatch),
) -> Result<(), ManagerError> {
    let urls = m.setup.players.clone();
    while !m.is_done() {
        if crate::job::cancelled() {
            let aborts = m.abort();
            send_all(&urls, &aborts);
            break;
        }
        let out = m.requests();
        let answers = send_all(&urls, &out);
        match m.deliver(answers, epoch_ms()) {
            // Cancelling also stops the manager's own reasoning (`job::check`):
            // the match is aborted at the top of the loop, not failed.
            Err(_) if crate::job::cancelled() => continue,
            r => r?,
        }
        progress(m);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ggp::session::Fallback;

    fn fallback(in_ms: f64) -> Watch {
        let f = Fallback {
            at_ms: crate::clock::now_ms() + in_ms,
            response: b"fallback".to_vec(),
            log: "at the deadline".into(),
        };
        Arc::new(Mutex::new(Some(f)))
    }

    /// A session that answers after `ms`.
    fn answering_after(ms: u64) -> mpsc::Receiver<Response> {
        let (back, reply) = mpsc::channel();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(ms));
            let _ = back.send((b"answer".to_vec(), "answered".into()));
        });
        reply
    }

    #[test]
    fn a_late_answer_gives_way_to_the_fallback() {
        let got = await_reply(&answering_after(3_000), &fallback(50.0));
        assert_eq!(
            got,
            Some(((b"fallback".to_vec(), "at the deadline".into()), true))
        );
    }

    #[test]
    fn an_answer_in_time_is_sent_and_none_without_a_fallback() {
        let got = await_reply(&answering_after(20), &fallback(3_000.0));
        assert_eq!(got, Some(((b"answer".to_vec(), "answered".into()), false)));
        let got = await_reply(&answering_after(50), &Watch::default());
        assert_eq!(got, Some(((b"answer".to_vec(), "answered".into()), false)));
        let (back, reply) = mpsc::channel::<Response>();
        drop(back);
        assert_eq!(await_reply(&reply, &fallback(3_000.0)), None);
    }
}
