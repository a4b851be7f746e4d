/**
 * The outbound policy on its own: the class of many address spellings, and `resolve` through the
 * real system resolver (names, inet_aton forms, brackets, IPv4-mapped and NAT64 IPv6).
 */
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../src/server/net/address-classes';
import {
  createOutboundPolicy,
  OutboundDnsError,
  OutboundRefusedError,
  type RefusedClass,
} from '../../../src/server/net/outbound-policy';

const strict = createOutboundPolicy({ allowPrivateNetworks: false });
const lenient = createOutboundPolicy({ allowPrivateNetworks: true });

async function refusal(policy: typeof strict, host: string): Promise<RefusedClass | 'allowed' | 'dns'> {
  try {
    await policy.resolve(host, { port: 80 });
    return 'allowed';
  } catch (error) {
    if (error instanceof OutboundRefusedError) return error.refused;
    if (error instanceof OutboundDnsError) return 'dns';
    throw error;
  }
}

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'private'],
    ['127.255.255.254', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['::1', 'private'],
    ['0:0:0:0:0:0:0:1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['0:0:0:0:0:ffff:7f00:1', 'private'],
    ['::FFFF:10.0.0.1', 'private'],
    ['64:ff9b::127.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.170.2', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['FE80::1%eth0', 'link-local'],
    ['fd00:ec2::254', 'link-local'],
    ['100.100.100.200', 'link-local'],
    ['168.63.129.16', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['0.1.2.3', 'reserved'],
    ['::', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['239.255.255.250', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2606:4700::1%eth0', 'reserved'],
    ['not an address', 'reserved'],
    ['127.1', 'reserved'], // not an IP address to node:net: resolve() turns it into one first
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2002:808:808::', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('resolve, private networks refused', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    '127.0.0.1',
    '127.1',
    '127.0.1',
    '0x7f.1',
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '017700000001',
    '[::1]',
    '::1',
    '[0:0:0:0:0:0:0:1]',
    '::ffff:127.0.0.1',
    '[::ffff:7f00:1]',
    '64:ff9b::7f00:1',
    '10.0.0.1',
    '192.168.0.1',
    '172.20.0.1',
    '100.64.0.1',
    'fd12::1',
  ])('%s is refused as private', async (host) => {
    expect(await refusal(strict, host)).toBe('private');
  });

  it('names the host and port, and the setting that would allow it', async () => {
    const error = await strict.resolve('localhost', { port: 5432 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toBe(
      'Refused by the network policy: localhost:5432 is a loopback or private network address, ' +
        'which this server does not allow connections to (CONNECTOR_PRIVATE_NETWORKS)',
    );
    const v6 = await strict.resolve('[::1]', { port: 22 }).catch((e: unknown) => e);
    expect((v6 as Error).message).toContain('[::1]:22 is a loopback');
  });

  it('lets public addresses through', async () => {
    for (const host of ['8.8.8.8', '[2606:4700:4700::1111]', '64:ff9b::808:808', '134744072']) {
      expect(await refusal(strict, host), host).toBe('allowed');
    }
  });
});

describe('resolve, private networks allowed', () => {
  it.each(['localhost', '127.0.0.1', '[::1]', '10.0.0.1', '::ffff:127.0.0.1'])('%s is allowed', async (host) => {
    expect(await refusal(lenient, host)).toBe('allowed');
  });

  it.each([
    '169.254.169.254',
    '[::ffff:169.254.169.254]',
    '::ffff:a9fe:a9fe',
    '0xa9fea9fe',
    '2852039166',
    '169.254.43518',
    '0251.0376.0251.0376',
    'fd00:ec2::254',
    '[fe80::1]',
    '100.100.100.200',
    '64:ff9b::a9fe:a9fe',
  ])('%s (cloud metadata, link-local) is still refused', async (host) => {
    expect(await refusal(lenient, host)).toBe('link-local');
  });

  it.each(['0.0.0.0', '0', '[::]', '224.0.0.1', '255.255.255.255', 'ff02::1'])(
    '%s (this network, multicast, broadcast) is still refused',
    async (host) => {
      expect(await refusal(lenient, host)).toBe('reserved');
    },
  );
});

describe('resolve failures', () => {
  it('a name that does not resolve is a DNS error naming the host', async () => {
    const error = await strict.resolve('no-such-host.invalid').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundDnsError);
    expect((error as Error).message).toMatch(/^DNS lookup of no-such-host\.invalid failed \(E[A-Z_]+\)$/);
  });

  it('an empty host or one with control characters never reaches a socket', async () => {
    expect(await refusal(lenient, '')).toBe('dns');
    expect(await refusal(lenient, ' ')).toBe('dns');
    expect(await refusal(lenient, 'local\nhost')).toBe('dns');
  });
});
