/*
 * The format of the word index's rows (contact_words; what it is for: server/modules/contacts/contact-words.ts). Kept
 * here, below the modules, because the migration that fills the index for a store's existing contacts writes rows
 * with it too: a change to this format is a migration that fills the table again.
 */

/** A word: a run of letters, marks and digits. Anything else (spaces, punctuation, symbols) separates words. */
export const WORD = /[\p{L}\p{M}\p{N}\p{Co}]+/gu;
/** Suffixes are cut to this many characters: a query word longer than this goes to the trigram index. */
export const WORD_TOKEN_MAX = 64;
export const SUFFIX_MIN = 3;

export const wordMark = (ownerId: number, kind: 'w' | 'p') => `o${ownerId}x${kind}`;

/** A word with characters outside the Basic Multilingual Plane, where a UTF-16 index is not a character's. */
const SURROGATE = /[\uD800-\uDFFF]/;

/* A word shorter than three characters is kept whole: no query of three or more matches it, but it costs nothing. */
function addSuffixes(prefix: string, text: string, out: Set<string>) {
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    if (SURROGATE.test(word)) {
      const chars = [...word];
      for (let i = 0; i <= Math.max(0, chars.length - SUFFIX_MIN); i++) out.add(prefix + chars.slice(i, i + WORD_TOKEN_MAX).join(''));
    } else {
      // Plain slices for the common word: a dial session of 500 new contacts makes 15,000 tokens.
      for (let i = 0; i <= Math.max(0, word.length - SUFFIX_MIN); i++) out.add(prefix + word.slice(i, i + WORD_TOKEN_MAX));
    }
  }
}

/** A contact's row of the word index: its tokens, separated by spaces. */
export function wordTokens(ownerId: number, names: string, emails: string[], phones: string[]): string {
  const out = new Set<string>();
  addSuffixes(wordMark(ownerId, 'w'), names, out);
  for (const email of emails) addSuffixes(wordMark(ownerId, 'w'), email, out);
  for (const phone of phones) addSuffixes(wordMark(ownerId, 'p'), phone.replace(/\D/g, ''), out);
  return [...out].join(' ');
}
