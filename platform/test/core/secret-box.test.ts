import { describe, expect, it } from 'vitest';
import { maskSecret, SecretBox } from '../../src/secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('a-data-encryption-key-of-32-characters-or-more');

  it('opens what it sealed, and never stores the plain text', () => {
    const sealed = box.seal('Shared-Pass-2026 ✓');
    expect(sealed).not.toContain('Shared-Pass');
    expect(box.open(sealed)).toBe('Shared-Pass-2026 ✓');
    // A fresh IV every time: the same secret never seals to the same text.
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered value and one sealed under another key', () => {
    const sealed = box.seal('123456');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('654321').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox('another-key-of-at-least-32-characters-long').open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
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
