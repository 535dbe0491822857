/**
 * The envelope codes the screens handle themselves, named as the server's catalogue names them
 * (crates/domain/src/error.rs); every other code is toasted by the http client.
 */
export const ErrorCode = {
  Timeout: 1,
  NoPermission: 2,
  InvalidParameter: 4,
  CodeWrong: 5,
  CodeExpired: 6,
  TooManyAttempts: 7,
  BadLonLat: 10,
  UnsupportedFile: 11,
  FileTooLarge: 12,
  AccountDisabled: 101,
  WrongCredentials: 102,
  AlreadyRegistered: 103,
  NotRegistered: 105,
  OldPasswordWrong: 108,
  SignInLocked: 109,
  PasswordChangeLocked: 110,
  PasswordTooCommon: 111,
  GatewayKeyWrong: 300,
  GatewayUsed: 301,
  GatewayMissing: 305,
  Unauthorized: 401,
  InverterMissing: 600,
  BrandNotSupported: 601,
  DeviceOffline: 602,
  DeviceUpgrading: 603,
  StateForbids: 604,
  NoSettings: 605,
  ConnectionFailed: 606,
  CancelUnsupported: 608,
  KeyNotTaken: 609,
  PlantMissing: 700,
  ShareSelf: 701,
  ShareCompanyUser: 702,
  ShareCompanyPlant: 703,
  TransferSelf: 704,
  GatewayFirmwareCurrent: 4001,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The refusals of a command sent to a device (debug frame, upgrade start): no right, a bad
 * frame, no such gateway or inverter, offline, upgrading, a state that forbids it, no link.
 */
export const COMMAND_REFUSALS: readonly ErrorCode[] = [
  ErrorCode.NoPermission,
  ErrorCode.InvalidParameter,
  ErrorCode.GatewayMissing,
  ErrorCode.InverterMissing,
  ErrorCode.DeviceOffline,
  ErrorCode.DeviceUpgrading,
  ErrorCode.StateForbids,
  ErrorCode.ConnectionFailed,
];
