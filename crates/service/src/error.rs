//! The one error of a use case: a refusal the caller is told about (a catalogue code), or a
//! storage failure the caller only learns happened.

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
}

impl From<Code> for ServiceError {
    fn from(code: Code) -> Self {
        ServiceError::Refused(code.into())
    }
}

pub type Result<T> = std::result::Result<T, ServiceError>;
