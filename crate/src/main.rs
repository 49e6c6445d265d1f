//! The native `gdlkit` command: a thin shell over `gdlkit::cli`.

use std::io::{IsTerminal, Write};

struct NativeHost;

impl gdlkit::cli::Host for NativeHost {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        String::from_utf8(bytes).map_err(|_| "the file is not valid UTF-8".to_string())
    }
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String> {
        std::fs::write(path, content).map_err(|e| e.to_string())
    }
    fn stdout_is_terminal(&self) -> bool {
        std::io::stdout().is_terminal()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Ctrl-C: the running job stops with what it has (a second one quits).
    let _ = ctrlc::set_handler(|| {
        if gdlkit::job::cancelled() {
            std::process::exit(130);
        }
        gdlkit::job::cancel();
    });
    let status_line = std::io::stderr().is_terminal();
    if status_line {
        gdlkit::job::set_progress_sink(Some(Box::new(|p: &gdlkit::job::Progress| {
            let line = format!("{}  {:.1} s  {}", p.phase, p.elapsed_ms / 1000.0, p.detail);
            let _ = write!(std::io::stderr(), "\r\x1b[2K{line}");
        })));
    }
    let out = gdlkit::cli::run(&args, &mut NativeHost);
    if status_line {
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    if gdlkit::job::cancelled() {
        let _ = writeln!(
            std::io::stderr(),
            "gdlkit: interrupted (Ctrl-C); the results above are partial"
        );
    }
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.code);
}
