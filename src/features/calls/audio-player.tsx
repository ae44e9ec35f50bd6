import { formatDuration } from '../usage/session-calls';
import { type Player, SEEK_STEP_SECONDS } from './use-player';

const icons = {
  play: 'M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z',
  pause:
    'M5.75 3a.75.75 0 0 0-.75.75v12.5c0 .414.336.75.75.75h1.5a.75.75 0 0 0 .75-.75V3.75A.75.75 0 0 0 7.25 3h-1.5ZM12.75 3a.75.75 0 0 0-.75.75v12.5c0 .414.336.75.75.75h1.5a.75.75 0 0 0 .75-.75V3.75a.75.75 0 0 0-.75-.75h-1.5Z',
} as const;

const roundButton =
  'inline-flex items-center justify-center rounded-full font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** Custom controls over the recording's <audio> element: play/pause, 5 s back and forward, and a seek slider. */
export function AudioPlayer({ src, player }: { src: string; player: Player }) {
  const { ref, playing, time, duration, toggle, seek, seekBy } = player;
  const position = `${formatDuration(time)} of ${formatDuration(duration)}`;
  return (
    <div className="flex flex-col gap-3">
      <audio ref={ref} src={src} preload="metadata" className="hidden" />
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={() => seekBy(-SEEK_STEP_SECONDS)}
          aria-keyshortcuts="ArrowLeft"
          className={`${roundButton} h-9 px-3 text-sm text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-50`}
        >
          <span aria-hidden="true">−5 s</span>
          <span className="sr-only">Back 5 seconds</span>
        </button>
        <button
          type="button"
          onClick={toggle}
          aria-label={playing ? 'Pause' : 'Play'}
          aria-keyshortcuts="Space"
          className={`${roundButton} size-11 bg-indigo-600 text-white shadow-sm hover:bg-indigo-500`}
        >
          <svg viewBox="0 0 20 20" fill="currentColor" className="size-5" aria-hidden="true">
            <path d={playing ? icons.pause : icons.play} />
          </svg>
        </button>
        <button
          type="button"
          onClick={() => seekBy(SEEK_STEP_SECONDS)}
          aria-keyshortcuts="ArrowRight"
          className={`${roundButton} h-9 px-3 text-sm text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-50`}
        >
          <span aria-hidden="true">+5 s</span>
          <span className="sr-only">Forward 5 seconds</span>
        </button>
        <p className="ml-auto text-sm text-zinc-600 tabular-nums" aria-hidden="true">
          {formatDuration(time)} / {formatDuration(duration)}
        </p>
      </div>
      <input
        type="range"
        aria-label="Seek"
        aria-valuetext={position}
        min={0}
        max={Math.max(duration, 0.1)}
        step={0.1}
        value={Math.min(time, Math.max(duration, 0.1))}
        onChange={(e) => seek(Number(e.target.value))}
        className="w-full accent-indigo-600"
      />
    </div>
  );
}
