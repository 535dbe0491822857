//! Typed ids so that a user id can never be passed where a company id is expected.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($($name:ident),*) => {$(
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl From<i64> for $name {
            fn from(id: i64) -> Self {
                $name(id)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

id_type!(UserId, CompanyId, RoleId, PlantId, GatewayId, DeviceId);

id_type!(AgentId);
// The business side: a company's customers (rows of `customers`, not user ids) and its
// customer types.
id_type!(CustomerId, CustomerTypeId);
// The catalogue: products (rows of `products`).
id_type!(ProductId);
