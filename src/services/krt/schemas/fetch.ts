// Fetching a paper by DOI from bioRxiv / Europe PMC over HTTP (admin): request, response and route schemas.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { text } from './common.ts';

// A real bioRxiv preprint (of the shared store's data): a generated demo DOI has no source to fetch from.
const FetchBody = Type.Object(
  { doi: text('DOI of a bioRxiv or medRxiv preprint (10.1101/…; doi:…, https://doi.org/…, a bioRxiv URL and a vN suffix are accepted).') },
  { examples: [{ doi: '10.1101/2021.09.08.459408' }] },
);

const FetchResponse = Type.Object({
  success: Type.Literal(true),
  doi: Type.String(),
  source: Type.String({ description: 'Where the JATS full text came from: biorxiv, medrxiv or europepmc.' }),
  jats_url: Type.String({ description: 'The address of the JATS file fetched.' }),
  file_size: Type.Integer({ description: 'Bytes of the JATS file.' }),
  sha256: Type.String(),
  title: Nullable(Type.String()),
  session_id: Nullable(
    Type.String({
      description: "The paper's best extraction session after the import (an author table first); GET /api/krt/{session_id}/ serves it.",
    }),
  ),
  total_resources: Nullable(Type.Integer()),
  import: Type.Object(
    {
      data_version: Type.String(),
      inserted: Type.Integer(),
      updated: Type.Integer(),
      unchanged: Type.Integer(),
    },
    { description: 'What the import of the fetched-papers store did (the same importer and guards as `pdi import krt`).' },
  ),
});

export const fetchSchema = {
  summary: 'Fetch a paper by DOI from bioRxiv or Europe PMC, store it and extract its table (admin)',
  description:
    'Enabled only when the server has an admin token (PDI_KRT_ADMIN_TOKEN), like the extraction route: send it as `Authorization: Bearer <token>`; ' +
    'without a configured token this route answers 404, without a token in the request 401, with a wrong one 403. Asks bioRxiv (then medRxiv) ' +
    "for the DOI's newest version and its JATS file, else Europe PMC for a full text with that DOI (PDI_SYNC_URL_KRT, PDI_SYNC_URL_KRT_EUROPEPMC). " +
    'The file joins the fetched-papers store, which is imported through the same importer and guards as `pdi import krt`: the table is extracted ' +
    '(author table first, else the text extractor) and a DOI already stored is refreshed. 404 when no source has a full text for the DOI; 400 for ' +
    'a DOI outside 10.1101; 502 when a source fails (5xx or network, after retries) or names a file, or redirects, to a host that is not ' +
    'allowed (PDI_KRT_FETCH_HOSTS) or to a non-public address: nothing is downloaded from it; 409 when the import is refused.',
  body: FetchBody,
  response: { 200: FetchResponse },
};
