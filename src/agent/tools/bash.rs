//! `bash`: a command in the workspace, in its own process group, with a time limit and an output
//! cap. On timeout or when the call is cancelled the whole group is killed, grandchildren too.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::AsyncReadExt;

use super::{ToolOutput, string_arg};

pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Output beyond this many bytes is cut, with a note.
pub(crate) const OUTPUT_CAP: usize = 30_000;
/// The variables the providers read their API keys from: commands do not inherit them, so that
/// `env`, `printenv` or a chatty script cannot copy the key into a tool result (and from there
/// into the transcript, the editor's events and the next request).
pub(crate) const KEY_VARIABLES: [&str; 2] = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"];

/// Kills a process group when dropped (the call finished, timed out or was cancelled).
struct GroupGuard(Option<u32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pgid) = self.0 {
            // No `unsafe` for kill(2): the kill command reaches the whole group.
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{pgid}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }
}

fn cap(text: &mut String, label: &str) {
    if text.len() > OUTPUT_CAP {
        let total = text.len();
        text.truncate(crate::text::floor_char_boundary(text, OUTPUT_CAP));
        text.push_str(&format!(
            "\n[{label} truncated: {total} bytes, the first {OUTPUT_CAP} shown]"
        ));
    }
}

/// Keeps a little more than the cap of a stream and discards the rest, so that a flood neither
/// fills memory nor blocks the writer on a full pipe.
async fn drain<R: tokio::io::AsyncRead + Unpin>(stream: Option<&mut R>) -> Vec<u8> {
    let mut kept = Vec::new();
    if let Some(stream) = stream {
        let limit = (OUTPUT_CAP + 1024) as u64;
        let _ = (&mut *stream).take(limit).read_to_end(&mut kept).await;
        let _ = tokio::io::copy(stream, &mut tokio::io::sink()).await;
    }
    kept
}

pub(crate) async fn run(workspace: &Path, input: &Value) -> ToolOutput {
    let command = match string_arg(input, "command") {
        Ok(command) => command.to_owned(),
        Err(error) => return error,
    };
    let timeout = input
        .get("timeout_ms")
        .and_then(Value::as_u64)
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
        .min(Duration::from_secs(600));
    let mut bash = tokio::process::Command::new("bash");
    for variable in KEY_VARIABLES {
        bash.env_remove(variable);
    }
    let mut child = match bash
        .arg("-c")
        .arg(&command)
        .current_dir(workspace)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
    {
        Ok(child) => child,
        Err(error) => return ToolOutput::error(format!("cannot start bash: {error}")),
    };
    let mut guard = GroupGuard(child.id());
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let read_all = async {
        let (out, err) = tokio::join!(drain(stdout.as_mut()), drain(stderr.as_mut()));
        let status = child.wait().await;
        (out, err, status)
    };
    let Ok((out, err, status)) = tokio::time::timeout(timeout, read_all).await else {
        drop(guard);
        return ToolOutput::error(format!(
            "the command timed out after {} ms and was killed: {command}",
            timeout.as_millis()
        ));
    };
    guard.0 = None;
    let mut stdout = String::from_utf8_lossy(&out).into_owned();
    let mut stderr = String::from_utf8_lossy(&err).into_owned();
    cap(&mut stdout, "stdout");
    cap(&mut stderr, "stderr");
    let code = status.ok().and_then(|status| status.code());
    let mut content = stdout;
    if !stderr.is_empty() {
        if !content.is_empty() && !content.ends_with('\n') {
            content.push('\n');
        }
        content.push_str("[stderr]\n");
        content.push_str(&stderr);
    }
    match code {
        Some(0) => ToolOutput::ok(if content.is_empty() {
            "(no output)".to_owned()
        } else {
            content
        }),
        Some(code) => ToolOutput::error(format!("exit code {code}\n{content}")),
        None => ToolOutput::error(format!("the command was killed by a signal\n{content}")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[tokio::test]
    async fn runs_in_the_workspace_and_reports_exit_codes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("here.txt"), "x").unwrap();
        assert_eq!(
            run(dir.path(), &json!({"command": "ls"})).await,
            ToolOutput::ok("here.txt\n")
        );
        let failed = run(dir.path(), &json!({"command": "echo oops >&2; exit 3"})).await;
        assert!(
            failed.is_error
                && failed.content.starts_with("exit code 3")
                && failed.content.contains("oops")
        );
    }

    #[tokio::test]
    async fn output_is_capped_and_timeouts_kill_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let flood = run(dir.path(), &json!({"command": "yes | head -c 200000"})).await;
        assert!(
            flood.content.contains("[stdout truncated: "),
            "{}",
            &flood.content[flood.content.len() - 100..]
        );
        let marker = dir.path().join("survivor");
        let command = format!("(sleep 1; touch {}) & sleep 30", marker.display());
        let slow = run(dir.path(), &json!({"command": command, "timeout_ms": 200})).await;
        assert!(slow.content.contains("timed out after 200 ms"));
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert!(
            !marker.exists(),
            "the background grandchild was killed with the group"
        );
    }
}
