// A readable API page rendered on the server from the service's OpenAPI document: no external assets, and
// readable without scripts (api-reference.ts adds the interactive reference over it).

/** The parts of an OpenAPI document (and of its JSON schemas) the page reads. */
interface OpenApiSchema {
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: OpenApiSchema[];
  type?: string | string[];
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}
interface OpenApiResponse {
  description?: string;
  content?: Record<string, { schema?: OpenApiSchema; examples?: Record<string, { summary?: string; value?: unknown }> }>;
}
interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: OpenApiSchema }>;
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
  responses?: Record<string, OpenApiResponse>;
}
export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

const esc = (text: unknown): string =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function typeOf(schema: OpenApiSchema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return String(schema.$ref).split('/').pop() ?? '';
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map((member) => typeOf(member)).join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
    schema.minLength !== undefined ? `length ≥ ${schema.minLength}` : '',
    schema.maxLength !== undefined ? `length ≤ ${schema.maxLength}` : '',
    schema.pattern ? `pattern ${schema.pattern}` : '',
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : '',
  ].filter(Boolean);
  return bounds.length ? `${type} (${bounds.join(', ')})` : type;
}

/** A schema that is a reference to one of the document's components: the component. */
function resolve(doc: OpenApiDocument, schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
  return doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)] ?? schema;
}

function schemaOutline(schema: OpenApiSchema | undefined, depth = 0): string {
  if (!schema || depth > 4) return '';
  if (schema.type === 'array') return schemaOutline(schema.items, depth);
  if (schema.type !== 'object' || !schema.properties) return '';
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(schema.properties)
    .map(([name, prop]) => {
      const nested = schemaOutline(prop, depth + 1);
      return `<li><code>${esc(name)}</code>${required.has(name) ? '' : ' <span class="opt">optional</span>'} <span class="type">${esc(typeOf(prop))}</span>${prop.description ? ` — ${esc(prop.description)}` : ''}${nested}</li>`;
    })
    .join('');
  return `<ul>${rows}</ul>`;
}

/** Markdown-ish description: paragraphs, `code`, and lines starting with "- " as lists. */
function prose(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      const inline = (s: string) =>
        esc(s)
          .replace(/`([^`]+)`/g, '<code>$1</code>')
          .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
      if (lines.every((l) => /^\s*[-*] /.test(l)))
        return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*] /, ''))}</li>`).join('')}</ul>`;
      return `<p>${lines.map(inline).join('<br>')}</p>`;
    })
    .join('');
}

/** The recorded answers of a response: the request that produced each, and the body. */
function examplesOf(response: OpenApiResponse): string {
  return Object.values(response.content ?? {})
    .flatMap((media) => Object.values(media.examples ?? {}))
    .map((example) => {
      const body = typeof example.value === 'string' ? example.value : JSON.stringify(example.value, null, 2);
      return `<p>Example: <code>${esc(example.summary)}</code></p><pre class="example">${esc(body)}</pre>`;
    })
    .join('');
}

/** `base`: the way from the page's address to the service's root ('./' at /docs, '../' at /docs/). */
export function renderDocsPage(
  doc: OpenApiDocument,
  base = './',
  extra: { head?: string; interactive?: string; scripts?: string } = {},
): string {
  const info = doc.info ?? {};
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = op.parameters ?? [];
      const paramRows = params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${esc(typeOf(p.schema))}</td><td>${esc(p.description ?? p.schema?.description ?? '')}</td></tr>`,
        )
        .join('');
      const body = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => {
          const types = Object.keys(r.content ?? {});
          const schema = resolve(doc, r.content?.['application/json']?.schema);
          const typeNote =
            types.length > 1 || (types.length === 1 && types[0] !== 'application/json')
              ? ` <span class="type">(${esc(types.join(', '))})</span>`
              : '';
          return `<details><summary><strong>${esc(status)}</strong> ${esc(r.description ?? '')}${typeNote}</summary>${schemaOutline(schema)}${examplesOf(r)}</details>`;
        })
        .join('');
      sections.push(
        `<section id="${esc(method + path)}"><h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>` +
          (op.summary ? `<p><strong>${esc(op.summary)}</strong></p>` : '') +
          prose(op.description) +
          (paramRows
            ? `<div class="scroll"><table><thead><tr><th>Parameter</th><th>In</th><th>Required</th><th>Type</th><th>Description</th></tr></thead><tbody>${paramRows}</tbody></table></div>`
            : '') +
          (body ? `<h4>Request body (application/json)</h4>${schemaOutline(body)}` : '') +
          (responses ? `<h4>Responses</h4>${responses}` : '') +
          `</section>`,
      );
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} — API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px}
section{border-top:1px solid #ddd;padding:.5rem 0}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
.method{display:inline-block;min-width:4em;text-align:center;border-radius:3px;color:#fff;font-size:13px;padding:0 .4em}
.get{background:#2f6f3e}.post{background:#1d4f91}.put,.patch{background:#8a5a00}.delete{background:#9b1c1c}
.type{color:#555}.opt{color:#888;font-size:12px}
.scroll{overflow-x:auto}#reference{overflow-wrap:anywhere}
pre.example{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:24rem;font-size:13px}
</style>${extra.head ?? ''}</head><body>
<h1>${esc(info.title)} <small>v${esc(info.version)}</small></h1>
<p>Machine-readable description: <a href="${esc(base)}openapi.json">openapi.json</a> (OpenAPI ${esc(doc.openapi)}),
also as <a href="${esc(base)}openapi-3.0.json">OpenAPI 3.0.3</a> for tools that read only 3.0.</p>
${extra.interactive ?? ''}
<div id="reference">
${prose(info.description)}
${sections.join('\n')}
</div>
${extra.scripts ?? ''}
</body></html>`;
}
