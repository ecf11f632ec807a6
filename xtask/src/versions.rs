//! One version for every package: Cargo.toml's.
//!
//! - `cargo xtask versions check [--tag vX.Y.Z] [--root DIR]` fails when a manifest differs;
//! - `cargo xtask versions sync [--root DIR]` writes Cargo.toml's version into them.
//!
//! The manifests: the npm launcher (its version and every @skill-lsp/cli-* optional dependency),
//! the VS Code extension (package.json and package-lock.json), and pyproject.toml, which must
//! leave the version to maturin (`dynamic = ["version"]`, read from Cargo.toml). With `--tag`,
//! the release tag must be `v` + the version too (the release workflow passes its tag).
//! `--root` checks another copy of the repository (the packaging tests bump a copy's version).

use std::fs;
use std::path::Path;

use crate::Context;
use crate::json::{self, Value};

pub const LAUNCHER: &str = "npm/skill-lsp/package.json";
const VSCODE: &str = "editors/vscode/package.json";
const VSCODE_LOCK: &str = "editors/vscode/package-lock.json";
const PYPROJECT: &str = "pyproject.toml";

pub const USAGE: &str = "cargo xtask versions check [--tag vX.Y.Z] [--root DIR]\n       \
     cargo xtask versions sync [--root DIR]";

pub fn run(context: &Context, args: &[String]) -> Result<(), String> {
    let usage = || format!("usage: {USAGE}");
    let Some((command, options)) = args.split_first() else {
        return Err(usage());
    };
    let mut tag = None;
    let mut root = None;
    let mut options = options.iter();
    while let Some(option) = options.next() {
        let slot = match option.as_str() {
            "--tag" if command == "check" => &mut tag,
            "--root" => &mut root,
            _ => return Err(usage()),
        };
        *slot = Some(options.next().ok_or_else(usage)?.as_str());
    }
    // The advice after a failure names the same tree.
    let again = root.map_or(String::new(), |root| format!(" --root {root}"));
    let root = root.map_or_else(|| context.root.clone(), |root| context.path(root));
    match command.as_str() {
        "check" => check(&root, tag, &again),
        "sync" => sync(&root, &again),
        _ => Err(usage()),
    }
}

/// Cargo.toml's `[package] version`.
pub fn cargo_version(root: &Path) -> Result<String, String> {
    let text = read(root, "Cargo.toml")?;
    toml_table(&text, "package")
        .into_iter()
        .find(|(key, _)| key == "version")
        .and_then(|(_, value)| toml_strings(&value).into_iter().next())
        .ok_or_else(|| "no version in the [package] section of Cargo.toml".to_owned())
}

fn read(root: &Path, file: &str) -> Result<String, String> {
    fs::read_to_string(root.join(file)).map_err(|error| format!("{file}: {error}"))
}

pub fn read_json(root: &Path, file: &str) -> Result<Value, String> {
    json::parse(&read(root, file)?).map_err(|error| format!("{file}: {error}"))
}

fn member<'a>(value: &'a Value, file: &str, path: &[&str]) -> Result<&'a Value, String> {
    path.iter().try_fold(value, |value, key| {
        value
            .get(key)
            .ok_or_else(|| format!("{file} has no {}", path.join(".")))
    })
}

/// (where, the version it says) for each place that states one.
fn versions_in_manifests(root: &Path) -> Result<Vec<(String, Value)>, String> {
    let mut places = Vec::new();
    let launcher = read_json(root, LAUNCHER)?;
    places.push((
        format!("{LAUNCHER} version"),
        member(&launcher, LAUNCHER, &["version"])?.clone(),
    ));
    if let Some(Value::Object(dependencies)) = launcher.get("optionalDependencies") {
        let mut dependencies = dependencies.clone();
        dependencies.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, spec) in dependencies {
            places.push((format!("{LAUNCHER} optionalDependencies {name}"), spec));
        }
    }
    let vscode = read_json(root, VSCODE)?;
    places.push((
        format!("{VSCODE} version"),
        member(&vscode, VSCODE, &["version"])?.clone(),
    ));
    let lock = read_json(root, VSCODE_LOCK)?;
    places.push((
        format!("{VSCODE_LOCK} version"),
        member(&lock, VSCODE_LOCK, &["version"])?.clone(),
    ));
    places.push((
        format!("{VSCODE_LOCK} packages[\"\"] version"),
        member(&lock, VSCODE_LOCK, &["packages", "", "version"])?.clone(),
    ));
    Ok(places)
}

/// Prints each manifest that disagrees and fails, or prints the one version.
pub fn check(root: &Path, tag: Option<&str>, again: &str) -> Result<(), String> {
    let want = cargo_version(root)?;
    let mut problems = Vec::new();
    for (place, got) in versions_in_manifests(root)? {
        if got.as_str() != Some(&want) {
            let got = got.as_str().map_or_else(|| got.pretty(), str::to_owned);
            problems.push(format!("{place} is {got}, Cargo.toml says {want}"));
        }
    }
    let project = toml_table(&read(root, PYPROJECT)?, "project");
    let pinned = project.iter().any(|(key, _)| key == "version");
    let dynamic = project
        .iter()
        .find(|(key, _)| key == "dynamic")
        .is_some_and(|(_, value)| toml_strings(value).iter().any(|item| item == "version"));
    if pinned || !dynamic {
        problems.push(
            "pyproject.toml must not pin a version: dynamic = [\"version\"] lets maturin take Cargo.toml's"
                .to_owned(),
        );
    }
    if let Some(tag) = tag.filter(|tag| *tag != format!("v{want}")) {
        problems.push(format!("the tag {tag} is not v{want}"));
    }
    if problems.is_empty() {
        println!("versions: every package is at {want}");
        return Ok(());
    }
    for problem in &problems {
        eprintln!("versions: {problem}");
    }
    Err(format!(
        "run `cargo xtask versions sync{again}` after changing Cargo.toml's version"
    ))
}

/// Writes Cargo.toml's version into the version lines, leaving the rest of each file as it is
/// (a JSON round trip would respell the package-lock), then checks. Nothing is written unless
/// every file had the lines it should.
fn sync(root: &Path, again: &str) -> Result<(), String> {
    let want = cargo_version(root)?;
    let dependencies = match read_json(root, LAUNCHER)?.get("optionalDependencies") {
        Some(Value::Object(dependencies)) => dependencies.len(),
        _ => 0,
    };
    let top_version = |key: &str| key == "version";
    let platform_package = |key: &str| {
        key.strip_prefix("@skill-lsp/cli-").is_some_and(|rest| {
            !rest.is_empty()
                && rest
                    .bytes()
                    .all(|byte| matches!(byte, b'a'..=b'z' | b'0'..=b'9' | b'-'))
        })
    };
    let mut launcher = read(root, LAUNCHER)?;
    launcher = rewrite(&launcher, &root.join(LAUNCHER), 2, &top_version, &want, 1)?;
    launcher = rewrite(
        &launcher,
        &root.join(LAUNCHER),
        4,
        &platform_package,
        &want,
        dependencies,
    )?;
    let vscode = rewrite(
        &read(root, VSCODE)?,
        &root.join(VSCODE),
        2,
        &top_version,
        &want,
        1,
    )?;
    // The lock's own version: the top-level one and the root package's, the first two.
    let mut lock = read(root, VSCODE_LOCK)?;
    lock = rewrite(&lock, &root.join(VSCODE_LOCK), 2, &top_version, &want, 1)?;
    lock = rewrite(&lock, &root.join(VSCODE_LOCK), 6, &top_version, &want, 1)?;
    for (file, text) in [(LAUNCHER, launcher), (VSCODE, vscode), (VSCODE_LOCK, lock)] {
        fs::write(root.join(file), text).map_err(|error| format!("{file}: {error}"))?;
    }
    check(root, None, again)
}

/// Sets the value of the first `count` lines that are `"KEY": "VALUE"` at exactly `indent`
/// spaces with a key `key` accepts.
fn rewrite(
    text: &str,
    file: &Path,
    indent: usize,
    key: &dyn Fn(&str) -> bool,
    version: &str,
    count: usize,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    for line in text.split_inclusive('\n') {
        match value_span(line, indent, key).filter(|_| done < count) {
            Some((start, end)) => {
                out.push_str(&line[..start]);
                out.push_str(version);
                out.push_str(&line[end..]);
                done += 1;
            }
            None => out.push_str(line),
        }
    }
    if done != count {
        return Err(format!(
            "expected {count} version line(s) in {}, found {done}",
            file.display()
        ));
    }
    Ok(out)
}

/// Where the string value of a `"KEY": "VALUE"` line lies.
fn value_span(line: &str, indent: usize, key: &dyn Fn(&str) -> bool) -> Option<(usize, usize)> {
    let rest = line.get(indent..)?;
    if !line[..indent].bytes().all(|byte| byte == b' ') {
        return None;
    }
    let (name, rest) = rest.strip_prefix('"')?.split_once('"')?;
    let value = rest.strip_prefix(": \"")?;
    let start = line.len() - value.len();
    let end = start + value.find('"')?;
    key(name).then_some((start, end))
}

/// The `key = value` entries of one table of a TOML file, each value as written (an array may
/// run over several lines). Enough for the plain keys of Cargo.toml's `[package]` and
/// pyproject.toml's `[project]`; xtask has no TOML parser to lean on.
fn toml_table(text: &str, table: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut current = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = without_comment(line).trim();
        if let Some(header) = line.strip_prefix('[') {
            current = Some(header.trim_matches(['[', ']', ' ']).to_owned());
            continue;
        }
        if current.as_deref() != Some(table) {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let mut value = value.trim().to_owned();
        while open_brackets(&value) > 0 {
            let Some(more) = lines.next() else { break };
            value.push(' ');
            value.push_str(without_comment(more).trim());
        }
        entries.push((key.trim().trim_matches('"').to_owned(), value));
    }
    entries
}

/// Each byte of a TOML line with whether it lies inside a string.
fn in_string(line: &str) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
    let mut quote = None;
    let mut escaped = false;
    line.bytes().enumerate().map(move |(at, byte)| {
        let inside = quote.is_some();
        match quote {
            Some(b'"') if escaped => escaped = false,
            Some(b'"') if byte == b'\\' => escaped = true,
            Some(open) if byte == open => quote = None,
            None if byte == b'"' || byte == b'\'' => quote = Some(byte),
            _ => {}
        }
        (at, byte, inside || quote.is_some())
    })
}

fn without_comment(line: &str) -> &str {
    match in_string(line).find(|&(_, byte, inside)| byte == b'#' && !inside) {
        Some((at, _, _)) => &line[..at],
        None => line,
    }
}

fn open_brackets(value: &str) -> i32 {
    in_string(value)
        .filter(|&(_, _, inside)| !inside)
        .map(|(_, byte, _)| match byte {
            b'[' => 1,
            b']' => -1,
            _ => 0,
        })
        .sum()
}

/// The strings in a TOML value: the value itself, or the items of an array of strings.
fn toml_strings(value: &str) -> Vec<String> {
    let mut strings = Vec::new();
    let mut chars = value.chars();
    while let Some(quote) = chars.next() {
        if quote != '"' && quote != '\'' {
            continue;
        }
        let mut text = String::new();
        while let Some(ch) = chars.next() {
            match ch {
                '\\' if quote == '"' => text.extend(chars.next()),
                ch if ch == quote => break,
                ch => text.push(ch),
            }
        }
        strings.push(text);
    }
    strings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_tables_give_their_own_keys_with_arrays_over_lines() {
        let text = "name = \"top\"\n[package]\nname = \"x\" # a comment\nversion = \"1.2.3\"\n\
                    [project]\ndynamic = [\n  \"readme\", # why\n  'version',\n]\nnote = \"a # b\"\n";
        let package = toml_table(text, "package");
        assert_eq!(toml_strings(&package[1].1), ["1.2.3"]);
        assert_eq!(package.len(), 2);
        let project = toml_table(text, "project");
        assert_eq!(project[0].0, "dynamic");
        assert_eq!(toml_strings(&project[0].1), ["readme", "version"]);
        assert_eq!(toml_strings(&project[1].1), ["a # b"]);
    }

    #[test]
    fn rewrite_changes_only_the_first_matching_lines_at_their_indent() {
        let text =
            "{\n  \"version\": \"0.1.0\",\n   \"version\": \"x\",\n  \"version\": \"y\"\r\n}";
        let out = rewrite(text, Path::new("f"), 2, &|key| key == "version", "9.8.7", 1).unwrap();
        assert_eq!(
            out,
            "{\n  \"version\": \"9.8.7\",\n   \"version\": \"x\",\n  \"version\": \"y\"\r\n}"
        );
        assert_eq!(
            rewrite(text, Path::new("f"), 2, &|key| key == "version", "9.8.7", 3).unwrap_err(),
            "expected 3 version line(s) in f, found 2"
        );
    }
}
