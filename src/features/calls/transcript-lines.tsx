import { useEffect, useRef } from 'react';
import type { TranscriptRecord } from '../../../server/contracts/dial-sessions';
import { formatDuration } from '../usage/session-calls';

type Segment = TranscriptRecord['segments'][number];
export type SpeakerNames = Record<Segment['speaker_label'], string>;

/** The line being played: the last one begun at `time` (it stays lit through the pause after it). */
export function activeLine(segments: Segment[], time: number): number {
  let active = -1;
  segments.forEach((s, i) => {
    if (s.start <= time + 0.05) active = i;
  });
  return active;
}

type Props = { segments: Segment[]; names: SpeakerNames; time: number; playing: boolean; onSeek: (seconds: number) => void };

/** The transcript line by line, by speaker and time; the line being played is marked (aria-current) and followed. */
export function TranscriptLines({ segments, names, time, playing, onSeek }: Props) {
  const active = activeLine(segments, time);
  const activeRef = useRef<HTMLLIElement | null>(null);

  useEffect(() => {
    // Followed while playing; a reader scrolling a paused transcript keeps its place.
    if (playing) activeRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [active, playing]);

  if (!segments.length) return <p className="text-sm text-zinc-600">Nothing was heard on this call.</p>;
  return (
    <ol aria-label="Transcript lines" className="flex max-h-[28rem] flex-col gap-1 overflow-y-auto pr-1">
      {segments.map((s, i) => (
        <li
          key={`${s.speaker_label}-${s.start}`}
          ref={i === active ? activeRef : undefined}
          aria-current={i === active ? 'true' : undefined}
          className={`rounded-md ${i === active ? 'bg-indigo-50 ring-1 ring-indigo-200' : ''} ${s.speaker_label === 'member' ? 'sm:mr-10' : 'sm:ml-10'}`}
        >
          <button
            type="button"
            onClick={() => onSeek(s.start)}
            className="flex w-full flex-col items-start gap-0.5 rounded-md px-3 py-2 text-left hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <span className="flex gap-2 text-xs text-zinc-500">
              <span className={`font-semibold ${s.speaker_label === 'member' ? 'text-indigo-700' : 'text-emerald-700'}`}>
                {names[s.speaker_label]}
              </span>
              <span className="tabular-nums">{formatDuration(s.start)}</span>
            </span>
            <span className="text-sm text-zinc-900">{s.text}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
