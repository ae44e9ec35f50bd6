/*
 * How much of a script a recognizer got: word recall, the share of the script's words found in the recognised
 * words in the same order (their longest common subsequence). Used by the engine's tests and the benchmark.
 */

/** Lower-case words without punctuation; "o'clock" keeps its apostrophe. */
export function scriptWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(' ')
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** Length of the longest common subsequence, in O(n·m) time and O(m) memory. */
function commonSubsequence(a: string[], b: string[]): number {
  let previous = new Uint32Array(b.length + 1);
  for (const word of a) {
    const row = new Uint32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) row[j] = word === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    previous = row;
  }
  return previous[b.length]!;
}

/** The share of `reference` words recognised, in order, among `recognised`; 1 for an empty reference. */
export function wordRecall(reference: string[], recognised: string[]): number {
  if (!reference.length) return 1;
  return (
    commonSubsequence(
      reference,
      recognised.map((w) => w.toLowerCase()),
    ) / reference.length
  );
}
