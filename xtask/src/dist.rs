//! The release packages: the VS Code extension (.vsix) and the npm packages.
//!
//! - `cargo xtask dist [--require-all] BIN_DIR OUT_DIR` — from a folder of release binaries,
//!   named as the release names them (`skill-lsp-<rust target>[.exe]`), every package: the
//!   universal .vsix and the npm launcher always, the platform .vsix files and npm package for
//!   each platform whose binary is there. `--require-all` (the release workflow) makes a missing
//!   binary an error.
//! - `cargo xtask vsix universal OUT.vsix` / `vsix TARGET BINARY OUT.vsix` — one .vsix.
//! - `cargo xtask npm-pack launcher OUT_DIR` / `npm-pack PLATFORM BINARY OUT_DIR` — one npm
//!   package; prints the tarball's path.
//!
//! The packing itself is vsce's and npm's (they need editors/vscode/node_modules, `npm ci`, and
//! Node); this decides what goes in. Versions are Cargo.toml's (`cargo xtask versions`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::json::{self, Value};
use crate::{Context, status, versions};

pub const USAGE: &str = "cargo xtask dist [--require-all] BIN_DIR OUT_DIR\n       \
     cargo xtask vsix universal OUT.vsix | vsix TARGET BINARY OUT.vsix\n       \
     cargo xtask npm-pack launcher OUT_DIR | npm-pack PLATFORM BINARY OUT_DIR";

/// A platform of the release.
struct Platform {
    /// The Rust target its binary is built for.
    triple: &'static str,
    /// The npm platform (`process.platform`-`process.arch`), also a vsce target.
    npm: &'static str,
    /// More vsce targets the same binary serves: the Linux binaries are static musl builds, so
    /// they run on Alpine too.
    more_vsce: &'static [&'static str],
}

/// The release's platforms: .github/workflows/release.yml builds them and action/install.sh
/// downloads them (scripts/ci_packages.sh checks the three lists agree).
const PLATFORMS: &[Platform] = &[
    Platform {
        triple: "x86_64-unknown-linux-musl",
        npm: "linux-x64",
        more_vsce: &["alpine-x64"],
    },
    Platform {
        triple: "aarch64-unknown-linux-musl",
        npm: "linux-arm64",
        more_vsce: &["alpine-arm64"],
    },
    Platform {
        triple: "x86_64-apple-darwin",
        npm: "darwin-x64",
        more_vsce: &[],
    },
    Platform {
        triple: "aarch64-apple-darwin",
        npm: "darwin-arm64",
        more_vsce: &[],
    },
    Platform {
        triple: "x86_64-pc-windows-msvc",
        npm: "win32-x64",
        more_vsce: &[],
    },
];

/// What `vsce package --target` takes.
const VSCE_TARGETS: &[&str] = &[
    "linux-x64",
    "linux-arm64",
    "alpine-x64",
    "alpine-arm64",
    "darwin-x64",
    "darwin-arm64",
    "win32-x64",
    "win32-arm64",
];

const LICENCES: [&str; 2] = ["LICENSE-MIT", "LICENSE-APACHE"];

fn usage() -> String {
    format!("usage: {USAGE}")
}

fn absolute(context: &Context, arg: &str, what: &str) -> Result<PathBuf, String> {
    fs::canonicalize(context.path(arg))
        .map_err(|error| format!("{what} {}: {error}", context.path(arg).display()))
}

/// `cargo xtask dist`: every manifest at Cargo.toml's version, then the packages, whose paths
/// go to stdout.
pub fn dist(context: &Context, args: &[String]) -> Result<(), String> {
    let require_all = args.iter().any(|arg| arg == "--require-all");
    let rest: Vec<&String> = args.iter().filter(|arg| *arg != "--require-all").collect();
    let [bin_dir, out_dir] = rest[..] else {
        return Err(usage());
    };
    let root = &context.root;
    versions::check(root, None, "")?;
    let bin_dir = absolute(context, bin_dir, "BIN_DIR")?;
    fs::create_dir_all(context.path(out_dir))
        .map_err(|error| format!("OUT_DIR {out_dir}: {error}"))?;
    let out = absolute(context, out_dir, "OUT_DIR")?;
    let version = versions::cargo_version(root)?;

    let binary_of = |platform: &Platform| {
        let exe = if platform.triple.contains("windows") {
            ".exe"
        } else {
            ""
        };
        bin_dir.join(format!("skill-lsp-{}{exe}", platform.triple))
    };
    let mut found = Vec::new();
    for platform in PLATFORMS {
        let binary = binary_of(platform);
        if binary.is_file() {
            found.push((platform, binary));
        } else if require_all {
            return Err(format!("{} is missing", binary.display()));
        }
    }
    if found.is_empty() {
        return Err(format!(
            "no skill-lsp-<target> binary in {}",
            bin_dir.display()
        ));
    }

    let universal = out.join(format!("skill-lsp-{version}.vsix"));
    vsix(root, None, &universal, false)?;
    println!("{}", universal.display());
    println!("{}", npm_pack(root, None, &out)?.display());
    for (platform, binary) in found {
        for target in [platform.npm].iter().chain(platform.more_vsce) {
            let package = out.join(format!("skill-lsp-{target}-{version}.vsix"));
            vsix(root, Some((target, &binary)), &package, false)?;
            println!("{}", package.display());
        }
        println!(
            "{}",
            npm_pack(root, Some((platform.npm, &binary)), &out)?.display()
        );
    }
    Ok(())
}

/// `cargo xtask vsix`.
pub fn vsix_task(context: &Context, args: &[String]) -> Result<(), String> {
    match args {
        [target, out] if target == "universal" => {
            vsix(&context.root, None, &context.path(out), true)
        }
        [target, binary, out] if target != "universal" => vsix(
            &context.root,
            Some((target, &context.path(binary))),
            &context.path(out),
            true,
        ),
        _ => Err(usage()),
    }
}

/// `cargo xtask npm-pack`.
pub fn npm_pack_task(context: &Context, args: &[String]) -> Result<(), String> {
    let tarball = match args {
        [launcher, out] if launcher == "launcher" => {
            npm_pack(&context.root, None, &context.path(out))?
        }
        [platform, binary, out] => npm_pack(
            &context.root,
            Some((platform, &context.path(binary))),
            &context.path(out),
        )?,
        _ => return Err(usage()),
    };
    println!("{}", tarball.display());
    Ok(())
}

/// Removes a folder when dropped, so that no run leaves one behind, failed or not.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Copies `from` to `to` with mode 755: the extension and the npm launcher run the file as is.
fn install_executable(from: &Path, to: &Path) -> Result<(), String> {
    fs::copy(from, to)
        .map_err(|error| format!("copying {} to {}: {error}", from.display(), to.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(to, fs::Permissions::from_mode(0o755))
            .map_err(|error| format!("{}: {error}", to.display()))?;
    }
    Ok(())
}

fn create_dir(path: &Path) -> Result<(), String> {
    fs::create_dir_all(path).map_err(|error| format!("{}: {error}", path.display()))
}

/// The extension (editors/vscode) packaged by vsce as `out`: universal (no server, the extension
/// looks on PATH) or for a vsce target, with its binary as bundled/TARGET/skill-lsp[.exe], which
/// the extension runs before looking on PATH. `show` passes vsce's report through.
fn vsix(root: &Path, target: Option<(&str, &Path)>, out: &Path, show: bool) -> Result<(), String> {
    if let Some((target, binary)) = target {
        if !VSCE_TARGETS.contains(&target) {
            return Err(format!("unknown vsce target '{target}'"));
        }
        if !binary.is_file() {
            return Err(format!("{} is not a file", binary.display()));
        }
    }
    let extension = root.join("editors/vscode");
    let bundled = extension.join("bundled");
    // vsce packs whatever is under bundled/, so nothing may be left there from an interrupted
    // run, nor stay after this one.
    let _ = fs::remove_dir_all(&bundled);
    let _cleanup = Removed(bundled.clone());
    let mut command = Command::new("npx");
    command
        .current_dir(&extension)
        .args(["vsce", "package", "--skip-license", "-o"])
        .arg(out);
    if let Some((target, binary)) = target {
        let name = if target.starts_with("win32-") {
            "skill-lsp.exe"
        } else {
            "skill-lsp"
        };
        create_dir(&bundled.join(target))?;
        install_executable(binary, &bundled.join(target).join(name))?;
        command.args(["--target", target]);
    }
    if let Some(parent) = out.parent() {
        create_dir(parent)?;
    }
    if !show {
        command.stdout(Stdio::null());
    }
    status(&mut command, "npx vsce package")
}

/// Counts the staging folders, so that two packages of one run never share one.
static STAGES: AtomicUsize = AtomicUsize::new(0);

/// An npm package packed by `npm pack` into `out_dir`: the `skill-lsp` launcher (npm/skill-lsp),
/// or for a platform (one of the launcher's optionalDependencies) the template in npm/platform
/// with the binary as bin/skill-lsp[.exe]. Either is staged in a temporary folder with the
/// licences, so no binary is ever written into the source tree. Returns the tarball's path.
fn npm_pack(
    root: &Path,
    platform: Option<(&str, &Path)>,
    out_dir: &Path,
) -> Result<PathBuf, String> {
    let version = versions::cargo_version(root)?;
    let launcher_dir = root.join("npm/skill-lsp");
    let launcher = versions::read_json(root, versions::LAUNCHER)?;
    let launcher_version = launcher.get("version").and_then(Value::as_str);
    if launcher_version != Some(&version) {
        return Err(format!(
            "{} has version {}, Cargo.toml {version} (cargo xtask versions sync)",
            versions::LAUNCHER,
            launcher_version.unwrap_or("none")
        ));
    }
    let stage = std::env::temp_dir().join(format!(
        "skill-lsp-npm-{}-{}",
        std::process::id(),
        STAGES.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&stage);
    create_dir(&stage)?;
    let _cleanup = Removed(stage.clone());
    let manifest_path = stage.join("package.json");
    let Some((platform, binary)) = platform else {
        copy_tree(&launcher_dir, &stage)?;
        copy_licences(root, &stage)?;
        let mut manifest = json::parse(&read(&manifest_path)?)
            .map_err(|error| format!("{}: {error}", versions::LAUNCHER))?;
        add_licences_to_files(&mut manifest, versions::LAUNCHER)?;
        write(&manifest_path, &format!("{}\n", manifest.pretty()))?;
        return pack(&stage, out_dir);
    };

    let name = format!("@skill-lsp/cli-{platform}");
    if launcher
        .get("optionalDependencies")
        .and_then(|dependencies| dependencies.get(&name))
        .is_none()
    {
        return Err(format!(
            "{name} is not among the optionalDependencies of {}",
            versions::LAUNCHER
        ));
    }
    if !binary.is_file() {
        return Err(format!("{} is not a file", binary.display()));
    }
    let template = root.join("npm/platform");
    let mut manifest = json::parse(&read(&template.join("package.json"))?)
        .map_err(|error| format!("npm/platform/package.json: {error}"))?;
    // npm's os and cpu names are Node's process.platform and process.arch.
    let (os, cpu) = platform
        .split_once('-')
        .filter(|(os, cpu)| {
            ["linux", "darwin", "win32"].contains(os) && ["x64", "arm64"].contains(cpu)
        })
        .ok_or_else(|| format!("cannot tell os and cpu from '{platform}'"))?;
    let description = manifest
        .get("description")
        .and_then(Value::as_str)
        .ok_or("npm/platform/package.json has no description")?
        .replacen("PLATFORM", platform, 1);
    let list = |item: &str| Value::Array(vec![Value::String(item.to_owned())]);
    manifest.set("os", list(os));
    manifest.set("cpu", list(cpu));
    manifest.set("name", Value::String(name));
    manifest.set("version", Value::String(version));
    manifest.set("description", Value::String(description));
    add_licences_to_files(&mut manifest, "npm/platform/package.json")?;
    write(&manifest_path, &format!("{}\n", manifest.pretty()))?;
    let readme = read(&template.join("README.md"))?.replace("PLATFORM", platform);
    write(&stage.join("README.md"), &readme)?;
    copy_licences(root, &stage)?;
    let exe = if platform.starts_with("win32-") {
        "skill-lsp.exe"
    } else {
        "skill-lsp"
    };
    create_dir(&stage.join("bin"))?;
    install_executable(binary, &stage.join("bin").join(exe))?;
    pack(&stage, out_dir)
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|error| format!("{}: {error}", path.display()))
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    let entries = fs::read_dir(from).map_err(|error| format!("{}: {error}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|error| format!("{}: {error}", from.display()))?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            create_dir(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .map_err(|error| format!("{}: {error}", entry.path().display()))?;
        }
    }
    Ok(())
}

fn copy_licences(root: &Path, stage: &Path) -> Result<(), String> {
    for name in LICENCES {
        fs::copy(root.join(name), stage.join(name)).map_err(|error| format!("{name}: {error}"))?;
    }
    Ok(())
}

/// npm packs only what `files` lists (and the README); the licences go in beside the code.
fn add_licences_to_files(manifest: &mut Value, shown: &str) -> Result<(), String> {
    let Some(Value::Array(files)) = manifest.get("files") else {
        return Err(format!("{shown} has no files list"));
    };
    let mut files = files.clone();
    files.extend(LICENCES.map(|name| Value::String(name.to_owned())));
    manifest.set("files", Value::Array(files));
    Ok(())
}

/// `npm pack` of the staged package into `out_dir`; the tarball's name is npm's own (a scoped
/// name loses its `@` and `/`), read from its --json report.
fn pack(stage: &Path, out_dir: &Path) -> Result<PathBuf, String> {
    create_dir(out_dir)?;
    let out_dir =
        fs::canonicalize(out_dir).map_err(|error| format!("{}: {error}", out_dir.display()))?;
    let output = Command::new("npm")
        .args(["pack", "--json", "--pack-destination"])
        .arg(&out_dir)
        .current_dir(stage)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run npm pack: {error}"))?;
    if !output.status.success() {
        return Err(format!("npm pack exited with {}", output.status));
    }
    let report = json::parse(&String::from_utf8_lossy(&output.stdout))
        .map_err(|error| format!("npm pack --json: {error}"))?;
    let filename = match &report {
        Value::Array(results) => results
            .first()
            .and_then(|result| result.get("filename"))
            .and_then(Value::as_str),
        _ => None,
    }
    .ok_or("npm pack --json named no file")?;
    Ok(out_dir.join(filename))
}
