import type { TranscriptSummary } from '../../../server/contracts/dial-sessions';
import { formatDuration } from '../usage/session-calls';
import type { SpeakerNames } from './transcript-lines';

/** Who talked how long: the member's and the contact's seconds, their shares, and a bar of the two. */
export function TalkSplit({ talkTime, names }: { talkTime: TranscriptSummary['talk_time']; names: SpeakerNames }) {
  const seconds = (label: 'member' | 'contact') => talkTime.find((t) => t.speaker_label === label)?.time ?? 0;
  const [member, contact] = [seconds('member'), seconds('contact')];
  const total = member + contact;
  const share = (n: number) => (total ? Math.round((n / total) * 100) : 0);
  const rows = [
    { label: 'member' as const, time: member, color: 'bg-indigo-500' },
    { label: 'contact' as const, time: contact, color: 'bg-emerald-500' },
  ];
  return (
    <div className="flex flex-col gap-2">
      <dl className="grid grid-cols-2 gap-2 text-sm">
        {rows.map((r) => (
          <div key={r.label}>
            <dt className="flex items-center gap-1.5 text-zinc-600">
              <span aria-hidden="true" className={`size-2.5 rounded-full ${r.color}`} />
              {names[r.label]}
            </dt>
            <dd className="font-medium text-zinc-900 tabular-nums">
              {formatDuration(r.time)} ({share(r.time)} %)
            </dd>
          </div>
        ))}
      </dl>
      <div
        role="img"
        aria-label={`Talk time: ${names.member} ${share(member)} %, ${names.contact} ${share(contact)} %`}
        className="flex h-2.5 overflow-hidden rounded-full bg-zinc-200"
      >
        {total > 0 && rows.map((r) => <div key={r.label} className={r.color} style={{ width: `${share(r.time)}%` }} />)}
      </div>
    </div>
  );
}
