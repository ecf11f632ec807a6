//! The security rules: what a skill's files can do to the user's machine, read offline from the
//! SKILL.md and every text file the skill ships. Pure: text in, findings and capabilities out;
//! the front ends list and read the files (`check`) or hand over editor buffers.
//!
//! A finding's severity comes from how sure the match is where it sits (`places`): the same
//! words are an error in a script the agent runs, a warning in a block the skill tells it to
//! run, and nothing in a code span or a block introduced as a bad example. A secret read and a
//! send in the same script or block are joined into one `exfiltration` error that names both.

mod allow;
mod hidden;
mod patterns;
mod permissions;
mod places;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Related, Severity};
use crate::document::SkillDocument;
use crate::rule_table::Rule;
use crate::text::{Span, TextRange};

pub use patterns::Capability;
use patterns::{COMPILED, PATTERNS, Refine, Role};
pub(crate) use places::Place;
use places::Places;

/// What a file of a skill is, which decides what is looked for in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// The SKILL.md: frontmatter, prose and blocks.
    Skill,
    /// Other Markdown (references): prose and blocks, as the agent reads them.
    Markdown,
    /// Markdown for people (README, CONTRIBUTING, `docs/`): its blocks are read, not run.
    Docs,
    /// Tests of the skill's own code: their strings are fixtures, not commands.
    Test,
    /// A script the skill ships.
    Script,
    /// Any other text (data, templates): only characters a reader cannot see.
    Text,
    /// Compiled code: nobody can review what it does.
    Compiled(&'static str),
    /// Other binary files (images, fonts, archives): not read.
    Binary,
}

const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "fish",
    "ksh",
    "py",
    "pyw",
    "js",
    "mjs",
    "cjs",
    "ts",
    "mts",
    "cts",
    "rb",
    "pl",
    "pm",
    "php",
    "ps1",
    "psm1",
    "psd1",
    "bat",
    "cmd",
    "lua",
    "r",
    "jl",
    "swift",
    "go",
    "rs",
    "java",
    "kt",
    "cs",
    "groovy",
    "applescript",
    "scpt",
    "vbs",
    "jsx",
    "tsx",
];

const MARKDOWN_EXTENSIONS: &[&str] = &["md", "markdown", "mdx", "mdc"];

/// The kind of a skill's file from its name and first bytes.
#[must_use]
pub(crate) fn kind_of(path: &Path, bytes: &[u8]) -> FileKind {
    if let Some(what) = compiled(path, bytes) {
        return FileKind::Compiled(what);
    }
    let head = &bytes[..bytes.len().min(8192)];
    if memchr::memchr(0, head).is_some() {
        return FileKind::Binary;
    }
    let extension = path
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if is_test(path) {
        FileKind::Test
    } else if MARKDOWN_EXTENSIONS.contains(&extension.as_str()) {
        if is_docs(path) {
            FileKind::Docs
        } else {
            FileKind::Markdown
        }
    } else if SCRIPT_EXTENSIONS.contains(&extension.as_str())
        || bytes.starts_with(b"#!")
        || path
            .file_name()
            .is_some_and(|name| name == "Makefile" || name == "Dockerfile")
    {
        FileKind::Script
    } else {
        FileKind::Text
    }
}

/// Tests of the skill's own code (`tests/`, `test_x.py`, `x.test.ts`, …).
fn is_test(path: &Path) -> bool {
    let in_tests = path.parent().is_some_and(|parent| {
        parent.components().any(|component| {
            matches!(
                component.as_os_str().to_str(),
                Some(
                    "test"
                        | "tests"
                        | "__tests__"
                        | "spec"
                        | "specs"
                        | "testdata"
                        | "fixtures"
                        | "e2e"
                )
            )
        })
    });
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    in_tests
        || name.starts_with("test_")
        || name == "conftest.py"
        || name.contains(".test.")
        || name.contains(".spec.")
        || name.contains("_test.")
}

/// Markdown written for people rather than the agent.
fn is_docs(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("")
        .to_ascii_uppercase();
    let for_people = [
        "README",
        "CONTRIBUTING",
        "CHANGELOG",
        "CHANGES",
        "HISTORY",
        "CODE_OF_CONDUCT",
        "SECURITY",
        "AUTHORS",
        "INSTALL",
        "LICENSE",
        "NOTICE",
    ];
    for_people.iter().any(|prefix| name.starts_with(prefix))
        || path.parent().is_some_and(|parent| {
            parent.components().any(|component| {
                matches!(
                    component.as_os_str().to_str(),
                    Some("docs" | "doc" | "wiki" | ".github")
                )
            })
        })
}

fn compiled(path: &Path, bytes: &[u8]) -> Option<&'static str> {
    let extension = path.extension().and_then(|extension| extension.to_str());
    if matches!(extension, Some("pyc" | "pyo")) {
        return Some("compiled Python bytecode");
    }
    let magic: &[(&[u8], &str)] = &[
        (b"\x7fELF", "an ELF executable or library"),
        (b"\xfe\xed\xfa\xce", "a Mach-O executable"),
        (b"\xfe\xed\xfa\xcf", "a Mach-O executable"),
        (b"\xce\xfa\xed\xfe", "a Mach-O executable"),
        (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
        (
            b"\xca\xfe\xba\xbe",
            "a Mach-O universal binary or Java class",
        ),
        (b"\0asm", "a WebAssembly module"),
    ];
    if let Some((_, what)) = magic.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Some(what);
    }
    // "MZ" starts many text files too; a PE file also names its "PE\0\0" header.
    if bytes.starts_with(b"MZ")
        && memchr::memmem::find(&bytes[..bytes.len().min(1024)], b"PE\0\0").is_some()
    {
        return Some("a Windows executable or DLL");
    }
    None
}

/// One capability of a skill and where a file shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    pub capability: Capability,
    /// The file, as the caller named it.
    pub path: PathBuf,
    pub(crate) span: Span,
    /// The text that shows it, abridged.
    pub snippet: String,
    /// Unusual for most skills: a strong secret, a suspicious destination, persistence. Only
    /// notable evidence can make `capability-mismatch` fire.
    pub(crate) notable: bool,
}

impl Evidence {
    /// The 1-based line.
    #[must_use]
    pub fn line(&self) -> u32 {
        self.span.start.line + 1
    }
}

/// The security findings and capabilities of one file.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    pub diagnostics: Vec<Diagnostic>,
    pub evidence: Vec<Evidence>,
}

struct Hit {
    pattern: usize,
    range: TextRange,
    place: Place,
    severity: Option<Severity>,
}

/// Scans one file of a skill. `path` names it in related information; `body_start` is where a
/// SKILL.md's body begins (0 for other files); `description` is the skill's, which makes a
/// capability it declares (a backup skill reading `~/.ssh`) information rather than a warning.
#[must_use]
pub(crate) fn scan(
    path: &Path,
    text: &str,
    kind: FileKind,
    body_start: usize,
    description: &str,
) -> Scan {
    let mut scan = Scan::default();
    match kind {
        FileKind::Compiled(what) => {
            let mut diagnostic = Diagnostic::new(
                Rule::Obfuscation,
                TextRange::new(0, 0),
                format!(
                    "the skill ships {what} — nobody can review what compiled code does before it runs; ship the source and build it, or fetch the tool from its publisher"
                ),
            );
            diagnostic.severity = Severity::Warning;
            scan.diagnostics.push(diagnostic);
            return scan;
        }
        FileKind::Binary => return scan,
        _ => {}
    }
    let declared = |capability: Capability| declares(description, capability);
    let places = OnceCell::new();
    let place_at = |offset: usize| -> Place {
        places
            .get_or_init(|| match kind {
                FileKind::Skill | FileKind::Markdown => Places::markdown(text, body_start, true),
                FileKind::Docs => Places::markdown(text, body_start, false),
                FileKind::Script => Places::script(text),
                _ => Places::default(),
            })
            .at(offset)
    };
    hidden::characters(text, &place_at, &mut scan.diagnostics);
    if matches!(kind, FileKind::Text | FileKind::Test) {
        allow::apply(text, &mut scan.diagnostics);
        return scan;
    }
    injection(text, kind, &place_at, &mut scan.diagnostics);
    if matches!(kind, FileKind::Skill | FileKind::Markdown | FileKind::Docs) {
        hidden_instructions(text, body_start, &places, &place_at, &mut scan.diagnostics);
    }
    if kind == FileKind::Skill {
        dynamic_context(text, body_start, &mut scan.diagnostics);
    }
    let hits = pattern_hits(text, &place_at, &places, &declared);
    if kind == FileKind::Script && is_shell_script(path, text) {
        scan.evidence.push(evidence(
            path,
            text,
            Capability::Shell,
            TextRange::new(0, 0),
            false,
        ));
    }
    judge(path, text, &hits, &mut scan);
    allow::apply(text, &mut scan.diagnostics);
    scan
}

fn is_shell_script(path: &Path, text: &str) -> bool {
    let extension = path.extension().and_then(|extension| extension.to_str());
    matches!(
        extension,
        Some("sh" | "bash" | "zsh" | "fish" | "ksh" | "ps1" | "bat" | "cmd")
    ) || text.starts_with("#!/bin/sh")
        || text.starts_with("#!/bin/bash")
        || text.starts_with("#!/usr/bin/env bash")
        || text.starts_with("#!/usr/bin/env sh")
        || text.starts_with("#!/bin/zsh")
}

fn evidence(
    path: &Path,
    text: &str,
    capability: Capability,
    range: TextRange,
    notable: bool,
) -> Evidence {
    Evidence {
        capability,
        path: path.to_path_buf(),
        span: Span::of(text, range),
        snippet: hidden::abridge(&text[range.as_range()], 60),
        notable,
    }
}

/// Every pattern match of `text`, placed and graded.
fn pattern_hits(
    text: &str,
    place_at: &dyn Fn(usize) -> Place,
    places: &OnceCell<Places>,
    declared: &dyn Fn(Capability) -> bool,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (index, pattern) in PATTERNS.iter().enumerate() {
        for found in COMPILED.each[index].find_iter(text) {
            let mut range = TextRange::new(found.start(), found.end());
            let place = place_at(range.start);
            let mut grade = match place {
                Place::Script | Place::Block(_) => pattern.grades.code,
                Place::Frontmatter | Place::Prose => pattern.grades.prose,
                Place::Hidden => pattern.grades.hidden,
                Place::Quoted | Place::Comment => continue,
            };
            // A regular expression that looks for the pattern (a scanner's rule, a guard's
            // deny list) is not the pattern.
            if is_regex_source(found.as_str()) {
                continue;
            }
            if matches!(pattern.rule, Rule::RemoteCode | Rule::Destructive)
                && in_unrun_string(text, range.start)
            {
                continue;
            }
            let unit = unit_text(text, place, range.start, places);
            let Some(severity) = refine(pattern.refine, found.as_str(), text, range, unit, grade)
            else {
                continue;
            };
            grade = severity;
            // What the description declares (a backup skill reading ~/.ssh, a dotfiles skill
            // editing ~/.zshrc) is information, not a warning.
            let capability = match pattern.rule {
                Rule::Persistence => Some(Capability::Persistence),
                Rule::CredentialAccess => Some(Capability::Secrets),
                _ => None,
            };
            let severity = match (grade, capability) {
                (Some(Severity::Warning), Some(capability)) if declared(capability) => {
                    Some(Severity::Info)
                }
                _ => grade,
            };
            if matches!(pattern.refine, Refine::LongBlob) {
                let end = text.as_bytes()[range.end..]
                    .iter()
                    .position(|byte| {
                        !(byte.is_ascii_alphanumeric()
                            || matches!(byte, b'+' | b'/' | b'=' | b'\\'))
                    })
                    .map_or(text.len(), |at| range.end + at);
                range = TextRange::new(range.start, end);
            }
            hits.push(Hit {
                pattern: index,
                range,
                place,
                severity,
            });
        }
    }
    hits.sort_by_key(|hit| (hit.range.start, hit.pattern));
    hits.dedup_by(|later, earlier| {
        later.range.start == earlier.range.start && later.pattern == earlier.pattern
    });
    hits
}

/// A regular expression's source: escapes a command never holds.
fn is_regex_source(matched: &str) -> bool {
    [r"\.", r"\s", r"\|", r"\b", r"\w", r"\d", r"\(", "[^", r"\/"]
        .iter()
        .any(|escape| matched.contains(escape))
}

/// Whether `offset` sits inside a string literal on its line that the line does not hand to a
/// shell or an interpreter: a deny list, a test case or a message, not a command.
fn in_unrun_string(text: &str, offset: usize) -> bool {
    static RUNS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(
            r"(?i)\b(?:system|subprocess|popen|check_output|check_call|exec\w*|spawn\w*|child_process|shell_exec|passthru|eval|run|call|Start-Process|Invoke-Expression|iex)\s*\(|shell\s*=\s*True|\b(?:ba|z)?sh\s+-c\b|`",
        )
    });
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[offset..]
        .find('\n')
        .map_or(text.len(), |at| offset + at);
    let before = &text[line_start..offset];
    let open = |quote: char| {
        let mut escaped = false;
        let mut count = 0usize;
        for ch in before.chars() {
            match ch {
                '\\' => escaped = !escaped,
                ch if ch == quote && !escaped => count += 1,
                _ => escaped = false,
            }
            if ch != '\\' {
                escaped = false;
            }
        }
        count % 2 == 1
    };
    (open('"') || open('\'')) && !RUNS.is_match(&text[line_start..line_end])
}

/// The text of the program a match belongs to: its block, or the whole script.
fn unit_text<'a>(text: &'a str, place: Place, offset: usize, places: &OnceCell<Places>) -> &'a str {
    match place {
        Place::Block(_) => places
            .get()
            .and_then(|places| places.region_at(offset))
            .map_or(text, |range| &text[range]),
        _ => text,
    }
}

/// The second look of `Refine`: `None` drops the match (not even a capability), `Some(grade)`
/// keeps it with that grade.
fn refine(
    how: Refine,
    matched: &str,
    text: &str,
    range: TextRange,
    unit: &str,
    grade: Option<Severity>,
) -> Option<Option<Severity>> {
    match how {
        Refine::None => Some(grade),
        Refine::ByHost => {
            // `curl … | python3 -m json.tool`, `| node script.js`, `| python -c '…'`: the
            // interpreter runs its own code and reads the download as data.
            let line_end = text[range.end..]
                .find('\n')
                .map_or(text.len(), |at| range.end + at);
            let rest = text[range.end..line_end].trim_start();
            let first = rest.split_whitespace().next().unwrap_or("");
            let reads_data = matches!(
                first,
                "-c" | "-m" | "-e" | "-p" | "-E" | "-pe" | "-ne" | "-r"
            ) || (!first.is_empty()
                && !first.starts_with('-')
                && !first.starts_with(['&', '|', ';', ')', '>', '<', '#', '\\', '2', '"', '\'']));
            if reads_data {
                return None;
            }
            let lower = matched.to_ascii_lowercase();
            let plain_http = lower
                .match_indices("http://")
                .any(|(at, _)| !is_local_host(&lower[at + 7..]));
            let untrusted = public_ip(matched).is_some() || plain_http;
            Some(if untrusted {
                grade.map(|_| Severity::Error)
            } else {
                grade
            })
        }
        Refine::Read => {
            let line_start = text[..range.start].rfind('\n').map_or(0, |at| at + 1);
            let line_end = text[range.end..]
                .find('\n')
                .map_or(text.len(), |at| range.end + at);
            patterns::READS
                .is_match(&text[line_start..line_end])
                .then_some(grade)
        }
        Refine::WholeKeychain => {
            let line_end = text[range.end..]
                .find('\n')
                .map_or(text.len(), |at| range.end + at);
            let rest = &text[range.end..line_end];
            let named = [" -s ", " -a ", " -l ", " -s\"", " -a\"", "lookup "]
                .iter()
                .any(|flag| rest.contains(flag) || matched.contains(flag));
            // A named entry is the skill's own key: evidence of a secret, not a finding.
            if named { Some(None) } else { Some(grade) }
        }
        Refine::PublicHost => {
            let host = matched
                .split_once("/dev/tcp/")
                .or_else(|| matched.split_once("/dev/udp/"))
                .map(|(_, rest)| rest);
            match host {
                Some(host) if is_local_host(host) => None,
                _ => Some(grade),
            }
        }
        Refine::PublicAddress => public_ip(matched).map(|_| grade),
        Refine::UnsetVariable => {
            let name: String = matched
                .split('$')
                .nth(1)?
                .trim_start_matches('{')
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            let set = [
                format!("{name}="),
                format!("for {name} in"),
                format!("read {name}"),
                format!("read -r {name}"),
                format!("local {name}"),
                format!("export {name}="),
            ];
            if name.is_empty() || set.iter().any(|form| unit.contains(form.as_str())) {
                None
            } else {
                Some(grade)
            }
        }
        Refine::ComputedArgument => {
            let before = text[..range.start].chars().next_back();
            if before.is_some_and(|ch| ch == '.' || ch.is_alphanumeric() || ch == '_') {
                return None;
            }
            let after = text[range.end..].trim_start();
            if after.starts_with(['"', '\'', '`', ')']) {
                None
            } else {
                Some(grade.map(|_| Severity::Warning))
            }
        }
        Refine::Written => {
            let line_start = text[..range.start].rfind('\n').map_or(0, |at| at + 1);
            let line_end = text[range.end..]
                .find('\n')
                .map_or(text.len(), |at| range.end + at);
            patterns::WRITES
                .is_match(&text[line_start..line_end])
                .then_some(grade)
        }
        Refine::LongBlob => {
            let run_end = |from: usize, allowed: &dyn Fn(u8) -> bool| {
                text.as_bytes()[from..]
                    .iter()
                    .position(|&byte| !allowed(byte))
                    .map_or(text.len(), |at| from + at)
            };
            // Only the first match of a run reports it.
            let before = text.as_bytes()[..range.start].last().copied();
            let base64 = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/';
            let escaped = |byte: u8| byte.is_ascii_hexdigit() || byte == b'\\' || byte == b'x';
            let (continues, end) = if matched.starts_with("\\x") {
                (before.is_some_and(escaped), run_end(range.start, &escaped))
            } else {
                (before.is_some_and(base64), run_end(range.start, &base64))
            };
            // A data URI of an image or font is an asset, not a payload.
            let data_uri = text[..range.start].ends_with(";base64,");
            (!continues && !data_uri && end - range.start >= 400).then_some(grade)
        }
        Refine::EnvFile => {
            let tail = matched.rsplit(".env").next().unwrap_or("");
            let example = ["example", "sample", "template", "dist", "tmpl", "default"]
                .iter()
                .any(|word| tail.to_ascii_lowercase().contains(word));
            (!example).then_some(grade)
        }
    }
}

/// Whether a host (the text right after `://` or `/dev/tcp/`) is the user's own machine or
/// local network.
fn is_local_host(host: &str) -> bool {
    let host = host.split(['/', ':', ' ', '"', '\'']).next().unwrap_or("");
    host == "localhost"
        || host.ends_with(".local")
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host.starts_with("10.")
        || host.starts_with("192.168.")
        || host.starts_with("0.0.0.0")
        || host.starts_with('$')
        || host.starts_with("${")
}

/// The first IP address of a URL in `text` that is not the user's own machine or network.
fn public_ip(text: &str) -> Option<&str> {
    let at = text.find("://")? + 3;
    let host: &str = text[at..]
        .split(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
        .next()?;
    let octets: Vec<u8> = host
        .split('.')
        .filter_map(|part| part.parse().ok())
        .collect();
    if octets.len() != 4 {
        return None;
    }
    let private = matches!(
        octets[..],
        [127 | 10 | 0, ..] | [192, 168, ..] | [169, 254, ..] | [172, 16..=31, ..]
    );
    (!private).then_some(host)
}

/// How many lines apart a secret read and a send may be to count as one flow.
const NEAR_LINES: u32 = 30;

/// Turns the hits into findings and evidence, joining secret reads and sends per program.
fn judge(path: &Path, text: &str, hits: &[Hit], scan: &mut Scan) {
    // Findings of strong sources that an exfiltration error already names.
    let mut explained = Vec::new();
    let units = {
        let mut units: Vec<Place> = hits
            .iter()
            .map(|hit| hit.place)
            .filter(|place| place.runs())
            .collect();
        units.dedup();
        units.sort_by_key(|place| match place {
            Place::Block(number) => *number,
            _ => 0,
        });
        units.dedup();
        units
    };
    for unit in units {
        let in_unit = |hit: &&Hit| hit.place == unit;
        let role = |hit: &Hit| PATTERNS[hit.pattern].role;
        let strong: Vec<&Hit> = hits
            .iter()
            .filter(in_unit)
            .filter(|hit| role(hit) == Role::Source { strong: true })
            .collect();
        let weak: Vec<&Hit> = hits
            .iter()
            .filter(in_unit)
            .filter(|hit| role(hit) == Role::Source { strong: false })
            .collect();
        let suspicious: Vec<&Hit> = hits
            .iter()
            .filter(in_unit)
            .filter(|hit| role(hit) == Role::Sink { suspicious: true })
            .collect();
        let plain: Vec<&Hit> = hits
            .iter()
            .filter(in_unit)
            .filter(|hit| role(hit) == Role::Sink { suspicious: false })
            .collect();
        let bulk_weak: Vec<&&Hit> = weak
            .iter()
            .filter(|hit| !PATTERNS[hit.pattern].what.contains("API key"))
            .collect();
        // A read and a send far apart in a long script are rarely one flow of data: only pairs
        // within a screenful are joined.
        let line = |hit: &Hit| Span::of(text, hit.range).start.line;
        fn near<'h>(
            sources: &[&'h Hit],
            sinks: &[&'h Hit],
            line: &dyn Fn(&Hit) -> u32,
        ) -> Option<(&'h Hit, &'h Hit)> {
            sources.iter().find_map(|source| {
                sinks
                    .iter()
                    .find(|sink| line(source).abs_diff(line(sink)) <= NEAR_LINES)
                    .map(|sink| (*source, *sink))
            })
        }
        let sinks: Vec<&Hit> = suspicious.iter().chain(&plain).copied().collect();
        let bulk_weak: Vec<&Hit> = bulk_weak.into_iter().copied().collect();
        let pair = if let Some((source, sink)) = near(&strong, &sinks, &line) {
            Some((source, sink, Severity::Error))
        } else if let Some((source, sink)) = near(&weak, &suspicious, &line) {
            Some((source, sink, Severity::Error))
        } else {
            near(&bulk_weak, &plain, &line).map(|(source, sink)| (source, sink, Severity::Warning))
        };
        if let Some((source, sink, severity)) = pair {
            let source_pattern = &PATTERNS[source.pattern];
            let line = Span::of(text, source.range).start.line + 1;
            let mut diagnostic = Diagnostic::new(
                Rule::Exfiltration,
                sink.range,
                format!(
                    "{} {} (line {line}) and sends data out here ('{}') — {}, and this can carry it to another machine; keep secrets out of anything the skill uploads, or drop the upload",
                    capitalize(unit.subject()),
                    source_pattern.what,
                    hidden::abridge(&text[sink.range.as_range()], 60),
                    source_pattern.harm,
                ),
            );
            diagnostic.severity = severity;
            diagnostic.related.push(Related {
                path: path.to_path_buf(),
                span: Span::of(text, source.range),
                message: format!("the secret is read here: {}", source_pattern.what),
            });
            scan.diagnostics.push(diagnostic);
            explained.extend(strong.iter().map(|hit| hit.range.start));
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut reported = std::collections::HashSet::new();
    for hit in hits {
        let pattern = &PATTERNS[hit.pattern];
        let notable;
        let capability = match pattern.role {
            Role::Uses(capability) => {
                notable = capability == Capability::Persistence;
                Some(capability)
            }
            Role::Source { strong } => {
                notable = strong;
                Some(Capability::Secrets)
            }
            Role::Sink { suspicious } => {
                notable = suspicious;
                Some(Capability::Network)
            }
            Role::Plain => {
                notable = false;
                None
            }
        };
        if let Some(mut capability) = capability.filter(|_| hit.place.runs()) {
            if capability == Capability::ReadsOutside && writes_on_line(text, hit.range) {
                capability = Capability::WritesOutside;
            }
            // One piece of evidence per capability and file, notable first.
            if seen.insert((capability, notable)) {
                scan.evidence
                    .push(evidence(path, text, capability, hit.range, notable));
            }
        }
        let Some(severity) = hit.severity else {
            continue;
        };
        // One finding per place: the first pattern of the table says it best.
        if pattern.harm.is_empty()
            || explained.contains(&hit.range.start)
            || !reported.insert(hit.range.start)
        {
            continue;
        }
        let mut diagnostic = Diagnostic::new(
            pattern.rule,
            hit.range,
            format!(
                "{} {} ('{}') — {}; {}",
                capitalize(hit.place.subject()),
                pattern.what,
                hidden::abridge(&text[hit.range.as_range()], 60),
                pattern.harm,
                fix_hint(pattern.rule),
            ),
        );
        diagnostic.severity = severity;
        scan.diagnostics.push(diagnostic);
    }
    scan.evidence
        .sort_by_key(|evidence| (evidence.capability, !evidence.notable));
    scan.evidence.dedup_by_key(|evidence| evidence.capability);
}

fn writes_on_line(text: &str, range: TextRange) -> bool {
    let line_start = text[..range.start].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |at| range.end + at);
    patterns::WRITES.is_match(&text[line_start..line_end])
}

/// How to fix a finding of `rule`, closing its message.
fn fix_hint(rule: Rule) -> &'static str {
    match rule {
        Rule::RemoteCode => {
            "pin what runs: ship the script in the skill, or download it, verify its checksum and only then run it"
        }
        Rule::CredentialAccess => {
            "read only the secret the task needs, from the variable or file the user names"
        }
        Rule::Exfiltration => {
            "send nothing the user did not ask to send, and only to a service the description names"
        }
        Rule::Persistence => {
            "ask the user to make the change themselves, and say so in the description"
        }
        Rule::Destructive => {
            "limit it to a path the skill created, and check the path is not empty first"
        }
        Rule::Obfuscation => "ship readable source instead",
        _ => "remove it, or explain it in an allow comment",
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Phrases that take over the agent or hide from the user, in prose, frontmatter, hidden
/// Markdown and the code of scripts; not in code spans, example blocks, comments or quotes.
fn injection(
    text: &str,
    kind: FileKind,
    place_at: &dyn Fn(usize) -> Place,
    out: &mut Vec<Diagnostic>,
) {
    for (regex, what) in patterns::INJECTION.iter() {
        for found in regex.find_iter(text) {
            let place = place_at(found.start());
            let severity = match place {
                Place::Hidden => Severity::Error,
                Place::Frontmatter | Place::Prose | Place::Block(_) => Severity::Warning,
                Place::Script if kind == FileKind::Script => Severity::Warning,
                _ => continue,
            };
            if quoted(text, found.start(), found.end())
                || !injection_applies(text, found.start(), found.end(), what)
            {
                continue;
            }
            let mut diagnostic = Diagnostic::new(
                Rule::PromptInjection,
                TextRange::new(found.start(), found.end()),
                format!(
                    "{} {what} ('{}') — an agent that loads the skill may obey it against the user's wishes; address the user's task, not the agent's rules, and let the agent ask",
                    capitalize(place.subject()),
                    hidden::abridge(found.as_str(), 60),
                ),
            );
            diagnostic.severity = severity;
            out.push(diagnostic);
        }
    }
}

/// The second look at an injection phrase: "do not tell the user to run it" asks the agent to
/// act, not to hide; skipping the user's approval matters where the sentence does something
/// the user would want to approve.
fn injection_applies(text: &str, start: usize, end: usize, what: &str) -> bool {
    static ACTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(
            r"(?i)\b(?:run|runs|execute|delete|remove|install|push|send|upload|post|pay|purchase|buy|transfer|overwrite|drop|deploy|rm|curl|download|publish|email|share|modify|commit|merge|force)\b",
        )
    });
    let after = text[end..].trim_start();
    if what.contains("hide") && after.starts_with("to ") {
        return false;
    }
    if what.contains("approval") {
        let sentence_start = text[..start]
            .rfind(['.', '\n', '!', '?'])
            .map_or(0, |at| at + 1);
        let sentence_end = text[end..]
            .find(['.', '\n', '!', '?'])
            .map_or(text.len(), |at| end + at);
        return ACTS.is_match(&text[sentence_start..sentence_end]);
    }
    true
}

/// Whether a phrase is quoted: written inside quotation marks, as an example of what to watch for.
fn quoted(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let opens = |ch: char| matches!(ch, '"' | '\'' | '“' | '‘' | '«' | '`' | '*' | '_');
    before.is_some_and(opens)
        || after.is_some_and(|ch| matches!(ch, '"' | '\'' | '”' | '’' | '»' | '`'))
}

/// Text in HTML comments, link titles and image alt text that addresses the agent: the reader
/// of the rendered page never sees it, the model reads every word.
fn hidden_instructions(
    text: &str,
    body_start: usize,
    places: &OnceCell<Places>,
    place_at: &dyn Fn(usize) -> Place,
    out: &mut Vec<Diagnostic>,
) {
    if memchr::memmem::find(&text.as_bytes()[body_start..], b"<!--").is_none()
        && !text[body_start..].contains("](")
    {
        return;
    }
    let _ = place_at(body_start);
    let Some(places) = places.get() else {
        return;
    };
    let mut seen = Vec::new();
    for found in patterns::ADDRESSES_AGENT.find_iter(&text[body_start..]) {
        let offset = body_start + found.start();
        if place_at(offset) != Place::Hidden {
            continue;
        }
        let Some(region) = places.region_at(offset) else {
            continue;
        };
        // An injection phrase in the same place is already an error of its own.
        let injected = out.iter().any(|diagnostic| {
            diagnostic.rule == Rule::PromptInjection && region.contains(&diagnostic.range.start)
        });
        if injected || seen.contains(&region.start) || text[region.clone()].contains("skill-lsp:") {
            continue;
        }
        seen.push(region.start);
        let mut diagnostic = Diagnostic::new(
            Rule::HiddenText,
            TextRange::new(region.start, region.end),
            format!(
                "instructions to the agent where a reader of the rendered page cannot see them ('{}') — the model follows them while the person reviewing the skill never reads them; put instructions in the visible text",
                hidden::abridge(&text[region.clone()], 60)
            ),
        );
        diagnostic.severity = Severity::Warning;
        out.push(diagnostic);
    }
}

/// Claude Code runs `` !`command` `` in a SKILL.md when it loads the skill, before the model
/// sees anything: a command there that reaches the network runs on every load.
fn dynamic_context(text: &str, body_start: usize, out: &mut Vec<Diagnostic>) {
    let body = &text[body_start..];
    if memchr::memmem::find(body.as_bytes(), b"!`").is_none() {
        return;
    }
    static NETWORK: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(
            r"(?i)\b(?:curl|wget|nc|ncat|iwr|irm|invoke-webrequest|invoke-restmethod|ssh|scp)\b|https?://",
        )
    });
    let mut from = 0;
    while let Some(at) = memchr::memmem::find(&body.as_bytes()[from..], b"!`") {
        let start = from + at + 2;
        let Some(length) = body[start..].find(['`', '\n']) else {
            break;
        };
        let command = &body[start..start + length];
        from = start + length;
        if !body[start + length..].starts_with('`') || !NETWORK.is_match(command) {
            continue;
        }
        let pipes = COMPILED.each[0].is_match(command);
        let mut diagnostic = Diagnostic::new(
            Rule::RemoteCode,
            TextRange::new(body_start + start - 2, body_start + start + length + 1),
            format!(
                "a load-time command reaches the network ('{}') — Claude Code runs it every time the skill loads, before the model or the user sees anything, and puts the reply into the conversation; fetch at run time in a script the user can review",
                hidden::abridge(command, 60)
            ),
        );
        diagnostic.severity = if pipes {
            Severity::Error
        } else {
            Severity::Warning
        };
        out.push(diagnostic);
    }
}

/// The security findings of a SKILL.md's own text: its frontmatter grants and name, and the scan
/// of the whole file.
#[must_use]
pub(crate) fn skill_findings(path: &Path, text: &str, document: &SkillDocument) -> Scan {
    let body_start = document.body.range.start.min(text.len());
    let description = document
        .field("description")
        .and_then(|entry| entry.value.as_str())
        .unwrap_or_default();
    let mut scan = scan(path, text, FileKind::Skill, body_start, description);
    let mut extra = Vec::new();
    permissions::check(text, document, &mut extra);
    if let Some(entry) = document.field("name") {
        if let crate::document::NodeKind::Scalar { value, .. } = &entry.value.kind {
            extra.extend(hidden::name_look_alikes(value, entry.value.range));
        }
    }
    allow::apply(text, &mut extra);
    scan.diagnostics.extend(extra);
    scan
}

static MENTIONS: std::sync::LazyLock<[(Capability, regex::Regex); 6]> = std::sync::LazyLock::new(
    || {
        let words = patterns::compile;
        [
            (
                Capability::Network,
                words(
                    r"(?i)network|internet|online|\bweb|https?|\burl|\bapis?\b|server|upload|download|fetch|remote|cloud|send|\bpost|webhook|sync|socket|connect|deploy|publish|notif|slack|discord|telegram|e-?mail|share|report|telemetry|monitor|scrap|crawl|search|request|endpoint|service",
                ),
            ),
            (
                Capability::Shell,
                words(r"(?i)shell|command|terminal|script|run|execut|cli\b|bash"),
            ),
            (
                Capability::ReadsOutside,
                words(r"(?i)home|config|system|file|folder|director"),
            ),
            (
                Capability::WritesOutside,
                words(r"(?i)home|config|system|install|setup|set up|write|save|file"),
            ),
            (
                Capability::Secrets,
                words(
                    r"(?i)credential|secret|password|token|\bkeys?\b|api.?key|ssh|aws|auth|login|keychain|vault|cert|account|backup|migrat|dotfile|\.env|environment",
                ),
            ),
            (
                Capability::Persistence,
                words(
                    r"(?i)cron|schedul|start-?up|boot|login|hook|daemon|service|background|install|set ?up|configur|dotfile|profile|bashrc|zshrc|autostart|launch|persist|recurring|periodic",
                ),
            ),
        ]
    },
);

/// Whether a description speaks of a capability.
#[must_use]
pub(crate) fn declares(description: &str, capability: Capability) -> bool {
    MENTIONS
        .iter()
        .find(|(known, _)| *known == capability)
        .is_some_and(|(_, words)| words.is_match(description))
}

/// `capability-mismatch`: notable evidence the description says nothing about. The finding sits
/// on `range` (the description) with the evidence as related information.
#[must_use]
pub(crate) fn mismatch(
    description: &str,
    range: TextRange,
    skill_folder: &Path,
    evidence: &[Evidence],
) -> Option<Diagnostic> {
    let unmentioned: Vec<&Evidence> = evidence
        .iter()
        .filter(|evidence| evidence.notable && !declares(description, evidence.capability))
        .collect();
    let first = unmentioned.first()?;
    let what: Vec<&str> = {
        let mut what: Vec<&str> = unmentioned
            .iter()
            .map(|evidence| evidence.capability.describe())
            .collect();
        what.dedup();
        what
    };
    let mut diagnostic = Diagnostic::new(
        Rule::CapabilityMismatch,
        range,
        format!(
            "the description never says the skill {}, but {} line {} does ('{}') — a user who installs it for what the description promises does not expect that; say it in the description or remove it",
            what.join(" or "),
            first
                .path
                .strip_prefix(skill_folder)
                .unwrap_or(&first.path)
                .display(),
            first.line(),
            first.snippet,
        ),
    );
    diagnostic.severity = Severity::Warning;
    for evidence in unmentioned {
        diagnostic.related.push(Related {
            path: evidence.path.clone(),
            span: evidence.span,
            message: format!("this {}", evidence.capability.describe()),
        });
    }
    Some(diagnostic)
}

#[cfg(test)]
mod tests;
