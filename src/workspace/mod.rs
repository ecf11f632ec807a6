//! Skills on disk: discovery for `check`, the loader's registry (design.md §5) and the catalog.

pub(crate) mod catalog;
pub(crate) mod discovery;
pub(crate) mod explain;
pub(crate) mod index;
pub mod loader;
pub(crate) mod open;
pub(crate) mod plugins;
pub(crate) mod read;
pub(crate) mod registry;
pub(crate) mod walk;
pub(crate) mod write;

pub(crate) use index::WorkspaceIndex;
pub use loader::{Disk, Source};
pub(crate) use open::Workspace;
pub use registry::Registry;
pub(crate) use registry::Skill;
