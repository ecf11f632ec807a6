//! Fault injection: the file system changing under a `check` run and under the server's index,
//! special files where a SKILL.md should be, huge folders and lines, request storms and
//! cancellation of every request type. Each run must report and go on, answer everything, keep
//! its memory bounded and end cleanly.

use crate::lsp_client;
use crate::process::finish;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use lsp_client::{BIN, Client, lsp_uri};
use serde_json::{Value, json};
use skill_lsp::lsp::ext::{Catalog, CatalogParams, LoadSkill, LoadSkillParams};
use tower_lsp_server::ls_types as lsp;

fn skill(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use when asked about {name}.\n---\n# {name}\n\nSteps.\n"
    )
}

fn write(path: &Path, text: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn check(dir: &Path, args: &[&str]) -> Output {
    let child = Command::new(BIN)
        .arg("check")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child, "check")
}

/// Peak resident memory of a process, in MiB.
fn peak_rss_mib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024
}

/// Deletes, renames, swaps for folders or FIFOs, and restores skills until dropped (also when a
/// test fails, so it never outlives its folder).
struct Churn {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl Churn {
    fn start(root: PathBuf, count: usize) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut round = 0usize;
            while !flag.load(Ordering::SeqCst) {
                let index = (round * 7919) % count;
                let folder = root.join(format!("s{index}"));
                let file = folder.join("SKILL.md");
                match round % 5 {
                    0 => {
                        let _ = fs::remove_file(&file);
                    }
                    1 => {
                        let _ = fs::rename(&file, folder.join("moved.md"));
                    }
                    2 => {
                        let _ = fs::remove_file(&file);
                        let _ = fs::create_dir(&file);
                    }
                    3 => {
                        let _ = fs::remove_file(&file);
                        let _ = Command::new("mkfifo")
                            .arg(&file)
                            .stderr(Stdio::null())
                            .status();
                    }
                    _ => {
                        let _ = fs::remove_dir(&file);
                        let _ = fs::remove_file(&file);
                        let _ = fs::write(&file, skill(&format!("s{index}")));
                    }
                }
                round += 1;
            }
            round
        });
        Self {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the churn; returns how many changes it made.
    fn stop(mut self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        self.thread
            .take()
            .map_or(0, |thread| thread.join().unwrap_or(0))
    }
}

impl Drop for Churn {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[test]
fn check_reports_and_goes_on_while_files_vanish_and_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    let count = 1500;
    for index in 0..count {
        write(
            &root.join(format!("s{index}/SKILL.md")),
            skill(&format!("s{index}")),
        );
    }
    let churn = Churn::start(root.clone(), count);
    for _ in 0..4 {
        let output = check(dir.path(), &["skills", "--format", "json"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        // 0 clean, 1 findings, 2 something could not be read: never a crash.
        assert!(
            matches!(output.status.code(), Some(0..=2)),
            "{:?}: {stderr}",
            output.status
        );
        let report: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|error| panic!("the JSON report is whole ({error}): {stderr}"));
        assert!(report["checked"]["files"].as_u64().unwrap() > 0, "{report}");
        // Whatever could not be read is named.
        for line in stderr.lines().filter(|line| line.contains("cannot read")) {
            assert!(line.contains("SKILL.md"), "{line}");
        }
    }
    assert!(churn.stop() > 0);
}

#[test]
fn special_files_and_growing_files_cannot_hang_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    write(&root.join("good/SKILL.md"), skill("good"));
    mkfifo(&root.join("fifo/SKILL.md"));
    fs::create_dir_all(root.join("zero")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero/SKILL.md")).unwrap();
    // A file that a writer keeps appending to for the whole run.
    let growing = root.join("grow/SKILL.md");
    write(&growing, skill("grow"));
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let stop = Arc::clone(&stop);
        let growing = growing.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut file = fs::OpenOptions::new().append(true).open(&growing).unwrap();
            let line = "More text keeps arriving while the file is read.\n".repeat(2000);
            let mut written = 0usize;
            while !stop.load(Ordering::SeqCst) && written < 200 * 1024 * 1024 {
                file.write_all(line.as_bytes()).unwrap();
                written += line.len();
            }
        })
    };
    let output = check(dir.path(), &["skills", "--format", "json"]);
    stop.store(true, Ordering::SeqCst);
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("fifo/SKILL.md") && stderr.contains("not a regular file"),
        "{stderr}"
    );
    assert!(stderr.contains("zero/SKILL.md"), "{stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    // The growing file is either read whole or, past the 64 MiB cap, reported: never a hang.
    let files = report["checked"]["files"].as_u64().unwrap();
    let grow_reported = stderr
        .lines()
        .any(|line| line.contains("grow/SKILL.md") && line.contains("larger than"));
    assert!(
        files == 2 || (files == 1 && grow_reported),
        "{report} {stderr}"
    );
    // The loader skips what it cannot read; the catalog still lists the real skills.
    let catalog = Command::new(BIN)
        .args(["catalog", "."])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let catalog = finish(catalog, "catalog");
    let listing = String::from_utf8_lossy(&catalog.stdout);
    assert!(listing.contains("- good: "), "{listing}");
    assert!(!listing.contains("fifo"), "{listing}");
}

#[test]
fn a_skills_root_that_is_a_symlink_loop_ends() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("real/a/SKILL.md"), skill("a"));
    // `skills` points at the workspace itself, and a skill folder points back at its root.
    std::os::unix::fs::symlink(dir.path(), dir.path().join("skills")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("real/a/up")).unwrap();
    for args in [&["skills"][..], &["."], &["real"]] {
        let output = check(dir.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(
            matches!(output.status.code(), Some(0..=2)),
            "{args:?}: {stderr}"
        );
    }
    let catalog = Command::new(BIN)
        .args(["catalog", "."])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(catalog.status.success(), "{catalog:?}");
}

/// A scratch folder in memory where there is one: creating 100,000 files on an overlay disk
/// takes a minute, on tmpfs a second.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in("/dev/shm").unwrap_or_else(|_| tempfile::tempdir().unwrap())
}

#[test]
fn a_folder_of_100000_entries() {
    let dir = scratch();
    let root = dir.path().join("skills");
    fs::create_dir_all(&root).unwrap();
    for index in 0..100_000 {
        fs::File::create(root.join(format!("note-{index}.txt"))).unwrap();
    }
    for name in ["alpha", "beta", "gamma"] {
        write(&root.join(format!("{name}/SKILL.md")), skill(name));
    }
    let output = check(dir.path(), &["skills", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["checked"]["files"], 3, "{report}");
    let catalog = Command::new(BIN)
        .args(["catalog", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&catalog.stdout);
    assert_eq!(listing.lines().count(), 3, "{listing}");
    // The server indexes the same folder and answers.
    let mut client = Client::start_in(dir, json!({}), &[]);
    let catalog = client.ask::<Catalog>(CatalogParams {});
    assert_eq!(catalog["skills"].as_array().unwrap().len(), 3, "{catalog}");
    client.shutdown();
}

#[test]
fn the_index_survives_files_vanishing_while_it_is_built() {
    let files: Vec<(String, String)> = (0..1500)
        .map(|index| {
            (
                format!("skills/s{index}/SKILL.md"),
                skill(&format!("s{index}")),
            )
        })
        .collect();
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    let mut client = Client::start(&borrowed, json!({}));
    let churn = Churn::start(client.path("skills"), 1500);
    for _ in 0..5 {
        let catalog = client.ask::<Catalog>(CatalogParams {});
        assert!(
            catalog["skills"].as_array().unwrap().len() > 1000,
            "{}",
            catalog["skills"].as_array().unwrap().len()
        );
        let changes = (0..50)
            .map(|index| {
                let uri = client.uri(&format!("skills/s{}/SKILL.md", index * 29));
                lsp::FileEvent::new(lsp_uri(&uri), lsp::FileChangeType::CHANGED)
            })
            .collect();
        client.tell::<lsp::notification::DidChangeWatchedFiles>(lsp::DidChangeWatchedFilesParams {
            changes,
        });
    }
    assert!(churn.stop() > 0);
    let catalog = client.ask::<Catalog>(CatalogParams {});
    assert!(catalog["prompt"].as_str().unwrap().contains("- s"));
    client.shutdown();
}

#[test]
fn a_storm_of_10000_completions_is_answered_with_bounded_memory() {
    let text = skill("pdf");
    let mut client = Client::start(&[("skills/pdf/SKILL.md", text.as_str())], json!({}));
    let uri = client.open("skills/pdf/SKILL.md", &text);
    let mut frames = Vec::new();
    for id in 0..10_000 {
        let message = json!({"jsonrpc": "2.0", "id": 100_000 + id, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 0}}});
        frames.extend(lsp_client::frame(message.to_string().as_bytes()));
    }
    client.send_raw(&frames);
    let mut answered = 0;
    while answered < 10_000 {
        let response = client.wait(|m| {
            m["id"].as_i64().is_some_and(|id| id >= 100_000) && m.get("method").is_none()
        });
        assert!(response.get("error").is_none(), "{response}");
        answered += 1;
    }
    let peak = peak_rss_mib(client.child.id());
    assert!(peak < 512, "peak RSS {peak} MiB");
    client.shutdown();
}

#[test]
fn every_request_type_can_be_cancelled_and_the_server_goes_on() {
    let text = skill("pdf") + "See /pdf for more.\n";
    let mut client = Client::start(&[("skills/pdf/SKILL.md", text.as_str())], json!({}));
    let uri = client.open("skills/pdf/SKILL.md", &text);
    let document = json!({"uri": uri});
    let at = json!({"line": 1, "character": 7});
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 8, "character": 0}});
    let requests = [
        (
            "textDocument/completion",
            json!({"textDocument": document, "position": at}),
        ),
        (
            "textDocument/hover",
            json!({"textDocument": document, "position": at}),
        ),
        (
            "textDocument/codeAction",
            json!({"textDocument": document, "range": range, "context": {"diagnostics": []}}),
        ),
        (
            "textDocument/documentSymbol",
            json!({"textDocument": document}),
        ),
        (
            "textDocument/documentLink",
            json!({"textDocument": document}),
        ),
        (
            "textDocument/inlayHint",
            json!({"textDocument": document, "range": range}),
        ),
        (
            "textDocument/definition",
            json!({"textDocument": document, "position": {"line": 6, "character": 5}}),
        ),
        (
            "textDocument/references",
            json!({"textDocument": document, "position": at, "context": {"includeDeclaration": true}}),
        ),
        (
            "textDocument/prepareRename",
            json!({"textDocument": document, "position": at}),
        ),
        (
            "textDocument/rename",
            json!({"textDocument": document, "position": at, "newName": "pdf-two"}),
        ),
        ("textDocument/diagnostic", json!({"textDocument": document})),
        ("workspace/diagnostic", json!({"previousResultIds": []})),
        (
            "workspace/executeCommand",
            json!({"command": "skill/catalog", "arguments": [{}]}),
        ),
        ("skill/catalog", json!({})),
        ("skill/loadSkill", json!({"name": "pdf"})),
        ("skill/agentChat", json!({"prompt": "hello"})),
    ];
    for (index, (method, params)) in requests.iter().enumerate() {
        let id = 5000 + i64::try_from(index).unwrap();
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        client.notify("$/cancelRequest", json!({"id": id}));
        // Every request is answered once: its result, an error, or "cancelled".
        let response = client.wait(|m| m["id"] == id && m.get("method").is_none());
        if let Some(error) = response.get("error") {
            assert_ne!(error["code"], -32603, "{method}: {response}");
        }
    }
    // Cancelling what is already answered, or never was, changes nothing.
    client.notify("$/cancelRequest", json!({"id": 5000}));
    client.notify("$/cancelRequest", json!({"id": "no-such-request"}));
    let load = client.ask::<LoadSkill>(LoadSkillParams { name: "pdf".into() });
    assert_eq!(load["content"], text.as_str());
    client.shutdown();
}

#[test]
fn a_one_megabyte_line_is_linted_edited_and_completed() {
    let long = "x".repeat(1024 * 1024);
    let text = format!("---\nname: pdf\ndescription: {long}\n---\nBody\n");
    let mut client = Client::start(&[], json!({}));
    let uri = client.open("skills/pdf/SKILL.md", &text);
    let diagnostics = client.diagnostics(&uri, Some(1));
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "description-length"),
        "{diagnostics:?}"
    );
    // Edits and a completion at the far end of the long line.
    for version in 2..12 {
        client.change(
            &uri,
            version,
            json!([{"range": {"start": {"line": 2, "character": 1_048_000}, "end": {"line": 2, "character": 1_048_001}}, "text": "y"}]),
        );
    }
    let diagnostics = client.diagnostics(&uri, Some(11));
    assert!(!diagnostics.is_empty());
    for method in ["textDocument/hover", "textDocument/completion"] {
        let response = client.request_raw(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 1_000_000}}),
        );
        assert!(response.get("error").is_none(), "{method}: {response}");
    }
    let peak = peak_rss_mib(client.child.id());
    assert!(peak < 512, "peak RSS {peak} MiB");
    client.shutdown();
}
