import { MemoryStore, runStoreConformance } from '../../engine/testing/index.js';

runStoreConformance('MemoryStore', () => ({ store: new MemoryStore() }));
