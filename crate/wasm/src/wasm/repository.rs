//! The URLs and answers of a GGP repository (`crate::repository`) for
//! JavaScript, which does the fetching (npm `repositoryGames`,
//! `repositoryGame`).

use super::js::{self, to_js};
use wasm_bindgen::prelude::*;

fn error(e: crate::repository::RepositoryError) -> JsValue {
    js_sys::Error::new(&e.to_string()).into()
}

/// `REPO/games/` (throws for a URL that is not http or https).
#[wasm_bindgen(js_name = repositoryIndexUrl)]
pub fn repository_index_url(repo: &str) -> Result<String, JsValue> {
    js::init();
    crate::repository::index_url(repo).map_err(error)
}

/// `REPO/games/KEY/`.
#[wasm_bindgen(js_name = repositoryMetadataUrl)]
pub fn repository_metadata_url(repo: &str, key: &str) -> Result<String, JsValue> {
    js::init();
    crate::repository::metadata_url(repo, key).map_err(error)
}

/// The keys of a `REPO/games/` answer, sorted.
#[wasm_bindgen(js_name = repositoryParseIndex)]
pub fn repository_parse_index(body: &str) -> Result<Vec<String>, JsValue> {
    js::init();
    crate::repository::parse_index(body).map_err(error)
}

/// The metadata of a `REPO/games/KEY/` answer, with `rulesUrl`.
#[wasm_bindgen(js_name = repositoryParseMetadata, unchecked_return_type = "RepositoryGame")]
pub fn repository_parse_metadata(repo: &str, key: &str, body: &str) -> Result<JsValue, JsValue> {
    js::init();
    to_js(&crate::repository::parse_metadata(repo, key, body).map_err(error)?)
}
