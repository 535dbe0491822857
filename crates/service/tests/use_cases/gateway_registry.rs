//! The factory registry: registering and removing gateways.

use crate::common::{actor, plant};
use domain::{Code, user::BuiltinRole};
use service::{
    ServiceError,
    gateways::{self, GatewayRef, registry},
};
use store::testing::{TestResult, each_backend};

fn reg<'a>(sn: &'a str, key: &'a str, protocol: &'a str) -> registry::Registration<'a> {
    registry::Registration {
        sn,
        key,
        protocol,
        ..Default::default()
    }
}

#[tokio::test]
async fn an_administrator_registers_a_gateway_and_removes_it_while_free() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let id = registry::register(
            &s,
            &admin,
            &reg("GW-0001", "KEY12345", "deye-hybrid-1ph"),
            1,
        )
        .await?;
        let g = s.gateway_by_sn("GW-0001").await?.ok_or("gateway")?;
        assert_eq!((g.id, g.protocol.as_str()), (id.0, "deye-hybrid-1ph"));
        let removed = registry::remove(&s, &admin, GatewayRef::Sn("GW-0001")).await?;
        assert_eq!(removed.id, id.0);
        assert!(s.gateway_by_sn("GW-0001").await?.is_none());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_registry_refuses_owners_known_sns_and_gateways_in_use() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        let by_owner = registry::register(&s, &ann, &reg("GW-0001", "KEY12345", ""), 1).await;
        assert!(matches!(by_owner, Err(ServiceError::Refused(e)) if e.code == Code::NoPermission));
        registry::register(&s, &admin, &reg("GW-0001", "KEY12345", ""), 1).await?;
        let twice = registry::register(&s, &admin, &reg("GW-0001", "KEY45678", ""), 2).await;
        assert!(matches!(twice, Err(ServiceError::Refused(e)) if e.code == Code::InvalidParameter));
        let home = plant(&s, &ann, "Ann home").await?;
        let to_plant = gateways::target_plant(&s, &ann, home).await?;
        gateways::claim(&s, &ann, "GW-0001", "KEY12345", Some(&to_plant), 3).await?;
        let in_use = registry::remove(&s, &admin, GatewayRef::Sn("GW-0001")).await;
        assert!(matches!(in_use, Err(ServiceError::Refused(e)) if e.code == Code::GatewayUsed));
        assert!(s.gateway_by_sn("GW-0001").await?.is_some());
        Ok(())
    })
    .await
}
