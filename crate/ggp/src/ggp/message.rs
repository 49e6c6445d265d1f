//! GGP messages: the KIF bodies a game manager sends (`(start …)`, `(play …)`,
//! …), parsed case-insensitively, and printed the way ggp-base prints them
//! (spaces inside parentheses, upper-case keywords).

pub use crate::error::MessageError;
use crate::syntax::{self, Sexp, SexpKind};

/// One manager → player message. Texts (rules, moves) are kept as KIF text.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    Info,
    Start {
        id: String,
        role: String,
        /// The rules, as the text inside the rules list.
        rules: String,
        start_clock: u64,
        play_clock: u64,
    },
    /// `moves` is `None` for `nil` (the first move), else the previous joint
    /// move in role order.
    Play {
        id: String,
        moves: Option<Vec<String>>,
    },
    Stop {
        id: String,
        moves: Option<Vec<String>>,
    },
    /// GDL-II's PLAY (the Dresden server's form): our own last move and
    /// its percepts instead of every role's moves.
    PlaySeen {
        id: String,
        sight: Sight,
    },
    /// GDL-II's STOP.
    StopSeen {
        id: String,
        sight: Sight,
    },
    Abort {
        id: String,
    },
    Preview {
        rules: String,
        clock: u64,
    },
}

/// What a GDL-II PLAY or STOP tells one player: `(PLAY id turn lastmove
/// (percept …))`, with `NIL` for no move and no percepts on turn 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Sight {
    /// 0 for the first PLAY, one more on every later PLAY and on STOP.
    pub turn: u64,
    /// The move played for us on the last turn (`None` for `NIL`).
    pub last_move: Option<String>,
    /// What our role saw on the last turn (`None` for `NIL`).
    pub percepts: Option<Vec<String>>,
}

impl Message {
    /// The keyword, upper case (for logs).
    pub fn kind(&self) -> &'static str {
        match self {
            Message::Info => "INFO",
            Message::Start { .. } => "START",
            Message::Play { .. } | Message::PlaySeen { .. } => "PLAY",
            Message::Stop { .. } | Message::StopSeen { .. } => "STOP",
            Message::Abort { .. } => "ABORT",
            Message::Preview { .. } => "PREVIEW",
        }
    }

    /// The match id, if the message names one.
    pub fn match_id(&self) -> Option<&str> {
        match self {
            Message::Start { id, .. }
            | Message::Play { id, .. }
            | Message::Stop { id, .. }
            | Message::PlaySeen { id, .. }
            | Message::StopSeen { id, .. }
            | Message::Abort { id } => Some(id),
            _ => None,
        }
    }
}

/// Parses a message body; the error says what is wrong.
pub fn parse(text: &str) -> Result<Message, MessageError> {
    let tree = syntax::parse(text);
    if let Some(d) = tree.diagnostics.first() {
        return Err(MessageError::NotKif(d.message.clone()));
    }
    let [form] = tree.forms.as_slice() else {
        return Err(MessageError::Forms(tree.forms.len()));
    };
    let items: &[Sexp] = match &form.kind {
        SexpKind::List(items) => items,
        // `info` without parentheses is accepted as ggp-base does not send it,
        // but a human with curl may.
        SexpKind::Atom => std::slice::from_ref(form),
        SexpKind::Var => return Err(MessageError::NotAList),
    };
    let Some(head) = items.first().filter(|h| h.is_atom()) else {
        return Err(MessageError::NoKeyword);
    };
    let keyword = head.text(text).to_ascii_lowercase();
    let args = &items[1..];
    let arity = |n: usize| -> Result<(), MessageError> {
        if args.len() == n {
            Ok(())
        } else {
            Err(MessageError::Arity {
                keyword: keyword.clone(),
                takes: n,
                got: args.len(),
            })
        }
    };
    match keyword.as_str() {
        "info" => {
            arity(0)?;
            Ok(Message::Info)
        }
        "start" => {
            arity(5)?;
            Ok(Message::Start {
                id: atom(text, &args[0], "match id")?,
                role: atom(text, &args[1], "role")?,
                rules: rules(text, &args[2])?,
                start_clock: clock(text, &args[3], "start clock")?,
                play_clock: clock(text, &args[4], "play clock")?,
            })
        }
        "play" | "stop" if args.len() == 4 => {
            let id = atom(text, &args[0], "match id")?;
            let sight = sight(text, &args[1..])?;
            Ok(if keyword == "play" {
                Message::PlaySeen { id, sight }
            } else {
                Message::StopSeen { id, sight }
            })
        }
        "play" | "stop" => {
            // Three or more: a GDL-II form gone wrong.
            arity(if args.len() > 2 { 4 } else { 2 })?;
            let id = atom(text, &args[0], "match id")?;
            let moves = joint_move(text, &args[1])?;
            Ok(if keyword == "play" {
                Message::Play { id, moves }
            } else {
                Message::Stop { id, moves }
            })
        }
        "abort" => {
            arity(1)?;
            Ok(Message::Abort {
                id: atom(text, &args[0], "match id")?,
            })
        }
        "preview" => {
            arity(2)?;
            Ok(Message::Preview {
                rules: rules(text, &args[0])?,
                clock: clock(text, &args[1], "preview clock")?,
            })
        }
        other => Err(MessageError::Unknown(other.into())),
    }
}

fn atom(text: &str, s: &Sexp, what: &'static str) -> Result<String, MessageError> {
    if s.is_atom() {
        Ok(s.text(text).to_string())
    } else {
        Err(MessageError::NotASymbol {
            what,
            got: s.text(text).into(),
        })
    }
}

fn clock(text: &str, s: &Sexp, what: &'static str) -> Result<u64, MessageError> {
    s.text(text)
        .parse()
        .ok()
        .filter(|_| s.is_atom())
        .ok_or_else(|| MessageError::NotSeconds {
            what,
            got: s.text(text).into(),
        })
}

fn rules(text: &str, s: &Sexp) -> Result<String, MessageError> {
    match s.as_list() {
        Some(items) => Ok(items
            .iter()
            .map(|r| r.text(text))
            .collect::<Vec<_>>()
            .join("\n")),
        None => Err(MessageError::NotRules),
    }
}

fn joint_move(text: &str, s: &Sexp) -> Result<Option<Vec<String>>, MessageError> {
    match &s.kind {
        SexpKind::Atom if s.text(text).eq_ignore_ascii_case("nil") => Ok(None),
        SexpKind::List(items) => Ok(Some(
            items.iter().map(|m| m.text(text).to_string()).collect(),
        )),
        _ => Err(MessageError::NotMoves(s.text(text).into())),
    }
}

/// `turn lastmove (percept …)` of a GDL-II PLAY or STOP.
fn sight(text: &str, args: &[Sexp]) -> Result<Sight, MessageError> {
    let turn = args[0]
        .text(text)
        .parse()
        .ok()
        .filter(|_| args[0].is_atom())
        .ok_or_else(|| MessageError::NotTurn(args[0].text(text).into()))?;
    let last = &args[1];
    let last_move = match &last.kind {
        SexpKind::Var => return Err(MessageError::NotMoves(last.text(text).into())),
        _ if last.text(text).eq_ignore_ascii_case("nil") => None,
        _ => Some(last.text(text).to_string()),
    };
    Ok(Sight {
        turn,
        last_move,
        percepts: joint_move(text, &args[2])?,
    })
}

/// A peer's text made safe for a record or a log line: whitespace runs
/// become one space, other control characters are escaped (`\u{1b}`), and
/// past `max` characters it is cut with `…`.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, word) in text.split_whitespace().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        for c in word.chars() {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        if out.chars().count() > max {
            break;
        }
    }
    match out.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &out[..i]),
        None => out,
    }
}

/// KIF text with ggp-base's spacing: `(mark 1 2)` → `( mark 1 2 )`.
pub fn spaced(kif: &str) -> String {
    let mut out = String::with_capacity(kif.len() + 8);
    for c in kif.chars() {
        match c {
            '(' => out.push_str("( "),
            ')' => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
                out.push(')');
            }
            c if c.is_whitespace() => {
                if !out.ends_with(' ') && !out.is_empty() {
                    out.push(' ');
                }
            }
            c => {
                if out.ends_with(')') {
                    out.push(' ');
                }
                out.push(c);
            }
        }
    }
    out.trim_end().to_string()
}

/// The message printed as ggp-base's manager sends it.
pub fn print(m: &Message) -> String {
    let moves = |ms: &Option<Vec<String>>| match ms {
        None => "NIL".to_string(),
        Some(ms) => format!(
            "({} )",
            ms.iter().map(|m| spaced(m)).collect::<Vec<_>>().join(" ")
        ),
    };
    match m {
        Message::Info => "( INFO )".into(),
        Message::Start {
            id,
            role,
            rules,
            start_clock,
            play_clock,
        } => format!(
            "( START {id} {role} ({} ) {start_clock} {play_clock})",
            rules_text(rules)
        ),
        Message::Play { id, moves: ms } => format!("( PLAY {id} {} )", moves(ms)),
        Message::Stop { id, moves: ms } => format!("( STOP {id} {} )", moves(ms)),
        Message::PlaySeen { id, sight } => format!("( PLAY {id} {} )", sight_text(sight)),
        Message::StopSeen { id, sight } => format!("( STOP {id} {} )", sight_text(sight)),
        Message::Abort { id } => format!("( ABORT {id} )"),
        Message::Preview { rules, clock } => {
            format!("( PREVIEW ({} ) {clock} )", rules_text(rules))
        }
    }
}

/// `turn lastmove (percept …)`, spaced as the rest of the messages.
fn sight_text(s: &Sight) -> String {
    let last = s.last_move.as_deref().map_or("NIL".into(), spaced);
    let percepts = match &s.percepts {
        None => "NIL".to_string(),
        Some(ps) => format!(
            "({} )",
            ps.iter().map(|p| spaced(p)).collect::<Vec<_>>().join(" ")
        ),
    };
    format!("{} {last} {percepts}", s.turn)
}

/// The rules' top-level forms on one line, spaced, every comment dropped
/// (one inside a form would swallow the rest of the line).
fn rules_text(rules: &str) -> String {
    let tree = syntax::parse(rules);
    let mut out = String::with_capacity(rules.len());
    for f in &tree.forms {
        if !out.is_empty() {
            out.push(' ');
        }
        push_form(&mut out, f, rules);
    }
    out
}

/// A form from its atoms, lists written `( a b )`.
fn push_form(out: &mut String, f: &syntax::Sexp, src: &str) {
    match f.as_list() {
        Some(items) => {
            out.push_str("( ");
            for item in items {
                push_form(out, item, src);
                out.push(' ');
            }
            out.push(')');
        }
        None => out.push_str(f.text(src)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_inside_a_form_are_dropped_from_start() {
        // On one line a comment would swallow the rest of the message.
        let rules =
            "; head\n(role a) ; after\n(<= (base (cell ?x)) ; inside\n (index ?x))\n(index 1)";
        let m = Message::Start {
            id: "m".into(),
            role: "a".into(),
            rules: rules.into(),
            start_clock: 5,
            play_clock: 2,
        };
        let text = print(&m);
        assert_eq!(
            text,
            "( START m a (( role a ) ( <= ( base ( cell ?x ) ) ( index ?x ) ) ( index 1 ) ) 5 2)"
        );
        let Ok(Message::Start { rules: back, .. }) = parse(&text) else {
            panic!("the message parses: {text}");
        };
        assert_eq!(
            back,
            "( role a )\n( <= ( base ( cell ?x ) ) ( index ?x ) )\n( index 1 )"
        );
    }

    #[test]
    fn parses_every_kind_case_insensitively() {
        assert_eq!(parse("( INFO )"), Ok(Message::Info));
        let m = parse("(start m1 XPLAYER ((role xplayer) (init (cell 1))) 5 2)").unwrap();
        assert_eq!(
            m,
            Message::Start {
                id: "m1".into(),
                role: "XPLAYER".into(),
                rules: "(role xplayer)\n(init (cell 1))".into(),
                start_clock: 5,
                play_clock: 2
            }
        );
        assert_eq!(
            parse("( PLAY m1 NIL )"),
            Ok(Message::Play {
                id: "m1".into(),
                moves: None
            })
        );
        assert_eq!(
            parse("(Play m1 ((mark 1 2) noop))"),
            Ok(Message::Play {
                id: "m1".into(),
                moves: Some(vec!["(mark 1 2)".into(), "noop".into()])
            })
        );
        assert_eq!(parse("(abort m1)"), Ok(Message::Abort { id: "m1".into() }));
        assert!(matches!(
            parse("(preview ((role r)) 3)"),
            Ok(Message::Preview { clock: 3, .. })
        ));
    }

    #[test]
    fn rejects_malformed_messages_with_a_reason() {
        for (bad, why) in [
            ("", "expected one message"),
            ("(start m1 r ((role r)) 5)", "takes 5 arguments"),
            ("(start m1 r ((role r)) five 2)", "whole seconds"),
            ("(hello)", "unknown message"),
            ("(play m1 (a b)", "not KIF"),
            ("(play m1 x)", "nil or a list"),
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn prints_as_ggp_base_and_parses_back() {
        let m = Message::Play {
            id: "match.1".into(),
            moves: Some(vec!["( mark 2 2 )".into(), "noop".into()]),
        };
        assert_eq!(print(&m), "( PLAY match.1 (( mark 2 2 ) noop ) )");
        assert_eq!(parse(&print(&m)), Ok(m));
        let s = Message::Start {
            id: "m".into(),
            role: "oplayer".into(),
            rules: "(role xplayer) ; c\n(role oplayer)".into(),
            start_clock: 5,
            play_clock: 2,
        };
        assert_eq!(
            print(&s),
            "( START m oplayer (( role xplayer ) ( role oplayer ) ) 5 2)"
        );
        assert_eq!(spaced("((a b) c)"), "( ( a b ) c )");
    }

    #[test]
    fn gdl2_play_and_stop_print_and_parse_back() {
        let first = Message::PlaySeen {
            id: "m".into(),
            sight: Sight {
                turn: 0,
                last_move: None,
                percepts: None,
            },
        };
        assert_eq!(print(&first), "( PLAY m 0 NIL NIL )");
        let later = Message::PlaySeen {
            id: "m".into(),
            sight: Sight {
                turn: 2,
                last_move: Some("(choose 1)".into()),
                percepts: Some(vec!["(car 3)".into(), "open".into()]),
            },
        };
        assert_eq!(print(&later), "( PLAY m 2 ( choose 1 ) (( car 3 ) open ) )");
        let none_seen = Message::StopSeen {
            id: "m".into(),
            sight: Sight {
                turn: 3,
                last_move: Some("noop".into()),
                percepts: Some(Vec::new()),
            },
        };
        assert_eq!(print(&none_seen), "( STOP m 3 noop ( ) )");
        for m in [first, later, none_seen] {
            let back = parse(&print(&m)).unwrap();
            assert_eq!(print(&back), print(&m));
            assert_eq!(back.kind(), m.kind());
        }
        // The Dresden server's lower-case form.
        let Ok(Message::PlaySeen { sight, .. }) = parse("(play m 1 (choose 2) nil)") else {
            panic!("parses");
        };
        assert_eq!((sight.turn, sight.percepts), (1, None));
        for (bad, why) in [
            ("(play m x noop nil)", "turn"),
            ("(play m 1 noop x)", "nil or a list"),
            ("(play m 1 noop)", "takes 4 arguments"),
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
