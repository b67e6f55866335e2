import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const key = () => randomBytes(32).toString('base64');

describe('SecretBox (AES-256-GCM)', () => {
  it('round-trips and never yields the plaintext in the ciphertext', () => {
    const box = new SecretBox(`k1:${key()}`);
    const sealed = box.encrypt('sk-live-secret');
    expect(sealed.keyId).toBe('k1');
    expect(Buffer.from(sealed.ciphertext, 'base64').toString('latin1')).not.toContain('sk-live-secret');
    expect(box.decrypt(sealed.keyId, sealed.ciphertext)).toBe('sk-live-secret');
    expect(box.encrypt('sk-live-secret').ciphertext).not.toBe(sealed.ciphertext);
  });

  it('encrypts with the first key and still decrypts with older ones (rotation)', () => {
    const old = key();
    const sealedBefore = new SecretBox(`k1:${old}`).encrypt('before');
    const rotated = new SecretBox(`k2:${key()},k1:${old}`);
    expect(rotated.decrypt('k1', sealedBefore.ciphertext)).toBe('before');
    expect(rotated.encrypt('after').keyId).toBe('k2');
  });

  it('rejects tampered ciphertext, unknown key ids and malformed settings', () => {
    const box = new SecretBox(`k1:${key()}`);
    const raw = Buffer.from(box.encrypt('value').ciphertext, 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => box.decrypt('k1', raw.toString('base64'))).toThrow();
    expect(() => box.decrypt('k9', box.encrypt('value').ciphertext)).toThrow('unknown encryption key id k9');
    expect(() => new SecretBox('k1:c2hvcnQ=')).toThrow('GATEWAY_ENCRYPTION_KEYS');
    expect(() => new SecretBox('')).toThrow('GATEWAY_ENCRYPTION_KEYS');
  });
});
