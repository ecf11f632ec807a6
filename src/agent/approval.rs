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

/// The kind a tool belongs to for `--allow`: `bash`, or `write` for the file-changing tools
/// (and any other name).
#[must_use]
pub(crate) fn kind_of(tool: &str) -> ApprovalKind {
    Tool::parse(tool)
        .and_then(Tool::approval)
        .unwrap_or(ApprovalKind::Write)
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
                other => {
                    return Err(format!(
                        "unknown --allow kind '{other}'; expected bash, write"
                    ));
                }
            };
        }
        Ok(Self { kinds, fallback })
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
