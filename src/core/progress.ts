// Progress of long jobs (imports, extraction, fits): a bar on a terminal, nothing otherwise.
import cliProgress from 'cli-progress';

export interface Progress {
  /** Advances by `n` units (rows, bytes, files). */
  tick(n?: number): void;
  /** Sets the absolute position. */
  update(value: number): void;
  setTotal(total: number): void;
  stop(): void;
}

export interface ProgressOptions {
  label: string;
  total?: number;
  unit?: string;
  /** Force on/off; default: on when stderr is a terminal and not under test. */
  enabled?: boolean;
}

const SILENT: Progress = { tick() {}, update() {}, setTotal() {}, stop() {} };

export function createProgress(options: ProgressOptions): Progress {
  const enabled = options.enabled ?? (Boolean(process.stderr.isTTY) && !process.env.NODE_TEST_CONTEXT);
  if (!enabled) return SILENT;
  const bar = new cliProgress.SingleBar(
    {
      format: `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit ?? ''} | {eta_formatted} left`,
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let value = 0;
  bar.start(options.total ?? 0, 0);
  return {
    tick(n = 1) {
      value += n;
      bar.update(value);
    },
    update(v) {
      value = v;
      bar.update(v);
    },
    setTotal(total) {
      bar.setTotal(total);
    },
    stop() {
      bar.stop();
    },
  };
}
