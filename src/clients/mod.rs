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

/// The release of `target` whose listing skill-lsp models, as `Client version`, if it is one.
#[must_use]
pub(crate) fn measured_with(target: crate::targets::Target) -> Option<String> {
    use crate::targets::Target;
    let version = match target {
        Target::ClaudeCode => claude_code::VERSION,
        Target::Codex => codex::VERSION,
        Target::Copilot => copilot::VERSION,
        Target::OpenCode => opencode::VERSION,
        Target::Gemini => gemini::VERSION,
        _ => return None,
    };
    Some(format!("{} {version}", target.display()))
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

/// Claude Code's own skills: a frontmatter name equal to one of them is never shown beside the
/// folder name, since the name already answers to the client's skill.
const CLAUDE_CODE_OWN: [&str; claude_code::OWN_SKILLS] = [
    "dataviz",
    "update-config",
    "keybindings-help",
    "code-review",
    "simplify",
    "fewer-permission-prompts",
    "loop",
    "claude-api",
    "workflow-authoring",
    "run",
    "plugin-authoring",
    "init",
    "security-review",
];

fn claude_code_own_skill(name: &str) -> bool {
    CLAUDE_CODE_OWN.contains(&name)
}
