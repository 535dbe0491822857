//! Passwords too common to keep anyone out: the first ones an attacker tries. The spec's 6-16
//! characters stay the length rule; this refuses, whatever the letter case, a password of the
//! embedded list (`common_passwords.txt`), one short unit repeated (`aaaaaa`, `121212`,
//! `abcabc`), and a straight run along the alphabet, the digits or a keyboard row (`123456`,
//! `654321`, `abcdef`, `qwerty`, `1qaz2wsx`).

/// Sequences whose every stretch (forwards or backwards) is a run people type.
const RUNS: &[&str] = &[
    "01234567890",
    "abcdefghijklmnopqrstuvwxyz",
    "qwertyuiop",
    "asdfghjkl",
    "zxcvbnm",
    "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
    "qazwsxedcrfvtgbyhnujmikolp",
    "!@#$%^&*()",
];

/// Units of up to this many characters, repeated over the whole password, are refused.
const REPEAT_UNIT_MAX: usize = 3;

const LIST: &str = include_str!("common_passwords.txt");

/// True when `password` is on the list, a repeat or a run (ignoring letter case).
pub fn is_common(password: &str) -> bool {
    let lower = password.to_lowercase();
    listed(&lower) || repeated(&lower) || run(&lower)
}

fn listed(lower: &str) -> bool {
    LIST.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .any(|l| l == lower)
}

fn repeated(lower: &str) -> bool {
    let chars: Vec<char> = lower.chars().collect();
    (1..=REPEAT_UNIT_MAX.min(chars.len() / 2)).any(|unit| {
        chars.len().is_multiple_of(unit) && chars.chunks(unit).all(|c| c == &chars[..unit])
    })
}

fn run(lower: &str) -> bool {
    RUNS.iter().any(|seq| {
        let backwards: String = seq.chars().rev().collect();
        seq.contains(lower) || backwards.contains(lower)
    })
}

/// Every password of the embedded list, for the web app's copy to be compared with.
pub fn listed_passwords() -> impl Iterator<Item = &'static str> {
    LIST.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commonest_passwords_are_refused_whatever_their_case() {
        for p in [
            "password",
            "Password",
            "PASSWORD1",
            "iloveyou",
            "letmein",
            "admin123",
            "abc123",
            "P@ssw0rd",
            "qwerty123",
            "1q2w3e4r",
            "monkey",
            "dragon",
        ] {
            assert!(is_common(p), "{p}");
        }
    }

    #[test]
    fn repeats_and_runs_are_refused() {
        for p in [
            "aaaaaa",
            "111111",
            "00000000",
            "121212",
            "abcabc",
            "123123",
            "123456",
            "1234567890",
            "654321",
            "9876543210",
            "abcdef",
            "ABCDEFGH",
            "zyxwvu",
            "qwerty",
            "qwertyuiop",
            "asdfgh",
            "zxcvbnm",
            "1qaz2wsx",
            "!@#$%^",
            "poiuytrewq",
        ] {
            assert!(is_common(p), "{p}");
        }
    }

    #[test]
    fn ordinary_passwords_pass() {
        for p in [
            "secret123",
            "demo1234",
            "Owner12345",
            "newpass456",
            "correct-horse",
            "tXq7!mRv",
            "1234567a",
            "aaaaab",
            "abcdeg",
            "Admin12345",
        ] {
            assert!(!is_common(p), "{p}");
        }
    }

    #[test]
    fn the_list_is_lower_case_and_within_the_length_rule() {
        for p in listed_passwords() {
            assert_eq!(p, p.to_lowercase(), "{p}");
            let n = p.chars().count();
            assert!((6..=16).contains(&n), "{p} cannot be chosen anyway");
            assert!(!repeated(p) && !run(p), "{p} is caught by a rule already");
        }
    }
}
