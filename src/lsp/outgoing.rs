//! Notifications that must reach the client before the response of the request that sent them.
//!
//! tower-lsp-server queues what a handler sends through its `Client` apart from responses and
//! writes from both queues in turn, so a chat's `$/progress` end could be written after the
//! `skill/agentChat` response, when the client's token is no longer valid. `Outgoing` writes a
//! request's notifications straight into our framing layer's output queue instead: they are
//! there, in order, before the handler returns, and the response can only follow them.

use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;
use tower_lsp_server::Client;
use tower_lsp_server::ls_types::notification::Notification;

#[derive(Clone)]
pub(crate) struct Outgoing {
    client: Client,
    /// The framing layer's output queue; `None` when the server runs without that layer (in
    /// process, in unit tests), where the client's own queue is all there is. Weak, so that a
    /// task still holding the backend cannot keep the output open after the server is done.
    direct: Option<mpsc::WeakUnboundedSender<Vec<u8>>>,
}

impl Outgoing {
    pub(crate) fn new(client: Client, direct: Option<mpsc::UnboundedSender<Vec<u8>>>) -> Self {
        Self {
            client,
            direct: direct.as_ref().map(mpsc::UnboundedSender::downgrade),
        }
    }

    /// Sends one notification, after every notification sent here before it.
    pub(crate) async fn notify<N>(&self, params: N::Params)
    where
        N: Notification,
        N::Params: Serialize,
    {
        match &self.direct {
            Some(direct) => {
                let Some(direct) = direct.upgrade() else {
                    return; // The output is closed: nobody is listening any more.
                };
                let message = json!({"jsonrpc": "2.0", "method": N::METHOD, "params": params});
                match serde_json::to_vec(&message) {
                    Ok(body) => {
                        let _ = direct.send(body);
                    }
                    Err(error) => tracing::warn!("cannot encode {}: {error}", N::METHOD),
                }
            }
            None => self.client.send_notification::<N>(params).await,
        }
    }
}
