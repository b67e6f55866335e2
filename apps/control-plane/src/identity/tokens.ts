import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session secrets, invite and email verification tokens. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens carry 256 random bits, so one SHA-256 is enough to store them (nothing to brute-force). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Deliberately simple: one @, something on both sides, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export function passwordErrors(password: string): string[] {
  if (password.length < PASSWORD_MIN) return [`Password is too short (minimum is ${PASSWORD_MIN} characters)`];
  if (password.length > PASSWORD_MAX) return [`Password is too long (maximum is ${PASSWORD_MAX} characters)`];
  return [];
}
