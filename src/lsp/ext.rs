//! The custom protocol of design.md §7, declared once: every `skill/*` request and
//! notification with typed params and results, the approval buttons and the other strings an
//! editor matches on. `docs/protocol.md` describes it for editor authors; `tests/it/protocol.rs`
//! pins one example of each message in `docs/protocol/messages.json`, which the VS Code and
//! Neovim tests read too.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::ls_types::ProgressToken;
use tower_lsp_server::ls_types::notification::Notification;
use tower_lsp_server::ls_types::request::Request;

/// `skill/catalog`: the skills the agent sees and the catalog text of its system prompt.
pub enum Catalog {}

impl Request for Catalog {
    type Params = CatalogParams;
    type Result = CatalogResult;
    const METHOD: &'static str = "skill/catalog";
}

/// `skill/loadSkill`: what the agent's `load_skill` tool returns for a name.
pub enum LoadSkill {}

impl Request for LoadSkill {
    type Params = LoadSkillParams;
    type Result = LoadSkillResult;
    const METHOD: &'static str = "skill/loadSkill";
}

/// `skill/agentChat`: one prompt of a conversation with the catalog-first agent.
pub enum AgentChat {}

impl Request for AgentChat {
    type Params = AgentChatParams;
    type Result = AgentChatResult;
    const METHOD: &'static str = "skill/agentChat";
}

/// `skill/agentEvent`: what the agent does while a chat runs, streamed to the client.
pub(crate) enum AgentEventNotification {}

impl Notification for AgentEventNotification {
    type Params = AgentEventParams;
    const METHOD: &'static str = "skill/agentEvent";
}

/// `skill/runEvals`: the trigger evals of one skill, as `skill-lsp eval --format json` runs them.
pub enum RunEvals {}

impl Request for RunEvals {
    type Params = RunEvalsParams;
    type Result = RunEvalsResult;
    const METHOD: &'static str = "skill/runEvals";
}

/// `skill/evalResult`: one query of a `skill/runEvals` whose runs are all done.
pub(crate) enum EvalResultNotification {}

impl Notification for EvalResultNotification {
    type Params = EvalResultParams;
    const METHOD: &'static str = "skill/evalResult";
}

/// `skill/improveDescription`: `skill-lsp eval --improve` for one skill, answered with the
/// best description and the edit that writes it into the SKILL.md.
pub enum ImproveDescription {}

impl Request for ImproveDescription {
    type Params = ImproveDescriptionParams;
    type Result = ImproveDescriptionResult;
    const METHOD: &'static str = "skill/improveDescription";
}

pub const CATALOG: &str = Catalog::METHOD;
pub const LOAD_SKILL: &str = LoadSkill::METHOD;
pub const AGENT_CHAT: &str = AgentChat::METHOD;
pub const AGENT_EVENT: &str = AgentEventNotification::METHOD;
pub const RUN_EVALS: &str = RunEvals::METHOD;
pub const EVAL_RESULT: &str = EvalResultNotification::METHOD;
pub const IMPROVE_DESCRIPTION: &str = ImproveDescription::METHOD;

/// The client-side command of the trigger-evals code lens: the editor sends `skill/runEvals`
/// with the lens's argument (`{"skill", "uri"}`) and shows the result.
pub const RUN_TRIGGER_EVALS_COMMAND: &str = "skillLsp.runTriggerEvals";
/// The client-side command of the "Improve the description" code action: the editor sends
/// `skill/improveDescription` with its argument (`{"skill", "uri"}`) and shows the result as a
/// diff to accept.
pub const IMPROVE_DESCRIPTION_COMMAND: &str = "skillLsp.improveDescription";
/// The title of that code action.
pub const IMPROVE_DESCRIPTION_TITLE: &str = "Improve the description with the trigger evals…";
/// The `$/progress` title of `skill/improveDescription`, before the skill's name.
pub const IMPROVE_PROGRESS_TITLE: &str = "Improve description";
/// The code of the information diagnostic that shows the last trigger-eval results.
pub const TRIGGER_EVALS_CODE: &str = "trigger-evals";
/// The `$/progress` title of `skill/runEvals`, before the skill's name.
pub const EVAL_PROGRESS_TITLE: &str = "Trigger evals";

/// The custom methods also offered as `workspace/executeCommand` commands. Not `skill/runEvals`:
/// it spends model calls, so it is only a request an editor sends on purpose.
pub const COMMANDS: &[&str] = &[CATALOG, LOAD_SKILL, AGENT_CHAT];

/// The code action kind of "apply every safe fix in the file".
pub const FIX_ALL_KIND: &str = "source.fixAll.skill-lsp";
/// Base of the rule documentation links (`codeDescription`).
pub(crate) const RULE_DOCS: &str = "https://github.com/skill-lsp/skill-lsp/blob/main/docs/rules.md";

/// The buttons of the approval `window/showMessageRequest` (design.md §6), in order.
pub const ALLOW_ONCE: &str = "Allow once";
pub(crate) const ALLOW_CHAT: &str = "Allow for this chat";
pub(crate) const DENY: &str = "Deny";
pub const APPROVAL_ACTIONS: [&str; 3] = [ALLOW_ONCE, ALLOW_CHAT, DENY];

/// The `$/progress` title of a chat.
pub const AGENT_PROGRESS_TITLE: &str = "Skill agent";
/// The stop reason of a chat whose request was cancelled.
pub const STOP_CANCELLED: &str = "cancelled";

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogParams {}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CatalogSkill {
    pub name: String,
    pub description: String,
    pub uri: String,
    pub root: String,
    /// The findings of the SKILL.md and of the other files it ships.
    pub diagnostics: usize,
    /// What the skill's files can do (`network`, `shell`, `reads-outside`, `writes-outside`,
    /// `secrets`, `persistence`), as `check --format json` lists them.
    pub capabilities: Vec<String>,
    /// Security errors among its findings: the agent asks before it loads such a skill.
    pub security_errors: usize,
    /// For a skill a Claude Code plugin of the workspace provides: the name Claude Code lists
    /// it under once the plugin is installed, `plugin:skill`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claude_code_name: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CatalogResult {
    pub skills: Vec<CatalogSkill>,
    pub prompt: String,
    /// The Claude Code plugins the workspace folders offer, whose skills Claude Code lists once
    /// a plugin is installed (the agent's catalog holds only those a skills root holds).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plugins: Vec<CatalogPlugin>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CatalogPlugin {
    /// The name its skills are listed under, `name:skill`.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marketplace: Option<String>,
    /// The command that installs it: `claude plugin install entry@marketplace`, or
    /// `claude --plugin-dir ROOT` for a plugin no marketplace here lists.
    pub install: String,
    pub root: String,
    pub skills: Vec<CatalogPluginSkill>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CatalogPluginSkill {
    /// `plugin:skill`, as Claude Code lists it.
    pub claude_code_name: String,
    pub description: String,
    pub uri: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadSkillParams {
    pub name: String,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LoadSkillResult {
    pub content: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentChatParams {
    pub prompt: String,
    pub session_id: Option<String>,
    pub work_done_token: Option<ProgressToken>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ChatUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AgentChatResult {
    pub session_id: String,
    pub reply: String,
    pub stop_reason: String,
    pub loaded_skills: Vec<String>,
    pub transcript: Vec<Value>,
    pub usage: ChatUsage,
}

/// `skill/runEvals`: the skill by name or by its SKILL.md uri (one of the two), an optional
/// candidate description, the measuring options of `skill-lsp eval` (runs per query, threshold,
/// jobs, turns) and whether to skip the cache.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunEvalsParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jobs: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_cache: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_requests: Option<u64>,
    /// `skill-lsp eval --runs auto`: after `runs`, one more run at a time for each query still
    /// undecided, up to 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_runs: Option<bool>,
    /// Send nothing: answer what the run would send (`skill-lsp eval --dry-run --format json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// Send the catalog as this client lists it (`skill-lsp eval --target`): `claude-code`,
    /// `codex`, `copilot`, `opencode` or `gemini`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The model's context window in tokens, which the `target`'s listing budget is figured
    /// from (`skill-lsp eval --context-window`); only with `target`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_window: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_done_token: Option<ProgressToken>,
}

/// The JSON object `skill-lsp eval --format json` prints for one skill (built by
/// `EvalReport::skill_json`, the one implementation): `skill_name`, `description`,
/// `candidate`, `eval_set`, `results`, `confusions`, `summary`, `run`.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct RunEvalsResult(pub Value);

/// `skill/improveDescription`: the params of `skill/runEvals` (without `description`: the loop
/// writes its own), the most rewrites to try and the seed of the train/test split (the CLI's
/// `--iterations` and `--seed`, default 5 and 1).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImproveDescriptionParams {
    #[serde(flatten)]
    pub eval: RunEvalsParams,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// What `skill-lsp eval --improve --format json` prints (`improve`, `best_description`,
/// `improved`, `summary`; built by `Improvement::json`), with the SKILL.md's `uri`, the
/// file's `current` text and, when a rewrite won, the `proposed` text and the `edit` (a
/// `WorkspaceEdit` of the description alone, for the document version it was made on); both
/// `null` otherwise. With `dryRun`, the estimate `skill/runEvals` answers, for the whole loop.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct ImproveDescriptionResult(pub Value);

/// One `skill/evalResult`: the skill, its SKILL.md uri, and the query's object of the report's
/// `results`.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct EvalResultParams {
    pub skill: String,
    pub uri: String,
    pub result: Value,
}

/// One `skill/agentEvent`: the chat's session id and what happened, tagged by `kind`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AgentEventParams {
    pub session_id: String,
    #[serde(flatten)]
    pub event: AgentEventKind,
}

/// What happened in a chat. `done` and `error` close it; every other kind may come many times
/// (text arrives in deltas).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum AgentEventKind {
    /// A piece of the model's reply.
    Text { text: String },
    /// The model asked for a tool: its JSON input, the argument a reader looks for (`pdf`,
    /// `skills/pdf/SKILL.md`, a command's first line) and, when the user is asked about this
    /// call next, what the question is about.
    ToolCall {
        id: String,
        name: String,
        input: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        argument: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        approval: Option<ToolApproval>,
    },
    /// A tool's answer, cut to `TOOL_RESULT_PREVIEW` characters.
    ToolResult {
        id: String,
        name: String,
        is_error: bool,
        content: String,
    },
    /// Something the user should know that is not part of the reply: a retry, or the token
    /// limit cutting the reply.
    Notice { text: String },
    /// The loop ended: the model's stop reason, `max_turns (N)`, or [`STOP_CANCELLED`].
    Done { stop_reason: String },
    /// The loop failed (the provider's error, without the key).
    Error { message: String },
}

/// The approval a tool call waits for, as the server will ask it (`window/showMessageRequest`):
/// its kind (`bash`, `write` or `unsafe-skill`), the call in full, and what "Allow for this
/// chat" would allow. Clients show these instead of knowing the tools themselves.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ToolApproval {
    pub kind: String,
    pub detail: String,
    pub scope: String,
}

/// How much of a tool result an event carries; the transcript keeps all of it.
pub(crate) const TOOL_RESULT_PREVIEW: usize = 2_000;

impl AgentEventKind {
    /// The event of one step of the agent loop.
    #[must_use]
    pub fn from_agent(event: &crate::agent::AgentEvent) -> Self {
        use crate::agent::AgentEvent;
        match event {
            AgentEvent::Text(text) => Self::Text { text: text.clone() },
            AgentEvent::ToolCall {
                id,
                name,
                input,
                approval,
            } => Self::ToolCall {
                id: id.clone(),
                name: name.clone(),
                input: input.clone(),
                argument: crate::agent::tools::argument(name, input),
                approval: approval.as_ref().map(|request| ToolApproval {
                    kind: request.kind.id().to_owned(),
                    detail: request.detail.clone(),
                    scope: request.kind.scope().to_owned(),
                }),
            },
            AgentEvent::ToolResult {
                id,
                name,
                content,
                is_error,
            } => Self::ToolResult {
                id: id.clone(),
                name: name.clone(),
                is_error: *is_error,
                content: content.chars().take(TOOL_RESULT_PREVIEW).collect(),
            },
            AgentEvent::TokenLimit { .. } | AgentEvent::Retry { .. } => Self::Notice {
                text: event.notice().unwrap_or_default(),
            },
        }
    }
}
