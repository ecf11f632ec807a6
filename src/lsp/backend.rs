//! The `Backend`: the server's shared state, which every handler module reaches through it. The
//! entry points that route requests to those modules are in `server`.

use std::sync::{Arc, Mutex, MutexGuard};

use tower_lsp_server::Client;
use tower_lsp_server::ls_types::Uri;

use super::chat_sessions::Sessions;
use super::outgoing::Outgoing;
use super::snapshot::Snapshot;
use super::state::State;

pub(crate) struct Backend {
    pub(super) client: Client,
    /// Notifications that must reach the client before their request's response.
    pub(super) outgoing: Outgoing,
    pub(super) state: Arc<Mutex<State>>,
    /// Serialises "is this still the newest version? then publish" so stale diagnostics never
    /// overtake fresh ones.
    pub(super) publish_lock: tokio::sync::Mutex<()>,
    /// True once the workspace folders are indexed; what needs the registry waits for it.
    pub(super) ready: tokio::sync::watch::Sender<bool>,
    pub(super) sessions: Sessions,
}

impl Backend {
    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waits until the initial index is built (bounded, so a stuck client cannot hang requests).
    pub(super) async fn wait_ready(&self) {
        let mut ready = self.ready.subscribe();
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(30),
            ready.wait_for(|ready| *ready),
        )
        .await;
    }

    /// The snapshot of an open document, taken under the lock.
    pub(super) fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        Snapshot::take(&self.lock(), uri)
    }
}
