//! JavaScript's view of text, which the clients (all written in JavaScript or TypeScript) apply
//! when they measure, cut and clean descriptions: lengths and cuts in UTF-16 code units, what
//! `\s` and `trim` count as white space, `String(number)`, and the Unicode classes of their
//! regular expressions.

use icu_properties::props::{
    DefaultIgnorableCodePoint, Emoji, EmojiComponent, EmojiModifier, ExtendedPictographic,
    GeneralCategory, RegionalIndicator,
};
use icu_properties::{CodePointMapData, CodePointSetData};

/// `text.length`.
#[must_use]
pub(crate) fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// `text.slice(0, units)`, keeping whole characters (a cut inside a surrogate pair drops it).
#[must_use]
pub(crate) fn utf16_prefix(text: &str, units: usize) -> &str {
    let mut seen = 0;
    for (at, c) in text.char_indices() {
        seen += c.len_utf16();
        if seen > units {
            return &text[..at];
        }
    }
    text
}

/// Columns a terminal gives the text (`Bun.stringWidth`): two for wide characters.
#[must_use]
pub(crate) fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// What `\s` and `String.prototype.trim` remove.
#[must_use]
pub(crate) fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `String(Number(text))` for a YAML number.
#[must_use]
pub(crate) fn number_string(text: &str) -> String {
    let parsed = if let Some(hex) = text.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok().map(|value| value as f64)
    } else if let Some(octal) = text.strip_prefix("0o") {
        i64::from_str_radix(octal, 8).ok().map(|value| value as f64)
    } else {
        match text.to_ascii_lowercase().trim_start_matches('+') {
            ".inf" => Some(f64::INFINITY),
            "-.inf" => Some(f64::NEG_INFINITY),
            ".nan" => Some(f64::NAN),
            other => other.parse::<f64>().ok(),
        }
    };
    let Some(value) = parsed else {
        return text.to_owned();
    };
    if value.is_nan() {
        "NaN".to_owned()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else if value == value.trunc() && value.abs() < 1e21 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

/// `\p{L}`, `\p{M}` or `\p{N}`.
#[must_use]
pub(crate) fn is_letter_mark_number(c: char) -> bool {
    use GeneralCategory as G;
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
            | G::DecimalNumber
            | G::LetterNumber
            | G::OtherNumber
    )
}

/// Control, format, private-use or unassigned characters, the line and paragraph separators,
/// the default-ignorable ones and the blank braille pattern: what Claude Code turns into spaces.
#[must_use]
pub(crate) fn is_invisible(c: char) -> bool {
    use GeneralCategory as G;
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        G::Control | G::Format | G::PrivateUse | G::Unassigned | G::Surrogate
    ) || matches!(c, '\u{2028}' | '\u{2029}' | '\u{2800}')
        || (CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c) && c != ' ')
}

/// Whether the character at `index` (a joiner, variation selector or tag) is part of an emoji
/// sequence, which Claude Code keeps whole.
#[must_use]
pub(crate) fn joins_emoji(chars: &[char], index: usize) -> bool {
    let c = chars[index];
    if !matches!(
        c,
        '\u{200d}' | '\u{fe0f}' | '\u{fe0e}' | '\u{e0020}'..='\u{e007f}'
    ) {
        return false;
    }
    let emoji = |c: char| {
        CodePointSetData::new::<Emoji>().contains(c)
            || CodePointSetData::new::<ExtendedPictographic>().contains(c)
            || CodePointSetData::new::<EmojiModifier>().contains(c)
            || CodePointSetData::new::<RegionalIndicator>().contains(c)
            || (CodePointSetData::new::<EmojiComponent>().contains(c) && !c.is_ascii())
    };
    let before = index.checked_sub(1).map(|at| chars[at]);
    match c {
        // A joiner between two emoji.
        '\u{200d}' => {
            before.is_some_and(|b| emoji(b) || b == '\u{fe0f}')
                && chars.get(index + 1).is_some_and(|&n| emoji(n))
        }
        // A presentation selector or a tag after an emoji (or after another tag).
        _ => before.is_some_and(|b| emoji(b) || ('\u{e0020}'..='\u{e007f}').contains(&b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_cuts_count_utf16_units() {
        assert_eq!(utf16_len("a😀é"), 4);
        assert_eq!(utf16_prefix("a😀é", 2), "a");
        assert_eq!(utf16_prefix("a😀é", 3), "a😀");
        assert_eq!(utf16_prefix("ab", 5), "ab");
    }

    #[test]
    fn numbers_print_as_javascript_does() {
        for (yaml, js) in [
            ("42", "42"),
            ("42.50", "42.5"),
            ("1e3", "1000"),
            ("0x1F", "31"),
            ("-0.5", "-0.5"),
            (".inf", "Infinity"),
        ] {
            assert_eq!(number_string(yaml), js, "{yaml}");
        }
    }

    #[test]
    fn invisible_characters() {
        for c in [
            '\t', '\n', '\u{200b}', '\u{feff}', '\u{e000}', '\u{2028}', '\u{ad}',
        ] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in [' ', 'a', '\u{a0}', 'é', '😀'] {
            assert!(!is_invisible(c), "{c:?}");
        }
        let chars: Vec<char> = "⚠\u{fe0f}x\u{fe0f}".chars().collect();
        assert!(joins_emoji(&chars, 1) && !joins_emoji(&chars, 3));
    }
}
