import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataEncryptionEnv, dataKeyId, maskSecret, SecretBox, SecretUnreadable } from '../../src/secret-box';

const KEY_A = 'a-data-encryption-key-of-32-characters-or-more';
const KEY_B = 'the-next-data-encryption-key-after-a-rotation!';
const KEY_C = 'a-third-data-encryption-key-for-the-second-turn';

/** A value in the first format (`v1.<iv>.<tag>.<ciphertext>`, no key id), as databases written before the key ring hold them. */
function sealV1(secret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(secret).digest(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

describe('SecretBox', () => {
  const box = new SecretBox(KEY_A);

  it('opens what it sealed, and never stores the plain text', () => {
    const sealed = box.seal('Shared-Pass-2026 ✓');
    expect(sealed).not.toContain('Shared-Pass');
    expect(box.open(sealed)).toBe('Shared-Pass-2026 ✓');
    // A fresh IV every time: the same secret never seals to the same text.
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('names the key in every sealed value: an id derived from the key that reveals nothing of it', () => {
    expect(box.seal('x').split('.').slice(0, 2)).toEqual(['v2', dataKeyId(KEY_A)]);
    expect(dataKeyId(KEY_A)).toMatch(/^[0-9a-f]{8}$/);
    expect(dataKeyId(KEY_A)).not.toBe(dataKeyId(KEY_B));
    expect(KEY_A).not.toContain(dataKeyId(KEY_A));
  });

  it("tells the ring's status by ids and a count only: the current key's id and how many older keys still open", () => {
    expect(box.status).toEqual({ id: dataKeyId(KEY_A), oldKeys: 0 });
    const rotated = new SecretBox(KEY_C, [KEY_B, KEY_A, KEY_C]);
    // The current key listed again among the old ones is not an older key.
    expect(rotated.status).toEqual({ id: dataKeyId(KEY_C), oldKeys: 2 });
    for (const key of [KEY_A, KEY_B, KEY_C]) expect(JSON.stringify(rotated.status)).not.toContain(key);
  });

  it('refuses a tampered value and one sealed under another key', () => {
    const sealed = box.seal('123456');
    const parts = sealed.split('.');
    parts[4] = Buffer.from('654321').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow('damaged');
    expect(() => new SecretBox('another-key-of-at-least-32-characters-long').open(sealed)).toThrow(SecretUnreadable);
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
  });

  it('seals with the newest key and still opens values of the old keys, v1 ones (no key id) included', () => {
    const old = new SecretBox(KEY_A).seal('sealed-under-a');
    const v1 = sealV1(KEY_A, 'v1-under-a');
    const ring = new SecretBox(KEY_B, [KEY_A]);
    expect(ring.keyId).toBe(dataKeyId(KEY_B));
    expect(ring.seal('new').split('.')[1]).toBe(dataKeyId(KEY_B));
    expect(ring.open(old)).toBe('sealed-under-a');
    expect(ring.open(v1)).toBe('v1-under-a');
    // A value of the newest key needs no old key to open.
    expect(new SecretBox(KEY_B).open(ring.seal('new'))).toBe('new');
  });

  it('names the missing key in a typed 503, never a bare failure', () => {
    const sealed = new SecretBox(KEY_A).seal('lost');
    const withoutA = new SecretBox(KEY_B, [KEY_C]);
    let error: unknown;
    try {
      withoutA.open(sealed, 'The QPay client secret');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SecretUnreadable);
    expect(error).toMatchObject({ status: 503, keyId: dataKeyId(KEY_A) });
    expect((error as Error).message).toBe(`The QPay client secret was sealed with key ${dataKeyId(KEY_A)}, which is not in DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_OLD_KEYS`);
    expect(() => withoutA.open(sealV1(KEY_A, 'lost'))).toThrow('v1, without a key id');
  });

  it('shows an unreadable value as such, for lists that must still show every other row', () => {
    const withoutA = new SecretBox(KEY_B);
    expect(withoutA.openForView(withoutA.seal('readable'))).toEqual({ plain: 'readable', unreadable: null });
    expect(withoutA.openForView(box.seal('lost'), 'The password')).toEqual({ plain: null, unreadable: expect.stringContaining(`sealed with key ${dataKeyId(KEY_A)}`) });
  });

  it('re-seals a value of an old key (or v1) with the newest, and leaves a current one alone', () => {
    const ring = new SecretBox(KEY_B, [KEY_A]);
    for (const old of [box.seal('rotate-me'), sealV1(KEY_A, 'rotate-me')]) {
      const resealed = ring.reseal(old)!;
      expect(resealed.split('.').slice(0, 2)).toEqual(['v2', ring.keyId]);
      expect(new SecretBox(KEY_B).open(resealed)).toBe('rotate-me');
    }
    expect(ring.reseal(ring.seal('current'))).toBeNull();
    expect(() => new SecretBox(KEY_C).reseal(box.seal('lost'))).toThrow(SecretUnreadable);
  });

  it('masks to the last four characters, and hides short secrets whole', () => {
    expect(maskSecret('cs_c6185b59438c7575312024fc3772c4f82d397da4')).toBe('••••7da4');
    expect(maskSecret('123456')).toBe('••••');
    expect(maskSecret('')).toBe('');
  });

  it('refuses a short key', () => {
    expect(() => new SecretBox('short')).toThrow('at least 32');
  });
});

describe('the key ring settings', () => {
  const schema = z.object(dataEncryptionEnv);

  it('reads the old keys as a comma list, none when unset', () => {
    expect(schema.parse({ DATA_ENCRYPTION_KEY: KEY_B })).toEqual({ DATA_ENCRYPTION_KEY: KEY_B, DATA_ENCRYPTION_OLD_KEYS: [] });
    expect(schema.parse({ DATA_ENCRYPTION_KEY: KEY_C, DATA_ENCRYPTION_OLD_KEYS: ` ${KEY_B}, ${KEY_A} ` }).DATA_ENCRYPTION_OLD_KEYS).toEqual([KEY_B, KEY_A]);
  });

  it('refuses placeholders and short values, the old keys too', () => {
    for (const bad of ['', 'short', 'replace-with-32-or-more-random-characters', 'change-me-to-a-third-long-random-secret-32+']) {
      expect(schema.safeParse({ DATA_ENCRYPTION_KEY: bad }).success, bad).toBe(false);
    }
    const result = schema.safeParse({ DATA_ENCRYPTION_KEY: KEY_B, DATA_ENCRYPTION_OLD_KEYS: `${KEY_A},change-me` });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['DATA_ENCRYPTION_OLD_KEYS', 'key 2 must be at least 32 characters']]);
  });
});
