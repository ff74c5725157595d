/**
 * Database export and import (document 1 §2 migration card, §7, §8; docs/database-export.md): one
 * JSON file of every service's data, each service exporting and importing its own tables.
 */
import { z } from 'zod';
import { defineRoute } from './http/contract';
import { runSchema } from './runs';
import type { DomainServiceName } from './services';

/** What leaves the system: `metadata` and, per service, its tables' rows. */
export const migrationMetadataSchema = z.object({
  exportTimestamp: z.string(),
  timestamp: z.string(),
  /** Rows per table, keyed `<service>.<table>`. */
  tableCounts: z.record(z.string(), z.number().int().min(0).max(2_147_483_647)),
  /** Each service's schema version (its latest migration) when exported. */
  schemaVersions: z.record(z.string(), z.string().nullable()),
  /** SHA-256 of each table's rows as PostgreSQL writes them, in key order: the same data gives the same checksum. */
  checksums: z.record(z.string(), z.string()),
  /** Columns that never leave (API secrets, password hashes), keyed `<service>.<table>`. */
  leftOut: z.record(z.string(), z.array(z.string())),
});
export type MigrationMetadata = z.infer<typeof migrationMetadataSchema>;

const rowSchema = z.record(z.string(), z.unknown());

export const INVALID_MIGRATION_FILE = 'Invalid migration file format';
const invalid = { error: INVALID_MIGRATION_FILE };

/** A file as an import takes it: what the export writes (only `exportTimestamp` of its metadata is needed). */
export const migrationFileSchema = z.object(
  {
    data: z.record(z.string(), z.record(z.string(), z.array(rowSchema, invalid), invalid), invalid),
    metadata: migrationMetadataSchema.partial().extend({ exportTimestamp: z.string(invalid) }).loose(),
  },
  invalid,
);

/** What an import of one table did (or would do, in a dry run). */
export const tableImportSchema = z.object({
  /** `<service>.<table>`. */
  table: z.string(),
  /** Rows added, updated or already the same. */
  success: z.number().int(),
  failed: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** The first refusals, each naming its row. */
  errors: z.array(z.string()),
});
export type TableImportView = z.infer<typeof tableImportSchema>;

const exampleMetadata: MigrationMetadata = {
  exportTimestamp: '2026-11-27T08:00:00.000Z',
  timestamp: '2026-11-27T08:00:03.512Z',
  tableCounts: { 'streaming-keys.streaming_pricing': 1 },
  schemaVersions: { 'streaming-keys': '20261127051000_audit_log' },
  checksums: { 'streaming-keys.streaming_pricing': '3f0c9d2b7c1e4a5f8b6d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d' },
  leftOut: { 'payments.qpay_settings': ['qpay_client_secret', 'webhook_secret'] },
};
const exampleRow = { id: 1, service: 'NFX', service_name: 'Netflix', duration: 1, price: 35000, is_active: true };

/** The internal routes every domain service answers for the gateway's export and import. */
export function migrationRoutesOf(owner: DomainServiceName) {
  const exportData = defineRoute({
    owner,
    method: 'GET',
    path: `/internal/${owner}/export`,
    access: 'internal',
    callers: ['gateway'],
    reply: z.string(),
    replyKind: 'stream',
    summary: `The ${owner} service's tables as lines of JSON, read at one moment: begin (its schema version), then per table its name and left-out columns, its rows, and its count and checksum`,
    category: 'Migration',
    example: { reply: '{"t":"begin","version":"20261127051000_audit_log"}\n{"t":"table","name":"streaming_pricing","leftOut":[]}\n{"t":"row","row":{"id":1}}\n{"t":"end","name":"streaming_pricing","count":1,"checksum":"…"}\n' },
  });
  const importData = defineRoute({
    owner,
    method: 'POST',
    path: `/internal/${owner}/import`,
    access: 'internal',
    callers: ['gateway'],
    upload: true,
    body: z.object({
      version: z.string().nullable(),
      tables: z.record(z.string(), z.array(rowSchema)),
      dryRun: z.boolean(),
      exportTimestamp: z.string(),
      /** The admin importing, as the gateway knows them (the audit log's import entries name them). */
      actor: z.object({ id: z.string().nullable(), name: z.string(), address: z.string().nullable(), request: z.string(), correlationId: z.string().nullable() }),
    }),
    reply: z.object({
      version: z.string().nullable(),
      tables: z.array(z.object({ table: z.string(), added: z.number(), updated: z.number(), unchanged: z.number(), failed: z.number(), errors: z.array(z.string()) })),
    }),
    summary: `Imports the ${owner} service's tables of a file in one transaction (a dry run rolls back), adding, updating or leaving each row`,
    category: 'Migration',
    example: {
      body: { version: '20261127051000_audit_log', tables: { streaming_pricing: [exampleRow] }, dryRun: true, exportTimestamp: exampleMetadata.exportTimestamp, actor: { id: 'u-1', name: 'admin@example.com', address: '203.0.113.7', request: 'POST /api/migration/import', correlationId: null } },
      reply: { version: '20261127051000_audit_log', tables: [{ table: 'streaming_pricing', added: 1, updated: 0, unchanged: 0, failed: 0, errors: [] }] },
    },
  });
  return { exportData, importData };
}

export const exportDatabase = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/migration/export',
  access: 'admin',
  reply: z.object({ data: z.record(z.string(), z.record(z.string(), z.array(rowSchema))), metadata: migrationMetadataSchema }),
  replyKind: 'download',
  summary: "Download every service's data as one JSON file named with the date (secrets left out, listed in metadata.leftOut)",
  category: 'Migration',
  example: { reply: { data: { 'streaming-keys': { streaming_pricing: [exampleRow] } }, metadata: exampleMetadata } },
});

/** An encrypted export's passphrase is at least this long (typed twice on the page). */
export const EXPORT_PASSPHRASE_MIN_LENGTH = 12;
/** A wrong passphrase and a changed or cut file cannot be told apart: both are refused with this, and nothing is read. */
export const WRONG_PASSPHRASE = 'Wrong passphrase or damaged file';
export const ENCRYPTED_EXPORT_FORMAT = 'bo-encrypted-export';

/** The most plain bytes a chunk of an encrypted file may hold (the export writes 64 KiB), and so its base64's length. */
const ENCRYPTED_CHUNK_MAX_BYTES = 1024 * 1024;
const ENCRYPTED_CHUNK_MAX_CHARS = Math.ceil((ENCRYPTED_CHUNK_MAX_BYTES + 16) / 3) * 4;

/** What a file may ask of scrypt (its memory is 128·N·r·p bytes): a hostile file could otherwise ask for gigabytes or minutes. */
export const SCRYPT_LIMITS = { minN: 2 ** 14, maxN: 2 ** 20, maxR: 16, maxP: 4, maxMemoryBytes: 256 * 1024 * 1024 };

/** How an encrypted export's body is sealed (platform's migration-export/encrypted-file.ts). */
export const fileEncryptionSchema = z.object({
  cipher: z.literal('aes-256-gcm'),
  kdf: z
    .object({
      name: z.literal('scrypt'),
      N: z.number().int().min(SCRYPT_LIMITS.minN).max(SCRYPT_LIMITS.maxN).refine((n) => (n & (n - 1)) === 0, 'must be a power of two'),
      r: z.number().int().min(1).max(SCRYPT_LIMITS.maxR),
      p: z.number().int().min(1).max(SCRYPT_LIMITS.maxP),
      salt: z.string().min(1).max(1024),
    })
    .refine(({ N, r, p }) => 128 * N * r * p <= SCRYPT_LIMITS.maxMemoryBytes, { message: `asks scrypt for more than ${SCRYPT_LIMITS.maxMemoryBytes / 1024 / 1024} MiB (128·N·r·p)`, path: ['N'] }),
  /** Base64 of 7 random bytes; each chunk's nonce is this, its number and whether it is the last. */
  noncePrefix: z.string().max(64),
  /** The plain bytes per chunk. */
  chunkBytes: z.number().int().positive().max(ENCRYPTED_CHUNK_MAX_BYTES),
});
export type FileEncryption = z.infer<typeof fileEncryptionSchema>;

/**
 * An encrypted export: the plain file (data and metadata) sealed in `body`, a base64 string per
 * chunk, and its metadata again in the clear at the end, for a person to read (an import uses the sealed one).
 */
export const encryptedMigrationFileSchema = z.object({
  format: z.literal(ENCRYPTED_EXPORT_FORMAT),
  version: z.literal(1),
  encryption: fileEncryptionSchema,
  /** A base64 string per chunk: as many as the upload's limit (256 MiB) holds of 64 KiB chunks, and a little more. */
  body: z.array(z.string().max(ENCRYPTED_CHUNK_MAX_CHARS)).min(1).max(5_000),
  metadata: migrationMetadataSchema,
});
export type EncryptedMigrationFile = z.infer<typeof encryptedMigrationFileSchema>;
const passphraseSchema = z.string().min(EXPORT_PASSPHRASE_MIN_LENGTH, `The passphrase must be at least ${EXPORT_PASSPHRASE_MIN_LENGTH} characters`).max(1024);

/** The export, encrypted with a passphrase (the page's default; GET is the plain file, a person's explicit choice). */
export const exportDatabaseEncrypted = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/migration/export',
  access: 'admin',
  body: z.object({ passphrase: passphraseSchema }),
  reply: encryptedMigrationFileSchema,
  replyKind: 'download',
  summary: "Download every service's data as one file encrypted with the passphrase (AES-256-GCM in chunks, the key by scrypt), its metadata readable",
  category: 'Migration',
  example: {
    body: { passphrase: 'correct horse battery staple' },
    reply: {
      format: ENCRYPTED_EXPORT_FORMAT,
      version: 1,
      encryption: { cipher: 'aes-256-gcm', kdf: { name: 'scrypt', N: 131072, r: 8, p: 1, salt: 'q83vEjRWeJASNFZ4kBI0Vg==' }, noncePrefix: 'AQIDBAUGBw==', chunkBytes: 65536 },
      body: ['…'],
      metadata: exampleMetadata,
    },
  },
});

/** An encrypted export opened with its passphrase: the plain file, which the import takes. */
export const openEncryptedExport = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/migration/open',
  access: 'admin',
  upload: true,
  body: encryptedMigrationFileSchema.extend({ passphrase: z.string().min(1).max(1024) }),
  reply: z.object({ data: z.record(z.string(), z.record(z.string(), z.array(rowSchema))), metadata: migrationMetadataSchema }),
  summary: `Open an encrypted export with its passphrase and answer the plain file (then checked and imported as any); a wrong passphrase or a changed file answers 400 '${WRONG_PASSPHRASE}'`,
  category: 'Migration',
  example: {
    body: {
      format: ENCRYPTED_EXPORT_FORMAT,
      version: 1,
      encryption: { cipher: 'aes-256-gcm', kdf: { name: 'scrypt', N: 131072, r: 8, p: 1, salt: 'q83vEjRWeJASNFZ4kBI0Vg==' }, noncePrefix: 'AQIDBAUGBw==', chunkBytes: 65536 },
      body: ['…'],
      metadata: exampleMetadata,
      passphrase: 'correct horse battery staple',
    },
    reply: { data: { 'streaming-keys': { streaming_pricing: [exampleRow] } }, metadata: exampleMetadata },
  },
});

/** What an import did per table: a dry run's answer, and an import run's result (document 1 §6: a success flag and results). */
export const importResultSchema = z.object({
  success: z.boolean(),
  dryRun: z.boolean(),
  results: z.array(tableImportSchema),
  /** Local admins with no password after the import (a file never holds a hash): each needs `make create-admin` with their username. */
  adminsWithoutPassword: z.array(z.string()).optional(),
});
export type ImportResult = z.infer<typeof importResultSchema>;
/** The gateway's run that applies a file, service by service (its result is an ImportResult). */
export const IMPORT_RUN_KIND = 'migration-import';
/** Two imports at once would interleave their rows: a second while one runs is refused with this. */
export const IMPORT_ALREADY_RUNNING = 'An import is already running: wait for it to end';

const exampleResult = { table: 'streaming-keys.streaming_pricing', success: 1, failed: 0, added: 1, updated: 0, unchanged: 0, errors: [] };

export const importDatabase = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/migration/import',
  access: 'admin',
  upload: true,
  query: z.object({
    /** `true`: say per table what would be added, updated and refused, and change nothing. */
    dryRun: z.enum(['true', 'false']).default('false'),
  }),
  body: migrationFileSchema,
  reply: z.discriminatedUnion('dryRun', [
    importResultSchema.extend({ dryRun: z.literal(true) }),
    /** The import itself is a run (Background work): it moves service by service, and its result is the import's. */
    z.object({ dryRun: z.literal(false), run: runSchema }),
  ]),
  summary:
    "Import an exported file: a dry run says per table what would be added, updated and refused; the import checks the file the same way, then starts a run that applies each service's tables in one transaction (its result: success and results per table; the same file twice changes nothing)",
  category: 'Migration',
  example: {
    query: { dryRun: 'true' },
    body: { data: { 'streaming-keys': { streaming_pricing: [exampleRow] } }, metadata: exampleMetadata },
    reply: { success: true, dryRun: true, results: [exampleResult] },
  },
});
