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
  constructor(private readonly limit = 500) {}

  record(entry: JournalEntry): void {
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
