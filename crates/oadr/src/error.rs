//! What can go wrong talking to a VTN or reading what it sent.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The VTN answered with an error status; `detail` is its problem detail (or title), cut.
    #[error("VTN answered {status}: {detail}")]
    Status { status: u16, detail: String },
    /// No answer: connection, TLS or timeout.
    #[error("VTN unreachable: {0}")]
    Transport(String),
    /// The VTN's answer is not the OpenADR message expected.
    #[error("unexpected VTN answer: {0}")]
    Decode(String),
    /// A configuration problem (URL, version).
    #[error("{0}")]
    Config(String),
}

impl Error {
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// A 4xx that will not go away by itself (not 401, which a new token may fix, nor 429).
    pub fn is_refusal(&self) -> bool {
        matches!(self.status(), Some(s) if (400..500).contains(&s) && s != 401 && s != 429)
    }

    pub(crate) fn decode(what: &str, e: impl std::fmt::Display) -> Self {
        Self::Decode(format!("{what}: {e}"))
    }
}

/// The problem detail of an error body (RFC 7807 `detail`, else `title`), at most 200 chars.
pub(crate) fn problem_detail(body: &[u8]) -> String {
    let text = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            ["detail", "title"]
                .iter()
                .find_map(|k| v.get(k).and_then(|d| d.as_str()).map(str::to_owned))
        })
        .unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    text.chars().take(200).collect()
}
