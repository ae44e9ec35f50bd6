/*
 * The word index (contact_words) that answers a rep's search at a million contacts without reading the contacts:
 * one full-text row per contact that is neither trashed nor archived, whose tokens are every word of its names and
 * e-mail addresses and every phone number, each with all its suffixes of three characters or more, and each behind
 * the owner's mark. A part of a word is the start of one of its suffixes, so "urph" is the prefix query `urph*` over
 * the token "urphy"; behind the owner's mark, the tokens that match are the owner's contacts only, and a search's total
 * is the length of a doclist (FTS5 reads no contact row to count). Scope and state live in the token, so whatever
 * changes a contact's owner or moves it in or out of the trash or the archive writes its row again
 * (contact-rows.repository.ts).
 *
 * It gives the same answers as the trigram index (contact_search) for words of letters and digits. A query word with
 * punctuation in it ("o'brien", "ethan.murphy", "acme-widgets.example") can match across a word's edge, which only
 * trigrams see: the index then finds the candidates (those holding the word's parts), and each is checked against its
 * text when they are few; when they are many, the trigram index answers (as it does searches of the trash, the archive
 * and the whole organisation).
 *
 * The table is tokenized by `ascii`, which splits only at ASCII punctuation and spaces: words are split by Unicode's
 * classes in server/db/word-tokens.ts (the rows' format, which the migration that fills the index uses too), so what
 * is a word is decided in one place for the index and the query alike.
 */

import { SUFFIX_MIN, WORD, WORD_TOKEN_MAX, wordMark } from '../../db/word-tokens.js';
import { searchWords } from './search/query.js';

/** The word index's query for a search, and the words with punctuation in it that each match must be checked for. */
export type WordsQuery = { match: string; verify: string[] };

/**
 * The word index's query for a search by some owners' contacts, every word required in any order; undefined when the
 * index cannot answer it (a word of one or two characters, a word longer than a token): the caller then asks the
 * trigram index. The same words as the trigram index's query (`searchWords`).
 *
 * A word with punctuation in it ("ethan.murphy", "o'brien") may match across a word's edge, which the index does not
 * see: its words of three characters or more are required (every match has them), and the word comes back in `verify`,
 * to be found in the matches' names or e-mail addresses before they count (`listContacts` does so when they are few).
 */
export function wordsQuery(query: string, ownerIds: readonly number[]): WordsQuery | undefined {
  if (!ownerIds.length) return undefined;
  const clauses: string[] = [];
  const verify: string[] = [];
  const clause = (kind: 'w' | 'p', text: string) => {
    // Words hold letters, marks and digits only, so the token needs no quoting beyond the quotes around it.
    const prefixes = ownerIds.map((ownerId) => `"${wordMark(ownerId, kind)}${text}"*`);
    clauses.push(prefixes.length === 1 ? prefixes[0]! : `(${prefixes.join(' OR ')})`);
  };
  for (const word of searchWords(query)) {
    if (word.kind === 'number') {
      if (word.digits.length < SUFFIX_MIN || word.digits.length > WORD_TOKEN_MAX) return undefined;
      clause('p', word.digits);
      continue;
    }
    if ([...word.text].length < SUFFIX_MIN) return undefined;
    const parts = word.text.match(WORD) ?? [];
    if (parts[0] !== word.text) verify.push(word.text);
    for (const part of parts) {
      const length = [...part].length;
      if (length > WORD_TOKEN_MAX) return undefined;
      if (length >= SUFFIX_MIN) clause('w', part);
    }
  }
  return clauses.length ? { match: clauses.join(' AND '), verify } : undefined;
}

/** Whether a contact's names and e-mail addresses hold every word to check, as the trigram index would find them. */
export function holdsWords(names: string, emails: string[], verify: readonly string[]): boolean {
  const texts = [names.toLowerCase(), ...emails.map((e) => e.toLowerCase())];
  return verify.every((word) => texts.some((text) => text.includes(word)));
}
