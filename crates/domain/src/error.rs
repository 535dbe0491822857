//! The one error catalogue: every business error the API can answer, with its wire code and its
//! message in each language. Handlers never invent codes or messages; they return a [`Code`].

use crate::Lang;

macro_rules! catalogue {
    ($( $variant:ident = $num:literal, $en:literal, $zh:literal, $es:literal; )*) => {
        /// A business error code (docs/api-conventions.md, "Codes"), with the few the portal
        /// adds (above the inherited entries they resemble, listed in docs/api.md).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[$( Code::$variant, )*];

            pub fn number(self) -> i64 {
                match self { $( Code::$variant => $num, )* }
            }

            /// The name clients use for the code (the web app's `ErrorCode`).
            pub fn name(self) -> &'static str {
                match self { $( Code::$variant => stringify!($variant), )* }
            }

            pub fn message(self, lang: Lang) -> &'static str {
                match (self, lang) {
                    $( (Code::$variant, Lang::En) => $en,
                       (Code::$variant, Lang::Zh) => $zh,
                       (Code::$variant, Lang::Es) => $es, )*
                }
            }
        }
    };
}

catalogue! {
    Timeout = 1, "Request timed out", "请求超时", "La solicitud ha caducado";
    NoPermission = 2, "No permission", "没有权限", "Sin permiso";
    RequestError = 3, "Request error, please try again later", "请求错误，请稍后再试", "Error en la solicitud, inténtelo más tarde";
    InvalidParameter = 4, "Parameter validation error", "参数校验错误", "Error de validación de parámetros";
    CodeWrong = 5, "Verification code error, please get it again", "验证码错误，请重新获取", "Código de verificación incorrecto, solicítelo de nuevo";
    CodeExpired = 6, "Verification code expired", "验证码已过期", "El código de verificación ha caducado";
    TooManyAttempts = 7, "Too many attempts, please try again later", "尝试次数过多，请稍后再试", "Demasiados intentos, inténtelo más tarde";
    BadLonLat = 10, "Wrong longitude/latitude format", "经纬度格式错误", "Formato de longitud/latitud incorrecto";
    UnsupportedFile = 11, "Unsupported file type", "不支持的文件类型", "Tipo de archivo no admitido";
    FileTooLarge = 12, "File too large", "文件过大", "Archivo demasiado grande";
    ImageTooLarge = 13, "Image too large: at most 24 megapixels", "图片尺寸过大：最多 2400 万像素", "Imagen demasiado grande: como máximo 24 megapíxeles";
    AccountDisabled = 101, "Account disabled, please contact the administrator", "账号已禁用，请联系管理员", "Cuenta deshabilitada, contacte con el administrador";
    WrongCredentials = 102, "Wrong account or password", "账号或密码错误", "Cuenta o contraseña incorrecta";
    AlreadyRegistered = 103, "Account already registered", "账号已注册", "La cuenta ya está registrada";
    AccountExists = 104, "Account exists", "账号已存在", "La cuenta ya existe";
    NotRegistered = 105, "Account not registered", "账号未注册", "La cuenta no está registrada";
    OtherCompany = 106, "Account already associated with another company", "账号已关联其他公司", "La cuenta ya está asociada a otra empresa";
    OldPasswordWrong = 108, "Old password error", "原密码错误", "La contraseña anterior es incorrecta";
    SignInLocked = 109, "Too many failed sign-ins. Sign in with a verification code sent to the account", "登录失败次数过多，请使用发送到该账号的验证码登录", "Demasiados inicios de sesión fallidos. Inicie sesión con un código de verificación enviado a la cuenta";
    PasswordChangeLocked = 110, "Too many wrong current passwords. Please try again in 15 minutes", "当前密码错误次数过多，请 15 分钟后再试", "Demasiadas contraseñas actuales incorrectas. Inténtelo de nuevo en 15 minutos";
    PasswordTooCommon = 111, "This password is too common. Please choose another one", "该密码过于常见，请换一个密码", "Esta contraseña es demasiado común. Elija otra";
    AgentExists = 202, "Agent exists", "代理商已存在", "El agente ya existe";
    CompanyNameTaken = 203, "Duplicate company name", "公司名称重复", "Nombre de empresa duplicado";
    AlreadyCustomer = 207, "Already a company customer", "已是公司客户", "Ya es cliente de la empresa";
    GatewayKeyWrong = 300, "Gateway SN or key incorrect", "网关SN或密钥错误", "SN o clave de la pasarela incorrectos";
    GatewayUsed = 301, "Gateway already used", "网关已被使用", "La pasarela ya está en uso";
    GatewayMissing = 305, "Gateway does not exist", "网关不存在", "La pasarela no existe";
    Unauthorized = 401, "Token authentication failed", "令牌认证失败", "Error de autenticación del token";
    InverterMissing = 600, "Inverter does not exist", "逆变器不存在", "El inversor no existe";
    BrandNotSupported = 601, "Parameter setting of this brand is not supported", "不支持该品牌的参数设置", "No se admite la configuración de parámetros de esta marca";
    PlantMissing = 700, "Plant does not exist", "电站不存在", "La planta no existe";
    ShareSelf = 701, "You cannot share with yourself", "不能分享给自己", "No puede compartir consigo mismo";
    ShareCompanyUser = 702, "Sharing to company users is not allowed", "不能分享给公司用户", "No se permite compartir con usuarios de la empresa";
    ShareCompanyPlant = 703, "Company plants cannot be shared", "公司电站不能分享", "Las plantas de la empresa no se pueden compartir";
    TransferSelf = 704, "You cannot transfer a plant to yourself", "不能将电站转移给自己", "No puede transferirse una planta a sí mismo";
    RoleLimit = 800, "At most 5 roles", "最多5个角色", "Como máximo 5 roles";
    RoleExists = 801, "Role exists", "角色已存在", "El rol ya existe";
    OwnRoleLocked = 802, "The current account's role cannot be modified", "当前账号的角色不能修改", "No se puede modificar el rol de la cuenta actual";
    AgentSelf = 900, "You cannot add yourself as an agent", "不能添加自己为代理商", "No puede añadirse a sí mismo como agente";
    AgentInternal = 901, "Internal employees cannot be agents", "内部员工不能成为代理商", "Los empleados internos no pueden ser agentes";
    AgentNotAdmin = 902, "Only a company administrator can be an agent", "只有公司管理员可以成为代理商", "Solo el administrador de una empresa puede ser agente";
    AgentTaken = 903, "Account is already an agent of another company", "该账号已是其他公司的代理商", "La cuenta ya es agente de otra empresa";
    FirmwareNameTaken = 4000, "Firmware name duplicate", "固件名称重复", "Nombre de firmware duplicado";
    FirmwareCurrent = 4001, "Firmware is already up to date", "固件已是最新版本", "El firmware ya está actualizado";
    FirmwareVersionTaken = 4002, "Firmware software version number duplicate", "固件软件版本号重复", "Número de versión de software de firmware duplicado";
    HubDeviceExists = 1000, "Device exists", "设备已存在", "El dispositivo ya existe";
    HubDeviceMissing = 1001, "Device does not exist", "设备不存在", "El dispositivo no existe";
    EnrollmentMissing = 1002, "Enrollment does not exist", "登记不存在", "La inscripción no existe";
    HubDeviceUsed = 1003, "Device already used", "设备已被使用", "El dispositivo ya está en uso";
    AccountBound = 1004, "Customer account already bound", "客户账号已绑定", "La cuenta de cliente ya está vinculada";
    InverterSnSame = 1005, "Inverter SN same", "逆变器SN重复", "SN de inversor repetido";
    InverterSnWrong = 1006, "Inverter SN incorrect, please reselect the plant", "逆变器SN不正确，请重新选择电站", "SN de inversor incorrecto, vuelva a seleccionar la planta";
    EnrollmentStateForbids = 1007, "The enrollment's status does not allow this action", "当前登记状态不允许此操作", "El estado de la inscripción no permite esta acción";
    ProgramMissing = 1008, "Programme does not exist", "项目不存在", "El programa no existe";
    DrEventMissing = 1009, "Event does not exist", "事件不存在", "El evento no existe";
    DrEventOver = 1010, "The event has already ended or been cancelled", "事件已结束或已取消", "El evento ya ha terminado o se ha cancelado";
    VtnFailed = 1011, "The utility's server could not be reached or refused the request", "无法连接电力公司服务器或请求被拒绝", "No se pudo contactar con el servidor de la compañía eléctrica o rechazó la solicitud";
    DictCodeExists = 5000, "Code exists", "编码已存在", "El código ya existe";
    DeviceOffline = 602, "Device offline (turn on power or check network)", "设备离线（请打开电源或检查网络）", "Dispositivo sin conexión (enciéndalo o compruebe la red)";
    DeviceUpgrading = 603, "Device is upgrading", "设备正在升级", "El dispositivo se está actualizando";
    StateForbids = 604, "The current state forbids remote debug, upgrade or power on/off", "当前状态禁止远程调试、升级或开关机", "El estado actual no permite depuración remota, actualización ni encendido/apagado";
    NoSettings = 605, "No configuration parameters", "没有配置参数", "No hay parámetros de configuración";
    ConnectionFailed = 606, "Connection failed", "连接失败", "Error de conexión";
    CommandFailed = 607, "Command sending failed", "命令发送失败", "Error al enviar el comando";
    CancelUnsupported = 608, "This device does not support cancelling an upgrade", "该设备不支持取消升级", "Este dispositivo no admite cancelar una actualización";
    KeyNotTaken = 609, "The gateway did not take the new key; its current key still works", "网关未接受新密钥，当前密钥仍然有效", "La pasarela no aceptó la nueva clave; la clave actual sigue siendo válida";
    GridTypeError = 610, "Grid type error: this setting is for inverters of another grid type (single- or three-phase)", "电网类型错误：该设置适用于其他电网类型（单相或三相）的逆变器", "Error de tipo de red: este ajuste es para inversores de otro tipo de red (monofásica o trifásica)";
    WebhookMissing = 1100, "Webhook does not exist", "Webhook 不存在", "El webhook no existe";
    WebhookLimit = 1101, "At most 5 webhooks", "最多5个Webhook", "Como máximo 5 webhooks";
    PushSubscriptionMissing = 1102, "Push subscription does not exist", "推送订阅不存在", "La suscripción push no existe";
    PushSubscriptionLimit = 1103, "At most 10 devices receive push alerts", "最多10台设备接收推送提醒", "Como máximo 10 dispositivos reciben alertas push";
    ManualMissing = 4100, "Manual does not exist", "说明书不存在", "El manual no existe";
}

/// An error a rule or a store reports; `detail` names what was wrong (a field name, a limit) in
/// words that do not depend on the caller's language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
pub struct DomainError {
    pub code: Code,
    pub detail: Option<String>,
}

impl DomainError {
    pub fn invalid(field: impl Into<String>) -> Self {
        DomainError {
            code: Code::InvalidParameter,
            detail: Some(field.into()),
        }
    }

    pub fn with_detail(code: Code, detail: impl Into<String>) -> Self {
        DomainError {
            code,
            detail: Some(detail.into()),
        }
    }

    /// The message shown to the caller: the catalogue text, then the detail when there is one.
    pub fn message(&self, lang: Lang) -> String {
        match &self.detail {
            Some(d) => format!("{}: {d}", self.code.message(lang)),
            None => self.code.message(lang).to_string(),
        }
    }
}

impl From<Code> for DomainError {
    fn from(code: Code) -> Self {
        DomainError { code, detail: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_code_is_unique_and_has_a_message_in_every_language() {
        let mut seen = HashSet::new();
        for code in Code::ALL {
            assert!(
                seen.insert(code.number()),
                "duplicate number {}",
                code.number()
            );
            for lang in [Lang::En, Lang::Zh, Lang::Es] {
                assert!(!code.message(lang).is_empty());
            }
        }
    }

    #[test]
    fn the_spec_catalogue_is_complete() {
        let spec = [
            1, 2, 4, 5, 6, 10, 101, 102, 103, 104, 105, 106, 108, 202, 203, 207, 300, 301, 305,
            401, 600, 601, 700, 701, 702, 703, 800, 801, 802, 900, 901, 902, 903, 4000, 4001, 4002,
            5000,
        ];
        let ours: HashSet<i64> = Code::ALL.iter().map(|c| c.number()).collect();
        for n in spec {
            assert!(ours.contains(&n), "code {n} missing");
        }
    }

    #[test]
    fn detail_follows_the_localized_message() {
        let e = DomainError::invalid("password");
        assert_eq!(e.message(Lang::Zh), "参数校验错误: password");
    }
}
