// A PostgreSQL server of a test's own (initdb into a temporary directory, its own port), so a test can stop it
// abruptly or kill its backends without touching the shared server on 5432. Runs the server binaries of
// /usr/lib/postgresql/<newest>/bin; as root (PostgreSQL refuses to run as root) through `runuser -u postgres`.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The newest installed server's bin directory, or null. */
export function postgresBinDir(): string | null {
  const versions = fs.globSync('/usr/lib/postgresql/*/bin/initdb').map((file) => path.dirname(file));
  versions.sort((a, b) => Number(path.basename(path.dirname(b))) - Number(path.basename(path.dirname(a))));
  return versions[0] ?? null;
}

/** Why a private server cannot be started here, or null. */
export function privatePostgresProblem(): string | null {
  if (!postgresBinDir()) return 'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)';
  if (process.getuid?.() === 0 && !fs.existsSync('/usr/sbin/runuser') && !fs.existsSync('/sbin/runuser'))
    return 'running as root without runuser';
  return null;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export class PrivatePostgres {
  readonly port: number;
  readonly dir: string;
  private readonly bin: string;
  private readonly asRoot: boolean;

  private constructor(bin: string, dir: string, port: number) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.asRoot = process.getuid?.() === 0;
  }

  /** Creates the cluster and starts it. */
  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error(privatePostgresProblem() ?? 'no PostgreSQL');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-private-pg-'));
    const server = new PrivatePostgres(bin, dir, await freePort());
    if (server.asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const uid = Number(stdout.trim());
      const { stdout: gidText } = await run('id', ['-g', 'postgres']);
      fs.chownSync(dir, uid, Number(gidText.trim()));
    }
    await server.exec('initdb', ['-D', server.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await server.startServer();
    return server;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async startServer(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
    await this.exec('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', path.join(this.dir, 'server.log'), '-w', '-t', '60', 'start']);
  }

  /** `immediate`: the backends are killed without a clean shutdown (as on a crash); `fast`: a clean stop. */
  async stop(mode: 'immediate' | 'fast' = 'fast'): Promise<void> {
    await this.exec('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  /** Terminates every client backend except the one asking; returns how many. */
  async terminateBackends(): Promise<number> {
    const admin = new pg.Client({ connectionString: this.url });
    admin.on('error', () => {});
    await admin.connect();
    try {
      const result = await admin.query<{ killed: boolean }>(
        `select pg_terminate_backend(pid) as killed from pg_stat_activity
          where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      return result.rows.filter((r) => r.killed).length;
    } finally {
      await admin.end().catch(() => {});
    }
  }

  /** Stops the server (if running) and removes its files. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => {});
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private async exec(tool: string, args: string[]): Promise<void> {
    const file = path.join(this.bin, tool);
    const [command, argv] = this.asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    await run(command, argv, { cwd: this.dir, env: { ...process.env, LC_ALL: 'C' } });
  }
}
