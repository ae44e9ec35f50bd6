/*
 * Demo data for the dialer: a folder per rep of contacts whose numbers cover the simulated carrier's whole table
 * (the last digit decides: 0-4 a person, 5-6 a machine, 7 no answer, 8 busy, 9 not in service), a contact marked
 * do-not-call, and contacts in Guam and Honolulu, where it is outside calling hours for much of the US day; the
 * organisation's voicemail recordings and a couple of its own messages.
 */
import type { AuthContext } from '../auth/access.js';
import type { Store } from '../db/database.js';
import { createContactBody } from '../contracts/contacts.js';
import { demoRecording, wavDurationSeconds } from '../dialer/demo-audio.js';
import { now } from '../lib/time.js';
import { createContact } from '../modules/contacts/contacts.service.js';
import { insertMessage, insertVoicemail } from '../modules/dial-library/dial-library.repository.js';
import { createFolder } from '../modules/folders/folders.service.js';

const OUTCOMES = ['Person', 'Person', 'Person', 'Person', 'Person', 'Machine', 'Machine', 'No answer', 'Busy', 'Not in service'] as const;
const NAMES = [
  ['Avery', 'Quinn'],
  ['Jordan', 'Blake'],
  ['Riley', 'Parker'],
  ['Casey', 'Morgan'],
  ['Taylor', 'Reese'],
  ['Skyler', 'Hayes'],
  ['Rowan', 'Ellis'],
  ['Emerson', 'Gray'],
  ['Finley', 'Brooks'],
  ['Harper', 'Lane'],
] as const;

const RECORDINGS = [
  { name: 'Intro: sorry I missed you', seconds: 8 },
  { name: 'Follow-up on our proposal', seconds: 10 },
  { name: 'Please call me back', seconds: 6 },
];

export async function seedDialerDemo(
  ctx: { store: Store },
  vendorAuth: AuthContext,
  reps: { auth: AuthContext; exchange: string }[],
): Promise<void> {
  await ctx.store.write(async (tx) => {
    const at = now();
    for (const [kind, r] of RECORDINGS.entries()) {
      const audio = demoRecording(kind, r.seconds);
      await insertVoicemail(tx, {
        org_id: vendorAuth.member.org_id,
        member_id: null,
        name: r.name,
        content_type: 'audio/wav',
        audio,
        duration_ms: Math.round(wavDurationSeconds(audio) * 1000),
        created_at: at,
      });
    }
    for (const [i, m] of [
      [
        'Thanks for the demo',
        'After a product demo',
        'Thanks for your time, {first_name}',
        'Hi {first_name},\n\nthank you for the demo today.\n\n{member_first_name}',
      ],
      [
        'Pricing as promised',
        'Sends the price sheet',
        'Our prices, {first_name}',
        'Hi {first_name},\n\nas promised, our price sheet follows.\n\n{member_first_name}',
      ],
    ].entries()) {
      await insertMessage(tx, {
        org_id: vendorAuth.member.org_id,
        type: 'onetouch',
        display_name: m[0]!,
        description: m[1]!,
        subject: m[2]!,
        body: m[3]!,
        display_order: 100 + i,
        created_at: at,
      });
    }
  });
  const folder = await createFolder(ctx, vendorAuth, {
    name: 'Dialer demo',
    description: 'Numbers that exercise every outcome of the simulated carrier',
  });
  for (const rep of reps) await seedRepContacts(ctx, rep.auth, rep.exchange, folder.id);
}

/** Ten contacts ending 0-9, one do-not-call, one in Guam and one in Honolulu, all in the rep's name. */
async function seedRepContacts(ctx: { store: Store }, auth: AuthContext, exchange: string, folderId: number) {
  const entries: { name: readonly [string, string]; phone: string; note: string }[] = OUTCOMES.map((outcome, digit) => ({
    name: NAMES[digit]!,
    phone: `312${exchange}010${digit}`,
    note: `Simulated carrier: ${outcome.toLowerCase()} (number ends in ${digit}).`,
  }));
  entries.push(
    { name: ['Dana', 'Whitfield'], phone: `312${exchange}0111`, note: 'Asked not to be called again.' },
    { name: ['Kai', 'Santos'], phone: `671${exchange}0102`, note: 'Guam: outside calling hours for much of the US day.' },
    { name: ['Leilani', 'Kahale'], phone: `808${exchange}0103`, note: 'Honolulu: calling hours start late in the US day.' },
  );
  for (const [i, e] of entries.entries()) {
    await createContact(
      ctx,
      auth,
      createContactBody.parse({
        first_name: e.name[0],
        last_name: e.name[1],
        phone: e.phone,
        phone_type: 3,
        category_id: folderId,
        tags: ['Dialer demo'],
        notes: e.note,
        do_not_call: i === 10 ? 1 : 0,
        email: `${e.name[0]}.${e.name[1]}.${auth.member.username}@example.com`.toLowerCase(),
      }),
    );
  }
}
