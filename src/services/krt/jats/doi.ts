// DOI normalisation for the article store: clients send DOIs as `doi:…`, `https://doi.org/…`, bioRxiv page
// URLs with a version suffix (`…269738v2.full.pdf`), URL-encoded, in any case. The store keys on one form:
// lower case `10.xxxx/suffix` without a version.

const DOI_SHAPE = /^10\.\d{4,9}\/[^\s]+$/;
const BIORXIV_SUFFIX = /^\d{4}\.\d{2}\.\d{2}\.\d{5,8}$/;

/** The canonical DOI, or null when the input is not a DOI (nor a URL or bioRxiv id carrying one). */
export function normalizeDoi(input: string | null | undefined): string | null {
  if (typeof input !== 'string') return null;
  let text = input.trim();
  if (!text || text.length > 500) return null;
  if (/%2f/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  text = text.replace(/^doi:\s*/i, '');
  // Any URL: keep what follows the first "10.NNNN/" (doi.org, dx.doi.org, biorxiv.org/content/…).
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^(www\.)?(dx\.)?(doi\.org|biorxiv\.org|medrxiv\.org)\//i.test(text)) {
    const at = text.search(/10\.\d{4,9}\//);
    if (at < 0) return null;
    text = text.slice(at).split(/[?#]/)[0];
  }
  text = text.toLowerCase();
  if (BIORXIV_SUFFIX.test(text)) text = `10.1101/${text}`;
  // Page suffixes of preprint servers: .full, .full.pdf, .abstract, .article-info, .supplementary-material …
  text = text
    .replace(/\/+$/, '')
    .replace(/\.(full(-text)?|full\.pdf|abstract|article-info|article-metrics|supplementary-material|pdf)$/, '');
  // Version suffix of a bioRxiv/medRxiv DOI ("…269738v2"): the store keeps one text per DOI.
  if (text.startsWith('10.1101/')) text = text.replace(/v\d{1,3}$/, '');
  return DOI_SHAPE.test(text) ? text : null;
}

/** `10.1101/2020.08.27.269738` → `2020/2020.08.27.269738.xml` (the store's layout); null when no year is implied. */
export function storePathOfDoi(doi: string): string | null {
  const normalized = normalizeDoi(doi);
  if (!normalized?.startsWith('10.1101/')) return null;
  const suffix = normalized.slice('10.1101/'.length);
  const year = BIORXIV_SUFFIX.test(suffix) ? suffix.slice(0, 4) : null;
  return year ? `${year}/${suffix}.xml` : null;
}

/** The DOI a store file stands for: `…/2021/2021.09.08.459408.xml` → `10.1101/2021.09.08.459408`. */
export function doiOfStorePath(path: string): string | null {
  const name = path.split(/[\\/]/).pop() ?? '';
  if (!name.toLowerCase().endsWith('.xml')) return null;
  return normalizeDoi(`10.1101/${name.slice(0, -4)}`);
}
