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
mod prefilter;
mod split;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Related, Severity};
use crate::document::SkillDocument;
use crate::rule_table::Rule;
use crate::text::{Span, TextRange};

pub use patterns::Capability;
use patterns::{COMPILED, PATTERNS, PREFILTER, Refine, Role};
pub(crate) use places::Place;
pub(crate) use places::{MarkdownWalk, Places};
use prefilter::Candidates;

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
    // At the top of the skill (the repository's own files) or in a folder of documentation;
    // `references/install.md` is for the agent.
    let top = path
        .parent()
        .is_none_or(|parent| parent.as_os_str().is_empty());
    (top && (name.contains("README") || for_people.iter().any(|prefix| name.starts_with(prefix))))
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
    /// Shown by a script the skill ships, rather than by instructions a reader can see.
    pub(crate) in_script: bool,
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
/// SKILL.md's body begins (0 for other files).
#[must_use]
pub(crate) fn scan(path: &Path, text: &str, kind: FileKind, body_start: usize) -> Scan {
    scan_with(path, text, kind, body_start, None)
}

/// [`scan`], with the places of a SKILL.md's body when its body rules found them already.
fn scan_with(
    path: &Path,
    text: &str,
    kind: FileKind,
    body_start: usize,
    known: Option<Places>,
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
    let places = OnceCell::new();
    if let Some(known) = known.filter(|known| known.body_start() == body_start) {
        let _ = places.set(known);
    }
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
    let candidates = PREFILTER.scan(text);
    injection(text, kind, &candidates, &place_at, &mut scan.diagnostics);
    if matches!(kind, FileKind::Skill | FileKind::Markdown | FileKind::Docs) {
        hidden_instructions(
            text,
            body_start,
            &candidates,
            &places,
            &place_at,
            &mut scan.diagnostics,
        );
    }
    if kind == FileKind::Skill {
        dynamic_context(text, body_start, &mut scan.diagnostics);
    }
    let strings = StringSyntax::of(path);
    let hits = pattern_hits(text, (kind, strings), &candidates, &place_at, &places);
    if kind == FileKind::Script && is_shell_script(path, text) {
        scan.evidence.push(evidence(
            path,
            text,
            Capability::Shell,
            TextRange::new(0, 0),
            false,
            true,
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
    in_script: bool,
) -> Evidence {
    Evidence {
        capability,
        path: path.to_path_buf(),
        span: Span::of(text, range),
        snippet: hidden::abridge(&text[range.as_range()], 60),
        notable,
        in_script,
    }
}

/// Every pattern match of `text`, placed and graded.
fn pattern_hits(
    text: &str,
    (kind, strings): (FileKind, StringSyntax),
    candidates: &Candidates<'_>,
    place_at: &dyn Fn(usize) -> Place,
    places: &OnceCell<Places>,
) -> Vec<Hit> {
    let mut hits = Vec::new();
    let unrun_strings = OnceCell::new();
    for (index, pattern) in PATTERNS.iter().enumerate() {
        if !candidates.may_match(index) {
            continue;
        }
        for found in COMPILED.each[index].find_iter(text) {
            let mut range = TextRange::new(found.start(), found.end());
            // The rest of an encoded run is the first match's: skip it before any other look.
            if matches!(pattern.refine, Refine::LongBlob)
                && text.as_bytes()[..range.start].last().is_some_and(|&byte| {
                    byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'\\')
                })
            {
                continue;
            }
            let place = place_at(range.start);
            // A commented-out line of a block ("# or: curl … | sh") is not run.
            if matches!(place, Place::Block(_)) && is_comment_line(line_of(text, range)) {
                continue;
            }
            let mut grade = match place {
                Place::Block(_) | Place::Span if !pattern.grades.markdown => None,
                Place::Script | Place::Block(_) => pattern.grades.code,
                Place::Prose => pattern.grades.prose,
                // A command in a code span or the frontmatter is what the text tells the agent
                // to do, unless the sentence presents it as something to avoid or look for.
                Place::Span | Place::Frontmatter => {
                    let before = &text[crate::text::floor_char_boundary(
                        text,
                        range.start.saturating_sub(20 * LINE_WINDOW),
                    )..range.start];
                    if places::BAD_EXAMPLE.is_match(line_of(text, range))
                        || places::introduced_as_bad(before)
                        || places::heading_marks_bad(before)
                    {
                        continue;
                    }
                    pattern.grades.prose.or(pattern
                        .grades
                        .code
                        .map(|severity| severity.min(Severity::Warning)))
                }
                Place::Hidden => pattern.grades.hidden,
                Place::Quoted | Place::Comment => continue,
            };
            // A regular expression that looks for the pattern (a scanner's rule, a guard's
            // deny list) is not the pattern.
            if is_regex_source(found.as_str()) {
                continue;
            }
            if matches!(pattern.rule, Rule::RemoteCode | Rule::Destructive)
                && matches!(place, Place::Script | Place::Block(_))
                && in_unrun_string(text, range.start)
            {
                continue;
            }
            // A trailing comment (`system(…)  # if $x is "'; rm -rf / #"`) does not run, and a
            // defanged address (`hxxp://evil[.]com`) is an indicator quoted in a report.
            if matches!(place, Place::Script | Place::Block(_))
                && (in_trailing_comment(text, range.start) || is_defanged(line_of(text, range)))
            {
                continue;
            }
            // In a block, a line labelled as a pattern to look for (`Pattern: eval(x)`, a list
            // under "Block dangerous commands:"), or a call of elided text (`eval(atob("..."))`),
            // shows the shape of a threat, not a command.
            if matches!(place, Place::Block(_))
                && (labelled_as_bad(text, range.start) || elided(&text[range.end..]))
            {
                continue;
            }
            // Text inside a multi-line string (a docstring's usage example, a prompt template)
            // is data unless the line that opens the string hands it to a shell.
            if place == Place::Script
                && within(
                    unrun_strings.get_or_init(|| strings.unrun_strings(text)),
                    range.start,
                )
            {
                continue;
            }
            // A message the program prints (`print(f"launchctl load failed")`, `echo "then
            // run: ln -s … ~/.claude/skills/x"`) tells, it does not do.
            if matches!(place, Place::Script | Place::Block(_))
                && in_printed_message(text, range.start)
            {
                continue;
            }
            if matches!(place, Place::Script | Place::Block(_)) && in_heredoc(text, range.start) {
                continue;
            }
            let unit = unit_text(text, place, range.start, places);
            let Some(severity) = refine(
                pattern.refine,
                found.as_str(),
                text,
                range,
                (place, kind),
                unit,
                grade,
            ) else {
                continue;
            };
            grade = severity;
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
                severity: grade,
            });
        }
    }
    hits.sort_by_key(|hit| (hit.range.start, hit.pattern));
    hits.dedup_by(|later, earlier| {
        later.range.start == earlier.range.start && later.pattern == earlier.pattern
    });
    hits
}

/// The line holding `range`.
/// At most this many bytes on each side of a match count as its line: context checks on a
/// megabyte-long line would otherwise scan it once per match.
const LINE_WINDOW: usize = 1_000;

/// Whether a command holds an address to download from: a URL, or a host name such as
/// `cli.new` or `get.example.com`.
fn names_an_address(matched: &str) -> bool {
    matched.contains("://")
        || matched.split_whitespace().any(|word| {
            word.rsplit_once('.').is_some_and(|(name, tld)| {
                !name.is_empty() && tld.len() >= 2 && tld.chars().all(|ch| ch.is_ascii_alphabetic())
            })
        })
}

/// A download from a raw IP address or over plain HTTP: nothing vouches for what comes back.
fn untrusted_host(matched: &str) -> bool {
    let lower = matched.to_ascii_lowercase();
    let plain_http = lower
        .match_indices("http://")
        .any(|(at, _)| !is_local_host(&lower[at + 7..]));
    public_ip(matched).is_some() || plain_http
}

/// A download run as code: an error from an untrusted host, information from a vendor's own
/// installer, `grade` otherwise.
fn grade_by_host(matched: &str, grade: Option<Severity>) -> Option<Severity> {
    let lower = matched.to_ascii_lowercase();
    if untrusted_host(matched) {
        grade.map(|_| Severity::Error)
    } else if VENDOR_INSTALLERS.iter().any(|host| lower.contains(host)) {
        grade.map(|_| Severity::Info)
    } else {
        grade
    }
}

/// Where the line holding byte `offset` starts and ends (before its newline).
pub(super) fn line_bounds(text: &str, offset: usize) -> (usize, usize) {
    let start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let end = text[offset..]
        .find('\n')
        .map_or(text.len(), |at| offset + at);
    (start, end)
}

/// The text of the match's line before the match (at most `LINE_WINDOW` bytes of it).
fn before_on_line(text: &str, range: TextRange) -> &str {
    let floor = crate::text::floor_char_boundary(text, range.start.saturating_sub(LINE_WINDOW));
    let line_begin = text[floor..range.start]
        .rfind('\n')
        .map_or(floor, |at| floor + at + 1);
    &text[line_begin..range.start]
}

fn line_of(text: &str, range: TextRange) -> &str {
    let floor = crate::text::floor_char_boundary(text, range.start.saturating_sub(LINE_WINDOW));
    let ceiling = crate::text::floor_char_boundary(text, range.end.saturating_add(LINE_WINDOW));
    let start = text[floor..range.start]
        .rfind('\n')
        .map_or(floor, |at| floor + at + 1);
    let end = text[range.end..ceiling]
        .find('\n')
        .map_or(ceiling, |at| range.end + at);
    &text[start..end]
}

/// Whether a program does `action` to the path matched at `range`: on the match's own line,
/// or through a name that line binds the path to (`rc=~/.bashrc`, `for rc in …`,
/// `path = home / ".claude" / "settings.json"`) and one of the next lines of the same
/// program uses. A code span is its own program: the action must be inside it.
fn acts_on(
    text: &str,
    range: TextRange,
    place: Place,
    unit: &str,
    action: &dyn Fn(&str) -> bool,
) -> bool {
    if place == Place::Span {
        return action(unit);
    }
    let line = line_of(text, range);
    if action(line) {
        return true;
    }
    let Some(name) = bound_name(line) else {
        return false;
    };
    // The unit is a slice of `text`: the lines read stop where its program ends.
    let unit_end = (unit.as_ptr() as usize).saturating_sub(text.as_ptr() as usize) + unit.len();
    let following = lines_from(text, range, 24);
    let following_start = (following.as_ptr() as usize) - (text.as_ptr() as usize);
    let stop = unit_end.clamp(following_start, following_start + following.len());
    text[following_start..stop]
        .lines()
        .skip(1)
        .any(|later| mentions(later, name) && action(later))
}

/// The sentence of prose around `range`: what a code span is asked to do is often said around
/// it ("Read `~/.aws/credentials`", "append it to `~/.zshrc`").
fn sentence_around(text: &str, range: TextRange) -> &str {
    const ENDS: [&str; 7] = [". ", ".\n", "! ", "? ", "\n\n", "\n- ", "\n```"];
    let floor = crate::text::floor_char_boundary(text, range.start.saturating_sub(400));
    let ceiling = crate::text::floor_char_boundary(text, range.end.saturating_add(400));
    let before = &text[floor..range.start];
    let start = ENDS
        .iter()
        .filter_map(|end| before.rfind(end).map(|at| floor + at + end.len()))
        .max()
        .unwrap_or(floor);
    let after = &text[range.end..ceiling];
    let end = ENDS
        .iter()
        .filter_map(|end| after.find(end).map(|at| range.end + at))
        .min()
        .unwrap_or(ceiling);
    &text[start..end]
}

/// The name a line binds: `NAME=…`, `local name=…`, `const name = …`, `name: Path = …`,
/// `for name in …`.
fn bound_name(line: &str) -> Option<&str> {
    static BINDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(
            r"^\s*(?:(?:export|local|readonly|const|let|var|my|declare(?:\s+-\w+)?)\s+)?\$?([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*[A-Za-z_][\w\[\]., ]*)?\s*:?=[^=]|\bfor(?:each)?\s*\(?\s*\$?([A-Za-z_][A-Za-z0-9_]*)\s+(?:in|of)\b",
        )
    });
    let captures = BINDS.captures(line)?;
    captures
        .get(1)
        .or_else(|| captures.get(2))
        .map(|name| name.as_str())
}

/// Whether the variable a shell `eval "$x"` runs is glued together from pieces in its program
/// (`x="${a}${b}${c}"`): a command spelled so that no line of the skill shows it.
fn assembled(text: &str, range: TextRange, unit: &str) -> bool {
    let name: String = text[range.start..]
        .split('$')
        .nth(1)
        .unwrap_or("")
        .trim_start_matches('{')
        .chars()
        .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
        .collect();
    if name.is_empty() {
        return false;
    }
    unit.lines()
        .filter(|line| bound_name(line) == Some(name.as_str()))
        .any(|line| line.matches('$').count() >= 3 || line.matches(" + ").count() >= 2)
}

/// Whether `line` uses `name` as a whole word.
fn mentions(line: &str, name: &str) -> bool {
    let word = |ch: Option<char>| ch.is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    line.match_indices(name).any(|(at, _)| {
        !word(line[..at].chars().next_back()) && !word(line[at + name.len()..].chars().next())
    })
}

/// A whole-line comment of a shell, Python or JavaScript block.
fn is_comment_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    (trimmed.starts_with('#') && !trimmed.starts_with("#!")) || trimmed.starts_with("//")
}

/// Lines `range` starts on and the `after` lines that follow it.
fn lines_from(text: &str, range: TextRange, after: usize) -> &str {
    let start = text[..range.start].rfind('\n').map_or(0, |at| at + 1);
    let mut end = range.end;
    for _ in 0..=after {
        match text[end..].find('\n') {
            Some(at) => end += at + 1,
            None => {
                end = text.len();
                break;
            }
        }
    }
    &text[start..end.min(text.len())]
}

/// The program a place belongs to, for joining a secret read with a send: a block, a script,
/// or the instructions of the text itself (prose, code spans, frontmatter).
fn unit_of(place: Place) -> Option<u32> {
    match place {
        Place::Block(number) => Some(number),
        Place::Script => Some(0),
        Place::Prose | Place::Span | Place::Frontmatter => Some(u32::MAX),
        Place::Quoted | Place::Hidden | Place::Comment => None,
    }
}

/// Whether `offset` sits in the body of a here-document that a command other than a shell or
/// an interpreter reads (`cat <<'EOF'`): text, not commands.
fn in_heredoc(text: &str, offset: usize) -> bool {
    static OPENS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(r#"<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?"#)
    });
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    let mut seen_lines = 0;
    for line in text[..line_start].lines().rev() {
        seen_lines += 1;
        if seen_lines > 200 {
            return false;
        }
        let Some(captures) = OPENS.captures(line) else {
            continue;
        };
        let word = &captures[1];
        // The closing word between the opening and the offset ends the document.
        let body_start = text[..line_start]
            .rfind(line)
            .map_or(line_start, |at| at + line.len());
        if text[body_start..line_start]
            .lines()
            .any(|between| between.trim() == word)
        {
            return false;
        }
        let command = line[..captures.get(0).map_or(0, |m| m.start())].trim();
        let runs = [
            "sh", "bash", "zsh", "python", "python3", "node", "perl", "ruby", "eval",
        ]
        .iter()
        .any(|interpreter| command.split_whitespace().any(|word| word == *interpreter));
        return !runs;
    }
    false
}

/// A regular expression's source: escapes a command never holds.
fn is_regex_source(matched: &str) -> bool {
    [r"\.", r"\s", r"\b", r"\w", r"\d", "[^"]
        .iter()
        .any(|escape| matched.contains(escape))
}

/// Whether `offset` follows a comment marker on its line (` #` or ` //` outside any string).
fn in_trailing_comment(text: &str, offset: usize) -> bool {
    let (line_start, _) = line_bounds(text, offset);
    let before = &text[line_start..offset];
    let mut quote = None;
    let mut previous = ' ';
    for (at, ch) in before.char_indices() {
        match (quote, ch) {
            (None, '"' | '\'') => quote = Some(ch),
            (Some(open), _) if ch == open && previous != '\\' => quote = None,
            (None, '#') if previous.is_whitespace() && at > 0 => return true,
            (None, '/') if previous == '/' && before[..at - 1].ends_with(char::is_whitespace) => {
                return true;
            }
            _ => {}
        }
        previous = ch;
    }
    false
}

/// Whether the interpreter a match ends with runs code of its own and reads its input as data:
/// `| python3 -m json.tool`, `| node script.js`, `| python -c '…'`.
fn reads_data_after(text: &str, range: TextRange) -> bool {
    let line_end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |at| range.end + at);
    let rest = text[range.end..line_end].trim_start();
    let first = rest.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "-c" | "-m" | "-e" | "-p" | "-E" | "-pe" | "-ne" | "-r"
    ) || (!first.is_empty()
        && !first.starts_with('-')
        && !first.starts_with(['&', '|', ';', ')', '>', '<', '#', '\\', '2', '"', '\'', '`']))
}

/// How a script's language writes strings that span lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StringSyntax {
    /// `"""…"""` and `'''…'''`.
    Python,
    /// Template literals, `` `…` ``.
    JavaScript,
    /// None we follow: a shell's backquotes run what they hold.
    Other,
}

impl StringSyntax {
    fn of(path: &Path) -> Self {
        match path.extension().and_then(|extension| extension.to_str()) {
            Some("py" | "pyw") => Self::Python,
            Some("js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx") => Self::JavaScript,
            _ => Self::Other,
        }
    }

    /// The multi-line strings of `text` that nothing runs: from the opening delimiter to the
    /// closing one, sorted. A string that opens on the line of what it holds is left to the
    /// one-line judgement; one handed to a shell or an interpreter where it opens
    /// (`subprocess.run("""`, `` exec(` ``) runs.
    fn unrun_strings(self, text: &str) -> Vec<std::ops::Range<usize>> {
        let delimiters: &[&str] = match self {
            Self::Python => &["\"\"\"", "'''"],
            Self::JavaScript => &["`"],
            Self::Other => return Vec::new(),
        };
        let bytes = text.as_bytes();
        let mut strings = Vec::new();
        let mut open: Option<(usize, &str)> = None;
        let mut at = 0;
        // Only a backslash or a delimiter's first byte changes anything: skip to the next.
        let next = |from: usize| match self {
            Self::Python => memchr::memchr3(b'\\', b'"', b'\'', &bytes[from..]),
            _ => memchr::memchr2(b'\\', b'`', &bytes[from..]),
        };
        while at < bytes.len() {
            let Some(skip) = next(at) else {
                break;
            };
            at += skip;
            if bytes[at] == b'\\' {
                at += 2;
                continue;
            }
            let found = delimiters
                .iter()
                .find(|delimiter| bytes[at..].starts_with(delimiter.as_bytes()));
            match (found, open) {
                (Some(delimiter), None) => open = Some((at, delimiter)),
                (Some(delimiter), Some((opened_at, opened))) if *delimiter == opened => {
                    let (line_start, line_end) = line_bounds(text, opened_at);
                    let lead = &text[line_start..opened_at];
                    if self.opens_a_string(lead)
                        && !RUNS_STRING.is_match(lead)
                        && !run_later(text, lead, at)
                    {
                        strings.push(line_end..at);
                    }
                    open = None;
                }
                _ => {}
            }
            at += found.map_or(1, |delimiter| delimiter.len());
        }
        strings
    }

    /// Whether a delimiter after `lead` (its line up to it) opens a string rather than sits in
    /// a comment: after an assignment, a call's parenthesis, a comma, `return`, or alone on
    /// its line as a docstring does.
    fn opens_a_string(self, lead: &str) -> bool {
        if lead.contains('#') || lead.contains("//") || lead.contains("/*") {
            return false;
        }
        // Python's string prefixes (`f"""`, `rb"""`) belong to the delimiter.
        let lead = match self {
            Self::Python => {
                let bare = lead.trim_end_matches(['f', 'F', 'r', 'R', 'b', 'B', 'u', 'U']);
                if lead.len() - bare.len() <= 2 {
                    bare
                } else {
                    lead
                }
            }
            _ => lead,
        };
        let lead = lead.trim_end();
        lead.is_empty()
            || lead.ends_with(['=', '(', ',', ':', '[', '{', '+'])
            || lead.ends_with("return")
            || (self == Self::JavaScript && lead.ends_with(|ch: char| ch.is_alphanumeric()))
    }
}

/// Whether the name a string is bound to (`payload = """…`) is handed to a shell or an
/// interpreter after the string ends at `end`: then its text runs after all.
fn run_later(text: &str, lead: &str, end: usize) -> bool {
    let Some(name) = lead
        .trim_end()
        .strip_suffix('=')
        .map(|left| {
            left.trim_end()
                .rsplit(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .next()
                .unwrap_or("")
        })
        .filter(|name| !name.is_empty())
    else {
        return false;
    };
    text[end..]
        .lines()
        .any(|line| RUNS_STRING.is_match(line) && holds_word(line, name))
}

/// Whether `offset` falls in one of the sorted `ranges`.
fn within(ranges: &[std::ops::Range<usize>], offset: usize) -> bool {
    let index = ranges.partition_point(|range| range.start <= offset);
    index
        .checked_sub(1)
        .is_some_and(|at| ranges[at].contains(&offset))
}

/// Whether the text before `offset` on its line, or, for a list item, the list's lead-in
/// (its item lines above and the line that introduces them), presents it as something to avoid
/// or look for.
fn labelled_as_bad(text: &str, offset: usize) -> bool {
    let (line_start, line_end) = line_bounds(text, offset);
    if places::BAD_EXAMPLE.is_match(&text[line_start..offset]) {
        return true;
    }
    let is_item = |line: &str| {
        let line = line.trim_start();
        line.starts_with("- ") || line.starts_with("* ")
    };
    if !is_item(&text[line_start..line_end]) {
        return false;
    }
    for line in text[..line_start].lines().rev().take(60) {
        if places::BAD_EXAMPLE.is_match(line) {
            return true;
        }
        if !is_item(line) {
            return false;
        }
    }
    false
}

/// Whether a call's argument is elided (`("...")`, `(…)`): it stands for code it does not hold.
fn elided(after: &str) -> bool {
    ["(\"...\")", "('...')", "(...)", "(\"…\")", "('…')", "(…)"]
        .iter()
        .any(|shape| after.starts_with(shape))
}

/// A line with a defanged indicator: an address written so that it cannot be followed.
fn is_defanged(matched: &str) -> bool {
    let lower = matched.to_ascii_lowercase();
    lower.contains("hxxp") || lower.contains("[.]") || lower.contains("[:]//")
}

/// A line that hands a string to a shell or an interpreter.
static RUNS_STRING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    patterns::compile(
        r"(?i)\b(?:system|subprocess|popen|check_output|check_call|exec\w*|spawn\w*|child_process|shell_exec|passthru|eval|run|call|Start-Process|Invoke-Expression|iex)\s*\(|shell\s*=\s*True|\b(?:ba|z)?sh\s+-c\b|\b(?:python[0-9.]*|node|perl|ruby|php|pwsh|powershell)(?:\.exe)?\s+-(?:c|e|Command)\b|`",
    )
});

/// Whether `offset` sits inside a string literal on its line that the line does not hand to a
/// shell or an interpreter: a deny list, a test case or a message, not a command.
fn in_unrun_string(text: &str, offset: usize) -> bool {
    let (line_start, line_end) = line_bounds(text, offset);
    let before = &text[line_start..offset];
    // The unescaped quotes of one kind in `part`, by offset.
    let quotes = |part: &str, quote: char| -> Vec<usize> {
        let mut escaped = false;
        let mut found = Vec::new();
        for (at, ch) in part.char_indices() {
            match ch {
                '\\' => escaped = !escaped,
                ch if ch == quote && !escaped => found.push(at),
                _ => escaped = false,
            }
            if ch != '\\' {
                escaped = false;
            }
        }
        found
    };
    let Some((quote, opened)) = ['"', '\''].into_iter().find_map(|quote| {
        let found = quotes(before, quote);
        (found.len() % 2 == 1).then(|| (quote, found[found.len() - 1]))
    }) else {
        return false;
    };
    // What the string is handed to stands outside it, before or after on the line (a shell
    // command's own text may mention `eval(`).
    let after = &text[offset..line_end];
    let closed = quotes(after, quote)
        .first()
        .map_or(after.len(), |at| at + 1);
    let outside = format!("{}{}", &before[..opened], &after[closed..]);
    !RUNS_STRING.is_match(&outside)
}

/// Whether `offset` sits inside a string literal of a line that only prints it: a `print`,
/// a logger call or an `echo` whose output goes nowhere but the terminal.
fn in_printed_message(text: &str, offset: usize) -> bool {
    static PRINTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(
            r"^\s*(?:print|console\.(?:log|error|warn|info)|(?:self\.)?(?:logger|log|logging)\.(?:debug|info|warning|warn|error|critical)|Write-Host|puts|echo|printf)\b",
        )
    });
    let here = TextRange::new(offset, offset);
    // The same window of the line, whole and up to `offset`.
    let line = line_of(text, here);
    let before = before_on_line(text, here);
    let Some(prints) = PRINTS.find(line) else {
        return false;
    };
    let shell_echo = matches!(prints.as_str().trim(), "echo" | "printf");
    let quoted_from = before.find(['"', '\'']);
    let quoted_message = quoted_from.is_some_and(|quote| quote >= prints.end());
    let acts = (shell_echo && line.contains(['>', '|']))
        || line.contains("$(")
        || RUNS_STRING.is_match(line);
    quoted_message && !acts
}

/// The text of the program a match belongs to: its block or code span, or the whole script.
fn unit_text<'a>(text: &'a str, place: Place, offset: usize, places: &OnceCell<Places>) -> &'a str {
    match place {
        Place::Block(_) | Place::Span => places
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
    (place, kind): (Place, FileKind),
    unit: &str,
    grade: Option<Severity>,
) -> Option<Option<Severity>> {
    match how {
        Refine::None => Some(grade),
        Refine::InMemoryByHost => {
            // `iex (irm …)` is how vendors write a Windows installer; the WebClient cradle
            // (`DownloadString`) is how droppers write one.
            if matched.to_ascii_lowercase().contains("downloadstring") {
                Some(grade)
            } else {
                Some(grade_by_host(matched, grade.map(|_| Severity::Warning)))
            }
        }
        Refine::DecodedIntoInterpreter => {
            // `… | base64 -d | python3 -m json.tool`: a token's payload pretty-printed.
            let piped_into = matched
                .rsplit(|ch: char| !ch.is_ascii_alphanumeric() && ch != '.')
                .next()
                .unwrap_or("");
            let interpreter = ["python", "perl", "node"]
                .iter()
                .any(|name| piped_into.starts_with(name));
            if interpreter && reads_data_after(text, range) {
                None
            } else {
                Some(grade)
            }
        }
        Refine::ByHost => {
            let line_end = text[range.end..]
                .find('\n')
                .map_or(text.len(), |at| range.end + at);
            if reads_data_after(text, range) {
                return None;
            }
            // "the `curl | sh` installer", "never `curl URL | bash`": a code span that names the
            // pattern, with no address to download from, runs nothing.
            if place == Place::Span && !names_an_address(matched) {
                return None;
            }
            // A reference the skill ships for reading repeats a project's documentation, and
            // documentation gives the project's installer this way; the SKILL.md and its
            // scripts are what the agent is told to run.
            if !untrusted_host(matched)
                && kind == FileKind::Markdown
                && names_an_installer(&text[range.start..line_end].to_ascii_lowercase())
            {
                return Some(grade.map(|_| Severity::Info));
            }
            Some(grade_by_host(matched, grade))
        }
        Refine::Read => {
            // Public keys and the SSH client's own settings are not secrets.
            let after = &text[range.end..];
            if matched.to_ascii_lowercase().ends_with(".ssh")
                && ["/known_hosts", "/authorized_keys", "/config"]
                    .iter()
                    .any(|file| after.starts_with(file))
            {
                return None;
            }
            // A public key (`id_ed25519.pub`, `~/.ssh/deploy_key.pub`) is made to be shared.
            let line_end = after.find('\n').unwrap_or(after.len());
            let path_rest = after[..line_end]
                .split(|ch: char| ch.is_whitespace() || matches!(ch, '"' | '\'' | ')' | '`' | ','))
                .next()
                .unwrap_or("");
            if path_rest.ends_with(".pub") || matched.ends_with(".pub") {
                return None;
            }
            let before_on_line = before_on_line(text, range);
            // The credential handed to the tool it belongs to (`ssh-add ~/.ssh/id_rsa`,
            // `ssh -i …`, `--authfile ~/.docker/config.json`, a BuildKit secret mount's
            // `target=`) is used where it lives, not read out.
            if patterns::USES_IN_PLACE.is_match(before_on_line) {
                return None;
            }
            // `find … -name 'id_rsa*'` looks for keys in the project, as a secret scanner does.
            let before = text[..range.start].trim_end_matches(['"', '\'']);
            if before.ends_with("-name ") || before.ends_with("-iname ") {
                return None;
            }
            // Markdown that names a path ("keys live in `~/.ssh`") reads nothing: a block or
            // code span must act on it, as a script's code almost always does.
            if matches!(place, Place::Span | Place::Block(_))
                && !acts_on(text, range, place, unit, &|line| {
                    patterns::READS.is_match(line)
                })
                && !(place == Place::Span && patterns::READS.is_match(sentence_around(text, range)))
            {
                return None;
            }
            // A list of files to protect or look for (a deny list, a scanner's table) names
            // them without reading them.
            let line = line_of(text, range).trim_end();
            let listed = line.ends_with(',') || line.ends_with('[') || line.ends_with("],");
            let protects = patterns::PROTECTS.is_match(line);
            if (listed || protects) && !patterns::READS.is_match(line) {
                None
            } else {
                Some(grade)
            }
        }
        Refine::WholeKeychain => {
            let line_end = text[range.end..]
                .find('\n')
                .map_or(text.len(), |at| range.end + at);
            let rest = &text[range.end..line_end];
            let named = [" -s ", " -a ", " -l ", " -s\"", " -a\"", "lookup"]
                .iter()
                .any(|flag| rest.contains(flag) || matched.contains(flag));
            // Setting the keychains searched, or a path in a list, reads no password.
            let line = line_of(text, range);
            let listed = line.trim_end().ends_with(',') || line.contains("list-keychains");
            // A named entry is the skill's own key: evidence of a secret, not a finding.
            if named || listed {
                Some(None)
            } else {
                Some(grade)
            }
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
        Refine::QuotedAddress => {
            public_ip(matched)?;
            // A value under a quoted key (`"Value": "1.2.3.4"` in a JSON body) is data the
            // request carries, not where it goes, unless the line itself connects.
            let keyed = before_on_line(text, range)
                .trim_end()
                .strip_suffix(':')
                .is_some_and(|key| key.trim_end().ends_with(['"', '\'']));
            // A line that holds only the address, in a list (`"185.220.101.42",`): a table of
            // indicators, not a destination.
            let line = line_of(text, range).trim();
            let listed = line.trim_end_matches([',', ']', ')']).trim_end() == matched;
            if listed || (keyed && !patterns::CONNECTS.is_match(line)) {
                None
            } else {
                Some(grade)
            }
        }
        Refine::HomeBound => {
            let name: String = matched
                .split_once('(')?
                .1
                .trim_start()
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            // The home folder itself, not a folder under it (`Path.home() / ".tokens"`).
            let home = ["Path.home()", "\"~\"", "'~'", "\"HOME\"", "'HOME'"];
            let joined = [
                "/ \"",
                "/ '",
                "/\"",
                "/'",
                "joinpath",
                "path.join",
                "~/",
                "}/",
            ];
            let bound_home = unit.lines().any(|line| {
                let line = line.trim_start();
                let binds = line.strip_prefix(name.as_str()).is_some_and(|rest| {
                    let rest = rest.trim_start();
                    rest.starts_with('=') && !rest.starts_with("==")
                });
                binds
                    && home.iter().any(|form| line.contains(form))
                    && !joined.iter().any(|join| line.contains(join))
            });
            bound_home.then_some(grade)
        }
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
            // `new Function("a", "b", body)`: the first arguments name parameters, the last is
            // the code; `new Function()` in a sentence names the constructor.
            if matched.contains("Function") {
                let line_rest = &text[range.end..];
                let call = line_rest[..line_rest.find('\n').unwrap_or(line_rest.len())]
                    .rsplit_once(')')
                    .map_or("", |(inside, _)| inside)
                    .trim_end();
                return if text[range.end..].trim_start().starts_with(')') {
                    None
                } else if call.ends_with(['"', '\'']) {
                    Some(grade.map(|_| Severity::Info))
                } else {
                    Some(grade.map(|_| Severity::Warning))
                };
            }
            // `page.$$eval(…)`, `obj.eval(…)`: another function of that name.
            let before = text[..range.start].chars().next_back();
            if before.is_some_and(|ch| matches!(ch, '.' | '_' | '$') || ch.is_alphanumeric()) {
                return None;
            }
            // `def eval(…)`, `function exec(…)`: a function of that name being defined.
            let keyword = before_on_line(text, range).trim_end();
            if ["def", "function", "fn"]
                .iter()
                .any(|word| keyword.rsplit(' ').next() == Some(*word))
            {
                return None;
            }
            let after = text[range.end..].trim_start();
            // The shell form `eval "$x"` ends inside the variable: its argument is never a literal.
            let shell_form = !matched.contains('(');
            if !shell_form && after.starts_with(['"', '\'', '`', ')']) {
                None
            } else if shell_form && assembled(text, range, unit) {
                Some(grade.map(|_| Severity::Warning))
            } else {
                // Common in plain code (a calculator, a test harness): a capability to know
                // about, not a sign of hiding; hiding is the pieces and decodings above.
                Some(grade.map(|_| Severity::Info))
            }
        }
        Refine::Written => {
            // `"$profile:test_pages"`: a resource reference, not PowerShell's profile.
            if matched.eq_ignore_ascii_case("$profile") && text[range.end..].starts_with(':') {
                return None;
            }
            if acts_on(text, range, place, unit, &patterns::writes) {
                // `echo 'export API_KEY=…' >> ~/.zshrc` keeps a setting and a tool's completion
                // script completes its commands; neither runs anything new.
                let line = line_of(text, range);
                let plain = (patterns::PLAIN_EXPORT.is_match(line)
                    && !patterns::RUNS_ON_START.is_match(line))
                    || patterns::SHELL_COMPLETION.is_match(line);
                Some(if plain {
                    grade.map(|_| Severity::Info)
                } else {
                    grade
                })
            } else if place == Place::Span
                && patterns::PROSE_WRITES.is_match(sentence_around(text, range))
            {
                // "Add this to `~/.zshrc`": a setup step the reader sees. What it adds is in the
                // sentence or the block it introduces: a variable is information, code that
                // runs on every start (an alias for `sudo`, a preloaded module) is not.
                let sentence = sentence_around(text, range);
                let sentence_end =
                    (sentence.as_ptr() as usize - text.as_ptr() as usize) + sentence.len();
                let next = &text[sentence_end..];
                let opened = next.trim_start_matches(['.', ':', ' ', '\n']);
                let introduced = if opened.starts_with("```") {
                    let body = opened.find('\n').map_or("", |at| &opened[at + 1..]);
                    body.find("```").map_or(body, |end| &body[..end])
                } else {
                    ""
                };
                let runs_code = patterns::RUNS_ON_START.is_match(sentence)
                    || patterns::RUNS_ON_START.is_match(introduced);
                Some(if runs_code {
                    grade
                } else {
                    grade.map(|_| Severity::Info)
                })
            } else {
                None
            }
        }
        Refine::LongBlob => {
            // Only the first match of a run reports it; the others stop here, before the run is
            // measured (a megabyte-long run is one finding, not thousands of scans).
            let before = text.as_bytes()[..range.start].last().copied();
            let base64 = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/';
            let escaped = |byte: u8| byte.is_ascii_hexdigit() || byte == b'\\' || byte == b'x';
            let allowed: &dyn Fn(u8) -> bool = if matched.starts_with("\\x") {
                &escaped
            } else {
                &base64
            };
            if before.is_some_and(allowed) {
                return None;
            }
            let run = &text.as_bytes()[range.start..];
            let end = run
                .iter()
                .position(|&byte| !allowed(byte))
                .unwrap_or(run.len());
            // Encoded data mixes many symbols; a long word, a row of one letter or a hash
            // repeated is not a payload.
            let mut seen = [false; 256];
            for &byte in &run[..end.min(4096)] {
                seen[usize::from(byte)] = true;
            }
            let symbols = seen.iter().filter(|&&seen| seen).count();
            // A data URI of an image or font is an asset, not a payload.
            let data_uri = text[..range.start].ends_with(";base64,");
            (!data_uri && end >= 400 && symbols >= 20).then_some(grade)
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

/// Whether a download (lower case) comes from an HTTPS address that reads as a project's
/// installer: `install` or `setup` in the path, or a host such as `get.…` or `install.…`.
fn names_an_installer(lower: &str) -> bool {
    lower.match_indices("https://").any(|(at, _)| {
        let url = &lower[at + 8..];
        let url = &url[..url
            .find(|ch: char| ch.is_whitespace() || matches!(ch, '"' | '\'' | ')' | '|'))
            .unwrap_or(url.len())];
        let (host, path) = url.split_once('/').unwrap_or((url, ""));
        host.starts_with("get.")
            || host.starts_with("install.")
            || path.contains("install")
            || path.contains("setup")
    })
}

/// Installers that tools publish on their own domain and document as the way to install them:
/// piping one into a shell is still unreviewed code, but it is the vendor's own, so it is
/// information rather than a warning. Any other host is a warning, a raw address or plain HTTP
/// an error.
const VENDOR_INSTALLERS: &[&str] = &[
    "://astral.sh/",
    "://bun.sh/",
    "://sh.rustup.rs",
    "://get.docker.com",
    "://deno.land/",
    "://raw.githubusercontent.com/homebrew/",
    "://raw.githubusercontent.com/nvm-sh/",
    "://get.pnpm.io/",
    "://install.python-poetry.org",
    "://ollama.com/install.sh",
    "://claude.ai/install.sh",
    "://opencode.ai/install",
    "://starship.rs/",
    "://tailscale.com/install.sh",
    "://get.k3s.io",
    "://mise.run",
    "://pixi.sh/",
    "://get.volta.sh",
    "://fly.io/install.sh",
    "://cli.github.com/",
    "://aka.ms/",
    "://foundry.paradigm.xyz",
    "://raw.githubusercontent.com/helm/",
    "://sdk.cloud.google.com",
    "://awscli.amazonaws.com/",
    "://get.helm.sh/",
    "://install.determinate.systems/",
    "://nixos.org/nix/install",
    "://docs.astral.sh/",
    "://cursor.com/install",
    "://gemini.google.com/",
];

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
    let at = text.find("://").map_or_else(
        || {
            text.find(|ch: char| ch.is_ascii_digit())
                .unwrap_or(text.len())
        },
        |at| at + 3,
    );
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
        [127 | 10 | 0, ..]
            | [192, 168, ..]
            | [169, 254, ..]
            | [172, 16..=31, ..]
            | [100, 64..=127, ..]
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
        let mut units: Vec<u32> = hits.iter().filter_map(|hit| unit_of(hit.place)).collect();
        units.sort_unstable();
        units.dedup();
        units
    };
    for unit in units {
        let in_unit = |hit: &&Hit| unit_of(hit.place) == Some(unit);
        let of_role = |wanted: Role| -> Vec<&Hit> {
            hits.iter()
                .filter(in_unit)
                .filter(|hit| PATTERNS[hit.pattern].role == wanted)
                .collect()
        };
        let strong = of_role(Role::Source { strong: true });
        let weak = of_role(Role::Source { strong: false });
        let suspicious = of_role(Role::Sink { suspicious: true });
        let plain = of_role(Role::Sink { suspicious: false });
        // A `.env` loaded as settings (`source .env`, `load_dotenv()`) supplies the keys of the
        // requests that follow; only one read as data can be what a request carries.
        let bulk_weak: Vec<&&Hit> = weak
            .iter()
            .filter(|hit| !PATTERNS[hit.pattern].what.contains("API key"))
            .filter(|hit| {
                let matched = text[hit.range.as_range()].trim_start().to_ascii_lowercase();
                !["source", "load_dotenv", "dotenv", ". "]
                    .iter()
                    .any(|loader| matched.starts_with(loader))
            })
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
        // A minified bundle is one long line: everything in it is "near", so it is left to
        // the obfuscation rule; and prose that names `fetch` and `eval()` runs nothing.
        let readable = |hit: &&Hit| line_of(text, hit.range).len() <= 1_000;
        let runs: Vec<&Hit> = of_role(Role::Runs).into_iter().filter(readable).collect();
        let downloads: Vec<&Hit> = of_role(Role::Uses(Capability::Network))
            .into_iter()
            .filter(readable)
            .collect();
        let found = if unit == u32::MAX {
            None
        } else {
            near(&downloads, &runs, &line)
        };
        if let Some((download, run)) = found {
            let mut diagnostic = Diagnostic::new(
                Rule::RemoteCode,
                run.range,
                format!(
                    "{} runs code it downloaded (line {}) — whatever the server sends at that moment runs inside the script with the user's permissions, unseen; ship the code in the skill instead",
                    capitalize(run.place.subject()),
                    line(download) + 1,
                ),
            );
            diagnostic.severity = Severity::Error;
            diagnostic.related.push(Related {
                path: path.to_path_buf(),
                span: Span::of(text, download.range),
                message: "the code is downloaded here".to_owned(),
            });
            scan.diagnostics.push(diagnostic);
        }
        let sinks: Vec<&Hit> = suspicious.iter().chain(&plain).copied().collect();
        let bulk_weak: Vec<&Hit> = bulk_weak.into_iter().copied().collect();
        // Instructions in prose are weaker evidence than a program: a warning at most.
        let worst = if unit == u32::MAX {
            Severity::Warning
        } else {
            Severity::Error
        };
        let pair = if let Some((source, sink)) = near(&strong, &sinks, &line) {
            Some((source, sink, worst))
        } else if let Some((source, sink)) = near(&weak, &suspicious, &line) {
            Some((source, sink, worst))
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
                    capitalize(sink.place.subject()),
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
                // A start-up file that only keeps a variable is persistence graded as
                // information: nothing new runs on the next start.
                notable = capability == Capability::Persistence
                    && hit
                        .severity
                        .is_some_and(|severity| severity >= Severity::Warning);
                Some(capability)
            }
            Role::Source { strong } => {
                // A strong source with no finding is a keychain entry the skill named: its own key.
                notable = strong && hit.severity.is_some();
                Some(Capability::Secrets)
            }
            Role::Sink { suspicious } => {
                notable = suspicious;
                Some(Capability::Network)
            }
            Role::Plain | Role::Runs => {
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
                scan.evidence.push(evidence(
                    path,
                    text,
                    capability,
                    hit.range,
                    notable,
                    hit.place == Place::Script,
                ));
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
        if pattern.what.starts_with("decodes") {
            scan.diagnostics.extend(encoded_payload(text, hit.range));
        }
    }
    scan.evidence
        .sort_by_key(|evidence| (evidence.capability, !evidence.notable));
    scan.evidence.dedup_by_key(|evidence| evidence.capability);
}

/// What the agent's loader asks before a skill's body enters a conversation: the skill's
/// security errors, one line each (`file:line: message [rule]`); the engine answers it.
pub trait SkillGate: Send + Sync {
    fn security_errors(&self, skill_md: &Path, text: &str) -> Vec<String>;
}

/// The encoded text a decode-and-run line carries (40 characters or more of base64 or hex):
/// besides running it, the line hides it.
fn encoded_payload(text: &str, range: TextRange) -> Option<Diagnostic> {
    let start = text[..range.start].rfind('\n').map_or(0, |at| at + 1);
    let end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |at| range.end + at);
    let line = &text[start..end];
    let mut run_start = None;
    let mut best: Option<(usize, usize)> = None;
    for (at, byte) in line.bytes().enumerate().chain([(line.len(), b' ')]) {
        let encoded = byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'=');
        match (encoded, run_start) {
            (true, None) => run_start = Some(at),
            (false, Some(from)) => {
                if at - from >= 40 && best.is_none_or(|(a, b)| b - a < at - from) {
                    best = Some((from, at));
                }
                run_start = None;
            }
            _ => {}
        }
    }
    let (from, to) = best?;
    let mut diagnostic = Diagnostic::new(
        Rule::Obfuscation,
        TextRange::new(start + from, start + to),
        format!(
            "{} characters of encoded text that the line decodes and runs — nobody reviewing the skill can read what runs; ship readable source instead",
            to - from
        ),
    );
    diagnostic.severity = Severity::Warning;
    Some(diagnostic)
}

fn writes_on_line(text: &str, range: TextRange) -> bool {
    patterns::writes(line_of(text, range))
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
    candidates: &Candidates<'_>,
    place_at: &dyn Fn(usize) -> Place,
    out: &mut Vec<Diagnostic>,
) {
    for (index, (regex, what)) in patterns::INJECTION.iter().enumerate() {
        let parts = patterns::injection_indexes(index);
        if !parts.clone().any(|part| candidates.may_match(part)) {
            continue;
        }
        let may_match = |part: usize| candidates.may_match(parts.start + part);
        for found in regex.find_iter_where(text, &may_match) {
            let end = found.end;
            let Some(start) = phrase_start(text, found.start, what) else {
                continue;
            };
            let place = place_at(start);
            let markup = what.starts_with("imitates");
            // Documentation for people explains attacks in plain words; only what it hides
            // from its readers is addressed to an agent.
            if kind == FileKind::Docs && place != Place::Hidden {
                continue;
            }
            let severity = match place {
                Place::Hidden => Severity::Error,
                Place::Frontmatter | Place::Prose | Place::Block(_) => Severity::Warning,
                Place::Script if kind == FileKind::Script => Severity::Warning,
                // Fake tool output inside an "expected output" block reads, to the model, as
                // the real thing.
                Place::Quoted if markup => Severity::Warning,
                _ => continue,
            };
            if (!markup && quoted(text, start, end))
                || !injection_applies(text, start, end, what, kind)
            {
                continue;
            }
            let mut diagnostic = Diagnostic::new(
                Rule::PromptInjection,
                TextRange::new(start, end),
                format!(
                    "{} {what} ('{}') — an agent that loads the skill may obey it against the user's wishes; address the user's task, not the agent's rules, and let the agent ask",
                    capitalize(place.subject()),
                    hidden::abridge(&text[start..end], 60),
                ),
            );
            diagnostic.severity = severity;
            out.push(diagnostic);
        }
    }
}

/// Where an injection phrase starts. "The user must not know" is looked for from "user", as a
/// search for every "the" of a file costs more than all the other phrases together: the match
/// counts only after "the" and whitespace, and starts there.
fn phrase_start(text: &str, start: usize, what: &str) -> Option<usize> {
    let at_user = text.as_bytes()[start..]
        .get(..4)
        .is_some_and(|word| word.eq_ignore_ascii_case(b"user"));
    if !(what.contains("hide") && at_user) {
        return Some(start);
    }
    let before = text[..start].trim_end_matches(char::is_whitespace);
    let the = before.len().checked_sub(3)?;
    (before.len() < start
        && before.get(the..)?.eq_ignore_ascii_case("the")
        && !before.as_bytes()[..the]
            .last()
            .is_some_and(|&byte| byte.is_ascii_alphanumeric() || byte == b'_'))
    .then_some(the)
}

/// The second look at an injection phrase: "do not tell the user to run it" asks the agent to
/// act, not to hide; skipping the user's approval matters where the sentence does something
/// the user would want to approve.
fn injection_applies(text: &str, start: usize, end: usize, what: &str, kind: FileKind) -> bool {
    static NEGATES: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| patterns::compile(r"(?i)\b(?:never|not|don't|do not|no)\b"));
    static ACTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        patterns::compile(
            r"(?i)\b(?:run|runs|execute|delete|remove|install|push|send|upload|post|pay|purchase|buy|transfer|overwrite|drop|deploy|rm|curl|download|publish|email|share|modify|commit|merge|force)\b",
        )
    });
    let after = text[end..].trim_start();
    if what.contains("hide") && after.starts_with("to ") {
        return false;
    }
    // "Do not tell the user *"run it again"*": what not to say, quoted, is advice on wording.
    if what.contains("hide")
        && after
            .trim_start_matches(['*', '_'])
            .starts_with(['"', '“', '\''])
    {
        return false;
    }
    // An XML-style role tag counts as markup when it is closed (`<system>…</system>`): alone,
    // `<system>` and `<SYSTEM>` are placeholders ("the <system> shall <response>", a table
    // cell of a template).
    if what.starts_with("imitates") {
        let tag = text[start..end].to_ascii_lowercase();
        if let Some(name) = tag
            .strip_prefix('<')
            .and_then(|rest| rest.strip_suffix('>'))
            .filter(|name| !name.starts_with(['/', '|']) && !name.starts_with("antml:"))
        {
            let closing = format!("</{name}>");
            let window = &text[end..crate::text::floor_char_boundary(text, end + 4096)];
            if !window.to_ascii_lowercase().contains(&closing) {
                return false;
            }
        }
    }
    let sentence_start = text[..start]
        .rfind(['.', '!', '?', '\n'])
        .map_or(0, |at| at + 1);
    // "Never switch modes without telling the user": a rule against hiding.
    if what.contains("hide")
        && text[start..end].to_ascii_lowercase().starts_with("without")
        && NEGATES.is_match(&text[sentence_start..start])
    {
        return false;
    }
    // A script that strips or looks for the markup (a filter, a marker list) does not send it;
    // only a line that prints it speaks to the agent.
    if kind == FileKind::Script && what.starts_with("imitates") {
        static PRINTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            patterns::compile(r"(?i)\b(?:print|echo|printf|console\.log|write|puts|say)\b|stdout")
        });
        if !PRINTS.is_match(line_of(text, TextRange::new(start, end))) {
            return false;
        }
    }
    // A script's pattern list ("system:|<system>|…") looks for the markup; it does not send it.
    if kind == FileKind::Script {
        let line = line_of(text, TextRange::new(start, end));
        let joined = text[..start].ends_with('|') || text[end..].starts_with('|');
        if joined || line.contains("re.compile") || line.contains("RegExp") {
            return false;
        }
    }
    if what.contains("approval") && kind != FileKind::Script {
        let sentence_start = text[..start].rfind(['.', '!', '?']).map_or(0, |at| at + 1);
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
    candidates: &Candidates<'_>,
    places: &OnceCell<Places>,
    place_at: &dyn Fn(usize) -> Place,
    out: &mut Vec<Diagnostic>,
) {
    if memchr::memmem::find(&text.as_bytes()[body_start..], b"<!--").is_none()
        && !text[body_start..].contains("](")
    {
        return;
    }
    // Places already found (a SKILL.md's, from the body's parse) may show that nothing is
    // hidden: then no search for the words below can find anything to report.
    if places
        .get()
        .is_some_and(|places| !places.has(Place::Hidden))
    {
        return;
    }
    // Words addressed to the agent, or a phrase `injection` already reported: only where one
    // sits is it worth finding the hidden regions.
    let addressed: Vec<usize> = if candidates.may_match(patterns::addresses_agent_index()) {
        patterns::ADDRESSES_AGENT
            .find_iter(&text[body_start..])
            .map(|found| body_start + found.start())
            .collect()
    } else {
        Vec::new()
    };
    let offsets: Vec<usize> = addressed
        .into_iter()
        .chain(
            out.iter()
                .filter(|diagnostic| diagnostic.rule == Rule::PromptInjection)
                .map(|diagnostic| diagnostic.range.start),
        )
        .collect();
    if offsets.is_empty() {
        return;
    }
    let _ = place_at(body_start);
    let Some(places) = places.get() else {
        return;
    };
    let mut regions: Vec<std::ops::Range<usize>> = offsets
        .into_iter()
        .filter(|&offset| place_at(offset) == Place::Hidden)
        .filter_map(|offset| places.region_at(offset))
        .collect();
    regions.sort_by_key(|region| region.start);
    regions.dedup();
    for region in regions {
        if text[region.clone()].contains("skill-lsp:") {
            continue;
        }
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

/// The security findings of a SKILL.md's own text: its name, and the scan of the whole file.
/// Its frontmatter grants are judged with the folder: [`skill_md_findings`].
#[must_use]
pub(crate) fn skill_findings(path: &Path, text: &str, document: &SkillDocument) -> Scan {
    let body_start = document.body.range.start.min(text.len());
    let mut scan = scan_with(
        path,
        text,
        FileKind::Skill,
        body_start,
        document.body.places.clone(),
    );
    let mut extra = Vec::new();
    if let Some(entry) = document.field("name") {
        if let crate::document::NodeKind::Scalar { value, .. } = &entry.value.kind {
            extra.extend(hidden::name_look_alikes(value, entry.value.range));
        }
    }
    allow::apply(text, &mut extra);
    scan.diagnostics.extend(extra);
    Declared::of(text, document).apply(FileKind::Skill, text, &mut scan.diagnostics);
    scan
}

/// What a skill says of itself in its frontmatter, by which the findings of its files are
/// graded: a crontab writer that says "cron", a pentest kit, a vendor's skill that installs
/// the vendor's own tool.
pub(crate) struct Declared<'a> {
    description: &'a str,
    /// The frontmatter's text: its name, description and metadata (author, homepage, …).
    frontmatter: &'a str,
    /// The frontmatter lowercased with its URLs blanked, made when a finding first asks.
    own_words: OnceCell<String>,
}

impl<'a> Declared<'a> {
    #[must_use]
    pub(crate) fn of(text: &'a str, document: &'a SkillDocument) -> Self {
        let frontmatter = text
            .get(..document.split.body.start.min(text.len()))
            .unwrap_or("");
        Self {
            description: document
                .field("description")
                .and_then(|entry| entry.value.as_str())
                .unwrap_or_default(),
            frontmatter,
            own_words: OnceCell::new(),
        }
    }

    /// The skill's own words about itself, not an address it gives: a description that hands
    /// out an installer does not vouch for it by naming its host.
    fn own_words(&self) -> &str {
        self.own_words
            .get_or_init(|| without_urls(&self.frontmatter.to_ascii_lowercase()))
    }

    /// Grades the `diagnostics` of `text`, a file of `kind` in the skill, by what the skill
    /// declares.
    pub(crate) fn apply(&self, kind: FileKind, text: &str, diagnostics: &mut [Diagnostic]) {
        declared_as_information(self.description, diagnostics);
        declared_offensive(self.description, kind, diagnostics);
        self.first_party_installers(kind, text, diagnostics);
        self.first_party_services(kind, text, diagnostics);
    }

    /// A service enabled for the software the skill is about (`systemctl enable grafana-server`
    /// in a Grafana skill, a `pueued` unit in a Pueue skill) is what the skill is for: the
    /// persistence is information, still listed with the skill's capabilities. As with
    /// installers, scripts keep their warnings: a script runs what it enables unseen.
    fn first_party_services(&self, kind: FileKind, text: &str, diagnostics: &mut [Diagnostic]) {
        if !matches!(kind, FileKind::Skill | FileKind::Markdown) {
            return;
        }
        const GENERIC: [&str; 12] = [
            "sudo",
            "systemctl",
            "enable",
            "user",
            "system",
            "service",
            "services",
            "daemon",
            "reload",
            "local",
            "etc",
            "config",
        ];
        for diagnostic in diagnostics {
            if diagnostic.rule != Rule::Persistence || diagnostic.severity != Severity::Warning {
                continue;
            }
            let range = diagnostic.range;
            let Some(line) = text.get(range.as_range()).map(|_| line_of(text, range)) else {
                continue;
            };
            let lower = line.to_ascii_lowercase();
            let is_service = [
                "systemctl",
                "systemd",
                "launchctl",
                "launchagents",
                "launchdaemons",
            ]
            .iter()
            .any(|word| lower.contains(word));
            let named = lower
                .split(|ch: char| !ch.is_ascii_alphanumeric())
                .filter(|word| word.len() >= 4 && !GENERIC.contains(word))
                .any(|word| {
                    holds_word(self.own_words(), word)
                        || (word.len() >= 6
                            && holds_word(self.own_words(), &word[..word.len() - 1]))
                });
            if is_service && named {
                diagnostic.severity = Severity::Info;
            }
        }
    }

    /// In the Markdown of a skill, a vendor's installer piped into a shell is information when
    /// the frontmatter names the vendor (`cli.oomol.com` in a skill whose author is OOMOL,
    /// `raw.githubusercontent.com/aquasecurity/trivy/…` in a Trivy skill): whoever trusts
    /// the skill already trusts its publisher, and the step is there for the reader to see.
    /// Scripts keep their warnings; an untrusted host is an error anyway.
    fn first_party_installers(&self, kind: FileKind, text: &str, diagnostics: &mut [Diagnostic]) {
        if !matches!(kind, FileKind::Skill | FileKind::Markdown) {
            return;
        }
        for diagnostic in diagnostics {
            if diagnostic.rule != Rule::RemoteCode || diagnostic.severity != Severity::Warning {
                continue;
            }
            let matched = text.get(diagnostic.range.as_range()).unwrap_or_default();
            if publisher_names(matched)
                .iter()
                .any(|name| holds_word(self.own_words(), name))
            {
                diagnostic.severity = Severity::Info;
            }
        }
    }
}

/// The names of who publishes the downloads in `matched`, lowercased: the labels of each URL's
/// host but its top-level domain and words any host uses (`get.livekit.io`: `livekit`), or the
/// owner and repository of a code host's URL.
fn publisher_names(matched: &str) -> Vec<String> {
    const GENERIC: [&str; 20] = [
        "www",
        "cli",
        "get",
        "install",
        "installer",
        "raw",
        "api",
        "download",
        "downloads",
        "dl",
        "static",
        "cdn",
        "releases",
        "release",
        "pkg",
        "packages",
        "sh",
        "com",
        "org",
        "net",
    ];
    const CODE_HOSTS: [&str; 5] = [
        "github.com",
        "raw.githubusercontent.com",
        "gist.githubusercontent.com",
        "gitlab.com",
        "codeberg.org",
    ];
    let lower = matched.to_ascii_lowercase();
    let mut names = Vec::new();
    for (at, _) in lower.match_indices("://") {
        let rest = &lower[at + 3..];
        let end = rest
            .find(|ch: char| matches!(ch, '/' | ':' | '"' | '\'' | ')' | '`') || ch.is_whitespace())
            .unwrap_or(rest.len());
        let host = &rest[..end];
        let labels: Vec<&str> = if CODE_HOSTS.contains(&host) {
            rest[end..]
                .split('/')
                .filter(|part| !part.is_empty())
                .take(2)
                .collect()
        } else {
            let labels: Vec<&str> = host.split('.').collect();
            labels[..labels.len().saturating_sub(1)].to_vec()
        };
        names.extend(
            labels
                .into_iter()
                .filter(|label| label.len() >= 3 && !GENERIC.contains(label))
                .map(str::to_owned),
        );
    }
    names
}

/// `text` with every URL (`scheme://…` up to a space or quote) blanked out.
fn without_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(at) = text[from..].find("://").map(|at| from + at) {
        let start = text[..at]
            .trim_end_matches(|ch: char| ch.is_ascii_alphanumeric())
            .len()
            .max(from);
        let end = text[at..]
            .find(|ch: char| ch.is_whitespace() || matches!(ch, '"' | '\'' | ')' | '>' | '`'))
            .map_or(text.len(), |after| at + after);
        out.push_str(&text[from..start]);
        out.push(' ');
        from = end;
    }
    out.push_str(&text[from..]);
    out
}

/// Whether `haystack` holds `word` between non-word characters.
fn holds_word(haystack: &str, word: &str) -> bool {
    let is_word = |ch: char| ch.is_ascii_alphanumeric();
    haystack.match_indices(word).any(|(at, _)| {
        !haystack[..at].chars().next_back().is_some_and(is_word)
            && !haystack[at + word.len()..]
                .chars()
                .next()
                .is_some_and(is_word)
    })
}

/// The findings on a SKILL.md that only the whole folder can judge: what its frontmatter grants
/// (`permissions`, graded by what the files do) and `capability-mismatch`. `evidence` is every
/// piece the folder showed, sorted by capability with the notable first.
#[must_use]
pub(crate) fn skill_md_findings(
    text: &str,
    document: &SkillDocument,
    folder: &Path,
    evidence: &[Evidence],
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    permissions::check(text, document, evidence, folder, &mut found);
    allow::apply(text, &mut found);
    let description = document.field("description");
    let description_text = description
        .and_then(|entry| entry.value.as_str())
        .unwrap_or_default();
    declared_as_information(description_text, &mut found);
    found.extend(
        description
            .and_then(|entry| mismatch(description_text, entry.value.range, folder, evidence)),
    );
    found
}

static MENTIONS: std::sync::LazyLock<[(Capability, regex::Regex); 6]> = std::sync::LazyLock::new(
    || {
        let words = patterns::compile;
        [
            (
                Capability::Network,
                words(
                    r"(?i)network|internet|server|upload|remote|cloud|webhook|\bsync|socket|endpoint|telemetry|analytics|\bapis?\b|\bip\b|\bhosts?\b|slack|discord|telegram|e-?mail|notif",
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
                    r"(?i)credential|secret|password|\bssh\b|\baws\b|gcloud|azure|kube|keychain|vault|backup|migrat|dotfile",
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

/// Words by which a description declares the persistence or the credential use its files show:
/// a crontab writer, a launchd helper, a PATH fixer, an SSH key setup. Narrower than
/// [`MENTIONS`]: "settings", "install" or "AWS" alone declare nothing.
static DECLARES: std::sync::LazyLock<[(Rule, regex::Regex); 2]> = std::sync::LazyLock::new(|| {
    [
        (
            Rule::Persistence,
            patterns::compile(
                r"(?i)\bcron(?:tab)?\b|\bdaemons?\b|\bschedul(?:e|es|ed|ing)\s+(?:a\s+|the\s+|their\s+|your\s+)?(?:jobs?|tasks?|runs?|scripts?|backups?)|on a schedule|on boot|at (?:login|boot)|start(?:s|ed)? (?:on|at) (?:boot|login)|startup file|launchd|launch ?agents?|systemd|\bservices?\b|autostart|\bgit hooks?\b|hookspath|pre-commit|\bPATH\b|bashrc|zshrc|shell (?:profile|startup|config)|dotfiles?|new (?:agent )?skill|skill folder",
            ),
        ),
        (
            Rule::CredentialAccess,
            patterns::compile(
                r"(?i)\bssh[- ]keys?\b|\bssh[- ]agent\b|backups?\b|\brotat|dotfiles?|aws (?:cli|profiles?|credentials)|gcloud|kubectl|kubeconfig|docker login|npm (?:publish|login)|gh auth|credential (?:helper|manager)",
            ),
        ),
    ]
});

/// Turns warnings of persistence and credential use that the description declares into
/// information: the skill says it does this, and the capability summary still shows it.
pub(crate) fn declared_as_information(description: &str, diagnostics: &mut [Diagnostic]) {
    for diagnostic in diagnostics {
        let declared = DECLARES
            .iter()
            .any(|(rule, words)| *rule == diagnostic.rule && words.is_match(description));
        if declared && diagnostic.severity == Severity::Warning {
            diagnostic.severity = Severity::Info;
        }
    }
}

/// Descriptions of offensive security work: a skill for penetration testers is expected to
/// show reverse shells and exfiltration payloads.
static OFFENSIVE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    patterns::compile(
        r"(?i)\bpen(?:etration)?[- ]?test|\bred[- ]team|\boffensive security|\bethical hack|\bcapture[- ]the[- ]flag|\bctf\b|\boscp\b|\bexploit(?:s|ation)?\b|\bprivilege escalation|\bpost[- ]exploitation",
    )
});

/// In the Markdown of a skill whose description says it is for offensive security work, an
/// error becomes a warning: the payloads are what the skill teaches, and the user was told.
/// Scripts keep their errors, since running one runs the payload.
pub(crate) fn declared_offensive(
    description: &str,
    kind: FileKind,
    diagnostics: &mut [Diagnostic],
) {
    if !matches!(kind, FileKind::Skill | FileKind::Markdown) || !OFFENSIVE.is_match(description) {
        return;
    }
    for diagnostic in diagnostics {
        if diagnostic.severity == Severity::Error
            && matches!(
                diagnostic.rule,
                Rule::RemoteCode | Rule::Exfiltration | Rule::Destructive | Rule::CredentialAccess
            )
        {
            diagnostic.severity = Severity::Warning;
        }
    }
}

/// Words by which a description says the skill works with something on the network: wider
/// than [`MENTIONS`], which must not let "web pages" excuse a socket to a raw address, and
/// narrower than "downloads", which does not cover a grant of `wget` to any address.
static ONLINE_WORK: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    patterns::compile(
        r"(?i)deploy|\bweb|\burls?\b|\bhttps?\b|online|publish|integrat|research|infrastructure|\bsaas\b|oauth|browser|crawl|scrap(?:e|es|ed|ing)\b",
    )
});

/// Whether a description says the skill works on the network, for judging a grant of it.
#[must_use]
pub(crate) fn declares_online_work(description: &str) -> bool {
    declares(description, Capability::Network) || ONLINE_WORK.is_match(description)
}

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
        .filter(|evidence| {
            evidence.notable && evidence.in_script && !declares(description, evidence.capability)
        })
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

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::CapabilityMismatch => RuleDoc::new(
            "The skill's files do something notable that its description never mentions: read stored credentials, send data to a suspicious destination or raw IP address, or install persistence.",
            "Users install a skill for what its description promises; a tweet formatter whose script opens a socket to an IP address is the classic trojan. The summary of what a skill can do (network, shell, reads or writes outside the project, secrets, persistence) is in `check --format json` and the hover on `name`.",
            "`description: Formats tweets.` with `scripts/fmt.py` posting `~/.aws/credentials` to `http://203.0.113.9/`.",
            "Say in the description what the skill does and why, or remove what it should not do.",
        ),
        _ => return None,
    })
}

/// The explanations of the rules this module checks, for `skill-lsp rules`.
pub(crate) fn rule_docs(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    hidden::rule_doc(rule)
        .or_else(|| patterns::rule_doc(rule))
        .or_else(|| permissions::rule_doc(rule))
        .or_else(|| rule_doc(rule))
}

#[cfg(test)]
mod tests;
