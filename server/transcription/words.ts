/*
 * One spelling for what a script and a recognizer may write differently: lower case, no punctuation, "p.m." as
 * "pm", contractions spelled out, "sales force" as "salesforce". The summarizer's patterns are written against
 * this form only.
 */

const REPLACEMENTS: [RegExp, string][] = [
  [/\bp\.?\s?m\b\.?/g, 'pm'],
  [/\ba\.\s?m\b\.?|\ba m\b/g, 'am'],
  [/\bo\s?'?\s?clock\b/g, "o'clock"],
  [/\bsales force\b/g, 'salesforce'],
  [/\bhub spot\b/g, 'hubspot'],
  [/\bi'm\b/g, 'i am'],
  [/\b(we|you|they)'re\b/g, '$1 are'],
  [/\b(it|that|she|he|there|what)'s\b/g, '$1 is'],
  [/\b(i|we|you|they)'ll\b/g, '$1 will'],
  [/\bcan't\b/g, 'can not'],
  [/\bcannot\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\b(do|does|did|is|are|was|were|would|could|should)n't\b/g, '$1 not'],
  [/\blet's\b/g, 'let us'],
];

export function normalizeText(text: string): string {
  let out = ` ${text.toLowerCase().replace(/[^a-z0-9'.: ]+/g, ' ')} `;
  for (const [pattern, replacement] of REPLACEMENTS) out = out.replace(pattern, replacement);
  return out
    .replace(/[.:]+(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
