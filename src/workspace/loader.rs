//! The skill loader of design.md §5: where a workspace's skills roots are, and what the loader
//! reads from one SKILL.md's text (through a [`Source`]). The registry it fills is `registry`.
//!
//! The loader is lenient where the linter is strict: each fallback here (folder name for `name`,
//! first body line for `description`, empty metadata on bad YAML) is also a diagnostic.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::clients::Readings;
use crate::document::frontmatter::split_strict;
use crate::document::yaml;
use crate::document::{Node, SkillDocument};
use crate::targets::{Client, ClientSet};
use crate::text::{Span, TextRange};

/// Skills roots under a workspace, in priority order (design.md §5).
pub(crate) const DEFAULT_ROOTS: [&str; 7] = [
    "skills",
    ".agents/skills",
    ".claude/skills",
    ".github/skills",
    ".codex/skills",
    ".opencode/skills",
    ".gemini/skills",
];

/// Which clients scan a default root of a project ([`crate::targets::folder_readers`]). `None`
/// for a root no client owns (`skills/`, a config root, a folder given as a root): every
/// selected target is taken to read it, since that is why it was selected.
#[must_use]
pub(crate) fn root_readers(root: &Path) -> Option<&'static [Client]> {
    let mut parts = root
        .components()
        .rev()
        .filter_map(|part| part.as_os_str().to_str());
    if parts.next() != Some("skills") {
        return None;
    }
    crate::targets::folder_readers(parts.next()?)
}

/// Whether `target` reads the skills under `root`, one of a registry's roots: the roots it
/// owns in a workspace ([`root_readers`]); a folder given as the only root stands for every
/// client.
#[must_use]
pub(crate) fn client_reads(target: Client, root: &Path, only_root: bool) -> bool {
    only_root || root_readers(root).is_some_and(|readers| readers.contains(&target))
}

/// What the loader reads from one SKILL.md's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub name: String,
    pub description: String,
    /// `name` came from the folder (missing, empty or not a string).
    pub(crate) name_from_folder: bool,
    /// `description` came from the body.
    pub(crate) description_from_body: bool,
    /// `when_to_use`, which Claude Code appends to the description in its listing.
    pub(crate) when_to_use: Option<String>,
    /// Where the frontmatter values are, when they were read from it.
    pub(crate) name_range: Option<TextRange>,
    pub(crate) description_range: Option<TextRange>,
    /// `name_range` as positions, for findings shown in other files.
    pub(crate) name_span: Option<Span>,
    /// What the clients asked for read from the same text, each its own way (which differs
    /// from design.md §5's reading).
    pub(crate) readings: Readings,
}

/// Collapses whitespace runs to one space and trims.
fn collapse(text: &str) -> String {
    // One pass into one allocation: every skill's description goes through here. ASCII text
    // is split by bytes; the vertical tab is whitespace to `split_whitespace` but not to
    // `split_ascii_whitespace`, so text holding one takes the general way.
    let bytes = text.as_bytes();
    let single_spaced = text.is_ascii()
        && bytes.first() != Some(&b' ')
        && bytes.last() != Some(&b' ')
        && memchr::memchr3(b'\t', b'\n', b'\r', bytes).is_none()
        && memchr::memchr2(0x0b, 0x0c, bytes).is_none()
        && memchr::memmem::find(bytes, b"  ").is_none();
    if single_spaced {
        // The usual case (a folded block or a one-line value): nothing to collapse.
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut push = |word: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    };
    if text.is_ascii() && !text.contains('\u{b}') {
        text.split_ascii_whitespace().for_each(&mut push);
    } else {
        text.split_whitespace().for_each(&mut push);
    }
    out
}

/// The loader's description fallback: the body's first non-blank line, without leading `#` and
/// spaces, whitespace collapsed.
#[must_use]
pub(crate) fn description_from_body(body: &str) -> String {
    let first = body
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("");
    clean_description(first)
}

fn clean_description(text: &str) -> String {
    collapse(text.trim().trim_start_matches(['#', ' ']))
}

/// Reads name and description from a SKILL.md's text exactly as design.md §5 says, and what
/// the `clients` read from it.
#[must_use]
pub(crate) fn read_metadata(text: &str, folder: &str, clients: ClientSet) -> Metadata {
    match split_strict(text) {
        Some((yaml_range, body)) => {
            let document = yaml::parse(text, yaml_range);
            let readings = Readings::read(text, Some((yaml_range, &document)), clients);
            let mapping = document
                .root
                .filter(|root| document.error.is_none() && root.as_mapping().is_some());
            metadata_from(
                mapping.as_ref(),
                text,
                &text[body.as_range()],
                folder,
                readings,
            )
        }
        None => metadata_from(
            None,
            text,
            text,
            folder,
            Readings::read(text, None, clients),
        ),
    }
}

/// Adds to `readings` what the `clients` it lacks read from the SKILL.md's `text`, as
/// [`read_metadata`] reads them: for a skill registered without them.
pub(crate) fn add_readings(readings: &mut Readings, text: &str, clients: ClientSet) {
    let parsed =
        split_strict(text).map(|(yaml_range, _)| (yaml_range, yaml::parse(text, yaml_range)));
    readings.add(
        text,
        parsed.as_ref().map(|(range, document)| (*range, document)),
        clients,
    );
}

/// The same as [`read_metadata`], reusing a linter's parse of the text when the loader's strict
/// reading of the frontmatter agrees with it (the common case), so a check parses YAML once.
#[must_use]
pub(crate) fn read_metadata_parsed(
    text: &str,
    document: &SkillDocument,
    folder: &str,
    clients: ClientSet,
) -> Metadata {
    let agrees = split_strict(text).is_some_and(|(yaml_range, body)| {
        document.yaml_range() == Some(yaml_range)
            && document.split.body == body
            && !document.split.bom
    });
    if !agrees {
        return read_metadata(text, folder, clients);
    }
    let parsed = document.yaml_range().zip(document.yaml.as_ref());
    let readings = Readings::read(text, parsed, clients);
    let mapping = document
        .yaml
        .as_ref()
        .filter(|yaml| yaml.error.is_none())
        .and_then(|yaml| yaml.root.as_ref())
        .filter(|root| root.as_mapping().is_some());
    metadata_from(
        mapping,
        text,
        &text[document.split.body.as_range()],
        folder,
        readings,
    )
}

fn metadata_from(
    mapping: Option<&Node>,
    text: &str,
    body: &str,
    folder: &str,
    readings: Readings,
) -> Metadata {
    let string_entry = |key: &str| {
        mapping
            .and_then(|root| root.get(key))
            .filter(|entry| entry.value.is_string())
            .and_then(|entry| Some((entry.value.as_str()?.trim(), entry.value.range)))
            .filter(|(value, _)| !value.is_empty())
            .map(|(value, range)| (value.to_owned(), range))
    };
    let string_field = |key: &str| string_entry(key).map(|(value, _)| value);
    let (name, name_range) = string_entry("name").unzip();
    let (description, description_range) = string_entry("description").unzip();
    Metadata {
        name_span: name_range.map(|range| Span::of(text, range)),
        name_range,
        description_range,
        name_from_folder: name.is_none(),
        name: name.unwrap_or_else(|| folder.to_owned()),
        description_from_body: description.is_none(),
        description: description.map_or_else(
            || description_from_body(body),
            |text| clean_description(&text),
        ),
        when_to_use: string_field("when_to_use").map(|text| collapse(&text)),
        readings,
    }
}

/// The folder given to `catalog`, `load --root` or `chat --root` is one skills root when it has
/// `*/SKILL.md` children itself, else a workspace whose default roots (plus `extra`) are scanned.
#[must_use]
pub fn roots_for(path: &Path, extra: &[PathBuf]) -> Vec<PathBuf> {
    if is_skills_root(fs_path(path)) {
        return vec![path.to_path_buf()];
    }
    let mut roots: Vec<PathBuf> = DEFAULT_ROOTS.iter().map(|root| path.join(root)).collect();
    for root in extra {
        let root = if root.is_absolute() {
            root.clone()
        } else {
            path.join(root)
        };
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

/// The workspace of a SKILL.md that no editor or argument names one for: the folder above the
/// default root that holds it (`skills/`, `.claude/skills/`, …), or else its own skills root
/// (the folder above its skill folder), which [`roots_for`] then scans alone.
#[must_use]
pub(crate) fn workspace_of_skill(skill_file: &Path) -> Option<PathBuf> {
    let root = super::discovery::root_of(skill_file)?;
    let root = clean(root);
    let text = root.to_string_lossy().replace('\\', "/");
    let inside = DEFAULT_ROOTS
        .iter()
        .filter_map(|default| {
            if text == *default {
                Some(PathBuf::new())
            } else {
                let workspace = text.strip_suffix(default)?.strip_suffix('/')?;
                Some(PathBuf::from(if workspace.is_empty() {
                    "/"
                } else {
                    workspace
                }))
            }
        })
        // `.claude/skills` before `skills`: the longest default root names the workspace.
        .min_by_key(|workspace| workspace.as_os_str().len());
    Some(inside.unwrap_or(root))
}

/// `path` without `.` components, so that the paths a front end was given and the paths the
/// loader builds from roots compare equal (`./skills/x` and `skills/x`). An empty result is
/// the current folder, spelled as the empty path, which [`fs_path`] turns back into `.`.
#[must_use]
pub(crate) fn clean(path: &Path) -> PathBuf {
    // Most paths are clean already (this runs several times per file in `check`): copy them
    // when no `.` component, doubled or trailing separator could be dropped.
    let bytes = path.as_os_str().as_encoded_bytes();
    let untouched = !bytes.is_empty()
        && bytes != b"."
        && !bytes.starts_with(b"./")
        && !bytes.ends_with(b"/")
        && !bytes.ends_with(b"/.")
        && memchr::memmem::find(bytes, b"//").is_none()
        && memchr::memmem::find(bytes, b"/./").is_none();
    if cfg!(unix) && untouched {
        return path.to_path_buf();
    }
    path.components()
        .filter(|component| !matches!(component, std::path::Component::CurDir))
        .collect()
}

/// A path fit for the file system: the empty path is the current folder.
#[must_use]
pub(crate) fn fs_path(path: &Path) -> &Path {
    if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    }
}

/// Whether `path` directly holds skill folders.
#[must_use]
pub(crate) fn is_skills_root(path: &Path) -> bool {
    fs::read_dir(fs_path(path)).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|entry| entry.path().join("SKILL.md").is_file())
    })
}

/// Where a registry gets file text: the disk, or an editor's unsaved buffers first.
pub trait Source: Sync {
    /// # Errors
    /// Returns the I/O error, or `InvalidData` for text that is not UTF-8.
    fn read(&self, path: &Path) -> io::Result<String>;

    /// Whether `path` is an editor buffer, which counts even before it is saved.
    fn is_open(&self, _path: &Path) -> bool {
        false
    }

    /// Whether `path` is known, without asking the file system, to be a regular file that is
    /// no symlink (a `check` walk listed it so), which spares the scan a look per skill.
    fn is_plain_file(&self, _path: &Path) -> bool {
        false
    }

    /// What the loader registers from the skill at `path` in the folder `folder`, with the
    /// readings of at least the `clients`. A source that has already parsed the file (a
    /// `check` run lints every file before it builds registries) answers from that parse
    /// instead of reading it again.
    ///
    /// # Errors
    /// As [`Source::read`].
    fn metadata(&self, path: &Path, folder: &str, clients: ClientSet) -> io::Result<Metadata> {
        self.read(path)
            .map(|text| read_metadata(&text, folder, clients))
    }
}

/// Reads from the file system.
pub struct Disk;

impl Source for Disk {
    fn read(&self, path: &Path) -> io::Result<String> {
        super::read::read_text(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_copies_clean_paths_and_drops_dots_and_doubled_separators() {
        for path in [
            "", ".", "/", "a", "a/b", "/a/b", "./a", "a/./b", "a/.", "a//b", "a/b/", "../a",
            "a/..", "/a/./b/", ".a/b.", "a/.b", "中文/x",
        ] {
            let slow: PathBuf = Path::new(path)
                .components()
                .filter(|component| !matches!(component, std::path::Component::CurDir))
                .collect();
            assert_eq!(clean(Path::new(path)), slow, "{path:?}");
        }
    }

    #[test]
    fn collapse_splits_at_the_same_whitespace_either_way() {
        for text in [
            "a  b",
            " a\tb\n",
            "a\u{b}b",
            "a\u{c}b\r\nc",
            "é  ü",
            "a\u{a0}b",
            "",
            "   ",
            "a b c",
            "a b ",
            " a",
            "x",
        ] {
            let slow = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(collapse(text), slow, "{text:?}");
        }
    }

    #[test]
    fn metadata_fallbacks() {
        let meta = read_metadata(
            "---\nname: ' pdf '\ndescription: |\n  Fill forms.\n  Use when asked.\n---\nBody\n",
            "x",
            ClientSet::NONE,
        );
        assert_eq!(meta.name, "pdf");
        assert_eq!(meta.description, "Fill forms. Use when asked.");
        assert!(!meta.name_from_folder && !meta.description_from_body);

        let meta = read_metadata(
            "---\nname: 3000\ndescription: \"\"\n---\n\n#  PDF   tools\nmore\n",
            "pdf",
            ClientSet::NONE,
        );
        assert_eq!(meta.name, "pdf");
        assert_eq!(meta.description, "PDF tools");
        assert!(meta.name_from_folder && meta.description_from_body);

        let meta = read_metadata("---\n- a\n- b\n---\nBody line\n", "pdf", ClientSet::NONE);
        assert_eq!(
            (meta.name.as_str(), meta.description.as_str()),
            ("pdf", "Body line")
        );

        let meta = read_metadata(
            "---\ndescription: Use when: x\n---\nBody\n",
            "pdf",
            ClientSet::NONE,
        );
        assert_eq!(meta.description, "Body", "YAML errors give empty metadata");

        let meta = read_metadata("---not frontmatter\nname: x\n", "pdf", ClientSet::NONE);
        assert_eq!(
            (meta.name.as_str(), meta.description.as_str()),
            ("pdf", "---not frontmatter")
        );
    }

    #[test]
    fn reusing_the_linters_parse_reads_the_same_metadata() {
        for text in [
            "---\nname: a\ndescription: b\n---\nbody\n",
            "\u{feff}---\nname: a\ndescription: b\n---\nbody\n",
            "---\nname: a\n----\ndescription: c\n---\nbody\n",
            "# title\n---\nname: a\n---\n",
            "---\ndescription: Use when: x\n---\nBody\n",
            "---\n- a\n---\nB\n",
            "---\r\nname: a\r\n---\r\nb\r\n",
            "",
        ] {
            let document = SkillDocument::parse(text);
            assert_eq!(
                read_metadata_parsed(text, &document, "f", ClientSet::ALL),
                read_metadata(text, "f", ClientSet::ALL),
                "{text:?}"
            );
        }
    }

    #[test]
    fn readings_read_later_or_in_part_are_the_readings_read_at_once() {
        let clients = crate::clients::MODELLED;
        for text in [
            "---\nname: a\ndescription: b\n---\nbody\n",
            "\u{feff}---\nname: a\ndescription: b\n---\nbody\n",
            "---\nname: a\n----\ndescription: c\n---\nbody\n",
            "# title\n---\nname: a\n---\n",
            "---\ndescription: Use when: x\n---\nBody\n",
            "---\nname: a\ndescription: >\n  folded\n  text\nwhen_to_use: now\n---\n",
            "---\n- a\n---\nB\n",
            "---\r\nname: a\r\n---\r\nb\r\n",
            "",
        ] {
            let whole = read_metadata(text, "f", ClientSet::ALL);
            assert_eq!(whole.readings.clients(), ClientSet::of(clients));
            let document = SkillDocument::parse(text);
            for client in clients {
                let one = ClientSet::of([client]);
                let mut metadata = read_metadata_parsed(text, &document, "f", one);
                assert_eq!(metadata.readings.clients(), one, "{text:?}");
                // The others, read afterwards without the linter's parse.
                metadata
                    .readings
                    .add(text, None, ClientSet::ALL.without(one));
                assert_eq!(metadata, whole, "{text:?} {client}");
                let mut later = Readings::default();
                add_readings(&mut later, text, one);
                assert_eq!(later, read_metadata(text, "f", one).readings);
            }
            let bare = read_metadata(text, "f", ClientSet::NONE);
            assert!(bare.readings.clients().is_empty());
            assert_eq!(
                (bare.name, bare.description),
                (whole.name, whole.description)
            );
        }
    }
}
