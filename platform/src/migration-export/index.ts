// Database export and import: each service's tables as lines of JSON read at one moment, and imported in one transaction (docs/database-export.md).
export { exportLines, ROW_LINE_PREFIX, type ExportLine } from './export';
export { importRows, type ImportInput, type TableImportResult } from './import';
export { registerMigrationRoutes } from './routes';
export { PLATFORM_TABLES, type ExportPolicy } from './tables';
export { EncryptedFileRefused, keyOf, newFileEncryption, openChunks, sealChunks } from './encrypted-file';
