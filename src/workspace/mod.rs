//! Skills on disk: discovery for `check`, the loader's registry (SPEC section 5) and the catalog.

pub mod catalog;
pub mod discovery;
pub mod index;
pub mod loader;
pub mod read;
pub mod registry;

pub use index::WorkspaceIndex;
pub use loader::{Disk, Source};
pub use registry::{Registry, Skill};
