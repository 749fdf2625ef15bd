import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, parseIpv4, parseIpv6 } from '../../src/webhooks/url-guard';

const production = { production: true };
const staging = { production: false };
const allowed = (url: string, options = production) => checkWebhookUrl(url, options).ok;

describe('webhook URL guard in production (decisions §6)', () => {
  it('accepts https to public hosts and addresses', () => {
    for (const url of [
      'https://hooks.example.com/pix?token=abc',
      'https://api.loja.com.br:8443/webhooks/connectpsp',
      'https://8.8.8.8/hook',
      'https://[2606:4700:4700::1111]/hook',
      'https://HOOKS.Example.COM./x',
      'https://172.32.0.1/', // just outside 172.16/12
      'https://100.128.0.1/', // just outside 100.64/10
    ]) {
      expect(allowed(url), url).toBe(true);
    }
  });

  it('refuses anything but https', () => {
    for (const url of ['http://hooks.example.com/x', 'ftp://hooks.example.com/x', 'javascript:alert(1)']) {
      expect(allowed(url), url).toBe(false);
    }
    expect(checkWebhookUrl('http://hooks.example.com/x', production)).toEqual({
      ok: false,
      reason: 'must use https',
    });
  });

  it('refuses loopback, private, link-local, CGNAT, unspecified and reserved IPv4', () => {
    for (const host of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.10',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.127.255.255',
      '100.100.100.200', // Alibaba metadata
      '0.0.0.0',
      '192.0.0.192', // Oracle metadata
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(allowed(`https://${host}/hook`), host).toBe(false);
    }
  });

  it('sees through decimal, hex, octal and short IPv4 spellings', () => {
    for (const host of [
      '2130706433', // 127.0.0.1
      '0x7f000001',
      '0x7f.1',
      '0177.0.0.1',
      '127.1',
      '0',
      '017700000001',
      '0xa9.0xfe.0xa9.0xfe', // 169.254.169.254
      '2852039166', // 169.254.169.254
      '0251.0376.0251.0376',
      '127.0.0.1.', // trailing dot
    ]) {
      expect(allowed(`https://${host}/hook`), host).toBe(false);
    }
  });

  it('refuses loopback, unique-local, link-local and IPv4-carrying IPv6', () => {
    for (const host of [
      '[::1]',
      '[::]',
      '[0:0:0:0:0:0:0:1]',
      '[fc00::1]',
      '[fd00:ec2::254]', // AWS IPv6 metadata
      '[fe80::1]',
      '[febf::1]',
      '[ff02::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::ffff:169.254.169.254]',
      '[::ffff:a9fe:a9fe]',
      '[0:0:0:0:0:ffff:10.0.0.1]',
      '[::ffff:0:192.168.0.1]',
      '[::127.0.0.1]',
      '[64:ff9b::10.0.0.1]',
      '[2002:7f00:1::]', // 6to4 of 127.0.0.1
      '[2001:db8::1]',
    ]) {
      expect(allowed(`https://${host}/hook`), host).toBe(false);
    }
    expect(allowed('https://[::ffff:8.8.8.8]/hook')).toBe(true);
  });

  it('refuses local and metadata host names and single-label hosts', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'localhost.',
      'api.localhost',
      'metadata.google.internal',
      'metadata',
      'instance-data',
      'printer.local',
      'db.internal',
      'router.home.arpa',
      'intranet',
    ]) {
      expect(allowed(`https://${host}/hook`), host).toBe(false);
    }
  });

  it('refuses what is not an absolute URL', () => {
    expect(checkWebhookUrl('not a url', production)).toEqual({
      ok: false,
      reason: 'must be an absolute URL',
    });
    expect(allowed('/relative/path')).toBe(false);
  });
});

describe('webhook URL guard in staging', () => {
  it('lets local receivers through over http', () => {
    for (const url of [
      'http://127.0.0.1:9000/hook',
      'http://localhost:3000/x',
      'https://hooks.example.com',
    ]) {
      expect(allowed(url, staging), url).toBe(true);
    }
  });

  it('still wants an http(s) URL', () => {
    expect(allowed('ftp://127.0.0.1/x', staging)).toBe(false);
    expect(allowed('not a url', staging)).toBe(false);
  });
});

describe('address parsers', () => {
  it('parses every inet_aton IPv4 form and nothing else', () => {
    expect(parseIpv4('127.0.0.1')).toBe(0x7f000001);
    expect(parseIpv4('127.1')).toBe(0x7f000001);
    expect(parseIpv4('127.0.1')).toBe(0x7f000001);
    expect(parseIpv4('0x7f.0.0.0x1')).toBe(0x7f000001);
    expect(parseIpv4('4294967295')).toBe(0xffffffff);
    expect(parseIpv4('4294967296')).toBeUndefined();
    expect(parseIpv4('256.0.0.1')).toBeUndefined();
    expect(parseIpv4('1.2.3.4.5')).toBeUndefined();
    expect(parseIpv4('example.com')).toBeUndefined();
    expect(parseIpv4('08.1.1.1')).toBeUndefined();
  });

  it('parses IPv6 with compression and dotted tails', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6('2001:db8::')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1::2::3')).toBeUndefined();
    expect(parseIpv6('1:2:3:4:5:6:7')).toBeUndefined();
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIpv6('fe80::1%eth0')).toBeUndefined();
    expect(parseIpv6('::ffff:300.0.0.1')).toBeUndefined();
  });
});
