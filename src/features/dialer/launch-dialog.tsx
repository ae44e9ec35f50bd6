import { useEffect, useId, useState } from 'react';
import { bodyFor, useDialForecast, type DialTarget, type Forecast } from '../../api/dial-sessions';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { RunningSessionDialog } from './running-session-dialog';
import { useStartDialing } from './use-start-dialing';

export type DialLaunch = { target: DialTarget; /** What is being dialed, e.g. "3 selected contacts". */ summary: string };

const MODES = [
  { value: 'power', label: 'Power', hint: 'Each contact is dialed as soon as it comes up.' },
  { value: 'preview', label: 'Preview', hint: 'You see each contact first and place the call yourself.' },
] as const;

function forecastText(f: Forecast): string {
  const reasons = Object.entries(f.skipped)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} (${n.toLocaleString()})`)
    .join(', ');
  const skipped = f.skipped_count > 0 ? `${f.skipped_count.toLocaleString()} skipped: ${reasons}` : 'none skipped';
  return `${f.to_dial.toLocaleString()} will be dialed; ${skipped}.`;
}

/** Sends the rep to the new session: its redirect signs in with a one-time key and lands on the dialer. */
function follow(redirectUrl: string) {
  const url = new URL(redirectUrl, window.location.href);
  /* The key works on any address of this server; stay on the one the rep is using (the session cookie lives there). */
  window.location.assign(url.origin === window.location.origin ? url.href : `${url.pathname}${url.search}`);
}

function ModeChoice({ mode, onMode, disabled }: { mode: string; onMode: (mode: 'power' | 'preview') => void; disabled: boolean }) {
  const labelId = useId();
  const id = useId();
  return (
    <div role="radiogroup" aria-labelledby={labelId} className="space-y-2">
      <p id={labelId} className="text-sm font-medium text-zinc-700">
        Mode
      </p>
      {MODES.map((m) => (
        <div key={m.value} className="flex items-start gap-2 rounded-md border border-zinc-200 px-3 py-2">
          <input
            id={`${id}-${m.value}`}
            type="radio"
            name={`${id}-mode`}
            value={m.value}
            checked={mode === m.value}
            disabled={disabled}
            onChange={() => onMode(m.value)}
            aria-describedby={`${id}-${m.value}-hint`}
            className="mt-0.5 size-4 accent-indigo-600"
          />
          <div className="text-sm">
            <label htmlFor={`${id}-${m.value}`} className="cursor-pointer font-medium text-zinc-900">
              {m.label}
            </label>
            <p id={`${id}-${m.value}-hint`} className="text-zinc-600">
              {m.hint}
            </p>
          </div>
        </div>
      ))}
    </div>
  );
}

/** "Start a dial session": mode, the skip forecast, then the session is made and the rep sent to the dialer. */
export function LaunchDialog({ launch, onClose }: { launch: DialLaunch | null; onClose: () => void }) {
  const [mode, setMode] = useState<'power' | 'preview'>('power');
  const [leaving, setLeaving] = useState(false);
  const forecast = useDialForecast();
  const starter = useStartDialing((created) => {
    setLeaving(true);
    follow(created.redirect_url);
  });
  const launchKey = launch ? JSON.stringify(launch.target) : null;

  /* Each opening starts afresh and asks for its own forecast (which does not depend on the mode). */
  const { mutate: askForecast, reset: resetForecast } = forecast;
  useEffect(() => {
    setMode('power');
    setLeaving(false);
    resetForecast();
    if (launchKey) askForecast(bodyFor(JSON.parse(launchKey) as DialTarget, false));
  }, [launchKey, askForecast, resetForecast]);

  const start = () => {
    if (launch) starter.start({ body: bodyFor(launch.target, mode === 'preview') });
  };

  const busy = starter.busy || leaving;
  const nothingToDial = forecast.data !== undefined && forecast.data.to_dial === 0;
  const createError = Boolean(starter.error) && !(starter.error instanceof ApiError && starter.error.status === 401);

  /* Another session runs: the rep chooses before anything is made; Cancel leaves both as they were. */
  if (launch && starter.conflict.runningId) {
    return (
      <RunningSessionDialog
        {...starter.conflict}
        onCancel={() => {
          starter.conflict.onCancel();
          onClose();
        }}
      />
    );
  }

  return (
    <Dialog
      open={launch !== null}
      onClose={onClose}
      preventClose={busy}
      title="Start a dial session"
      description={launch?.summary}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" onClick={start} busy={busy} disabled={nothingToDial}>
            Start dialing
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <ModeChoice mode={mode} onMode={setMode} disabled={busy} />
        <div role="status" aria-live="polite" className="rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-800">
          {forecast.isPending && (
            <span className="flex items-center gap-2 text-zinc-600">
              <Spinner className="size-4" />
              Checking who can be called now…
            </span>
          )}
          {forecast.data && (
            <>
              <p>{forecastText(forecast.data)}</p>
              {forecast.data.total >= forecast.data.contact_limit && (
                <p className="mt-1 text-zinc-600">
                  A session holds at most {formatCount(forecast.data.contact_limit, 'contact', 'contacts')}; the rest are left out.
                </p>
              )}
              {nothingToDial && <p className="mt-1 font-medium text-amber-800">None of these contacts can be called now.</p>}
            </>
          )}
          {forecast.isError && <p>The skip forecast could not be loaded ({errorMessage(forecast.error)}); you can still start.</p>}
        </div>
        {createError && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {errorMessage(starter.error)}
          </p>
        )}
      </div>
    </Dialog>
  );
}
