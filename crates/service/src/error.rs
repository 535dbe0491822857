//! The one error of a use case: a refusal the caller is told about (a catalogue code), or a
//! failure (of the database, of hashing a password, of sending a message) the caller only
//! learns happened.

use domain::{Code, DomainError};
use store::{Conflict, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The rules refuse the use case: answered with the code and its message.
    #[error(transparent)]
    Refused(#[from] DomainError),
    /// The database failed; the transaction was rolled back.
    #[error(transparent)]
    Store(StoreError),
    /// Something outside the database failed (hashing a password, sending a message).
    #[error("{0}")]
    Internal(String),
}

impl From<crate::passwords::HashError> for ServiceError {
    fn from(err: crate::passwords::HashError) -> Self {
        ServiceError::Internal(err.0)
    }
}

impl From<crate::mailer::SendError> for ServiceError {
    fn from(err: crate::mailer::SendError) -> Self {
        match err {
            crate::mailer::SendError::Smtp(e) => ServiceError::Internal(e),
            crate::mailer::SendError::Store(e) => e.into(),
        }
    }
}

impl From<Code> for ServiceError {
    fn from(code: Code) -> Self {
        ServiceError::Refused(code.into())
    }
}

/// A unique rule the write broke is the spec's refusal for it (someone took the name between
/// the use case's check and its write); any other storage error stays a failure.
impl From<StoreError> for ServiceError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict(kind) => match refusal(kind) {
                Some(refused) => ServiceError::Refused(refused),
                None => ServiceError::Store(err),
            },
            err => ServiceError::Store(err),
        }
    }
}

/// The spec's answer to each unique rule, the one place it is decided. `None`: the spec has no
/// code for it (ids the portal makes itself), so it is answered as a failure.
fn refusal(kind: Conflict) -> Option<DomainError> {
    Some(match kind {
        Conflict::Registered => Code::AlreadyRegistered.into(),
        Conflict::StaffAccount => Code::AccountExists.into(),
        Conflict::AdminAccount => Code::OtherCompany.into(),
        Conflict::CompanyName => Code::CompanyNameTaken.into(),
        Conflict::AgentOffer => Code::AgentExists.into(),
        Conflict::AgentTaken => Code::AgentTaken.into(),
        Conflict::CustomerOffer | Conflict::Customer => Code::AlreadyCustomer.into(),
        Conflict::CustomerTypeCode => Code::DictCodeExists.into(),
        Conflict::RoleName => Code::RoleExists.into(),
        Conflict::FirmwareVersion => Code::FirmwareVersionTaken.into(),
        Conflict::InverterTypeName | Conflict::ProgramName | Conflict::ProfileName => {
            DomainError::invalid("name")
        }
        Conflict::InverterTypeNameAtTarget => DomainError::invalid("nameAtTarget"),
        Conflict::PartNumber => DomainError::invalid("partNumber"),
        Conflict::VersionLabel => DomainError::invalid("version"),
        Conflict::GatewaySn => DomainError::invalid("sn"),
        Conflict::CommandId | Conflict::FileKey => return None,
    })
}

pub type Result<T> = std::result::Result<T, ServiceError>;
