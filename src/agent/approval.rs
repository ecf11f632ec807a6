//! Approval for tools that change things (`bash`, `write_file`, `edit_file`), as a trait: the
//! editor asks with `window/showMessageRequest`, the terminal with a y/N prompt or `--allow`,
//! tests with a fixed answer.

use std::collections::HashSet;

use super::provider::BoxFuture;
use super::tools::{ApprovalKind, Tool};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    AllowOnce,
    /// Allow this kind of call for the rest of the conversation.
    AllowSession,
    Deny,
}

/// What is asked about: the tool and a one-line summary of the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalRequest {
    pub tool: String,
    pub summary: String,
}

pub trait Approver: Send + Sync {
    fn ask<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Decision>;
}

/// Always the same answer: `Deny` when there is no way to ask, or a test's choice.
pub struct Fixed(pub Decision);

impl Approver for Fixed {
    fn ask<'a>(&'a self, _: &'a ApprovalRequest) -> BoxFuture<'a, Decision> {
        let decision = self.0;
        Box::pin(async move { decision })
    }
}

/// `--allow bash,write`: the named kinds pass, everything else is asked of `fallback`.
pub(crate) struct AllowList {
    kinds: HashSet<ApprovalKind>,
    fallback: Box<dyn Approver>,
}

/// The approver of a chat under `[agent]` of `skill-lsp.toml`: `allow-unsafe-skills = true`
/// loads skills with security errors without asking.
pub(crate) fn with_config(
    approver: Box<dyn Approver>,
    config: &crate::config::AgentConfig,
) -> std::sync::Arc<dyn Approver> {
    if config.allow_unsafe_skills == Some(true) {
        std::sync::Arc::new(AllowList::new(&[ApprovalKind::UnsafeSkill], approver))
    } else {
        std::sync::Arc::from(approver)
    }
}

/// The kind a tool belongs to for `--allow`: `bash`, `unsafe-skill` for `load_skill`, or `write`
/// for the file-changing tools (and any other name).
#[must_use]
pub(crate) fn kind_of(tool: &str) -> ApprovalKind {
    match Tool::parse(tool) {
        // The one question about `load_skill` is whether a skill with security errors may load.
        Some(Tool::LoadSkill) => ApprovalKind::UnsafeSkill,
        parsed => parsed
            .and_then(Tool::approval)
            .unwrap_or(ApprovalKind::Write),
    }
}

impl AllowList {
    /// Parses `bash,write` (also `edit` as a synonym of `write`).
    ///
    /// # Errors
    /// Names an unknown kind.
    pub(crate) fn parse(list: &str, fallback: Box<dyn Approver>) -> Result<Self, String> {
        let mut kinds = HashSet::new();
        for kind in list
            .split(',')
            .map(str::trim)
            .filter(|kind| !kind.is_empty())
        {
            match kind {
                "bash" => kinds.insert(ApprovalKind::Bash),
                "write" | "edit" => kinds.insert(ApprovalKind::Write),
                "unsafe-skill" => kinds.insert(ApprovalKind::UnsafeSkill),
                other => {
                    return Err(format!(
                        "unknown --allow kind '{other}'; expected bash, write, unsafe-skill"
                    ));
                }
            };
        }
        Ok(Self { kinds, fallback })
    }

    /// `kinds` pass, everything else is asked of `fallback`.
    pub(crate) fn new(kinds: &[ApprovalKind], fallback: Box<dyn Approver>) -> Self {
        Self {
            kinds: kinds.iter().copied().collect(),
            fallback,
        }
    }

    /// Adds a kind that passes.
    pub(crate) fn allow(&mut self, kind: ApprovalKind) {
        self.kinds.insert(kind);
    }
}

impl Approver for AllowList {
    fn ask<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Decision> {
        if self.kinds.contains(&kind_of(&request.tool)) {
            return Box::pin(async { Decision::AllowSession });
        }
        self.fallback.ask(request)
    }
}
