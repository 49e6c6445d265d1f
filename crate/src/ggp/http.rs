//! HTTP framing of GGP messages, byte for byte as ggp-base writes it (see
//! `shared/ggp/WIRE.md`): requests are parsed from bytes and replies are
//! printed to bytes here, so the native server and the Node server (where
//! JavaScript only owns the socket) frame messages identically.

/// Requests larger than this are refused (a rules text is far smaller).
pub const MAX_REQUEST_BYTES: usize = 32 << 20;

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
}

/// Where the headers end (the index after the blank line).
fn header_end(buf: &[u8]) -> Option<usize> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
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
pub fn parse_request(buf: &[u8], closed: bool) -> Parsed {
    if buf.len() > MAX_REQUEST_BYTES {
        return Parsed::Bad(format!("request larger than {MAX_REQUEST_BYTES} bytes"));
    }
    let Some(end) = header_end(buf) else {
        return if closed {
            Parsed::Bad("the connection closed inside the HTTP headers".into())
        } else {
            Parsed::Incomplete
        };
    };
    let Ok(head) = std::str::from_utf8(&buf[..end]) else {
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
            let body = &buf[end..];
            let len = match header(head, "content-length") {
                Some(v) => match v.parse::<usize>() {
                    Ok(n) => Some(n),
                    Err(_) => return Parsed::Bad(format!("bad Content-Length `{v}`")),
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
        other => Parsed::Bad(format!("unsupported HTTP method {other}")),
    }
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
        _ => "Error",
    };
    format!(
        "HTTP/1.0 {status} {reason}\r\n\
         Content-type: text/acl\r\n\
         Content-length: {}\r\n\
         Access-Control-Allow-Origin: *\r\n\
         Access-Control-Allow-Methods: POST, GET, OPTIONS\r\n\
         Access-Control-Allow-Headers: Content-Type\r\n\
         Access-Control-Allow-Age: 86400\r\n\
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
pub fn parse_response(buf: &[u8], closed: bool) -> Option<Result<String, String>> {
    let Some(end) = header_end(buf) else {
        return closed.then(|| {
            Err(if buf.is_empty() {
                "the connection closed without a reply".to_string()
            } else {
                "the connection closed inside the reply headers".to_string()
            })
        });
    };
    let head = String::from_utf8_lossy(&buf[..end]);
    let body = &buf[end..];
    let len = header(&head, "content-length").and_then(|v| v.parse::<usize>().ok());
    let body = match len {
        Some(n) if body.len() >= n => &body[..n],
        Some(_) if closed => return Some(Err("the connection closed inside the reply".into())),
        None if closed => body,
        _ => return None,
    };
    Some(Ok(String::from_utf8_lossy(body).into_owned()))
}

/// Splits `http://host:port/path` into (host, port, path); the port
/// defaults to 9147 (the usual GGP port) when the URL has none.
pub fn split_url(url: &str) -> Result<(String, u16, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("`{url}`: a player URL starts with http://"))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].to_string()),
        None => (rest, "/".to_string()),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (
            h,
            p.parse().map_err(|_| format!("`{url}`: bad port `{p}`"))?,
        ),
        None => (authority, 9147),
    };
    if host.is_empty() {
        return Err(format!("`{url}`: no host"));
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
