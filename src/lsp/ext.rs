//! The `skill/*` methods of SPEC section 7, declared once: names, params and results.

use serde::{Deserialize, Serialize};

pub const CATALOG: &str = "skill/catalog";
pub const LOAD_SKILL: &str = "skill/loadSkill";
/// The code action kind of "apply every safe fix in the file".
pub const FIX_ALL_KIND: &str = "source.fixAll.skill-lsp";
/// Base of the rule documentation links (`codeDescription`).
pub const RULE_DOCS: &str = "https://github.com/skill-lsp/skill-lsp/blob/main/docs/rules.md";

/// Every custom method, also offered as a `workspace/executeCommand` command.
pub const COMMANDS: &[&str] = &[CATALOG, LOAD_SKILL, super::agent::AGENT_CHAT];

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogParams {}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CatalogSkill {
    pub name: String,
    pub description: String,
    pub uri: String,
    pub root: String,
    pub diagnostics: usize,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CatalogResult {
    pub skills: Vec<CatalogSkill>,
    pub prompt: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadSkillParams {
    pub name: String,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LoadSkillResult {
    pub content: String,
}
