//! `$/progress` on a work-done token: the one way the server reports begin, report and end,
//! whether it created the token (indexing) or the client passed it (a chat).

use tower_lsp_server::Client;

use super::outgoing::Outgoing;
use tower_lsp_server::ls_types::notification::Progress;
use tower_lsp_server::ls_types::request::WorkDoneProgressCreate;
use tower_lsp_server::ls_types::{
    ProgressParams, ProgressParamsValue, ProgressToken, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressCreateParams, WorkDoneProgressEnd, WorkDoneProgressReport,
};

/// Asks the client to show progress on a token of ours; false if it would not.
pub async fn create(client: &Client, token: &ProgressToken) -> bool {
    client
        .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
            token: token.clone(),
        })
        .await
        .is_ok()
}

/// Sends one `$/progress` notification, in order with the request's other notifications and
/// before its response.
pub(crate) async fn send(outgoing: &Outgoing, token: &ProgressToken, value: WorkDoneProgress) {
    outgoing
        .notify::<Progress>(ProgressParams {
            token: token.clone(),
            value: ProgressParamsValue::WorkDone(value),
        })
        .await;
}

#[must_use]
pub fn begin(title: &str, cancellable: bool, message: String) -> WorkDoneProgress {
    WorkDoneProgress::Begin(WorkDoneProgressBegin {
        title: title.to_owned(),
        cancellable: Some(cancellable),
        message: Some(message),
        percentage: None,
    })
}

/// A report of cancellable work (the only kind that reports).
#[must_use]
pub fn report(message: String) -> WorkDoneProgress {
    WorkDoneProgress::Report(WorkDoneProgressReport {
        cancellable: Some(true),
        message: Some(message),
        percentage: None,
    })
}

#[must_use]
pub fn end(message: String) -> WorkDoneProgress {
    WorkDoneProgress::End(WorkDoneProgressEnd {
        message: Some(message),
    })
}
