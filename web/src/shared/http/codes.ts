/**
 * The error catalogue's codes by name, generated from the server's API document; the screens
 * handle some themselves, every other code is toasted by the http client.
 */
import { ErrorCode } from '../api/schema.gen';

export { ErrorCode };

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
