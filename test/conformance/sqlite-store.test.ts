import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '../../engine/testing/index.js';
import { openDatabase } from '../../host/db/open.js';
import { createSqliteStore } from '../../host/db/sqlite-store.js';

runStoreConformance('SqliteStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wakeup-store-'));
  const db = openDatabase(join(dir, 'test.sqlite'));
  return {
    store: createSqliteStore(db, { cacheKiB: 4096 }),
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
