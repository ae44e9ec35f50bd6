import { describe, expect, it } from 'vitest';
import { WORD_TOKEN_MAX, wordTokens } from '../../db/word-tokens.js';
import { holdsWords, wordsQuery } from './contact-words.js';

/** The word index's query when no word needs checking on the candidates (the index's answer is then the search's). */
function wordsMatch(query: string, ownerIds: readonly number[]): string | undefined {
  const words = wordsQuery(query, ownerIds);
  return words && !words.verify.length ? words.match : undefined;
}

describe('wordTokens', () => {
  it("holds each word of the names and e-mail addresses and each number, with their suffixes, behind the owner's mark", () => {
    const tokens = wordTokens(7, 'Ethan Murphy', ['Ethan.Murphy@acme.example'], ['2149997486']).split(' ');
    expect(tokens).toEqual(
      expect.arrayContaining(['o7xwethan', 'o7xwthan', 'o7xwhan', 'o7xwmurphy', 'o7xwurphy', 'o7xwphy', 'o7xwacme', 'o7xwexample']),
    );
    expect(tokens).toEqual(expect.arrayContaining(['o7xp2149997486', 'o7xp9997486', 'o7xp486']));
    // No suffix shorter than three characters, no token twice (the names' words are the address's too).
    expect(tokens).not.toContain('o7xwan');
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('splits at anything that is not a letter, a mark or a digit, and keeps letters of every script', () => {
    expect(wordTokens(1, "Zoë O'Brien-Núñez", [], []).split(' ')).toEqual(
      expect.arrayContaining(['o1xwzoë', 'o1xwo', 'o1xwbrien', 'o1xwnúñez', 'o1xwñez']),
    );
    expect(wordTokens(1, '山田 太郎', [], []).split(' ')).toEqual(['o1xw山田', 'o1xw太郎']);
    // Characters beyond the Basic Multilingual Plane count as one each, as the query counts them.
    expect(wordTokens(1, '𠀋𠀌𠀍𠀎', [], []).split(' ')).toEqual(['o1xw𠀋𠀌𠀍𠀎', 'o1xw𠀌𠀍𠀎']);
  });

  it(`cuts suffixes at ${WORD_TOKEN_MAX} characters, so a long word costs its length times that at most`, () => {
    const tokens = wordTokens(1, 'x'.repeat(200), [], []).split(' ');
    expect(tokens).toEqual([
      `o1xw${'x'.repeat(WORD_TOKEN_MAX)}`,
      ...Array.from({ length: WORD_TOKEN_MAX - 3 }, (_, i) => `o1xw${'x'.repeat(WORD_TOKEN_MAX - 1 - i)}`),
    ]);
  });
});

describe('wordsMatch', () => {
  it.each([
    ['murphy ethan', [7], '"o7xwmurphy"* AND "o7xwethan"*'],
    ['URPH', [7], '"o7xwurph"*'],
    ['(214) 999-7486', [7], '"o7xp2149997486"*'],
    ['1-214-999-7486', [7], '"o7xp2149997486"*'],
    ['kim 4155', [7], '"o7xwkim"* AND "o7xp4155"*'],
    ['murphy', [7, 9], '("o7xwmurphy"* OR "o9xwmurphy"*)'],
    ['núñez', [7], '"o7xwnúñez"*'],
  ])('turns %j for owners %j into %j', (query, owners, expected) => {
    expect(wordsMatch(query, owners)).toBe(expected);
  });

  it.each([
    ['a word of one or two characters', 'jo smith'],
    ['a word with punctuation, which may match across the edge of a word', "o'brien"],
    ['an e-mail address', 'ethan.murphy@acme.example'],
    ['a domain', 'acme-widgets.example'],
    ['two digits', '12'],
    ['a word longer than a token', 'y'.repeat(WORD_TOKEN_MAX + 1)],
    ['nothing', '   '],
  ])('leaves %s to the trigram index (%j)', (_label, query) => {
    expect(wordsMatch(query, [7])).toBeUndefined();
  });

  it('answers nothing for a scope of no owners', () => {
    expect(wordsMatch('murphy', [])).toBeUndefined();
  });
});

describe('wordsQuery', () => {
  it("asks for the parts of a word with punctuation, and gives the word back to be checked in each candidate's text", () => {
    expect(wordsQuery('ethan.murphy.12@acme', [7])).toEqual({
      match: '"o7xwethan"* AND "o7xwmurphy"* AND "o7xwacme"*',
      verify: ['ethan.murphy.12@acme'],
    });
    expect(wordsQuery("O'Brien 555-0188", [7])).toEqual({ match: '"o7xwbrien"* AND "o7xp5550188"*', verify: ["o'brien"] });
    expect(wordsQuery('murphy', [7])).toEqual({ match: '"o7xwmurphy"*', verify: [] });
  });

  it('leaves to the trigram index what has no part of three characters, or a part longer than a token', () => {
    expect(wordsQuery('a.b.c', [7])).toBeUndefined();
    expect(wordsQuery(`a.${'y'.repeat(WORD_TOKEN_MAX + 1)}`, [7])).toBeUndefined();
  });
});

describe('holdsWords', () => {
  it('finds each word in the names or in one address, as a part, whatever the case', () => {
    expect(holdsWords('Ethan Murphy', ['ethan.murphy.12@acme.example'], ['murphy.12@acme'])).toBe(true);
    expect(holdsWords("Sean O'Brien", [], ["o'brien"])).toBe(true);
    expect(holdsWords('Ethan Murphy', ['ethan@acme.example'], ['ethan.murphy'])).toBe(false);
    // Not across two addresses, nor across the names and an address.
    expect(holdsWords('Ethan Murphy', ['a@b.example', 'c@d.example'], ['example c@d'])).toBe(false);
    expect(holdsWords('Ethan Murphy', ['a@b.example', 'c@d.example'], ['b.example', 'c@d'])).toBe(true);
  });
});
