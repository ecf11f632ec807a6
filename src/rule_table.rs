//! The rule table of design.md §4: each rule's stable id, default severity and group, and the
//! severities themselves. A leaf module: `diagnostic` (a finding names its rule) and `rules` (the
//! checks) both read it, and it reads neither.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Hint,
    Info,
    Warning,
    Error,
}

impl Severity {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Hint => "hint",
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "hint" => Some(Severity::Hint),
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// What a rule checks, why it matters, an example and its fix: the text of `skill-lsp rules`.
/// Each rule's is written next to its check (a `rule_doc` function in the checking module).
#[derive(Clone, Copy, Debug)]
pub struct RuleDoc {
    pub summary: &'static str,
    pub why: &'static str,
    pub example: &'static str,
    pub fix: &'static str,
}

impl RuleDoc {
    #[must_use]
    pub(crate) const fn new(
        summary: &'static str,
        why: &'static str,
        example: &'static str,
        fix: &'static str,
    ) -> Self {
        Self {
            summary,
            why,
            example,
            fix,
        }
    }
}

macro_rules! rules {
    ($($variant:ident => $id:literal, $severity:ident, $group:ident;)*) => {
        /// A rule, named by its stable kebab-case id.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule { $($variant,)* }

        impl Rule {
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            #[must_use]
            pub fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity,)* }
            }

            #[must_use]
            pub fn group(self) -> Group {
                match self { $(Rule::$variant => Group::$group,)* }
            }
        }
    };
}

rules! {
    InvalidUtf8 => "invalid-utf8", Error, File;
    Bom => "bom", Error, File;
    MissingFrontmatter => "missing-frontmatter", Error, File;
    FrontmatterNotFirst => "frontmatter-not-first", Error, File;
    MalformedDelimiter => "malformed-delimiter", Error, File;
    UnterminatedFrontmatter => "unterminated-frontmatter", Error, File;
    YamlSyntax => "yaml-syntax", Error, File;
    UnquotedColon => "unquoted-colon", Error, File;
    NotAMapping => "not-a-mapping", Error, File;
    DuplicateKey => "duplicate-key", Error, File;
    FlowStyle => "flow-style", Warning, File;
    AnchorOrTag => "anchor-or-tag", Warning, File;
    MissingName => "missing-name", Error, Fields;
    MissingDescription => "missing-description", Error, Fields;
    FieldType => "field-type", Error, Fields;
    FieldValue => "field-value", Error, Fields;
    NameLength => "name-length", Error, Fields;
    NameFormat => "name-format", Error, Fields;
    NameMismatch => "name-mismatch", Error, Fields;
    ReservedWord => "reserved-word", Error, Fields;
    DescriptionEmpty => "description-empty", Error, Fields;
    DescriptionLength => "description-length", Error, Fields;
    DescriptionTrigger => "description-trigger", Hint, Fields;
    DescriptionAngleBrackets => "description-angle-brackets", Warning, Fields;
    CompatibilityLength => "compatibility-length", Error, Fields;
    MetadataValue => "metadata-value", Warning, Fields;
    Yaml11Type => "yaml11-type", Warning, Fields;
    AllowedToolsShape => "allowed-tools-shape", Warning, Fields;
    UnknownField => "unknown-field", Warning, Fields;
    BodyEmpty => "body-empty", Warning, Body;
    BodyTooLong => "body-too-long", Warning, Body;
    BrokenLink => "broken-link", Warning, Body;
    LinkEscapesSkill => "link-escapes-skill", Warning, Body;
    SkillMdCase => "skill-md-case", Error, Body;
    DuplicateName => "duplicate-name", Error, Workspace;
    SymlinkEscape => "symlink-escape", Warning, Workspace;
    CatalogBudget => "catalog-budget", Warning, Workspace;
    UnknownMention => "unknown-mention", Warning, Workspace;
    OpenaiYamlInvalid => "openai-yaml-invalid", Error, Codex;
    OpenaiYamlIgnored => "openai-yaml-ignored", Warning, Codex;
    OpenaiYamlIcon => "openai-yaml-icon", Warning, Codex;
    OpenaiYamlExplicitOnly => "openai-yaml-explicit-only", Info, Codex;
    ManifestJson => "manifest-json", Error, Plugin;
    ManifestSchema => "manifest-schema", Error, Plugin;
    ManifestUnknownKey => "manifest-unknown-key", Warning, Plugin;
    ManifestPath => "manifest-path", Error, Plugin;
    ManifestRecommended => "manifest-recommended", Warning, Plugin;
    PluginNameKebab => "plugin-name-kebab", Warning, Plugin;
    PluginNameReserved => "plugin-name-reserved", Error, Plugin;
    PluginNameBrand => "plugin-name-brand", Warning, Plugin;
    ManifestExperimental => "manifest-experimental", Warning, Plugin;
    PluginIdChars => "plugin-id-chars", Error, Plugin;
    DesktopName => "desktop-name", Warning, Plugin;
    MarketplaceDuplicatePlugin => "marketplace-duplicate-plugin", Error, Plugin;
    MarketplaceVersionSkew => "marketplace-version-skew", Warning, Plugin;
    DirectoryReadme => "directory-readme", Error, Plugin;
    DirectoryLicense => "directory-license", Error, Plugin;
    HiddenText => "hidden-text", Error, Security;
    PromptInjection => "prompt-injection", Error, Security;
    RemoteCode => "remote-code", Error, Security;
    CredentialAccess => "credential-access", Warning, Security;
    Exfiltration => "exfiltration", Error, Security;
    Persistence => "persistence", Warning, Security;
    Destructive => "destructive", Error, Security;
    Obfuscation => "obfuscation", Warning, Security;
    Permissions => "permissions", Warning, Security;
    CapabilityMismatch => "capability-mismatch", Warning, Security;
}

/// How a finding of a rule gets its severity: what `skill-lsp rules` and `docs/rules.md` say, and
/// what every printed finding keeps to (a test checks each fixture's findings against it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighing {
    /// Always the rule's severity.
    Fixed,
    /// From what the clients the skill is checked for do with it (`rules::severity_for`): an
    /// error where one of them skips, rejects or misreads it; otherwise the rule's severity, an
    /// error-level rule dropping to a warning and a warning to information where only a
    /// validator nobody chose objects.
    Clients,
    /// Security: by how certain the pattern is and where the text sits (a script, an
    /// instruction, an example in prose).
    Place,
    /// The rule's severity, lowered to `to` in the one case `when` names.
    Lowered { to: Severity, when: &'static str },
}

impl Rule {
    #[must_use]
    pub fn weighing(self) -> Weighing {
        match self.group() {
            Group::Security => Weighing::Place,
            Group::File | Group::Fields => match self {
                // Every client fails alike, or the finding is advice for the author.
                Rule::InvalidUtf8 | Rule::DescriptionTrigger | Rule::Yaml11Type => Weighing::Fixed,
                _ => Weighing::Clients,
            },
            _ => match self {
                Rule::SkillMdCase => Weighing::Clients,
                Rule::LinkEscapesSkill => Weighing::Lowered {
                    to: Severity::Info,
                    when: "for a link into a skill beside this one, which resolves where a collection is installed together",
                },
                _ => Weighing::Fixed,
            },
        }
    }

    /// Every severity a finding of this rule can print with when the configuration does not
    /// change it, highest first.
    #[must_use]
    pub fn severities(self) -> Vec<Severity> {
        let own = self.default_severity();
        let mut all = match self.weighing() {
            Weighing::Fixed => vec![own],
            Weighing::Clients => match own {
                Severity::Error => vec![Severity::Error, Severity::Warning],
                Severity::Warning => vec![Severity::Error, Severity::Warning, Severity::Info],
                lower => vec![Severity::Error, lower],
            },
            Weighing::Place => vec![Severity::Error, Severity::Warning, Severity::Info],
            Weighing::Lowered { to, .. } => vec![own, to],
        };
        all.sort_by(|a, b| b.cmp(a));
        all.dedup();
        all
    }

    /// The severities as `skill-lsp rules` lists them: `error/warning`.
    #[must_use]
    pub fn severity_list(self) -> String {
        self.severities()
            .iter()
            .map(|severity| severity.as_str())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// One sentence on how the rule's findings get their severity.
    #[must_use]
    pub fn severity_text(self) -> String {
        let own = self.default_severity().as_str();
        match self.weighing() {
            Weighing::Fixed => format!("always {own}"),
            Weighing::Clients => match self.default_severity() {
                Severity::Error => "an error where a client the skill is checked for skips, rejects or misreads it; \
                     a warning where they all load it (only a validator objects, or a client reads it degraded)"
                    .to_owned(),
                Severity::Warning => "an error where a client the skill is checked for skips, rejects or misreads it; \
                     a warning where one reads it degraded or a validator rejects it; \
                     information where only a validator nobody chose would read it less well"
                    .to_owned(),
                _ => format!(
                    "an error where a client the skill is checked for skips, rejects or misreads it; otherwise {own}"
                ),
            },
            Weighing::Place => format!(
                "up to error by how certain the pattern is and where the text sits: \
                 a script or an instruction weighs more than an example in prose (default {own})"
            ),
            Weighing::Lowered { to, when } => format!("{own}; {} {when}", to.as_str()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    File,
    Fields,
    Body,
    Workspace,
    /// Codex's `agents/openai.yaml` beside a SKILL.md.
    Codex,
    /// Claude Code plugin and marketplace manifests (`.claude-plugin/*.json`).
    Plugin,
    /// What a skill's files can do to the user's machine (`security`); a finding's severity is
    /// graded by where its text sits, up to the rule's default.
    Security,
}

impl Group {
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Group::File => "File and frontmatter",
            Group::Fields => "Fields",
            Group::Body => "Body and folder",
            Group::Workspace => "Workspace",
            Group::Codex => "Codex agents/openai.yaml",
            Group::Plugin => "Plugin and marketplace manifests",
            Group::Security => "Security",
        }
    }
}

impl Rule {
    #[must_use]
    pub fn parse(id: &str) -> Option<Self> {
        Rule::ALL.iter().copied().find(|rule| rule.as_str() == id)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}
