import { describe, expect, it } from 'vitest';
import type { TableImportView } from './api';
import { exportTimeOf, hasWork, inReadingOrder, isEncrypted, parseMigrationFile, passphraseProblem, tableCountOf, totalsOf } from './migration';

const exported = {
  data: { 'streaming-keys': { streaming_pricing: [{ id: 1 }], streaming_keys: [] }, pricing: { price_edits: [] } },
  metadata: { exportTimestamp: '2026-11-27T08:00:00.000Z', timestamp: '2026-11-27T08:00:03.512Z', tableCounts: { 'streaming-keys.streaming_pricing': 1 } },
};

const table = (name: string, counts: Partial<TableImportView> = {}): TableImportView => ({
  table: name, success: 0, failed: 0, added: 0, updated: 0, unchanged: 0, errors: [], ...counts,
});

describe('parseMigrationFile', () => {
  it('takes an exported file as it is', () => {
    expect(parseMigrationFile(JSON.stringify(exported))).toEqual(exported);
  });

  it("is null for what the spec calls 'Invalid migration file format': not JSON, or no metadata.exportTimestamp", () => {
    for (const text of ['', 'not json', '{"hello":1}', '[]', 'null', '"text"', '{"metadata":null}', '{"metadata":[]}', '{"metadata":{}}', '{"metadata":{"exportTimestamp":1}}', '{"metadata":{"exportTimestamp":" "}}']) {
      expect(parseMigrationFile(text), text).toBeNull();
    }
  });
});

describe('an encrypted file', () => {
  it('is known by its format, and its readable metadata is enough to parse it', () => {
    const encrypted = { format: 'bo-encrypted-export', version: 1, encryption: {}, body: ['…'], metadata: { exportTimestamp: '2026-11-27T08:00:00.000Z', tableCounts: { 'a.b': 1 } } };
    const file = parseMigrationFile(JSON.stringify(encrypted))!;
    expect(isEncrypted(file)).toBe(true);
    expect(tableCountOf(file)).toBe(1);
    expect(isEncrypted(parseMigrationFile(JSON.stringify(exported))!)).toBe(false);
  });

  it('asks for a passphrase of at least 12 characters (counted as a person counts them), typed the same twice', () => {
    expect(passphraseProblem('eleven char', 'eleven char')).toBe('tooShort');
    expect(passphraseProblem('Улаанбаатар1', 'Улаанбаатар1')).toBeNull();
    expect(passphraseProblem('🎬🎬🎬🎬🎬🎬🎬🎬🎬🎬🎬', '🎬🎬🎬🎬🎬🎬🎬🎬🎬🎬🎬')).toBe('tooShort');
    expect(passphraseProblem('twelve chars', 'twelve chars ')).toBe('differ');
    expect(passphraseProblem('twelve chars', 'twelve chars')).toBeNull();
  });
});

describe('a file and its import', () => {
  it('counts the tables the file holds', () => {
    expect(tableCountOf(parseMigrationFile(JSON.stringify(exported))!)).toBe(3);
    expect(tableCountOf({ metadata: { exportTimestamp: 'x', tableCounts: { 'a.b': 1, 'a.c': 2 } } })).toBe(2);
    expect(tableCountOf({ metadata: { exportTimestamp: 'x' } })).toBe(0);
  });

  it('reads the export time, or null when it is not a time', () => {
    expect(exportTimeOf({ metadata: { exportTimestamp: '2026-11-27T08:00:00.000Z' } })?.toISOString()).toBe('2026-11-27T08:00:00.000Z');
    expect(exportTimeOf({ metadata: { exportTimestamp: 'yesterday' } })).toBeNull();
  });

  it('adds up the tables, and lists refused first, then changed, then unchanged', () => {
    const results = [
      table('pricing.price_edits', { unchanged: 4, success: 4 }),
      table('streaming-keys.streaming_pricing', { updated: 1, unchanged: 2, success: 3 }),
      table('gateway.users', { failed: 1, added: 2, success: 2, errors: ['row 3: duplicate email'] }),
      table('ai-chat.prompts'),
    ];
    expect(totalsOf(results)).toEqual({ tables: 4, added: 2, updated: 1, unchanged: 6, failed: 1 });
    expect(results.map(hasWork)).toEqual([false, true, true, false]);
    expect(inReadingOrder(results).map((row) => row.table)).toEqual(['gateway.users', 'streaming-keys.streaming_pricing', 'ai-chat.prompts', 'pricing.price_edits']);
  });
});
