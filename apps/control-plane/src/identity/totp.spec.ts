import { base32Decode, base32Encode, hotp, matchTotp, provisioningUri, totpCode, totpStep } from './totp';

// RFC 6238 appendix B, SHA1 seed "12345678901234567890" (8-digit vectors; 6 digits are the tail).
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];

describe('TOTP', () => {
  it('matches the RFC 6238 SHA1 test vectors', () => {
    for (const [seconds, expected] of VECTORS) {
      expect(totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(expected);
      expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(expected.slice(-6));
    }
  });

  it('matches the RFC 4226 HOTP vectors', () => {
    const secret = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 9].map((c) => hotp(secret, c))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('round-trips base32', () => {
    const data = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
    expect(base32Decode(base32Encode(data))).toEqual(data);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });

  it('accepts the current step and one either side, nothing further', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    const at = (s: number) => hotp(base32Decode(RFC_SECRET), s);
    expect(matchTotp(RFC_SECRET, at(step), now, null)).toBe(step);
    expect(matchTotp(RFC_SECRET, at(step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, at(step + 1), now, null)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, at(step + 2), now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, at(step - 2), now, null)).toBeNull();
  });

  it('refuses a replayed code and malformed input', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    const code = hotp(base32Decode(RFC_SECRET), step);
    expect(matchTotp(RFC_SECRET, code, now, step)).toBeNull();
    expect(matchTotp(RFC_SECRET, code, now, step - 1)).toBe(step);
    expect(matchTotp(RFC_SECRET, '12345', now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, 'abcdef', now, null)).toBeNull();
  });

  it('builds an otpauth provisioning URI', () => {
    const uri = provisioningUri('Gateway', 'a@b.test', 'ABC');
    expect(uri).toBe('otpauth://totp/Gateway%3Aa%40b.test?secret=ABC&issuer=Gateway&algorithm=SHA1&digits=6&period=30');
  });
});
