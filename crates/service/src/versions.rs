//! The system update log's use cases: internal administrators holding `sys.version.edit`
//! publish, edit and delete release notes; anyone else is refused with code 2.

use domain::ids::VersionId;
use domain::permissions::SYS_VERSION_EDIT;
use domain::{Code, DomainError, policy::Actor};
use store::{
    Store,
    versions::{VersionFields, VersionRow},
};

use crate::{Result, audit};

const VERSION_MAX: usize = 20;
const CONTENT_MAX: usize = 4000;
const KINDS: std::ops::RangeInclusive<i64> = 1..=3;

/// A release note as the form sends it; `None` and blank mean "not given".
#[derive(Debug, Clone, Default)]
pub struct NoteInput {
    pub version: Option<String>,
    /// 1 portal, 2 mobile app, 3 device firmware; portal when absent.
    pub kind: Option<i64>,
    pub content_en: Option<String>,
    pub content_cn: Option<String>,
    pub content_es: Option<String>,
    /// Milliseconds; now when publishing without one, unchanged when editing without one.
    pub release_time: Option<i64>,
}

/// The release notes are the platform's: internal staff with the key, nobody else.
fn require(actor: &Actor) -> Result<()> {
    if !actor.is_internal() {
        return Err(Code::NoPermission.into());
    }
    actor.require(SYS_VERSION_EDIT)?;
    actor.require_writable()?;
    Ok(())
}

/// A version label such as `V250120` or `2.4.1-rc1`: letters, digits, `-`, `_`, `.`.
fn version(raw: Option<&str>) -> Result<String> {
    let v = raw.unwrap_or_default().trim();
    let ok = !v.is_empty()
        && v.len() <= VERSION_MAX
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(v.to_string())
    } else {
        Err(DomainError::invalid("version").into())
    }
}

/// Release notes are multi-line text: line breaks and tabs are kept, other control characters
/// refused.
fn content(field: &str, raw: Option<&str>) -> Result<String> {
    let text = raw.unwrap_or_default().replace("\r\n", "\n");
    let text = text.trim();
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if text.chars().count() > CONTENT_MAX || text.chars().any(bad) {
        return Err(DomainError::invalid(field).into());
    }
    Ok(text.to_string())
}

/// The checked fields; the spec keeps a note's text in Chinese and English, so at least one of
/// the two is required (the other falls back to it when read).
fn fields(input: &NoteInput, announcer: &str, release_time: i64) -> Result<VersionFields> {
    let version = version(input.version.as_deref())?;
    let kind = input.kind.unwrap_or(1);
    if !KINDS.contains(&kind) {
        return Err(DomainError::invalid("type").into());
    }
    let content_en = content("contentEn", input.content_en.as_deref())?;
    let content_cn = content("contentCn", input.content_cn.as_deref())?;
    if content_en.is_empty() && content_cn.is_empty() {
        return Err(DomainError::invalid("contentEn").into());
    }
    Ok(VersionFields {
        version,
        kind,
        content_en,
        content_cn,
        content_es: content("contentEs", input.content_es.as_deref())?,
        announcer: announcer.to_string(),
        release_time,
    })
}

fn release_time(input: &NoteInput) -> Option<i64> {
    input.release_time.filter(|t| *t > 0)
}

/// Publishes a note announced by `announcer`. A taken version label: 4 `version`.
pub async fn publish(
    store: &Store,
    actor: &Actor,
    announcer: &str,
    input: &NoteInput,
    now: i64,
) -> Result<(VersionId, VersionFields)> {
    require(actor)?;
    let f = fields(input, announcer, release_time(input).unwrap_or(now))?;
    let detail = serde_json::json!({"version": f.version}).to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::VERSION_PUBLISH,
        "version",
        &detail,
        now,
    );
    let id = store.create_version(&f, now, Some(&entry)).await?;
    Ok((id, f))
}

/// Rewrites a note; its announcer stays the one who published it. Unknown id: 4 `id`; a label
/// another note has: 4 `version`.
pub async fn edit(
    store: &Store,
    actor: &Actor,
    id: VersionId,
    input: &NoteInput,
    now: i64,
) -> Result<VersionRow> {
    require(actor)?;
    let before = store
        .version(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let when = release_time(input).unwrap_or(before.release_time);
    let f = fields(input, &before.announcer, when)?;
    let detail =
        serde_json::json!({"before": before.version, "version": input.version}).to_string();
    let target = format!("version:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::VERSION_EDIT,
        &target,
        &detail,
        now,
    );
    if !store.update_version(id, &f, Some(&entry)).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(before)
}

/// Deletes a note and answers what it was. Unknown id: 4 `id`.
pub async fn delete(store: &Store, actor: &Actor, id: VersionId, now: i64) -> Result<VersionRow> {
    require(actor)?;
    let before = store
        .version(id)
        .await?
        .ok_or_else(|| DomainError::invalid("id"))?;
    let detail = serde_json::json!({"version": before.version}).to_string();
    let target = format!("version:{id}");
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::VERSION_DELETE,
        &target,
        &detail,
        now,
    );
    if !store.delete_version(id, Some(&entry)).await? {
        return Err(DomainError::invalid("id").into());
    }
    Ok(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(version: &str, en: &str, cn: &str) -> NoteInput {
        NoteInput {
            version: Some(version.into()),
            content_en: Some(en.into()),
            content_cn: Some(cn.into()),
            ..NoteInput::default()
        }
    }

    fn refused_field(r: Result<VersionFields>) -> String {
        match r {
            Err(crate::ServiceError::Refused(e)) => e.to_string(),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_note_keeps_its_line_breaks_and_defaults_to_the_portal() {
        let f = fields(&note(" V250120 ", "Plants\r\nSharing", ""), "ann", 5).unwrap();
        assert_eq!(f.version, "V250120");
        assert_eq!(f.kind, 1);
        assert_eq!(f.content_en, "Plants\nSharing");
        assert_eq!(f.release_time, 5);
    }

    #[test]
    fn one_language_is_enough_but_not_none() {
        assert!(fields(&note("V1", "", "电站"), "a", 1).is_ok());
        let e = refused_field(fields(&note("V1", " ", ""), "a", 1));
        assert!(e.contains("contentEn"), "{e}");
    }

    #[test]
    fn labels_types_and_text_are_checked() {
        let e = refused_field(fields(&note("bad label!", "x", ""), "a", 1));
        assert!(e.contains("version"), "{e}");
        let long = "V".repeat(VERSION_MAX + 1);
        assert!(fields(&note(&long, "x", ""), "a", 1).is_err());
        let mut n = note("V1", "x", "");
        n.kind = Some(4);
        let e = refused_field(fields(&n, "a", 1));
        assert!(e.contains("type"), "{e}");
        let e = refused_field(fields(&note("V1", "bell\u{7}", ""), "a", 1));
        assert!(e.contains("contentEn"), "{e}");
        let huge = "x".repeat(CONTENT_MAX + 1);
        assert!(fields(&note("V1", "", &huge), "a", 1).is_err());
    }
}
