import { describe, expect, it } from 'vitest';
import {
  FrameError,
  asciiToHex,
  binaryToHex,
  buildAscii,
  buildRequest,
  crc16,
  hexToAscii,
  hexToBinary,
  lrc,
  parseAscii,
  parseFrame,
  parseHex,
  parseRequest,
  parseResponse,
  signed16,
  toHex,
} from './modbus';

describe('CRC-16/Modbus (published examples)', () => {
  it('01 03 00 00 00 0A is C5 CD on the wire', () => {
    const frame = buildRequest({ slave: 1, fn: 3, address: 0, count: 10 });
    expect(toHex(frame)).toBe('01 03 00 00 00 0A C5 CD');
    expect(crc16(parseHex('01 03 00 00 00 0A'))).toBe(0xcdc5);
  });

  it('11 03 00 6B 00 03 is 76 87 on the wire (Modbus over serial line guide)', () => {
    expect(toHex(buildRequest({ slave: 0x11, fn: 3, address: 0x6b, count: 3 }))).toBe(
      '11 03 00 6B 00 03 76 87',
    );
  });

  it('the check string 123456789 is 0x4B37', () => {
    expect(crc16([...'123456789'].map((c) => c.charCodeAt(0)))).toBe(0x4b37);
  });
});

describe('LRC (Modbus ASCII)', () => {
  it(':F7031389000A60 has LRC 0x60', () => {
    const f = parseAscii(':F7031389000A60\r\n');
    expect(f.body).toEqual([0xf7, 0x03, 0x13, 0x89, 0x00, 0x0a]);
    expect(f.expectedLrc).toBe(0x60);
    expect(f.lrcOk).toBe(true);
    expect(lrc(f.body)).toBe(0x60);
  });

  it('a wrong LRC is reported and a frame is built back', () => {
    expect(parseAscii(':F7031389000A61').lrcOk).toBe(false);
    expect(buildAscii([0xf7, 0x03, 0x13, 0x89, 0x00, 0x0a])).toBe(':F7031389000A60\r\n');
    expect(() => parseAscii('F7031389000A60')).toThrow(FrameError);
  });
});

describe('conversions', () => {
  it('hex, binary and ASCII round trip', () => {
    expect(parseHex('0x01,0x03 0a')).toEqual([1, 3, 10]);
    expect(hexToBinary('A5 01')).toBe('10100101 00000001');
    expect(binaryToHex('10100101 00000001')).toBe('A5 01');
    expect(asciiToHex('Hi!')).toBe('48 69 21');
    expect(hexToAscii('48 69 21 00')).toBe('Hi!.');
    expect(signed16(0xfffe)).toBe(-2);
  });

  it('bad input is refused with a reason', () => {
    expect(() => parseHex('0G')).toThrow('notHex');
    expect(() => parseHex('123')).toThrow('oddHex');
    expect(() => binaryToHex('1010')).toThrow('binaryLength');
    expect(() => asciiToHex('é')).toThrow('notAscii');
  });
});

describe('RTU builder', () => {
  it('write single and write multiple registers', () => {
    // Modbus application protocol spec examples (function 06 and 16), CRC appended.
    const single = buildRequest({ slave: 0x11, fn: 6, address: 1, values: [3] });
    expect(toHex(single.slice(0, 6))).toBe('11 06 00 01 00 03');
    expect(parseRequest(single)).toMatchObject({ fn: 6, address: 1, values: [3], crcOk: true });
    const multi = buildRequest({ slave: 0x11, fn: 16, address: 1, values: [0x000a, 0x0102] });
    expect(toHex(multi.slice(0, -2))).toBe('11 10 00 01 00 02 04 00 0A 01 02');
    expect(parseRequest(multi)).toMatchObject({ count: 2, values: [10, 258], crcOk: true });
  });

  it('refuses out-of-range fields', () => {
    expect(() => buildRequest({ slave: 248, fn: 3, address: 0, count: 1 })).toThrow('slave');
    expect(() => buildRequest({ slave: 1, fn: 3, address: 0, count: 126 })).toThrow('count');
    expect(() => buildRequest({ slave: 1, fn: 6, address: 0, values: [70000] })).toThrow('values');
  });
});

describe('RTU parser', () => {
  it('reads a published read-holding response (11 03 06 AE41 5652 4340)', () => {
    const body = parseHex('11 03 06 AE 41 56 52 43 40');
    const frame = [...body, 0x49, 0xad];
    const r = parseResponse(frame);
    expect(r).toMatchObject({ kind: 'response', slave: 0x11, fn: 3, count: 3 });
    expect(r.values).toEqual([0xae41, 0x5652, 0x4340]);
    expect(r.crcOk).toBe(true);
    expect(toHex([r.crc & 0xff, r.crc >> 8])).toBe('49 AD');
  });

  it('tells requests from responses and reads exceptions', () => {
    expect(parseFrame(parseHex('01 03 00 00 00 0A C5 CD'))).toMatchObject({
      kind: 'request',
      address: 0,
      count: 10,
      crcOk: true,
    });
    // Exception 02 (illegal data address) to a read of holding registers.
    const ex = [0x01, 0x83, 0x02];
    const frame = [...ex, crc16(ex) & 0xff, crc16(ex) >> 8];
    expect(toHex(frame)).toBe('01 83 02 C0 F1');
    expect(parseFrame(frame)).toMatchObject({ kind: 'exception', fn: 3, exception: 2 });
  });

  it('reports a bad CRC without throwing', () => {
    const r = parseFrame(parseHex('01 03 00 00 00 0A C5 CE'));
    expect(r.crcOk).toBe(false);
    expect(r.expectedCrc).toBe(0xcdc5);
  });

  it('refuses frames of the wrong length', () => {
    expect(() => parseResponse(parseHex('01 03 04 00 01 00'))).toThrow(FrameError);
    expect(() => parseRequest(parseHex('01'))).toThrow('tooShort');
  });
});
