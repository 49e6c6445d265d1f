//! Native sockets (not compiled for WebAssembly, where JavaScript owns the
//! sockets): the player server's accept loop and the manager's HTTP client.
//! Blocking I/O with timeouts and one thread per player message; no async
//! runtime.

use super::http::{self, Parsed};
use super::manager::{epoch_ms, Answer, Failure, GameMatch, Outgoing};
use super::session::Session;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// How long a client may take to send one request.
const READ_REQUEST: Duration = Duration::from_secs(10);
/// ggp-base's manager gives up connecting after 5 s.
const CONNECT: Duration = Duration::from_secs(5);

/// Serves GGP requests one connection at a time (as ggp-base's player
/// does), forever; one log line per message.
pub fn serve(listener: &TcpListener, session: &mut Session, log: &mut dyn FnMut(&str)) {
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let peer = stream
                    .peer_addr()
                    .map(|a| a.to_string())
                    .unwrap_or_else(|_| "?".into());
                let line = answer(stream, session);
                log(&format!("{peer} {line}"));
            }
            Err(e) => {
                log(&format!("accept failed: {e}"));
                // E.g. out of file descriptors: do not spin.
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// Reads one request, answers it and closes the connection.
fn answer(mut stream: TcpStream, session: &mut Session) -> String {
    let _ = stream.set_read_timeout(Some(READ_REQUEST));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    let parsed = loop {
        match http::parse_request(&buf, false) {
            Parsed::Incomplete => {}
            done => break done,
        }
        match stream.read(&mut chunk) {
            Ok(0) => break http::parse_request(&buf, true),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) => break Parsed::Bad(format!("reading the request: {e}")),
        }
    };
    let (bytes, line) = session.respond(parsed);
    let _ = stream.write_all(&bytes);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Both);
    line
}

/// Sends one message to a player and reads its reply within `timeout_ms`.
pub fn post(url: &str, body: &str, timeout_ms: u64) -> Answer {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms.max(1));
    let (host, port, _) = http::split_url(url).map_err(Failure::Connection)?;
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
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        if let Some(done) = http::parse_response(&buf, false) {
            return done.map_err(Failure::Connection);
        }
        let rest = left();
        if rest.is_zero() {
            return Err(Failure::Timeout);
        }
        let _ = stream.set_read_timeout(Some(rest));
        match stream.read(&mut chunk) {
            Ok(0) => {
                return http::parse_response(&buf, true)
                    .unwrap_or(Err("closed".into()))
                    .map_err(Failure::Connection)
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
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
pub fn run_match(m: &mut GameMatch, progress: &mut dyn FnMut(&GameMatch)) -> Result<(), String> {
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
