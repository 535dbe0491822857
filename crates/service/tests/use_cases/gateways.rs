//! Gateways: claim onto a plant, replace, unbind.

use crate::common::{Error, actor, audit_actions, fail_audit, failed_in_store, plant};
use domain::DeviceFamily;
use domain::ids::GatewayId;
use domain::{Code, ids::PlantId, policy::Actor, user::BuiltinRole};
use service::{
    ServiceError,
    gateways::{self, GatewayRef, Replacement, actions::set_protocol},
};
use store::{
    Store,
    gateways::GatewayRow,
    testing::{TestResult, Write, each_backend},
};

const OLD: &str = "GW-OLD-01";
const NEW: &str = "GW-NEW-01";
const KEY: &str = "KEY12345";
const INVERTER: &str = "INV-0001";

/// Ann's plant with gateway `OLD` and an inverter behind it, the free gateway `NEW`, and an
/// internal administrator (the role that may replace gateways).
struct Fleet {
    ann: Actor,
    admin: Actor,
    plant: PlantId,
}

async fn fleet(s: &Store) -> Result<Fleet, Error> {
    let ann = actor(s, "ann@example.com", BuiltinRole::PlantOwner).await?;
    let admin = actor(s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
    let plant = plant(s, &ann, "Ann home").await?;
    let old = s.create_gateway(OLD, KEY, "deye-hybrid-1ph", 1).await?;
    s.create_gateway(NEW, KEY, "deye-hybrid-1ph", 1).await?;
    let to_plant = gateways::target_plant(s, &ann, plant).await?;
    gateways::claim(s, &ann, OLD, KEY, Some(&to_plant), 2).await?;
    s.upsert_device(
        INVERTER,
        old,
        DeviceFamily::Inverter,
        2,
        "deye-hybrid-1ph",
        "SUN-8K",
        None,
        3,
    )
    .await?;
    Ok(Fleet { ann, admin, plant })
}

async fn gateway(s: &Store, sn: &str) -> Result<GatewayRow, Error> {
    Ok(s.gateway_by_sn(sn).await?.ok_or("gateway")?)
}

/// The inverter's gateway and plant.
async fn inverter(s: &Store) -> Result<(Option<GatewayId>, Option<PlantId>), Error> {
    let d = s.device_by_sn(INVERTER).await?.ok_or("inverter")?;
    Ok((d.gateway_id, d.plant_id))
}

#[tokio::test]
async fn a_claimed_gateway_brings_its_devices_to_the_plant_and_nobody_claims_it_twice() -> TestResult
{
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        let old = gateway(&s, OLD).await?;
        assert_eq!(
            (old.plant_id, old.owner_id),
            (Some(f.plant), Some(f.ann.id))
        );
        assert_eq!(inverter(&s).await?, (Some(old.id), Some(f.plant)));
        let bob = actor(&s, "bob@example.com", BuiltinRole::PlantOwner).await?;
        // Bob cannot see Ann's gateway: the right key answers like a wrong one (no key oracle).
        let twice = gateways::claim(&s, &bob, OLD, KEY, None, 4).await;
        assert!(matches!(twice, Err(ServiceError::Refused(e)) if e.code == Code::GatewayKeyWrong));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_claim_that_fails_half_way_leaves_the_gateway_free() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        let new = gateway(&s, NEW).await?;
        s.upsert_device(
            "INV-0002",
            new.id,
            DeviceFamily::Inverter,
            2,
            "deye-hybrid-1ph",
            "SUN-8K",
            None,
            4,
        )
        .await?;
        s.fail_writes_for_tests("devices", Write::Update).await?;
        let to_plant = gateways::target_plant(&s, &f.ann, f.plant).await?;
        let claimed = gateways::claim(&s, &f.ann, NEW, KEY, Some(&to_plant), 5).await;
        assert!(failed_in_store(&claimed), "{claimed:?}");
        let new = gateway(&s, NEW).await?;
        assert_eq!(
            (new.plant_id, new.owner_id),
            (None, None),
            "not bound without its devices"
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn replacing_a_gateway_moves_its_devices_and_frees_it() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        let by_owner = Replacement::of(&s, &f.ann, GatewayRef::Sn(OLD)).await;
        assert!(matches!(by_owner, Err(ServiceError::Refused(e)) if e.code == Code::NoPermission));
        let r = Replacement::of(&s, &f.admin, GatewayRef::Sn(OLD)).await?;
        let same = gateways::replace(&s, &f.admin, &r, OLD, KEY, 5).await;
        assert!(matches!(same, Err(ServiceError::Refused(e)) if e.code == Code::InvalidParameter));
        assert_eq!(gateways::replace(&s, &f.admin, &r, NEW, KEY, 5).await?, 1);
        let (old, new) = (gateway(&s, OLD).await?, gateway(&s, NEW).await?);
        assert_eq!((old.plant_id, old.owner_id), (None, None));
        assert_eq!(
            (new.plant_id, new.owner_id),
            (Some(f.plant), Some(f.ann.id))
        );
        assert_eq!(inverter(&s).await?, (Some(new.id), Some(f.plant)));
        // The refusal is recorded alone, the replacement with it.
        assert_eq!(
            audit_actions(&s).await?,
            ["gateway.replace", "gateway.replace"]
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_replace_whose_entry_fails_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        let r = Replacement::of(&s, &f.admin, GatewayRef::Sn(OLD)).await?;
        fail_audit(&s).await?;
        let replaced = gateways::replace(&s, &f.admin, &r, NEW, KEY, 5).await;
        assert!(failed_in_store(&replaced), "{replaced:?}");
        let (old, new) = (gateway(&s, OLD).await?, gateway(&s, NEW).await?);
        assert_eq!((new.plant_id, new.owner_id), (None, None));
        assert_eq!(old.plant_id, Some(f.plant));
        assert_eq!(inverter(&s).await?, (Some(old.id), Some(f.plant)));
        assert!(audit_actions(&s).await?.is_empty());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_replace_that_fails_half_way_changes_nothing() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        let r = Replacement::of(&s, &f.admin, GatewayRef::Sn(OLD)).await?;
        // The new gateway is taken first; moving the devices then fails.
        s.fail_writes_for_tests("devices", Write::Update).await?;
        let replaced = gateways::replace(&s, &f.admin, &r, NEW, KEY, 5).await;
        assert!(failed_in_store(&replaced), "{replaced:?}");
        let (old, new) = (gateway(&s, OLD).await?, gateway(&s, NEW).await?);
        assert_eq!(
            (new.plant_id, new.owner_id),
            (None, None),
            "the new gateway stays free"
        );
        assert_eq!(
            old.plant_id,
            Some(f.plant),
            "the old gateway stays on the plant"
        );
        assert_eq!(inverter(&s).await?, (Some(old.id), Some(f.plant)));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn unbinding_a_gateway_takes_its_devices_off_the_plant() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        let was = gateways::unbind(&s, &f.ann, GatewayRef::Sn(OLD), 5).await?;
        assert_eq!(was.gateway.plant_id, Some(f.plant), "answers where it was");
        let old = gateway(&s, OLD).await?;
        assert_eq!((old.plant_id, old.owner_id), (None, None));
        assert_eq!(inverter(&s).await?, (Some(old.id), None));
        assert_eq!(audit_actions(&s).await?, ["gateway.unbind"]);
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_unbind_whose_entry_fails_keeps_gateway_and_devices_on_the_plant() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        fail_audit(&s).await?;
        let unbound = gateways::unbind(&s, &f.ann, GatewayRef::Sn(OLD), 5).await;
        assert!(failed_in_store(&unbound), "{unbound:?}");
        let old = gateway(&s, OLD).await?;
        assert_eq!(old.plant_id, Some(f.plant));
        assert_eq!(inverter(&s).await?, (Some(old.id), Some(f.plant)));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn an_unbind_that_fails_half_way_keeps_gateway_and_devices_on_the_plant() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        // The devices are unbound first; the gateway row then cannot be.
        s.fail_writes_for_tests("gateways", Write::Update).await?;
        let unbound = gateways::unbind(&s, &f.ann, GatewayRef::Sn(OLD), 5).await;
        assert!(failed_in_store(&unbound), "{unbound:?}");
        let old = gateway(&s, OLD).await?;
        assert_eq!(old.plant_id, Some(f.plant));
        assert_eq!(inverter(&s).await?, (Some(old.id), Some(f.plant)));
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_protocol_change_is_audited_or_not_made() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        s.seed_protocol("p2", DeviceFamily::Inverter, "P2", "{}", 1)
            .await?;
        let unknown = set_protocol(&s, &f.admin, GatewayRef::Sn(OLD), "nope", 5).await;
        assert!(
            matches!(unknown, Err(ServiceError::Refused(e)) if e.code == Code::InvalidParameter)
        );
        s.fail_writes_for_tests("audit_log", Write::Insert).await?;
        let failed = set_protocol(&s, &f.admin, GatewayRef::Sn(OLD), "p2", 5).await;
        assert!(failed_in_store(&failed), "{failed:?}");
        assert_ne!(
            gateway(&s, OLD).await?.protocol,
            "p2",
            "not changed without its entry"
        );
        assert!(audit_actions(&s).await?.is_empty());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_protocol_change_leaves_its_entry_under_the_plant() -> TestResult {
    each_backend(|s| async move {
        let f = fleet(&s).await?;
        s.seed_protocol("p2", DeviceFamily::Inverter, "P2", "{}", 1)
            .await?;
        let (seen, set) = set_protocol(&s, &f.admin, GatewayRef::Sn(OLD), " p2 ", 5).await?;
        assert_eq!((seen.gateway.sn.as_str(), set.as_str()), (OLD, "p2"));
        assert_eq!(gateway(&s, OLD).await?.protocol, "p2");
        assert_eq!(audit_actions(&s).await?, ["gateway.protocol"]);
        Ok(())
    })
    .await
}
