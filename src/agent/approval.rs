//! Approval for tools that change things (`bash`, `write_file`, `edit_file`), as a trait: the
//! editor asks with `window/showMessageRequest`, the terminal with a y/N prompt or `--allow`,
//! tests with a fixed answer.

use std::collections::HashSet;

use super::provider::BoxFuture;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    AllowOnce,
    /// Allow this kind of call for the rest of the conversation.
    AllowSession,
    Deny,
}

/// What a tool call needs approved, as `--allow` names it: `bash`, or `write` for the tools that
/// change files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApprovalKind {
    Bash,
    Write,
    /// Loading a skill in which skill-lsp found security errors.
    UnsafeSkill,
}

impl ApprovalKind {
    /// The kind as `--allow` and the protocol name it.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            ApprovalKind::Bash => "bash",
            ApprovalKind::Write => "write",
            ApprovalKind::UnsafeSkill => "unsafe-skill",
        }
    }

    /// What answering "Allow for this chat" allows: the session allows by kind, so one answer
    /// covers more than the call asked about, and the user should read how much.
    #[must_use]
    pub fn scope(self) -> &'static str {
        match self {
            ApprovalKind::Bash => {
                "Allow for this chat: every command the agent runs in this conversation, without asking again."
            }
            ApprovalKind::Write => {
                "Allow for this chat: every file the agent writes or edits (write_file and edit_file) in this conversation, without asking again."
            }
            ApprovalKind::UnsafeSkill => {
                "Allow for this chat: every skill with security errors the agent loads in this conversation, without asking again."
            }
        }
    }
}

/// What is asked about: the tool, what answering "Allow for this chat" would allow, a one-line
/// summary of the call (what the question says) and the call in full (what an editor shows
/// under it: the command, the file and its new text, or the security errors of a skill).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalRequest {
    pub tool: String,
    pub kind: ApprovalKind,
    pub summary: String,
    pub detail: String,
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
        if self.kinds.contains(&request.kind) {
            return Box::pin(async { Decision::AllowSession });
        }
        self.fallback.ask(request)
    }
}
