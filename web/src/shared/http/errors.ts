/** A non-zero envelope code (docs/api-conventions.md). */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }
}

/** No answer, or an HTTP status of 500 or above. */
export class NetworkError extends Error {
  constructor(message = 'Network exception') {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The stored sign-in is no longer valid; the user has been signed out. */
export class SignedOutError extends Error {
  constructor() {
    super('Signed out');
    this.name = 'SignedOutError';
  }
}

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
