import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for model api_keys at rest. Keys come from the environment as
 * `id:base64key[,id:base64key...]`; the first encrypts, all decrypt, and each ciphertext
 * stores its key id so keys can be rotated without re-encrypting everything at once.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(spec: string) {
    const entries = spec.split(',').map((part) => part.trim()).filter(Boolean);
    for (const entry of entries) {
      const [id, encoded] = entry.split(':');
      const key = Buffer.from(encoded ?? '', 'base64');
      if (!id || key.length !== 32) throw new Error('GATEWAY_ENCRYPTION_KEYS: each entry must be id:<32 bytes base64>');
      this.keys.set(id, key);
    }
    if (entries.length === 0) throw new Error('GATEWAY_ENCRYPTION_KEYS: at least one key is required');
    this.currentId = entries[0].split(':')[0];
  }

  encrypt(plaintext: string): { keyId: string; ciphertext: string } {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.currentId, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
  }

  decrypt(keyId: string, ciphertext: string): string {
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`unknown encryption key id ${keyId}`);
    const raw = Buffer.from(ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
