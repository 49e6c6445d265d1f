//! Program: s-expressions → rules and literals over interned symbols.
//!
//! Lowering is permissive: it builds every rule it can and reports only what
//! makes a form impossible to read as GDL (a variable as relation name, a
//! misspelt rule arrow, ...). The GDL restrictions (safety, stratification,
//! keyword use) are the validator's job (`check`).

use crate::diagnostic::{Diagnostic, Edit, Span};
use crate::syntax::{self, Sexp, SexpKind, SyntaxTree};
use crate::terms::{kw, Sym, SymbolTable};

/// Index of a variable within its rule.
pub type VarId = u16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Var(VarId, Span),
    /// A constant (symbol or number).
    Const(Sym, Span),
    /// `(f a b)`. `name_span` covers `f`. `(f)` is kept as `App` with no
    /// arguments; it means the constant `f`.
    App {
        functor: Sym,
        args: Vec<Term>,
        span: Span,
        name_span: Span,
    },
}

impl Term {
    pub fn span(&self) -> Span {
        match self {
            Term::Var(_, s) | Term::Const(_, s) => *s,
            Term::App { span, .. } => *span,
        }
    }
    /// Calls `f` on every variable occurrence.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId, Span)) {
        match self {
            Term::Var(v, s) => f(*v, *s),
            Term::Const(..) => {}
            Term::App { args, .. } => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }
    pub fn is_ground(&self) -> bool {
        let mut ground = true;
        self.for_each_var(&mut |_, _| ground = false);
        ground
    }
}

/// A relation applied to arguments: `(cell ?x ?y b)` or `terminal`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub rel: Sym,
    pub args: Vec<Term>,
    pub span: Span,
    pub name_span: Span,
    /// Written `(terminal)`: a zero-arity relation in parentheses.
    pub parenthesized: bool,
}

impl Atom {
    pub fn arity(&self) -> usize {
        self.args.len()
    }
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId, Span)) {
        self.args.iter().for_each(|a| a.for_each_var(f));
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Pos(Atom),
    /// `(not L)`; GDL allows only an atom inside, the validator checks that.
    Not(Box<Literal>, Span),
    Distinct(Term, Term, Span),
    /// `(or D1 D2 ...)`; each disjunct is a conjunction (from `and`).
    Or(Vec<Vec<Literal>>, Span),
}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Pos(a) => a.span,
            Literal::Not(_, s) | Literal::Distinct(_, _, s) | Literal::Or(_, s) => *s,
        }
    }
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId, Span)) {
        match self {
            Literal::Pos(a) => a.for_each_var(f),
            Literal::Not(l, _) => l.for_each_var(f),
            Literal::Distinct(a, b, _) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Literal::Or(ds, _) => ds.iter().flatten().for_each(|l| l.for_each_var(f)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
    /// The whole top-level form.
    pub span: Span,
    /// Variable names (canonical lowercase, without `?`), indexed by `VarId`.
    pub vars: Vec<String>,
    /// Written with `<=` (or a misspelt arrow) rather than as a bare fact.
    pub is_rule_form: bool,
}

impl Rule {
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }
}

/// A parsed game description.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub symbols: SymbolTable,
    pub rules: Vec<Rule>,
    /// Syntax and lowering diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Spans of top-level forms that could not be read at all.
    pub dropped: Vec<Span>,
}

impl Program {
    /// The roles, in the order of their `(role r)` facts (canonical
    /// lowercase names): what a page needs before any engine is loaded.
    pub fn role_names(&self) -> Vec<String> {
        self.rules
            .iter()
            .filter(|r| r.body.is_empty() && r.head.rel == kw::ROLE)
            .filter_map(|r| match r.head.args.as_slice() {
                [Term::Const(s, _)] => Some(self.symbols.name(*s).to_string()),
                _ => None,
            })
            .collect()
    }

    /// The symbol `sees`, if the program mentions it.
    pub fn sees_sym(&self) -> Option<Sym> {
        self.symbols.get(kw::SEES_NAME)
    }

    /// The symbol `random`, if the program mentions it.
    pub fn random_sym(&self) -> Option<Sym> {
        self.symbols.get(kw::RANDOM_NAME)
    }

    /// A GDL-II game: it defines `sees` (with two arguments) or has the
    /// role `random`. GDL-I games are read and run exactly as before.
    pub fn is_gdl2(&self) -> bool {
        let sees = self.sees_sym();
        let random = self.random_sym();
        self.rules.iter().any(|r| {
            (Some(r.head.rel) == sees && r.head.arity() == 2)
                || (r.head.rel == kw::ROLE
                    && matches!(r.head.args.as_slice(), [Term::Const(s, _)] if Some(*s) == random))
        })
    }
}

/// Parses and lowers KIF text.
pub fn parse_program(src: &str) -> Program {
    let tree = syntax::parse(src);
    lower(src, &tree)
}

/// Lowers a syntax tree into a program.
pub fn lower(src: &str, tree: &SyntaxTree) -> Program {
    let mut lw = Lowerer {
        src,
        symbols: SymbolTable::new(),
        diags: tree.diagnostics.clone(),
        vars: Vec::new(),
        var_ids: Default::default(),
        too_many_vars: false,
    };
    let mut rules = Vec::new();
    let mut dropped = Vec::new();
    for form in &tree.forms {
        match lw.form(form) {
            Some(rule) => rules.push(rule),
            None => dropped.push(form.span),
        }
    }
    lw.diags.sort_by_key(|d| (d.span.start, d.span.end));
    Program {
        symbols: lw.symbols,
        rules,
        diagnostics: lw.diags,
        dropped,
    }
}

/// Misspellings of `<=` that students type.
const WRONG_ARROWS: [&str; 5] = ["=<", ":-", "<-", "<==", "⇐"];

struct Lowerer<'a> {
    src: &'a str,
    symbols: SymbolTable,
    diags: Vec<Diagnostic>,
    /// Variable names of the rule being lowered, and each one's index
    /// (a rule may have thousands: a linear search made lowering it
    /// quadratic).
    vars: Vec<String>,
    var_ids: rustc_hash::FxHashMap<String, VarId>,
    /// The rule has more variables than a [`VarId`] numbers (reported once).
    too_many_vars: bool,
}

impl<'a> Lowerer<'a> {
    fn text(&self, s: &Sexp) -> &'a str {
        s.text(self.src)
    }

    fn form(&mut self, form: &Sexp) -> Option<Rule> {
        self.vars.clear();
        self.var_ids.clear();
        self.too_many_vars = false;
        let items = form.as_list().unwrap_or(&[]);
        let arrow = items.first().filter(|h| h.is_atom()).map(|h| self.text(h));
        let is_arrow = arrow == Some("<=");
        let wrong = arrow.filter(|a| WRONG_ARROWS.contains(a));
        if let Some(w) = wrong {
            let w = w.to_string();
            self.diags.push(
                Diagnostic::error(
                    "GDL011",
                    items[0].span,
                    format!("`{w}` is not a rule arrow; did you mean `<=`?"),
                )
                .with_hint("GDL rules are written `(<= head body...)`")
                .with_fix("Use `<=`", vec![Edit::replace(items[0].span, "<=")]),
            );
        }
        if is_arrow || wrong.is_some() {
            return self.rule(form, items);
        }
        let head = self.atom(form, "fact")?;
        if !self.vars.is_empty() {
            let mut first = None;
            head.for_each_var(&mut |_, s| {
                first.get_or_insert(s);
            });
            self.diags.push(
                Diagnostic::error("GDL010", first.unwrap_or(form.span), "a variable outside a rule")
                    .with_hint("facts must be ground; to state something for all values, write a rule `(<= head body...)`"),
            );
        }
        Some(Rule {
            head,
            body: Vec::new(),
            span: form.span,
            vars: std::mem::take(&mut self.vars),
            is_rule_form: false,
        })
    }

    fn rule(&mut self, form: &Sexp, items: &[Sexp]) -> Option<Rule> {
        let Some(head_sexp) = items.get(1) else {
            self.diags.push(
                Diagnostic::error("GDL013", form.span, "a rule without a head")
                    .with_hint("write `(<= head body...)`"),
            );
            return None;
        };
        let head = self.atom(head_sexp, "rule head")?;
        let mut body = Vec::new();
        for lit in &items[2..] {
            self.literal(lit, &mut body);
        }
        Some(Rule {
            head,
            body,
            span: form.span,
            vars: std::mem::take(&mut self.vars),
            is_rule_form: true,
        })
    }

    /// Reads a body literal; `and` is flattened into `out`.
    fn literal(&mut self, s: &Sexp, out: &mut Vec<Literal>) {
        let items = s.as_list().unwrap_or(&[]);
        let head = items
            .first()
            .filter(|h| h.is_atom())
            .map(|h| self.symbols.intern(h.text(self.src)));
        match head {
            Some(kw::NOT) => {
                if items.len() != 2 {
                    self.diags
                        .push(arity_error(s.span, "not", 1, items.len() - 1));
                    return;
                }
                let mut inner = Vec::new();
                self.literal(&items[1], &mut inner);
                if inner.len() == 1 {
                    out.push(Literal::Not(Box::new(inner.pop().unwrap()), s.span));
                } else if !inner.is_empty() {
                    // `(not (and ...))`: keep the pieces so nothing is lost; the
                    // validator rejects negation of a non-atom.
                    out.push(Literal::Not(
                        Box::new(Literal::Or(vec![inner], items[1].span)),
                        s.span,
                    ));
                }
            }
            Some(kw::DISTINCT) => {
                if items.len() != 3 {
                    self.diags
                        .push(arity_error(s.span, "distinct", 2, items.len() - 1));
                    return;
                }
                let (a, b) = (self.term(&items[1]), self.term(&items[2]));
                if let (Some(a), Some(b)) = (a, b) {
                    out.push(Literal::Distinct(a, b, s.span));
                }
            }
            Some(kw::OR) => {
                let mut disjuncts = Vec::new();
                for d in &items[1..] {
                    let mut conj = Vec::new();
                    self.literal(d, &mut conj);
                    disjuncts.push(conj);
                }
                out.push(Literal::Or(disjuncts, s.span));
            }
            Some(kw::AND) => {
                for d in &items[1..] {
                    self.literal(d, out);
                }
            }
            Some(kw::ARROW) => self.diags.push(nested_rule(s.span)),
            _ => {
                if let Some(a) = self.atom(s, "literal") {
                    out.push(Literal::Pos(a));
                }
            }
        }
    }

    /// Reads a relation atom: a symbol or a list headed by a symbol.
    fn atom(&mut self, s: &Sexp, what: &str) -> Option<Atom> {
        match &s.kind {
            SexpKind::Atom => {
                let rel = self.symbols.intern(self.text(s));
                Some(Atom {
                    rel,
                    args: Vec::new(),
                    span: s.span,
                    name_span: s.span,
                    parenthesized: false,
                })
            }
            SexpKind::Var => {
                self.diags.push(
                    Diagnostic::error("GDL012", s.span, format!("a variable cannot be a {what}"))
                        .with_hint("a sentence starts with a relation name, e.g. `(cell ?x ?y)`"),
                );
                None
            }
            SexpKind::List(items) => {
                let Some(name) = items.first() else {
                    self.diags.push(
                        Diagnostic::error("GDL012", s.span, format!("an empty {what} `()`"))
                            .with_hint("write a relation name inside the parentheses"),
                    );
                    return None;
                };
                if name.is_atom() && self.text(name) == "<=" {
                    self.diags.push(nested_rule(s.span));
                    return None;
                }
                if !name.is_atom() {
                    self.diags.push(
                        Diagnostic::error(
                            "GDL012",
                            name.span,
                            format!("a {what} must start with a relation name"),
                        )
                        .with_hint(
                            "the first element of a sentence must be a symbol such as `cell`",
                        ),
                    );
                    return None;
                }
                let rel = self.symbols.intern(self.text(name));
                let args = items[1..]
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Option<Vec<_>>>()?;
                let parenthesized = args.is_empty();
                Some(Atom {
                    rel,
                    args,
                    span: s.span,
                    name_span: name.span,
                    parenthesized,
                })
            }
        }
    }

    fn term(&mut self, s: &Sexp) -> Option<Term> {
        match &s.kind {
            SexpKind::Atom => Some(Term::Const(self.symbols.intern(self.text(s)), s.span)),
            SexpKind::Var => {
                let name = self.src[s.span.start as usize + 1..s.span.end as usize].to_lowercase();
                if let Some(&id) = self.var_ids.get(&name) {
                    return Some(Term::Var(id, s.span));
                }
                let Ok(id) = VarId::try_from(self.vars.len()) else {
                    if !std::mem::replace(&mut self.too_many_vars, true) {
                        self.diags.push(
                            Diagnostic::error(
                                "GDL016",
                                s.span,
                                format!("a rule with more than {} variables", self.vars.len()),
                            )
                            .with_hint(
                                "split the rule into smaller rules joined by helper relations",
                            ),
                        );
                    }
                    return None;
                };
                self.var_ids.insert(name.clone(), id);
                self.vars.push(name);
                Some(Term::Var(id, s.span))
            }
            SexpKind::List(items) => {
                let Some(name) = items.first() else {
                    self.diags.push(
                        Diagnostic::error("GDL012", s.span, "an empty term `()`").with_hint(
                            "write a function name inside the parentheses or remove them",
                        ),
                    );
                    return None;
                };
                if !name.is_atom() {
                    self.diags.push(
                        Diagnostic::error(
                            "GDL012",
                            name.span,
                            "a term must start with a function name",
                        )
                        .with_hint("the first element of a compound term must be a symbol"),
                    );
                    return None;
                }
                if self.text(name) == "<=" {
                    self.diags.push(nested_rule(s.span));
                    return None;
                }
                let functor = self.symbols.intern(self.text(name));
                let args = items[1..]
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Option<Vec<_>>>()?;
                Some(Term::App {
                    functor,
                    args,
                    span: s.span,
                    name_span: name.span,
                })
            }
        }
    }
}

fn arity_error(span: Span, name: &str, want: usize, got: usize) -> Diagnostic {
    Diagnostic::error(
        "GDL014",
        span,
        format!(
            "`{name}` takes {want} argument{}, found {got}",
            if want == 1 { "" } else { "s" }
        ),
    )
    .with_hint(match name {
        "not" => "write `(not (p ...))` with exactly one sentence",
        _ => "write `(distinct ?x ?y)` with exactly two terms",
    })
}

fn nested_rule(span: Span) -> Diagnostic {
    Diagnostic::error("GDL015", span, "a rule `(<= ...)` inside another form")
        .with_hint("rules are top-level forms; is a `)` missing before this one?")
}

/// Why a text is not one ground term (the text is quoted in each message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TermError {
    /// The text does not parse; `message` is the syntax error's.
    #[error("`{text}`: {message}")]
    Syntax { text: String, message: String },
    #[error("`{0}` is not a single term")]
    NotOneTerm(String),
    #[error("`{0}` contains a variable; a move must be ground")]
    NotGround(String),
    #[error("`{0}`: a compound term starts with a function name")]
    NoFunctionName(String),
    #[error("`{0}` is empty")]
    Empty(String),
}

/// Parses one ground term such as `(mark 1 2)` into the store (used for moves
/// typed by users or read from JSON). Symbols are case-insensitive.
pub fn parse_ground_term(
    store: &mut crate::terms::TermStore,
    text: &str,
) -> Result<crate::terms::TermId, TermError> {
    let tree = syntax::parse(text);
    if let Some(d) = tree.diagnostics.first() {
        return Err(TermError::Syntax {
            text: text.into(),
            message: d.message.clone(),
        });
    }
    let [form] = tree.forms.as_slice() else {
        return Err(TermError::NotOneTerm(text.into()));
    };
    let mut stack = vec![(form, false)];
    let mut values: Vec<crate::terms::TermId> = Vec::new();
    // Post-order walk with an explicit stack.
    let mut arities: Vec<(Sym, usize)> = Vec::new();
    while let Some((s, visited)) = stack.pop() {
        match &s.kind {
            SexpKind::Atom => {
                let sym = store.symbols.intern(s.text(text));
                values.push(store.constant(sym));
            }
            SexpKind::Var => return Err(TermError::NotGround(text.into())),
            SexpKind::List(items) => {
                if visited {
                    let (f, n) = arities.pop().expect("pushed on first visit");
                    let args = values.split_off(values.len() - n);
                    values.push(store.app(f, &args));
                    continue;
                }
                let Some(head) = items.first().filter(|h| h.is_atom()) else {
                    return Err(TermError::NoFunctionName(text.into()));
                };
                arities.push((store.symbols.intern(head.text(text)), items.len() - 1));
                stack.push((s, true));
                for item in items[1..].iter().rev() {
                    stack.push((item, false));
                }
            }
        }
    }
    values.pop().ok_or_else(|| TermError::Empty(text.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Variables are numbered by first occurrence, each name once, up to
    /// the 65,536 a `VarId` numbers; one more is an error at its place.
    #[test]
    fn numbers_the_variables_of_wide_rules() {
        let wide = |n: usize| {
            let body: String = (0..n).map(|i| format!(" (v ?x{i} ?X{})", i / 2)).collect();
            format!("(v 1 1) (<= (w ?x0){body})")
        };
        let p = parse_program(&wide(30_000));
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics.first());
        let r = &p.rules[1];
        // ?x0..?x29999, then ?X0..: the ?X names are the ?x names (case-insensitive).
        assert_eq!(r.vars.len(), 30_000);
        assert_eq!(r.vars[12_345], "x12345");
        let Literal::Pos(a) = &r.body[20_000] else {
            panic!("a literal")
        };
        assert!(matches!(
            a.args[..],
            [Term::Var(20_000, _), Term::Var(10_000, _)]
        ));
        let text = wide(70_000);
        let p = parse_program(&text);
        let errors: Vec<_> = p
            .diagnostics
            .iter()
            .filter(|d| d.code == "GDL016")
            .collect();
        assert_eq!(errors.len(), 1, "one error for the rule");
        let at = &text[errors[0].span.start as usize..errors[0].span.end as usize];
        assert_eq!(at, "?x65536", "at the first variable past the limit");
    }

    #[test]
    fn lowers_rules_facts_and_connectives() {
        let src = "(role x) (<= (legal ?P (mark ?x)) (true (cell ?x b)) (not (true (done ?p))) (or (p ?x) (and (q) (distinct ?x 1)))) (<= (terminal))";
        let p = parse_program(src);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        assert_eq!(p.rules.len(), 3);
        let r = &p.rules[1];
        assert_eq!(r.vars, vec!["p", "x"], "variables are case-insensitive");
        assert_eq!(r.head.rel, kw::LEGAL);
        assert_eq!(r.body.len(), 3);
        assert!(matches!(&r.body[1], Literal::Not(inner, _) if matches!(**inner, Literal::Pos(_))));
        match &r.body[2] {
            Literal::Or(ds, _) => {
                assert_eq!(ds.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 2])
            }
            other => panic!("{other:?}"),
        }
        assert!(p.rules[2].head.parenthesized);
        assert_eq!(p.rules[2].head.rel, kw::TERMINAL);
    }

    #[test]
    fn role_names_in_fact_order_lowercase_and_only_facts() {
        let src = "(role White) (<= (role ?x) (p ?x)) (init (q)) (role black) (role (team a))";
        assert_eq!(parse_program(src).role_names(), vec!["white", "black"]);
        assert!(parse_program("(init (q))").role_names().is_empty());
    }

    #[test]
    fn reports_wrong_arrow_and_variable_in_fact() {
        let p = parse_program("(=< (p ?x) (q ?x))\n(cell ?x)\n(?x a)");
        let codes: Vec<_> = p.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec!["GDL011", "GDL010", "GDL012"]);
        assert_eq!(
            p.diagnostics[0].message,
            "`=<` is not a rule arrow; did you mean `<=`?"
        );
        assert_eq!(p.rules.len(), 2, "the misspelt rule is still read");
    }
}
