import { useCallback, useEffect, useRef, useState } from 'react';

/*
 * A greeting recorded from the microphone with MediaRecorder (Chromium and Firefox give audio/webm;codecs=opus,
 * Safari audio/mp4; the server reads all of them). It stops by itself at the library's limit.
 */

export type RecorderState =
  | { kind: 'idle' }
  | { kind: 'asking' }
  | { kind: 'recording'; startedAt: number }
  | { kind: 'recorded'; audio: Blob; url: string; seconds: number }
  | { kind: 'denied' }
  | { kind: 'no-microphone' }
  | { kind: 'failed'; message: string };

function failureOf(error: unknown): RecorderState {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return { kind: 'denied' };
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return { kind: 'no-microphone' };
  return { kind: 'failed', message: error instanceof Error ? error.message : 'The microphone could not be started.' };
}

export function useRecorder(maxSeconds: number) {
  const [state, setState] = useState<RecorderState>({ kind: 'idle' });
  const recorder = useRef<MediaRecorder | null>(null);
  const url = useRef<string | null>(null);

  const release = useCallback(() => {
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = null;
  }, []);

  const start = useCallback(async () => {
    release();
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') return setState({ kind: 'no-microphone' });
    setState({ kind: 'asking' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      return setState(failureOf(error));
    }
    const chunks: Blob[] = [];
    const media = new MediaRecorder(stream);
    const startedAt = Date.now();
    media.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    media.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      const audio = new Blob(chunks, { type: media.mimeType || 'audio/webm' });
      url.current = URL.createObjectURL(audio);
      setState({ kind: 'recorded', audio, url: url.current, seconds: (Date.now() - startedAt) / 1000 });
    };
    recorder.current = media;
    media.start(250);
    setState({ kind: 'recording', startedAt });
  }, [release]);

  const stop = useCallback(() => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
    recorder.current = null;
  }, []);

  useEffect(() => {
    if (state.kind !== 'recording') return;
    const timer = window.setTimeout(stop, maxSeconds * 1000 - (Date.now() - state.startedAt));
    return () => window.clearTimeout(timer);
  }, [state, stop, maxSeconds]);

  /* Leaving the dialog stops the microphone and frees the recording. */
  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') {
        recorder.current.onstop = null;
        recorder.current.stop();
        for (const track of recorder.current.stream.getTracks()) track.stop();
      }
      release();
    },
    [release],
  );

  return { state, start, stop };
}

/** Seconds since `startedAt`, ticking while it is shown. */
export function useElapsed(startedAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (startedAt === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [startedAt]);
  return startedAt === null ? 0 : Math.max(0, (now - startedAt) / 1000);
}
