import {
  PUBLIC_TARGETS_ONLY,
  WebhookTargetError,
  assertWebhookTarget,
  assertWebhookUrl,
  guardedLookup,
  nonPublicRangeOf,
} from './webhook-target-guard';

const resolvingTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('nonPublicRangeOf', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['not an address', 'invalid'],
  ])('refuses %s as %s', (address, range) => {
    expect(nonPublicRangeOf(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'accepts the public address %s',
    (address) => {
      expect(nonPublicRangeOf(address)).toBeNull();
    },
  );
});

describe('assertWebhookUrl', () => {
  it.each(['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])(
    'refuses %s',
    (url) => {
      expect(() => assertWebhookUrl(url, PUBLIC_TARGETS_ONLY)).toThrow(WebhookTargetError);
    },
  );

  it('refuses credentials in the URL', () => {
    expect(() => assertWebhookUrl('https://user:pw@example.com/', PUBLIC_TARGETS_ONLY)).toThrow(
      /credentials/,
    );
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::ffff:7f00:1]/',
    'http://2130706433/',
    'http://0x7f.1/',
  ])('refuses the non-public literal %s', (url) => {
    expect(() => assertWebhookUrl(url, PUBLIC_TARGETS_ONLY)).toThrow(/must be public/);
  });

  it('allows a private literal when the operator allows private targets', () => {
    expect(
      assertWebhookUrl('http://127.0.0.1:8080/hook', { allowPrivate: true, allowlist: [] }).port,
    ).toBe('8080');
  });

  it('allows an address inside an allowlisted range and nothing else', () => {
    const policy = { allowPrivate: false, allowlist: ['10.20.0.0/16'] };
    expect(() => assertWebhookUrl('http://10.20.3.4/', policy)).not.toThrow();
    expect(() => assertWebhookUrl('http://10.21.3.4/', policy)).toThrow(WebhookTargetError);
  });

  it('allows exactly the allowlisted address and port, and no other port or address', () => {
    const policy = { allowPrivate: false, allowlist: ['127.0.0.1:3003', '[::1]:3003'] };
    expect(assertWebhookUrl('http://127.0.0.1:3003/webhooks/demo', policy).port).toBe('3003');
    expect(() => assertWebhookUrl('http://[::1]:3003/webhooks/demo', policy)).not.toThrow();
    expect(() => assertWebhookUrl('http://127.0.0.1:9200/_bulk', policy)).toThrow(/must be public/);
    expect(() => assertWebhookUrl('http://127.0.0.1/', policy)).toThrow(/must be public/);
    expect(() => assertWebhookUrl('http://127.0.0.2:3003/', policy)).toThrow(/must be public/);
    expect(() => assertWebhookUrl('https://[::1]/', policy)).toThrow(/must be public/);
  });

  it('never extends an address:port entry to a host name resolving to that address', async () => {
    await expect(
      assertWebhookTarget(
        'http://localhost:3003/',
        { allowPrivate: false, allowlist: ['127.0.0.1:3003'] },
        resolvingTo('127.0.0.1'),
      ),
    ).rejects.toThrow(/must be public/);
  });
});

describe('assertWebhookTarget', () => {
  it('refuses a host when any of its addresses is private', async () => {
    await expect(
      assertWebhookTarget(
        'https://hooks.example.com/x',
        PUBLIC_TARGETS_ONLY,
        resolvingTo('93.184.216.34', '10.0.0.5'),
      ),
    ).rejects.toThrow('hooks.example.com resolves to 10.0.0.5, a private address');
  });

  it('accepts a host whose addresses are all public', async () => {
    const url = await assertWebhookTarget(
      'https://hooks.example.com/x',
      PUBLIC_TARGETS_ONLY,
      resolvingTo('93.184.216.34', '2606:4700::1111'),
    );
    expect(url.hostname).toBe('hooks.example.com');
  });

  it('accepts an allowlisted host name whatever it resolves to', async () => {
    await expect(
      assertWebhookTarget(
        'https://n8n.internal/x',
        { allowPrivate: false, allowlist: ['N8N.internal'] },
        resolvingTo('10.0.0.5'),
      ),
    ).resolves.toBeInstanceOf(URL);
  });

  it('refuses a host that does not resolve', async () => {
    await expect(
      assertWebhookTarget('https://nowhere.invalid/', PUBLIC_TARGETS_ONLY, async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow(/could not be resolved/);
  });

  const failing = (code: string) => async () => {
    throw Object.assign(new Error(`getaddrinfo ${code} example.invalid`), { code });
  };

  it.each(['ENOTFOUND', 'ENODATA', 'EAI_NONAME'])(
    'says in words that a host name was not found (%s), not what the resolver said',
    async (code) => {
      await expect(
        assertWebhookTarget('https://example.invalid/hook', PUBLIC_TARGETS_ONLY, failing(code)),
      ).rejects.toThrow(
        new WebhookTargetError(
          'The host name example.invalid could not be found (DNS). Check the URL.',
        ),
      );
    },
  );

  it('says to try again when the DNS lookup failed for now', async () => {
    await expect(
      assertWebhookTarget('https://example.invalid/', PUBLIC_TARGETS_ONLY, failing('EAI_AGAIN')),
    ).rejects.toThrow(
      'The host name example.invalid could not be resolved: the DNS lookup failed for now. Try again in a moment.',
    );
  });

  it('says that a host name without an address has none', async () => {
    await expect(
      assertWebhookTarget('https://example.invalid/', PUBLIC_TARGETS_ONLY, async () => []),
    ).rejects.toThrow('The host name example.invalid has no address (DNS). Check the URL.');
  });
});

describe('guardedLookup', () => {
  function lookupWith(addresses: string[], all: boolean) {
    const lookup = guardedLookup(PUBLIC_TARGETS_ONLY, resolvingTo(...addresses)) as unknown as (
      host: string,
      options: { all?: boolean },
      callback: (...args: unknown[]) => void,
    ) => void;
    return new Promise<unknown[]>((resolve) =>
      lookup('hooks.example.com', { all }, (...args) => resolve(args)),
    );
  }

  it('hands the socket the checked addresses', async () => {
    expect(await lookupWith(['93.184.216.34'], false)).toEqual([null, '93.184.216.34', 4]);
    expect(await lookupWith(['93.184.216.34'], true)).toEqual([
      null,
      [{ address: '93.184.216.34', family: 4 }],
    ]);
  });

  it('fails the connection when the name now points to a private address', async () => {
    const [error] = await lookupWith(['169.254.169.254'], false);
    expect(error).toBeInstanceOf(WebhookTargetError);
  });
});
