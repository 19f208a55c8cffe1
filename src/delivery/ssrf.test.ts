import { describe, expect, it } from 'vitest';
import { blockedReason, literalTargetProblem, parseCidrs } from './ssrf.js';

describe('SSRF address rules', () => {
  const blocked = [
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::1',
    '::ffff:0:a00:1',
  ];
  it.each(blocked)('refuses %s', (ip) => {
    expect(blockedReason(ip)).toMatch(/address/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('allows public %s', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });

  it('opens exactly the allowed ranges', () => {
    const allowed = parseCidrs(['127.0.0.1/32', '10.1.0.0/16']);
    expect(blockedReason('127.0.0.1', allowed)).toBeNull();
    expect(blockedReason('127.0.0.2', allowed)).not.toBeNull();
    expect(blockedReason('10.1.200.3', allowed)).toBeNull();
    expect(blockedReason('10.2.0.1', allowed)).not.toBeNull();
    expect(blockedReason('::ffff:127.0.0.1', allowed)).toBeNull();
  });

  it('reads literal hosts in every spelling the URL parser accepts', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:7f00:1]/',
      'http://localhost:8080/',
      'http://api.localhost/',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      expect(literalTargetProblem(url, []), url).not.toBeNull();
    }
    expect(literalTargetProblem('https://hooks.example.org/x', [])).toBeNull();
    expect(literalTargetProblem('http://localhost:8080/', parseCidrs(['127.0.0.0/8']))).toBeNull();
  });
});

describe('IPv6 beyond the named ranges', () => {
  it.each(['::127.0.0.1', '::a9fe:a9fe', '::10.0.0.1', '100::1', '3fff::1'])('refuses %s', (ip) => {
    expect(blockedReason(ip)).not.toBeNull();
  });

  it('allows an IPv4-compatible form of a public address only as that address', () => {
    expect(blockedReason('::8.8.8.8')).toBeNull();
  });
});
