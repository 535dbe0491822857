//! The factory registry: registering and removing gateways.

use crate::common::{actor, audit_actions, fail_audit, failed_in_store, plant};
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
        assert_eq!((g.id, g.protocol.as_str()), (id, "deye-hybrid-1ph"));
        let removed = registry::remove(&s, &admin, GatewayRef::Sn("GW-0001"), 4).await?;
        assert_eq!(removed.id, id);
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
        let in_use = registry::remove(&s, &admin, GatewayRef::Sn("GW-0001"), 4).await;
        assert!(matches!(in_use, Err(ServiceError::Refused(e)) if e.code == Code::GatewayUsed));
        assert!(s.gateway_by_sn("GW-0001").await?.is_some());
        Ok(())
    })
    .await
}

#[tokio::test]
async fn the_registry_audits_each_change_with_it() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        registry::register(&s, &admin, &reg("GW-0001", "KEY12345", ""), 1).await?;
        let rows = [
            reg("GW-0001", "KEY12345", ""),
            reg("GW-0002", "KEY12345", ""),
        ];
        let counted = |o: &[registry::Registered]| serde_json::json!({"rows": o.len()});
        let outcomes =
            registry::register_all(&s, &admin, &rows, "gateway.batchRegister", &counted, 2).await?;
        assert_eq!(outcomes[0], registry::Registered::Duplicate);
        assert!(matches!(outcomes[1], registry::Registered::Created(_)));
        registry::assign_customer(&s, &admin, GatewayRef::Sn("GW-0002"), Some(ann.id.0), 3).await?;
        registry::remove(&s, &admin, GatewayRef::Sn("GW-0001"), 4).await?;
        assert_eq!(
            audit_actions(&s).await?,
            [
                "gateway.register",
                "gateway.batchRegister",
                "gateway.customer",
                "gateway.delete"
            ]
        );
        Ok(())
    })
    .await
}

#[tokio::test]
async fn a_registry_change_whose_entry_fails_is_not_made() -> TestResult {
    each_backend(|s| async move {
        let admin = actor(&s, "admin@example.com", BuiltinRole::InternalAdmin).await?;
        let ann = actor(&s, "ann@example.com", BuiltinRole::PlantOwner).await?;
        registry::register(&s, &admin, &reg("GW-0001", "KEY12345", ""), 1).await?;
        fail_audit(&s).await?;
        let one = registry::register(&s, &admin, &reg("GW-0002", "KEY12345", ""), 2).await;
        assert!(failed_in_store(&one), "{one:?}");
        let rows = [
            reg("GW-0003", "KEY12345", ""),
            reg("GW-0004", "KEY12345", ""),
        ];
        let counted = |o: &[registry::Registered]| serde_json::json!({"rows": o.len()});
        let batch =
            registry::register_all(&s, &admin, &rows, "gateway.batchRegister", &counted, 2).await;
        assert!(failed_in_store(&batch), "{batch:?}");
        for sn in ["GW-0002", "GW-0003", "GW-0004"] {
            assert!(s.gateway_by_sn(sn).await?.is_none(), "{sn} not registered");
        }
        let given =
            registry::assign_customer(&s, &admin, GatewayRef::Sn("GW-0001"), Some(ann.id.0), 3)
                .await;
        assert!(failed_in_store(&given), "{given:?}");
        let g = s.gateway_by_sn("GW-0001").await?.ok_or("gateway")?;
        assert_eq!(g.owner_id, None, "still free");
        let removed = registry::remove(&s, &admin, GatewayRef::Sn("GW-0001"), 4).await;
        assert!(failed_in_store(&removed), "{removed:?}");
        assert!(
            s.gateway_by_sn("GW-0001").await?.is_some(),
            "still registered"
        );
        assert_eq!(audit_actions(&s).await?, ["gateway.register"]);
        Ok(())
    })
    .await
}
