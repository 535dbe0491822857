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

    /// The VTN refusing what we asked, by its rules (403 forbidden, 404 gone, 409 conflict...):
    /// a 4xx that will not go away by itself. Not 400, which says our request broke the
    /// schema ([`Error::is_our_bad_request`]); not 401, which a new token may fix; not 429.
    pub fn is_refusal(&self) -> bool {
        matches!(self.status(), Some(s) if (400..500).contains(&s) && !matches!(s, 400 | 401 | 429))
    }

    /// A 400: the VTN found our request malformed. That is a bug on our side, not the utility
    /// saying no: callers log it, show it on the connection and try again later.
    pub fn is_our_bad_request(&self) -> bool {
        self.status() == Some(400)
    }

    pub(crate) fn decode(what: &str, e: impl std::fmt::Display) -> Self {
        Self::Decode(format!("{what}: {e}"))
    }
}

/// The problem of an error body (RFC 7807): "title: detail" of the parts present and not
/// empty, else the body's text, else the status alone; at most 200 characters.
pub(crate) fn problem_detail(status: u16, body: &[u8]) -> String {
    let parts: Vec<String> = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .map(|v| {
            ["title", "detail"]
                .iter()
                .filter_map(|k| v.get(*k).and_then(|d| d.as_str()))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let text = if parts.is_empty() {
        String::from_utf8_lossy(body).trim().to_owned()
    } else {
        parts.join(": ")
    };
    let text = if text.is_empty() {
        format!("HTTP {status} without a problem detail")
    } else {
        text
    };
    text.chars().take(200).collect()
}
