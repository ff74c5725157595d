/** What a simulator received and answered, newest first, bounded so a long run stays small. */
export interface JournalEntry {
  at: string;
  method: string;
  url: string;
  status: number;
  ms: number;
  fault?: string;
}

export class Journal {
  private entries: JournalEntry[] = [];
  /** Every entry ever recorded (the list keeps the newest `limit`): a test compares it to see whether anything arrived. */
  private recorded = 0;
  constructor(private readonly limit = 500) {}

  get total(): number {
    return this.recorded;
  }

  record(entry: JournalEntry): void {
    this.recorded++;
    this.entries.unshift(entry);
    if (this.entries.length > this.limit) this.entries.length = this.limit;
  }

  list(): JournalEntry[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
