//! The answers of the settings endpoints. The field catalogue mirrors `domain::settings`
//! (which knows nothing of the API document) field by field, so the wire is the catalogue's
//! own serialization.

use std::collections::BTreeMap;

use domain::settings::{Family, Field, Group, Kind};
use serde::Serialize;
use utoipa::ToSchema;

/// A settings family: which catalogue an inverter has.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SettingFamily {
    /// Hybrids with a low-voltage (48 V) battery.
    HybridLv,
    /// Hybrids with a high-voltage battery stack.
    HybridHv,
    /// Grid-tied (string) inverters: grid, export and power limits, on/off.
    GridTied,
    /// Micro inverters: export and power limits, on/off.
    Micro,
}

impl From<Family> for SettingFamily {
    fn from(f: Family) -> Self {
        match f {
            Family::HybridLv => SettingFamily::HybridLv,
            Family::HybridHv => SettingFamily::HybridHv,
            Family::GridTied => SettingFamily::GridTied,
            Family::Micro => SettingFamily::Micro,
        }
    }
}

/// The group a screen shows a field in.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum SettingGroup {
    WorkMode,
    Battery,
    Grid,
    TimeOfUse,
    Generator,
    Limits,
    Power,
}

impl From<Group> for SettingGroup {
    fn from(g: Group) -> Self {
        match g {
            Group::WorkMode => SettingGroup::WorkMode,
            Group::Battery => SettingGroup::Battery,
            Group::Grid => SettingGroup::Grid,
            Group::TimeOfUse => SettingGroup::TimeOfUse,
            Group::Generator => SettingGroup::Generator,
            Group::Limits => SettingGroup::Limits,
            Group::Power => SettingGroup::Power,
        }
    }
}

/// What values a field takes (`type`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SettingKind {
    /// A number within `min..=max` with at most `decimals` decimals (0 = integer).
    Number {
        min: f64,
        max: f64,
        decimals: u8,
    },
    /// One of the listed values (the screen translates `settings.choice.<key>.<value>`).
    Choice {
        choices: Vec<&'static str>,
    },
    /// `HH:MM`, 00:00 to 23:59.
    Time,
    Bool,
}

/// A setting as the screens build their forms from it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingField {
    pub key: String,
    pub group: SettingGroup,
    #[serde(flatten)]
    pub kind: SettingKind,
    pub unit: &'static str,
    /// The value a device has before anyone set it (what a read shows until then).
    pub default: String,
    /// Whether custom profiles may hold this field.
    pub selectable: bool,
}

impl From<&Field> for SettingField {
    fn from(f: &Field) -> Self {
        SettingField {
            key: f.key.clone(),
            group: f.group.into(),
            kind: match &f.kind {
                Kind::Number { min, max, decimals } => SettingKind::Number {
                    min: *min,
                    max: *max,
                    decimals: *decimals,
                },
                Kind::Choice { choices } => SettingKind::Choice {
                    choices: choices.clone(),
                },
                Kind::Time => SettingKind::Time,
                Kind::Bool => SettingKind::Bool,
            },
            unit: f.unit,
            default: f.default.clone(),
            selectable: f.selectable,
        }
    }
}

/// The fields of one group, in screen order.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingGroupFields {
    pub key: SettingGroup,
    pub fields: Vec<SettingField>,
}

/// Whether and how an inverter's settings can be read and changed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingSupport {
    /// Always true (an inverter without settings is refused with 601 or 605).
    pub support: bool,
    pub sn: String,
    pub family: SettingFamily,
    /// Whether the caller may change them.
    pub editable: bool,
    pub groups: Vec<SettingGroupFields>,
}

/// An inverter's settings: one flat object of setting key to value, every value a string
/// (`sn`, `safetyType`, `battMode`, `sellTime1`..`6`, `cap1`..`6`, `mondayOn`.., ...).
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(transparent)]
pub struct SettingValues(pub BTreeMap<String, String>);

/// A write's outcome.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingWrite {
    /// The `set_params` command to follow (`GET /api/v1/command/{commandId}`); null when
    /// nothing changed.
    pub command_id: Option<i64>,
    /// The keys whose values differ from the device's confirmed ones.
    pub changed: Vec<String>,
}

/// The parameters custom profiles may choose from.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SelectableParams {
    pub family: SettingFamily,
    /// Parameters in one profile (6).
    pub max_params: usize,
    /// Profiles per user (6).
    pub max_profiles: usize,
    /// At most 30 fields.
    pub infos: Vec<SettingField>,
}

/// One of the caller's custom profiles.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingProfile {
    pub id: i64,
    pub name: String,
    /// Setting key to value (strings); null when the stored profile is unreadable.
    pub params: Option<BTreeMap<String, String>>,
    pub create_at: String,
    pub update_at: String,
}
