//! `standaloneHtml(template, request)`: the standalone lecture file
//! ([`crate::standalone`]), the very file `gdlkit export` writes, for the
//! page's "Download as standalone HTML" (whose wasm has no command line).

use super::js;
use crate::standalone::{html, Error, Request};
use wasm_bindgen::prelude::*;

/// `request`: `{view, tree, game, gameName, title, attrs}` (see
/// `crate::standalone::Request`). Throws `GdlUsageError` for a wrong
/// request or template, `GdlExportError` for a game with errors (the
/// message lists them with their positions).
#[wasm_bindgen(js_name = standaloneHtml)]
pub fn standalone_html(
    template: &str,
    #[wasm_bindgen(unchecked_param_type = "StandaloneRequest")] request: JsValue,
) -> Result<String, JsValue> {
    js::init();
    let request: Request = serde_wasm_bindgen::from_value(request)
        .map_err(|e| js::type_error(&format!("standaloneHtml request: {e}")))?;
    html(template, &request).map_err(|e| {
        let name = match e {
            Error::Usage(_) => "GdlUsageError",
            Error::Game(_) => "GdlExportError",
        };
        JsValue::from(js::error(name, &e.to_string()))
    })
}
