/** Device names are at most 32 bytes (docs/overview.md), as the server counts them (UTF-8). */
export const ALIAS_MAX_BYTES = 32;

export const aliasBytes = (v: string) => new TextEncoder().encode(v.trim()).length;

export const aliasTooLong = (v: string) => aliasBytes(v) > ALIAS_MAX_BYTES;
