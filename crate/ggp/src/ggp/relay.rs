//! A relay (`gdlkit serve --relay URL`): a page may post only to servers
//! that answer with CORS headers, and most GGP players (Sancho, ggp-base's)
//! send none. The page posts to the relay instead, which forwards each
//! message to the player and returns the player's reply with CORS headers.
//! The forwarding is the caller's ([`super::net`] natively, Node's sockets
//! in `js/ggp-node.js`); what to forward and what to answer is decided
//! here, once for both.

use super::http::{self, Parsed, Request};
use super::manager::{Answer, Failure};
use super::session::error_body;

/// How long the relay waits for the player's reply: longer than any
/// competition's clock (the page stops waiting at its own clock anyway).
pub const TIMEOUT_MS: u64 = 600_000;

/// What to do with one request.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Post this message to the player, then answer with [`reply`].
    Forward(String),
    /// Answer at once (a CORS preflight, a bad request): the response and
    /// its log line.
    Answer(Vec<u8>, String),
}

/// The step for a request read to its end.
pub fn step(parsed: Parsed) -> Step {
    let refuse = |status, why: String| {
        Step::Answer(
            http::response(status, &error_body(&why)),
            format!("bad request: {why}"),
        )
    };
    match parsed {
        Parsed::Done(Request { method, .. }) if method == "OPTIONS" => Step::Answer(
            http::response(200, ""),
            "OPTIONS -> (CORS preflight)".into(),
        ),
        Parsed::Done(Request { message, .. }) => Step::Forward(message),
        Parsed::Bad(why) => refuse(400, why),
        Parsed::TooLarge(why) => refuse(413, why),
        Parsed::Incomplete => refuse(400, "incomplete request".into()),
    }
}

/// The response to the page for the player's `answer` to `message`, which
/// took `ms`, and its log line. A player that fails is a 502 (or 504 when
/// it did not answer in time), so the page records a connection error
/// rather than reading the error as a move.
pub fn reply(to: &str, message: &str, answer: &Answer, ms: f64) -> (Vec<u8>, String) {
    let asked = clip(message);
    match answer {
        Ok(body) => (
            http::response(200, body),
            format!("{asked} -> {to} -> {} ({ms:.0} ms)", clip(body)),
        ),
        Err(Failure::Timeout) => {
            let why = format!("{to} did not answer within {} s", TIMEOUT_MS / 1000);
            (
                http::response(504, &error_body(&why)),
                format!("{asked}: {why}"),
            )
        }
        Err(Failure::Connection(e)) => {
            let why = format!("{to}: {e}");
            (
                http::response(502, &error_body(&why)),
                format!("{asked}: {why}"),
            )
        }
    }
}

/// A message shortened for the log (a START carries the whole game).
fn clip(text: &str) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(80) {
        Some((i, _)) => format!("{} …", &flat[..i]),
        None => flat,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(raw: &str) -> Parsed {
        http::parse_request(raw.as_bytes(), true)
    }

    fn text(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }

    #[test]
    fn a_message_is_forwarded_and_a_preflight_answered() {
        let post = "POST / HTTP/1.0\r\nContent-Length: 8\r\n\r\n( INFO )";
        assert_eq!(step(parsed(post)), Step::Forward("( INFO )".into()));
        let Step::Answer(bytes, log) = step(parsed("OPTIONS / HTTP/1.1\r\n\r\n")) else {
            panic!("a preflight is answered at once")
        };
        assert!(text(&bytes).starts_with("HTTP/1.0 200"));
        assert!(text(&bytes).contains("Access-Control-Allow-Origin: *"));
        assert!(log.contains("preflight"));
        let Step::Answer(bytes, _) = step(parsed("BREW / HTTP/1.1\r\n\r\n")) else {
            panic!("a bad request is answered at once")
        };
        assert!(text(&bytes).starts_with("HTTP/1.0 400"));
    }

    #[test]
    fn the_players_reply_goes_back_with_cors_and_its_failures_as_errors() {
        let (ok, log) = reply(
            "http://p/",
            "( PLAY m1 nil )",
            &Ok("( mark 1 1 )".into()),
            12.0,
        );
        let ok = text(&ok);
        assert!(ok.starts_with("HTTP/1.0 200"));
        assert!(ok.ends_with("\r\n\r\n( mark 1 1 )"));
        assert!(ok.contains("Access-Control-Allow-Origin: *"));
        assert!(log.contains("( mark 1 1 )"), "{log}");
        let (late, _) = reply("http://p/", "x", &Err(Failure::Timeout), 1.0);
        assert!(text(&late).starts_with("HTTP/1.0 504"));
        let (gone, log) = reply(
            "http://p/",
            "x",
            &Err(Failure::Connection("refused".into())),
            1.0,
        );
        assert!(text(&gone).starts_with("HTTP/1.0 502"));
        assert!(log.contains("refused"));
    }

    #[test]
    fn a_start_is_clipped_in_the_log() {
        let start = format!(
            "( START m1 white ( {} ) 60 10 )",
            "( role white ) ".repeat(50)
        );
        let (_, log) = reply("http://p/", &start, &Ok("ready".into()), 1.0);
        assert!(log.len() < 200, "{log}");
    }
}
