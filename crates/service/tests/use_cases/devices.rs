//! Devices: a battery stack goes with its packs, all of them or, when the database fails half
//! way, none.

use crate::common::{Error, actor, failed_in_store, plant};
use domain::DeviceFamily;
use domain::ids::DeviceId;
use domain::{policy::Actor, user::BuiltinRole};
use service::devices::{self, Rule};
use store::{
    Store,
    devices::DeviceListRow,
    testing::{TestResult, each_backend},
};

const MASTER: &str = "BAT-MASTER";
const PACKS: [&str; 2] = ["BAT-PACK-1", "BAT-PACK-2"];

/// An internal administrator, and on Ann's plant a battery stack with two packs behind one
/// gateway: the stack as the administrator sees it, and the packs' ids.
async fn stack(s: &Store) -> Result<(Actor, DeviceListRow, Vec<DeviceId>), Error> {
    let ann = actor(s, "ann@example.com", BuiltinRole::PlantOwner).await?;
    let admin = actor(s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
    let plant = plant(s, &ann, "Ann home").await?;
    let gateway = s
        .create_gateway("GW-BAT-01", "KEY12345", "deye-hybrid-1ph", 1)
        .await?;
    let to_plant = service::gateways::target_plant(s, &ann, plant).await?;
    service::gateways::claim(s, &ann, "GW-BAT-01", "KEY12345", Some(&to_plant), 2).await?;
    let device = |sn: &'static str, parent: Option<&'static str>| {
        s.upsert_device(
            sn,
            gateway,
            DeviceFamily::Battery,
            0,
            "bms",
            "BMS",
            parent,
            3,
        )
    };
    device(MASTER, None).await?;
    let mut packs = Vec::new();
    for sn in PACKS {
        packs.push(device(sn, Some(MASTER)).await?);
    }
    let master = s
        .device_visible(admin.plant_visibility(), admin.id, MASTER)
        .await?
        .ok_or("stack")?;
    Ok((admin, master, packs))
}

async fn registered(s: &Store) -> Result<usize, Error> {
    let mut n = 0;
    for sn in [MASTER, PACKS[0], PACKS[1]] {
        n += usize::from(s.device_by_sn(sn).await?.is_some());
    }
    Ok(n)
}

#[tokio::test]
async fn a_stack_goes_with_its_packs() -> TestResult {
    each_backend(|s| async move {
        let (admin, master, packs) = stack(&s).await?;
        let rule = Rule::Managed("battery.delete");
        devices::delete(&s, &admin, &master, rule, &packs).await?;
        assert_eq!(registered(&s).await?, 0);
        Ok(())
    })
    .await
}

/// The stack itself is deleted last: failing it undoes the packs deleted before.
const FAIL_MASTER_SQLITE: &str = "CREATE TRIGGER injected_master BEFORE DELETE ON devices \
    WHEN OLD.sn = 'BAT-MASTER' BEGIN SELECT RAISE(ABORT, 'injected'); END";
const FAIL_MASTER_POSTGRES: &str = "CREATE FUNCTION injected_master() RETURNS trigger \
    LANGUAGE plpgsql AS $$ BEGIN IF OLD.sn = 'BAT-MASTER' THEN RAISE EXCEPTION 'injected'; \
    END IF; RETURN OLD; END $$; CREATE TRIGGER injected_master BEFORE DELETE ON devices \
    FOR EACH ROW EXECUTE FUNCTION injected_master();";

#[tokio::test]
async fn a_stack_whose_last_delete_fails_keeps_its_packs() -> TestResult {
    each_backend(|s| async move {
        let (admin, master, packs) = stack(&s).await?;
        let script = match s.backend() {
            store::Backend::Sqlite => FAIL_MASTER_SQLITE,
            store::Backend::Postgres => FAIL_MASTER_POSTGRES,
        };
        s.run_script_for_tests(script).await?;
        let rule = Rule::Managed("battery.delete");
        let r = devices::delete(&s, &admin, &master, rule, &packs).await;
        assert!(failed_in_store(&r), "{r:?}");
        assert_eq!(registered(&s).await?, 3);
        Ok(())
    })
    .await
}
