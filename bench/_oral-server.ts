// Child process of bench/oral.ts: serves either Service A or a bare Fastify route that returns fixed bytes.
import fs from 'node:fs';
import Fastify from 'fastify';
import { loadConfig } from '../src/core/config.ts';
import { openRuntime } from '../src/core/runtime.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { oralService } from '../src/services/oral/service.ts';

const [mode, port, bodyFile] = process.argv.slice(2);
if (mode === 'bare') {
  const body = fs.readFileSync(bodyFile, 'utf8');
  const app = Fastify({ logger: false });
  app.get('/api/recommendations/', async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
  await app.listen({ port: Number(port), host: '127.0.0.1' });
} else {
  const config = { ...loadConfig(), logLevel: 'silent' };
  const runtime = await openRuntime(config, [oralService]);
  const app = await buildServiceApp(oralService, runtime.contexts.get('oral')!, { logger: false });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
}
process.send?.('ready');
