//! Events: what a caller sees of them ([`Sight`], [`Standing`]), cancelling (for everyone, or
//! opting the caller's enrollments out) and the utility's new built-in events. Event times
//! are unix seconds.

use domain::ids::{EnrollmentId, HubEventId, PlantId, ProgramId};
use domain::permissions::{ENERGYHUB_EVENT_CANCEL, SYS_ENERGYHUB_EDIT};
use std::collections::HashSet;

use domain::{
    Code, DomainError,
    energy_hub::{EnrollmentStatus, EventInput, EventStatus, Interval},
    policy::{Actor, PlantVisibility},
};
use serde_json::json;
use store::{
    Store,
    energy_hub::{EventRow, NewEvent, OptOutRow, VisibleEnrollment},
};

use super::require_write;
use crate::{Result, audit};

/// What a caller sees: their enrollments (of one plant when asked) and the programmes
/// whose events they see (`None`: all, for administrators).
pub struct Sight {
    pub mine: Vec<VisibleEnrollment>,
    pub programs: Option<Vec<ProgramId>>,
}

impl Sight {
    pub async fn of(store: &Store, actor: &Actor, plant: Option<PlantId>) -> Result<Sight> {
        let visibility = actor.plant_visibility();
        let mine = store
            .visible_enrollments(visibility, actor.id, plant)
            .await?;
        let programs = if visibility == PlantVisibility::All && plant.is_none() {
            None
        } else {
            let mut ids: Vec<ProgramId> = mine.iter().map(|e| e.program_id).collect();
            ids.sort_unstable();
            ids.dedup();
            Some(ids)
        };
        Ok(Sight { mine, programs })
    }

    pub fn sees(&self, e: &EventRow) -> bool {
        self.programs
            .as_ref()
            .is_none_or(|p| p.contains(&e.program_id))
    }
}

/// The event if the actor sees it, with what they see and its opt-outs; 1009 otherwise.
pub async fn visible(
    store: &Store,
    actor: &Actor,
    id: HubEventId,
) -> Result<(EventRow, Sight, Vec<OptOutRow>)> {
    let event = store.hub_event(id).await?.ok_or(Code::DrEventMissing)?;
    let sight = Sight::of(store, actor, None).await?;
    if !sight.sees(&event) {
        return Err(Code::DrEventMissing.into());
    }
    let opt_outs = store.opt_outs_of_event(event.id).await?;
    Ok((event, sight, opt_outs))
}

/// How an event stands for a caller, from the enrollments they see and the opt-outs.
pub struct Standing {
    /// Accepted enrollments of the event's programme the caller sees.
    pub accepted: Vec<EnrollmentId>,
    /// Of those, the ones taking part (not opted out, standing or for this event).
    pub taking_part: Vec<EnrollmentId>,
}

impl Standing {
    pub fn of(event: &EventRow, mine: &[VisibleEnrollment], opt_outs: &[OptOutRow]) -> Standing {
        let out: HashSet<EnrollmentId> = opt_outs
            .iter()
            .filter(|o| o.event_id == event.id)
            .map(|o| o.enrollment_id)
            .collect();
        let accepted: Vec<&VisibleEnrollment> = mine
            .iter()
            .filter(|e| e.program_id == event.program_id)
            .filter(|e| EnrollmentStatus::parse(&e.status) == Some(EnrollmentStatus::Accepted))
            .collect();
        Standing {
            taking_part: accepted
                .iter()
                .filter(|e| !e.opted_out && !out.contains(&e.id))
                .map(|e| e.id)
                .collect(),
            accepted: accepted.iter().map(|e| e.id).collect(),
        }
    }

    /// Every accepted enrollment of the caller is out of this event.
    pub fn opted_out(&self) -> bool {
        !self.accepted.is_empty() && self.taking_part.is_empty()
    }

    /// The event's status as this caller sees it at `now` (unix seconds).
    pub fn status(&self, e: &EventRow, now: i64) -> EventStatus {
        EventStatus::at(
            e.start_at,
            e.end_at,
            e.cancelled_at.is_some() || self.opted_out(),
            now,
        )
    }
}

/// The utility (sys.energyhub.edit) cancels a built-in event for everyone and opts every
/// enrollment out of a VTN's event (a VEN cannot cancel the utility's event); anyone else
/// opts their visible enrollments in the event's programme out (or the one given: 1002 when
/// it is not one of theirs in this programme). An event already over or cancelled: 1010.
/// Answers the event's id; `now` is unix seconds.
pub async fn cancel(
    store: &Store,
    actor: &Actor,
    id: HubEventId,
    enrollment: Option<EnrollmentId>,
    now: i64,
) -> Result<HubEventId> {
    require_write(actor, ENERGYHUB_EVENT_CANCEL)?;
    let (event, sight, opt_outs) = visible(store, actor, id).await?;
    let standing = Standing::of(&event, &sight.mine, &opt_outs);
    if standing.status(&event, now).is_over() {
        return Err(Code::DrEventOver.into());
    }
    let target = format!("event:{}", event.id);
    let by = audit::author(actor, None);
    if actor.has(SYS_ENERGYHUB_EDIT) && enrollment.is_none() && event.vtn_id.is_none() {
        let entry = audit::admin_entry(
            by,
            domain::audit_action::ENERGYHUB_EVENT_CANCEL,
            &target,
            "{}",
            now_ms(now),
        );
        store
            .cancel_hub_event(event.id, Some(actor.id), now, &entry)
            .await?;
    } else {
        let targets: Vec<EnrollmentId> = match enrollment {
            Some(id) if standing.accepted.contains(&id) => vec![id],
            Some(_) => return Err(Code::EnrollmentMissing.into()),
            None => standing.taking_part.clone(),
        };
        let detail = json!({"enrollments": targets}).to_string();
        let entry = audit::admin_entry(
            by,
            domain::audit_action::ENERGYHUB_EVENT_OPT_OUT,
            &target,
            &detail,
            now_ms(now),
        );
        store
            .opt_out_of_event(event.id, &targets, Some(actor.id), now, &entry)
            .await?;
    }
    tracing::info!(event = %event.id, by = %actor.id, "energy hub event cancelled");
    Ok(event.id)
}

/// Audit entries are stamped in milliseconds, events in seconds.
fn now_ms(now_secs: i64) -> i64 {
    now_secs.saturating_mul(1000)
}

/// A built-in programme's new event (the utility), with its audit entry: a VTN programme 2,
/// an unknown one 1008, a `start` that is not RFC 3339 4 `start`, then the rules of
/// `domain::energy_hub::EventInput`. `now` is unix seconds; answers the event's id.
pub async fn create(
    store: &Store,
    actor: &Actor,
    program: Option<ProgramId>,
    start: Option<&str>,
    input: EventInput,
    now: i64,
) -> Result<HubEventId> {
    require_write(actor, SYS_ENERGYHUB_EDIT)?;
    let program_id = program.ok_or_else(|| DomainError::invalid("programId"))?;
    let program = store
        .program(program_id)
        .await?
        .ok_or(Code::ProgramMissing)?;
    if program.is_vtn() {
        return Err(Code::NoPermission.into());
    }
    let start = match start {
        None => None,
        Some(s) => Some(
            chrono::DateTime::parse_from_rfc3339(s.trim())
                .map_err(|_| DomainError::invalid("start"))?
                .timestamp(),
        ),
    };
    let form = EventInput { start, ..input }.check(now)?;
    let interval = Interval {
        id: 0,
        start: form.start,
        end: form.end,
        kind: form.kind.as_db().into(),
        target_kw: form.target_kw,
    };
    // Plain numbers and a word: serialising cannot fail.
    let intervals = serde_json::to_string(&[interval]).unwrap_or_else(|_| "[]".into());
    let detail = json!({"program": program.id, "name": form.name, "start": form.start,
        "end": form.end, "kind": form.kind.as_db(), "targetKw": form.target_kw})
    .to_string();
    let entry = audit::admin_entry(
        audit::author(actor, None),
        domain::audit_action::ENERGYHUB_EVENT_CREATE,
        "event",
        &detail,
        now_ms(now),
    );
    let id = store
        .create_hub_event(
            &NewEvent {
                program: program.id,
                form: &form,
                intervals: &intervals,
                created_by: Some(actor.id),
            },
            now,
            Some(&entry),
        )
        .await?;
    tracing::info!(event = %id, program = %program.id, by = %actor.id, "energy hub event created");
    Ok(id)
}
