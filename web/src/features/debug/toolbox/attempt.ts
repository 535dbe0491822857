import { FrameError } from '../modbus';

/** A byte as two upper-case hex digits. */
export const hex2 = (v: number) => v.toString(16).toUpperCase().padStart(2, '0');

/** Runs a conversion; a refusal becomes its translated reason. */
export function attempt(
  run: () => string,
  t: (k: string) => string,
): { value: string; error?: string } {
  try {
    return { value: run() };
  } catch (e) {
    return { value: '', error: t(`debug.errors.${e instanceof FrameError ? e.reason : 'notHex'}`) };
  }
}
