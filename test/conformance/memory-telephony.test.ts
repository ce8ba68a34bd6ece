import { MemoryTelephony, VirtualClock } from '../../engine/sim/index.js';
import { runTelephonyConformance } from '../../engine/testing/index.js';

runTelephonyConformance('MemoryTelephony', () => {
  const clock = new VirtualClock(Date.UTC(2027, 2, 14, 7, 0, 0));
  const telephony = new MemoryTelephony({ clock });
  return {
    telephony,
    setPhone: (to, behaviour) => telephony.setPhone(to, behaviour),
    advance: async (ms) => {
      await clock.advanceBy(ms);
    },
  };
});
