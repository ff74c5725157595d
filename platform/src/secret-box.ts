import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { secretSetting } from './config';
import { AppError } from './errors';

/** The id a sealed value names its key by: derived from the key, so nothing else is configured, and revealing nothing of it. */
export function dataKeyId(secret: string): string {
  return createHmac('sha256', secret).update('data-encryption key id').digest('hex').slice(0, 8);
}

/**
 * A stored secret that cannot be opened: its key is not in the ring (or the value is damaged).
 * A 503 naming the key id, never a 500: the operator restores the key, or an admin enters the
 * secret again. Lists catch it and show the one record as unreadable (`openForView`).
 */
export class SecretUnreadable extends AppError {
  constructor(
    /** The key the value names; null for a v1 value (no id) or one that is not a sealed value at all. */
    readonly keyId: string | null,
    message: string,
  ) {
    super(503, 'secret_unreadable', message);
    this.name = 'SecretUnreadable';
  }
}

interface RingKey {
  id: string;
  key: Buffer;
}

const RING = 'DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_OLD_KEYS';

/**
 * Secrets kept in a service's own tables (QPay's client secret, a streaming account's passwords)
 * are sealed with AES-256-GCM under a key ring: DATA_ENCRYPTION_KEY seals everything new,
 * DATA_ENCRYPTION_OLD_KEYS only open. A sealed value is `v2.<keyId>.<iv>.<tag>.<ciphertext>`
 * (base64url); the tag makes a tampered or foreign value fail to open. Values of the first format,
 * `v1.<iv>.<tag>.<ciphertext>`, name no key and are tried with every key of the ring.
 * `make rotate-data-key` re-seals every stored value with the newest key.
 */
export class SecretBox {
  private readonly current: RingKey;
  /** Every key that opens, the current one first. */
  private readonly ring = new Map<string, RingKey>();

  constructor(currentKey: string, oldKeys: readonly string[] = []) {
    for (const secret of [currentKey, ...oldKeys]) {
      if (secret.length < 32) throw new Error('DATA_ENCRYPTION_KEY must be at least 32 characters');
      // Any long random string works as the setting; the cipher needs exactly 32 bytes.
      const entry = { id: dataKeyId(secret), key: createHash('sha256').update(secret).digest() };
      if (!this.ring.has(entry.id)) this.ring.set(entry.id, entry);
    }
    this.current = this.ring.get(dataKeyId(currentKey))!;
  }

  static fromConfig(config: DataEncryptionConfig): SecretBox {
    return new SecretBox(config.DATA_ENCRYPTION_KEY, config.DATA_ENCRYPTION_OLD_KEYS);
  }

  /** The id of the key new values are sealed with. */
  get keyId(): string {
    return this.current.id;
  }

  /**
   * What an admin may see of the ring (the config-status page): the current key's id and how many
   * older keys still open values, never a key. An old key equal to the current one is not counted.
   */
  get status(): { id: string; oldKeys: number } {
    return { id: this.current.id, oldKeys: this.ring.size - 1 };
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', this.current.id, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join('.');
  }

  /** The plain text; `what` names the secret in the error (e.g. "The QPay client secret"). */
  open(sealed: string, what = 'This secret'): string {
    const parts = sealed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const [, keyId, iv, tag, body] = parts;
      const entry = this.ring.get(keyId);
      if (!entry) throw new SecretUnreadable(keyId, `${what} was sealed with key ${keyId}, which is not in ${RING}`);
      const plain = decrypt(entry.key, iv, tag, body);
      if (plain === null) throw new SecretUnreadable(keyId, `${what} does not open with key ${keyId}: the stored value is damaged`);
      return plain;
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      const [, iv, tag, body] = parts;
      for (const entry of this.ring.values()) {
        const plain = decrypt(entry.key, iv, tag, body);
        if (plain !== null) return plain;
      }
      throw new SecretUnreadable(null, `${what} was sealed (v1, without a key id) with a key that is not in ${RING}`);
    }
    throw new SecretUnreadable(null, `${what} is not a sealed secret`);
  }

  /** For a list or a settings page: the plain text, or why this one value cannot be shown (the rest of the page still can). */
  openForView(sealed: string, what?: string): { plain: string; unreadable: null } | { plain: null; unreadable: string } {
    try {
      return { plain: this.open(sealed, what), unreadable: null };
    } catch (error) {
      if (error instanceof SecretUnreadable) return { plain: null, unreadable: error.message };
      throw error;
    }
  }

  /** The value sealed with the current key, or null when it already is (rotation). Throws SecretUnreadable when it cannot be opened. */
  reseal(sealed: string, what?: string): string | null {
    if (sealed.startsWith(`v2.${this.current.id}.`)) {
      // Opened anyway, so a damaged value is reported rather than counted as current.
      this.open(sealed, what);
      return null;
    }
    return this.seal(this.open(sealed, what));
  }
}

function decrypt(key: Buffer, iv: string, tag: string, body: string): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** How a stored secret is shown: its last four characters at most, never the whole. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return `••••${secret.length > 8 ? secret.slice(-4) : ''}`;
}

/** A comma-separated list of secret settings (empty or unset: none). */
const secretList = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const values = (raw ?? '').split(',').map((value) => value.trim()).filter(Boolean);
    values.forEach((value, index) => {
      const result = secretSetting.safeParse(value);
      if (!result.success) ctx.addIssue({ code: 'custom', message: `key ${index + 1} ${result.error.issues[0].message}` });
    });
    return values;
  });

/** The settings of every service that seals secrets in its tables: `serviceEnvSchema.extend({ ...dataEncryptionEnv })`. */
export const dataEncryptionEnv = {
  /** Seals every new value (and opens those it sealed). */
  DATA_ENCRYPTION_KEY: secretSetting,
  /** Older keys, comma-separated: they only open values not yet re-sealed by `make rotate-data-key`. */
  DATA_ENCRYPTION_OLD_KEYS: secretList,
};
export interface DataEncryptionConfig {
  DATA_ENCRYPTION_KEY: string;
  DATA_ENCRYPTION_OLD_KEYS: string[];
}
