//! The native `gdlkit` command: a thin shell over `gdlkit::cli`.

use std::io::{IsTerminal, Write};

struct NativeHost;

impl gdlkit_cli::cli::Host for NativeHost {
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

/// `gdlkit export` without `--template`: the standalone template beside the
/// binary (`gdlkit-standalone.html`, for a binary handed out with it), else
/// the one `npm run build` wrote into this source tree's `pkg/`. When neither
/// exists the command says so (it never writes a file without the engine).
fn with_standalone_template(mut args: Vec<String>) -> Vec<String> {
    if args.first().map(String::as_str) != Some("export")
        || args
            .iter()
            .any(|a| a == "--template" || a.starts_with("--template="))
    {
        return args;
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("gdlkit-standalone.html")));
    let source_tree =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pkg/gdlkit-standalone.html");
    if let Some(found) = beside
        .into_iter()
        .chain([source_tree])
        .find(|p| p.is_file())
    {
        args.push("--template".into());
        args.push(found.to_string_lossy().into_owned());
    }
    args
}

fn main() {
    let args: Vec<String> = with_standalone_template(std::env::args().skip(1).collect());
    // Ctrl-C: the running job stops with what it has (a second one quits).
    // A player server has no job to finish: Ctrl-C ends it at once.
    if args.first().map(String::as_str) != Some("serve") {
        let _ = ctrlc::set_handler(|| {
            if gdlkit_engine::job::cancelled() {
                std::process::exit(130);
            }
            gdlkit_engine::job::cancel();
        });
    }
    let status_line = std::io::stderr().is_terminal();
    if status_line {
        gdlkit_engine::job::set_progress_sink(Some(Box::new(
            |p: &gdlkit_engine::job::Progress| {
                let line = format!("{}  {:.1} s  {}", p.phase, p.elapsed_ms / 1000.0, p.detail);
                let _ = write!(std::io::stderr(), "\r\x1b[2K{line}");
            },
        )));
    }
    let out = gdlkit_cli::cli::run(&args, &mut NativeHost);
    if status_line {
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    if gdlkit_engine::job::cancelled() {
        let _ = writeln!(
            std::io::stderr(),
            "gdlkit: interrupted (Ctrl-C); the results above are partial"
        );
    }
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.code);
}
