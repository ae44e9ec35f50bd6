/*
 * The simulated carrier's calls: a rep (the member) calls a lead (the contact) about a Ringbook-like product.
 * Each ends differently, so transcripts and summaries have something to find: a meeting agreed on a weekday or
 * a date, a price objection, a call back later, a wrong person, a question about integrations and competitors,
 * a gatekeeper. The lines are rendered once to audio by scripts/render-voices.ts; a changed line must be
 * rendered again (a test checks that every line has its clip).
 */
import type { Speaker } from './pcm.js';

export type Turn = { speaker: Speaker; text: string };
export type Conversation = { id: string; outcome: ConversationOutcome; turns: Turn[] };
export type ConversationOutcome = 'meeting' | 'not-interested' | 'call-back' | 'wrong-person' | 'question' | 'gatekeeper';

const m = (text: string): Turn => ({ speaker: 'member', text });
const c = (text: string): Turn => ({ speaker: 'contact', text });

export const CONVERSATIONS: readonly Conversation[] = [
  {
    id: 'meeting-thursday',
    outcome: 'meeting',
    turns: [
      c('Hello?'),
      m('Hi, is this Sam? This is Alex calling from Ringbook.'),
      c('Yes, this is Sam. What is this about?'),
      m('We help sales teams call more leads in less time, with a power dialer and call notes in one place.'),
      c('Okay. We make a lot of calls every day, so that could be interesting.'),
      m('How many people are on your sales team right now?'),
      c('We have twelve sales reps, and they still dial every number by hand.'),
      m('Then a short demo would show you how much time they could save.'),
      c('Sure, I would like to see a demo.'),
      m('Great. How about Thursday at two pm?'),
      c('Thursday at two works for me.'),
      m('Perfect, I will send you an invite for Thursday at two pm. Thank you, Sam.'),
      c('Thank you, talk to you then. Goodbye.'),
    ],
  },
  {
    id: 'meeting-date',
    outcome: 'meeting',
    turns: [
      c('Hello, this is Chris.'),
      m('Good morning Chris, this is Alex from Ringbook. Are you the sales manager?'),
      c('Yes, speaking. How can I help you?'),
      m('I saw that your team is growing, and I wanted to show you how our dialer keeps every call in your contact list.'),
      c('We have been looking for something like that. How does it work?'),
      m('Your reps click one button, and the dialer calls the next contact and logs the call for you.'),
      c('That sounds useful. Can we set up a meeting with my team?'),
      m('Of course. Would next Tuesday the fourteenth work for you?'),
      c("Next Tuesday the fourteenth is good. Let us say ten o'clock in the morning."),
      m("Ten o'clock on Tuesday the fourteenth. I will send the details by email."),
      c('Great, see you then.'),
    ],
  },
  {
    id: 'price-objection',
    outcome: 'not-interested',
    turns: [
      c('Hello?'),
      m('Hello, this is Alex with Ringbook. Do you have a minute?'),
      c('I have a minute. What are you selling?'),
      m('A dialer for sales teams. It calls your leads one after another and records every call.'),
      c('How much does it cost?'),
      m('It is forty dollars per user per month.'),
      c('That is too expensive for us. We do not have the budget for another tool this year.'),
      m('I understand. Many teams save that much in the first week of calls.'),
      c('No, thank you. We are not interested.'),
      m('No problem. Thank you for your time. Have a good day.'),
    ],
  },
  {
    id: 'call-back-later',
    outcome: 'call-back',
    turns: [
      c('Hello?'),
      m('Hi, this is Alex from Ringbook. Is now a good time to talk?'),
      c('Not really. I am busy right now, we are closing the quarter.'),
      m('I understand. It will only take a minute. We help sales teams make more calls every day.'),
      c('What about the contracts? Can we cancel at any time?'),
      m('Yes, you can cancel at any time. There is no contract.'),
      c('Okay. Can you call me back next week? I will have more time then.'),
      m('Of course. I will call you back on Monday morning.'),
      c('Monday morning is fine. Bye.'),
    ],
  },
  {
    id: 'wrong-person',
    outcome: 'wrong-person',
    turns: [
      c('Hello?'),
      m('Hello, may I speak with Jordan Miller, please?'),
      c('I am sorry, there is no one here by that name.'),
      m('Oh, is this the office of Miller and Sons?'),
      c('No, I think you have the wrong number.'),
      m('I apologize for the trouble. Have a good day.'),
      c('No problem. Goodbye.'),
    ],
  },
  {
    id: 'integration-question',
    outcome: 'question',
    turns: [
      c('Hello?'),
      m('Hi, this is Alex from Ringbook. I am calling about the dialer you asked about on our website.'),
      c('Right, I remember. Does it work with Salesforce?'),
      m('Yes. Every call and every note goes into Salesforce on its own.'),
      c('We already use another dialer. Why would we switch?'),
      m('Our dialer keeps the whole team on one list, and the calls are much faster.'),
      c('Can you send me the pricing by email? I will compare it with what we have.'),
      m('Sure. I will send you the pricing today.'),
      c('Thanks. I will read it and get back to you.'),
    ],
  },
  {
    id: 'gatekeeper',
    outcome: 'gatekeeper',
    turns: [
      c('Good afternoon, Bright Path Logistics. How can I help you?'),
      m('Hi, may I speak with the head of sales, please?'),
      c('She is in a meeting right now. May I ask who is calling?'),
      m('This is Alex from Ringbook. It is about the dialer for her sales team.'),
      c('She does not take sales calls. I am not the person who decides that.'),
      m('I understand. When would be a good time to reach her?'),
      c('You can send an email to the office, and I will pass it on.'),
      m('Thank you very much. I will do that.'),
    ],
  },
];

/** What an answering machine says before its beep; played on the contact's channel when a machine answers. */
export const MACHINE_GREETING: Turn = c(
  'Hi, you have reached the voice mail of Jordan Miller. I can not take your call right now. Please leave a message after the tone.',
);
export const MACHINE_GREETING_ID = 'machine-greeting';

export const clipId = (conversationId: string, turnIndex: number) => `${conversationId}-${String(turnIndex + 1).padStart(2, '0')}`;

/** Every line to render: each conversation's turns and the machine's greeting. */
export function allLines(): { id: string; turn: Turn }[] {
  return [
    ...CONVERSATIONS.flatMap((conversation) => conversation.turns.map((turn, i) => ({ id: clipId(conversation.id, i), turn }))),
    { id: MACHINE_GREETING_ID, turn: MACHINE_GREETING },
  ];
}
