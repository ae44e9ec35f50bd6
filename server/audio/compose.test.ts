import { beforeAll, describe, expect, it } from 'vitest';
import { chooseConversation, composeCall, composeVoicemail, machineTimings, placeTurns } from './compose.js';
import { CONVERSATIONS } from './conversations.js';
import { rmsLevels } from './levels.js';
import { CALL_CHANNEL } from './pcm.js';
import { loadVoices, type VoiceBank } from './voices.js';

const RATE = 16000;
let voices: VoiceBank;
beforeAll(async () => {
  voices = await loadVoices();
});

/** RMS between two times, trimmed a little at each end. */
const level = (channel: Float32Array, from: number, to: number) =>
  rmsLevels(channel.subarray(Math.round((from + 0.02) * RATE), Math.round((to - 0.02) * RATE)), RATE, to - from)[0] ?? 0;

describe('composeCall', () => {
  it.each(CONVERSATIONS.map((c) => [c.id, c] as const))("%s: each line on its speaker's channel, one after another", (_, conversation) => {
    const { scriptSeconds } = placeTurns(voices, conversation, 42);
    const call = composeCall({ voices, conversation, connectedSeconds: scriptSeconds + 2, seed: 42 });
    expect(call.channels.map((c) => c.length)).toEqual([Math.round((scriptSeconds + 2) * RATE), Math.round((scriptSeconds + 2) * RATE)]);
    expect(call.turns.map((t) => t.text)).toEqual(conversation.turns.map((t) => t.text));
    for (const [i, turn] of call.turns.entries()) {
      const own = call.channels[CALL_CHANNEL[turn.speaker]];
      const other = call.channels[1 - CALL_CHANNEL[turn.speaker]]!;
      expect(level(own, turn.start, turn.end)).toBeGreaterThan(0.03);
      expect(level(other, turn.start, turn.end)).toBe(0);
      const gap = turn.start - (call.turns[i - 1]?.end ?? 0);
      expect(gap).toBeGreaterThanOrEqual((i ? 0.25 : 0.3) - 1 / RATE);
      expect(gap).toBeLessThanOrEqual(1.6 + 1 / RATE);
    }
    const afterScript = call.channels.map((c) => c.subarray(Math.ceil(scriptSeconds * RATE)));
    expect(afterScript.every((c) => c.every((v) => v === 0))).toBe(true);
  });

  it('lasts exactly as long as the call was connected, cutting the script short', () => {
    const conversation = CONVERSATIONS[0]!;
    const call = composeCall({ voices, conversation, connectedSeconds: 7.25, seed: 1 });
    expect(call.channels.map((c) => c.length)).toEqual([116000, 116000]);
    expect(call.turns.length).toBeLessThan(conversation.turns.length);
    expect(call.turns.at(-1)!.end).toBeLessThanOrEqual(7.25);
    expect(composeCall({ voices, conversation, connectedSeconds: 0, seed: 1 }).channels.map((c) => c.length)).toEqual([0, 0]);
    expect(() => composeCall({ voices, conversation, connectedSeconds: -1, seed: 1 })).toThrow(RangeError);
  });

  it('places the same pauses for the same seed, and other pauses for another', () => {
    const conversation = CONVERSATIONS[2]!;
    const starts = (seed: number) => placeTurns(voices, conversation, seed).turns.map((t) => t.start);
    expect(starts(7)).toEqual(starts(7));
    expect(starts(8)).not.toEqual(starts(7));
  });
});

describe('chooseConversation', () => {
  it('chooses the same conversation for the same key, and uses every one over many keys', () => {
    expect(chooseConversation('contact:41:answered')).toBe(chooseConversation('contact:41:answered'));
    const chosen = new Set(Array.from({ length: 200 }, (_, i) => chooseConversation(`contact:${i}:answered`).id));
    expect(chosen.size).toBe(CONVERSATIONS.length);
  });
});

describe('composeVoicemail', () => {
  const greeting = Float32Array.from({ length: 3 * RATE }, (_, i) => 0.2 * Math.sin((2 * Math.PI * 300 * i) / RATE));

  it("plays the machine and its beep to the contact's side, then the member's greeting on the member's", () => {
    const call = composeVoicemail({ voices, greetingPcm16k: greeting });
    const { member, contact } = { member: call.channels[CALL_CHANNEL.member], contact: call.channels[CALL_CHANNEL.contact] };
    expect(call.beepStart).toBeGreaterThan(call.greetingStart + 3);
    expect(level(contact, call.greetingStart, call.beepStart - 0.3)).toBeGreaterThan(0.03);
    expect(level(contact, call.beepStart, call.beepEnd)).toBeGreaterThan(0.15);
    expect(level(member, 0, call.voicemailStart)).toBe(0);
    expect(call.voicemailStart).toBeCloseTo(call.beepEnd + 0.4, 6);
    expect(level(member, call.voicemailStart, call.voicemailEnd)).toBeGreaterThan(0.1);
    expect(level(contact, call.beepEnd, call.voicemailEnd)).toBe(0);
    expect(member.length).toBe(Math.round((call.voicemailEnd + 0.5) * RATE));
  });

  it('waits for the beep when the drop comes early, and stops where the call was cut', () => {
    const timings = machineTimings(voices);
    const early = composeVoicemail({ voices, greetingPcm16k: greeting, dropAtSeconds: 1 });
    expect(early.voicemailStart).toBe(timings.beepEnd);
    const cut = composeVoicemail({
      voices,
      greetingPcm16k: greeting,
      dropAtSeconds: timings.beepEnd + 1,
      connectedSeconds: timings.beepEnd + 2,
    });
    expect(cut.channels[0].length).toBe(Math.round((timings.beepEnd + 2) * RATE));
    expect(cut.voicemailEnd).toBe(timings.beepEnd + 2);
  });
});
