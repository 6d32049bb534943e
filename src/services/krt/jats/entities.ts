// Named character references for the pre-pass that runs before saxes. JATS and hand-edited XML often use HTML
// named entities (&nbsp;, &alpha;, &mdash;) without declaring them; a conforming XML parser would reject the
// document. We decode them to characters ourselves, so the parser never needs a DTD and never resolves anything.
// Table: the HTML 4.01 entity set (W3C, "Character entity references in HTML 4", §24.2–24.4) plus a few
// HTML5 / ISO 8879 names that appear in scientific text.

const LATIN1_NAMES = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ' +
  'ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc ' +
  'uuml yacute thorn yuml'
).split(' '); // U+00A0 … U+00FF in order

const GREEK_UPPER = 'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho'.split(' ');
const GREEK_UPPER_2 = 'Sigma Tau Upsilon Phi Chi Psi Omega'.split(' '); // U+03A3 … (U+03A2 is unassigned)
const GREEK_LOWER =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega'.split(
    ' ',
  );

const CODE_POINTS: Record<string, number> = {
  OElig: 338,
  oelig: 339,
  Scaron: 352,
  scaron: 353,
  Yuml: 376,
  fnof: 402,
  circ: 710,
  tilde: 732,
  thetasym: 977,
  upsih: 978,
  piv: 982,
  ensp: 8194,
  emsp: 8195,
  thinsp: 8201,
  zwnj: 8204,
  zwj: 8205,
  lrm: 8206,
  rlm: 8207,
  ndash: 8211,
  mdash: 8212,
  lsquo: 8216,
  rsquo: 8217,
  sbquo: 8218,
  ldquo: 8220,
  rdquo: 8221,
  bdquo: 8222,
  dagger: 8224,
  Dagger: 8225,
  bull: 8226,
  hellip: 8230,
  permil: 8240,
  prime: 8242,
  Prime: 8243,
  lsaquo: 8249,
  rsaquo: 8250,
  oline: 8254,
  frasl: 8260,
  euro: 8364,
  image: 8465,
  weierp: 8472,
  real: 8476,
  trade: 8482,
  alefsym: 8501,
  larr: 8592,
  uarr: 8593,
  rarr: 8594,
  darr: 8595,
  harr: 8596,
  crarr: 8629,
  lArr: 8656,
  uArr: 8657,
  rArr: 8658,
  dArr: 8659,
  hArr: 8660,
  forall: 8704,
  part: 8706,
  exist: 8707,
  empty: 8709,
  nabla: 8711,
  isin: 8712,
  notin: 8713,
  ni: 8715,
  prod: 8719,
  sum: 8721,
  minus: 8722,
  lowast: 8727,
  radic: 8730,
  prop: 8733,
  infin: 8734,
  ang: 8736,
  and: 8743,
  or: 8744,
  cap: 8745,
  cup: 8746,
  int: 8747,
  there4: 8756,
  sim: 8764,
  cong: 8773,
  asymp: 8776,
  ne: 8800,
  equiv: 8801,
  le: 8804,
  ge: 8805,
  sub: 8834,
  sup: 8835,
  nsub: 8836,
  sube: 8838,
  supe: 8839,
  oplus: 8853,
  otimes: 8855,
  perp: 8869,
  sdot: 8901,
  lceil: 8968,
  rceil: 8969,
  lfloor: 8970,
  rfloor: 8971,
  lang: 9001,
  rang: 9002,
  loz: 9674,
  spades: 9824,
  clubs: 9827,
  hearts: 9829,
  diams: 9830,
  // HTML5 / ISO names common in scientific text
  hyphen: 8208,
  dash: 8208,
  horbar: 8213,
  numsp: 8199,
  puncsp: 8200,
  hairsp: 8202,
  nbhy: 8209,
  ohm: 937,
  angst: 197,
  half: 189,
  frac13: 8531,
  frac23: 8532,
  frac15: 8533,
  frac18: 8539,
  leq: 8804,
  geq: 8805,
  neq: 8800,
  pm: 177,
  mp: 8723,
  approx: 8776,
  ap: 8776,
  sime: 8771,
  nsim: 8769,
  ll: 8810,
  gg: 8811,
  lsim: 8818,
  gsim: 8819,
  epsiv: 1013,
  varepsilon: 1013,
  phiv: 981,
  straightphi: 981,
  thetav: 977,
  ell: 8467,
  hbar: 8463,
  planck: 8463,
  check: 10003,
  cross: 10007,
  star: 9734,
  starf: 9733,
  bigstar: 9733,
  centerdot: 183,
  bullet: 8226,
  vellip: 8942,
  ctdot: 8943,
  square: 9633,
  squ: 9633,
  blacksquare: 9642,
  utri: 9653,
  dtri: 9663,
  utrif: 9652,
  dtrif: 9662,
  rtri: 9657,
  ltri: 9667,
  cir: 9675,
  male: 9794,
  female: 9792,
  par: 8741,
  parallel: 8741,
  propto: 8733,
  angle: 8736,
  infinity: 8734,
  rightarrow: 8594,
  leftarrow: 8592,
  uparrow: 8593,
  downarrow: 8595,
  leftrightarrow: 8596,
  lpar: 40,
  rpar: 41,
  lsqb: 91,
  rsqb: 93,
  lbrack: 91,
  rbrack: 93,
  lcub: 123,
  rcub: 125,
  lbrace: 123,
  rbrace: 125,
  ast: 42,
  num: 35,
  percnt: 37,
  dollar: 36,
  commat: 64,
  excl: 33,
  quest: 63,
  colon: 58,
  semi: 59,
  comma: 44,
  period: 46,
  sol: 47,
  bsol: 92,
  verbar: 124,
  vert: 124,
  lowbar: 95,
  Hat: 94,
  grave: 96,
  equals: 61,
  plus: 43,
  Tab: 9,
  NewLine: 10,
  COPY: 169,
  REG: 174,
  TRADE: 8482,
  micro: 181,
  deg: 176,
};

/** Names XML itself predefines; the pre-pass leaves them for the parser. Upper-case HTML5 aliases map onto them. */
const XML_PREDEFINED: Record<string, string> = { lt: '&lt;', gt: '&gt;', amp: '&amp;', quot: '&quot;', apos: '&apos;' };
const XML_PREDEFINED_ALIASES: Record<string, string> = { LT: '&lt;', GT: '&gt;', AMP: '&amp;', QUOT: '&quot;' };

function buildTable(): Map<string, string> {
  const table = new Map<string, string>();
  LATIN1_NAMES.forEach((name, i) => table.set(name, String.fromCodePoint(0xa0 + i)));
  GREEK_UPPER.forEach((name, i) => table.set(name, String.fromCodePoint(0x391 + i)));
  GREEK_UPPER_2.forEach((name, i) => table.set(name, String.fromCodePoint(0x3a3 + i)));
  GREEK_LOWER.forEach((name, i) => table.set(name, String.fromCodePoint(0x3b1 + i)));
  for (const [name, cp] of Object.entries(CODE_POINTS)) table.set(name, String.fromCodePoint(cp));
  return table;
}

/** Named entity → decoded text (never one of the XML-special characters, see encodeForXml). */
const NAMED_ENTITIES: ReadonlyMap<string, string> = buildTable();

/** Characters that must stay escaped in XML text and attribute values. */
function encodeForXml(text: string): string {
  switch (text) {
    case '<':
      return '&lt;';
    case '&':
      return '&amp;';
    case '>':
      return '&gt;';
    case '"':
      return '&quot;';
    case "'":
      return '&apos;';
    default:
      return text;
  }
}

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Decodes one reference body (between & and ;). Unknown names come back as escaped literal text. */
function decodeReference(body: string): string {
  if (body.startsWith('#')) {
    const hex = body[1] === 'x' || body[1] === 'X';
    const digits = body.slice(hex ? 2 : 1);
    const cp = /^[0-9a-fA-F]+$/.test(digits) && (hex || /^[0-9]+$/.test(digits)) ? parseInt(digits, hex ? 16 : 10) : NaN;
    if (!Number.isFinite(cp) || !isXmlChar(cp)) return '\uFFFD';
    return encodeForXml(String.fromCodePoint(cp));
  }
  const predefined = XML_PREDEFINED[body] ?? XML_PREDEFINED_ALIASES[body];
  if (predefined) return predefined;
  const decoded = NAMED_ENTITIES.get(body);
  if (decoded !== undefined) return decoded;
  // Undeclared (or DTD-declared, which we never honour): keep the reference visible as text.
  return `&amp;${body};`;
}

// Markup in which '&' is not a reference (CDATA, comments, processing instructions) is copied untouched.
const REFERENCE_OR_RAW = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|&(#[xX]?[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9._-]*);/g;

/**
 * Removes the document type declaration (with any internal subset) so that no DTD, parameter entity or external
 * entity can be declared, let alone fetched; then decodes named and numeric references to characters.
 * What remains contains only the five XML-predefined references, which saxes handles itself.
 */
export function prepareXml(xml: string): string {
  const withoutDoctype = stripDoctype(xml);
  return withoutDoctype.replace(REFERENCE_OR_RAW, (match, body: string | undefined) =>
    body === undefined ? match : decodeReference(body),
  );
}

/**
 * Cuts the document type declaration (with a bracketed internal subset, honouring quoted strings) from the
 * prolog. Only the prolog is scanned: text such as "<!DOCTYPE" inside a CDATA section later is content.
 */
export function stripDoctype(xml: string): string {
  let i = 0;
  while (i < xml.length) {
    const rest = xml.slice(i, i + 9);
    if (/^\s/.test(xml[i])) {
      i++;
      continue;
    }
    if (rest.startsWith('<?')) {
      const end = xml.indexOf('?>', i + 2);
      if (end < 0) return xml;
      i = end + 2;
      continue;
    }
    if (rest.startsWith('<!--')) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0) return xml;
      i = end + 3;
      continue;
    }
    if (rest.toUpperCase() === '<!DOCTYPE') {
      let j = i + 9;
      let depth = 0;
      let quote = '';
      for (; j < xml.length; j++) {
        const c = xml[j];
        if (quote) {
          if (c === quote) quote = '';
          continue;
        }
        if (c === '"' || c === "'") quote = c;
        else if (c === '[') depth++;
        else if (c === ']') depth = Math.max(0, depth - 1);
        else if (c === '>' && depth === 0) break;
      }
      // Keep the scan going: a second DOCTYPE is malformed, but must not survive either.
      xml = xml.slice(0, i) + xml.slice(Math.min(xml.length, j + 1));
      continue;
    }
    break;
  }
  return xml;
}
