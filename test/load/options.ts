/**
 * Command-line options of the load harnesses (`--name value`, a bare `--flag`), parsed by the
 * benchmarks' own `args()` (bench/measure.ts), with a reader for non-negative numbers.
 * @module
 */
import { args } from '../../bench/measure.js';

/** The options of this process, and `num(name, fallback)`, which refuses anything but a number ≥ 0. */
export function loadOptions(argv = process.argv.slice(2)) {
  const opt = args(argv);
  const num = (name: string, fallback: number): number => {
    const v = Number(opt.get(name) ?? fallback);
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${name}: expected a number`);
    return v;
  };
  return { opt, num };
}
