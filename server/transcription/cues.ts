/*
 * What a contact raised, found by lexical cues in normalised text (words.ts). A recognizer writes no question
 * marks and breaks sentences where it likes, so a question is a phrase opening with a question cue ("how much",
 * "does it", "can you", "what about"...), and what it is about is read from the words after the cue. The patterns
 * tolerate what PocketSphinx does to these calls: lost words, "i'm" for "i am", "sales force" for "salesforce".
 */

export type Objection = 'price' | 'timing' | 'competitor' | 'authority' | 'not-interested';

const OBJECTIONS: [Objection, RegExp][] = [
  ['price', /\b(too expensive|expensive|budget|too much money|can not afford|cheaper|too high|costs? too much)\b/],
  ['timing', /\b(busy|not a good time|bad time|call me back|call back later|later this|next quarter|the quarter|no time)\b/],
  [
    'competitor',
    /\b(already (use|have|using|work with)|another (dialer|provider|vendor|system)|happy with (our|what we)|competitor|switch(ed|ing)? (from|to))\b/,
  ],
  [
    'authority',
    /\b(not the (right )?person|not my decision|who decides|decision maker|the one who decides|(she|he) does not take|my (boss|manager) (decides|handles))\b/,
  ],
  ['not-interested', /\b(not interested|no thank you|no thanks|do not call|take me off|remove me)\b/],
];

const WRONG_PERSON = /\b(wrong number|wrong person|no one here by|nobody here by|no one (here )?by that name|does not work here)\b/;
const GATEKEEPER = /\b(who is calling|take a message|pass it on|(she|he) is in a meeting|(she|he) is not available)\b/;

/** Openings of a question; "how can i help" and "who is calling" are answering the phone, not asking about the product. */
const QUESTION_CUE =
  /\b(how much|how (does|do|can|long|many)|does it|do you|can (you|it|we|i)|could you|will it|is there|is it|what (about|is|are|does|if)|why (would|should)|when can|which)\b/g;
const NOT_A_QUESTION = /^(how can i help|can i help|what is your name|can you call|can i ask who)/;
const QUESTION_WORDS = 9;
/** Openings that ask about the product whatever follows: quoted when no known topic matches. */
const PRODUCT_QUESTION = /^(does it|can it|will it|is there|what about|how much|how does)\b/;

const TOPICS: [RegExp, (phrase: string) => string][] = [
  [
    /\b(salesforce|hubspot|crm|integrat\w*|work with|connect)\b/,
    (p) => {
      const system = /\b(salesforce|hubspot)\b/.exec(p)?.[1];
      return system ? `whether it works with ${system === 'hubspot' ? 'HubSpot' : 'Salesforce'}` : 'about integrations';
    },
  ],
  [/\b(cost|price|pricing|how much|per user|expensive)\b/, () => 'about the price'],
  [/\b(contract|contracts|cancel|commitment)\b/, () => 'about the contract terms'],
  [/\bhow (does|do) (it|this|that) work\b/, () => 'how it works'],
  [/\b(switch\w*)\b/, () => 'why they should switch'],
  [/\b(what is this about|what are you selling|what is this regarding|what is it about)\b/, () => 'what the call was about'],
];

export type Raised = { objections: Objection[]; questions: string[]; wrongPerson: boolean; gatekeeper: boolean };

/** The question phrases of a segment: from each cue to the next cue or QUESTION_WORDS words on. */
function questionPhrases(text: string): string[] {
  const starts = [...text.matchAll(QUESTION_CUE)].map((m) => m.index);
  return starts.map((start, i) =>
    text
      .slice(start, starts[i + 1] ?? text.length)
      .split(' ')
      .slice(0, QUESTION_WORDS)
      .join(' ')
      .trim(),
  );
}

/** The objections, questions (as phrases for a sentence), wrong number and gatekeeper in the contact's segments. */
export function contactRaised(texts: string[]): Raised {
  const all = texts.join(' . ');
  const objections = OBJECTIONS.filter(([, pattern]) => pattern.test(all)).map(([objection]) => objection);
  const questions = new Set<string>();
  for (const phrase of texts.flatMap(questionPhrases)) {
    if (NOT_A_QUESTION.test(phrase)) continue;
    const topic = TOPICS.find(([pattern]) => pattern.test(phrase));
    if (topic) questions.add(topic[1](phrase));
    else if (PRODUCT_QUESTION.test(phrase) && phrase.split(' ').length >= 4) questions.add(`"${phrase}"`);
  }
  return { objections, questions: [...questions], wrongPerson: WRONG_PERSON.test(all), gatekeeper: GATEKEEPER.test(all) };
}
