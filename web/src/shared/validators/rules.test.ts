import { describe, expect, it } from 'vitest';
import * as r from './rules';

const ok = (check: r.Check) => expect(check).toBeNull();
const bad = (check: r.Check, key: string) => expect(check?.key).toBe(key);

describe('number rules', () => {
  it('accepts a lone zero or integers without leading zeros as non-negative integers', () => {
    for (const v of ['0', '7', '120', 45]) ok(r.nonNegativeInteger(v));
    for (const v of ['00', '012', '-1', '1.5', '', 'a'])
      bad(r.nonNegativeInteger(v), 'validation.positiveInteger');
  });

  it('accepts positive integers without a leading zero', () => {
    ok(r.positiveInteger('1'));
    ok(r.positiveInteger('908'));
    for (const v of ['0', '01', '-3', '2.0'])
      bad(r.positiveInteger(v), 'validation.positiveInteger');
  });

  it('checks decimals with at most two places inside a range and names the range', () => {
    ok(r.decimalInRange('0', 0, 100));
    ok(r.decimalInRange('99.99', 0, 100));
    ok(r.decimalInRange('100', 0, 100));
    expect(r.decimalInRange('100.01', 0, 100)).toEqual({
      key: 'validation.range',
      values: { min: 0, max: 100 },
    });
    bad(r.decimalInRange('1.234', 0, 100), 'validation.decimals');
    bad(r.decimalInRange('01.5', 0, 100), 'validation.range');
    bad(r.decimalInRange('-1', 0, 100), 'validation.range');
    bad(r.decimalInRange('abc', 0, 100), 'validation.range');
  });

  it('checks integers inside a range', () => {
    ok(r.integerInRange('-5', -10, 10));
    bad(r.integerInRange('5.5', 0, 10), 'validation.range');
    bad(r.integerInRange('11', 0, 10), 'validation.range');
  });
});

describe('content rules', () => {
  it('accepts binary strings ignoring spaces', () => {
    ok(r.binaryOnly('0101 1100'));
    bad(r.binaryOnly('0102'), 'validation.legalContent');
  });
  it('accepts hexadecimal, letters-digits and ASCII content only', () => {
    ok(r.hexOnly('01 03 0A ff'));
    bad(r.hexOnly('0G'), 'validation.legalContent');
    ok(r.lettersDigitsOnly('Abc123'));
    bad(r.lettersDigitsOnly('abc-1'), 'validation.legalContent');
    ok(r.asciiOnly('Hello, world!'));
    bad(r.asciiOnly('温度'), 'validation.legalContent');
  });
});

describe('account rules', () => {
  it('accepts an email or a phone number as the login account', () => {
    ok(r.account('admin@example.com'));
    ok(r.account('13800138000'));
    ok(r.account('+447700900123'));
  });
  it('asks for a correct email or phone otherwise', () => {
    bad(r.account('admin@example'), 'validation.email');
    bad(r.account('plainname'), 'validation.email');
    bad(r.account('123'), 'validation.phone');
    bad(r.account(''), 'validation.accountRequired');
  });
  it('wants passwords of 6 to 16 characters without spaces', () => {
    ok(r.password('Admin1'));
    ok(r.password('a'.repeat(16)));
    bad(r.password('short'), 'validation.password');
    bad(r.password('a'.repeat(17)), 'validation.password');
    bad(r.password('with space'), 'validation.noSpaces');
    // signing in does not judge an older password, choosing one does
    ok(r.password('123456'));
    bad(r.newPassword('123456'), 'validation.passwordCommon');
    bad(r.newPassword('Password'), 'validation.passwordCommon');
    bad(r.newPassword('short'), 'validation.password');
    ok(r.newPassword('Admin12345'));
  });
  it('rejects a confirmation that differs', () => {
    ok(r.confirmMatches('Secret12', 'Secret12'));
    bad(r.confirmMatches('Secret12', 'secret12'), 'validation.passwordMismatch');
  });
});

describe('plant rules', () => {
  it('wants plant names of 5 to 32 characters', () => {
    ok(r.plantName('Roof1'));
    ok(r.plantName('光伏电站一号'));
    bad(r.plantName('Roof'), 'validation.length');
    bad(r.plantName('x'.repeat(33)), 'validation.length');
  });
  it('limits capacity to 0-50000 and price to 0-9999 with two decimals', () => {
    ok(r.capacity('50000'));
    bad(r.capacity('50000.1'), 'validation.range');
    ok(r.price('9999'));
    ok(r.price('0.15'));
    bad(r.price('0.155'), 'validation.decimals');
    bad(r.price('10000'), 'validation.range');
  });
  it('limits texts by length', () => {
    ok(r.maxLength('a'.repeat(20), 20));
    bad(r.maxLength('a'.repeat(21), 20), 'validation.maxLength');
  });
});

describe('time-of-use segments', () => {
  const seg = (start: string, end: string) => ({ start, end });
  it('accepts up to six contiguous segments ending at 24:00 or 23:59', () => {
    ok(r.touSegments([seg('00:00', '24:00')]));
    ok(r.touSegments([seg('00:00', '08:00'), seg('08:00', '23:59')]));
    ok(
      r.touSegments(
        ['00:00', '04:00', '08:00', '12:00', '16:00', '20:00'].map((s, i, a) =>
          seg(s, a[i + 1] ?? '24:00'),
        ),
      ),
    );
  });
  it('rejects more than six, gaps, reversed ranges and a wrong last end', () => {
    const seven = Array.from({ length: 7 }, (_, i) => seg(`0${i}:00`, `0${i + 1}:00`));
    bad(r.touSegments(seven), 'validation.touMax');
    bad(r.touSegments([]), 'validation.touRequired');
    bad(r.touSegments([seg('00:00', '08:00'), seg('09:00', '24:00')]), 'validation.touContiguous');
    bad(r.touSegments([seg('01:00', '24:00')]), 'validation.touContiguous');
    bad(r.touSegments([seg('00:00', '08:00'), seg('08:00', '07:00')]), 'validation.touRange');
    bad(r.touSegments([seg('00:00', '22:00')]), 'validation.touEnd');
    bad(r.touSegments([seg('00:00', '25:00')]), 'validation.touRange');
  });
});

describe('file rules', () => {
  const MB = 1024 * 1024;
  it('accepts JPG/JPEG/PNG avatars up to 6 MB', () => {
    ok(r.avatarFile({ name: 'me.JPG', size: 6 * MB }));
    ok(r.avatarFile({ name: 'me.png', size: 10 }));
    bad(r.avatarFile({ name: 'me.gif', size: 10 }), 'validation.imageType');
    expect(r.avatarFile({ name: 'me.jpeg', size: 6 * MB + 1 })).toEqual({
      key: 'validation.fileSize',
      values: { max: 6 },
    });
  });
  it('uses 10 MB for plant images and allows gif company logos', () => {
    ok(r.plantImageFile({ name: 'p.png', size: 10 * MB }));
    bad(r.plantImageFile({ name: 'p.png', size: 10 * MB + 1 }), 'validation.fileSize');
    ok(r.logoFile({ name: 'l.gif', size: 100 }));
  });
  it('accepts .bin/.hex firmware up to 1.5 MB with a plain name of at most 40 characters', () => {
    ok(r.firmwareFile({ name: 'gw_v1.2-3.bin', size: 1.5 * MB }));
    bad(r.firmwareFile({ name: 'gw.zip', size: 1 }), 'validation.firmwareType');
    bad(r.firmwareFile({ name: 'gw v1.bin', size: 1 }), 'validation.firmwareName');
    bad(r.firmwareFile({ name: `${'a'.repeat(37)}.bin`, size: 1 }), 'validation.firmwareName');
    bad(r.firmwareFile({ name: 'gw.hex', size: 1.5 * MB + 1 }), 'validation.fileSize');
  });
  it('wants firmware versions of letters, digits, - and _ and above the latest', () => {
    ok(r.firmwareVersion('V1_2-3'));
    bad(r.firmwareVersion('1.2'), 'validation.legalContent');
    ok(r.versionAbove('1.10', '1.9'));
    bad(r.versionAbove('1.9', '1.9'), 'validation.versionNotHigher');
    bad(r.versionAbove('1.2', '1.10'), 'validation.versionNotHigher');
    ok(r.versionAbove('1.0', null));
  });
});

describe('device and settings rules', () => {
  it('limits device names to 32 UTF-8 bytes', () => {
    ok(r.deviceName('a'.repeat(32)));
    bad(r.deviceName('a'.repeat(33)), 'validation.deviceName');
    ok(r.deviceName('逆'.repeat(10)));
    bad(r.deviceName('逆'.repeat(11)), 'validation.deviceName');
  });
  it('limits parameter values to 9999999 with the allowed decimals', () => {
    ok(r.parameterValue('9999999'));
    ok(r.parameterValue('9999999.00', 2));
    ok(r.parameterValue('-12.125', 3));
    bad(r.parameterValue('10000000'), 'validation.range');
    bad(r.parameterValue('1.5'), 'validation.integer');
    bad(r.parameterValue('1.555', 2), 'validation.decimals');
  });
  it('limits role names to 5 characters', () => {
    ok(r.roleName('运维'));
    ok(r.roleName('Admin'));
    bad(r.roleName('Admins'), 'validation.maxLength');
    bad(r.roleName(' '), 'validation.required');
  });
  it('checks energy hub account numbers and source account numbers', () => {
    ok(r.energyHubAccount('acct_01-x'));
    bad(r.energyHubAccount('Acct'), 'validation.energyHubAccount');
    bad(r.energyHubAccount('a'.repeat(17)), 'validation.maxLength');
    ok(r.energyHubAccount('a'.repeat(20), 20));
    ok(r.digitsOnly('0123'));
    bad(r.digitsOnly('12a'), 'validation.digitsOnly');
  });
});
