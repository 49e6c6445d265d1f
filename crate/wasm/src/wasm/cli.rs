//! `runCli(args, files)`: the command-line tool (`crate::cli::run`) with its
//! files in JavaScript, so the npm CLI runs the very same code as the native
//! binary.

use super::js::{self, to_js};
use crate::cli::{run, Host};
use crate::js_api::CliResult;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A [`Host`] over a JS object (or `Map`) of path → contents, or a function
/// `path => contents | undefined`. Writes are collected, not applied.
struct JsHost {
    files: JsValue,
    written: BTreeMap<String, String>,
    terminal: bool,
}

impl JsHost {
    fn lookup(&self, path: &str) -> Result<JsValue, String> {
        let key = JsValue::from_str(path);
        if let Some(f) = self.files.dyn_ref::<js_sys::Function>() {
            return f.call1(&JsValue::NULL, &key).map_err(|e| {
                e.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| format!("{e:?}"))
            });
        }
        if let Some(m) = self.files.dyn_ref::<js_sys::Map>() {
            return Ok(m.get(&key));
        }
        if self.files.is_object() && js_sys::Reflect::has(&self.files, &key).unwrap_or(false) {
            return js_sys::Reflect::get(&self.files, &key)
                .map_err(|_| "cannot read the property".to_string());
        }
        Ok(JsValue::UNDEFINED)
    }
}

impl Host for JsHost {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        if let Some(s) = self.written.get(path) {
            return Ok(s.clone());
        }
        let v = self.lookup(path)?;
        v.as_string().ok_or_else(|| "No such file".to_string())
    }

    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String> {
        self.written.insert(path.to_string(), content.to_string());
        Ok(())
    }

    fn stdout_is_terminal(&self) -> bool {
        self.terminal
    }
}

/// Runs `gdlkit ARGS…` (without the program name) and returns
/// `{stdout, stderr, code, written}`. `files` maps paths to contents (an
/// object, a `Map`, or a function); files the command writes come back in
/// `written`. `isTerminal` enables colour like a terminal would.
#[wasm_bindgen(js_name = runCli, unchecked_return_type = "CliResult")]
#[allow(non_snake_case)]
pub fn run_cli(
    args: Vec<String>,
    #[wasm_bindgen(unchecked_param_type = "CliFiles")] files: JsValue,
    isTerminal: Option<bool>,
) -> Result<JsValue, JsValue> {
    js::init();
    let mut host = JsHost {
        files,
        written: BTreeMap::new(),
        terminal: isTerminal.unwrap_or(false),
    };
    let out = run(&args, &mut host);
    to_js(&CliResult {
        stdout: out.stdout,
        stderr: out.stderr,
        code: out.code,
        written: host.written,
    })
}
