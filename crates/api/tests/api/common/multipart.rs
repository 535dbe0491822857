//! Multipart bodies as browsers send them, built by hand: the text fields, then at most one
//! file.

/// The boundary between parts; no test's content contains it.
const BOUNDARY: &str = "----portal-test-boundary-7MA4YWxkTrZu0gW";

/// A file part: its form field, the file's name, its content type and its bytes.
pub struct FilePart<'a> {
    pub field: &'a str,
    pub name: &'a str,
    pub content_type: &'a str,
    pub bytes: &'a [u8],
}

impl<'a> FilePart<'a> {
    /// `bytes` as the form field `file`, an `application/octet-stream` named `name`.
    pub fn octets(name: &'a str, bytes: &'a [u8]) -> Self {
        FilePart {
            field: "file",
            name,
            content_type: "application/octet-stream",
            bytes,
        }
    }
}

/// The content type and body of a form of `fields` and `file`.
pub fn form(fields: &[(&str, &str)], file: Option<FilePart<'_>>) -> (String, Vec<u8>) {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    if let Some(f) = file {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\n\
                 Content-Type: {}\r\n\r\n",
                f.field, f.name, f.content_type
            )
            .as_bytes(),
        );
        body.extend_from_slice(f.bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}
