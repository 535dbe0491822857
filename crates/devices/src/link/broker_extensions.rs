//! The rmqtt extensions the embedded broker plugs in: retained messages kept in memory and the
//! chooser of shared subscriptions (rmqtt's defaults support neither).

use std::time::Duration;

use async_trait::async_trait;
use rmqtt::{
    context::ServerContext,
    retain::{DefaultRetainStorage, RetainStorage},
    subscribe::SharedSubscription,
    types::{
        Id, IsOnline, NodeId, Retain, SharedGroup, SubscriptionIdentifier, SubscriptionOptions,
        TopicFilter, TopicName,
    },
};

/// Retained messages kept in memory (a gateway's retained status survives until the broker
/// restarts; the database holds the durable online state).
pub(super) struct MemoryRetain(pub(super) DefaultRetainStorage);

#[async_trait]
impl RetainStorage for MemoryRetain {
    fn enable(&self) -> bool {
        true
    }

    async fn set(
        &self,
        topic: &TopicName,
        retain: Retain,
        expiry_interval: Option<Duration>,
    ) -> rmqtt::Result<()> {
        self.0
            .set_with_timeout(topic, retain, expiry_interval)
            .await
    }

    async fn get(&self, topic_filter: &TopicFilter) -> rmqtt::Result<Vec<(TopicName, Retain)>> {
        self.0.get_message(topic_filter).await
    }

    async fn count(&self) -> isize {
        self.0.count().await
    }

    async fn max(&self) -> isize {
        self.0.max().await
    }
}

/// Shared subscriptions (`$share/{group}/...`): each message goes to one member of the group,
/// an online one when there is one, spread at random.
pub(super) struct AnyMember;

#[async_trait]
impl SharedSubscription for AnyMember {
    fn is_supported(&self) -> bool {
        true
    }

    async fn choice(
        &self,
        _scx: &ServerContext,
        _group: &SharedGroup,
        _publisher: &Id,
        _topic: &TopicName,
        members: &[(
            NodeId,
            rmqtt::types::ClientId,
            SubscriptionOptions,
            Option<Vec<SubscriptionIdentifier>>,
            Option<IsOnline>,
        )],
    ) -> Option<(usize, IsOnline)> {
        if members.is_empty() {
            return None;
        }
        let start = rand::random::<usize>() % members.len();
        let online = (0..members.len())
            .map(|i| (start + i) % members.len())
            .find(|&i| members[i].4.unwrap_or(true));
        Some(match online {
            Some(i) => (i, true),
            None => (start, false),
        })
    }
}
