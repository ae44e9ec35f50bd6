import type { DispositionOption } from '../../api/dial-sessions';
import { ShortcutButton } from './shortcut-button';

const GROUPS: { set: DispositionOption['set']; title: string }[] = [
  { set: 'dialing', title: 'Call outcome' },
  { set: 'live_answer', title: 'Conversation' },
];

/** One button per disposition of the session's sets, each with its digit shortcut. */
export function DispositionButtons({
  dispositions,
  enabled,
  onPick,
}: {
  dispositions: DispositionOption[];
  enabled: boolean;
  onPick: (disposition: DispositionOption) => void;
}) {
  return (
    <section aria-label="Dispositions" className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
      {GROUPS.map(({ set, title }) => {
        const options = dispositions.filter((d) => d.set === set);
        if (!options.length) return null;
        return (
          <div key={set} role="group" aria-label={title}>
            <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</h3>
            <div className="flex flex-wrap gap-2">
              {options.map((d) => (
                <ShortcutButton
                  key={d.disposition_id}
                  size="sm"
                  variant={d.connected === '1' ? 'primary' : 'secondary'}
                  label={d.label}
                  shortcut={d.shortcut}
                  disabled={!enabled}
                  onClick={() => onPick(d)}
                />
              ))}
            </div>
          </div>
        );
      })}
    </section>
  );
}
