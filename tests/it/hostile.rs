//! A hostile repository against `check`, `check --fix` and the readers: planted links and
//! FIFOs at the names a writer might use, files linked out of the tree, a second writer saving
//! while `--fix` runs, files too large, in other encodings or not files at all. Nothing outside
//! the tree may be read into the output, written or chmodded; no save may be lost; every case
//! ends with a clear message naming the path.

use crate::lsp_client::BIN;
use crate::process::finish;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// A skill with one finding `--fix` fixes (the unquoted `: ` in its description), tagged `tag`.
fn fixable(tag: &str) -> String {
    format!(
        "---\nname: pdf\ndescription: Fills PDF forms. Use when: the user says fill\n---\n# PDF\n\n{tag}\n"
    )
}

fn write(path: &Path, text: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("SKILL_LSP_CANARY_SECRET", "canary-secret-4417")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child, &format!("{args:?}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The process ids the next few thousand processes will likely get: the old writer named its
/// temporary file after its own.
fn next_pids(count: u32) -> std::ops::Range<u32> {
    let last: u32 = fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(1);
    last + 1..last + 1 + count
}

#[test]
fn links_planted_at_temporary_names_cannot_make_fix_write_or_chmod_outside() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let canary = outside.path().join("canary");
    fs::write(&canary, "canary").unwrap();
    fs::set_permissions(&canary, fs::Permissions::from_mode(0o600)).unwrap();
    let skill = dir.path().join("skills/pdf/SKILL.md");
    write(&skill, fixable("body"));
    fs::set_permissions(&skill, fs::Permissions::from_mode(0o755)).unwrap();
    // Every name the old writer could pick for the next processes, and the rename's.
    for pid in next_pids(3_000) {
        for name in [
            format!(".SKILL.md.skill-lsp-{pid}.tmp"),
            format!(".skill-lsp-rename-{pid}.tmp"),
        ] {
            std::os::unix::fs::symlink(&canary, skill.with_file_name(name)).unwrap();
        }
    }
    let output = run(dir.path(), &["check", "--fix", "skills"]);
    assert_eq!(fs::read_to_string(&canary).unwrap(), "canary");
    let mode = fs::metadata(&canary).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the canary was chmodded");
    let fixed = fs::read_to_string(&skill).unwrap();
    assert!(
        fixed.contains("description: \"Fills PDF forms. Use when: the user says fill\""),
        "{fixed}\n{}",
        text(&output.stderr)
    );
    let mode = fs::metadata(&skill).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o755, "the fixed file keeps its permissions");
    let left = fs::read_dir(skill.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".skill-lsp"))
        .count();
    assert_eq!(left, 0, "a temporary file was left behind");
}

#[test]
fn fifos_planted_at_temporary_names_cannot_block_fix() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/pdf/SKILL.md");
    write(&skill, fixable("body"));
    // Made by one process, so that the pids named stay free for `check`.
    let pids = next_pids(3_000);
    let made = Command::new("python3")
        .args([
            "-c",
            "import os, sys\nfor pid in range(int(sys.argv[2]), int(sys.argv[3])):\n    os.mkfifo(os.path.join(sys.argv[1], f'.SKILL.md.skill-lsp-{pid}.tmp'))",
        ])
        .arg(skill.parent().unwrap())
        .arg(pids.start.to_string())
        .arg(pids.end.to_string())
        .status()
        .unwrap();
    assert!(made.success());
    let output = run(dir.path(), &["check", "--fix", "skills"]);
    assert!(
        fs::read_to_string(&skill).unwrap().contains("\"Fills PDF"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn a_file_linked_out_of_the_tree_is_never_read_into_the_output_nor_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    // Fixable, so that a writer following the link would change it.
    fs::write(&secret, fixable("TOKEN=outside-secret-9931")).unwrap();
    let link = dir.path().join("skills/leak/SKILL.md");
    fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    let environ = dir.path().join("skills/env/SKILL.md");
    fs::create_dir_all(environ.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", &environ).unwrap();
    // A folder link out of the tree, as `.claude/skills/x -> ~/elsewhere/x`.
    let elsewhere = outside.path().join("x");
    write(&elsewhere.join("SKILL.md"), fixable("folder-secret-5521"));
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("skills/x")).unwrap();
    let before = fs::read(elsewhere.join("SKILL.md")).unwrap();

    for format in ["human", "json", "sarif", "github"] {
        let output = run(dir.path(), &["check", "--format", format, "."]);
        let all = text(&output.stdout) + &text(&output.stderr);
        for leaked in [
            "outside-secret-9931",
            "canary-secret-4417",
            "folder-secret-5521",
        ] {
            assert!(!all.contains(leaked), "{format} printed {leaked}: {all}");
        }
        assert_eq!(output.status.code(), Some(2), "{all}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("skills/leak/SKILL.md: it links to")
                && stderr.contains("secret.md, outside the folders being checked"),
            "{stderr}"
        );
        assert!(
            stderr.contains("skills/env/SKILL.md: it links to /proc/"),
            "{stderr}"
        );
    }
    let output = run(dir.path(), &["check", "--fix", "."]);
    assert!(
        fs::read_to_string(&secret)
            .unwrap()
            .contains("Use when: the user"),
        "the file outside was fixed: {}",
        text(&output.stderr)
    );
    assert_eq!(fs::read(elsewhere.join("SKILL.md")).unwrap(), before);
}

#[test]
fn a_link_inside_the_tree_is_fixed_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("common/pdf/SKILL.md");
    write(&real, fixable("body"));
    fs::create_dir_all(dir.path().join("skills/pdf")).unwrap();
    let link = dir.path().join("skills/pdf/SKILL.md");
    std::os::unix::fs::symlink("../../common/pdf/SKILL.md", &link).unwrap();
    // Named alone, `skills` does not hold `common`: the link leaves the folders named.
    let output = run(dir.path(), &["check", "--fix", "skills"]);
    assert!(
        text(&output.stderr).contains("outside the folders being checked; not written"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), fixable("body"));
    // In a git work tree, the whole tree is the user's.
    fs::create_dir(dir.path().join(".git")).unwrap();
    let output = run(dir.path(), &["check", "--fix", "skills"]);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a copy"
    );
    assert!(
        fs::read_to_string(&real).unwrap().contains("\"Fills PDF"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn fix_loses_no_save_made_while_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/pdf/SKILL.md");
    write(&skill, fixable("save 0"));
    let saved = Arc::new(AtomicUsize::new(0));
    let lost = Arc::new(AtomicUsize::new(0));
    for round in 0..100 {
        let stop = Arc::new(AtomicBool::new(false));
        let saver = {
            let (stop, saved, lost, skill) =
                (stop.clone(), saved.clone(), lost.clone(), skill.clone());
            std::thread::spawn(move || {
                let mut n = saved.load(Ordering::SeqCst);
                while !stop.load(Ordering::SeqCst) {
                    n += 1;
                    fs::write(&skill, fixable(&format!("save {n}"))).unwrap();
                    std::thread::sleep(Duration::from_micros(300 + (n as u64 * 37) % 900));
                    // The save must still be there (fixed or not) until the next one.
                    let now = fs::read_to_string(&skill).unwrap_or_default();
                    if !now.contains(&format!("save {n}\n")) {
                        lost.fetch_add(1, Ordering::SeqCst);
                    }
                }
                saved.store(n, Ordering::SeqCst);
            })
        };
        let output = run(dir.path(), &["check", "--fix", "skills"]);
        stop.store(true, Ordering::SeqCst);
        saver.join().unwrap();
        let stderr = text(&output.stderr);
        assert!(!stderr.contains("panicked"), "round {round}: {stderr}");
    }
    assert_eq!(
        lost.load(Ordering::SeqCst),
        0,
        "saves were reverted by --fix"
    );
    let last = saved.load(Ordering::SeqCst);
    assert!(
        fs::read_to_string(&skill)
            .unwrap()
            .contains(&format!("save {last}\n"))
    );
}

#[test]
fn a_file_over_the_size_limit_is_named_and_never_cut() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/big/SKILL.md");
    let mut big = fixable("big").into_bytes();
    big.resize(64 * 1024 * 1024 + 10, b'x');
    write(&skill, &big);
    for args in [&["check", "--fix", "skills"][..], &["check", "skills"]] {
        let output = run(dir.path(), args);
        assert_eq!(
            fs::metadata(&skill).unwrap().len(),
            big.len() as u64,
            "{args:?}"
        );
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("skills/big/SKILL.md")
                && stderr.contains("67,108,874 bytes, over the 64 MiB limit"),
            "{args:?}: {stderr}"
        );
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    assert!(fs::read(&skill).unwrap() == big, "the file changed");
}

#[test]
fn things_that_are_not_utf8_files_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("skills/folder/SKILL.md")).unwrap();
    let skill = "---\nname: wide\ndescription: Does things. Use when asked.\n---\nBody\n";
    let wide: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(skill.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    write(&dir.path().join("skills/wide/SKILL.md"), &wide);
    let bare: Vec<u8> = skill.encode_utf16().flat_map(u16::to_be_bytes).collect();
    write(&dir.path().join("skills/bare/SKILL.md"), &bare);
    let output = run(dir.path(), &["check", "skills"]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(
        stderr.contains("skills/folder/SKILL.md: a folder, not a file"),
        "{stderr}"
    );
    assert!(
        stdout.contains("the file is UTF-16LE text, not UTF-8"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the file is UTF-16BE text, not UTF-8"),
        "{stdout}"
    );
    assert!(!stdout.contains("missing-frontmatter"), "{stdout}");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn file_text_is_shown_on_the_terminal_and_in_ci_logs_never_obeyed() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "---\nname: esc\ndescription: \"Clears \\e[2J\\e]0;pwned\\a the screen. Use when asked.\"\n\"bad\\e[31mkey\\n::error file=x.md::forged\": 1\n---\nSee [a](missing\u{1b}[8m.md) and \u{202e}txt.exe\n";
    write(&dir.path().join("skills/esc/SKILL.md"), hostile);
    // A folder whose name holds a line break and a workflow command: it reaches stderr.
    let folder = dir.path().join("skills/x\n::error file=y::forged\u{1b}[2J");
    fs::create_dir_all(folder.join("SKILL.md")).unwrap();

    let human = run(dir.path(), &["check", "skills"]);
    let github = run(dir.path(), &["check", "--format", "github", "skills"]);
    let json = run(dir.path(), &["check", "--format", "json", "skills"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let findings = report["diagnostics"].as_array().unwrap().len();
    assert!(findings >= 2, "{report:#}");
    for output in [&human, &github, &json] {
        for stream in [&output.stdout, &output.stderr] {
            let text = text(stream);
            for obeyed in ['\u{1b}', '\u{7}', '\u{202e}'] {
                assert!(
                    !text.contains(obeyed),
                    "{obeyed:?} reached the terminal: {text}"
                );
            }
            let commands = text.lines().filter(|line| line.starts_with("::")).count();
            let expected = if std::ptr::eq(stream, &github.stdout) {
                findings
            } else {
                0
            };
            assert_eq!(commands, expected, "a workflow command was forged: {text}");
        }
    }
    let stdout = text(&human.stdout);
    assert!(stdout.contains("\\u{1b}[8m"), "{stdout}");
    // The JSON carries the text as data, exactly.
    assert!(
        json.stdout.windows(6).any(|w| w == b"\\u001b"),
        "{}",
        text(&json.stdout)
    );
}

/// A tree whose ignore files are links to endless or outside files: at the root of a git work
/// tree, in a skill folder, and in a folder `check` walks through.
fn endless_ignore_files(dir: &Path) {
    write(&dir.join("skills/good/SKILL.md"), fixable("good"));
    write(&dir.join("skills/trap/SKILL.md"), fixable("trap"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("skills/trap/.gitignore")).unwrap();
    write(&dir.join("other/deep/SKILL.md"), fixable("deep"));
    std::os::unix::fs::symlink("/dev/urandom", dir.join("other/.gitignore")).unwrap();
}

#[test]
fn ignore_files_linked_to_endless_files_are_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    endless_ignore_files(dir.path());
    let output = run(dir.path(), &["check", "."]);
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("skills/trap: its .gitignore is a link to /dev/zero, which is not read")
            && stderr.contains("other: its .gitignore is a link to /dev/urandom"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    // The rest is checked.
    assert!(
        text(&output.stdout).contains("Checked 1 file"),
        "{}",
        text(&output.stdout)
    );
    // At the root of a git work tree, `.git/info/exclude` too: nothing is walked.
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("skills/good/SKILL.md"), fixable("good"));
    fs::create_dir_all(dir.path().join(".git/info")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join(".git/info/exclude")).unwrap();
    let output = run(dir.path(), &["check", "skills"]);
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("its .git/info/exclude is a link to /dev/zero"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(2));
}

/// A frontmatter of 80,000 `metadata` keys with one repeat and 20,000 unknown top-level keys:
/// every finding, in `check` and in the editor. The rules that compared each key with every
/// other took 48 s here; no time is asserted, but a quadratic step would not finish within the
/// runner's patience.
fn many_keys() -> String {
    let mut text = String::from("---\nname: k\ndescription: Does k. Use when asked.\n");
    for i in 0..20_000 {
        text.push_str(&format!("extra{i}: v\n"));
    }
    text.push_str("metadata:\n");
    for i in 0..80_000 {
        text.push_str(&format!("  key{i}: v{i}\n"));
    }
    text.push_str("  key7: again\n---\nBody\n");
    text
}

#[test]
fn a_frontmatter_of_100000_keys_is_checked_in_full() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("skills/k/SKILL.md"), many_keys());
    let output = run(dir.path(), &["check", "--format", "json", "skills"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let rules: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules
            .iter()
            .filter(|rule| **rule == "unknown-field")
            .count(),
        20_000
    );
    let repeat = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "duplicate-key")
        .expect("the repeated key is found");
    // The earlier of the two, on its own line: 3 lines of head, 20,000 extras, `metadata:`.
    assert_eq!(repeat["range"]["start"]["line"], 3 + 20_000 + 1 + 7 + 1);
}

/// The server over stdio, as an editor drives it, fed messages no editor should send.
mod server {
    use crate::lsp_client::Client;
    use serde_json::{Value, json};
    use skill_lsp::lsp::ext::{Catalog, CatalogParams};

    fn still_serving(client: &mut Client) {
        let catalog = client.ask::<Catalog>(CatalogParams {});
        assert!(catalog["prompt"].is_string(), "{catalog}");
    }

    #[test]
    fn ids_it_cannot_echo_are_refused_and_the_server_goes_on() {
        let mut client = Client::start(&[], json!({}));
        for id in ["1.5", "1e3", "18446744073709551616", "-0.0"] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{}}}}"#
            );
            client.send_raw(&crate::lsp_client::frame(body.as_bytes()));
            let expected: Value = serde_json::from_str(id).unwrap();
            let reply = client.wait(|m| m["error"]["code"] == -32600 && m["id"] == expected);
            assert!(reply["error"]["message"].is_string());
            still_serving(&mut client);
        }
        client.shutdown();
    }

    #[test]
    fn a_frame_whose_length_lies_costs_that_frame_only() {
        let mut client = Client::start(&[], json!({}));
        let body = br#"{"jsonrpc":"2.0","id":500,"method":"skill/catalog","params":{}}"#;
        // Overstated: the client then waits for an answer, sending nothing more but the next.
        let mut raw = format!("Content-Length: {}\r\n\r\n", body.len() + 300).into_bytes();
        raw.extend_from_slice(body);
        client.send_raw(&raw);
        still_serving(&mut client);
        client.wait(|m| m["error"]["code"] == -32700);
        // Understated.
        let mut raw = format!("Content-Length: {}\r\n\r\n", body.len() - 4).into_bytes();
        raw.extend_from_slice(body);
        client.send_raw(&raw);
        still_serving(&mut client);
        client.shutdown();
    }

    /// A document over the one size limit is never read in, and the user is told which and
    /// why: a didOpen gets no reply, so a parse error alone would say nothing.
    #[test]
    fn a_document_over_the_limit_is_named_and_the_server_goes_on() {
        let mut client = Client::start(&[], json!({}));
        let uri = client.uri("skills/big/SKILL.md");
        let head = format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{uri}","languageId":"markdown","version":1,"text":""#
        );
        let mut body = head.into_bytes();
        body.resize(64 * 1024 * 1024 + 100, b'x');
        body.extend_from_slice(br#""}}}"#);
        client.send_raw(&crate::lsp_client::frame(&body));
        let shown = client.wait(|m| m["method"] == "window/showMessage");
        let message = shown["params"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(
                "textDocument/didOpen of {uri} is {} bytes",
                body.len()
            )) && message.contains("not checked"),
            "{message}"
        );
        still_serving(&mut client);
        client.shutdown();
    }

    #[test]
    fn a_frontmatter_of_100000_keys_is_linted_on_open_and_on_each_edit() {
        let mut client = Client::start(&[], json!({}));
        let uri = client.open("skills/k/SKILL.md", &super::many_keys());
        let count = |diagnostics: &[Value], rule: &str| {
            diagnostics.iter().filter(|d| d["code"] == rule).count()
        };
        let diagnostics = client.diagnostics(&uri, Some(1));
        assert_eq!(count(&diagnostics, "duplicate-key"), 1);
        client.change(
            &uri,
            2,
            json!([{"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "text": "key7: top\n"}]),
        );
        let diagnostics = client.diagnostics(&uri, Some(2));
        assert_eq!(count(&diagnostics, "duplicate-key"), 1);
        assert_eq!(count(&diagnostics, "unknown-field"), 20_001);
        client.shutdown();
    }

    #[test]
    fn ignore_files_linked_to_endless_files_leave_the_server_serving() {
        let dir = tempfile::tempdir().unwrap();
        super::endless_ignore_files(dir.path());
        let mut client = Client::start_in(dir, json!({}), &[]);
        let text = super::fixable("trap");
        let uri = client.open("skills/trap/SKILL.md", &text);
        client.diagnostics(&uri, Some(1));
        let uri = client.open("skills/good/SKILL.md", &text);
        client.diagnostics(&uri, Some(1));
        still_serving(&mut client);
        let (_, stderr) = client.finish();
        assert!(!stderr.contains("panicked"), "{stderr}");
    }

    #[test]
    fn documents_that_are_not_files_are_not_indexed() {
        let mut client = Client::start(&[], json!({}));
        for uri in [
            "https://example.com/skills/pdf/SKILL.md",
            "file:///SKILL.md",
            "untitled:Untitled-1",
            "file:///proc/self/SKILL.md",
        ] {
            client.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1,
                    "text": "---\nname: x\ndescription: y\n---\n"}}),
            );
            still_serving(&mut client);
        }
        let (_, stderr) = client.finish();
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
