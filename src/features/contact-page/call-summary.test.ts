import { describe, expect, it } from 'vitest';
import { callDuration, callKept, callOutcome } from './call-summary';

const call = {
  disposition: '',
  end_when: '2026-11-23 18:01:00',
  connected: '0' as const,
  hangup_status: '',
  recording_status: 'none' as const,
  transcript_status: 'none' as const,
};

describe('a call as the contact page lists it', () => {
  it.each([
    ['a disposition, whatever else', { disposition: 'Interested', end_when: null }, 'Interested'],
    ['still on the line', { end_when: null }, 'On the line'],
    ['answered, not dispositioned yet', { connected: '1' as const }, 'Connected'],
    ['not answered, with what the line said', { hangup_status: 'no answer' }, 'No answer'],
    ['not answered, nothing said', {}, 'No result'],
  ])('outcome: %s', (_, facts, expected) => {
    expect(callOutcome({ ...call, ...facts })).toBe(expected);
  });

  it.each([
    [0, '0:00'],
    [9.4, '0:09'],
    [59.6, '1:00'],
    [125, '2:05'],
    [3665, '61:05'],
    [-3, '0:00'],
    [Number.NaN, '0:00'],
  ])('duration %s s is %s', (seconds, expected) => {
    expect(callDuration(seconds)).toBe(expected);
  });

  it.each([
    ['nothing kept', {}, []],
    [
      'recorded and summarized',
      { recording_status: 'stored' as const, transcript_status: 'summarized' as const },
      ['Recorded', 'Transcribed'],
    ],
    [
      'recorded, transcript on its way',
      { recording_status: 'stored' as const, transcript_status: 'processing' as const },
      ['Recorded', 'Transcribing…'],
    ],
    ['recording still being stored', { recording_status: 'pending' as const }, ['Recording…']],
    ['transcription not available', { recording_status: 'stored' as const, transcript_status: 'unavailable' as const }, ['Recorded']],
  ])('kept: %s', (_, facts, expected) => {
    expect(callKept({ ...call, ...facts })).toEqual(expected);
  });
});
