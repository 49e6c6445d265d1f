//! Where grounding spends its time: per rule, the join steps, milliseconds
//! and atoms (relaxed fixpoint) or instances (instantiation) it produced.
//! Printed to stderr when `GDLKIT_GROUND_PROFILE` is set (native only; in
//! wasm the variable is never set), also when grounding stops over budget,
//! so a game that falls back shows which rule blew up.

use super::rules::{GLit, GRule};
use crate::clock::now_ms;
use crate::reasoner::compile::Pat;

/// A pattern's variables as `?N`, constants as `c`, for the rules listing.
fn pat_text(p: &Pat) -> String {
    match p {
        Pat::Var(v) => format!("?{v}"),
        Pat::Const(_) => "c".into(),
        Pat::App(_, a) => format!("[{}]", a.iter().map(pat_text).collect::<Vec<_>>().join(" ")),
    }
}

#[derive(Clone, Default)]
struct Cost {
    steps: u64,
    ms: f64,
    out: usize,
    /// Rounds in which the rule was joined: semi-naive rounds skip a rule
    /// none of whose positive literals grew.
    runs: usize,
}

/// Costs per (phase, rule); empty and free when switched off.
#[derive(Default)]
pub struct Profile {
    on: bool,
    names: Vec<String>,
    costs: Vec<(&'static str, String, Cost)>,
    index: rustc_hash::FxHashMap<(&'static str, usize), usize>,
    t0: f64,
    /// Rows per relation when grounding stopped.
    pub sizes: Vec<usize>,
}

impl Profile {
    /// On when `GDLKIT_GROUND_PROFILE` is set; `names` names each relation.
    pub fn from_env(names: impl FnOnce() -> Vec<String>) -> Profile {
        let on = std::env::var_os("GDLKIT_GROUND_PROFILE").is_some();
        Profile {
            on,
            names: if on { names() } else { Vec::new() },
            t0: now_ms(),
            ..Profile::default()
        }
    }

    pub fn on(&self) -> bool {
        self.on
    }

    fn describe(&self, rule: &GRule) -> String {
        let name = |r: usize| self.names.get(r).cloned().unwrap_or(format!("aux{r}"));
        let vars = std::env::var("GDLKIT_GROUND_PROFILE").is_ok_and(|v| v == "rules");
        let args = |ps: &[Pat]| {
            if !vars {
                return String::new();
            }
            let a: Vec<String> = ps.iter().map(pat_text).collect();
            format!("({})", a.join(" "))
        };
        let body: Vec<String> = rule
            .body
            .iter()
            .map(|l| match l {
                GLit::Pos(r, ps) => format!("{}{}", name(*r), args(ps)),
                GLit::Neg(r, ps) => format!("~{}{}", name(*r), args(ps)),
                GLit::Distinct(..) => "distinct".into(),
            })
            .collect();
        let head = format!("{}{}", name(rule.head_rel), args(&rule.head));
        format!("{head} :- {}", body.join(", "))
    }

    /// Adds one run of `rule` (identified by its address within `phase`).
    pub fn add(&mut self, phase: &'static str, rule: &GRule, steps: u64, ms: f64, out: usize) {
        if !self.on {
            return;
        }
        let key = (phase, rule as *const GRule as usize);
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let d = self.describe(rule);
                self.costs.push((phase, d, Cost::default()));
                self.index.insert(key, self.costs.len() - 1);
                self.costs.len() - 1
            }
        };
        let c = &mut self.costs[i].2;
        c.steps += steps;
        c.ms += ms;
        c.out += out;
        c.runs += 1;
    }

    /// Prints the costliest rules and the largest relations.
    pub fn print(&self, what: &str) {
        if !self.on {
            return;
        }
        let rel_sizes = &self.sizes;
        eprintln!("ground profile ({what}, {:.0} ms):", now_ms() - self.t0);
        let mut by_ms: Vec<&(&str, String, Cost)> = self.costs.iter().collect();
        by_ms.sort_by(|a, b| b.2.ms.total_cmp(&a.2.ms));
        for (phase, d, c) in by_ms.iter().take(15) {
            eprintln!(
                "  {phase:>8} {:>9.0} ms {:>12} steps {:>10} out {:>4} runs  {d}",
                c.ms, c.steps, c.out, c.runs
            );
        }
        let mut by_out: Vec<&(&str, String, Cost)> =
            self.costs.iter().filter(|c| c.0 == "instance").collect();
        by_out.sort_by_key(|c| std::cmp::Reverse(c.2.out));
        for (_, d, c) in by_out.iter().take(8) {
            eprintln!("  most instances {:>10}  {d}", c.out);
        }
        let mut rels: Vec<(usize, usize)> = rel_sizes.iter().copied().enumerate().collect();
        rels.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        let name = |r: usize| self.names.get(r).cloned().unwrap_or(format!("aux{r}"));
        let top: Vec<String> = rels
            .iter()
            .take(12)
            .map(|&(r, n)| format!("{} {n}", name(r)))
            .collect();
        eprintln!("  largest relations: {}", top.join(", "));
        // With `GDLKIT_GROUND_PROFILE=rules`, the rules that derive them.
        if std::env::var("GDLKIT_GROUND_PROFILE").is_ok_and(|v| v == "rules") {
            for &(r, _) in rels.iter().take(12) {
                let head = format!("{}(", name(r));
                for (phase, d, c) in &self.costs {
                    if d.starts_with(&head) || d.starts_with(&format!("{} :-", name(r))) {
                        eprintln!("    {phase:>8} {:>10} out  {d}", c.out);
                    }
                }
            }
        }
    }
}
