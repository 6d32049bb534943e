import Database from 'better-sqlite3';
const db = new Database('/tmp/g.sqlite');
db.pragma('cache_size = -65536');
const T = (label: string, f: () => any) => { const t = performance.now(); const r = f(); console.log(label, (performance.now() - t).toFixed(1), 'ms', typeof r === 'object' ? JSON.stringify(r).slice(0, 100) : r); return r; };
if (!db.prepare("select name from sqlite_master where name='texts'").get()) {
  T('texts', () => db.exec(`CREATE TABLE texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
   INSERT INTO texts(text) SELECT agreement_title_en FROM grants_agreements UNION SELECT recipient_legal_name FROM grants_agreements UNION SELECT description_en FROM grants_agreements UNION SELECT program_name_en FROM grants_agreements;`));
  T('fts', () => db.exec(`CREATE VIRTUAL TABLE texts_fts USING fts5(text, content='texts', content_rowid='id', tokenize='trigram case_sensitive 0', detail=none); INSERT INTO texts_fts(texts_fts) VALUES('rebuild');`));
}
const q = (needle: string) => {
  const chars = [...needle.toLowerCase()];
  const grams = [...new Set(chars.slice(0, chars.length - 2).map((_, i) => chars.slice(i, i + 3).join('')))];
  const kept = grams.length <= 6 ? grams : Array.from({ length: 6 }, (_, i) => grams[Math.round((i * (grams.length - 1)) / 5)]);
  return kept.map((g) => `"${g}"`).join(' AND ');
};
const st = db.prepare(`SELECT id FROM texts WHERE id IN (SELECT rowid FROM texts_fts WHERE texts_fts MATCH ?) AND instr(lower(text), ?) > 0`).pluck();
for (const needle of ['mental health', 'hospital', 'university', 'canada', 'research', 'xyzzy']) {
  for (let i = 0; i < 3; i++) T(needle, () => st.all(q(needle), needle).length);
}
