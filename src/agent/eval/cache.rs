//! The eval cache: each run's record on disk under the workspace, keyed by a hash of
//! everything that decides its outcome.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::report::RunRecord;
use super::set::EvalCase;
use crate::agent::provider::{Provider, ToolSpec};

/// The cache folder under a workspace.
pub(crate) const CACHE_DIR: &str = ".skill-lsp/cache/evals";

/// The cache key of one run: a hash of everything that decides its outcome. The request is
/// hashed whole (system prompt, tools, query); `target` (`--target`) too, since it also decides
/// which skill a load counts for. Without one, the key is what it was before targets.
#[allow(
    clippy::too_many_arguments,
    reason = "each is a part of the run the key must tell apart"
)]
pub(super) fn cache_key(
    provider: &dyn Provider,
    system: &str,
    tools: &[ToolSpec],
    query: &str,
    run: u32,
    max_turns: u32,
    max_tokens: u32,
    target: Option<&str>,
) -> String {
    let tools: Vec<Value> = tools
        .iter()
        .map(|tool| json!([tool.name, tool.description, tool.input_schema]))
        .collect();
    let mut material = json!({
        // 3: calls other than load_skill are answered from a read-only view of the workspace.
        "version": 3,
        "provider": provider.name(),
        "endpoint": provider.endpoint(),
        "model": provider.model(),
        "max_tokens": max_tokens,
        "system": system,
        "tools": tools,
        "query": query,
        "run": run,
        "max_turns": max_turns,
    });
    if let Some(target) = target {
        material["target"] = target.into();
    }
    hex_hash(material.to_string().as_bytes())
}

/// FNV-1a, 128 bits, as 32 hex digits: stable across builds and platforms.
#[must_use]
pub(crate) fn hex_hash(bytes: &[u8]) -> String {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    let hash = bytes.iter().fold(OFFSET, |hash, byte| {
        (hash ^ u128::from(*byte)).wrapping_mul(PRIME)
    });
    format!("{hash:032x}")
}

/// The cache folder of a workspace.
#[must_use]
pub(crate) fn cache_dir(workspace: &Path) -> PathBuf {
    workspace.join(CACHE_DIR)
}

/// Creates the cache folder; a new `.skill-lsp` folder gets a `.gitignore` that ignores `cache/`.
pub(super) fn prepare_cache(workspace: &Path, dir: &Path) -> io::Result<()> {
    let state = workspace.join(".skill-lsp");
    if dir.starts_with(&state) {
        std::fs::create_dir_all(&state)?;
        let ignore = state.join(".gitignore");
        if !ignore.exists() {
            std::fs::write(ignore, "cache/\n")?;
        }
    }
    std::fs::create_dir_all(dir)
}

fn cache_file(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

pub(super) fn read_cached(
    dir: &Path,
    key: &str,
    provider: &dyn Provider,
    case: &EvalCase,
    run: u32,
) -> Option<RunRecord> {
    let value = read_entry(&cache_file(dir, key))?;
    // The key is a hash: the entry must also be for this very run.
    if value["query"] != case.query.as_str() || value["run"] != run {
        return None;
    }
    record_of(&value, provider)
}

/// Every cached run of `provider`'s model in `dir`, whatever its query or prompt (what
/// `--dry-run` calibrates on).
pub(super) fn model_records(dir: &Path, provider: &dyn Provider) -> Vec<RunRecord> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|entry| entry.path())
        // Entries being written are `.tmp`.
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .filter_map(|path| read_entry(&path))
        .filter_map(|value| record_of(&value, provider))
        .collect()
}

fn read_entry(path: &Path) -> Option<Value> {
    serde_json::from_str(&crate::workspace::read::read_text(path).ok()?).ok()
}

/// The record of an entry written for `provider`'s model, marked as cached.
fn record_of(value: &Value, provider: &dyn Provider) -> Option<RunRecord> {
    if value["provider"] != provider.name() || value["model"] != provider.model() {
        return None;
    }
    let mut record: RunRecord = serde_json::from_value(value["record"].clone()).ok()?;
    record.cached = true;
    // Entries written before streams were read on for their usage lack the mark: an abandoned
    // stream's counts there are what it had reported when it was dropped, too few.
    record.usage_estimated |= record.abandoned;
    Some(record)
}

pub(super) fn write_cached(
    dir: &Path,
    key: &str,
    provider: &dyn Provider,
    case: &EvalCase,
    run: u32,
    record: &RunRecord,
) -> io::Result<()> {
    let entry = json!({
        "provider": provider.name(),
        "model": provider.model(),
        "query": case.query,
        "run": run,
        "record": record,
    });
    let path = cache_file(dir, key);
    let temporary = dir.join(format!("{key}.json.{}.tmp", std::process::id()));
    std::fs::write(&temporary, format!("{entry:#}\n"))?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_stable() {
        assert_eq!(hex_hash(b""), "6c62272e07bb014262b821756295c58d");
        assert_eq!(hex_hash(b"a"), "d228cb696f1a8caf78912b704e4a8964");
        assert_ne!(hex_hash(b"query 1"), hex_hash(b"query 2"));
    }
}
