//! A count of the reachable states that survives its process: after each
//! layer, the layers' figures, the reachable states so far and the last
//! layer go to a directory; a count started again with the same game, the
//! same variable order and the same directory goes on from there. Counts
//! of large boards take longer than one run may last (7 × 6 connect four
//! took the papers' authors about 15 hours).
//!
//! The directory holds `count.json` (the figures and the game's
//! fingerprint) and, for its last layer `k`, `all-k.bdd` and `layer-k.bdd`
//! (biodivine's byte format). `count.json` is written last, through a
//! temporary file renamed over it, and only then are the files of the
//! layer before removed: a run killed at any point leaves a whole
//! checkpoint.

use std::fs;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use biodivine_lib_bdd::{Bdd, BddPointer};
use serde::{Deserialize, Serialize};

use super::reach::Reached;
use super::Stop;
use crate::solve::Refusal;

/// The figures of a checkpoint; counts as decimal strings (JSON numbers
/// lose precision past 2^53, and 7 × 6's counts pass 2^42).
#[derive(Serialize, Deserialize)]
struct Figures {
    /// What the states' BDD variables mean: the game's base propositions
    /// in the order used. A checkpoint of another game or order is refused.
    fingerprint: String,
    layers: Vec<String>,
    seconds: Vec<f64>,
    terminal: String,
    layered: bool,
    /// The nodes of `all-k.bdd` and `layer-k.bdd`: biodivine's reader
    /// takes a file cut short for a smaller BDD, so the sizes are checked.
    nodes: [usize; 2],
}

/// Checks what biodivine's reader does not: `nodes` nodes over `vars`
/// variables, the two terminals first, and each other node's children
/// before it and below it in the order (a damaged file would otherwise
/// make a BDD whose operations index out of bounds).
fn well_formed(bdd: &Bdd, nodes: usize, vars: usize) -> Result<(), String> {
    if bdd.size() != nodes {
        return Err(format!("{} nodes, {nodes} saved", bdd.size()));
    }
    if usize::from(bdd.num_vars()) != vars {
        return Err(format!("{} variables, the game has {vars}", bdd.num_vars()));
    }
    let var = |p: BddPointer| bdd.var_of(p).to_index();
    for p in bdd.pointers() {
        let i = p.to_index();
        let (lo, hi) = (bdd.low_link_of(p), bdd.high_link_of(p));
        let ok = if i < 2 {
            var(p) == vars && lo.to_index() == i && hi.to_index() == i
        } else {
            lo.to_index() < i && hi.to_index() < i && var(p) < var(lo).min(var(hi))
        };
        if !ok {
            return Err(format!("node {i} is not well formed (a damaged file)"));
        }
    }
    Ok(())
}

/// Where a count's checkpoint is kept.
pub struct Checkpoint {
    dir: PathBuf,
    fingerprint: String,
}

impl Checkpoint {
    /// A checkpoint in `dir` for the game whose variables `fingerprint`
    /// describes.
    pub fn new(dir: &Path, fingerprint: String) -> Checkpoint {
        Checkpoint {
            dir: dir.to_path_buf(),
            fingerprint,
        }
    }

    /// The layers saved before, or `None` when the directory holds no
    /// checkpoint yet.
    /// `vars` is the number of BDD variables of the game's space.
    pub fn load(&self, vars: usize) -> Result<Option<Reached>, Refusal> {
        let meta = self.dir.join("count.json");
        if !meta.exists() {
            return Ok(None);
        }
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            Refusal(format!(
                "the checkpoint in {}: {what}: {e}",
                self.dir.display()
            ))
        };
        let text = fs::read_to_string(&meta).map_err(|e| fail("count.json", &e))?;
        let f: Figures = serde_json::from_str(&text).map_err(|e| fail("count.json", &e))?;
        if f.fingerprint != self.fingerprint {
            return Err(Refusal(format!(
                "the checkpoint in {} is of another game or variable order (fingerprint {}, this one {})",
                self.dir.display(),
                f.fingerprint,
                self.fingerprint
            )));
        }
        let count = |s: &String| s.parse::<u128>().map_err(|e| fail("a count", &e));
        let read = |name: &str, nodes: usize| -> Result<Bdd, Refusal> {
            let file = fs::File::open(self.dir.join(name)).map_err(|e| fail(name, &e))?;
            let bdd = Bdd::read_as_bytes(&mut BufReader::new(file)).map_err(|e| fail(name, &e))?;
            match well_formed(&bdd, nodes, vars) {
                Ok(()) => Ok(bdd),
                Err(why) => Err(fail(name, &why)),
            }
        };
        let k = f.layers.len().saturating_sub(1);
        Ok(Some(Reached {
            all: read(&format!("all-{k}.bdd"), f.nodes[0])?,
            sets: vec![read(&format!("layer-{k}.bdd"), f.nodes[1])?],
            layers: f.layers.iter().map(count).collect::<Result<_, _>>()?,
            seconds: f.seconds,
            terminal: count(&f.terminal)?,
            layered: f.layered,
        }))
    }

    /// Saves the layers found so far.
    pub fn save(&self, r: &Reached) -> Result<(), Stop> {
        self.write(r).map_err(|e| {
            Stop::Limit(format!(
                "the checkpoint could not be written to {}: {e}",
                self.dir.display()
            ))
        })
    }

    fn write(&self, r: &Reached) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let last = r.sets.last().expect("a layer");
        let k = r.layers.len() - 1;
        self.replace(&format!("all-{k}.bdd"), &|w| r.all.write_as_bytes(w))?;
        self.replace(&format!("layer-{k}.bdd"), &|w| last.write_as_bytes(w))?;
        let f = Figures {
            fingerprint: self.fingerprint.clone(),
            layers: r.layers.iter().map(u128::to_string).collect(),
            seconds: r.seconds.clone(),
            terminal: r.terminal.to_string(),
            layered: r.layered,
            nodes: [r.all.size(), last.size()],
        };
        let json = serde_json::to_string_pretty(&f).expect("serialisable");
        self.replace("count.json", &|w| w.write_all(json.as_bytes()))?;
        if let Some(before) = k.checked_sub(1) {
            for name in [format!("all-{before}.bdd"), format!("layer-{before}.bdd")] {
                // Absent when the count was resumed from an older layer.
                let _ = fs::remove_file(self.dir.join(name));
            }
        }
        Ok(())
    }

    /// Writes `name` through a temporary file renamed over it.
    fn replace(
        &self,
        name: &str,
        body: &dyn Fn(&mut BufWriter<fs::File>) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let tmp = self.dir.join(format!("{name}.tmp"));
        let mut w = BufWriter::new(fs::File::create(&tmp)?);
        body(&mut w)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, self.dir.join(name))
    }
}
