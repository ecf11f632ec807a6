//! The language server (design.md §7) over stdio: our framing layer in front of
//! tower-lsp-server, logs on stderr, stdout for the protocol only.

pub(crate) mod agent_chat;
pub(crate) mod backend;
pub(crate) mod capabilities;
pub(crate) mod catalog;
pub(crate) mod chat_sessions;
pub(crate) mod convert;
pub(crate) mod diagnostics;
pub mod documents;
pub(crate) mod eval_results;
pub(crate) mod evals;
pub mod ext;
pub(crate) mod folders;
pub mod framing;
pub(crate) mod handlers;
pub(crate) mod improve;
pub(crate) mod indexing;
pub(crate) mod notifications;
pub(crate) mod outgoing;
pub mod progress;
pub(crate) mod server;
pub(crate) mod settings;
pub(crate) mod snapshot;
pub(crate) mod state;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tower_lsp_server::Server;

/// Logs go to stderr; `SKILL_LSP_LOG` (or `RUST_LOG`) sets the filter, default `warn`.
fn init_tracing() {
    let filter = std::env::var("SKILL_LSP_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "warn".to_owned());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// Serves one client on `input`/`output` until it exits or goes away.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    let (frames, outgoing) = mpsc::unbounded_channel();
    let writer = tokio::spawn(framing::write_frames(output, outgoing));
    let reader = tokio::spawn(framing::pump_input(input, to_server, frames.clone()));
    let (service, socket) = server::build(Some(frames.clone()));
    let relay = tokio::spawn(framing::pump_output(from_server, frames));
    let mut server = Box::pin(Server::new(server_input, server_output, socket).serve(service));
    let mut reader = reader;
    tokio::select! {
        () = &mut server => {
            // The server is done (exit): stop reading, as stdin may stay open.
            reader.abort();
            let _ = reader.await;
        }
        ended = &mut reader => {
            // The client said `exit` or is gone. An idle server ends at once. A handler may
            // still be waiting, on the model, on an approval, or on the client itself (a
            // `client/registerCapability` sent while the client was shutting down is never
            // answered, as the server stops reading at `exit`): it gets a moment, then is
            // dropped, so the process never outlives its editor.
            if tokio::time::timeout(LAST_REQUESTS_GRACE, &mut server).await.is_err() {
                let why = match ended {
                    Ok(framing::InputEnd::Exit) => "the client sent exit",
                    _ => "the client closed stdin",
                };
                tracing::info!("{why} with requests in flight; dropping them");
            }
        }
    }
    // Dropping the server drops its pending requests and closes its output pipe.
    drop(server);
    let _ = relay.await;
    let _ = writer.await;
}

/// How long requests may run on after the client sent `exit` or closed stdin.
const LAST_REQUESTS_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// Runs the server on stdin/stdout; returns the process exit code.
#[must_use]
pub(crate) fn run() -> u8 {
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!("cannot start the async runtime: {error}");
            return 2;
        }
    };
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // A blocked stdin read must not keep the process alive.
    runtime.shutdown_background();
    0
}
