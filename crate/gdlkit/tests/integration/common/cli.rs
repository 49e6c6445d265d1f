//! The CLI run in-process, as a shell would run it, reading the real files
//! and writing none.

/// A host that reads files from disk and refuses every write.
pub struct ReadOnlyFiles;

impl gdlkit_cli::cli::Host for ReadOnlyFiles {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    }
    fn write_file(&mut self, _: &str, _: &str) -> Result<(), String> {
        Err("read-only".to_string())
    }
    fn stdout_is_terminal(&self) -> bool {
        false
    }
}

/// `gdlkit ARGS…` on [`ReadOnlyFiles`].
pub fn run(args: &[&str]) -> gdlkit_cli::cli::Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    gdlkit_cli::cli::run(&args, &mut ReadOnlyFiles)
}
