//! `skill/agentChat`: the agent loop run by the server against the first workspace folder, with
//! the live catalog, approvals through `window/showMessageRequest`, `$/progress` and
//! `skill/agentEvent` notifications.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower_lsp_server::Client;
use tower_lsp_server::ls_types::notification::Notification;
use tower_lsp_server::ls_types::{MessageActionItem, MessageType, ProgressToken};

use crate::agent::approval::{ApprovalRequest, Approver, Decision};
use crate::agent::provider::BoxFuture;
use crate::agent::{AgentEvent, Session};

pub const AGENT_CHAT: &str = "skill/agentChat";

#[derive(Debug, Deserialize)]
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

/// The `skill/agentEvent` notification.
pub enum AgentEventNotification {}

impl Notification for AgentEventNotification {
    type Params = Value;
    const METHOD: &'static str = "skill/agentEvent";
}

/// Conversations by session id.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<HashMap<String, Session>>,
    next: Mutex<u64>,
}

/// Holds a session for the length of one chat and puts it back when dropped, so a cancelled
/// chat keeps every step it completed.
pub struct Lease<'a> {
    sessions: &'a Sessions,
    pub id: String,
    pub session: Option<Session>,
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            self.sessions
                .sessions
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(self.id.clone(), session);
        }
    }
}

impl Sessions {
    /// Takes the named session (or a new one) out for a chat.
    ///
    /// # Errors
    /// The session is unknown or already in use by another chat.
    pub fn lease(&self, id: Option<&str>) -> Result<Lease<'_>, String> {
        let mut sessions = self
            .sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match id {
            Some(id) => {
                let session = sessions
                    .remove(id)
                    .ok_or_else(|| format!("unknown or busy session '{id}'"))?;
                Ok(Lease {
                    sessions: self,
                    id: id.to_owned(),
                    session: Some(session),
                })
            }
            None => {
                let mut next = self
                    .next
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                *next += 1;
                Ok(Lease {
                    sessions: self,
                    id: format!("chat-{}", *next),
                    session: Some(Session::new()),
                })
            }
        }
    }
}

/// Asks the user in the editor: Allow once / Allow for this chat / Deny.
pub struct EditorApprover {
    pub client: Client,
}

const ALLOW_ONCE: &str = "Allow once";
const ALLOW_CHAT: &str = "Allow for this chat";
const DENY: &str = "Deny";

impl Approver for EditorApprover {
    fn ask<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let actions = [ALLOW_ONCE, ALLOW_CHAT, DENY]
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

/// The JSON of one `skill/agentEvent`.
#[must_use]
pub fn event_json(session_id: &str, event: &AgentEvent) -> Value {
    match event {
        AgentEvent::Text(text) => json!({"sessionId": session_id, "kind": "text", "text": text}),
        AgentEvent::ToolCall { id, name, input } => {
            json!({"sessionId": session_id, "kind": "toolCall", "id": id, "name": name, "input": input})
        }
        AgentEvent::ToolResult {
            id,
            name,
            content,
            is_error,
        } => {
            let preview: String = content.chars().take(2_000).collect();
            json!({"sessionId": session_id, "kind": "toolResult", "id": id, "name": name, "isError": is_error, "content": preview})
        }
    }
}

/// Armed for the length of one chat: if the request is cancelled (its future dropped) before
/// the loop ends, the client still gets a closing `skill/agentEvent` (`done`, stop reason
/// `cancelled`, with the session id, so a chat cancelled before its first event can be
/// continued) and the `$/progress` end, so nobody waits for them in vain.
pub struct CancelNotice {
    pub events: tokio::sync::mpsc::UnboundedSender<Value>,
    pub client: Client,
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
        let _ = self
            .events
            .send(json!({"sessionId": self.session_id, "kind": "done", "stopReason": "cancelled"}));
        let (Some(token), Ok(runtime)) =
            (self.token.clone(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let client = self.client.clone();
        runtime.spawn(async move {
            use tower_lsp_server::ls_types::notification::Progress;
            use tower_lsp_server::ls_types::{
                ProgressParams, ProgressParamsValue, WorkDoneProgress, WorkDoneProgressEnd,
            };
            client
                .send_notification::<Progress>(ProgressParams {
                    token,
                    value: ProgressParamsValue::WorkDone(WorkDoneProgress::End(
                        WorkDoneProgressEnd {
                            message: Some("cancelled".to_owned()),
                        },
                    )),
                })
                .await;
        });
    }
}
