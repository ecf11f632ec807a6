//! JavaScript's `localeCompare` with no locale, as Bun runs it: ICU's root collation, which Claude
//! Code sorts its skill folders by (`_` before `-` before digits before letters, case second).

use std::cmp::Ordering;

use icu_collator::CollatorBorrowed;
use icu_collator::options::CollatorOptions;

pub(crate) struct Collator(Option<CollatorBorrowed<'static>>);

impl Collator {
    #[must_use]
    pub(crate) fn new() -> Self {
        Self(CollatorBorrowed::try_new(Default::default(), CollatorOptions::default()).ok())
    }

    #[must_use]
    pub(crate) fn compare(&self, a: &str, b: &str) -> Ordering {
        match &self.0 {
            Some(collator) => collator.compare(a, b),
            // The root data is compiled in; code-point order is the fallback that cannot fail.
            None => a.cmp(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_collation_orders_as_claude_code_lists() {
        let mut folders = vec![
            "c01-literal",
            "B-upper",
            "1digit",
            "-dash",
            "_under",
            "a",
            "A",
            "Growth-Scout",
        ];
        let collator = Collator::new();
        folders.sort_by(|a, b| collator.compare(a, b));
        assert_eq!(
            folders,
            [
                "_under",
                "-dash",
                "1digit",
                "a",
                "A",
                "B-upper",
                "c01-literal",
                "Growth-Scout"
            ]
        );
    }
}
