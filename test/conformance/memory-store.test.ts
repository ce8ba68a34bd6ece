import { MemoryStore } from '../../engine/sim/index.js';
import { runStoreConformance } from '../../engine/testing/index.js';

runStoreConformance('MemoryStore', () => ({ store: new MemoryStore() }));
