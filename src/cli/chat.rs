//! `skill-lsp chat`: the agent loop in the terminal, one prompt or a REPL, streamed.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use tokio::io::AsyncBufReadExt;

use super::{ChatArgs, EXIT_TROUBLE, error_line};
use crate::agent::approval::{AllowList, ApprovalKind, ApprovalRequest, Approver, Decision, Fixed};
use crate::agent::provider::{self, BoxFuture};
use crate::agent::session::{DEFAULT_MAX_TURNS, max_tokens};
use crate::agent::tools::summary;
use crate::agent::{Agent, AgentEvent, Session};
use crate::targets::ClientSet;
use crate::workspace::{Disk, Workspace};

/// Asks on the terminal: `y` once, `a` for the rest of the chat, anything else denies.
struct TerminalApprover;

impl Approver for TerminalApprover {
    fn ask<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Decision> {
        let question = format!(
            "Allow {}: {}? [y]es / [a]lways in this chat / [N]o: ",
            request.tool, request.summary
        );
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut stderr = std::io::stderr().lock();
                let _ = stderr.write_all(question.as_bytes());
                let _ = stderr.flush();
                let mut answer = String::new();
                if std::io::stdin().read_line(&mut answer).is_err() {
                    return Decision::Deny;
                }
                match answer.trim().to_ascii_lowercase().as_str() {
                    "y" | "yes" => Decision::AllowOnce,
                    "a" | "always" => Decision::AllowSession,
                    _ => Decision::Deny,
                }
            })
            .await
            .unwrap_or(Decision::Deny)
        })
    }
}

/// Writes and flushes; on a terminal, escape sequences from the model or a tool are shown, not
/// run. Piped output stays as it is.
fn write_out(mut stream: impl Write + IsTerminal, text: &str) {
    let _ = if stream.is_terminal() {
        stream.write_all(crate::agent::tools::terminal_safe(text).as_bytes())
    } else {
        stream.write_all(text.as_bytes())
    };
    let _ = stream.flush();
}

fn eprint(text: &str) {
    write_out(std::io::stderr().lock(), text);
}

fn print(text: &str) {
    write_out(std::io::stdout().lock(), text);
}

/// Renders the loop's events: text streams to stdout, tool calls, results and notices to stderr.
/// Notices also go out under `--json`, on stderr, since the transcript comes only at the end.
fn render(event: AgentEvent, json: bool, at_line_start: &mut bool) {
    if let Some(notice) = event.notice() {
        let lead = if *at_line_start || json { "" } else { "\n" };
        eprint(&format!("{lead}({notice})\n"));
        *at_line_start = true;
        return;
    }
    if json {
        return; // The transcript is written at the end, as JSON lines.
    }
    *at_line_start = match &event {
        AgentEvent::Text(text) => text.ends_with('\n'),
        _ => true,
    };
    match event {
        AgentEvent::Text(text) => print(&text),
        AgentEvent::ToolCall { name, input, .. } => {
            eprint(&format!("\n→ {}\n", summary(&name, &input)));
        }
        AgentEvent::ToolResult {
            content, is_error, ..
        } => {
            let first = content
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(100)
                .collect::<String>();
            let status = if is_error { "error" } else { "ok" };
            eprint(&format!(
                "  ← {status}: {first} ({} bytes)\n",
                content.len()
            ));
        }
        AgentEvent::TokenLimit { .. } | AgentEvent::Retry { .. } => {}
    }
}

fn build_agent(args: &ChatArgs) -> Result<Agent, String> {
    let root = args.root.clone().unwrap_or_else(|| PathBuf::from("."));
    let workspace = Workspace::open_resolved(&root).map_err(|error| error.to_string())?;
    let registry = workspace.registry(&Disk, ClientSet::NONE);
    let Workspace {
        folder: root,
        config,
    } = workspace;
    let env = |name: &str| std::env::var(name).ok();
    let provider = provider::from_env(&env, args.model.as_deref(), config.agent.model.as_deref())
        .map_err(|error| error.to_string())?;
    let max_tokens = max_tokens(&env, args.max_tokens, config.agent.max_tokens)?;
    let fallback: Box<dyn Approver> = if std::io::stdin().is_terminal() {
        Box::new(TerminalApprover)
    } else {
        Box::new(Fixed(Decision::Deny))
    };
    let approver: Arc<dyn Approver> = match &args.allow {
        Some(list) => {
            let mut allowed = AllowList::parse(list, fallback)?;
            if config.agent.allow_unsafe_skills == Some(true) {
                allowed.allow(ApprovalKind::UnsafeSkill);
            }
            Arc::new(allowed)
        }
        None => crate::agent::approval::with_config(fallback, &config.agent),
    };
    let gate = Arc::new(crate::analysis::Engine::new(config.clone()));
    Ok(Agent {
        provider: Arc::from(provider),
        workspace: root,
        registry,
        source: Arc::new(Disk),
        approver,
        gate: Some(gate),
        max_turns: args
            .max_turns
            .or(config.agent.max_turns)
            .unwrap_or(DEFAULT_MAX_TURNS),
        max_tokens,
    })
}

/// Runs one prompt; `Ok(false)` when Ctrl-C cancelled it.
async fn turn(
    agent: &Agent,
    session: &mut Session,
    prompt: &str,
    json: bool,
) -> Result<bool, String> {
    let start = session.transcript.len();
    let mut at_line_start = true;
    let mut on_event = |event| render(event, json, &mut at_line_start);
    let run = agent.run(session, prompt, &mut on_event);
    let outcome = tokio::select! {
        outcome = run => outcome,
        _ = tokio::signal::ctrl_c() => {
            eprint("\n(cancelled)\n");
            return Ok(false);
        }
    };
    if json {
        // What completed before a failure is kept, as the session keeps it.
        for entry in &session.transcript[start..] {
            print(&format!("{entry}\n"));
        }
    }
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            if !at_line_start {
                // The error starts its own line, not after a reply cut mid-sentence.
                print("\n");
            }
            return Err(error.to_string());
        }
    };
    if !json {
        if !outcome.reply.ends_with('\n') {
            print("\n");
        }
        eprint(&format!(
            "[stop: {} · tokens in {} out {} · skills loaded: {}]\n",
            outcome.stop_reason.as_text(),
            session.usage.input_tokens,
            session.usage.output_tokens,
            if session.loaded.is_empty() {
                "none".to_owned()
            } else {
                session.loaded.join(", ")
            }
        ));
    }
    Ok(true)
}

async fn repl(agent: &Agent, json: bool) -> u8 {
    let mut session = Session::new();
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    eprint(
        "skill-lsp chat — /catalog, /load NAME, /reset, /quit; Ctrl-C cancels a turn, twice quits.\n",
    );
    loop {
        eprint("> ");
        let line = tokio::select! {
            line = lines.next_line() => line,
            _ = tokio::signal::ctrl_c() => return 0,
        };
        let Ok(Some(line)) = line else { return 0 };
        let line = line.trim();
        match line {
            "" => {}
            "/quit" | "/exit" => return 0,
            "/reset" => {
                session = Session::new();
                eprint("(new conversation)\n");
            }
            "/catalog" => print(&format!("{}\n", agent.registry.catalog())),
            _ if line.starts_with("/load ") => {
                match agent.registry.load(line["/load ".len()..].trim(), &Disk) {
                    Ok(content) => print(&content),
                    Err(message) => eprint(&format!("{message}\n")),
                }
            }
            prompt => {
                if let Err(message) = turn(agent, &mut session, prompt, json).await {
                    error_line(&message);
                }
            }
        }
    }
}

pub(super) fn run(args: &ChatArgs) -> u8 {
    let agent = match build_agent(args) {
        Ok(agent) => agent,
        Err(message) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    let Some(runtime) = super::model_runtime() else {
        return EXIT_TROUBLE;
    };
    let code = runtime.block_on(async {
        match &args.prompt {
            Some(prompt) => match turn(&agent, &mut Session::new(), prompt, args.json).await {
                Ok(true) => 0,
                Ok(false) => 130,
                Err(message) => {
                    error_line(&message);
                    1
                }
            },
            None => repl(&agent, args.json).await,
        }
    });
    runtime.shutdown_background();
    code
}
