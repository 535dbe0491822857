import { api } from '@/shared/api/client';
import { ErrorCode } from '@/shared/http';
import { tokenStore, type TokenAnswer } from '@/shared/session';

/** `login`: the code that gets the owner past a locked sign-in (109). */
export type CodePurpose = 'register' | 'reset' | 'login';

/** The RSA library (18 kB gzip), loaded on the first sign-in, not with the login page. */
const loadRsa = () => import('jsencrypt').then((m) => m.JSEncrypt);

/** RSA PKCS#1 v1.5 with the server's base64 DER SubjectPublicKeyInfo key; base64 result. */
export async function encryptPassword(publicKey: string, password: string): Promise<string> {
  const JSEncrypt = await loadRsa();
  const rsa = new JSEncrypt();
  rsa.setPublicKey(publicKey.trim());
  const cipher = rsa.encrypt(password);
  if (!cipher) throw new Error('RSA encryption failed');
  return cipher;
}

/**
 * The encrypted-password login flow: public key, then POST /oauth/token/new. `code` is a
 * sign-in code (`getCode(account, 'login')`), sent with the password when sign-in is locked.
 */
export async function signIn(
  username: string,
  password: string,
  code?: string,
): Promise<TokenAnswer> {
  const nonce = Date.now();
  // the key and the RSA code load side by side
  const [publicKey] = await Promise.all([api.get('/anonymous/publicKey'), loadRsa()]);
  const tokens = await api.post('/oauth/token/new', {
    body: {
      username: username.trim(),
      password: await encryptPassword(publicKey, password),
      grant_type: 'password',
      client_id: 'csp-web',
      source: 'web',
      nonce: String(nonce),
      ...(code ? { code: code.trim() } : {}),
    },
    handledCodes: [
      ErrorCode.Timeout,
      ErrorCode.CodeWrong,
      ErrorCode.CodeExpired,
      ErrorCode.TooManyAttempts,
      ErrorCode.AccountDisabled,
      ErrorCode.WrongCredentials,
      ErrorCode.SignInLocked,
    ],
  });
  tokenStore.set(tokens);
  return tokens;
}

export function checkAccount(account: string, type: CodePurpose): Promise<unknown> {
  return api.get('/anonymous/checkAccount', {
    query: { account: account.trim(), type },
    handledCodes: [ErrorCode.AlreadyRegistered, ErrorCode.NotRegistered],
  });
}

export function getCode(account: string, type: CodePurpose): Promise<unknown> {
  return api.get('/anonymous/getCode', {
    query: { account: account.trim(), type },
    handledCodes: [ErrorCode.InvalidParameter, ErrorCode.TooManyAttempts],
  });
}

export function checkCode(account: string, type: CodePurpose, code: string): Promise<unknown> {
  return api.get('/anonymous/checkCode', {
    query: { account: account.trim(), type, code: code.trim() },
    handledCodes: [ErrorCode.CodeWrong, ErrorCode.CodeExpired],
  });
}

export interface SignUp {
  account: string;
  password: string;
  code: string;
  nickname?: string;
}

export function signUp(body: SignUp): Promise<unknown> {
  return api.post('/anonymous/signup', {
    body,
    handledCodes: [
      ErrorCode.InvalidParameter,
      ErrorCode.CodeWrong,
      ErrorCode.CodeExpired,
      ErrorCode.AlreadyRegistered,
      ErrorCode.PasswordTooCommon,
    ],
  });
}

export function resetPassword(body: {
  account: string;
  password: string;
  code: string;
}): Promise<unknown> {
  return api.post('/anonymous/resetPwd', {
    body,
    handledCodes: [
      ErrorCode.CodeWrong,
      ErrorCode.CodeExpired,
      ErrorCode.NotRegistered,
      ErrorCode.PasswordTooCommon,
    ],
  });
}
