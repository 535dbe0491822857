//! The one error of a use case: a refusal the caller is told about (a catalogue code), or a
//! failure (of the database, of hashing a password, of sending a message) the caller only
//! learns happened.

use domain::{Code, DomainError};
use store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The rules refuse the use case: answered with the code and its message.
    #[error(transparent)]
    Refused(#[from] DomainError),
    /// The database failed; the transaction was rolled back.
    #[error(transparent)]
    Store(#[from] StoreError),
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
            crate::mailer::SendError::Store(e) => ServiceError::Store(e),
        }
    }
}

impl From<Code> for ServiceError {
    fn from(code: Code) -> Self {
        ServiceError::Refused(code.into())
    }
}

pub type Result<T> = std::result::Result<T, ServiceError>;
