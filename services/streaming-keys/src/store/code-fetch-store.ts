import type { ParseEmailType } from '@bo/proto';
import type { FetchOutcome } from '../domain/code-fetch';
import type { KeysDb } from './key-store';

/** One row of the fetch log: who, which key, which type, how it ended. There is no column for a code or a link. */
export interface CodeFetchRecord {
  customerEmail: string;
  keyId: number | null;
  parseType: ParseEmailType;
  outcome: FetchOutcome;
  found: boolean;
  /** expressions, ai or none as the parser answered; remembered when an earlier outcome was reused; null when nothing was parsed. */
  source: string | null;
}

/** The fetch log (code_fetches); the only place that touches it. */
export const codeFetchStore = {
  record(db: KeysDb, fetch: CodeFetchRecord) {
    return db.codeFetch.create({ data: fetch });
  },
};
