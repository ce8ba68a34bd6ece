import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createSystemClock, MAX_STEP_MS } from '../../host/adapters/clock/system-clock.js';

describe('createSystemClock()', () => {
  it('fires a timer at or after its instant, never before', async () => {
    const clock = createSystemClock();
    const at = clock.now() + 30;
    const firedAt = await new Promise<number>((resolve) =>
      clock.setTimer(at, () => resolve(clock.now())),
    );
    assert.ok(firedAt >= at);
    assert.equal(clock.pending, 0);
  });

  it('fires a timer whose instant has passed on the next turn', async () => {
    const clock = createSystemClock();
    let fired = false;
    clock.setTimer(clock.now() - 1000, () => {
      fired = true;
    });
    assert.equal(fired, false, 'not synchronously');
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(fired, true);
  });

  it('keeps a far timer armed in bounded steps, and cancel() and stop() disarm', () => {
    const clock = createSystemClock();
    let fired = 0;
    const far = clock.setTimer(clock.now() + 40 * 24 * 3600 * 1000, () => void fired++); // beyond setTimeout's 24.8 days
    clock.setTimer(clock.now() + 10 * MAX_STEP_MS, () => void fired++);
    assert.equal(clock.pending, 2);
    far.cancel();
    far.cancel();
    assert.equal(clock.pending, 1);
    clock.stop();
    assert.equal(clock.pending, 0);
    clock.setTimer(clock.now(), () => void fired++);
    assert.equal(clock.pending, 0, 'a stopped clock arms nothing');
    assert.equal(fired, 0);
  });

  it('reports a throwing timer to onError', async () => {
    const errors: unknown[] = [];
    const clock = createSystemClock({ onError: (e) => errors.push(e) });
    await new Promise<void>((resolve) =>
      clock.setTimer(clock.now(), () => {
        setTimeout(resolve, 1);
        throw new Error('boom');
      }),
    );
    assert.equal(errors.length, 1);
  });
});

describe('real time in host/', () => {
  it('is read only by the system clock adapter (no Date.now(), new Date() or performance.now() elsewhere)', () => {
    const root = new URL('../../host/', import.meta.url).pathname;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          if (name !== 'generated') walk(path);
        } else if (
          name.endsWith('.ts') &&
          !path.endsWith(join('adapters', 'clock', 'system-clock.ts'))
        ) {
          const text = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
          if (/Date\.now\(|new Date\(\s*\)|performance\.now\(|process\.hrtime/.test(text))
            offenders.push(path.slice(root.length));
        }
      }
    };
    walk(root);
    assert.deepEqual(offenders, []);
  });
});
