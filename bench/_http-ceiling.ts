// Child process of bench/http.ts: the ceiling, a bare Fastify app whose routes send fixed bytes as a Buffer (the
// same bytes and content type pdi sends for the same address), with nothing else: no hooks, validation or headers.
import fs from 'node:fs';
import Fastify from 'fastify';

const [port, manifestFile] = process.argv.slice(2);
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Array<{ path: string; file: string; contentType: string }>;
const app = Fastify({ logger: false });
for (const { path, file, contentType } of manifest) {
  const body = fs.readFileSync(file);
  app.get(path.split('?')[0], (_request, reply) => {
    reply.header('content-type', contentType).send(body);
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
