/** A copy that was not started: the databases do not fit (or cannot be opened). Nothing written. */
export class CopyRefused extends Error {
  override name = 'CopyRefused';
}

export interface TableReport {
  table: string;
  /** Not copied: sessions without --sessions. */
  skipped: boolean;
  /** Rows the source holds (count(*)), rows read from it and rows read back from the target. */
  counted: number;
  source: number;
  target: number;
  sourceChecksum: string;
  targetChecksum: string;
}

export interface CopyReport {
  tables: TableReport[];
  sourceChecksum: string;
  targetChecksum: string;
  /** Every copied table has the same row count and checksum on both sides. */
  verified: boolean;
}

/** The copy was written but did not read back the same: rolled back, the target stays empty. */
export class CopyUnverified extends Error {
  override name = 'CopyUnverified';
  readonly tables: TableReport[];
  constructor(tables: TableReport[]) {
    super('The copy did not verify (row counts or checksums differ); nothing was kept.');
    this.tables = tables;
  }
}
