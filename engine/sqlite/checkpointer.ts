/**
 * WAL checkpoints on a second connection in a worker thread (see
 * `SqliteStoreOptions.checkpointInWorker`): an automatic checkpoint runs inside whichever commit
 * crosses the threshold, copying and syncing thousands of pages on the event loop; the fold of
 * the dispatch journal writes many pages. The service's store checkpoints here (but in the
 * single-file build, which has no node_modules for the worker to load the driver from), and so
 * does the spike bench's engine cell.
 * @module
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

// The checkpoint worker: plain CommonJS, so it needs no TypeScript loader.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: next time */ }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/** Starts the checkpoint worker on `db`'s file and turns automatic checkpoints off on `db`. */
export function startCheckpointer(db: Database, intervalMs: number): { close(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { driver, file: db.name, intervalMs },
  });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  return {
    close: () =>
      new Promise<void>((resolve) => {
        worker.ref(); // keep the process alive until the worker has closed its connection
        worker.once('exit', () => resolve());
        worker.postMessage('close');
        setTimeout(() => void worker.terminate(), 2000).unref();
      }).finally(() => {
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      }),
  };
}
