import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNetwork, isTerminal, type Network, type NetworkEvent, type Timeline } from './network.js';

/*
 * The clock is faked, so every event's arrival time is exact: a log entry is [seconds since the call was placed,
 * what happened], and a call that is over must stay silent however long we wait afterwards: an event after a
 * terminal one is logged as such, so every exact expectation below also checks that.
 */
type Entry = [seconds: number, callId: string, what: string];

const describeEvent = (event: NetworkEvent) =>
  event.kind === 'answered' ? `answered by ${event.by}` : event.kind === 'failed' ? `failed: ${event.reason}` : event.kind;

let carrier: Network;
let ended: Timeline[];
let log: Entry[];
let start: number;

function open(timeScale = 1, beepEnd = 0) {
  log = [];
  start = Date.now();
  ended = [];
  const over = new Set<string>();
  carrier = createNetwork({
    timeScale,
    beepEndSeconds: () => beepEnd,
    onEnded: (timeline) => ended.push(timeline),
    onEvent: (callId, event) => {
      log.push([(Date.now() - start) / 1000, callId, `${describeEvent(event)}${over.has(callId) ? ' after the end' : ''}`]);
      if (isTerminal(event)) over.add(callId);
    },
  });
}

const at = (seconds: number) => vi.advanceTimersByTime(seconds * 1000 - (Date.now() - start));
const eventsOf = (callId = '1') => log.filter(([, id]) => id === callId).map(([seconds, , what]) => [seconds, what]);
const place = (to: string, ringSeconds = 30, callId = '1') => carrier.placeCall({ callId, to, ringSeconds });

beforeEach(() => {
  vi.useFakeTimers();
  open();
});
afterEach(() => {
  carrier.close();
  vi.useRealTimers();
});

describe('the outcome of a call, by the last digit of the number', () => {
  const person = [
    [0, 'ringing'],
    [3, 'answered by person'],
  ];
  const machine = [
    [0, 'ringing'],
    [4, 'answered by machine'],
    [64, 'ended'],
  ];
  it.each([
    ['0', person],
    ['1', person],
    ['2', person],
    ['3', person],
    ['4', person],
    ['5', machine],
    ['6', machine],
    [
      '7',
      [
        [0, 'ringing'],
        [30, 'no_answer'],
      ],
    ],
    [
      '8',
      [
        [0, 'ringing'],
        [1, 'busy'],
      ],
    ],
    [
      '9',
      [
        [0, 'ringing'],
        [1, 'failed: not in service'],
      ],
    ],
  ])('ending in %s: %j', (digit, expected) => {
    place(`212555010${digit}`);
    expect(log, 'nothing is delivered from inside placeCall').toEqual([]);
    at(3600);
    expect(eventsOf()).toEqual(expected);
  });

  it.each([
    [
      'a person is slower than a 2 s ring time',
      '2125550100',
      2,
      [
        [0, 'ringing'],
        [2, 'no_answer'],
      ],
    ],
    [
      'a person answers as the 3 s ring time runs out',
      '2125550100',
      3,
      [
        [0, 'ringing'],
        [3, 'answered by person'],
      ],
    ],
    [
      'a machine is slower than a 3 s ring time',
      '2125550105',
      3,
      [
        [0, 'ringing'],
        [3, 'no_answer'],
      ],
    ],
    [
      'nobody answers within a 45 s ring time',
      '2125550107',
      45,
      [
        [0, 'ringing'],
        [45, 'no_answer'],
      ],
    ],
  ])('gives up ringing when %s', (_label, to, ringSeconds, expected) => {
    place(to, ringSeconds);
    at(3600);
    expect(eventsOf()).toEqual(expected);
  });

  it('delivers each event no earlier than its time', () => {
    place('2125550108');
    at(0.999);
    expect(eventsOf()).toEqual([[0, 'ringing']]);
    at(1);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [1, 'busy'],
    ]);
  });
});

describe('hanging up', () => {
  it('cancels a ringing call: ended, and no answer afterwards', () => {
    place('2125550100');
    at(1.5);
    carrier.hangUp('1');
    expect(eventsOf(), 'nothing is delivered from inside hangUp').toEqual([[0, 'ringing']]);
    at(3600);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [1.5, 'ended'],
    ]);
  });

  it.each([
    ['a person', '2125550101'],
    ['an answering machine', '2125550106'],
  ])('ends a call answered by %s, once however often it is asked', (_label, to) => {
    place(to);
    at(10);
    carrier.hangUp('1');
    carrier.hangUp('1');
    at(3600);
    expect(eventsOf().slice(2)).toEqual([[10, 'ended']]);
  });
});

describe('dropping a voicemail', () => {
  it('plays the recording into the machine, then ends the call instead of waiting for the machine', () => {
    place('2125550105');
    at(5);
    carrier.playVoicemail('1', { durationSeconds: 20 });
    carrier.playVoicemail('1', { durationSeconds: 1 });
    at(3600);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [4, 'answered by machine'],
      [25, 'ended'],
    ]);
  });

  it('is cut short by a hang-up', () => {
    place('2125550105');
    at(5);
    carrier.playVoicemail('1', { durationSeconds: 20 });
    at(7);
    carrier.hangUp('1');
    at(3600);
    expect(eventsOf().slice(2)).toEqual([[7, 'ended']]);
  });

  it('does nothing to a call that is still ringing', () => {
    place('2125550105');
    at(1);
    carrier.playVoicemail('1', { durationSeconds: 2 });
    at(3600);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [4, 'answered by machine'],
      [64, 'ended'],
    ]);
  });
});

describe("a voicemail dropped before the machine's beep", () => {
  it.each([
    // [time scale, dropped (s after placing), ends (s after placing)]: the machine answers at 4 s, its beep ends 6 s later.
    [1, 5, 10 + 2],
    [1, 14, 14 + 2],
    [0.5, 5 * 0.5, (10 + 2) * 0.5],
  ])('waits for the beep, then plays whole (time scale %s, dropped at %s s)', (timeScale, droppedAt, endsAt) => {
    carrier.close();
    open(timeScale, 6);
    place('2125550105');
    at(droppedAt);
    carrier.playVoicemail('1', { durationSeconds: 2, audioUrl: 'http://ringbook.test/carrier/media/voicemails/1' });
    at(3600);
    expect(eventsOf().at(-1)).toEqual([endsAt, 'ended']);
  });
});

describe('calls it does not know', () => {
  it.each([
    ['an unknown call', () => {}],
    ['a call that was busy', () => place('2125550108', 30, '42')],
    [
      'a call that has ended',
      () => {
        place('2125550100', 30, '42');
        at(5);
        carrier.hangUp('42');
      },
    ],
  ])('ignores a hang-up or a voicemail for %s', (_label, before) => {
    before();
    at(100);
    const seen = log.length;
    expect(() => {
      carrier.hangUp('42');
      carrier.playVoicemail('42', { durationSeconds: 5 });
    }).not.toThrow();
    at(3600);
    expect(log.length).toBe(seen);
  });

  it('ignores a second placeCall for a call in progress', () => {
    place('2125550100');
    at(1);
    place('2125550108');
    at(3600);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [3, 'answered by person'],
    ]);
  });

  it('keeps calls apart', () => {
    place('2125550108', 30, '1');
    place('2125550107', 30, '2');
    at(3600);
    expect(eventsOf('1')).toEqual([
      [0, 'ringing'],
      [1, 'busy'],
    ]);
    expect(eventsOf('2')).toEqual([
      [0, 'ringing'],
      [30, 'no_answer'],
    ]);
  });
});

describe('close', () => {
  it('stops every timer: no events after it, and no calls placed after it', () => {
    place('2125550100', 30, '1');
    place('2125550105', 30, '2');
    at(1);
    carrier.close();
    expect(vi.getTimerCount()).toBe(0);
    place('2125550108', 30, '3');
    at(3600);
    expect(log).toEqual([
      [0, '1', 'ringing'],
      [0, '2', 'ringing'],
    ]);
  });

  it("never keeps the process alive: every timer is unref'd", () => {
    // The timers the carrier makes, seen through a wrapper of the (fake) setTimeout, put back before afterEach's real
    // timers return: the worker's later files share its globals (vitest.config.ts).
    const fake = globalThis.setTimeout;
    const timers: NodeJS.Timeout[] = [];
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      const timer = fake(...args);
      timers.push(timer);
      return timer;
    }) as typeof setTimeout;
    try {
      place('2125550105');
      at(5);
      carrier.playVoicemail('1', { durationSeconds: 20 });
    } finally {
      globalThis.setTimeout = fake;
    }
    expect(timers.length).toBeGreaterThan(3);
    expect(timers.map((timer) => timer.hasRef())).not.toContain(true);
  });
});

describe('the time scale', () => {
  it.each([
    [
      0.02,
      [
        [0, 'ringing'],
        [0.06, 'answered by person'],
        [0.2, 'ended'],
      ],
      [
        [0, 'ringing'],
        [0.6, 'no_answer'],
      ],
    ],
    [
      0.01,
      [
        [0, 'ringing'],
        [0.03, 'answered by person'],
        [0.2, 'ended'],
      ],
      [
        [0, 'ringing'],
        [0.3, 'no_answer'],
      ],
    ],
  ])('multiplies every duration by %s', (timeScale, answered, unanswered) => {
    carrier.close();
    open(timeScale);
    place('2125550100', 30, '1');
    place('2125550107', 30, '2');
    at(0.2);
    carrier.hangUp('1');
    at(60);
    expect(eventsOf('1')).toEqual(answered);
    expect(eventsOf('2')).toEqual(unanswered);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a time scale of %s', (timeScale) => {
    expect(() => createNetwork({ timeScale, onEvent: () => {} })).toThrow(RangeError);
  });
});

describe('what an answered call leaves for its recording', () => {
  it('hands over the timeline of a call a person answered, once it ends', () => {
    place('2125550102');
    at(10);
    carrier.hangUp('1');
    at(3600);
    expect(ended).toEqual([
      { callId: '1', to: '2125550102', answeredAtMs: start + 3000, by: 'person', endedAtMs: start + 10_000, voicemail: null },
    ]);
  });

  it('remembers the voicemail dropped into a machine and when it started', () => {
    place('2125550106');
    at(6);
    carrier.playVoicemail('1', { durationSeconds: 12, audioUrl: 'http://ringbook.test/carrier/media/voicemails/4' });
    at(3600);
    expect(ended).toEqual([
      {
        callId: '1',
        to: '2125550106',
        answeredAtMs: start + 4000,
        by: 'machine',
        endedAtMs: start + 18_000,
        voicemail: { audioUrl: 'http://ringbook.test/carrier/media/voicemails/4', startedAtMs: start + 6000, durationSeconds: 12 },
      },
    ]);
  });

  it('hands over nothing for a call nobody answered', () => {
    place('2125550108');
    place('2125550107', 30, '2');
    at(3600);
    expect(ended).toEqual([]);
  });

  it('ends a call at its time limit, in real seconds, whatever the time scale', () => {
    carrier.close();
    open(0.01);
    carrier.placeCall({ callId: '1', to: '2125550100', ringSeconds: 30, timeLimitSeconds: 120 });
    at(119);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [0.03, 'answered by person'],
    ]);
    at(3600);
    expect(eventsOf()).toEqual([
      [0, 'ringing'],
      [0.03, 'answered by person'],
      [120, 'ended'],
    ]);
  });
});
