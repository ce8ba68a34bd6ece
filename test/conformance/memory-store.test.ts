import { MemoryStore, type MemoryTransaction } from '../../engine/sim/index.js';
import { runStoreConformance } from '../../engine/testing/index.js';

runStoreConformance('MemoryStore', () => {
  // The caller's writes keep their own state, here a list, changed once the unit is stored.
  const tags: string[] = [];
  return {
    store: new MemoryStore(),
    writes: {
      write: (tag) => (tx) => (tx as MemoryTransaction).onCommit(() => tags.push(tag)),
      written: async () => [...tags],
    },
  };
});
