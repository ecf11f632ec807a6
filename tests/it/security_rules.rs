//! The security rules against the labelled set in `tests/security` (malicious skills and hard
//! negatives, written for this suite from published descriptions of attacks): `check --format
//! json` on every case, compared with its label. Prints recall per kind and the false-positive
//! figures; fails below 90 % recall or above 5 % of hard negatives with an error.

#![allow(
    clippy::print_stderr,
    reason = "the figures per kind are what the test reports, pass or fail"
)]

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

const SECURITY_RULES: &[&str] = &[
    "hidden-text",
    "prompt-injection",
    "remote-code",
    "credential-access",
    "exfiltration",
    "persistence",
    "destructive",
    "obfuscation",
    "permissions",
    "capability-mismatch",
];

#[derive(serde::Deserialize)]
struct Labels {
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    dir: String,
    kind: String,
    place: String,
    malicious: bool,
}

/// The security findings of every case folder: case dir → (rule, severity).
fn findings() -> HashMap<String, Vec<(String, String)>> {
    let cases = Path::new(ROOT).join("tests/security/cases");
    let output = Command::new(BIN)
        .args(["check", "--format", "json"])
        .arg(&cases)
        .output()
        .expect("skill-lsp runs");
    let json: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("check --format json prints JSON");
    let mut found: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for diagnostic in json["diagnostics"].as_array().expect("diagnostics") {
        let rule = diagnostic["rule"].as_str().unwrap_or_default();
        if !SECURITY_RULES.contains(&rule) || diagnostic.get("suppressed").is_some() {
            continue;
        }
        let path = diagnostic["path"]
            .as_str()
            .unwrap_or_default()
            .replace('\\', "/");
        let relative = path
            .split("tests/security/cases/")
            .nth(1)
            .unwrap_or_default();
        let case: Vec<&str> = relative.splitn(3, '/').take(2).collect();
        found.entry(case.join("/")).or_default().push((
            rule.to_owned(),
            diagnostic["severity"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ));
    }
    found
}

#[test]
fn labelled_attacks_are_caught_and_hard_negatives_stay_quiet() {
    let labels: Labels = toml::from_str(
        &std::fs::read_to_string(Path::new(ROOT).join("tests/security/labels.toml"))
            .expect("labels.toml"),
    )
    .expect("labels parse");
    let found = findings();
    // kind → (cases, caught) and (cases, with an error, with a warning) for hard negatives.
    let mut recall: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut quiet: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut missed = Vec::new();
    let mut noisy = Vec::new();
    for case in &labels.case {
        let of_case = found.get(&case.dir).cloned().unwrap_or_default();
        if case.malicious {
            let caught = of_case.iter().any(|(rule, severity)| {
                *rule == case.kind && (severity == "error" || severity == "warning")
            });
            let entry = recall.entry(&case.kind).or_default();
            entry.0 += 1;
            entry.1 += usize::from(caught);
            if !caught {
                missed.push(format!(
                    "{} ({}, {}): {:?}",
                    case.dir, case.kind, case.place, of_case
                ));
            }
        } else {
            let error = of_case.iter().any(|(_, severity)| severity == "error");
            let warning = of_case.iter().any(|(_, severity)| severity == "warning");
            let entry = quiet.entry(&case.kind).or_default();
            entry.0 += 1;
            entry.1 += usize::from(error);
            entry.2 += usize::from(warning);
            if error || warning {
                noisy.push(format!("{} ({}): {:?}", case.dir, case.kind, of_case));
            }
        }
    }
    let (cases, caught) = recall
        .values()
        .fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    let (negatives, errors, warnings) = quiet
        .values()
        .fold((0, 0, 0), |(a, b, c), (d, e, f)| (a + d, b + e, c + f));
    eprintln!("kind                 caught/malicious   errors/warnings on hard negatives");
    for (kind, (total, hit)) in &recall {
        let (n, e, w) = quiet.get(kind).copied().unwrap_or_default();
        eprintln!("{kind:<20} {hit:>3}/{total:<3}            {e}/{w} of {n}");
    }
    eprintln!(
        "all                  {caught}/{cases} ({:.1} %)     {errors} errors ({:.1} %), {warnings} warnings ({:.1} %) of {negatives}",
        percent(caught, cases),
        percent(errors, negatives),
        percent(warnings, negatives)
    );
    eprintln!("missed:\n  {}", missed.join("\n  "));
    eprintln!("hard negatives with findings:\n  {}", noisy.join("\n  "));
    assert!(cases >= 80 && negatives >= 80, "the set is too small");
    assert!(
        percent(caught, cases) >= 90.0,
        "recall {caught}/{cases} below 90 %; missed:\n  {}",
        missed.join("\n  ")
    );
    assert!(
        percent(errors, negatives) <= 5.0,
        "{errors} of {negatives} hard negatives get an error:\n  {}",
        noisy.join("\n  ")
    );
}

#[allow(clippy::cast_precision_loss, reason = "counts of a few hundred")]
fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}
