import { describe, expect, it } from 'vitest';
import { newGatewayBody } from './api';
import { gatewayKey, gatewayProblem, gatewaySn, parseLines } from './rules';

describe('gateway rules', () => {
  it('take an SN of letters, digits and - of 6 to 32 characters, as the server does', () => {
    expect(gatewaySn('GW-2024-01')).toBeNull();
    expect(gatewaySn(' ABC123 ')).toBeNull();
    expect(gatewaySn('AB-12')).toEqual({ key: 'sysGateways.rule.sn' });
    expect(gatewaySn('GW_2024_01')).toEqual({ key: 'sysGateways.rule.sn' });
    expect(gatewaySn('A'.repeat(33))).toEqual({ key: 'sysGateways.rule.sn' });
  });

  it('take a new key of 8 to 32 visible characters, 4 different, not a straight run', () => {
    expect(gatewayKey('k3y!-2024')).toBeNull();
    expect(gatewayKey('k3y!')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('aaaaaaaa')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('abababab')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('12345678')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('hgfedcba')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('abc')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('has space')).toEqual({ key: 'sysGateways.rule.key' });
    expect(gatewayKey('é-key-0001')).toEqual({ key: 'sysGateways.rule.key' });
  });

  it('limit the optional fields', () => {
    expect(gatewayProblem({ sn: 'GW-000001', key: 'key-0001', commType: 'x'.repeat(17) })).toEqual({
      key: 'sysGateways.rule.tooLong',
      values: { max: 16 },
    });
    expect(gatewayProblem({ sn: 'GW-000001', key: 'key-0001', commType: 'wifi' })).toBeNull();
    // characters, as the server counts them: 32 emoji are 64 UTF-16 units
    expect(gatewayProblem({ sn: 'GW-000001', key: 'key-0001', model: '🔆'.repeat(32) })).toBeNull();
  });

  it('send trimmed fields and leave empty optional ones out', () => {
    expect(
      newGatewayBody({ sn: ' GW-1x2y3z ', key: ' key-0001 ', model: ' ', protocol: 'p1' }),
    ).toEqual({ sn: 'GW-1x2y3z', key: 'key-0001', protocol: 'p1' });
  });
});

describe('parseLines', () => {
  it('reads SN,KEY[,model,commType,protocol] with commas, semicolons or tabs, skipping blank lines', () => {
    const lines = parseLines(
      'GW-000001,key-0001,M1,wifi,modbus\n\nGW-000002;key-0002\nGW-000003\tkey-0003\tM3',
    );
    expect(lines.map((l) => [l.line, l.gateway.sn, l.gateway.key, l.problem])).toEqual([
      [1, 'GW-000001', 'key-0001', null],
      [3, 'GW-000002', 'key-0002', null],
      [4, 'GW-000003', 'key-0003', null],
    ]);
    expect(lines[0]?.gateway).toEqual({
      sn: 'GW-000001',
      key: 'key-0001',
      model: 'M1',
      commType: 'wifi',
      protocol: 'modbus',
    });
    expect(lines[2]?.gateway.model).toBe('M3');
  });

  it('names the problem of a bad line and of a repeated SN', () => {
    const lines = parseLines('GW-000001,key-0001\nbad,key-0002\nGW-000003\nGW-000001,key-0009');
    expect(lines.map((l) => l.problem?.key ?? null)).toEqual([
      null,
      'sysGateways.rule.sn',
      'sysGateways.rule.key',
      'sysGateways.rule.repeated',
    ]);
  });
});
