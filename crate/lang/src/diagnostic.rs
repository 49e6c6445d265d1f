//! Diagnostics: one type for every stage (syntax, program, check, analysis).
//!
//! Spans are UTF-8 byte offsets into the source text. Line/column and UTF-16
//! offsets are computed once, at the boundary, by [`LineIndex`].

use serde::Serialize;
use std::fmt::Write as _;

/// A half-open byte range `[start, end)` into the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// A secondary location that explains the primary one ("opened here").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Related {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable code such as `GDL001`; documented in `docs/diagnostics.md`.
    pub code: &'static str,
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// A one-line suggestion how to fix it (may be empty).
    pub hint: String,
    pub related: Vec<Related>,
    /// Quick fixes, best first (may be empty): exact edits made where the
    /// diagnostic is made, applied by `gdlkit check --fix` and by editors.
    pub fixes: Vec<Fix>,
}

/// One text replacement: `span` (bytes) becomes `insert`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub span: Span,
    pub insert: String,
}

impl Edit {
    pub fn replace(span: Span, insert: impl Into<String>) -> Edit {
        Edit {
            span,
            insert: insert.into(),
        }
    }
    pub fn delete(span: Span) -> Edit {
        Edit::replace(span, "")
    }
    pub fn insert(at: u32, text: impl Into<String>) -> Edit {
        Edit::replace(Span { start: at, end: at }, text)
    }
}

/// A quick fix: a title for menus and the edits (non-overlapping) that
/// remove the problem. `safe`: `gdlkit check --fix` applies it without
/// `--unsafe-fixes` (false for guesses such as "did you mean").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
    pub safe: bool,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            span,
            message: message.into(),
            hint: String::new(),
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = hint.into();
        self
    }
    pub fn with_related(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            span,
            message: message.into(),
        });
        self
    }
    /// Adds a safe quick fix.
    pub fn with_fix(mut self, title: impl Into<String>, edits: Vec<Edit>) -> Diagnostic {
        self.fixes.push(Fix {
            title: title.into(),
            edits,
            safe: true,
        });
        self
    }
    /// Adds a quick fix that is a guess (applied only on request).
    pub fn with_suggestion(mut self, title: impl Into<String>, edits: Vec<Edit>) -> Diagnostic {
        self.fixes.push(Fix {
            title: title.into(),
            edits,
            safe: false,
        });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// Maps byte offsets to 1-based line/column (columns count characters) and to
/// UTF-16 code-unit offsets (what JavaScript editors count).
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    /// UTF-16 offset of each line start (so a position costs one line's
    /// scan, not the whole text's).
    line_starts_utf16: Vec<u32>,
}

/// A position as editors show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in Unicode scalar values.
    pub column: u32,
    /// Offset from the start of the text in UTF-16 code units.
    pub utf16: u32,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut line_starts = vec![0];
        let mut line_starts_utf16 = vec![0];
        let mut utf16 = 0u32;
        let bytes = text.as_bytes();
        for (i, c) in text.char_indices() {
            utf16 += c.len_utf16() as u32;
            // `\n`, `\r\n` and a lone `\r` (old Mac files) end a line.
            if c == '\n' || (c == '\r' && bytes.get(i + 1) != Some(&b'\n')) {
                line_starts.push(i + 1);
                line_starts_utf16.push(utf16);
            }
        }
        LineIndex {
            text,
            line_starts,
            line_starts_utf16,
        }
    }

    fn clamp(&self, offset: usize) -> usize {
        let mut o = offset.min(self.text.len());
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }

    /// 0-based line number containing `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let o = self.clamp(offset);
        match self.line_starts.binary_search(&o) {
            Ok(l) => l,
            Err(l) => l - 1,
        }
    }

    pub fn position(&self, offset: usize) -> Position {
        let o = self.clamp(offset);
        let line = self.line_of(o);
        let start = self.line_starts[line];
        let column = self.text[start..o].chars().count() + 1;
        let utf16 =
            self.line_starts_utf16[line] as usize + self.text[start..o].encode_utf16().count();
        Position {
            line: line as u32 + 1,
            column: column as u32,
            utf16: utf16 as u32,
        }
    }

    /// The text of 0-based line `line` without its line break.
    pub fn line_text(&self, line: usize) -> &'a str {
        let start = self.line_starts[line.min(self.line_starts.len() - 1)];
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// "12:3": the 1-based line and column of an offset.
    pub fn line_col(&self, offset: usize) -> String {
        let p = self.position(offset);
        format!("{}:{}", p.line, p.column)
    }
}

/// Renders diagnostics like a compiler: `file:line:col: error[CODE]: message`,
/// the source line, a caret range, the hint and the related locations.
pub fn render(diags: &[Diagnostic], file: &str, text: &str, colour: bool) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for d in diags {
        render_one(&mut out, d, file, &index, colour);
    }
    out
}

/// Longest excerpt shown of a source line (in characters); longer lines are
/// cut around the spans with `...`.
const MAX_SHOWN: usize = 100;

struct Palette {
    sev: &'static str,
    bold: &'static str,
    blue: &'static str,
    reset: &'static str,
}

fn render_one(out: &mut String, d: &Diagnostic, file: &str, index: &LineIndex, colour: bool) {
    let sev_colour = match d.severity {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
        Severity::Info => "\x1b[1;36m",
    };
    let c = if colour {
        Palette {
            sev: sev_colour,
            bold: "\x1b[1m",
            blue: "\x1b[1;34m",
            reset: "\x1b[0m",
        }
    } else {
        Palette {
            sev: "",
            bold: "",
            blue: "",
            reset: "",
        }
    };
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let p = index.position(d.span.start as usize);
    let _ = writeln!(
        out,
        "{}{file}:{}:{}:{} {}{sev}[{}]{}{}: {}{}",
        c.bold, p.line, p.column, c.reset, c.sev, d.code, c.reset, c.bold, d.message, c.reset
    );
    // A diagnostic about the whole file (empty span at the start) has no
    // excerpt; related locations are then listed as notes.
    let file_level = d.span == Span::default();
    // Excerpt rows: the primary span (carets), then each related span
    // (dashes and its message); a source line is printed once per run.
    let mut rows: Vec<(Span, bool, &str)> = Vec::new();
    if !file_level {
        rows.push((d.span, true, ""));
    }
    let mut notes: Vec<&Related> = Vec::new();
    for r in &d.related {
        if file_level || r.span == d.span {
            notes.push(r);
        } else {
            rows.push((r.span, false, &r.message));
        }
    }
    // In line order, the primary span first on its line.
    rows.sort_by_key(|(span, primary, _)| (index.line_of(span.start as usize), !*primary));
    let width = rows
        .iter()
        .map(|(s, _, _)| (index.line_of(s.start as usize) + 1).to_string().len())
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(width);
    if !rows.is_empty() {
        let _ = writeln!(out, "{}{pad} |{}", c.blue, c.reset);
    }
    let mut last_line = usize::MAX;
    let mut window = (0usize, usize::MAX);
    for (i, &(span, primary, label)) in rows.iter().enumerate() {
        let line = index.line_of(span.start as usize);
        if line != last_line {
            if last_line != usize::MAX && line > last_line + 1 {
                let _ = writeln!(out, "{}{:>width$}{}", c.blue, "...", c.reset);
            }
            // Long lines are cut to a window around the spans on them.
            let text: Vec<char> = index
                .line_text(line)
                .chars()
                .map(|ch| if ch == '\t' { ' ' } else { ch })
                .collect();
            let first = rows[i..]
                .iter()
                .take_while(|(s, _, _)| index.line_of(s.start as usize) == line)
                .map(|(s, _, _)| underline(index, *s).0)
                .min()
                .unwrap_or(1);
            window = if text.len() <= MAX_SHOWN {
                (0, text.len())
            } else {
                let start = (first - 1)
                    .saturating_sub(MAX_SHOWN / 4)
                    .min(text.len().saturating_sub(MAX_SHOWN));
                (start, (start + MAX_SHOWN).min(text.len()))
            };
            let mut shown: String = text[window.0..window.1].iter().collect();
            if window.0 > 0 {
                shown.insert_str(0, "...");
            }
            if window.1 < text.len() {
                shown.push_str("...");
            }
            let _ = writeln!(out, "{}{:>width$} |{} {shown}", c.blue, line + 1, c.reset);
            last_line = line;
        }
        let (first_col, len) = underline(index, span);
        // Clip the underline to the window (columns are 1-based).
        let prefix = if window.0 > 0 { 3 } else { 0 };
        let from = (first_col - 1).clamp(window.0, window.1);
        let to = (first_col - 1 + len)
            .clamp(window.0, window.1)
            .max(from + 1);
        let (mark, colour) = if primary { ("^", c.sev) } else { ("-", c.blue) };
        let label = if label.is_empty() {
            String::new()
        } else {
            format!(" {label}")
        };
        let _ = writeln!(
            out,
            "{}{pad} |{} {}{colour}{}{label}{}",
            c.blue,
            c.reset,
            " ".repeat(prefix + from - window.0),
            mark.repeat(to - from),
            c.reset
        );
    }
    if !d.hint.is_empty() {
        let _ = writeln!(out, "{pad} {}= hint:{} {}", c.blue, c.reset, d.hint);
    }
    for r in notes {
        let rp = index.position(r.span.start as usize);
        let _ = writeln!(
            out,
            "{pad} {}= note:{} {}:{}:{}: {}",
            c.blue, c.reset, file, rp.line, rp.column, r.message
        );
    }
}

/// The first column (1-based) and length in characters of the underline of
/// `span` on the line where it starts (clipped to that line, at least 1).
fn underline(index: &LineIndex, span: Span) -> (usize, usize) {
    let line = index.line_of(span.start as usize);
    let text = index.line_text(line);
    let start = index.position(span.start as usize);
    let end = index.position((span.end as usize).max(span.start as usize + 1));
    let first_col = start.column as usize;
    let last_col = if end.line == start.line {
        (end.column as usize).max(first_col + 1)
    } else {
        text.chars().count() + 1
    };
    (first_col, last_col.saturating_sub(first_col).max(1))
}

/// A diagnostic with positions resolved for JSON/JS consumers (1-based lines
/// and columns, UTF-16 offsets for editors).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "Diagnostic")
)]
pub struct ResolvedDiagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// UTF-16 offsets of the span (for CodeMirror and other JS editors).
    pub from: u32,
    pub to: u32,
    pub hint: String,
    pub related: Vec<ResolvedRelated>,
    /// Quick fixes with edits in UTF-16 offsets (`from`, `to`, `insert`).
    pub fixes: Vec<ResolvedFix>,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "QuickFix")
)]
pub struct ResolvedFix {
    pub title: String,
    pub edits: Vec<ResolvedEdit>,
    pub safe: bool,
}

/// Replace UTF-16 offsets `[from, to)` by `insert`.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "Edit")
)]
pub struct ResolvedEdit {
    pub from: u32,
    pub to: u32,
    pub insert: String,
}

#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "RelatedSpan")
)]
pub struct ResolvedRelated {
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub from: u32,
    pub to: u32,
}

pub fn resolve(diags: &[Diagnostic], text: &str) -> Vec<ResolvedDiagnostic> {
    let index = LineIndex::new(text);
    diags
        .iter()
        .map(|d| {
            let (s, e) = (
                index.position(d.span.start as usize),
                index.position(d.span.end as usize),
            );
            ResolvedDiagnostic {
                code: d.code,
                severity: d.severity,
                message: d.message.clone(),
                line: s.line,
                column: s.column,
                end_line: e.line,
                end_column: e.column,
                from: s.utf16,
                to: e.utf16,
                hint: d.hint.clone(),
                related: d
                    .related
                    .iter()
                    .map(|r| {
                        let (s, e) = (
                            index.position(r.span.start as usize),
                            index.position(r.span.end as usize),
                        );
                        ResolvedRelated {
                            message: r.message.clone(),
                            line: s.line,
                            column: s.column,
                            end_line: e.line,
                            end_column: e.column,
                            from: s.utf16,
                            to: e.utf16,
                        }
                    })
                    .collect(),
                fixes: d
                    .fixes
                    .iter()
                    .map(|f| ResolvedFix {
                        title: f.title.clone(),
                        safe: f.safe,
                        edits: f
                            .edits
                            .iter()
                            .map(|e| ResolvedEdit {
                                from: index.position(e.span.start as usize).utf16,
                                to: index.position(e.span.end as usize).utf16,
                                insert: e.insert.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_chars_and_utf16() {
        let text = "ab\n\u{e9}\u{1F600}x\n";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        let p = idx.position(x);
        assert_eq!((p.line, p.column), (2, 3));
        // "ab\n" = 3 units, é = 1, 😀 = 2 surrogates.
        assert_eq!(p.utf16, 6);
        assert_eq!(idx.line_text(1), "\u{e9}\u{1F600}x");
    }

    #[test]
    fn render_shows_caret_under_span() {
        let text = "(role x)\n(init (foo)\n";
        let d = Diagnostic::error("GDL001", Span::new(9, 10), "unclosed `(`").with_hint("add `)`");
        let out = render(&[d], "g.kif", text, false);
        assert!(
            out.starts_with("g.kif:2:1: error[GDL001]: unclosed `(`\n"),
            "{out}"
        );
        assert!(out.contains("2 | (init (foo)\n  | ^\n"), "{out}");
        assert!(out.contains("= hint: add `)`"), "{out}");
    }
}
