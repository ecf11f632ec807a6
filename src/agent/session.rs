//! The loop of design.md §6: call the model with the catalog-only system prompt, run the tools
//! it asks for, answer with all results in one user message, repeat until it stops asking or the
//! turn limit.
//!
//! Cancel-safety: the conversation only grows by whole steps (the assistant's reply together
//! with the results of its tool calls), so dropping `run` at any `.await` leaves a conversation
//! that the API accepts on the next turn.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::approval::{ApprovalKind, ApprovalRequest, Approver, Decision};
use super::provider::{Block, Message, Provider, ProviderError, Request, Role, StreamEvent, Usage};
use super::tools::{self, Tool, ToolOutput, string_arg};
use crate::workspace::{Registry, Source};

pub(crate) const DEFAULT_MAX_TURNS: u32 = 30;
pub(crate) const DEFAULT_MAX_TOKENS: u32 = 8_192;

/// The most tokens one model reply may use: `flag` (`--max-tokens`), else the environment's
/// `SKILL_LSP_MAX_TOKENS` (how editors pass their setting), else `config` (`[agent] max-tokens`
/// of `skill-lsp.toml`), else [`DEFAULT_MAX_TOKENS`]. A small local model that loops stops sooner
/// with a lower limit.
///
/// # Errors
/// `SKILL_LSP_MAX_TOKENS` that is not a whole number above 0.
pub(crate) fn max_tokens(
    env: &dyn Fn(&str) -> Option<String>,
    flag: Option<u32>,
    config: Option<u32>,
) -> Result<u32, String> {
    let from_env = match env("SKILL_LSP_MAX_TOKENS").filter(|it| !it.trim().is_empty()) {
        None => None,
        Some(text) => match text.trim().parse::<u32>() {
            Ok(tokens) if tokens > 0 => Some(tokens),
            _ => {
                return Err(format!(
                    "SKILL_LSP_MAX_TOKENS must be a whole number of tokens above 0, not '{}'",
                    text.trim()
                ));
            }
        },
    };
    Ok(flag.or(from_env).or(config).unwrap_or(DEFAULT_MAX_TOKENS))
}

/// The system prompt of design.md §6.
#[must_use]
pub(crate) fn system_prompt(workspace: &std::path::Path, catalog: &str) -> String {
    format!(
        "You are a coding agent at {}. Use tools to solve tasks. Act, don't explain.\n\nSkills available:\n{catalog}\n\nUse load_skill to read the full instructions when a skill applies.",
        workspace.display()
    )
}

/// What the loop reports as it goes, for live rendering (`skill/agentEvent`, the terminal).
#[derive(Clone, Debug, PartialEq)]
pub enum AgentEvent {
    Text(String),
    /// A call about to run; `approval` is the question the user is about to be asked about
    /// it, if any (the loop asks right after this event).
    ToolCall {
        id: String,
        name: String,
        input: Value,
        approval: Option<ApprovalRequest>,
    },
    ToolResult {
        id: String,
        name: String,
        content: String,
        is_error: bool,
    },
    /// The reply reached the token limit; `cut_tool` is the call it was writing, which is not
    /// run (the calls before it are).
    TokenLimit {
        max_tokens: u32,
        cut_tool: Option<String>,
    },
    /// A model request failed and is tried again after `delay_ms`: try `attempt` of
    /// `max_attempts` comes next.
    Retry {
        attempt: u32,
        max_attempts: u32,
        delay_ms: u64,
        reason: String,
    },
}

impl AgentEvent {
    /// What the user should read about a token limit or a retry, in plain words; `None` for the
    /// reply's own steps. The terminal and the editors show the same sentence.
    #[must_use]
    pub fn notice(&self) -> Option<String> {
        match self {
            AgentEvent::TokenLimit {
                max_tokens,
                cut_tool,
            } => Some(match cut_tool {
                Some(tool) => format!(
                    "The reply reached the token limit ({max_tokens} tokens) while writing a {tool} call, which was not run; a higher max-tokens setting allows longer replies."
                ),
                None => format!(
                    "The reply reached the token limit ({max_tokens} tokens) and was cut short; a higher max-tokens setting allows longer replies."
                ),
            }),
            AgentEvent::Retry {
                attempt,
                max_attempts,
                delay_ms,
                reason,
            } => {
                #[expect(clippy::cast_precision_loss, reason = "a wait shown to a person")]
                let seconds = *delay_ms as f64 / 1000.0;
                Some(format!(
                    "The model request failed ({reason}); trying again in {seconds:.1} s (try {attempt} of {max_attempts})."
                ))
            }
            _ => None,
        }
    }
}

/// Why the loop stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The model answered without asking for tools (its own stop reason, e.g. `end_turn`).
    Model(String),
    /// The turn limit was reached while the model still asked for tools.
    TurnLimit(u32),
}

impl StopReason {
    #[must_use]
    pub(crate) fn as_text(&self) -> String {
        match self {
            StopReason::Model(reason) => reason.clone(),
            StopReason::TurnLimit(limit) => format!("max_turns ({limit})"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The model's final text.
    pub reply: String,
    pub stop_reason: StopReason,
}

/// Everything the loop needs that does not change between turns.
pub struct Agent {
    pub provider: Arc<dyn Provider>,
    pub workspace: PathBuf,
    pub registry: Registry,
    /// Where skill text comes from (the disk, or an editor's buffers).
    pub source: Arc<dyn Source + Send + Sync>,
    pub approver: Arc<dyn Approver>,
    /// Asked before a skill loads: a skill with security errors loads only when the user allows
    /// it (`ApprovalKind::UnsafeSkill`). The front ends always set one.
    pub gate: Option<Arc<dyn crate::security::SkillGate>>,
    pub max_turns: u32,
    /// The most tokens one reply may use (see [`max_tokens`]).
    pub max_tokens: u32,
}

/// One conversation: its messages, the skills loaded in it, the approvals given for it, the
/// tokens used and a transcript of every step.
#[derive(Clone, Debug, Default)]
pub struct Session {
    pub messages: Vec<Message>,
    pub loaded: Vec<String>,
    allowed: HashSet<ApprovalKind>,
    pub usage: Usage,
    pub transcript: Vec<Value>,
}

impl Session {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl Agent {
    #[must_use]
    pub(crate) fn system_prompt(&self) -> String {
        system_prompt(&self.workspace, &self.registry.catalog())
    }

    /// Runs one user prompt to the end of the loop.
    ///
    /// # Errors
    /// A provider failure (after its retries); the session keeps every completed step.
    pub async fn run(
        &self,
        session: &mut Session,
        prompt: &str,
        on_event: &mut (dyn FnMut(AgentEvent) + Send),
    ) -> Result<Outcome, ProviderError> {
        let system = self.system_prompt();
        let names = self.registry.names();
        let tool_specs = tools::specs(&names);
        session.messages.push(Message {
            role: Role::User,
            content: vec![Block::Text {
                text: prompt.to_owned(),
            }],
        });
        session
            .transcript
            .push(json!({"type": "user", "text": prompt}));
        let mut last_text = String::new();
        for _ in 0..self.max_turns {
            let response = {
                let mut sink = |event: StreamEvent| match event {
                    StreamEvent::Text(text) => on_event(AgentEvent::Text(text)),
                    StreamEvent::Retry {
                        attempt,
                        max_attempts,
                        delay,
                        reason,
                    } => on_event(AgentEvent::Retry {
                        attempt,
                        max_attempts,
                        delay_ms: u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                        reason,
                    }),
                    _ => {}
                };
                let request = Request {
                    model: self.provider.model(),
                    system: &system,
                    messages: &session.messages,
                    tools: &tool_specs,
                    max_tokens: self.max_tokens,
                };
                self.provider.send(request, &mut sink).await?
            };
            session.usage.input_tokens += response.usage.input_tokens;
            session.usage.output_tokens += response.usage.output_tokens;
            let text = response.text();
            if !text.is_empty() {
                last_text = text.clone();
            }
            let calls: Vec<(String, String, Value)> = response
                .content
                .iter()
                .filter_map(|block| match block {
                    Block::ToolUse { id, name, input } => {
                        Some((id.clone(), name.clone(), input.clone()))
                    }
                    _ => None,
                })
                .collect();
            session.transcript.push(json!({
                "type": "assistant",
                "text": text,
                "toolCalls": calls.iter().map(|(id, name, input)| json!({"id": id, "name": name, "input": input})).collect::<Vec<_>>(),
                "stopReason": response.stop_reason,
                "cutTool": response.cut_tool,
                "usage": {"inputTokens": response.usage.input_tokens, "outputTokens": response.usage.output_tokens},
            }));
            if response.stop_reason == "max_tokens" {
                on_event(AgentEvent::TokenLimit {
                    max_tokens: self.max_tokens,
                    cut_tool: response.cut_tool.clone(),
                });
            }
            if calls.is_empty() {
                session.messages.push(Message {
                    role: Role::Assistant,
                    content: response.content,
                });
                return Ok(Outcome {
                    reply: last_text,
                    stop_reason: StopReason::Model(response.stop_reason),
                });
            }
            let mut results = Vec::with_capacity(calls.len());
            for (id, name, input) in calls {
                // Arguments that are not a JSON object are answered with the problem, unasked
                // and unrun; the model may call again.
                let invalid = crate::agent::provider::input_error(&name, &input);
                let asking = invalid
                    .is_none()
                    .then(|| self.approval_request(session, &name, &input))
                    .flatten();
                on_event(AgentEvent::ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    input: input.clone(),
                    approval: asking.clone(),
                });
                let output = match invalid {
                    Some(problem) => ToolOutput::error(problem),
                    None => self.call_tool(session, &name, &input, asking).await,
                };
                on_event(AgentEvent::ToolResult {
                    id: id.clone(),
                    name: name.clone(),
                    content: output.content.clone(),
                    is_error: output.is_error,
                });
                session.transcript.push(json!({"type": "tool_result", "id": id, "name": name, "isError": output.is_error, "content": output.content}));
                results.push(Block::ToolResult {
                    tool_use_id: id,
                    content: output.content,
                    is_error: output.is_error,
                });
            }
            // The model is told which call was lost, or it would wait for its result.
            if let Some(cut) = &response.cut_tool {
                results.push(Block::Text {
                    text: format!(
                        "Your reply reached the token limit ({} tokens) while writing the call of `{cut}`, so that call was not run.",
                        self.max_tokens
                    ),
                });
            }
            // The reply and its results join the conversation together (see the module docs).
            session.messages.push(Message {
                role: Role::Assistant,
                content: response.content,
            });
            session.messages.push(Message {
                role: Role::User,
                content: results,
            });
        }
        session
            .transcript
            .push(json!({"type": "stop", "reason": "max_turns", "limit": self.max_turns}));
        Ok(Outcome {
            reply: last_text,
            stop_reason: StopReason::TurnLimit(self.max_turns),
        })
    }

    /// The question a call needs answered before it runs, if any: a tool that changes things
    /// (unless allowed for this chat), or a skill with security errors to load (asked once per
    /// skill and chat, unless allowed for the whole chat, by `--allow unsafe-skill` or the
    /// config's `allow-unsafe-skills`).
    fn approval_request(
        &self,
        session: &Session,
        name: &str,
        input: &Value,
    ) -> Option<ApprovalRequest> {
        let tool = Tool::parse(name)?;
        if tool == Tool::LoadSkill {
            return self.unsafe_skill_request(session, input);
        }
        tools::approval_for(name, input).filter(|request| !session.allowed.contains(&request.kind))
    }

    fn unsafe_skill_request(&self, session: &Session, input: &Value) -> Option<ApprovalRequest> {
        let name = string_arg(input, "name").ok()?;
        if session.allowed.contains(&ApprovalKind::UnsafeSkill)
            || session.loaded.iter().any(|loaded| loaded == name)
        {
            return None;
        }
        let skill = self.registry.get(name)?;
        let text = self.source.read(&skill.path).ok()?;
        let errors = self.gate.as_ref()?.security_errors(&skill.path, &text);
        let first = errors.first()?;
        Some(ApprovalRequest {
            tool: Tool::LoadSkill.name().to_owned(),
            kind: ApprovalKind::UnsafeSkill,
            summary: format!(
                "load the skill '{name}', in which skill-lsp found {} security error{} ({}{})",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" },
                first,
                if errors.len() > 1 { "; …" } else { "" },
            ),
            detail: errors
                .iter()
                .map(|error| format!("- {error}"))
                .collect::<Vec<_>>()
                .join("\n"),
        })
    }

    /// Asks `asking` (see [`Self::approval_request`]), then runs the call unless denied.
    async fn call_tool(
        &self,
        session: &mut Session,
        name: &str,
        input: &Value,
        asking: Option<ApprovalRequest>,
    ) -> ToolOutput {
        let Some(tool) = Tool::parse(name) else {
            return ToolOutput::error(format!(
                "there is no tool named `{name}`; the tools are {}",
                Tool::listing()
            ));
        };
        if let Some(request) = asking {
            match self.approver.ask(&request).await {
                Decision::AllowOnce => {}
                Decision::AllowSession => {
                    session.allowed.insert(request.kind);
                }
                Decision::Deny => return ToolOutput::error(refusal(&request, input)),
            }
        }
        tool.run(&self.workspace, input, |input| {
            self.load_skill(session, input)
        })
        .await
    }

    fn load_skill(&self, session: &mut Session, input: &Value) -> ToolOutput {
        let name = match string_arg(input, "name") {
            Ok(name) => name,
            Err(error) => return error,
        };
        if session.loaded.iter().any(|loaded| loaded == name) {
            return ToolOutput::ok(format!("Skill '{name}' is already loaded above."));
        }
        // The registry was built earlier; since then the SKILL.md may have been replaced by a
        // symlink out of its skills root (say by a command of this chat), which the loader would
        // not have registered. (A path that does not resolve, such as an unsaved editor buffer,
        // is left to the source.)
        if let Some(skill) = self.registry.get(name) {
            if let (Ok(real), Ok(root)) = (
                std::fs::canonicalize(&skill.path),
                std::fs::canonicalize(&skill.root),
            ) {
                if !real.starts_with(&root) {
                    return ToolOutput::error(format!(
                        "Error: Skill '{name}' could not be read: it now resolves outside its skills root"
                    ));
                }
            }
        }
        match self.registry.load(name, self.source.as_ref()) {
            Ok(content) => {
                session.loaded.push(name.to_owned());
                ToolOutput::ok(content)
            }
            Err(message) => ToolOutput::error(message),
        }
    }
}

/// What the model reads when the user says no: why, and that it should not try another way.
fn refusal(request: &ApprovalRequest, input: &Value) -> String {
    if request.kind == ApprovalKind::UnsafeSkill {
        let name = string_arg(input, "name").unwrap_or("?");
        return format!(
            "Skill '{name}' was not loaded: skill-lsp found security errors in it and the user did not allow loading it.\n{}\nTell the user why the skill was not loaded; do not read or run its files another way.",
            request.detail
        );
    }
    format!(
        "the user did not approve this call ({}); do not retry it, find another way or ask",
        request.summary
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::approval::Fixed;
    use crate::agent::provider::Response;
    use crate::agent::provider::scripted::ScriptedProvider;
    use crate::workspace::Disk;

    fn tool_use(id: &str, name: &str, input: Value) -> Response {
        Response {
            content: vec![Block::ToolUse {
                id: id.into(),
                name: name.into(),
                input,
            }],
            stop_reason: "tool_use".into(),
            usage: Usage {
                input_tokens: 10,
                output_tokens: 5,
            },
            cut_tool: None,
        }
    }

    fn answer(text: &str) -> Response {
        Response {
            content: vec![Block::Text { text: text.into() }],
            stop_reason: "end_turn".into(),
            usage: Usage {
                input_tokens: 10,
                output_tokens: 5,
            },
            cut_tool: None,
        }
    }

    const PDF: &str =
        "---\nname: pdf\ndescription: |\n  Fills PDF forms.\n  Use when asked.\n---\nSECRET BODY\n";

    fn make_agent(
        replies: Vec<Response>,
        decision: Decision,
    ) -> (Agent, Arc<ScriptedProvider>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("skills/pdf")).unwrap();
        std::fs::write(dir.path().join("skills/pdf/SKILL.md"), PDF).unwrap();
        let registry = Registry::scan(&crate::workspace::loader::roots_for(dir.path(), &[]), &Disk);
        let fake = Arc::new(ScriptedProvider::new(replies));
        let agent = Agent {
            provider: fake.clone(),
            workspace: dir.path().to_path_buf(),
            registry,
            source: Arc::new(Disk),
            approver: Arc::new(Fixed(decision)),
            gate: Some(Arc::new(crate::analysis::Engine::default())),
            max_turns: 5,
            max_tokens: DEFAULT_MAX_TOKENS,
        };
        (agent, fake, dir)
    }

    fn tool_results(message: &Message) -> Vec<(String, String, bool)> {
        message
            .content
            .iter()
            .filter_map(|block| match block {
                Block::ToolResult {
                    tool_use_id,
                    content,
                    is_error,
                } => Some((tool_use_id.clone(), content.clone(), *is_error)),
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn catalog_in_the_prompt_and_load_skill_returns_the_file() {
        let (agent, fake, _dir) = make_agent(
            vec![
                tool_use("t1", "load_skill", json!({"name": "pdf"})),
                tool_use("t2", "load_skill", json!({"name": "pdf"})),
                answer("done"),
            ],
            Decision::Deny,
        );
        let mut session = Session::new();
        let mut events = Vec::new();
        let outcome = agent
            .run(&mut session, "fill the form", &mut |event| {
                events.push(event);
            })
            .await
            .unwrap();
        assert_eq!(
            outcome,
            Outcome {
                reply: "done".into(),
                stop_reason: StopReason::Model("end_turn".into())
            }
        );
        let seen = fake.seen.lock().unwrap();
        let (system, tools) = (&seen[0].system, &seen[0].tools);
        assert!(
            system.contains(
                "Skills available:\n- pdf: Fills PDF forms. Use when asked.\n\nUse load_skill"
            ),
            "{system}"
        );
        assert!(!system.contains("SECRET BODY"));
        assert_eq!(
            tools
                .iter()
                .map(|tool| tool.name.as_str())
                .collect::<Vec<_>>(),
            [
                "bash",
                "read_file",
                "write_file",
                "edit_file",
                "glob",
                "load_skill"
            ]
        );
        let messages = &seen[1].messages;
        assert_eq!(
            tool_results(&messages[2]),
            vec![("t1".into(), PDF.into(), false)]
        );
        let messages = &seen[2].messages;
        assert_eq!(
            tool_results(&messages[4]),
            vec![(
                "t2".into(),
                "Skill 'pdf' is already loaded above.".into(),
                false
            )]
        );
        assert_eq!(session.loaded, vec!["pdf"]);
        assert_eq!(
            session.usage,
            Usage {
                input_tokens: 30,
                output_tokens: 15
            }
        );
        assert!(events.contains(&AgentEvent::Text("done".into())));
    }

    #[tokio::test]
    async fn errors_are_tool_results_and_approval_is_asked() {
        let calls = Response {
            content: vec![
                Block::ToolUse {
                    id: "a".into(),
                    name: "load_skill".into(),
                    input: json!({"name": "nope"}),
                },
                Block::ToolUse {
                    id: "b".into(),
                    name: "no_such_tool".into(),
                    input: json!({}),
                },
                Block::ToolUse {
                    id: "c".into(),
                    name: "write_file".into(),
                    input: json!({"path": "x.txt", "content": "hi"}),
                },
                Block::ToolUse {
                    id: "d".into(),
                    name: "read_file".into(),
                    input: json!({"path": "../../etc/passwd"}),
                },
                Block::ToolUse {
                    id: "e".into(),
                    name: "read_file".into(),
                    input: json!("not an object"),
                },
            ],
            stop_reason: "tool_use".into(),
            usage: Usage::default(),
            cut_tool: None,
        };
        let (agent, fake, dir) = make_agent(vec![calls.clone(), answer("ok")], Decision::Deny);
        let mut session = Session::new();
        agent.run(&mut session, "go", &mut |_| {}).await.unwrap();
        let results = tool_results(&fake.seen.lock().unwrap()[1].messages[2]);
        assert_eq!(
            results.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
            ["a", "b", "c", "d", "e"],
            "all results in one message, ids matching"
        );
        assert!(results.iter().all(|r| r.2), "every one is an error");
        assert_eq!(results[0].1, "Error: Unknown skill 'nope'. Available: pdf");
        assert!(results[2].1.contains("did not approve"));
        assert!(!dir.path().join("x.txt").exists());
        assert!(results[3].1.contains("leaves the workspace"));
        // Granted for the session: the write happens.
        let (agent, _, dir) = make_agent(vec![calls, answer("ok")], Decision::AllowSession);
        agent
            .run(&mut Session::new(), "go", &mut |_| {})
            .await
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("x.txt")).unwrap(),
            "hi"
        );
    }

    #[tokio::test]
    async fn the_turn_limit_stops_a_model_that_never_stops() {
        let forever: Vec<Response> = (0..10)
            .map(|turn| tool_use(&format!("t{turn}"), "glob", json!({"pattern": "*"})))
            .collect();
        let (agent, fake, _dir) = make_agent(forever, Decision::Deny);
        let outcome = agent
            .run(&mut Session::new(), "loop", &mut |_| {})
            .await
            .unwrap();
        assert_eq!(outcome.stop_reason, StopReason::TurnLimit(5));
        assert_eq!(fake.seen.lock().unwrap().len(), 5);
    }

    #[tokio::test]
    async fn a_cancelled_turn_leaves_a_consistent_conversation() {
        let (agent, _, _dir) = make_agent(
            vec![tool_use("t1", "bash", json!({"command": "sleep 5"}))],
            Decision::AllowOnce,
        );
        let mut session = Session::new();
        let cancelled = tokio::time::timeout(
            std::time::Duration::from_millis(200),
            agent.run(&mut session, "slow", &mut |_| {}),
        )
        .await;
        assert!(cancelled.is_err());
        // Only the prompt is there: no tool_use without its tool_result.
        assert_eq!(session.messages.len(), 1);
        assert_eq!(session.messages[0].role, Role::User);
    }
}
