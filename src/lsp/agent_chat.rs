//! `skill/agentChat`: the agent loop run by the server against the first workspace folder, with
//! the live catalog, approvals through `window/showMessageRequest`, `$/progress` on the
//! client's token and `skill/agentEvent` notifications (types in `ext`).

use std::collections::HashMap;
use std::sync::Arc;

use tower_lsp_server::Client;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{MessageActionItem, MessageType, ProgressToken};

use super::backend::Backend;
use super::ext::{
    AGENT_PROGRESS_TITLE, ALLOW_CHAT, ALLOW_ONCE, APPROVAL_ACTIONS, AgentChatParams,
    AgentChatResult, AgentEventKind, AgentEventNotification, AgentEventParams, ChatUsage,
    STOP_CANCELLED,
};
use super::handlers::{invalid_params, provider_setup_error};
use super::outgoing::Outgoing;
use super::progress;
use crate::agent::approval::{ApprovalRequest, Approver, Decision};
use crate::agent::provider::BoxFuture;
use crate::agent::tools::activity;

/// One prompt of a (new or continued) conversation, streamed as `skill/agentEvent`
/// notifications and `$/progress`, against the first workspace folder.
pub(crate) async fn agent_chat(
    backend: &Backend,
    params: AgentChatParams,
) -> Result<AgentChatResult> {
    backend.wait_ready().await;
    let context = backend
        .lock()
        .agent_context()
        .ok_or_else(|| invalid_params("the agent needs a workspace folder"))?;
    let (workspace, registry, overlay) = (context.folder, context.registry, context.overlay);
    let env = |name: &str| std::env::var(name).ok();
    let (model, max_turns) = (context.agent.model.clone(), context.agent.max_turns);
    let provider = crate::agent::provider::from_env(&env, None, model.as_deref())
        .map_err(|error| provider_setup_error(&error))?;
    let max_tokens = crate::agent::session::max_tokens(&env, None, context.agent.max_tokens)
        .map_err(invalid_params)?;
    let agent = crate::agent::Agent {
        provider: Arc::from(provider),
        workspace,
        registry,
        source: Arc::new(overlay),
        approver: crate::agent::approval::with_config(
            Box::new(EditorApprover {
                client: backend.client.clone(),
            }),
            &context.agent,
        ),
        gate: Some(Arc::new(context.engine)),
        max_turns: max_turns.unwrap_or(crate::agent::session::DEFAULT_MAX_TURNS),
        max_tokens,
    };
    let mut lease = backend
        .sessions
        .lease(params.session_id.as_deref())
        .map_err(|message| {
            // Said as data too, so an editor knows to start a new conversation.
            let mut error = invalid_params(message);
            error.data = Some(serde_json::json!({"session": "unavailable"}));
            error
        })?;
    let session_id = lease.id.clone();
    let token = params.work_done_token.clone();
    if let Some(token) = &token {
        let prompt = params.prompt.chars().take(80).collect();
        let begin = progress::begin(AGENT_PROGRESS_TITLE, true, prompt);
        progress::send(&backend.outgoing, token, begin).await;
    }
    // Events leave through a channel: the loop's callback is synchronous, sending is not.
    let (events, queued) = tokio::sync::mpsc::unbounded_channel::<AgentEventParams>();
    let forward = tokio::spawn(forward_events(
        backend.outgoing.clone(),
        token.clone(),
        queued,
    ));
    let mut notice = CancelNotice {
        events: events.clone(),
        outgoing: backend.outgoing.clone(),
        token: token.clone(),
        session_id: session_id.clone(),
        armed: true,
    };
    let outcome = {
        let session = lease.session.as_mut().ok_or_else(Error::internal_error)?;
        let session_id = session_id.clone();
        let sender = events.clone();
        agent
            .run(session, &params.prompt, &mut move |event| {
                let _ = sender.send(AgentEventParams {
                    session_id: session_id.clone(),
                    event: AgentEventKind::from_agent(&event),
                });
            })
            .await
    };
    notice.armed = false;
    drop(notice);
    let finished = match &outcome {
        Ok(outcome) => AgentEventKind::Done {
            stop_reason: outcome.stop_reason.as_text(),
        },
        Err(error) => AgentEventKind::Error {
            message: error.to_string(),
        },
    };
    let _ = events.send(AgentEventParams {
        session_id: session_id.clone(),
        event: finished,
    });
    drop(events);
    let _ = forward.await;
    if let Some(token) = &token {
        let message = outcome
            .as_ref()
            .map_or_else(ToString::to_string, |outcome| outcome.stop_reason.as_text());
        progress::send(&backend.outgoing, token, progress::end(message)).await;
    }
    let outcome = outcome.map_err(|error| Error {
        code: ErrorCode::InternalError,
        message: error.to_string().into(),
        data: None,
    })?;
    let session = lease.session.as_ref().ok_or_else(Error::internal_error)?;
    Ok(AgentChatResult {
        session_id,
        reply: outcome.reply,
        stop_reason: outcome.stop_reason.as_text(),
        loaded_skills: session.loaded.clone(),
        transcript: session.transcript.clone(),
        usage: ChatUsage {
            input_tokens: session.usage.input_tokens,
            output_tokens: session.usage.output_tokens,
        },
    })
}

/// Sends the chat's events in order; each tool call is also a `$/progress` report on the
/// token.
async fn forward_events(
    outgoing: Outgoing,
    token: Option<ProgressToken>,
    mut events: tokio::sync::mpsc::UnboundedReceiver<AgentEventParams>,
) {
    while let Some(event) = events.recv().await {
        let message = match &event.event {
            AgentEventKind::ToolCall { name, input, .. } => Some(activity(name, input)),
            AgentEventKind::Notice { text } => Some(text.clone()),
            _ => None,
        };
        if let (Some(token), Some(message)) = (&token, message) {
            let report = progress::report(message.chars().take(120).collect());
            progress::send(&outgoing, token, report).await;
        }
        outgoing.notify::<AgentEventNotification>(event).await;
    }
}

/// Asks the user in the editor: Allow once / Allow for this chat / Deny.
pub(crate) struct EditorApprover {
    pub client: Client,
}

impl Approver for EditorApprover {
    fn ask<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let actions = APPROVAL_ACTIONS
                .map(|title| MessageActionItem {
                    title: title.to_owned(),
                    properties: HashMap::new(),
                })
                .to_vec();
            let message = format!("The skill agent wants to {}.", request.summary);
            match self
                .client
                .show_message_request(MessageType::WARNING, message, Some(actions))
                .await
            {
                Ok(Some(item)) if item.title == ALLOW_ONCE => Decision::AllowOnce,
                Ok(Some(item)) if item.title == ALLOW_CHAT => Decision::AllowSession,
                _ => Decision::Deny,
            }
        })
    }
}

/// Armed for the length of one chat: if the request is cancelled (its future dropped) before
/// the loop ends, the client still gets a closing `skill/agentEvent` (`done`, stop reason
/// `cancelled`, with the session id, so a chat cancelled before its first event can be
/// continued) and the `$/progress` end, so nobody waits for them in vain.
pub(crate) struct CancelNotice {
    pub events: tokio::sync::mpsc::UnboundedSender<AgentEventParams>,
    pub outgoing: Outgoing,
    pub token: Option<ProgressToken>,
    pub session_id: String,
    pub armed: bool,
}

impl Drop for CancelNotice {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        // Through the chat's own channel, so it comes after every event already sent.
        let _ = self.events.send(AgentEventParams {
            session_id: self.session_id.clone(),
            event: AgentEventKind::Done {
                stop_reason: STOP_CANCELLED.to_owned(),
            },
        });
        let (Some(token), Ok(runtime)) =
            (self.token.clone(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let outgoing = self.outgoing.clone();
        runtime.spawn(async move {
            let end = progress::end(STOP_CANCELLED.to_owned());
            progress::send(&outgoing, &token, end).await;
        });
    }
}
