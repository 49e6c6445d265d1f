//! `games()` and `gameText(name)`: the game library embedded in the npm
//! package (`crate::library`; the page reads `games/index.json` instead).

use super::js::{self, to_js};
use wasm_bindgen::prelude::*;

/// The library's games: `{name, title, category, board, credit,
/// description, wellFormed}`, sorted by name.
#[wasm_bindgen(unchecked_return_type = "LibraryGame[]")]
pub fn games() -> Result<JsValue, JsValue> {
    js::init();
    to_js(&crate::library::games())
}

/// The KIF text of the library game `name` (with or without `.kif`);
/// throws an `Error` naming the games when there is none.
#[wasm_bindgen(js_name = gameText)]
pub fn game_text(name: &str) -> Result<String, JsValue> {
    js::init();
    crate::library::text(name)
        .map(str::to_string)
        .ok_or_else(|| {
            let names: Vec<String> = crate::library::games()
                .into_iter()
                .map(|g| g.name)
                .collect();
            js_sys::Error::new(&format!(
                "no game named {name:?} in the library (games: {})",
                names.join(", ")
            ))
            .into()
        })
}
