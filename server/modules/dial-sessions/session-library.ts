import type { CreateDialSessionBody } from '../../contracts/dial-sessions.js';
import type { Db } from '../../db/database.js';
import type { DialSession, Disposition } from '../../db/schema.js';
import { invalidField, unknownReference } from '../../lib/errors.js';
import { type DispositionSet, dispositionSets, dispositionsOf, findVoicemail } from '../dial-library/dial-library.repository.js';

const FIELDS = { dialing: 'dialing_disposition_set_id', answer: 'answer_disposition_set_id' } as const;

/**
 * The disposition sets a new session uses: the ones named at creation, which must be enabled sets of the right
 * kind the organisation may use, or else its first set of each kind (its own before the system's).
 */
export async function chosenSets(
  db: Db,
  orgId: number,
  body: Pick<CreateDialSessionBody, 'dialing_disposition_set_id' | 'answer_disposition_set_id'>,
) {
  const sets = await dispositionSets(db, orgId);
  const pick = (kind: DispositionSet['kind']) => {
    const field = FIELDS[kind];
    const wanted = body[field];
    const ofKind = sets.filter((s) => s.kind === kind).sort((a, b) => Number(a.org_id === null) - Number(b.org_id === null));
    if (wanted === undefined) {
      if (!ofKind[0]) throw invalidField(field, `Your organisation has no enabled ${kind} disposition set.`);
      return ofKind[0].id;
    }
    if (!ofKind.some((s) => s.id === wanted)) {
      throw unknownReference(
        field,
        `${field} ${wanted} is not an enabled ${kind === 'dialing' ? 'Dialing' : 'Live Answer'} disposition set of yours (GET /rest/1/dispositions).`,
      );
    }
    return wanted;
  };
  return { dialing: pick('dialing'), answer: pick('answer') };
}

/** The dispositions a session's rep can choose: its Dialing set's, then its Live Answer set's. */
export const sessionDispositions = (db: Db, session: DialSession): Promise<Disposition[]> =>
  dispositionsOf(
    db,
    [session.dialing_set_id, session.answer_set_id].filter((id): id is number => id !== null),
  );

export async function sessionDisposition(db: Db, session: DialSession, id: number): Promise<Disposition> {
  const found = (await sessionDispositions(db, session)).find((d) => d.id === id);
  if (!found) throw unknownReference('disposition_id', `disposition_id ${id} is not a disposition of this session's sets.`);
  return found;
}

export async function sessionRecording(db: Db, session: DialSession, id: number) {
  const found = await findVoicemail(db, session.org_id, id);
  if (!found)
    throw unknownReference('recording_id', `recording_id ${id} is not a voicemail recording of your library (GET /rest/1/voicemails).`);
  return { id: found.id, name: found.name, durationSeconds: found.duration_ms / 1000 };
}
