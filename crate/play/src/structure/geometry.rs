//! Board geometry from the rules (lecture 004): successor chains among the
//! static binary relations, the fluent arguments whose values all lie on
//! one chain (coordinates), and distances between fluents on those
//! coordinates. The one definition the fuzzy heuristic's "nearness" uses
//! (`crate::search::fuzzy`) and the structure's ordered boards share
//! ([`super::statics::successor_chain`]).

use crate::terms::{copy_term, Sym, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};

/// Ordered arguments of fluents (coordinates on successor chains).
pub struct Geometry {
    /// Per fluent functor and arity: the chain of each argument, if ordered.
    layouts: FxHashMap<(Sym, u32), Vec<Option<u16>>>,
    /// Per chain: the position of each element, and the chain's length.
    chains: Vec<(FxHashMap<TermId, u16>, u16)>,
    groups: FxHashMap<(Sym, u32, Vec<TermId>), u32>,
    cache: FxHashMap<TermId, Option<Geo>>,
    pub leaf_geo: Vec<Option<Geo>>,
    /// Scratch: coordinates of the true fluents of each group.
    members: Vec<Vec<Vec<(u16, u16)>>>,
}

/// A fluent's group (functor and unordered arguments) and coordinates
/// (chain, position).
pub type Geo = (u32, Vec<(u16, u16)>);

/// Chains and layouts found in the relaxed game (terms of its store).
pub struct Layout {
    pub chains: Vec<Vec<TermId>>,
    /// (functor, arity, chain per argument)
    pub fluents: Vec<(Sym, u32, Vec<Option<u16>>)>,
}

impl Geometry {
    /// The geometry of `l` (terms of `from`) with terms copied into `to`.
    pub fn new(from: &TermStore, l: &Layout, to: &mut TermStore) -> Geometry {
        let chains = l
            .chains
            .iter()
            .map(|c| {
                (
                    c.iter()
                        .enumerate()
                        .map(|(i, &t)| (copy_term(from, t, to), i as u16))
                        .collect(),
                    c.len() as u16,
                )
            })
            .collect();
        let layouts = l
            .fluents
            .iter()
            .map(|(f, a, ch)| ((to.symbols.intern(from.symbols.name(*f)), *a), ch.clone()))
            .collect();
        Geometry {
            layouts,
            chains,
            groups: FxHashMap::default(),
            cache: FxHashMap::default(),
            leaf_geo: Vec::new(),
            members: Vec::new(),
        }
    }

    /// Forgets the fluents met since the leaves' geometry was found: their
    /// ids may name other terms in another copy of the game. The leaves'
    /// groups (numbered first, from terms of the building machine) stay.
    pub fn forget_terms(&mut self) {
        self.cache.clear();
        let built = self
            .leaf_geo
            .iter()
            .flatten()
            .map(|(g, _)| g + 1)
            .max()
            .unwrap_or(0);
        self.groups.retain(|_, g| *g < built);
        self.members.truncate(built as usize);
    }

    /// The group and coordinates of fluent `f` (`None` if it has none).
    pub fn info(&mut self, store: &TermStore, f: TermId) -> Option<Geo> {
        if let Some(g) = self.cache.get(&f) {
            return g.clone();
        }
        let key = (store.functor(f), store.arity(f) as u32);
        let out = self.layouts.get(&key).and_then(|layout| {
            let mut rest = Vec::new();
            let mut coords = Vec::new();
            for (k, &a) in store.args_of(f).iter().enumerate() {
                match layout.get(k).copied().flatten() {
                    Some(c) => coords.push((c, *self.chains[c as usize].0.get(&a)?)),
                    None => rest.push(a),
                }
            }
            let n = self.groups.len() as u32;
            let g = *self.groups.entry((key.0, key.1, rest)).or_insert(n);
            Some((g, coords))
        });
        if self.cache.len() < 1_000_000 {
            self.cache.insert(f, out.clone());
        }
        out
    }

    /// Fuzzy values of the leaves for a state (`p`: a true fluent's): a
    /// false leaf is raised by its nearness to a true fluent of its group
    /// (see `search::fuzzy`).
    pub fn leaf_values(
        &mut self,
        store: &TermStore,
        fluents: &[TermId],
        truth: &[bool],
        p: f64,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        out.extend(truth.iter().map(|&b| if b { p } else { 1.0 - p }));
        if self.layouts.is_empty() {
            return;
        }
        for &f in fluents {
            if let Some((g, coords)) = self.info(store, f) {
                let g = g as usize;
                if self.members.len() <= g {
                    self.members.resize(g + 1, Vec::new());
                }
                self.members[g].push(coords);
            }
        }
        for (l, geo) in self.leaf_geo.iter().enumerate() {
            let Some((g, coords)) = geo else { continue };
            if truth[l] || coords.is_empty() {
                continue;
            }
            let Some(ms) = self.members.get(*g as usize).filter(|m| !m.is_empty()) else {
                continue;
            };
            let mut dmin = f64::INFINITY;
            for m in ms {
                let mut d = 0.0;
                for (&(c, p), &(_, q)) in coords.iter().zip(m) {
                    let len = self.chains[c as usize].1.max(2) as f64;
                    d += (p as f64 - q as f64).abs() / (len - 1.0);
                }
                dmin = dmin.min(d / coords.len() as f64);
            }
            let near = (1.0 - dmin).clamp(0.0, 1.0);
            out[l] = (1.0 - p) + 0.9 * (p - 0.5) * near;
        }
        for m in &mut self.members {
            m.clear();
        }
    }
}

/// Successor chains among the static binary relations (`binary`: each
/// relation's rows) and the arguments of the reachable fluents (`fluents`)
/// whose values all lie on one chain.
pub fn layout(store: &TermStore, binary: &[Vec<Vec<TermId>>], fluents: &[TermId]) -> Layout {
    let mut chains: Vec<Vec<TermId>> = Vec::new();
    for rows in binary {
        if let Some(c) = chain(rows) {
            if !chains.contains(&c) {
                chains.push(c);
            }
        }
    }
    let mut out = Vec::new();
    if !chains.is_empty() {
        let mut values: FxHashMap<(Sym, u32), Vec<FxHashSet<TermId>>> = FxHashMap::default();
        for &f in fluents {
            let args = store.args_of(f);
            let e = values
                .entry((store.functor(f), args.len() as u32))
                .or_insert_with(|| vec![FxHashSet::default(); args.len()]);
            for (k, &a) in args.iter().enumerate() {
                e[k].insert(a);
            }
        }
        let sets: Vec<FxHashSet<TermId>> =
            chains.iter().map(|c| c.iter().copied().collect()).collect();
        for ((f, arity), vals) in values {
            let per_arg: Vec<Option<u16>> = vals
                .iter()
                .map(|vs| {
                    if vs.len() < 2 {
                        return None;
                    }
                    sets.iter()
                        .position(|set| vs.iter().all(|v| set.contains(v)))
                        .map(|c| c as u16)
                })
                .collect();
            if per_arg.iter().any(Option::is_some) {
                out.push((f, arity, per_arg));
            }
        }
    }
    Layout {
        chains,
        fluents: out,
    }
}

/// The elements of a successor chain in order, if `rows` (pairs) form one
/// (the structure module's test: functional, injective, acyclic, one path).
pub fn chain(rows: &[Vec<TermId>]) -> Option<Vec<TermId>> {
    let pairs: Vec<(TermId, TermId)> = rows.iter().map(|r| (r[0], r[1])).collect();
    super::statics::successor_chain(&pairs)
}
