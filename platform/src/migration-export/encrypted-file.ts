/**
 * The encryption of an exported file (docs/database-export.md, "Encrypted files"): the plain file's
 * text in chunks of AES-256-GCM, each authenticated on its own, so both ways stream a chunk at a
 * time; the key from the passphrase by scrypt, with its salt and parameters kept in the file.
 *
 * Each chunk's nonce is the file's random prefix, the chunk's number and whether it is the last
 * (the STREAM construction): a chunk moved, dropped or copied from another file, or a file cut
 * short, fails its tag like a wrong passphrase does, and nothing of it is used.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { SCRYPT_LIMITS, type FileEncryption } from '@bo/proto';

/** scrypt with OWASP's parameters (N = 2^17, r = 8, p = 1): 128 MiB and about half a second per key. */
const KDF = { name: 'scrypt', N: 2 ** 17, r: 8, p: 1 } as const;
const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const NONCE_PREFIX_BYTES = 7;

/** A wrong passphrase, or a file changed, cut or put together from others: the two cannot be told apart. */
export class EncryptedFileRefused extends Error {}

/** A new file's encryption (a fresh salt and nonce prefix) and its key. */
export async function newFileEncryption(passphrase: string): Promise<{ encryption: FileEncryption; key: Buffer }> {
  const encryption: FileEncryption = {
    cipher: 'aes-256-gcm',
    kdf: { ...KDF, salt: randomBytes(16).toString('base64') },
    noncePrefix: randomBytes(NONCE_PREFIX_BYTES).toString('base64'),
    chunkBytes: CHUNK_BYTES,
  };
  return { encryption, key: await keyOf(encryption, passphrase) };
}

/** The key a file's passphrase gives, with the file's own salt and parameters (within SCRYPT_LIMITS). */
export async function keyOf(encryption: FileEncryption, passphrase: string): Promise<Buffer> {
  const { N, r, p, salt } = encryption.kdf;
  const memoryBytes = 128 * N * r * p;
  // The route's schema bounds each; a file read otherwise (the bench, a restore) is held to the same, and to their product.
  if (N < SCRYPT_LIMITS.minN || N > SCRYPT_LIMITS.maxN || (N & (N - 1)) !== 0 || r > SCRYPT_LIMITS.maxR || p > SCRYPT_LIMITS.maxP || memoryBytes > SCRYPT_LIMITS.maxMemoryBytes) {
    throw new EncryptedFileRefused('its key parameters are out of bounds');
  }
  // Node's default cap (32 MiB) is below what N = 2^17 takes: allow what the parameters need, and a little more.
  return await oneDerivationAtATime(() => scrypt(passphrase.normalize('NFC'), Buffer.from(salt, 'base64'), 32, { N, r, p, maxmem: memoryBytes + 1024 * 1024 }));
}

/**
 * Key derivations run one after another in a process: each holds 128 MiB (up to 256 MiB for a
 * file's own parameters), and the gateway's container has 512 MiB, so four exports or opens at once
 * would otherwise end it. The others wait their turn, about half a second each.
 */
let derivations: Promise<unknown> = Promise.resolve();
function oneDerivationAtATime<T>(derive: () => Promise<T>): Promise<T> {
  const turn = derivations.then(derive, derive);
  derivations = turn.catch(() => undefined);
  return turn;
}

/**
 * The plain text's chunks, sealed, each as base64; the last (at most a chunk, maybe empty) is the
 * one left at the end. Pieces (a row each, a few hundred bytes) are gathered and joined once per
 * chunk, not once per piece.
 */
export async function* sealChunks(plain: AsyncIterable<string>, encryption: FileEncryption, key: Buffer): AsyncGenerator<string> {
  let index = 0;
  let gathered: Buffer[] = [];
  let size = 0;
  // A piece may end inside a character of two UTF-16 units (an emoji): its first half waits for the second.
  let halfCharacter = '';
  for await (const piece of plain) {
    let text = halfCharacter + piece;
    const lastUnit = text.charCodeAt(text.length - 1);
    halfCharacter = lastUnit >= 0xd800 && lastUnit <= 0xdbff ? text.slice(-1) : '';
    if (halfCharacter) text = text.slice(0, -1);
    const bytes = Buffer.from(text);
    gathered.push(bytes);
    size += bytes.length;
    // Only a full chunk with more behind it is sealed now: whether a chunk is the last is part of its nonce.
    if (size > encryption.chunkBytes) {
      let pending = Buffer.concat(gathered, size);
      while (pending.length > encryption.chunkBytes) {
        yield seal(pending.subarray(0, encryption.chunkBytes), index++, false, encryption, key);
        pending = pending.subarray(encryption.chunkBytes);
      }
      gathered = [pending];
      size = pending.length;
    }
  }
  yield seal(Buffer.concat([...gathered, Buffer.from(halfCharacter)]), index, true, encryption, key);
}

/** The plain text of a file's sealed chunks; EncryptedFileRefused when any chunk does not open. */
export function openChunks(chunks: readonly string[], encryption: FileEncryption, key: Buffer): string {
  if (chunks.length === 0) throw new EncryptedFileRefused('it has no chunks');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  for (const [index, chunk] of chunks.entries()) {
    const sealed = Buffer.from(chunk, 'base64');
    if (sealed.length < TAG_BYTES) throw new EncryptedFileRefused(`chunk ${index} is too short`);
    const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(encryption, index, index === chunks.length - 1));
    decipher.setAAD(associatedData(encryption));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      text += decoder.decode(plain, { stream: index < chunks.length - 1 });
    } catch {
      throw new EncryptedFileRefused(`chunk ${index} does not open`);
    }
  }
  return text;
}

function seal(plain: Buffer, index: number, last: boolean, encryption: FileEncryption, key: Buffer): string {
  const cipher = createCipheriv('aes-256-gcm', key, nonceOf(encryption, index, last));
  cipher.setAAD(associatedData(encryption));
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString('base64');
}

/** 12 bytes: the file's prefix (7), the chunk's number (4, big-endian), 1 for the last chunk else 0. */
function nonceOf(encryption: FileEncryption, index: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  const prefix = Buffer.from(encryption.noncePrefix, 'base64');
  if (prefix.length !== NONCE_PREFIX_BYTES) throw new EncryptedFileRefused('its nonce prefix is not 7 bytes');
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, NONCE_PREFIX_BYTES);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** Every chunk is bound to the file's parameters: a file whose header was edited opens no chunk. */
const associatedData = ({ cipher, kdf, noncePrefix, chunkBytes }: FileEncryption) =>
  Buffer.from(['bo-export', cipher, kdf.name, kdf.N, kdf.r, kdf.p, kdf.salt, noncePrefix, chunkBytes].join('|'));

const scrypt = (passphrase: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(passphrase, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));
