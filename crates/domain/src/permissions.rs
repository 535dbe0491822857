//! The permission catalogue: the menu route keys of the screens and the button permissions
//! of each screen (docs/permissions.md lists them). Ids are stable: append, never renumber.

use crate::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A menu route (wire type 0).
    Menu,
    /// An action on a screen (wire type 1).
    Button,
}

impl Kind {
    pub fn wire(self) -> i64 {
        match self {
            Kind::Menu => 0,
            Kind::Button => 1,
        }
    }
}

#[derive(Debug)]
pub struct Permission {
    pub id: i64,
    pub key: &'static str,
    pub parent: Option<&'static str>,
    pub kind: Kind,
    names: [&'static str; 3],
}

impl Permission {
    pub fn name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.names[0],
            Lang::Zh => self.names[1],
            Lang::Es => self.names[2],
        }
    }
}

/// The catalogue, and one constant per key so that code checking a right names it by a path
/// the compiler knows (a mistyped key does not compile) instead of repeating its text.
macro_rules! perms {
    ($( $id:literal $name:ident $key:literal < $parent:tt $kind:ident [$en:literal, $zh:literal, $es:literal] )*) => {
        pub static CATALOGUE: &[Permission] = &[$(
            Permission { id: $id, key: $key, parent: perms!(@parent $parent), kind: Kind::$kind, names: [$en, $zh, $es] },
        )*];
        $(
            #[doc = concat!("`", $key, "`: ", $en, ".")]
            pub const $name: &str = $key;
        )*
    };
    (@parent -) => { None };
    (@parent $p:literal) => { Some($p) };
}

perms! {
    1 STATION_VIEW "station.view" < - Menu ["Plants", "电站", "Plantas"]
    2 STATION_CREATE "station.create" < "station.view" Menu ["Create plant", "新建电站", "Crear planta"]
    3 STATION_EDIT "station.edit" < "station.view" Button ["Edit plant", "编辑电站", "Editar planta"]
    4 STATION_DELETE "station.delete" < "station.view" Button ["Delete plant", "删除电站", "Eliminar planta"]
    5 STATION_SHARE "station.share" < "station.view" Button ["Share plant", "分享电站", "Compartir planta"]
    6 STATION_SHARE_CANCLE "station.share.cancle" < "station.view" Button ["Cancel sharing", "取消分享", "Cancelar uso compartido"]
    7 STATION_TRANSFER "station.transfer" < "station.view" Button ["Transfer plant", "转移电站", "Transferir planta"]
    8 EQUIP_VIEW "equip.view" < - Menu ["Equipment", "设备", "Equipos"]
    9 GATEWAY_VIEW "gateway.view" < "equip.view" Menu ["Gateways", "网关", "Pasarelas"]
    10 GATEWAY_ADD "gateway.add" < "gateway.view" Button ["Add gateway", "添加网关", "Añadir pasarela"]
    11 GATEWAY_IMPORT "gateway.import" < "gateway.view" Button ["Import gateways", "导入网关", "Importar pasarelas"]
    12 GATEWAY_UPGRADE "gateway.upgrade" < "gateway.view" Button ["Upgrade gateway", "升级网关", "Actualizar pasarela"]
    13 GATEWAY_RESTART "gateway.restart" < "gateway.view" Button ["Restart gateway", "重启网关", "Reiniciar pasarela"]
    14 GATEWAY_UNBIND "gateway.unbind" < "gateway.view" Button ["Unbind gateway", "解绑网关", "Desvincular pasarela"]
    15 GATEWAY_DELETE "gateway.delete" < "gateway.view" Button ["Delete gateway", "删除网关", "Eliminar pasarela"]
    16 GATEWAY_REPLACE "gateway.replace" < "gateway.view" Button ["Replace gateway", "更换网关", "Sustituir pasarela"]
    17 GATEWAY_PROTOCOL "gateway.protocol" < "gateway.view" Button ["Change protocol", "修改协议", "Cambiar protocolo"]
    18 GATEWAY_EXPORT "gateway.export" < "gateway.view" Button ["Export gateways", "导出网关", "Exportar pasarelas"]
    19 INVERTER_VIEW "inverter.view" < "equip.view" Menu ["Inverters", "逆变器", "Inversores"]
    20 INVERTER_SETTING "inverter.setting" < "inverter.view" Button ["Parameter settings", "参数设置", "Configuración de parámetros"]
    21 INVERTER_UPGRADE "inverter.upgrade" < "inverter.view" Button ["Firmware upgrade", "固件升级", "Actualización de firmware"]
    22 INVERTER_POWER "inverter.power" < "inverter.view" Button ["Power on/off", "开关机", "Encendido/apagado"]
    23 INVERTER_DEBUG "inverter.debug" < "inverter.view" Button ["Remote debug", "远程调试", "Depuración remota"]
    24 INVERTER_ALIAS "inverter.alias" < "inverter.view" Button ["Rename inverter", "修改别名", "Renombrar inversor"]
    25 INVERTER_DELETE "inverter.delete" < "inverter.view" Button ["Delete inverter", "删除逆变器", "Eliminar inversor"]
    26 BATTERY_LIST_VIEW "battery.list.view" < "equip.view" Menu ["Batteries", "电池", "Baterías"]
    27 BATTERY_DELETE "battery.delete" < "battery.list.view" Button ["Delete battery", "删除电池", "Eliminar batería"]
    28 EVENT_VIEW "event.view" < "equip.view" Menu ["Events", "事件", "Eventos"]
    29 EVENT_EXPORT "event.export" < "event.view" Button ["Export events", "导出事件", "Exportar eventos"]
    30 APPLICATION_CENTER "application.center" < - Menu ["Energy hub", "能源中心", "Centro de energía"]
    31 ENERGYHUB_VIEW "energyhub.view" < "application.center" Menu ["Demand response", "需求响应", "Respuesta a la demanda"]
    32 ENERGYHUB_ENROLL "energyhub.enroll" < "energyhub.view" Button ["Enroll plants", "登记电站", "Inscribir plantas"]
    33 ENERGYHUB_EVENT_CANCEL "energyhub.event.cancel" < "energyhub.view" Button ["Cancel event", "取消事件", "Cancelar evento"]
    34 FIRMWARE_MANAGEMENT "firmware.management" < - Menu ["Firmware", "固件管理", "Firmware"]
    35 FIRMWARE_GATEWAY_VIEW "firmware.gateway.view" < "firmware.management" Menu ["Gateway firmware", "网关固件", "Firmware de pasarela"]
    36 FIRMWARE_GATEWAY_EDIT "firmware.gateway.edit" < "firmware.gateway.view" Button ["Edit gateway firmware", "编辑网关固件", "Editar firmware de pasarela"]
    37 FIRMWARE_INVERTER_VIEW "firmware.inverter.view" < "firmware.management" Menu ["Inverter firmware", "逆变器固件", "Firmware de inversor"]
    38 FIRMWARE_INVERTER_EDIT "firmware.inverter.edit" < "firmware.inverter.view" Button ["Edit inverter firmware", "编辑逆变器固件", "Editar firmware de inversor"]
    39 FIRMWARE_ENABLE "firmware.enable" < "firmware.inverter.view" Button ["Enable or disable firmware", "启用或禁用固件", "Activar o desactivar firmware"]
    40 WORKDATA_VIEW "workdata.view" < - Menu ["Reports", "运行数据", "Informes"]
    41 WORKDATA_EXPORT "workdata.export" < "workdata.view" Button ["Export reports", "导出报表", "Exportar informes"]
    42 COMPANY_MANAGEMENT "company.management" < - Menu ["Company", "公司", "Empresa"]
    43 COMPANY_INFO "company.info" < "company.management" Menu ["Company info", "公司信息", "Información de la empresa"]
    44 COMPANY_EDIT "company.edit" < "company.info" Button ["Edit company", "编辑公司", "Editar empresa"]
    45 COMPANY_USER "company.user" < "company.management" Menu ["Staff", "员工", "Personal"]
    46 COMPANY_USER_EDIT "company.user.edit" < "company.user" Button ["Manage staff", "管理员工", "Gestionar personal"]
    47 COMPANY_ROLE_LIST_VIEW "company.role.list.view" < "company.management" Menu ["Roles", "角色", "Roles"]
    48 COMPANY_ROLE_EDIT "company.role.edit" < "company.role.list.view" Button ["Manage roles", "管理角色", "Gestionar roles"]
    49 USER_PRODUCER "user.producer" < - Menu ["Customers", "客户", "Clientes"]
    50 CUSTOMER_LIST_VIEW "customer.list.view" < "user.producer" Menu ["Customer list", "客户列表", "Lista de clientes"]
    51 CUSTOMER_EDIT "customer.edit" < "customer.list.view" Button ["Manage customers", "管理客户", "Gestionar clientes"]
    52 CUSTOMER_TYPE_LIST_VIEW "customer.type.list.view" < "user.producer" Menu ["Customer types", "客户类型", "Tipos de cliente"]
    53 CUSTOMER_TYPE_EDIT "customer.type.edit" < "customer.type.list.view" Button ["Manage customer types", "管理客户类型", "Gestionar tipos de cliente"]
    54 LOGGER_MANAGEMENT "logger.management" < - Menu ["Logging", "日志", "Registros"]
    55 LOGGER_UPGRADE_RECORD "logger.upgrade.record" < "logger.management" Menu ["Maintenance log", "维护日志", "Registro de mantenimiento"]
    56 SYSTEM_MANAGEMENT "system.management" < - Menu ["Management", "系统管理", "Administración"]
    57 SYS_GATEWAY_VIEW "sys.gateway.view" < "system.management" Menu ["System gateways", "系统网关", "Pasarelas del sistema"]
    58 SYS_GATEWAY_EDIT "sys.gateway.edit" < "sys.gateway.view" Button ["Manage system gateways", "管理系统网关", "Gestionar pasarelas del sistema"]
    59 SYS_VERSION_EDIT "sys.version.edit" < "system.management" Button ["Publish release notes", "发布版本说明", "Publicar notas de versión"]
    60 GATEWAY_KEY "gateway.key" < "gateway.view" Button ["Gateway key", "网关密钥", "Clave de pasarela"]
    61 COMPANY_AGENT "company.agent" < "company.management" Menu ["Agents", "代理商", "Agentes"]
    62 COMPANY_AGENT_EDIT "company.agent.edit" < "company.agent" Button ["Manage agents", "管理代理商", "Gestionar agentes"]
    63 SYS_COMPANY_VIEW "sys.company.view" < "system.management" Menu ["Companies", "公司管理", "Empresas"]
    64 SYS_COMPANY_EDIT "sys.company.edit" < "sys.company.view" Button ["Manage companies", "管理公司", "Gestionar empresas"]
    65 SYS_PRODUCT_VIEW "sys.product.view" < "system.management" Menu ["Products", "产品管理", "Productos"]
    66 SYS_PRODUCT_EDIT "sys.product.edit" < "sys.product.view" Button ["Manage products", "管理产品", "Gestionar productos"]
    67 SYS_PROTOCOL_VIEW "sys.protocol.view" < "system.management" Menu ["Protocol configs", "协议配置", "Configuraciones de protocolo"]
    68 SYS_PROTOCOL_EDIT "sys.protocol.edit" < "sys.protocol.view" Button ["Edit protocol configs", "编辑协议配置", "Editar configuraciones de protocolo"]
    69 LOGGER_COMMUNICATION "logger.communication" < "logger.management" Menu ["Communication log", "通讯日志", "Registro de comunicaciones"]
    70 SYS_ENERGYHUB_EDIT "sys.energyhub.edit" < "system.management" Button ["Act as the utility (demand response)", "作为电力公司管理需求响应", "Actuar como la compañía eléctrica (respuesta a la demanda)"]
    91 MANUAL_VIEW "manual.view" < "equip.view" Menu ["Manuals", "说明书", "Manuales"]
    92 SYS_MANUAL_EDIT "sys.manual.edit" < "manual.view" Button ["Manage manuals", "管理说明书", "Gestionar manuales"]
}

pub fn find(key: &str) -> Option<&'static Permission> {
    CATALOGUE.iter().find(|p| p.key == key)
}

pub fn children_of(key: Option<&str>) -> impl Iterator<Item = &'static Permission> + use<'_> {
    CATALOGUE.iter().filter(move |p| p.parent == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_route_key_of_the_spec_is_a_menu_item() {
        let spec = [
            "station.view",
            "station.create",
            "equip.view",
            "gateway.view",
            "inverter.view",
            "battery.list.view",
            "event.view",
            "application.center",
            "energyhub.view",
            "firmware.management",
            "firmware.gateway.view",
            "firmware.inverter.view",
            "workdata.view",
            "company.management",
            "company.info",
            "company.user",
            "company.role.list.view",
            "user.producer",
            "customer.list.view",
            "customer.type.list.view",
            "logger.management",
            "logger.upgrade.record",
            "system.management",
            "sys.gateway.view",
        ];
        for key in spec {
            assert_eq!(find(key).map(|p| p.kind), Some(Kind::Menu), "{key}");
        }
    }

    #[test]
    fn ids_and_keys_are_unique_and_parents_exist() {
        let mut ids = HashSet::new();
        let mut keys = HashSet::new();
        for p in CATALOGUE {
            assert!(ids.insert(p.id) && keys.insert(p.key), "{}", p.key);
            // The store hands a role's keys to each request joined by commas.
            assert!(!p.key.contains(','), "{}", p.key);
            if let Some(parent) = p.parent {
                assert!(
                    find(parent).is_some(),
                    "{} has unknown parent {parent}",
                    p.key
                );
            }
        }
    }
}
