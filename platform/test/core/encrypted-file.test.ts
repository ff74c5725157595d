import { describe, expect, it } from 'vitest';
import type { FileEncryption } from '@bo/proto';
import { EncryptedFileRefused, keyOf, newFileEncryption, openChunks, sealChunks } from '../../src/migration-export';

/** An export's encryption (migration-export/encrypted-file.ts): what opens, and everything that must not. */
const PASSPHRASE = 'correct horse battery staple';

async function* piecesOf(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

async function sealed(text: string, encryption: FileEncryption, key: Buffer, pieceSize = 1000): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of sealChunks(piecesOf(text, pieceSize), encryption, key)) chunks.push(chunk);
  return chunks;
}

describe('an encrypted export file', () => {
  it('opens to the same text, whatever the pieces it was written in and wherever a chunk ends in a character', async () => {
    const { encryption, key } = await newFileEncryption(PASSPHRASE);
    expect(encryption).toMatchObject({ cipher: 'aes-256-gcm', kdf: { name: 'scrypt', N: 2 ** 17, r: 8, p: 1 }, chunkBytes: 65536 });
    // Mongolian letters are two bytes and emoji four: chunk boundaries fall inside them.
    const text = JSON.stringify({ data: Array.from({ length: 9000 }, (_, i) => ({ i, name: `Бат-Эрдэнэ 🎬 ${i}` })) });
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * encryption.chunkBytes);
    for (const pieceSize of [1, 777, 65536, 1_000_000]) {
      const chunks = await sealed(pieceSize === 1 ? text.slice(0, 70_000) : text, encryption, key, pieceSize);
      expect(openChunks(chunks, encryption, await keyOf(encryption, PASSPHRASE))).toBe(pieceSize === 1 ? text.slice(0, 70_000) : text);
    }
    // Nothing at all is one empty chunk, and exactly a chunk's worth is one chunk.
    expect(await sealed('', encryption, key)).toHaveLength(1);
    expect(openChunks(await sealed('', encryption, key), encryption, key)).toBe('');
    const exactlyOne = await sealed('x'.repeat(encryption.chunkBytes), encryption, key);
    expect(exactlyOne).toHaveLength(1);
    expect(openChunks(exactlyOne, encryption, key)).toBe('x'.repeat(encryption.chunkBytes));
  }, 60_000);

  it('refuses a wrong passphrase, and a file changed, cut short, reordered, lengthened or with its header edited, the same way', async () => {
    const { encryption, key } = await newFileEncryption(PASSPHRASE);
    const chunks = await sealed('{"data":{}}'.padEnd(200_000, ' '), encryption, key);
    expect(chunks).toHaveLength(4);
    const refused = (attempt: () => unknown) => expect(attempt).toThrow(EncryptedFileRefused);

    await expect((async () => openChunks(chunks, encryption, await keyOf(encryption, 'correct horse battery stapl3')))()).rejects.toThrow(EncryptedFileRefused);
    const flipped = Buffer.from(chunks[1]!, 'base64');
    flipped[10]! ^= 1;
    refused(() => openChunks([chunks[0]!, flipped.toString('base64'), chunks[2]!, chunks[3]!], encryption, key));
    refused(() => openChunks(chunks.slice(0, 3), encryption, key));
    refused(() => openChunks([chunks[1]!, chunks[0]!, chunks[2]!, chunks[3]!], encryption, key));
    refused(() => openChunks([...chunks, chunks[3]!], encryption, key));
    refused(() => openChunks([], encryption, key));
    refused(() => openChunks([...chunks.slice(0, 3), 'AAAA'], encryption, key));
    refused(() => openChunks(chunks, { ...encryption, chunkBytes: 1024 }, key));
    // Another file's chunks (its own nonce prefix) do not open under this file's header.
    const other = await newFileEncryption(PASSPHRASE);
    refused(() => openChunks(chunks, { ...encryption, noncePrefix: other.encryption.noncePrefix }, key));
  }, 60_000);

  it('gives every one of many derivations at once its key (they queue, one at a time in the process), a wrong passphrase among them failing alone', async () => {
    const { encryption, key } = await newFileEncryption(PASSPHRASE);
    const chunks = await sealed('{"data":{}}', encryption, key);
    const keys = await Promise.all(Array.from({ length: 5 }, (_, i) => keyOf(encryption, i === 2 ? `${PASSPHRASE}!` : PASSPHRASE)));
    expect(keys.map((derived) => derived.equals(key))).toEqual([true, true, false, true, true]);
    expect(() => openChunks(chunks, encryption, keys[2]!)).toThrow(EncryptedFileRefused);
    expect(openChunks(chunks, encryption, keys[4]!)).toBe('{"data":{}}');
  }, 60_000);

  it("refuses a file whose key parameters would cost the machine gigabytes or minutes, before deriving anything", async () => {
    const { encryption } = await newFileEncryption(PASSPHRASE);
    for (const kdf of [{ N: 2 ** 24 }, { N: 2 }, { N: 3000 }, { r: 64 }, { p: 1000 }, { N: 2 ** 20, r: 8 }]) {
      await expect(keyOf({ ...encryption, kdf: { ...encryption.kdf, ...kdf } }, PASSPHRASE)).rejects.toThrow(EncryptedFileRefused);
    }
  });
});
