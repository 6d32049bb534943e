// `node src/cli.ts serve …` as a child process, for tests of what only a real process shows: that it does not
// crash, how it treats slow clients, how it shuts down on a signal.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
  hasExited(): boolean;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `serve <args>` with `env` added and waits until `readyPath` answers 200 (up to `timeoutMs`). */
export async function startServer(options: {
  args: string[];
  env: Record<string, string>;
  port: number;
  readyPath: string;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'src/cli.ts'), 'serve', ...options.args], {
    cwd: ROOT,
    // One process unless a test asks for workers: a crashed worker would be replaced and the primary live on,
    // so "the process did not crash" must be asked of the process that serves.
    env: { ...process.env, PDI_LOG_LEVEL: 'warn', PDI_WORKERS: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let done = false;
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const server: ServerProcess = {
    child,
    port: options.port,
    exited,
    hasExited: () => done,
    output: () => output,
    async stop() {
      if (!done) child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (done) throw new Error(`the server exited while starting:\n${output}`);
    const res = await request({ port: options.port, path: options.readyPath }).catch(() => null);
    if (res?.status === 200) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop();
  throw new Error(`the server did not answer ${options.readyPath} in time:\n${output}`);
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request on its own connection; rejects on a connection error (reset, refused). */
export function request(options: { port: number; path: string; method?: string; agent?: http.Agent; timeoutMs?: number }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: options.port, path: options.path, method: options.method ?? 'GET', agent: options.agent ?? false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end();
  });
}
