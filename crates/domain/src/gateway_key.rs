//! Gateway registration keys: what any key (old ones included) must look like, and how strong
//! a key set from now on must be. The key is the gateway's MQTT password, and the security
//! review found 4-character keys guessable in minutes; keys the portal generates are 16
//! random letters and digits. Existing keys keep working: the stronger rule applies only where
//! a key is set (registration, the registry's import).

/// Any registration key: 4 to 32 visible ASCII characters (what claims and sign-ins accept).
pub const KEY_MIN: usize = 4;
pub const KEY_MAX: usize = 32;
/// A new key: at least this many characters.
pub const NEW_KEY_MIN: usize = 8;
/// A new key: at least this many different characters.
pub const NEW_KEY_DISTINCT: usize = 4;

/// Whether `key` is a registration key at all.
pub fn is_key(key: &str) -> bool {
    (KEY_MIN..=KEY_MAX).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether `key` is strong enough to be set now: a key of 8 to 32 characters, with at least 4
/// different ones, and not a straight run (`12345678`, `hgfedcba`).
pub fn is_strong_new_key(key: &str) -> bool {
    if !is_key(key) || key.len() < NEW_KEY_MIN {
        return false;
    }
    let bytes = key.as_bytes();
    let mut distinct = bytes.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < NEW_KEY_DISTINCT {
        return false;
    }
    let steps: Vec<i16> = bytes
        .windows(2)
        .map(|w| i16::from(w[1]) - i16::from(w[0]))
        .collect();
    let straight = steps.iter().all(|&s| s == 1) || steps.iter().all(|&s| s == -1);
    !straight
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_key_is_4_to_32_visible_characters() {
        assert!(is_key("1234"));
        assert!(is_key(&"k".repeat(32)));
        assert!(!is_key("123"));
        assert!(!is_key(&"k".repeat(33)));
        assert!(!is_key("key with space"));
        assert!(!is_key("clé-ünïcode"));
    }

    #[test]
    fn new_keys_need_eight_characters_four_of_them_different_and_no_straight_run() {
        for weak in [
            "KEY123", "aaaaaaaa", "abababab", "aabbccaa", "12345678", "87654321", "abcdefgh",
        ] {
            assert!(!is_strong_new_key(weak), "{weak} accepted");
        }
        for strong in ["KEY12345", "x7Rq-2mPz", "Gw0001-secret", "aZ3kP9qLm2Xc7VbN"] {
            assert!(is_strong_new_key(strong), "{strong} refused");
        }
    }
}
