/**
 * The remote debug toolbox's pure part: CRC-16/Modbus, LRC (Modbus ASCII), hex/binary/ASCII
 * conversions, and a Modbus RTU frame builder and parser for the register functions
 * (03 read holding, 04 read input, 06 write single, 16 write multiple). No React, no I/O:
 * the screen and the tests use the same functions.
 */

export type Bytes = readonly number[];

/** CRC-16/Modbus (poly 0xA001 reflected, init 0xFFFF). Sent low byte first. */
export function crc16(bytes: Bytes): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b & 0xff;
    for (let i = 0; i < 8; i += 1) {
      crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    }
  }
  return crc & 0xffff;
}

/** The two CRC bytes as they go on the wire (low, high). */
export function crcBytes(bytes: Bytes): [number, number] {
  const crc = crc16(bytes);
  return [crc & 0xff, crc >>> 8];
}

/** Appends the CRC to a frame body. */
export function withCrc(body: Bytes): number[] {
  return [...body, ...crcBytes(body)];
}

/** LRC of Modbus ASCII: the two's complement of the 8-bit sum of the bytes. */
export function lrc(bytes: Bytes): number {
  const sum = bytes.reduce((acc, b) => (acc + (b & 0xff)) & 0xff, 0);
  return (0x100 - sum) & 0xff;
}

export class FrameError extends Error {
  constructor(
    /** An i18n key under `debug.errors`. */
    public readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Hex text to bytes. Accepts spaces, commas, `0x` prefixes and line breaks between bytes; an
 * odd number of digits or a non-hex character is an error.
 */
export function parseHex(text: string): number[] {
  const clean = text.replace(/0x/gi, '').replace(/[\s,;:-]+/g, '');
  if (clean === '') return [];
  if (!/^[0-9a-fA-F]+$/.test(clean)) throw new FrameError('notHex');
  if (clean.length % 2 !== 0) throw new FrameError('oddHex');
  const out: number[] = [];
  for (let i = 0; i < clean.length; i += 2) out.push(parseInt(clean.slice(i, i + 2), 16));
  return out;
}

export function toHex(bytes: Bytes, separator = ' '): string {
  return bytes.map((b) => (b & 0xff).toString(16).toUpperCase().padStart(2, '0')).join(separator);
}

/** Hex text to binary text, 8 digits per byte separated by spaces. */
export function hexToBinary(text: string): string {
  return parseHex(text)
    .map((b) => b.toString(2).padStart(8, '0'))
    .join(' ');
}

/** Binary text (0/1, whitespace ignored, a multiple of 8 digits) to hex text. */
export function binaryToHex(text: string): string {
  const clean = text.replace(/\s+/g, '');
  if (clean === '') return '';
  if (!/^[01]+$/.test(clean)) throw new FrameError('notBinary');
  if (clean.length % 8 !== 0) throw new FrameError('binaryLength');
  const out: number[] = [];
  for (let i = 0; i < clean.length; i += 8) out.push(parseInt(clean.slice(i, i + 8), 2));
  return toHex(out);
}

/** ASCII text to hex; characters outside 0-127 are refused (Modbus ASCII is 7-bit). */
export function asciiToHex(text: string): string {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 0x7f) throw new FrameError('notAscii');
    out.push(code);
  }
  return toHex(out);
}

/** Hex to ASCII; non-printable bytes show as `.` so the text stays readable. */
export function hexToAscii(text: string): string {
  return parseHex(text)
    .map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.'))
    .join('');
}

/** A Modbus ASCII frame `:` + hex + LRC (CR LF optional) checked and decoded. */
export interface AsciiFrame {
  /** The bytes before the LRC. */
  body: number[];
  lrc: number;
  expectedLrc: number;
  lrcOk: boolean;
}

export function parseAscii(text: string): AsciiFrame {
  const trimmed = text.trim();
  if (!trimmed.startsWith(':')) throw new FrameError('asciiColon');
  const bytes = parseHex(trimmed.slice(1));
  if (bytes.length < 2) throw new FrameError('tooShort');
  const body = bytes.slice(0, -1);
  const got = bytes[bytes.length - 1] ?? 0;
  const expectedLrc = lrc(body);
  return { body, lrc: got, expectedLrc, lrcOk: got === expectedLrc };
}

/** Builds a Modbus ASCII frame from its body: `:` + hex + LRC + CR LF. */
export function buildAscii(body: Bytes): string {
  return `:${toHex([...body, lrc(body)], '')}\r\n`;
}

export type FunctionCode = 3 | 4 | 6 | 16;
export const FUNCTION_CODES: readonly FunctionCode[] = [3, 4, 6, 16];

export interface RequestSpec {
  slave: number;
  fn: FunctionCode;
  address: number;
  /** Registers to read (03/04), 1-125. */
  count?: number;
  /** Values to write: one for 06, 1-123 for 16. */
  values?: number[];
}

const u16 = (v: number): [number, number] => [(v >>> 8) & 0xff, v & 0xff];

function checkRange(v: number, min: number, max: number, reason: string): void {
  if (!Number.isInteger(v) || v < min || v > max) throw new FrameError(reason);
}

/** An RTU request frame with its CRC. */
export function buildRequest(spec: RequestSpec): number[] {
  checkRange(spec.slave, 0, 247, 'slave');
  checkRange(spec.address, 0, 0xffff, 'address');
  const head = [spec.slave, spec.fn, ...u16(spec.address)];
  switch (spec.fn) {
    case 3:
    case 4: {
      const count = spec.count ?? 1;
      checkRange(count, 1, 125, 'count');
      return withCrc([...head, ...u16(count)]);
    }
    case 6: {
      const value = spec.values?.[0];
      if (value === undefined) throw new FrameError('values');
      checkRange(value, 0, 0xffff, 'values');
      return withCrc([...head, ...u16(value)]);
    }
    case 16: {
      const values = spec.values ?? [];
      checkRange(values.length, 1, 123, 'values');
      values.forEach((v) => checkRange(v, 0, 0xffff, 'values'));
      return withCrc([
        ...head,
        ...u16(values.length),
        values.length * 2,
        ...values.flatMap((v) => u16(v)),
      ]);
    }
  }
}

export const EXCEPTIONS: Record<number, string> = {
  1: 'illegalFunction',
  2: 'illegalAddress',
  3: 'illegalValue',
  4: 'deviceFailure',
  5: 'acknowledge',
  6: 'busy',
  8: 'parityError',
  10: 'gatewayPath',
  11: 'gatewayTarget',
};

export interface ParsedFrame {
  kind: 'request' | 'response' | 'exception';
  slave: number;
  fn: number;
  crc: number;
  expectedCrc: number;
  crcOk: boolean;
  address?: number;
  count?: number;
  /** Register values (read responses, write requests). */
  values?: number[];
  /** The exception code of an exception response. */
  exception?: number;
}

function word(bytes: Bytes, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function words(bytes: Bytes, from: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => word(bytes, from + i * 2));
}

function split(frame: Bytes): { body: number[]; crc: number; expectedCrc: number } {
  if (frame.length < 4) throw new FrameError('tooShort');
  const body = frame.slice(0, -2);
  const crc = (frame[frame.length - 2] ?? 0) | ((frame[frame.length - 1] ?? 0) << 8);
  return { body, crc, expectedCrc: crc16(body) };
}

/** Decodes a request frame (what a master sends). */
export function parseRequest(frame: Bytes): ParsedFrame {
  const { body, crc, expectedCrc } = split(frame);
  const [slave = 0, fn = 0] = body;
  const base = {
    kind: 'request' as const,
    slave,
    fn,
    crc,
    expectedCrc,
    crcOk: crc === expectedCrc,
  };
  if (fn === 3 || fn === 4) {
    if (body.length !== 6) throw new FrameError('length');
    return { ...base, address: word(body, 2), count: word(body, 4) };
  }
  if (fn === 6) {
    if (body.length !== 6) throw new FrameError('length');
    return { ...base, address: word(body, 2), values: [word(body, 4)] };
  }
  if (fn === 16) {
    const count = word(body, 4);
    if (body.length !== 7 + count * 2 || body[6] !== count * 2) throw new FrameError('length');
    return { ...base, address: word(body, 2), count, values: words(body, 7, count) };
  }
  throw new FrameError('function');
}

/** Decodes a response frame (what a slave answers), exceptions included. */
export function parseResponse(frame: Bytes): ParsedFrame {
  const { body, crc, expectedCrc } = split(frame);
  const [slave = 0, fn = 0] = body;
  const base = { slave, fn, crc, expectedCrc, crcOk: crc === expectedCrc };
  if (fn & 0x80) {
    if (body.length !== 3) throw new FrameError('length');
    return { ...base, kind: 'exception', fn: fn & 0x7f, exception: body[2] ?? 0 };
  }
  if (fn === 3 || fn === 4) {
    const n = body[2] ?? 0;
    if (n % 2 !== 0 || body.length !== 3 + n) throw new FrameError('length');
    return { ...base, kind: 'response', count: n / 2, values: words(body, 3, n / 2) };
  }
  if (fn === 6) {
    if (body.length !== 6) throw new FrameError('length');
    return { ...base, kind: 'response', address: word(body, 2), values: [word(body, 4)] };
  }
  if (fn === 16) {
    if (body.length !== 6) throw new FrameError('length');
    return { ...base, kind: 'response', address: word(body, 2), count: word(body, 4) };
  }
  throw new FrameError('function');
}

/**
 * Decodes a frame whose direction is unknown: a read request and a read response of the same
 * function differ by shape (a request is 8 bytes; a response's third byte counts the data).
 */
export function parseFrame(frame: Bytes): ParsedFrame {
  const fn = frame[1] ?? 0;
  if (fn & 0x80) return parseResponse(frame);
  if ((fn === 3 || fn === 4) && frame.length === 8 && frame[2] !== 3) return parseRequest(frame);
  if (fn === 16 && frame.length === 8) return parseResponse(frame);
  try {
    return fn === 3 || fn === 4 ? parseResponse(frame) : parseRequest(frame);
  } catch {
    return parseRequest(frame);
  }
}

/** A register value read as signed 16-bit. */
export function signed16(v: number): number {
  return v & 0x8000 ? v - 0x10000 : v;
}
