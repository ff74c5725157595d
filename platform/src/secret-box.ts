import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * Secrets kept in a service's own tables (QPay's client secret, a streaming account's password)
 * are sealed with AES-256-GCM under the process's DATA_ENCRYPTION_KEY. A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; the tag makes a tampered or foreign value fail to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('DATA_ENCRYPTION_KEY must be at least 32 characters');
    // Any long random string works as the setting; the cipher needs exactly 32 bytes.
    this.key = createHash('sha256').update(secret).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** How a stored secret is shown: its last four characters at most, never the whole. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return `••••${secret.length > 8 ? secret.slice(-4) : ''}`;
}

/** The setting of every service that seals secrets in its tables. */
export const dataEncryptionKeySchema = z.string().min(32, 'must be at least 32 characters');
