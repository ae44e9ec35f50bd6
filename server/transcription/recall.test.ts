import { expect, it } from 'vitest';
import { scriptWords, wordRecall } from './recall.js';

it.each([
  ["Ten o'clock on Tuesday, the fourteenth.", "ten o'clock on tuesday the fortunes", 5 / 6],
  ['How much does it cost?', 'how much does it cost', 1],
  ['How much does it cost?', 'cost it does much how', 1 / 5],
  ['Hello?', '', 0],
  ['', 'anything', 1],
])('%s heard as "%s": recall %d', (script, heard, recall) => {
  expect(wordRecall(scriptWords(script), heard.split(' ').filter(Boolean))).toBeCloseTo(recall, 10);
});
