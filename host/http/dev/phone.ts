/**
 * Dev endpoints of the phone simulators (contract §3): PUT /dev/phones/{e164} scripts the
 * simulated phone at a number; POST /dev/sms/inbound delivers a text as if that number had
 * sent it (STOP, START, HELP...). Mounted only in dev mode.
 * @module
 */
import type { AppServices } from '../../services.js';
import type { PhoneBehaviour } from '../../ports/telephony.js';
import { invalid } from '../../errors.js';
import type { Routes } from '../registrar.js';

/** Registers putDevPhone and postDevInboundSms. */
export function register(routes: Routes, services: AppServices): void {
  routes.operation<
    { answers?: PhoneBehaviour[]; ring_seconds?: number },
    unknown,
    { e164: string }
  >('putDevPhone', ({ body, params }) => {
    const simulator = services.phone.simulator;
    if (!simulator) {
      throw invalid({
        field: 'e164',
        in: 'path',
        code: 'invalid',
        message: 'simulated phones exist only with WAKEUP_TELEPHONY=simulator',
      });
    }
    simulator.setPhone(params.e164, {
      answers: body?.answers ?? ['confirm'],
      ring_seconds: body?.ring_seconds ?? 5,
    });
    return { status: 204 };
  });

  routes.operation<{ from: string; body: string }>('postDevInboundSms', async ({ body }) => {
    await services.phone.receiveText({ from: body.from, body: body.body });
    return { status: 204 };
  });
}
