import { useCallback, useEffect, useRef, useState } from 'react';

/** How far the arrow keys and the skip buttons move the player. */
export const SEEK_STEP_SECONDS = 5;

export type Player = {
  ref: React.RefObject<HTMLAudioElement | null>;
  playing: boolean;
  /** Where the player is, in seconds. */
  time: number;
  /** The recording's length in seconds (the call's, until the audio says). */
  duration: number;
  /** The audio could not be loaded (gone from the store, or never there). */
  failed: boolean;
  toggle: () => void;
  seek: (seconds: number) => void;
  seekBy: (seconds: number) => void;
};

/** The state of an <audio> element (rendered with `ref` and `src`) kept in React, and the commands the custom controls give it. */
export function usePlayer(src: string | null, fallbackDuration: number): Player {
  const ref = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const duration = mediaDuration ?? fallbackDuration;

  useEffect(() => {
    const audio = ref.current;
    if (!audio || !src) return;
    setFailed(false);
    const onTime = () => setTime(audio.currentTime);
    const onDuration = () => setMediaDuration(Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : null);
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    const onError = () => setFailed(true);
    const events: [string, () => void][] = [
      ['timeupdate', onTime],
      ['seeked', onTime],
      ['loadedmetadata', onDuration],
      ['durationchange', onDuration],
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onPause],
      ['error', onError],
    ];
    for (const [name, handler] of events) audio.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of events) audio.removeEventListener(name, handler);
    };
  }, [src]);

  const seek = useCallback((seconds: number) => {
    const audio = ref.current;
    if (!audio) return;
    const limit = Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : Number.MAX_SAFE_INTEGER;
    const to = Math.min(Math.max(0, seconds), limit);
    audio.currentTime = to;
    setTime(to);
  }, []);

  const seekBy = useCallback((seconds: number) => seek((ref.current?.currentTime ?? 0) + seconds), [seek]);

  const toggle = useCallback(() => {
    const audio = ref.current;
    if (!audio) return;
    if (audio.paused) audio.play().catch(() => setPlaying(false));
    else audio.pause();
  }, []);

  return { ref, playing, time, duration, failed, toggle, seek, seekBy };
}

const TYPING = 'input:not([type=range]), textarea, select, [contenteditable=""], [contenteditable="true"]';

/**
 * Space plays and pauses, the left and right arrows seek 5 s, anywhere on the page (the seek slider too) but in a field (where the keys
 * type or move a caret) or, for space, on a button or link (which space presses).
 */
export function usePlayerKeys(player: Pick<Player, 'toggle' | 'seekBy'>, enabled: boolean) {
  const { toggle, seekBy } = player;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(TYPING)) return;
      if (event.key === ' ' && !target?.closest('button, a, summary')) {
        event.preventDefault();
        toggle();
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        seekBy(event.key === 'ArrowLeft' ? -SEEK_STEP_SECONDS : SEEK_STEP_SECONDS);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled, toggle, seekBy]);
}
