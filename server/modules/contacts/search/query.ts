/*
 * How a search splits into words, and the queries of the indexes both stores share: pure, so each store's search
 * (sqlite-search.repository.ts, postgres-search.repository.ts) and the repositories read them without importing one another.
 */

/** The next term after every term that starts with `prefix`, for an index range instead of LIKE. */
export const prefixEnd = (prefix: string) => prefix + '\uffff';

export function searchTerms(query: string): string[] {
  const lowered = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const digits = lowered.replace(/[\s().+-]/g, '');
  return /^\d{3,}$/.test(digits) && digits !== lowered ? [lowered, digits.replace(/^1(?=\d{10}$)/, '')] : [lowered];
}

const PHONE_WORD = /^[\d().+-]*\d[\d().+-]*$/;
const quoted = (word: string) => `"${word.replaceAll('"', '""')}"`;

/** A word of a search as both full-text indexes read it: a number's digits, or text, lower-cased. */
export type SearchWord = { kind: 'number'; digits: string } | { kind: 'text'; text: string };

/**
 * A search's words: a query that is all phone characters is one number, however it is spaced ("(214) 999 7486"); a word
 * of digits and phone punctuation is a number, with an 11-digit number's leading 1 dropped; any other word is text.
 */
export function searchWords(query: string): SearchWord[] {
  const joined = /^[\d\s().+-]+$/.test(query) ? query.replace(/\s+/g, '') : query;
  return joined
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((word): SearchWord =>
      PHONE_WORD.test(word)
        ? { kind: 'number', digits: word.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '') }
        : { kind: 'text', text: word },
    );
}

/**
 * The trigram index's query for a search, every word required in any order: a number matches a run of a phone number;
 * text, a part of a name or e-mail. Undefined when a word is shorter than three characters: that search takes the
 * prefix index.
 */
export function searchMatch(query: string): string | undefined {
  const parts = searchWords(query).map((word) => {
    if (word.kind === 'number') return word.digits.length >= 3 ? `phones : ${quoted(word.digits)}` : undefined;
    return [...word.text].length >= 3 ? `{names emails} : ${quoted(word.text)}` : undefined;
  });
  return parts.length && parts.every(Boolean) ? parts.join(' AND ') : undefined;
}
