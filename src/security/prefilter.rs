//! Which of the security expressions can match a file, found in one pass over it, so that only
//! those run their regular expression over the whole file.
//!
//! Each expression's requirements come from its syntax tree, so they cannot drift from the
//! expression: a *clause* is a set of tests of which one must pass for the expression to match
//! anywhere in the file (a literal it must contain, a dotted run of digits, a long run of one
//! class of bytes), and an expression runs only when every one of its clauses passes. A
//! requirement says nothing about where a match is: whatever passes, the expression itself
//! still finds every match, so the findings are the same as without the filter.
//!
//! The literals of every expression are looked for together, by one Aho-Corasick automaton that
//! ignores ASCII case; a literal's exact case and its word boundaries are checked where it is
//! found.

use std::cell::OnceCell;

use aho_corasick::automaton::Automaton;
use aho_corasick::{Anchored, MatchKind, dfa::DFA};
use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// At most this many strings in the exact set of a piece of an expression: beyond, the set says
/// little and costs a large automaton.
const MAX_SET: usize = 64;
/// Character classes up to this size are spelled out as alternatives (`[/\\]`, `["']`).
const MAX_CLASS: usize = 8;
/// A clause whose weakest test is lighter than this is met by nearly every file (`|`, `-`):
/// dropping it keeps the filter cheap and loses almost nothing.
const MIN_WEIGHT: usize = 2;
/// The automaton walks this many stretches of a file at once: each step of a walk waits for the
/// table row the last one chose, so independent walks run side by side.
const LANES: usize = 4;
/// At most this many clauses per alternative of an expression.
const MAX_CLAUSES: usize = 2;
/// A repetition this long or longer of one class is looked for as a run (encoded blobs).
const MIN_RUN: u32 = 16;

/// One byte of a literal, or a word boundary between two bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Atom {
    /// `folded`: either ASCII case matches (the byte is stored in lower case).
    Byte {
        byte: u8,
        folded: bool,
    },
    Boundary,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Test {
    /// The literal occurs (boundaries only at its ends are checked; inner ones follow from its
    /// bytes), followed by what [`Follow`] says when the expression says what comes next.
    Literal(Vec<Atom>, Option<Box<Follow>>),
    /// Three dots, each right after a run of digits (`(?:\d{1,3}\.){3}`). A digit may be any
    /// byte of a multi-byte character, since `\d` is Unicode.
    DottedQuad,
    /// A run of at least `min` bytes of `class` (ASCII bytes only).
    Run { class: Box<[bool; 256]>, min: u32 },
}

/// What the expression puts right after a literal: a run of `skip` bytes, possibly empty, then
/// a byte of `then` or the end of the text (`env\s*(?:$|>|\|…)`). A literal whose occurrences
/// are all followed otherwise cannot be where the expression matches.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Follow {
    /// The repeated class: its ASCII bytes, and every byte from 0x80 when it holds a character
    /// outside ASCII (any byte of such a character may be one of them).
    skip: [bool; 256],
    /// The bytes the next piece can start with (ASCII only).
    then: [bool; 256],
    /// The next piece can match at the end of the text.
    end: bool,
}

impl Follow {
    /// Whether some offset from `end` on, reached over `skip` bytes only, has a byte of `then`
    /// or is the end of the text.
    fn holds(&self, text: &[u8], end: usize) -> bool {
        let mut at = end;
        loop {
            match text.get(at) {
                None => return self.end,
                Some(&byte) if self.then[usize::from(byte)] => return true,
                Some(&byte) if self.skip[usize::from(byte)] => at += 1,
                Some(_) => return false,
            }
        }
    }
}

/// What follows a literal that `rest` comes right after: `rest` starts with a repetition of a
/// class that may be empty and goes on with a piece whose first bytes are known, or starts with
/// such a piece. `None` when it says nothing sure.
fn follow(rest: &[Hir]) -> Option<Box<Follow>> {
    let mut skip = [false; 256];
    let mut next = rest.first()?;
    if let HirKind::Repetition(repetition) = next.kind() {
        let HirKind::Class(class) = repetition.sub.kind() else {
            return None;
        };
        if repetition.min != 0 {
            return None;
        }
        for (byte, wide) in class_bytes(class) {
            skip[usize::from(byte)] = true;
            if wide {
                skip[0x80..].fill(true);
            }
        }
        next = rest.get(1)?;
    }
    let mut then = [false; 256];
    let end = first_bytes(next, &mut then)?;
    Some(Box::new(Follow { skip, then, end }))
}

/// The ASCII bytes of a class, each with whether the class also holds characters (or bytes)
/// outside ASCII.
fn class_bytes(class: &Class) -> Vec<(u8, bool)> {
    let mut bytes = Vec::new();
    let mut wide = false;
    match class {
        Class::Unicode(class) => {
            for range in class.iter() {
                let (start, end) = (u32::from(range.start()), u32::from(range.end()));
                wide |= end >= 0x80;
                for ch in start..=end.min(0x7F) {
                    bytes.push(ch as u8);
                }
            }
        }
        Class::Bytes(class) => {
            for range in class.iter() {
                wide |= range.end() >= 0x80;
                for byte in range.start()..=range.end().min(0x7F) {
                    bytes.push(byte);
                }
            }
        }
    }
    if wide && bytes.is_empty() {
        bytes.push(0x80);
    }
    bytes.into_iter().map(|byte| (byte, wide)).collect()
}

/// Marks in `then` every byte a match of `hir` can start with, all ASCII; returns whether it can
/// also match at the end of the text. `None` when that is not known, or when a match can start
/// with a byte outside ASCII or be empty elsewhere.
fn first_bytes(hir: &Hir, then: &mut [bool; 256]) -> Option<bool> {
    match hir.kind() {
        HirKind::Literal(literal) => {
            let byte = *literal.0.first()?;
            if byte >= 0x80 {
                return None;
            }
            then[usize::from(byte)] = true;
            Some(false)
        }
        HirKind::Class(class) => {
            for (byte, wide) in class_bytes(class) {
                if wide {
                    return None;
                }
                then[usize::from(byte)] = true;
            }
            Some(false)
        }
        HirKind::Look(Look::End) => Some(true),
        HirKind::Look(Look::EndLF) => {
            then[usize::from(b'\n')] = true;
            Some(true)
        }
        HirKind::Look(Look::EndCRLF) => {
            then[usize::from(b'\n')] = true;
            then[usize::from(b'\r')] = true;
            Some(true)
        }
        HirKind::Capture(capture) => first_bytes(&capture.sub, then),
        HirKind::Concat(parts) => match parts.first()?.kind() {
            HirKind::Literal(_) | HirKind::Class(_) => first_bytes(&parts[0], then),
            _ => None,
        },
        HirKind::Alternation(subs) => {
            let mut end = false;
            for sub in subs {
                end |= first_bytes(sub, then)?;
            }
            Some(end)
        }
        HirKind::Repetition(repetition) if repetition.min >= 1 => {
            first_bytes(&repetition.sub, then)
        }
        _ => None,
    }
}

/// Words so common in skills that a literal spelling one filters next to nothing, and costs the
/// automaton a stop at nearly every line.
const COMMON_WORDS: [&str; 24] = [
    "to", "for", "the", "it", "on", "of", "not", "any", "all", "do", "this", "out", "user", "run",
    "read", "keep", "ask", "report", "without", "ai", "you", "your", "and", "from",
];

impl Test {
    /// How rare the test is likely to pass: the longer the literal, the rarer; a common word
    /// barely counts.
    fn weight(&self) -> usize {
        match self {
            Test::Literal(atoms, _) if is_common_word(atoms) => 1,
            _ => self.length(),
        }
    }

    /// The bytes a literal spells, spaces left out; a run's length; eight for a dotted quad.
    fn length(&self) -> usize {
        match self {
            Test::Literal(atoms, _) => atoms
                .iter()
                .filter(
                    |atom| matches!(atom, Atom::Byte { byte, .. } if !byte.is_ascii_whitespace()),
                )
                .count(),
            Test::DottedQuad => 8,
            Test::Run { min, .. } => *min as usize,
        }
    }
}

fn is_common_word(atoms: &[Atom]) -> bool {
    let bytes = atoms.iter().filter_map(|atom| match atom {
        Atom::Byte { byte, .. } => Some(byte.to_ascii_lowercase()),
        Atom::Boundary => None,
    });
    COMMON_WORDS.iter().any(|word| {
        let mut spelled = bytes.clone();
        word.bytes().all(|byte| spelled.next() == Some(byte)) && spelled.next().is_none()
    })
}

/// Tests of which one must pass.
type Clause = Vec<Test>;

fn weight(clause: &Clause) -> usize {
    clause.iter().map(Test::weight).min().unwrap_or(0)
}

fn length(clause: &Clause) -> usize {
    clause.iter().map(Test::length).min().unwrap_or(0)
}

/// The exact strings `hir` can match, when they are few; `None` when they are many or when a
/// piece of `hir` is not spelled out (a large class, a repetition, a line anchor).
fn exact(hir: &Hir) -> Option<Vec<Vec<Atom>>> {
    match hir.kind() {
        HirKind::Empty => Some(vec![Vec::new()]),
        HirKind::Literal(literal) => Some(vec![
            literal
                .0
                .iter()
                .map(|&byte| Atom::Byte {
                    byte,
                    folded: false,
                })
                .collect(),
        ]),
        HirKind::Class(class) => class_strings(class),
        HirKind::Look(Look::WordAscii) => Some(vec![vec![Atom::Boundary]]),
        HirKind::Look(_) => None,
        HirKind::Capture(capture) => exact(&capture.sub),
        HirKind::Repetition(repetition) => {
            let sub = exact(&repetition.sub)?;
            match (repetition.min, repetition.max) {
                (0, Some(1)) => union(vec![vec![Vec::new()], sub]),
                (min, Some(max)) if min == max && min <= 3 => {
                    let mut set = vec![Vec::new()];
                    for _ in 0..min {
                        set = product(&set, &sub)?;
                    }
                    Some(set)
                }
                _ => None,
            }
        }
        HirKind::Concat(subs) => subs
            .iter()
            .try_fold(vec![Vec::new()], |set, sub| product(&set, &exact(sub)?)),
        HirKind::Alternation(subs) => union(subs.iter().map(exact).collect::<Option<Vec<_>>>()?),
    }
}

/// The characters of a small class, each as its UTF-8 bytes; an ASCII letter whose two cases
/// are both in the class becomes one folded byte. `ſ` and the Kelvin sign, which `(?i)` adds to
/// `s` and `k`, are left out: a file holding either runs every expression ([`Prefilter`]).
fn class_strings(class: &Class) -> Option<Vec<Vec<Atom>>> {
    let chars: Vec<u32> = match class {
        Class::Unicode(class) => {
            let mut chars = Vec::new();
            for range in class.iter() {
                let (start, end) = (u32::from(range.start()), u32::from(range.end()));
                if end - start >= MAX_CLASS as u32 || chars.len() > MAX_CLASS {
                    return None;
                }
                chars.extend(start..=end);
            }
            chars.retain(|&ch| !is_fold_only(ch));
            chars
        }
        Class::Bytes(class) => {
            let mut bytes = Vec::new();
            for range in class.iter() {
                if range.end() - range.start() >= MAX_CLASS as u8 || bytes.len() > MAX_CLASS {
                    return None;
                }
                bytes.extend((range.start()..=range.end()).map(u32::from));
            }
            if bytes.iter().any(|&byte| byte >= 0x80) {
                return None;
            }
            bytes
        }
    };
    if chars.len() > MAX_CLASS {
        return None;
    }
    let mut strings: Vec<Vec<Atom>> = Vec::new();
    for &ch in &chars {
        let ch = char::from_u32(ch)?;
        let other_case = if ch.is_ascii_uppercase() {
            Some(ch.to_ascii_lowercase())
        } else if ch.is_ascii_lowercase() {
            Some(ch.to_ascii_uppercase())
        } else {
            None
        };
        match other_case {
            Some(other) if chars.contains(&u32::from(other)) => {
                if ch.is_ascii_lowercase() {
                    strings.push(vec![Atom::Byte {
                        byte: ch as u8,
                        folded: true,
                    }]);
                }
            }
            _ => {
                let mut buffer = [0; 4];
                let bytes = ch.encode_utf8(&mut buffer).as_bytes();
                strings.push(
                    bytes
                        .iter()
                        .map(|&byte| Atom::Byte {
                            byte,
                            folded: false,
                        })
                        .collect(),
                );
            }
        }
    }
    Some(strings)
}

/// `ſ` (U+017F) and the Kelvin sign (U+212A): the only characters outside ASCII that Unicode
/// case folding makes equal to an ASCII letter.
fn is_fold_only(ch: u32) -> bool {
    ch == 0x17F || ch == 0x212A
}

fn product(left: &[Vec<Atom>], right: &[Vec<Atom>]) -> Option<Vec<Vec<Atom>>> {
    if left.len() * right.len() > MAX_SET {
        return None;
    }
    Some(
        left.iter()
            .flat_map(|a| {
                right.iter().map(move |b| {
                    let mut joined = a.clone();
                    joined.extend_from_slice(b);
                    joined
                })
            })
            .collect(),
    )
}

fn union(sets: Vec<Vec<Vec<Atom>>>) -> Option<Vec<Vec<Atom>>> {
    let mut all: Vec<Vec<Atom>> = Vec::new();
    for string in sets.into_iter().flatten() {
        if !all.contains(&string) {
            all.push(string);
        }
    }
    (all.len() <= MAX_SET).then_some(all)
}

/// A set of exact strings as a clause: one of them must occur, followed as `follow` says. `None`
/// when one of them is empty (or only boundaries), which every file holds.
fn literal_clause(set: Vec<Vec<Atom>>, follow: Option<&Follow>) -> Option<Clause> {
    let mut clause = Vec::with_capacity(set.len());
    for atoms in set {
        let atoms = trimmed(atoms);
        if !atoms.iter().any(|atom| matches!(atom, Atom::Byte { .. })) {
            return None;
        }
        clause.push(Test::Literal(
            atoms,
            follow.map(|follow| Box::new(follow.clone())),
        ));
    }
    Some(clause)
}

/// Drops the boundaries inside a literal (its bytes decide them) and repeated ones at its ends.
fn trimmed(atoms: Vec<Atom>) -> Vec<Atom> {
    let first_byte = atoms
        .iter()
        .position(|atom| matches!(atom, Atom::Byte { .. }));
    let last_byte = atoms
        .iter()
        .rposition(|atom| matches!(atom, Atom::Byte { .. }));
    let (Some(first), Some(last)) = (first_byte, last_byte) else {
        return atoms;
    };
    let mut out = Vec::with_capacity(atoms.len());
    if first > 0 {
        out.push(Atom::Boundary);
    }
    out.extend(
        atoms[first..=last]
            .iter()
            .copied()
            .filter(|atom| matches!(atom, Atom::Byte { .. })),
    );
    if last + 1 < atoms.len() {
        out.push(Atom::Boundary);
    }
    out
}

/// Clauses every match of `hir` meets (all of them).
fn clauses(hir: &Hir) -> Vec<Clause> {
    if let Some(set) = exact(hir) {
        return literal_clause(set, None).into_iter().collect();
    }
    match hir.kind() {
        HirKind::Capture(capture) => clauses(&capture.sub),
        HirKind::Repetition(repetition) => {
            if let Some(test) = dotted_quad(hir).or_else(|| run(hir)) {
                return vec![vec![test]];
            }
            if repetition.min >= 1 {
                clauses(&repetition.sub)
            } else {
                Vec::new()
            }
        }
        HirKind::Concat(subs) => concat_clauses(subs),
        HirKind::Alternation(subs) => {
            let mut union: Clause = Vec::new();
            for sub in subs {
                let Some(best) = clauses(sub).into_iter().max_by_key(weight) else {
                    return Vec::new();
                };
                for test in best {
                    if !union.contains(&test) {
                        union.push(test);
                    }
                }
            }
            vec![union]
        }
        _ => Vec::new(),
    }
}

/// A concatenation's clauses: the exact strings of each stretch of spelled-out pieces, and the
/// clauses of every other piece.
fn concat_clauses(subs: &[Hir]) -> Vec<Clause> {
    let mut out = Vec::new();
    let mut stretch: Option<Vec<Vec<Atom>>> = None;
    for (at, sub) in subs.iter().enumerate() {
        match exact(sub) {
            Some(set) => {
                stretch = match stretch.take() {
                    None => Some(set),
                    Some(so_far) => match product(&so_far, &set) {
                        Some(joined) => Some(joined),
                        None => {
                            out.extend(literal_clause(so_far, None));
                            Some(set)
                        }
                    },
                };
            }
            None => {
                if let Some(so_far) = stretch.take() {
                    out.extend(literal_clause(so_far, follow(&subs[at..]).as_deref()));
                }
                out.extend(clauses(sub));
            }
        }
    }
    if let Some(so_far) = stretch {
        out.extend(literal_clause(so_far, None));
    }
    out
}

/// `(?:\d{1,3}\.){3}` and the like: a repetition, three or more times, of digits then a dot.
fn dotted_quad(hir: &Hir) -> Option<Test> {
    let HirKind::Repetition(repetition) = hir.kind() else {
        return None;
    };
    let HirKind::Concat(parts) = repetition.sub.kind() else {
        return None;
    };
    let [digits, dot] = parts.as_slice() else {
        return None;
    };
    let is_dot = matches!(dot.kind(), HirKind::Literal(literal) if &*literal.0 == b".");
    let is_digits = matches!(digits.kind(), HirKind::Repetition(inner)
        if inner.min >= 1 && matches!(inner.sub.kind(), HirKind::Class(class) if only_digits(class)));
    (repetition.min >= 3 && is_dot && is_digits).then_some(Test::DottedQuad)
}

/// A class of digits (ASCII or Unicode `\d`), which holds no dot.
fn only_digits(class: &Class) -> bool {
    match class {
        Class::Unicode(class) => {
            class
                .iter()
                .any(|range| range.start() <= '0' && '9' <= range.end())
                && class
                    .iter()
                    .all(|range| !(range.start() <= '.' && '.' <= range.end()))
                && class
                    .iter()
                    .filter(|range| range.end().is_ascii())
                    .all(|range| range.start().is_ascii_digit() && range.end().is_ascii_digit())
        }
        Class::Bytes(_) => false,
    }
}

/// A long repetition of one ASCII class (`[A-Za-z0-9+/]{64}`).
fn run(hir: &Hir) -> Option<Test> {
    let HirKind::Repetition(repetition) = hir.kind() else {
        return None;
    };
    if repetition.min < MIN_RUN {
        return None;
    }
    let HirKind::Class(Class::Unicode(class)) = repetition.sub.kind() else {
        return None;
    };
    let mut bytes = [false; 256];
    for range in class.iter() {
        // `(?i)` adds `ſ` and the Kelvin sign to `s` and `k`; a file holding either runs every
        // expression anyway.
        if range.start() == range.end() && is_fold_only(u32::from(range.start())) {
            continue;
        }
        if !range.end().is_ascii() {
            return None;
        }
        for byte in range.start() as u8..=range.end() as u8 {
            bytes[usize::from(byte)] = true;
        }
    }
    Some(Test::Run {
        class: Box::new(bytes),
        min: repetition.min,
    })
}

/// The clauses an expression is filtered by, per alternative: the expression may match where
/// every clause of one alternative is met. An expression spelled as alternatives at its top
/// (`\bmkfs… | \bdd\s…of=/dev/… | \bformat\s+…`) gets one list per alternative, so a file
/// that only says "format" does not run the whole expression. One alternative with no clauses:
/// it must run on every file.
fn requirements(source: &str) -> Vec<Vec<Clause>> {
    let Ok(hir) = regex_syntax::parse(source) else {
        return vec![Vec::new()];
    };
    let mut branches = Vec::new();
    for alternative in alternatives(&hir) {
        let all = clauses(&alternative);
        let mut found: Vec<Clause> = all
            .iter()
            .filter(|clause| weight(clause) >= MIN_WEIGHT)
            .cloned()
            .collect();
        if found.is_empty() {
            // Only common words: the longest of them still keeps the expression from most files.
            found.extend(
                all.into_iter()
                    .filter(|clause| length(clause) >= MIN_WEIGHT)
                    .max_by_key(length),
            );
        }
        // The heaviest clauses, the rarest to pass: a file meets a light one (`the`, `-p`) so
        // often that looking for it costs more than the runs it saves.
        found.sort_by_key(|clause| std::cmp::Reverse(weight(clause)));
        found.truncate(MAX_CLAUSES);
        if found.is_empty() {
            return vec![Vec::new()];
        }
        branches.push(found);
    }
    branches
}

/// `hir` as alternatives whose union it matches: its top-level alternation spread over what
/// surrounds it (`\b(?:mkfs…|format…)` is `\bmkfs…` or `\bformat…`, as the parser factors
/// common prefixes out); `hir` itself when it has none, or more than [`MAX_SET`].
fn alternatives(hir: &Hir) -> Vec<Hir> {
    let spread = match hir.kind() {
        HirKind::Capture(capture) => Some(alternatives(&capture.sub)),
        HirKind::Alternation(subs) if exact(hir).is_none() => {
            Some(subs.iter().flat_map(alternatives).collect())
        }
        HirKind::Concat(parts) => parts.iter().enumerate().find_map(|(at, part)| {
            let inner = alternatives(part);
            (inner.len() > 1).then(|| {
                let mut spread = Vec::new();
                for alternative in inner {
                    let mut joined = parts[..at].to_vec();
                    joined.push(alternative);
                    joined.extend_from_slice(&parts[at + 1..]);
                    spread.extend(alternatives(&Hir::concat(joined)));
                    if spread.len() > MAX_SET {
                        break;
                    }
                }
                spread
            })
        }),
        _ => None,
    };
    match spread {
        Some(spread) if spread.len() <= MAX_SET => spread,
        _ => vec![hir.clone()],
    }
}

/// A literal as the automaton looks for it, and what its finding means.
struct Needle {
    /// The literal's bytes (lower case where `folded`).
    bytes: Vec<u8>,
    folded: Vec<bool>,
    boundary_before: bool,
    boundary_after: bool,
    /// What must follow it.
    follow: Option<Box<Follow>>,
    /// The clause it meets.
    clause: usize,
}

impl Needle {
    fn new(atoms: &[Atom], follow: Option<Box<Follow>>, clause: usize) -> Self {
        let mut needle = Needle {
            follow,
            bytes: Vec::new(),
            folded: Vec::new(),
            boundary_before: atoms.first() == Some(&Atom::Boundary),
            boundary_after: atoms.len() > 1 && atoms.last() == Some(&Atom::Boundary),
            clause,
        };
        for atom in atoms {
            if let Atom::Byte { byte, folded } = *atom {
                needle.bytes.push(byte);
                needle.folded.push(folded);
            }
        }
        needle
    }

    /// Whether the literal found at `start` is this needle: its exact case where it has one, and
    /// its ASCII word boundaries.
    fn holds(&self, text: &[u8], start: usize) -> bool {
        let found = &text[start..start + self.bytes.len()];
        let case = found
            .iter()
            .zip(&self.bytes)
            .zip(&self.folded)
            .all(|((&have, &want), &folded)| folded || have == want);
        let end = start + self.bytes.len();
        case && (!self.boundary_before
            || is_word(start.checked_sub(1).map(|at| text[at])) != is_word(Some(self.bytes[0])))
            && (!self.boundary_after
                || is_word(text.get(end).copied()) != is_word(self.bytes.last().copied()))
            && self
                .follow
                .as_ref()
                .is_none_or(|follow| follow.holds(text, end))
    }
}

/// An ASCII word byte, as `(?-u:\b)` sees it; the ends of the text are not.
fn is_word(byte: Option<u8>) -> bool {
    byte.is_some_and(|byte| byte.is_ascii_alphanumeric() || byte == b'_')
}

/// The requirements of a list of expressions, and the automaton of their literals.
pub(crate) struct Prefilter {
    /// Per expression, its alternatives, each the clauses it needs; an alternative without
    /// clauses: the expression always runs.
    requires: Vec<Vec<Vec<usize>>>,
    /// Per clause, its tests that the automaton cannot run.
    scans: Vec<Vec<Test>>,
    /// Per literal of the automaton, the needles spelled that way.
    needles: Vec<Vec<Needle>>,
    searcher: DFA,
    /// The automaton's literals for `ſ` and the Kelvin sign start at this index.
    folds_from: usize,
    /// The longest literal's length, in bytes.
    longest: usize,
}

/// What one pass over a file found: which clauses are met.
pub(crate) struct Candidates<'a> {
    prefilter: &'a Prefilter,
    met: Vec<bool>,
    /// The text holds a character that `(?i)` folds into ASCII: every expression runs.
    everything: bool,
    text: &'a [u8],
    dotted_quad: OnceCell<bool>,
    /// Per clause, whether one of its scans passed, once asked: a run is looked for over the
    /// whole text, so each clause looks once per file however many expressions share it.
    scanned: Box<[OnceCell<bool>]>,
}

impl Prefilter {
    /// The prefilter of `sources`, regular expressions as [`regex::Regex`] reads them.
    #[must_use]
    pub(crate) fn new(sources: &[&str]) -> Self {
        let mut requires = Vec::with_capacity(sources.len());
        let mut scans = Vec::new();
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut needles: Vec<Vec<Needle>> = Vec::new();
        // The same clause in several alternatives or expressions is one clause, met once.
        let mut known: Vec<Clause> = Vec::new();
        for source in sources {
            let mut alternatives = Vec::new();
            for branch in requirements(source) {
                let mut ids = Vec::with_capacity(branch.len());
                for clause in branch {
                    if let Some(id) = known.iter().position(|seen| *seen == clause) {
                        ids.push(id);
                        continue;
                    }
                    let id = scans.len();
                    known.push(clause.clone());
                    let mut scan = Vec::new();
                    for test in clause {
                        match test {
                            Test::Literal(atoms, follow) => {
                                let needle = Needle::new(&atoms, follow, id);
                                let at = literals
                                    .iter()
                                    .position(|known| *known == needle.bytes)
                                    .unwrap_or_else(|| {
                                        literals.push(needle.bytes.clone());
                                        needles.push(Vec::new());
                                        literals.len() - 1
                                    });
                                needles[at].push(needle);
                            }
                            other => scan.push(other),
                        }
                    }
                    scans.push(scan);
                    ids.push(id);
                }
                alternatives.push(ids);
            }
            requires.push(alternatives);
        }
        let folds_from = literals.len();
        literals.push("\u{17F}".as_bytes().to_vec());
        literals.push("\u{212A}".as_bytes().to_vec());
        // Walked by hand ([`Prefilter::scan`]): no prefilter of its own, which this many
        // literals would not have anyway.
        let searcher = aho_corasick::dfa::Builder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .prefilter(false)
            .build(&literals)
            .expect("security literals build an automaton");
        let longest = literals.iter().map(Vec::len).max().unwrap_or(1).max(1);
        Prefilter {
            requires,
            scans,
            needles,
            searcher,
            folds_from,
            longest,
        }
    }

    /// One pass over `text`: every occurrence of every literal, in no particular order (only
    /// which clauses are met counts).
    ///
    /// The text is cut into [`LANES`] stretches walked side by side, each from the start state
    /// and `longest - 1` bytes before its first end offset: a walk started at an offset finds
    /// every occurrence that starts there or later, so every occurrence is found by the walk
    /// whose stretch holds its end (some twice, which changes nothing).
    #[must_use]
    pub(crate) fn scan<'a>(&'a self, text: &'a str) -> Candidates<'a> {
        let bytes = text.as_bytes();
        let mut met = vec![false; self.scans.len()];
        let mut everything = false;
        let dfa = &self.searcher;
        let start = dfa
            .start_state(Anchored::No)
            .expect("an unanchored search has a start state");
        let mut found = |sid, end: usize| {
            for index in 0..dfa.match_len(sid) {
                let pattern = dfa.match_pattern(sid, index);
                let literal = pattern.as_usize();
                if literal >= self.folds_from {
                    everything = true;
                    continue;
                }
                let at = end + 1 - dfa.pattern_len(pattern);
                for needle in &self.needles[literal] {
                    if !met[needle.clause] && needle.holds(bytes, at) {
                        met[needle.clause] = true;
                    }
                }
            }
        };
        let overlap = self.longest - 1;
        let stretch = bytes.len() / LANES;
        let mut walked = 0;
        let mut sid = start;
        if stretch > overlap {
            // Lane `lane` walks from `from[lane]` for `steps` bytes: to `(lane + 1) * stretch`.
            let steps = stretch + overlap;
            let mut from = [0; LANES];
            for (lane, from) in from.iter_mut().enumerate().skip(1) {
                *from = lane * stretch - overlap;
            }
            let mut sids = [start; LANES];
            // Lane 0 starts at 0 and walks `overlap` bytes into lane 1's stretch.
            for step in 0..steps {
                for lane in 0..LANES {
                    let at = from[lane] + step;
                    sids[lane] = dfa.next_state(Anchored::No, sids[lane], bytes[at]);
                    if dfa.is_special(sids[lane]) && dfa.is_match(sids[lane]) {
                        found(sids[lane], at);
                    }
                }
            }
            walked = from[LANES - 1] + steps;
            sid = sids[LANES - 1];
        }
        // The rest, by the last lane (or the whole of a short text).
        for (at, &byte) in bytes.iter().enumerate().skip(walked) {
            sid = dfa.next_state(Anchored::No, sid, byte);
            if dfa.is_special(sid) && dfa.is_match(sid) {
                found(sid, at);
            }
        }
        Candidates {
            prefilter: self,
            met,
            everything,
            text: bytes,
            dotted_quad: OnceCell::new(),
            scanned: std::iter::repeat_with(OnceCell::new)
                .take(self.scans.len())
                .collect(),
        }
    }

    /// Whether expression `index` can never match: for the tests.
    #[cfg(test)]
    pub(crate) fn always_runs(&self, index: usize) -> bool {
        self.requires[index].iter().any(Vec::is_empty)
    }
}

impl Candidates<'_> {
    /// Whether expression `index` may match somewhere in the text.
    #[must_use]
    pub(crate) fn may_match(&self, index: usize) -> bool {
        let scans = &self.prefilter.scans;
        self.everything
            || self.prefilter.requires[index].iter().any(|alternative| {
                // The pass's answers first: a scan reads the whole text, which is wasted where
                // another clause of the alternative is not met and has nothing to scan for.
                alternative
                    .iter()
                    .all(|&clause| self.met[clause] || !scans[clause].is_empty())
                    && alternative
                        .iter()
                        .all(|&clause| self.met[clause] || self.scan_passes(clause))
            })
    }

    fn scan_passes(&self, clause: usize) -> bool {
        let scans = &self.prefilter.scans[clause];
        !scans.is_empty()
            && *self.scanned[clause].get_or_init(|| {
                scans.iter().any(|test| match test {
                    Test::DottedQuad => {
                        *self.dotted_quad.get_or_init(|| has_dotted_quad(self.text))
                    }
                    Test::Run { class, min } => has_run(self.text, class, *min as usize),
                    Test::Literal(..) => false,
                })
            })
    }
}

/// A digit as `\d` may see it: an ASCII digit, or any byte of a character outside ASCII.
fn digitish(byte: u8) -> bool {
    byte.is_ascii_digit() || byte >= 0x80
}

/// Whether three dots follow each other, each right after a run of digits: what
/// `(?:\d{1,3}\.){3}` needs (and more).
fn has_dotted_quad(text: &[u8]) -> bool {
    let mut chain = 0;
    let mut last_dot: Option<usize> = None;
    for at in memchr::memchr_iter(b'.', text) {
        let after_digit = at > 0 && digitish(text[at - 1]);
        chain = match last_dot {
            _ if !after_digit => 0,
            Some(last) if chain > 0 && text[last + 1..at].iter().all(|&byte| digitish(byte)) => {
                chain + 1
            }
            _ => 1,
        };
        if chain >= 3 {
            return true;
        }
        last_dot = Some(at);
    }
    false
}

/// Whether `min` bytes of `class` follow each other somewhere. Such a run covers one of every
/// `min` consecutive offsets, so only those offsets are looked at, and a run only measured
/// where one of them falls inside it: prose, where most bytes are letters of an encoding's
/// class, is read about `min / 8` times faster than byte by byte.
fn has_run(text: &[u8], class: &[bool; 256], min: usize) -> bool {
    if min == 0 {
        return true;
    }
    let within = |at: usize| class[usize::from(text[at])];
    let mut at = min - 1;
    while at < text.len() {
        if !within(at) {
            at += min;
            continue;
        }
        let mut start = at;
        while start > 0 && within(start - 1) {
            start -= 1;
        }
        let mut end = at + 1;
        while end < text.len() && within(end) {
            end += 1;
            if end - start >= min {
                return true;
            }
        }
        if end - start >= min {
            return true;
        }
        // `end` is outside the class: a longer run starts after it and covers `end + min`.
        at = end + min;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(source: &str) -> Prefilter {
        Prefilter::new(&[source])
    }

    #[test]
    fn literals_with_boundaries_and_case() {
        let prefilter = filter(r"(?i)(?-u:\b)curl(?-u:\b)[^\n]*\|\s*sh");
        assert!(prefilter.scan("run CURL x | sh").may_match(0));
        assert!(!prefilter.scan("incurlable").may_match(0));
        let exact = filter(r"[A-Z]+TOKEN(?-u:\b)");
        assert!(exact.scan("GITHUB_TOKEN=1").may_match(0));
        assert!(!exact.scan("a token here").may_match(0));
    }

    #[test]
    fn folded_characters_run_everything() {
        let prefilter = filter(r"(?i)(?-u:\b)ssh(?-u:\b)");
        assert!(!prefilter.scan("nothing").may_match(0));
        assert!(prefilter.scan("\u{17F}sh").may_match(0));
    }

    #[test]
    fn dotted_quads_and_runs() {
        let prefilter = filter(r#"["'](?:\d{1,3}\.){3}\d{1,3}["']"#);
        assert!(prefilter.scan(r#"host = "10.0.0.1""#).may_match(0));
        assert!(!prefilter.scan("version 1.2 and 3.4.").may_match(0));
        assert!(
            prefilter
                .scan("\u{663}.\u{663}.\u{663}.\u{663}")
                .may_match(0)
        );
        let blob = filter(r"[A-Za-z0-9+/]{64}|(?:\\x[0-9a-fA-F]{2}){8}");
        assert!(!blob.scan("short words only").may_match(0));
        assert!(blob.scan(&"A".repeat(64)).may_match(0));
        assert!(blob.scan(r"\x41\x41").may_match(0));
    }

    /// The sampled run finder agrees with reading byte by byte, for every run length around the
    /// threshold at every offset.
    #[test]
    fn sampled_runs_agree_with_a_byte_by_byte_read() {
        let naive = |text: &[u8], class: &[bool; 256], min: usize| {
            let mut length = 0;
            text.iter().any(|&byte| {
                length = if class[usize::from(byte)] {
                    length + 1
                } else {
                    0
                };
                length >= min
            })
        };
        let mut class = [false; 256];
        class[usize::from(b'a')] = true;
        for min in [1_usize, 2, 5, 16] {
            for prefix in 0..40 {
                for run in 0..(2 * min + 3) {
                    for gap in [0, 1, 3] {
                        let mut text = "-".repeat(prefix);
                        text.push_str(&"a".repeat(min.saturating_sub(1).min(run)));
                        text.push_str(&"-".repeat(gap));
                        text.push_str(&"a".repeat(run));
                        text.push_str(&"-".repeat(prefix % 7));
                        assert_eq!(
                            has_run(text.as_bytes(), &class, min),
                            naive(text.as_bytes(), &class, min),
                            "{text:?} min {min}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn alternatives_are_filtered_one_by_one() {
        let prefilter = filter(r"(?i)\bmkfs\s+/dev/|\bformat\s+[a-z]:\\");
        assert!(
            !prefilter
                .scan("format the output as JSON: see /dev/")
                .may_match(0)
        );
        assert!(prefilter.scan(r"format C:\ now").may_match(0));
        assert!(prefilter.scan("mkfs /dev/sda").may_match(0));
        assert!(!prefilter.scan("mkfs is a tool").may_match(0));
    }

    /// A literal counts only where the expression's next pieces can follow it: here spaces (of
    /// any line, and outside ASCII too), then a line's end, `>` or `|`.
    #[test]
    fn what_follows_a_literal_is_checked() {
        let prefilter = filter(r"(?im)(?-u:\b)env(?-u:\b)\s*(?:$|>|\|\s*sort)");
        for text in [
            "run env\n",
            "env  > out",
            "x; ENV",
            "env \n\n x",
            "env\u{a0}| sort",
            "env\r\n",
        ] {
            assert!(prefilter.scan(text).may_match(0), "{text:?}");
        }
        for text in ["#!/usr/bin/env python3", "env: x", "the .env file\n"] {
            assert!(!prefilter.scan(text).may_match(0), "{text:?}");
        }
    }

    #[test]
    fn an_expression_without_literals_always_runs() {
        assert!(filter(r"\d+").always_runs(0));
        assert!(filter(r"\d+").scan("").may_match(0));
    }
}
