//! Syntax: KIF text → s-expressions with byte spans.
//!
//! Tokens are read with winnow; the tree is built by an explicit stack (no
//! recursion, so deeply nested input cannot overflow the call stack). Every
//! error is reported and parsing resumes at the next top-level form.

use crate::diagnostic::{Diagnostic, Edit, LineIndex, Span};
use winnow::combinator::alt;
use winnow::prelude::*;
use winnow::stream::LocatingSlice;
use winnow::token::{any, take_till, take_while};

/// Maximum nesting of parentheses; deeper input is rejected with a diagnostic.
pub const MAX_DEPTH: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SexpKind {
    /// A symbol or number; its text is `&source[span]`.
    Atom,
    /// `?name`; the name is `&source[span.start + 1..span.end]`.
    Var,
    List(Vec<Sexp>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sexp {
    pub kind: SexpKind,
    pub span: Span,
}

impl Sexp {
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.span.range()]
    }
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match &self.kind {
            SexpKind::List(items) => Some(items),
            _ => None,
        }
    }
    pub fn is_atom(&self) -> bool {
        self.kind == SexpKind::Atom
    }
}

/// A `;` comment (span includes the `;`, excludes the line break).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
}

/// The parse result: top-level forms, the comments, and syntax diagnostics.
#[derive(Clone, Debug, Default)]
pub struct SyntaxTree {
    pub forms: Vec<Sexp>,
    pub comments: Vec<Comment>,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Atom,
    Var,
    Comment,
    Space,
    /// A NUL byte (or another C0 control character other than whitespace):
    /// never part of a name.
    Control,
}

type Input<'a> = LocatingSlice<&'a str>;

fn is_delim(c: char) -> bool {
    c.is_whitespace() || c == '(' || c == ')' || c == ';' || is_control(c)
}

/// C0 control characters that are not whitespace (NUL, escape, ...).
fn is_control(c: char) -> bool {
    c.is_ascii_control() && !c.is_ascii_whitespace() && c != '\x0B'
}

fn token(input: &mut Input<'_>) -> ModalResult<(Tok, std::ops::Range<usize>)> {
    alt((
        '('.value(Tok::Open),
        ')'.value(Tok::Close),
        (';', take_till(0.., ['\n', '\r'])).value(Tok::Comment),
        take_while(1.., char::is_whitespace).value(Tok::Space),
        // A byte-order mark (at the start of files saved by some editors).
        '\u{FEFF}'.value(Tok::Space),
        take_while(1.., is_control).value(Tok::Control),
        ('?', take_while(0.., |c| !is_delim(c))).value(Tok::Var),
        take_while(1.., |c| !is_delim(c)).value(Tok::Atom),
        any.value(Tok::Atom),
    ))
    .with_span()
    .parse_next(input)
}

/// Splits the text into tokens (whitespace dropped).
fn tokenize(src: &str) -> Vec<(Tok, Span)> {
    let mut input = LocatingSlice::new(src);
    let mut out = Vec::new();
    while !input.is_empty() {
        match token(&mut input) {
            Ok((Tok::Space, _)) => {}
            Ok((tok, r)) => out.push((tok, Span::new(r.start, r.end))),
            // Unreachable: `any` accepts every character; stop rather than loop.
            Err(_) => break,
        }
    }
    out
}

/// Parses KIF text. Never panics; reports every error it can find.
pub fn parse(src: &str) -> SyntaxTree {
    let tokens = tokenize(src);
    let mut tree = SyntaxTree::default();
    let index = LineIndex::new(src);
    let mut i = 0;
    while i < tokens.len() {
        let (tok, span) = tokens[i];
        match tok {
            Tok::Comment => {
                tree.comments.push(Comment { span });
                i += 1;
            }
            Tok::Close => {
                tree.diagnostics.push(
                    Diagnostic::error("GDL001", span, "unexpected `)`: no `(` is open here")
                        .with_hint("remove this `)` or add the `(` it should close")
                        .with_fix("Remove `)`", vec![Edit::delete(span)]),
                );
                i += 1;
            }
            Tok::Atom | Tok::Var => {
                if tok == Tok::Var && span.end - span.start == 1 {
                    tree.diagnostics.push(empty_var(span));
                }
                let kind = if tok == Tok::Atom {
                    SexpKind::Atom
                } else {
                    SexpKind::Var
                };
                tree.forms.push(Sexp { kind, span });
                i += 1;
            }
            Tok::Open => i = parse_form(src, &tokens, i, &index, &mut tree),
            Tok::Control => {
                tree.diagnostics.push(control_error(src, span));
                i += 1;
            }
            Tok::Space => i += 1,
        }
    }
    tree
}

fn empty_var(span: Span) -> Diagnostic {
    Diagnostic::error("GDL003", span, "`?` must be followed by a variable name")
        .with_hint("write a name right after the `?`, e.g. `?x`")
        .with_fix("Name it `?x`", vec![Edit::replace(span, "?x")])
}

/// Builds one top-level list starting at token `start` (an `(`); returns the
/// index of the next token to read.
fn parse_form(
    src: &str,
    tokens: &[(Tok, Span)],
    start: usize,
    index: &LineIndex,
    tree: &mut SyntaxTree,
) -> usize {
    // Stack of open lists: (opening span, children).
    let mut stack: Vec<(Span, Vec<Sexp>)> = Vec::new();
    let mut too_deep: Option<Span> = None;
    // Lists opened beyond MAX_DEPTH are counted, not built.
    let mut skipped = 0usize;
    let mut local_diags = Vec::new();
    let mut i = start;
    while i < tokens.len() {
        let (tok, span) = tokens[i];
        i += 1;
        match tok {
            Tok::Open if stack.len() >= MAX_DEPTH => {
                too_deep.get_or_insert(span);
                skipped += 1;
            }
            Tok::Open => stack.push((span, Vec::new())),
            Tok::Close if skipped > 0 => skipped -= 1,
            Tok::Close => {
                let (open, items) = stack.pop().expect("stack non-empty inside a form");
                let node = Sexp {
                    kind: SexpKind::List(items),
                    span: open.join(span),
                };
                match stack.last_mut() {
                    Some((_, parent)) => parent.push(node),
                    None => {
                        tree.diagnostics.append(&mut local_diags);
                        match too_deep {
                            Some(deep) => tree.diagnostics.push(nesting_error(deep)),
                            None => tree.forms.push(node),
                        }
                        return i;
                    }
                }
            }
            Tok::Atom | Tok::Var if skipped > 0 => {}
            Tok::Atom | Tok::Var => {
                if tok == Tok::Var && span.end - span.start == 1 {
                    local_diags.push(empty_var(span));
                }
                let kind = if tok == Tok::Atom {
                    SexpKind::Atom
                } else {
                    SexpKind::Var
                };
                stack
                    .last_mut()
                    .expect("inside a form")
                    .1
                    .push(Sexp { kind, span });
            }
            Tok::Comment => tree.comments.push(Comment { span }),
            Tok::Control => local_diags.push(control_error(src, span)),
            Tok::Space => {}
        }
    }
    // End of input with the form still open: report it and resume at the most
    // likely start of the next top-level form.
    let open = tokens[start].1;
    let resume = recovery_point(src, tokens, start);
    let end = if resume < tokens.len() {
        tokens[resume].1.start as usize
    } else {
        src.len()
    };
    let missing = count_unclosed(&tokens[start..resume]);
    let mut d = Diagnostic::error(
        "GDL002",
        open,
        format!(
            "unclosed `(` opened at {}",
            index.line_col(open.start as usize)
        ),
    )
    .with_hint(if missing == 1 {
        "add the missing `)` at the end of this form".to_string()
    } else {
        format!("{missing} `)` are missing at the end of this form")
    });
    if resume < tokens.len() {
        d = d.with_related(Span::new(end, end), "the next form seems to start here");
    }
    // Close the form right after its last token (not after a comment or
    // the blank lines before the next form).
    let close_at = tokens[start..resume]
        .iter()
        .rev()
        .find(|(t, _)| !matches!(t, Tok::Space | Tok::Comment))
        .map_or(open.end, |(_, sp)| sp.end);
    if missing > 0 {
        d = d.with_fix(
            if missing == 1 {
                "Insert `)`".to_string()
            } else {
                format!("Insert {missing} `)`")
            },
            vec![Edit::insert(close_at, ")".repeat(missing))],
        );
    }
    // Diagnostics after the resume point will be found again.
    local_diags.retain(|x| (x.span.start as usize) < end);
    tree.diagnostics.append(&mut local_diags);
    tree.diagnostics.push(d);
    // Comments after the resume point were recorded during the scan and will
    // be read again.
    tree.comments.retain(|c| (c.span.start as usize) < end);
    resume
}

fn control_error(src: &str, span: Span) -> Diagnostic {
    let c = src[span.range()].chars().next().unwrap_or('\0');
    Diagnostic::error(
        "GDL005",
        span,
        format!("control character U+{:04X} in the text", c as u32),
    )
    .with_hint("remove it: KIF text is printable characters, spaces, tabs and line breaks (was the file saved as text?)")
}

fn nesting_error(span: Span) -> Diagnostic {
    Diagnostic::error(
        "GDL004",
        span,
        format!("forms are nested more than {MAX_DEPTH} levels deep"),
    )
    .with_hint("GDL terms this deep are almost certainly a typo; check the parentheses")
}

fn count_unclosed(tokens: &[(Tok, Span)]) -> usize {
    let mut depth: isize = 0;
    for (t, _) in tokens {
        match t {
            Tok::Open => depth += 1,
            Tok::Close => depth -= 1,
            _ => {}
        }
    }
    depth.max(1) as usize
}

/// After an unclosed form starting at `start`, the token index where the next
/// top-level form most likely begins: a `(` at the start of a line whose head
/// is a rule arrow or a GDL keyword, else any `(` at the start of a line, else
/// the end of input.
fn recovery_point(src: &str, tokens: &[(Tok, Span)], start: usize) -> usize {
    const HEADS: [&str; 10] = [
        "<=", "role", "init", "base", "input", "legal", "next", "goal", "terminal", "=<",
    ];
    let at_line_start =
        |s: Span| s.start == 0 || matches!(src.as_bytes()[s.start as usize - 1], b'\n' | b'\r');
    let mut any_line_start = None;
    for j in start + 1..tokens.len() {
        let (tok, span) = tokens[j];
        if tok != Tok::Open || !at_line_start(span) {
            continue;
        }
        if let Some((Tok::Atom, head)) = tokens.get(j + 1) {
            let word = &src[head.range()];
            if HEADS.iter().any(|h| h.eq_ignore_ascii_case(word)) {
                return j;
            }
        }
        any_line_start.get_or_insert(j);
    }
    any_line_start.unwrap_or(tokens.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(src: &str, s: &Sexp) -> String {
        match &s.kind {
            SexpKind::List(items) => {
                format!(
                    "[{}]",
                    items
                        .iter()
                        .map(|x| atoms(src, x))
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            }
            _ => s.text(src).to_string(),
        }
    }

    #[test]
    fn reads_rules_comments_and_crlf() {
        let src = "; tic\r\n(<= (legal ?p (mark ?x ?y))\r\n\t(true (cell ?x ?y b)))\r\nterminal ; end\r\n";
        let t = parse(src);
        assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
        assert_eq!(t.forms.len(), 2);
        assert_eq!(
            atoms(src, &t.forms[0]),
            "[<= [legal ?p [mark ?x ?y]] [true [cell ?x ?y b]]]"
        );
        assert_eq!(atoms(src, &t.forms[1]), "terminal");
        assert_eq!(t.comments.len(), 2);
        assert_eq!(&src[t.comments[0].span.range()], "; tic");
    }

    #[test]
    fn spans_point_at_source() {
        let src = "(role  robot)";
        let t = parse(src);
        let items = t.forms[0].as_list().unwrap();
        assert_eq!(items[1].text(src), "robot");
        assert_eq!(items[1].span, Span::new(7, 12));
        assert_eq!(t.forms[0].span, Span::new(0, 13));
    }

    #[test]
    fn unclosed_form_recovers_at_next_form() {
        let src = "(role x)\n(init (cell 1)\n(init (cell 2))\n";
        let t = parse(src);
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].message, "unclosed `(` opened at 2:1");
        assert_eq!(t.diagnostics[0].code, "GDL002");
        assert_eq!(t.forms.len(), 2, "role and the second init survive");
        assert_eq!(atoms(src, &t.forms[1]), "[init [cell 2]]");
    }

    #[test]
    fn reports_every_error() {
        let src = ") (role x) )\n(init a\n(init b)\n(legal ? c)";
        let t = parse(src);
        let codes: Vec<_> = t.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec!["GDL001", "GDL001", "GDL002", "GDL003"]);
        assert_eq!(t.forms.len(), 3);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
        let t = parse(&src);
        assert_eq!(t.diagnostics.len(), 1);
        assert_eq!(t.diagnostics[0].code, "GDL004");
        assert!(t.forms.is_empty());
    }
}
