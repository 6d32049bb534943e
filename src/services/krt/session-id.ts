// Extraction session ids that stay the same across re-imports: a name-based UUID (RFC 9562 version 5, SHA-1)
// of the DOI, the extractor (provider and model) and the SHA-1 of the article file. The same file through the
// same extractor always gives the same id; a changed file or a new extractor version gives a new one.
import { createHash } from 'node:crypto';

// A namespace of this service (itself a v5 UUID of "pdi:krt:sessions" in the URL namespace), so that the ids
// cannot collide with name-based UUIDs made by anything else.
const NAMESPACE = uuidV5Bytes(Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex'), 'pdi:krt:sessions');

function uuidV5Bytes(namespace: Buffer, name: string): Buffer {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC variant
  return hash;
}

function format(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sessionIdOf(doi: string, provider: string, model: string, contentHash: string): string {
  return format(uuidV5Bytes(NAMESPACE, [doi, provider, model, contentHash].join('\n')));
}

/** SHA-1 of a file's bytes, hex: the content part of a session id and the importer's change test. */
export function contentHashOf(bytes: Buffer | string): string {
  return createHash('sha1').update(bytes).digest('hex');
}
