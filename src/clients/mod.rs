//! What each real client does with a workspace's skills: which it lists to the model, under which
//! name, with which text, in which order and within which budget. Each client's rules were
//! measured against the client itself (`tests/clients` runs them offline); the version measured is
//! each module's `VERSION`.

pub(crate) mod claude_code;
pub(crate) mod codex;
mod collate;
pub(crate) mod copilot;
pub(crate) mod gemini;
pub(crate) mod js;
pub(crate) mod opencode;

use crate::document::yaml::YamlDocument;
use crate::targets::{Client, ClientSet};
use crate::text::TextRange;

/// The clients whose reading and listing are modelled here, in the order answers are given.
pub(crate) const MODELLED: [Client; 5] = [
    Client::ClaudeCode,
    Client::Codex,
    Client::Copilot,
    Client::OpenCode,
    Client::Gemini,
];

/// One client's reading of a SKILL.md, as the fix guard (`rules::fix::keep_readings`) compares
/// two of them: before and after a fix.
pub(crate) trait ClientReading: PartialEq {
    /// The client took the skill's name and text from its frontmatter (not refused, and not a
    /// fallback to the folder and the body).
    fn reads_frontmatter(&self) -> bool;
    /// The name the skill goes by, `folder` where the frontmatter gives none.
    fn name_in(&self, folder: &str) -> String;
    /// The same reading with no name, for comparing all but the name.
    fn unnamed(&self) -> Self;
}

/// The release of `target` whose listing skill-lsp models, as `Client version`, if it is one.
#[must_use]
pub(crate) fn measured_with(target: Client) -> Option<String> {
    let version = match target {
        Client::ClaudeCode => claude_code::VERSION,
        Client::Codex => codex::VERSION,
        Client::Copilot => copilot::VERSION,
        Client::OpenCode => opencode::VERSION,
        Client::Gemini => gemini::VERSION,
        _ => return None,
    };
    Some(format!("{} {version}", target.display()))
}

/// What the modelled clients read from one SKILL.md, each its own way: only the clients asked
/// for are read (each reading costs a parse of the frontmatter, or more), and only a client's
/// listing uses its reading (`workspace::catalog`).
///
/// `None`: the client was not asked for. Boxed, so that a skill read for no client (most of
/// them, in most runs) keeps five pointers, not five readings' room.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Readings {
    pub(crate) claude: Option<Box<claude_code::Reading>>,
    pub(crate) codex: Option<Box<codex::Reading>>,
    pub(crate) copilot: Option<Box<copilot::Reading>>,
    pub(crate) opencode: Option<Box<opencode::Reading>>,
    pub(crate) gemini: Option<Box<gemini::Reading>>,
}

impl Readings {
    /// The readings of the `clients` among the modelled ones from `text`; `parsed` is a parse
    /// of its frontmatter that Claude Code, Codex and Copilot reuse when they find the same
    /// block.
    #[must_use]
    pub(crate) fn read(
        text: &str,
        parsed: Option<(TextRange, &YamlDocument)>,
        clients: ClientSet,
    ) -> Self {
        let mut readings = Readings::default();
        readings.add(text, parsed, clients);
        readings
    }

    /// Adds the readings of the `clients` it lacks, from the same `text` as the others.
    pub(crate) fn add(
        &mut self,
        text: &str,
        parsed: Option<(TextRange, &YamlDocument)>,
        clients: ClientSet,
    ) {
        let wanted = clients.without(self.clients());
        if wanted.contains(Client::ClaudeCode) {
            self.claude = Some(Box::new(claude_code::read_reusing(text, parsed)));
        }
        if wanted.contains(Client::Codex) {
            self.codex = Some(Box::new(codex::read_reusing(text, parsed)));
        }
        if wanted.contains(Client::Copilot) {
            self.copilot = Some(Box::new(copilot::read_reusing(text, parsed)));
        }
        if wanted.contains(Client::OpenCode) {
            self.opencode = Some(Box::new(opencode::read(text)));
        }
        if wanted.contains(Client::Gemini) {
            self.gemini = Some(Box::new(gemini::read(text)));
        }
    }

    /// The clients read.
    #[must_use]
    pub(crate) fn clients(&self) -> ClientSet {
        ClientSet::of(
            [
                (Client::ClaudeCode, self.claude.is_some()),
                (Client::Codex, self.codex.is_some()),
                (Client::Copilot, self.copilot.is_some()),
                (Client::OpenCode, self.opencode.is_some()),
                (Client::Gemini, self.gemini.is_some()),
            ]
            .into_iter()
            .filter_map(|(target, read)| read.then_some(target)),
        )
    }
}

/// Why a client keeps a skill it loaded out of the model's listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Hidden {
    /// `disable-model-invocation` is true: only the user can run it.
    ModelInvocationDisabled,
    /// `paths` makes it conditional: offered once a matching file is touched.
    PathScoped,
}

impl Hidden {
    #[must_use]
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Hidden::ModelInvocationDisabled => {
                "disable-model-invocation is set, so only the user can invoke it"
            }
            Hidden::PathScoped => {
                "its paths make it conditional: offered once a matching file is touched"
            }
        }
    }

    #[must_use]
    pub(crate) fn id(self) -> &'static str {
        match self {
            Hidden::ModelInvocationDisabled => "model-invocation-disabled",
            Hidden::PathScoped => "path-scoped",
        }
    }
}

/// What happens to a listed skill's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Fate {
    /// Listed with its whole text.
    Full,
    /// Cut at the client's per-skill cap.
    Capped,
    /// Over the listing budget: listed by name only.
    NameOnly,
    /// Over the listing budget: the text cut shorter to fit.
    Shortened,
}

impl Fate {
    #[must_use]
    pub(crate) fn id(self) -> &'static str {
        match self {
            Fate::Full => "full",
            Fate::Capped => "capped",
            Fate::NameOnly => "name-only",
            Fate::Shortened => "shortened",
        }
    }
}

/// Every name Claude Code's command table answers to in print mode (its built-in commands and
/// its own skills, measured one by one against the client): a frontmatter name equal to one of
/// them is never shown beside the folder name, since typing it runs the built-in. Sorted.
const CLAUDE_CODE_COMMANDS: [&str; 88] = [
    "__remote-workflow",
    "add-dir",
    "agents",
    "auto-mode-setup",
    "autocompact",
    "background",
    "batch",
    "branch",
    "btw",
    "bug",
    "cd",
    "claude-api",
    "clear",
    "code-review",
    "color",
    "compact",
    "config",
    "context",
    "copy",
    "dataviz",
    "debug",
    "deep-research",
    "diff",
    "doctor",
    "effort",
    "exit",
    "export",
    "fast",
    "feedback",
    "fewer-permission-prompts",
    "focus",
    "fork",
    "goal",
    "heapdump",
    "help",
    "hooks",
    "ide",
    "init",
    "insights",
    "keybindings",
    "keybindings-help",
    "list-agents",
    "login",
    "logout",
    "loop",
    "mcp",
    "memory",
    "mobile",
    "model",
    "output-style",
    "passes",
    "permissions",
    "plan",
    "plugin",
    "plugin-authoring",
    "powerup",
    "pro-trial-expired",
    "radio",
    "recap",
    "release-notes",
    "reload-plugins",
    "reload-skills",
    "rename",
    "resume",
    "rewind",
    "run",
    "run-skill-generator",
    "sandbox",
    "scroll-speed",
    "security-review",
    "setup-bedrock",
    "setup-vertex",
    "simplify",
    "skills",
    "status",
    "statusline",
    "stickers",
    "subtask",
    "tasks",
    "team-onboarding",
    "terminal-setup",
    "theme",
    "tui",
    "update-config",
    "usage",
    "workflow-authoring",
    "workflow-launch-exec",
    "workflows",
];

fn claude_code_command(name: &str) -> bool {
    CLAUDE_CODE_COMMANDS.binary_search(&name).is_ok()
}
