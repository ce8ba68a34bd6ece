import { VirtualClock } from '../../engine/sim/index.js';
import { runTelephonyConformance } from '../../engine/testing/index.js';
import { createSimulatorTelephony } from '../../host/adapters/telephony/simulator.js';

runTelephonyConformance('host simulator', () => {
  const clock = new VirtualClock(Date.parse('2027-03-14T06:00:00Z'));
  const telephony = createSimulatorTelephony({ clock, from: '+12025550100' });
  return {
    telephony,
    setPhone: (to, behaviour) => telephony.setPhone(to, { answers: [behaviour], ring_seconds: 5 }),
    advance: async (ms) => {
      await clock.advanceBy(ms);
    },
  };
});
