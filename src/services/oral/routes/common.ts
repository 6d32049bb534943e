// What the route groups of Service A share: parsing the country and vocabulary filters, the page, and the
// contract's list envelope.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import { badRequest } from '../../../core/http/errors.ts';
import { clampLimit } from '../../../core/http/params.ts';
import { COUNTRY_CODES, findCountry } from '../sources/index.ts';
import type { Country, Vocabulary, VocabularyEntry } from '../sources/index.ts';
import type { Page, PageOf } from '../repository.ts';
import { MAX_LIMIT } from '../schemas/index.ts';

/** Statistics and metadata change only with an import: cached longer than the lists (the contract's 30 minutes). */
export const STATS_CACHE_SECONDS = 1800;

/** A list route's config: named in 500 messages, answers cached until the data version changes. */
export const listConfig = (operation: string) => ({ operation, responseCache: true });

export function parseCountry(value: string | undefined): Country | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const country = findCountry(value);
  if (!country || country.code.toLowerCase() !== value.trim().toLowerCase()) {
    throw badRequest(`country must be one of ${COUNTRY_CODES.join(', ')} (any case), got "${value}"`);
  }
  return country;
}

export function parseVocabulary(vocabulary: Vocabulary, name: string, value: string | undefined): VocabularyEntry | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const entry = vocabulary.resolve(value);
  if (!entry)
    throw badRequest(
      `${name} must be an id or slug listed by /api/metadata/ (${vocabulary.entries.map((e) => e.slug).join(', ')}), got "${value}"`,
    );
  return entry;
}

/** The page a list query asks for, with the limit clamped to the maximum. */
export const pageOf = (query: { page: number; limit: number }): Page => ({ page: query.page, limit: clampLimit(query.limit, MAX_LIMIT) });

export function listEnvelope<T>(result: PageOf<T>, page: Page, filters: Record<string, string>) {
  const totalPages = Math.max(1, Math.ceil(result.total / page.limit));
  return {
    success: true as const,
    data: result.rows,
    pagination: {
      page: page.page,
      limit: page.limit,
      total_pages: totalPages,
      total_results: result.total,
      has_next: page.page < totalPages,
      has_previous: page.page > 1,
    },
    filters_applied: filters,
  };
}

/** How the route's own serializer begins a list envelope (success first, then data; fast-json-stringify keeps schema order). */
const ENVELOPE_HEAD = '{"success":true,"data":[';
const ENVELOPE_HEAD_BYTES = Buffer.from(ENVELOPE_HEAD);

/**
 * Each held item's JSON, serialised once: keyed by the item object, which lives as long as its data version's held
 * list (an item object is listed by one route, with one schema).
 */
const itemBytes = new WeakMap<object, Buffer>();
const itemDigests = new WeakMap<Buffer, Buffer>();

/**
 * A list answer as the bytes the route's response schema would serialise, built from each item's JSON serialised
 * once (with the serializer Fastify compiles from the item's own schema) instead of serialising and UTF-8 encoding
 * the whole page on every request. For items held in memory per data version (the same objects on every request);
 * the envelope (pagination, the echoed filters) is serialised by the route's own serializer. Sets the content type,
 * which a Buffer would otherwise be sent without; the route sends the Buffer as it is. Byte-identical to returning
 * the envelope (recommendations.test.ts compares them). Sets a strong ETag from each item's SHA-1, taken once, and
 * the envelope's bytes (the body is a function of them): about 450 bytes hashed instead of the whole answer.
 */
export function heldListBytes<T extends object>(
  reply: FastifyReply,
  itemSchema: TSchema,
  result: PageOf<T>,
  page: Page,
  filters: Record<string, string>,
): Buffer {
  reply.header('content-type', 'application/json; charset=utf-8');
  const serializeEnvelope = reply.getSerializationFunction('200');
  if (serializeEnvelope === undefined) throw new Error('heldListBytes needs a route with a 200 response schema');
  const envelope = serializeEnvelope(listEnvelope({ rows: [], total: result.total }, page, filters));
  if (!envelope.startsWith(`${ENVELOPE_HEAD}]`)) throw new Error(`unexpected list envelope: ${envelope.slice(0, 40)}`);
  const tail = envelope.slice(ENVELOPE_HEAD.length);
  let serializeItem: ((item: T) => string) | undefined;
  const items = result.rows.map((row) => {
    let bytes = itemBytes.get(row);
    if (bytes === undefined) {
      // Fastify types a schema as an index signature, which TypeBox's interfaces do not declare.
      serializeItem ??= reply.compileSerializationSchema(itemSchema as unknown as Record<string, unknown>) as (item: T) => string;
      bytes = Buffer.from(serializeItem(row));
      itemBytes.set(row, bytes);
      itemDigests.set(bytes, createHash('sha1').update(bytes).digest());
    }
    return bytes;
  });
  let length = ENVELOPE_HEAD_BYTES.length + Math.max(0, items.length - 1) + Buffer.byteLength(tail);
  for (const bytes of items) length += bytes.length;
  // Not from the shared pool: the response cache may keep this Buffer, and a pooled slice would keep its 8 KB slab.
  const body = Buffer.allocUnsafeSlow(length);
  let at = ENVELOPE_HEAD_BYTES.copy(body, 0);
  items.forEach((bytes, i) => {
    if (i > 0) body[at++] = 0x2c; // ','
    at += bytes.copy(body, at);
  });
  at += body.write(tail, at);
  // The item count first fixes where the 20-byte digests end and the tail begins: one body, one sequence.
  const hash = createHash('sha1').update(`${items.length}:`);
  for (const bytes of items) hash.update(itemDigests.get(bytes)!);
  hash.update(tail);
  reply.header('etag', `"${hash.digest('base64url')}"`);
  if (at !== length) throw new Error(`list answer: wrote ${at} of ${length} bytes`);
  return body;
}
