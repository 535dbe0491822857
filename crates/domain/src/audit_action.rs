//! The audit catalogue: every action the portal records in the audit log, by the name the log
//! stores and the API sends (`action` of an entry, the listing's `action` filter). A use case
//! names its action by one of these constants, so a new action is added here, where the API
//! document's `AuditAction` and the web's labels are generated from.

/// The catalogue, and one constant per action; `ALL` in the order the log's filter lists them.
macro_rules! actions {
    ($( $name:ident $action:literal )*) => {
        $(
            #[doc = concat!("`", $action, "`.")]
            pub const $name: &str = $action;
        )*
        /// Every action, recorded now or by earlier versions (their entries are still read).
        pub const ALL: &[&str] = &[$($action),*];
    };
}

actions! {
    // Devices: commands sent, with their outcome joined in from the command.
    SETTING_SET "setting.set"
    INVERTER_BOOT "inverter.boot"
    INVERTER_SHUTDOWN "inverter.shutdown"
    INVERTER_UPGRADE "inverter.upgrade"
    INVERTER_UPGRADE_CANCEL "inverter.upgrade.cancel"
    INVERTER_DEBUG "inverter.debug"
    INVERTER_PRODUCT "inverter.product"
    GATEWAY_RESTART "gateway.restart"
    GATEWAY_UPGRADE "gateway.upgrade"
    GATEWAY_UPGRADE_CANCEL "gateway.upgrade.cancel"
    GATEWAY_REPLACE "gateway.replace"
    GATEWAY_PROTOCOL "gateway.protocol"
    GATEWAY_SETTINGS "gateway.settings"
    GATEWAY_DEBUG "gateway.debug"
    GATEWAY_UPLOAD_CYCLE "gateway.uploadCycle"
    GATEWAY_KEY_ROTATE "gateway.key.rotate"
    GATEWAY_UNBIND "gateway.unbind"
    GATEWAY_DELETE "gateway.delete"
    GATEWAY_REGISTER "gateway.register"
    GATEWAY_BATCH_REGISTER "gateway.batchRegister"
    GATEWAY_IMPORT "gateway.import"
    GATEWAY_CUSTOMER "gateway.customer"
    // The catalogue of firmware, types, products and protocols.
    FIRMWARE_UPLOAD "firmware.upload"
    FIRMWARE_EDIT "firmware.edit"
    FIRMWARE_ENABLE "firmware.enable"
    FIRMWARE_DISABLE "firmware.disable"
    FIRMWARE_DELETE "firmware.delete"
    INVERTER_TYPE_ADD "inverterType.add"
    INVERTER_TYPE_EDIT "inverterType.edit"
    INVERTER_TYPE_MOVE "inverterType.move"
    INVERTER_TYPE_DELETE "inverterType.delete"
    PRODUCT_CREATE "product.create"
    PRODUCT_EDIT "product.edit"
    PRODUCT_DELETE "product.delete"
    PROTOCOL_SAVE "protocol.save"
    VERSION_PUBLISH "version.publish"
    VERSION_EDIT "version.edit"
    VERSION_DELETE "version.delete"
    // Accounts, companies and their relations.
    ACCOUNT_REGISTER "account.register"
    OWNER_DISABLE "owner.disable"
    OWNER_ENABLE "owner.enable"
    COMPANY_ADD "company.add"
    COMPANY_EDIT "company.edit"
    COMPANY_DISABLE "company.disable"
    COMPANY_ENABLE "company.enable"
    COMPANY_LOGO_UPLOAD "company.logo.upload"
    COMPANY_LOGO "company.logo"
    COMPANY_THEME "company.theme"
    STAFF_ADD "staff.add"
    STAFF_EDIT "staff.edit"
    STAFF_DELETE "staff.delete"
    ROLE_ADD "role.add"
    ROLE_EDIT "role.edit"
    ROLE_DELETE "role.delete"
    CUSTOMER_EDIT "customer.edit"
    CUSTOMER_REMOVE "customer.remove"
    CUSTOMER_OFFER "customer.offer"
    CUSTOMER_ACCEPT "customer.accept"
    CUSTOMER_DECLINE "customer.decline"
    CUSTOMER_WITHDRAW "customer.withdraw"
    CUSTOMER_LEAVE "customer.leave"
    CUSTOMER_TYPE_ADD "customerType.add"
    CUSTOMER_TYPE_EDIT "customerType.edit"
    CUSTOMER_TYPE_DELETE "customerType.delete"
    AGENT_DELETE "agent.delete"
    AGENT_OFFER "agent.offer"
    AGENT_ACCEPT "agent.accept"
    AGENT_DECLINE "agent.decline"
    AGENT_WITHDRAW "agent.withdraw"
    AGENT_LEAVE "agent.leave"
    // The alarm engine: a company's rules, and a person acknowledging a case.
    ALARM_RULE_ADD "alarmRule.add"
    ALARM_RULE_EDIT "alarmRule.edit"
    ALARM_RULE_DELETE "alarmRule.delete"
    ALARM_CASE_ACKNOWLEDGE "alarmCase.acknowledge"
    // The energy hub: enrollments, programmes, events, the utility's VTN, and the dispatch job.
    ENERGYHUB_ENROLLMENT_CREATE "energyhub.enrollment.create"
    ENERGYHUB_ENROLLMENT_EDIT "energyhub.enrollment.edit"
    ENERGYHUB_ENROLLMENT_DEVICES_ADD "energyhub.enrollment.devices.add"
    ENERGYHUB_ENROLLMENT_DEVICES_REMOVE "energyhub.enrollment.devices.remove"
    ENERGYHUB_ENROLLMENT_ACTION "energyhub.enrollment.action"
    ENERGYHUB_ENROLLMENT_REMOTE "energyhub.enrollment.remote"
    ENERGYHUB_PROGRAM_CREATE "energyhub.program.create"
    ENERGYHUB_PROGRAM_EDIT "energyhub.program.edit"
    ENERGYHUB_EVENT_CREATE "energyhub.event.create"
    ENERGYHUB_EVENT_CANCEL "energyhub.event.cancel"
    ENERGYHUB_EVENT_OPT_OUT "energyhub.event.optOut"
    ENERGYHUB_VTN_SAVE "energyhub.vtn.save"
    ENERGYHUB_VTN_REMOVE "energyhub.vtn.remove"
    ENERGYHUB_DISPATCH "energyhub.dispatch"
    ENERGYHUB_RESTORE "energyhub.restore"
    // A user's own webhook endpoints (personal settings).
    WEBHOOK_CREATE "webhook.create"
    WEBHOOK_EDIT "webhook.edit"
    WEBHOOK_ROTATE "webhook.rotate"
    WEBHOOK_DELETE "webhook.delete"
    WEBHOOK_TEST "webhook.test"
    // A user's own push subscriptions (personal settings; docs/push.md).
    PUSH_SUBSCRIBE "push.subscribe"
    PUSH_EDIT "push.edit"
    PUSH_DELETE "push.delete"
    PUSH_TEST "push.test"
    // Recorded by earlier versions only (adding a customer or an agent became a request).
    CUSTOMER_ADD "customer.add"
    AGENT_ADD "agent.add"
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn actions_are_unique_dotted_names() {
        let mut seen = HashSet::new();
        for a in ALL {
            assert!(seen.insert(a), "{a} twice");
            assert!(
                a.contains('.') && !a.starts_with('.') && !a.ends_with('.'),
                "{a}"
            );
            assert!(
                a.bytes().all(|b| b.is_ascii_alphabetic() || b == b'.'),
                "{a}"
            );
        }
        assert!(ALL.contains(&ENERGYHUB_DISPATCH));
    }
}
