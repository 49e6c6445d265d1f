//! HTTP framing of GGP messages, byte for byte as ggp-base writes it (see
//! `shared/ggp/WIRE.md`): requests are parsed from bytes and replies are
//! printed to bytes here, so the native server and the Node server (where
//! JavaScript only owns the socket) frame messages identically.
pub use crate::error::{ReplyError, UrlError};

/// Requests larger than this are refused (a rules text is far smaller).
pub const MAX_REQUEST_BYTES: usize = 32 << 20;

/// How long a client may take to send one whole request, from its
/// connection (not per read: a client trickling bytes is cut off too). The
/// native server and the Node one (`js/ggp-node.js`) both keep it.
pub const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// After a reply, how long the rest of a refused request is read and
/// dropped, so that closing does not reset the connection before the
/// client has read the reply.
pub const LINGER: std::time::Duration = std::time::Duration::from_secs(2);

/// Connections served at once; past it a client gets 503 at once.
pub const MAX_CONNECTIONS: usize = 512;
/// Bytes of requests held at once over all connections (eight requests of
/// the largest size); past it a client gets 503.
pub const MAX_BUFFERED: usize = 8 * MAX_REQUEST_BYTES;

/// The refusal (status 503, why) of a connection past [`MAX_CONNECTIONS`]
/// (`connections`), or of a request past [`MAX_BUFFERED`].
pub fn busy(connections: bool) -> (u16, String) {
    let why = if connections {
        "too many connections".to_string()
    } else {
        format!(
            "the server holds {} MB of requests: try again",
            MAX_BUFFERED >> 20
        )
    };
    (503, why)
}

/// The refusal of a request not read within [`REQUEST_DEADLINE`].
pub fn late() -> Parsed {
    Parsed::Bad(format!(
        "the request did not arrive within {} s",
        REQUEST_DEADLINE.as_secs()
    ))
}

/// A parsed HTTP request: the method and the GGP message text (the POST
/// body, or the decoded query of ggp-base's GET form `GET /?(info)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub method: String,
    pub message: String,
}

/// The state of a request being read.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    /// More bytes are needed.
    Incomplete,
    Done(Request),
    Bad(String),
    /// Over [`MAX_REQUEST_BYTES`] (HTTP 413), known as soon as the headers
    /// announce it.
    TooLarge(String),
}

/// Bytes read so far and where their headers end. Each byte is scanned for
/// the header end once: a new read resumes where the last scan stopped, and
/// once the headers are read the message is not parsed again until its
/// announced body is there, so reading a message is linear in its size
/// however it is split.
#[derive(Debug, Default)]
pub struct Incoming {
    buf: Vec<u8>,
    scanned: usize,
    head_end: Option<usize>,
    /// Once the headers are read: the bytes the message needs before a
    /// parse can end it (0: parse now; `usize::MAX`: only its close ends it).
    needed: usize,
}

impl Incoming {
    pub fn new() -> Incoming {
        Incoming::default()
    }

    /// Appends bytes and scans them for the blank line that ends the headers
    /// (`\r\n\r\n` or a bare `\n\n`, whichever ends first).
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        if self.head_end.is_some() {
            return;
        }
        let b = &self.buf;
        for i in self.scanned..b.len() {
            if b[i] == b'\n'
                && ((i >= 1 && b[i - 1] == b'\n') || (i >= 3 && &b[i - 3..i] == b"\r\n\r"))
            {
                self.head_end = Some(i + 1);
                self.needed = needed(&b[..=i]);
                break;
            }
        }
        self.scanned = b.len();
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The headers (through the blank line) and the bytes after them.
    fn split(&self) -> Option<(&[u8], &[u8])> {
        self.head_end.map(|e| self.buf.split_at(e))
    }
}

/// The bytes a message with headers `head` needs before it can end: a POST
/// or a reply, its headers plus the announced body, or only its close
/// without `Content-Length`; anything else ends at its headers (0: parse now,
/// also for a length to refuse).
fn needed(head: &[u8]) -> usize {
    let text = String::from_utf8_lossy(head);
    let first = text.split_whitespace().next().unwrap_or("");
    if !(first.eq_ignore_ascii_case("POST") || first.starts_with("HTTP/")) {
        return 0;
    }
    match header(&text, "content-length").map(|v| v.parse::<usize>()) {
        Some(Ok(n)) if n <= MAX_REQUEST_BYTES.saturating_sub(head.len()) => head.len() + n,
        None => usize::MAX,
        _ => 0,
    }
}

/// The value of header `name` (case-insensitive).
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Parses the bytes read so far; `closed` says the peer has finished sending
/// (then a POST without `Content-Length` ends at the end of the bytes).
/// Linear in the bytes; a server reading a request in pieces keeps an
/// [`Incoming`] and calls [`parse_incoming`] instead.
pub fn parse_request(buf: &[u8], closed: bool) -> Parsed {
    let mut inc = Incoming::new();
    inc.push(buf);
    parse_incoming(&inc, closed)
}

/// [`parse_request`] on the bytes of `inc` (no rescan of the headers' end).
pub fn parse_incoming(inc: &Incoming, closed: bool) -> Parsed {
    if inc.len() > MAX_REQUEST_BYTES {
        return too_large();
    }
    if !closed && inc.len() < inc.needed {
        return Parsed::Incomplete;
    }
    let Some((head, body)) = inc.split() else {
        return if closed {
            Parsed::Bad("the connection closed inside the HTTP headers".into())
        } else {
            Parsed::Incomplete
        };
    };
    let Ok(head) = std::str::from_utf8(head) else {
        return Parsed::Bad("HTTP headers are not UTF-8".into());
    };
    let line = head.lines().next().unwrap_or("");
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_ascii_uppercase();
    let target = parts.next().unwrap_or("/");
    match method.as_str() {
        "GET" => Parsed::Done(Request {
            method,
            message: url_decode(target.trim_start_matches('/').trim_start_matches('?')),
        }),
        "OPTIONS" => Parsed::Done(Request {
            method,
            message: String::new(),
        }),
        "POST" => {
            let len = match header(head, "content-length") {
                Some(v) => match v.parse::<u64>() {
                    // Refused before its body is read (the reply is sent
                    // while the client may still be sending).
                    Ok(n) if n > (MAX_REQUEST_BYTES - head.len()) as u64 => return too_large(),
                    Ok(n) => Some(n as usize),
                    Err(_) => return Parsed::Bad(format!("bad Content-Length `{}`", clip(v))),
                },
                None => None,
            };
            let body = match len {
                Some(n) if body.len() >= n => &body[..n],
                None if closed => body,
                _ if closed => return Parsed::Bad("the connection closed inside the body".into()),
                _ => return Parsed::Incomplete,
            };
            match std::str::from_utf8(body) {
                Ok(text) => Parsed::Done(Request {
                    method,
                    message: text.to_string(),
                }),
                Err(_) => Parsed::Bad("the message is not UTF-8".into()),
            }
        }
        "" => Parsed::Bad("empty request line".into()),
        other => Parsed::Bad(format!("unsupported HTTP method {}", clip(other))),
    }
}

fn too_large() -> Parsed {
    Parsed::TooLarge(format!("request larger than {MAX_REQUEST_BYTES} bytes"))
}

/// At most 80 characters of a peer's text, for messages and logs.
fn clip(s: &str) -> String {
    crate::ggp::message::excerpt(s, 80)
}

/// Decodes `%XX` and `+` as Java's `URLDecoder` does.
fn url_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// A player's reply as ggp-base's `HttpWriter` writes it: lower-case
/// `Content-type`/`Content-length`, CORS headers, no trailing newline.
pub fn response(status: u16, body: &str) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Error",
    };
    format!(
        "HTTP/1.0 {status} {reason}\r\n\
         Content-type: text/acl\r\n\
         Content-length: {}\r\n\
         Access-Control-Allow-Origin: *\r\n\
         Access-Control-Allow-Methods: POST, GET, OPTIONS\r\n\
         Access-Control-Allow-Headers: Content-Type\r\n\
         Access-Control-Max-Age: 86400\r\n\
         \r\n\
         {body}",
        body.len()
    )
    .into_bytes()
}

/// A manager's request as ggp-base's `GameServer` sends it (`Host` without
/// the port).
pub fn request(host: &str, receiver: &str, body: &str) -> Vec<u8> {
    format!(
        "POST / HTTP/1.0\r\n\
         Accept: text/delim\r\n\
         Host: {host}\r\n\
         Sender: GAMESERVER\r\n\
         Receiver: {receiver}\r\n\
         Content-Type: text/acl\r\n\
         Content-Length: {}\r\n\
         \r\n\
         {body}",
        body.len()
    )
    .into_bytes()
}

/// The body of a reply once complete (`None`: more bytes needed). Like
/// ggp-base's manager, the status line is ignored and exactly
/// `Content-Length` bytes are read; without it, the body ends when the
/// connection closes.
pub fn parse_response(buf: &[u8], closed: bool) -> Option<Result<String, ReplyError>> {
    let mut inc = Incoming::new();
    inc.push(buf);
    parse_reply(&inc, closed)
}

/// [`parse_response`] on the bytes of `inc` (no rescan of the headers' end).
pub fn parse_reply(inc: &Incoming, closed: bool) -> Option<Result<String, ReplyError>> {
    if inc.len() > MAX_REQUEST_BYTES {
        return Some(Err(ReplyError::TooLarge {
            max: MAX_REQUEST_BYTES,
        }));
    }
    if !closed && inc.len() < inc.needed {
        return None;
    }
    let Some((head, body)) = inc.split() else {
        return closed.then(|| {
            Err(if inc.is_empty() {
                ReplyError::ClosedEmpty
            } else {
                ReplyError::ClosedInHeaders
            })
        });
    };
    let head = String::from_utf8_lossy(head);
    let len = header(&head, "content-length").and_then(|v| v.parse::<u64>().ok());
    if len.is_some_and(|n| n > MAX_REQUEST_BYTES as u64) {
        return Some(Err(ReplyError::TooLarge {
            max: MAX_REQUEST_BYTES,
        }));
    }
    let body = match len.map(|n| n as usize) {
        Some(n) if body.len() >= n => &body[..n],
        Some(_) if closed => return Some(Err(ReplyError::ClosedInBody)),
        None if closed => body,
        _ => return None,
    };
    Some(Ok(String::from_utf8_lossy(body).into_owned()))
}

/// Splits `http://host:port/path` into (host, port, path); the port
/// defaults to 9147 (the usual GGP port) when the URL has none.
pub fn split_url(url: &str) -> Result<(String, u16, String), UrlError> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| UrlError::NotHttp(url.into()))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].to_string()),
        None => (rest, "/".to_string()),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (
            h,
            p.parse().map_err(|_| UrlError::BadPort {
                url: url.into(),
                port: p.into(),
            })?,
        ),
        None => (authority, 9147),
    };
    if host.is_empty() {
        return Err(UrlError::NoHost(url.into()));
    }
    Ok((host.to_string(), port, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_post_get_and_options() {
        let req = b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 8\r\n\r\n( INFO )";
        assert_eq!(
            parse_request(&req[..req.len() - 1], false),
            Parsed::Incomplete
        );
        assert_eq!(
            parse_request(req, false),
            Parsed::Done(Request {
                method: "POST".into(),
                message: "( INFO )".into()
            })
        );
        assert_eq!(
            parse_request(b"GET /?(play%20m1%20nil) HTTP/1.1\r\n\r\n", false),
            Parsed::Done(Request {
                method: "GET".into(),
                message: "(play m1 nil)".into()
            })
        );
        assert!(matches!(
            parse_request(b"OPTIONS / HTTP/1.1\r\nOrigin: x\r\n\r\n", false),
            Parsed::Done(Request { method, .. }) if method == "OPTIONS"
        ));
        assert!(matches!(
            parse_request(b"BREW / HTTP/1.1\r\n\r\n", false),
            Parsed::Bad(_)
        ));
        assert!(matches!(parse_request(b"POST / HTT", true), Parsed::Bad(_)));
    }

    /// The header end by brute force: the first `\r\n\r\n` or `\n\n`.
    fn brute_end(b: &[u8]) -> Option<usize> {
        (1..=b.len()).find(|&e| b[..e].ends_with(b"\n\n") || b[..e].ends_with(b"\r\n\r\n"))
    }

    #[test]
    fn a_request_split_anywhere_parses_as_a_whole_one() {
        let reqs: [&[u8]; 4] = [
            b"POST / HTTP/1.0\r\nContent-Length: 8\r\n\r\n( INFO )",
            b"POST / HTTP/1.0\nContent-Length: 6\n\n(info)\r\n\r\n",
            b"GET /?(info) HTTP/1.1\r\nX: \n\r\n\r\n",
            b"POST / HTTP/1.0\r\n\r\r\n\r\nabc",
        ];
        for req in reqs {
            let whole = parse_request(req, true);
            for cut in 0..=req.len() {
                for cut2 in cut..=req.len() {
                    let mut inc = Incoming::new();
                    for piece in [&req[..cut], &req[cut..cut2], &req[cut2..]] {
                        inc.push(piece);
                        // Each byte is scanned once: the scan ends at the
                        // end of the bytes or at the headers' end.
                        assert!(inc.head_end.is_some() || inc.scanned == inc.len());
                    }
                    assert_eq!(inc.head_end, brute_end(req), "{req:?} cut at {cut}, {cut2}");
                    assert_eq!(parse_incoming(&inc, true), whole);
                }
            }
        }
    }

    #[test]
    fn a_body_arriving_in_pieces_ends_exactly_when_complete() {
        let post = b"POST / HTTP/1.0\r\nContent-Length: 6\r\n\r\n(info)";
        let get = b"GET /?(info) HTTP/1.0\r\nContent-Length: 6\r\n\r\n";
        let bare = b"POST / HTTP/1.0\r\n\r\n(info)";
        let reply = b"HTTP/1.0 200 OK\r\n\r\nnoop";
        for (req, done_at) in [
            (&post[..], post.len()),
            (get, get.len()),
            (bare, usize::MAX),
        ] {
            let mut inc = Incoming::new();
            for (i, b) in req.iter().enumerate() {
                inc.push(&[*b]);
                let done = !matches!(parse_incoming(&inc, false), Parsed::Incomplete);
                assert_eq!(done, i + 1 >= done_at, "{req:?} after {} bytes", i + 1);
            }
            assert!(matches!(parse_incoming(&inc, true), Parsed::Done(_)));
        }
        let mut inc = Incoming::new();
        inc.push(reply);
        assert_eq!(
            parse_reply(&inc, false),
            None,
            "no length: ends at the close"
        );
        assert_eq!(parse_reply(&inc, true), Some(Ok("noop".into())));
    }

    #[test]
    fn an_announced_body_over_the_cap_is_refused_before_it_arrives() {
        let head = b"POST / HTTP/1.0\r\nContent-Length: 1000000000000000\r\n\r\n";
        assert!(matches!(parse_request(head, false), Parsed::TooLarge(_)));
        let over = format!(
            "POST / HTTP/1.0\r\nContent-Length: {}\r\n\r\n",
            MAX_REQUEST_BYTES
        );
        assert!(matches!(
            parse_request(over.as_bytes(), false),
            Parsed::TooLarge(_)
        ));
        let under = format!("POST / HTTP/1.0\r\nContent-Length: {}\r\n\r\n", 1 << 20);
        assert_eq!(parse_request(under.as_bytes(), false), Parsed::Incomplete);
        let reply = b"HTTP/1.0 200 OK\r\nContent-length: 99999999999\r\n\r\nnoop";
        assert!(matches!(parse_response(reply, false), Some(Err(_))));
    }

    #[test]
    fn writes_replies_as_ggp_base() {
        let r = String::from_utf8(response(200, "ready")).unwrap();
        assert!(r.starts_with("HTTP/1.0 200 OK\r\nContent-type: text/acl\r\nContent-length: 5\r\n"));
        assert!(r.contains("Access-Control-Allow-Origin: *\r\n"));
        assert!(r.ends_with("\r\n\r\nready"));
        assert_eq!(
            parse_response(r.as_bytes(), false),
            Some(Ok("ready".into()))
        );
        assert_eq!(parse_response(&r.as_bytes()[..r.len() - 2], false), None);
        assert!(matches!(parse_response(b"", true), Some(Err(_))));
    }

    #[test]
    fn splits_urls() {
        assert_eq!(
            split_url("http://127.0.0.1:9148").unwrap(),
            ("127.0.0.1".into(), 9148, "/".into())
        );
        assert_eq!(
            split_url("http://h/x").unwrap(),
            ("h".into(), 9147, "/x".into())
        );
        assert!(split_url("ftp://h").is_err());
    }
}
