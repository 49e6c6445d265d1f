//! The KIF formatter: one canonical layout, comments kept in place.
//!
//! - Every top-level form starts on its own line; multi-line forms (rules)
//!   are separated from their neighbours by a blank line, and the author's
//!   blank lines between forms are kept (at most one). A comment directly
//!   above a rule stays attached to it.
//! - A rule is `(<= head` followed by one body literal per line, indented
//!   by four spaces. `or`, `and` and `not` stay on one line when they fit in
//!   [`WIDTH`] columns, otherwise their arguments go one per line, aligned
//!   after the connective. Terms are written on one line with single spaces.
//! - Comments stay where they were: at the end of the same line, or on a
//!   line of their own before the next element. A comment inside a list
//!   breaks that list over several lines; a comment on its own line just
//!   before a `)` moves after the form that closes there.
//! - Line breaks are `\n` (CRLF normalised), no trailing whitespace, one
//!   final newline. Symbols keep their spelling.
//!
//! The output parses to the same program, and formatting it again changes
//! nothing (tested on the whole corpus).

use crate::diagnostic::Diagnostic;
use crate::syntax::{self, Sexp, SexpKind};

/// Lines longer than this break `or`/`and`/`not` over several lines.
pub const WIDTH: usize = 80;

/// Formats KIF text. Text with syntax errors is refused with those errors.
pub fn format(text: &str) -> Result<String, Vec<Diagnostic>> {
    let tree = syntax::parse(text);
    if !tree.diagnostics.is_empty() {
        return Err(tree.diagnostics);
    }
    let mut comments: Vec<(usize, usize)> = tree
        .comments
        .iter()
        .map(|c| (c.span.start as usize, c.span.end as usize))
        .collect();
    comments.sort_unstable();
    let mut f = Formatter {
        text,
        comments,
        next_comment: 0,
        lines: Vec::new(),
        pending: Vec::new(),
    };
    f.top_level(&tree.forms);
    Ok(f.finish())
}

#[derive(Default)]
struct Line {
    text: String,
    /// Comments at the end of this line.
    comments: Vec<String>,
}

/// What precedes each top-level item, for blank-line decisions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    None,
    Comment,
    Form { multi_line: bool },
}

struct Formatter<'a> {
    text: &'a str,
    /// Comment spans, sorted; consumed in source order.
    comments: Vec<(usize, usize)>,
    next_comment: usize,
    lines: Vec<Line>,
    /// Comments that were alone on their line just before a `)`: written
    /// before the next element of an enclosing list, or after the form.
    pending: Vec<String>,
}

const ARROWS: [&str; 6] = ["<=", "=<", ":-", "<-", "<==", "\u{21d0}"];

impl<'a> Formatter<'a> {
    fn comment_text(&self, (s, e): (usize, usize)) -> String {
        self.text[s..e].trim_end().to_string()
    }

    /// Whether the text between two offsets has a line break.
    fn breaks(&self, from: usize, to: usize) -> bool {
        self.text.get(from..to).is_some_and(|t| t.contains('\n'))
    }

    fn blank_line_between(&self, from: usize, to: usize) -> bool {
        self.text
            .get(from..to)
            .is_some_and(|t| t.matches('\n').count() >= 2)
    }

    /// Comments that start before `before`, each with whether it is on the
    /// same line as `last_end` (the end of the previous token).
    fn take_comments(
        &mut self,
        before: usize,
        mut last_end: usize,
    ) -> Vec<(String, bool, (usize, usize))> {
        let mut out = Vec::new();
        while let Some(&c) = self.comments.get(self.next_comment) {
            if c.0 >= before {
                break;
            }
            self.next_comment += 1;
            let trailing = !self.breaks(last_end, c.0);
            out.push((self.comment_text(c), trailing, c));
            last_end = c.1;
        }
        out
    }

    /// Whether a comment lies inside `s` before its last atom (or empty
    /// list): such a comment needs `s` broken over several lines. Comments
    /// after the last atom, before the closing parentheses, are "dangling":
    /// they go after the `)`s without breaking anything.
    fn has_comment_inside(&self, s: &Sexp) -> bool {
        let (start, end) = (s.span.start as usize, last_token_end(s));
        let i = self.comments.partition_point(|c| c.0 < start);
        self.comments.get(i).is_some_and(|c| c.0 < end)
    }

    /// Writes a list on one line, then its dangling comments (see
    /// [`Self::has_comment_inside`]).
    fn inline_with_comments(&mut self, s: &Sexp) {
        let inline = self.inline(s);
        self.push(&inline);
        for (c, trailing, _) in self.take_comments(s.span.end as usize, last_token_end(s)) {
            if let Some(c) = if trailing { self.trailing(c) } else { Some(c) } {
                self.pending.push(c);
            }
        }
    }

    fn new_line(&mut self, indent: usize) {
        self.lines.push(Line {
            text: " ".repeat(indent),
            comments: Vec::new(),
        });
    }

    fn push(&mut self, s: &str) {
        if self.lines.is_empty() {
            self.lines.push(Line::default());
        }
        self.lines.last_mut().expect("a line").text.push_str(s);
    }

    /// Puts a comment at the end of the current line; gives it back when
    /// that line already ends with a comment (or holds one alone) or
    /// pending comments must come first.
    fn trailing(&mut self, c: String) -> Option<String> {
        if !self.pending.is_empty() {
            return Some(c);
        }
        match self.lines.last_mut() {
            Some(l) if l.comments.is_empty() && !l.text.trim().is_empty() => {
                l.comments.push(c);
                None
            }
            _ => Some(c),
        }
    }

    /// A comment alone on its line at `indent`.
    fn own_line(&mut self, c: String, indent: usize) {
        self.lines.push(Line {
            text: " ".repeat(indent),
            comments: vec![c],
        });
    }

    /// Writes comments alone on their lines at `indent`.
    fn own_lines(&mut self, comments: Vec<String>, indent: usize) {
        for c in comments {
            self.own_line(c, indent);
        }
    }

    /// A top-level comment on its own line.
    fn top_comment(&mut self, c: String, prev: &mut Item, blank_in_source: bool) {
        self.separate(*prev, Item::Comment, blank_in_source);
        self.own_line(c, 0);
        *prev = Item::Comment;
    }

    fn top_level(&mut self, forms: &[Sexp]) {
        let mut prev = Item::None;
        let mut prev_end = 0usize;
        for form in forms {
            let start = form.span.start as usize;
            // Comments before this form.
            for (c, trailing, span) in self.take_comments(start, prev_end) {
                let left = if trailing && prev != Item::None {
                    self.trailing(c)
                } else {
                    Some(c)
                };
                if let Some(c) = left {
                    let blank = self.blank_line_between(prev_end, span.0);
                    self.top_comment(c, &mut prev, blank);
                }
                prev_end = span.1;
            }
            let first_line = self.lines.len();
            // Placeholder separation: decided once we know the form's height.
            let blank = self.blank_line_between(prev_end, start);
            let mark = self.lines.len();
            self.new_line(0);
            self.form(form, 0, true);
            let end = form.span.end as usize;
            // Comments after the last token of the form on its line.
            let mut last = end;
            while let Some(&c) = self.comments.get(self.next_comment) {
                if self
                    .text
                    .get(last..c.0)
                    .is_none_or(|gap| !gap.trim().is_empty() || gap.contains('\n'))
                {
                    break;
                }
                self.next_comment += 1;
                let t = self.comment_text(c);
                if let Some(t) = self.trailing(t) {
                    self.pending.push(t);
                }
                last = c.1;
            }
            let multi_line = self.lines.len() - first_line > 1;
            let item = Item::Form { multi_line };
            if separated(prev, item, blank) && mark > 0 {
                self.lines.insert(mark, Line::default());
            }
            prev = item;
            prev_end = last;
            // Own-line comments that closed inside the form.
            let pending = std::mem::take(&mut self.pending);
            for c in pending {
                self.top_comment(c, &mut prev, false);
            }
        }
        // Comments after the last form.
        for (c, trailing, span) in self.take_comments(usize::MAX, prev_end) {
            let left = if trailing && prev != Item::None {
                self.trailing(c)
            } else {
                Some(c)
            };
            if let Some(c) = left {
                let blank = self.blank_line_between(prev_end, span.0);
                self.top_comment(c, &mut prev, blank);
            }
            prev_end = span.1;
        }
    }

    fn separate(&mut self, prev: Item, next: Item, blank_in_source: bool) {
        if separated(prev, next, blank_in_source) {
            self.lines.push(Line::default());
        }
    }

    /// Writes `s` starting at the end of the current line, whose column is
    /// `indent`. `body` selects the literal layout (rules, connectives).
    fn form(&mut self, s: &Sexp, indent: usize, top: bool) {
        match &s.kind {
            SexpKind::Atom | SexpKind::Var => self.push(s.text(self.text)),
            SexpKind::List(items) => {
                let head = items
                    .first()
                    .filter(|h| h.is_atom())
                    .map(|h| h.text(self.text));
                if top && head.is_some_and(|h| ARROWS.contains(&h)) {
                    self.hanging(s, items, indent, indent + 4, 2, Kind::Rule);
                } else {
                    self.term(s, indent);
                }
            }
        }
    }

    /// A body literal: connectives break when too long.
    fn literal(&mut self, s: &Sexp, indent: usize) {
        let SexpKind::List(items) = &s.kind else {
            self.push(s.text(self.text));
            return;
        };
        let head = items
            .first()
            .filter(|h| h.is_atom())
            .map(|h| h.text(self.text).to_ascii_lowercase());
        let connective = matches!(head.as_deref(), Some("or" | "and" | "not"));
        if !connective {
            self.term(s, indent);
            return;
        }
        if !self.has_comment_inside(s) && indent + self.inline(s).chars().count() <= WIDTH {
            self.inline_with_comments(s);
            return;
        }
        let head_len = items[0].text(self.text).chars().count();
        self.hanging(s, items, indent, indent + 2 + head_len, 2, Kind::Connective);
    }

    /// A term: on one line unless a comment is inside.
    fn term(&mut self, s: &Sexp, indent: usize) {
        let SexpKind::List(items) = &s.kind else {
            self.push(s.text(self.text));
            return;
        };
        if !self.has_comment_inside(s) {
            self.inline_with_comments(s);
            return;
        }
        match items.first() {
            Some(h) if h.is_atom() => {
                let align = indent + 2 + h.text(self.text).chars().count();
                self.hanging(s, items, indent, align, 2, Kind::Term);
            }
            _ => self.hanging(s, items, indent, indent + 1, 1, Kind::Term),
        }
    }

    /// `(a b` with the first `first` items on the opening line, the others
    /// one per line at `align`. Comments are placed as in the source.
    fn hanging(
        &mut self,
        s: &Sexp,
        items: &[Sexp],
        indent: usize,
        align: usize,
        first: usize,
        kind: Kind,
    ) {
        self.push("(");
        let mut last_end = s.span.start as usize + 1;
        for (i, item) in items.iter().enumerate() {
            let comments = self.take_comments(item.span.start as usize, last_end);
            let pending = std::mem::take(&mut self.pending);
            let forced = !comments.is_empty() || !pending.is_empty();
            let col = if i == 0 { indent + 1 } else { align };
            self.own_lines(pending, col);
            for (c, trailing, _) in comments {
                if let Some(c) = if trailing { self.trailing(c) } else { Some(c) } {
                    self.own_line(c, col);
                }
            }
            if forced || i >= first {
                self.new_line(col);
            } else if i > 0 {
                self.push(" ");
            }
            let at = col_of(self.lines.last());
            match kind {
                Kind::Rule if i >= 2 => self.literal(item, at),
                Kind::Connective if i >= 1 => self.literal(item, at),
                _ => self.term(item, at),
            }
            last_end = item.span.end as usize;
        }
        // Comments before the closing `)`.
        let comments = self.take_comments(s.span.end as usize - 1, last_end);
        for (c, trailing, _) in comments {
            if let Some(c) = if trailing { self.trailing(c) } else { Some(c) } {
                self.pending.push(c);
            }
        }
        self.push(")");
    }

    /// The one-line rendering of a form (no comments inside).
    fn inline(&self, s: &Sexp) -> String {
        let mut out = String::new();
        // Explicit stack: (node, next child index).
        let mut stack: Vec<(&Sexp, usize)> = vec![(s, 0)];
        while let Some((node, i)) = stack.pop() {
            match &node.kind {
                SexpKind::List(items) => {
                    if i == 0 {
                        out.push('(');
                    }
                    if i < items.len() {
                        if i > 0 {
                            out.push(' ');
                        }
                        stack.push((node, i + 1));
                        stack.push((&items[i], 0));
                    } else {
                        out.push(')');
                    }
                }
                _ => out.push_str(node.text(self.text)),
            }
        }
        out
    }

    fn finish(self) -> String {
        let mut out = String::new();
        for l in &self.lines {
            let code = l.text.trim_end();
            let line = match l.comments.first() {
                None => code.to_string(),
                // A comment alone keeps its indentation.
                Some(c) if code.is_empty() => format!("{}{c}", l.text),
                Some(c) => format!("{code} {c}"),
            };
            out.push_str(line.trim_end());
            out.push('\n');
        }
        // No blank lines at the start or the end.
        let trimmed = out.trim_matches('\n');
        if trimmed.is_empty() {
            String::new()
        } else {
            format!("{trimmed}\n")
        }
    }
}

/// What the elements of a broken list are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `(<= head literal...)`.
    Rule,
    /// `(or literal...)`, `(and ...)`, `(not ...)`.
    Connective,
    Term,
}

/// The end of the last token of `s` other than a closing parenthesis: its
/// last atom, or the `(` of a trailing empty list.
fn last_token_end(s: &Sexp) -> usize {
    let mut last = s;
    loop {
        match last.as_list() {
            Some([.., child]) => last = child,
            Some([]) => return last.span.start as usize + 1,
            None => return last.span.end as usize,
        }
    }
}

fn col_of(line: Option<&Line>) -> usize {
    line.map(|l| l.text.chars().count()).unwrap_or(0)
}

/// Whether a blank line separates two top-level items.
fn separated(prev: Item, next: Item, blank_in_source: bool) -> bool {
    match (prev, next) {
        (Item::None, _) => false,
        _ if blank_in_source => true,
        (Item::Form { multi_line: true }, _) => true,
        (Item::Form { .. }, Item::Form { multi_line: true }) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::format;

    fn fmt(s: &str) -> String {
        format(s).unwrap_or_else(|d| panic!("{d:?}"))
    }

    #[test]
    fn rules_get_one_literal_per_line() {
        let src = "(role x)  (role   o)\r\n(<= (legal ?p (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?p)))\r\n(<=   terminal (not open))";
        assert_eq!(
            fmt(src),
            "(role x)\n(role o)\n\n(<= (legal ?p (mark ?x ?y))\n    (true (cell ?x ?y b))\n    (true (control ?p)))\n\n(<= terminal\n    (not open))\n"
        );
    }

    #[test]
    fn comments_stay_in_place() {
        let src = "; header\n\n(role x) ; the player\n; about legal\n(<= (legal x a) ; head\n  ; before body\n  (true p) ; first\n  (true q))\n; end\n";
        let out = fmt(src);
        assert_eq!(
            out,
            "; header\n\n(role x) ; the player\n; about legal\n(<= (legal x a) ; head\n    ; before body\n    (true p) ; first\n    (true q))\n\n; end\n"
        );
        assert_eq!(fmt(&out), out);
    }

    #[test]
    fn long_or_breaks_and_short_or_stays() {
        let short = "(<= p (or (q 1) (q 2)))";
        assert_eq!(fmt(short), "(<= p\n    (or (q 1) (q 2)))\n");
        let long = "(<= p (or (true (cell 1 1 xxxxxxxxxxx)) (true (cell 1 2 xxxxxxxxxxxxxx)) (true (cell 1 3 xxxxxxxxxxxxxxx))))";
        assert_eq!(
            fmt(long),
            "(<= p\n    (or (true (cell 1 1 xxxxxxxxxxx))\n        (true (cell 1 2 xxxxxxxxxxxxxx))\n        (true (cell 1 3 xxxxxxxxxxxxxxx))))\n"
        );
    }

    #[test]
    fn comment_before_closing_paren_moves_after_the_form() {
        let src = "(<= p\n  (q)\n  ; dangling\n)\n(r)";
        let out = fmt(src);
        assert_eq!(out, "(<= p\n    (q))\n\n; dangling\n(r)\n");
        assert_eq!(fmt(&out), out);
    }

    #[test]
    fn refuses_syntax_errors() {
        assert!(format("(role x").is_err());
        assert_eq!(fmt(""), "");
        assert_eq!(fmt("; only\r\n"), "; only\n");
    }
}
