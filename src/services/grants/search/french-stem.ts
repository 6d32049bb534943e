// A light stemmer for French words, written here for C's search of the French texts: "subventions" finds
// "subvention", "santés" "santé", "journaux" "journal", "financement" "financer". Light on purpose: it removes
// inflection (plural, feminine) and a few derivational suffixes, nothing that merges unrelated words often;
// a word is compared with the text's words by its stem only when the search is in French.
//
// The word is lowercase with its accents removed (foldAccents), as the search's folded texts are; words with
// other than the letters a–z are left as they are. Steps, each on what the one before left:
//  1. plural: "aux" → "al" (journaux → journal); else a final "s" (not "ss") or "x" goes;
//  2. one suffix, the longest that fits: issement, ement, ation, atrice, ateur, euse, eux, ive, if, ite, er, ee,
//     e (développement, développer → developp; formation, former → form; étudiante → etudiant);
// a step applies only when at least MIN_STEM letters remain.

const MIN_STEM = 3;
const LETTERS = /^[a-z]+$/;
/** Step 2's suffixes, longest first. */
const SUFFIXES = ['issement', 'atrice', 'ement', 'ateur', 'ation', 'euse', 'eux', 'ive', 'ite', 'if', 'er', 'ee', 'e'];

/** The stem of a folded French word (see above); the word itself when it is not a–z only. */
export function frenchStem(word: string): string {
  if (!LETTERS.test(word)) return word;
  let w = word;
  if (w.endsWith('aux') && w.length - 1 >= MIN_STEM + 1) w = `${w.slice(0, -3)}al`;
  else if ((w.endsWith('s') && !w.endsWith('ss')) || w.endsWith('x')) {
    if (w.length - 1 >= MIN_STEM) w = w.slice(0, -1);
  }
  for (const suffix of SUFFIXES) {
    if (w.endsWith(suffix)) {
      if (w.length - suffix.length >= MIN_STEM) w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}
