//! The Game Description Language as text: KIF syntax with byte spans,
//! programs over interned symbols, the static validator (every GDL
//! restriction as a located [`Diagnostic`]), quick fixes and the canonical
//! layout. Everything here works on the rules alone; nothing is evaluated.
//!
//! One module per stage: [`syntax`] (text → s-expressions) → [`program`]
//! (rules, literals, terms) → [`deps`] (the dependency graph and strata) →
//! [`check`] (the validator), with [`fix`] and [`format`](mod@format) beside it;
//! [`terms`] and [`diagnostic`] are the vocabulary every stage shares.

pub mod check;
pub mod deps;
pub mod diagnostic;
pub mod fix;
pub mod format;
pub mod program;
pub mod syntax;
pub mod terms;

pub use diagnostic::{Diagnostic, Severity, Span};
pub use program::{parse_program, Program};
pub use terms::{TermId, TermStore};

/// All diagnostics for a game text: syntax, lowering and every static check
/// of the validator ([`check`]), sorted by position.
pub fn check_text(text: &str) -> Vec<Diagnostic> {
    check_program(text, &parse_program(text))
}

/// [`check_text`] for a text already parsed into `program`.
pub fn check_program(text: &str, program: &Program) -> Vec<Diagnostic> {
    let mut diags = program.diagnostics.clone();
    diags.extend(check::check_source(text, program));
    check::sort(&mut diags);
    fix::tidy_deletions(text, &mut diags);
    diags
}
