//! The server's chat sessions: each `skill/agentChat` leases its conversation by id and puts it
//! back when it ends (or is cancelled), so a follow-up continues where the last chat stopped.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::agent::Session;

/// Conversations by session id.
#[derive(Default)]
pub(crate) struct Sessions {
    sessions: Mutex<HashMap<String, Session>>,
    next: Mutex<u64>,
}

/// Holds a session for the length of one chat and puts it back when dropped, so a cancelled
/// chat keeps every step it completed.
pub(crate) struct Lease<'a> {
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
    pub(crate) fn lease(&self, id: Option<&str>) -> std::result::Result<Lease<'_>, String> {
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
