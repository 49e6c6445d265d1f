//! Applying quick fixes: `gdlkit check --fix` and `fix(text)` in JS.
//!
//! Each diagnostic carries its fixes ([`crate::diagnostic::Fix`]), made
//! where the diagnostic is made. [`fix_text`] applies the first fix of every
//! diagnostic that has one, skipping fixes whose edits touch an edit already
//! chosen, then checks the new text again (a fix may reveal or settle
//! another problem) until nothing is left to fix, as Ruff does.

use crate::diagnostic::{Diagnostic, Edit, LineIndex, Span};
use serde::Serialize;

/// Passes of check-and-fix before giving up (each pass fixes at least one
/// problem, so this bounds the work on text whose fixes keep interacting).
pub const MAX_PASSES: usize = 10;

/// A fix that was applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "AppliedFix")
)]
pub struct Applied {
    pub code: &'static str,
    pub title: String,
    /// 1-based line and column of the problem in the text of its pass.
    pub line: u32,
    pub column: u32,
}

/// The result of [`fix_text`] (JS: `fix(text)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "FixResult")
)]
pub struct Fixed {
    pub text: String,
    pub applied: Vec<Applied>,
}

/// Applies the fixes of `text`'s diagnostics until none is left (at most
/// [`MAX_PASSES`] passes). `unsafe_fixes`: also apply guesses (fixes with
/// `safe: false`, such as "did you mean").
pub fn fix_text(text: &str, unsafe_fixes: bool) -> Fixed {
    let mut text = text.to_string();
    let mut applied = Vec::new();
    for _ in 0..MAX_PASSES {
        let diags = crate::check_text(&text);
        let (edits, done) = choose(&text, &diags, unsafe_fixes);
        if done.is_empty() {
            break;
        }
        text = apply_edits(&text, &edits);
        applied.extend(done);
    }
    Fixed { text, applied }
}

/// The edits of the first applicable fix of each diagnostic, keeping only
/// fixes that touch no edit chosen before.
fn choose(text: &str, diags: &[Diagnostic], unsafe_fixes: bool) -> (Vec<Edit>, Vec<Applied>) {
    let index = LineIndex::new(text);
    let mut chosen: Vec<Edit> = Vec::new();
    let mut done = Vec::new();
    for d in diags {
        let Some(fix) = d.fixes.iter().find(|f| f.safe || unsafe_fixes) else {
            continue;
        };
        let mut edits = fix.edits.clone();
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        edits.dedup();
        let clashes = edits.windows(2).any(|w| touch(w[0].span, w[1].span))
            || edits
                .iter()
                .any(|e| chosen.iter().any(|c| touch(c.span, e.span)));
        if clashes {
            continue;
        }
        let p = index.position(d.span.start as usize);
        done.push(Applied {
            code: d.code,
            title: fix.title.clone(),
            line: p.line,
            column: p.column,
        });
        chosen.extend(edits);
    }
    (chosen, done)
}

/// Whether two edits overlap or meet (their order would then matter).
fn touch(a: Span, b: Span) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// Applies non-overlapping edits (byte spans into `text`).
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut edits: Vec<&Edit> = edits.iter().collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in edits {
        let (s, t) = (e.span.start as usize, e.span.end as usize);
        if s < at || t > text.len() || !text.is_char_boundary(s) || !text.is_char_boundary(t) {
            continue; // overlapping or out of range: callers never make these
        }
        out.push_str(&text[at..s]);
        out.push_str(&e.insert);
        at = t;
    }
    out.push_str(&text[at..]);
    out
}

/// Widens deletions that would leave a blank line (a removed duplicate
/// fact) to the whole line, so the text keeps its layout.
pub(crate) fn tidy_deletions(text: &str, diags: &mut [Diagnostic]) {
    let bytes = text.as_bytes();
    for e in diags
        .iter_mut()
        .flat_map(|d| d.fixes.iter_mut())
        .flat_map(|f| f.edits.iter_mut())
        .filter(|e| e.insert.is_empty() && e.span.start < e.span.end)
    {
        let (s, t) = (e.span.start as usize, e.span.end as usize);
        if t > bytes.len() {
            continue;
        }
        let line_start = text[..s].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[t..].find('\n').map_or(text.len(), |i| t + i);
        let blank = |r: &str| r.bytes().all(|b| b == b' ' || b == b'\t' || b == b'\r');
        if blank(&text[line_start..s]) && blank(&text[t..line_end]) {
            let end = (line_end + 1).min(text.len());
            e.span = Span::new(line_start, end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_deletions_take_their_line() {
        let text = "(role x)\n(role x)\n(init (p))\n";
        let edits = [Edit::insert(0, ";"), Edit::replace(Span::new(15, 16), "y")];
        assert_eq!(
            apply_edits(text, &edits),
            ";(role x)\n(role y)\n(init (p))\n"
        );
        let fixed = fix_text(text, false);
        assert_eq!(fixed.text, "(role x)\n(init p)\n");
        let codes: Vec<&str> = fixed.applied.iter().map(|a| a.code).collect();
        assert_eq!(codes, ["GDL109", "GDL107"]);
    }
}
