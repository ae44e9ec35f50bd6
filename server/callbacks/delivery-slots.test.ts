import { describe, expect, it } from 'vitest';
import { DeliverySlots } from './delivery-slots.js';

const limits = { total: 6, perDestination: 2, perPromptDestination: 4, promptMs: 1_000 };
const candidates = (...urls: string[]) => urls.map((url, i) => ({ id: i + 1, url }));
const A = 'https://a.example.com/hook';
const B = 'http://b.example.com:8080/in';

describe('DeliverySlots', () => {
  it('chooses the oldest candidates that fit, perDestination to each destination and total in all', () => {
    const slots = new DeliverySlots(limits);
    expect(slots.choose(candidates(A, A, A, B, B, B, 'https://c.example.com/', 'https://d.example.com/'))).toEqual([1, 2, 4, 5, 7, 8]);
    slots.take(A);
    expect(slots.choose(candidates(A, A, B))).toEqual([1, 3]);
  });

  it.each([
    ['https://A.example.com:443/other?x=1', true],
    ['HTTPS://a.example.com/', true],
    ['http://a.example.com/hook', false],
    ['https://a.example.com:8443/hook', false],
  ])('counts %s as the destination of https://a.example.com/hook: %s', (url, same) => {
    const slots = new DeliverySlots(limits);
    slots.take(A);
    slots.take(A);
    expect(slots.full()).toEqual(['https://a.example.com']);
    expect(slots.choose(candidates(url))).toEqual(same ? [] : [1]);
  });

  it('gives a destination a slot more for each prompt answer, up to perPromptDestination, and one slow answer puts it back', () => {
    const slots = new DeliverySlots(limits);
    let inFlight = 0;
    /** Takes every slot A may have; answers how many it then has in flight. */
    const fill = () => {
      while (slots.choose(candidates(A)).length) {
        slots.take(A);
        inFlight++;
      }
      return inFlight;
    };
    const end = (n: number, ms: number) => {
      for (let i = 0; i < n; i++) slots.give(A, ms);
      inFlight -= n;
    };
    expect(fill()).toBe(2);
    end(1, 5);
    expect(fill()).toBe(3);
    end(3, 5);
    expect(fill()).toBe(4);
    end(1, 1_000);
    expect(fill()).toBe(3);
    end(2, 1_000);
    expect(fill()).toBe(2);
    end(1, 5);
    expect(fill()).toBe(3);
    end(3, 5);
    expect(slots.free).toBe(limits.total);
    expect(fill()).toBe(4);
  });

  it('keeps the slots free of a destination whose sends ended, whatever they took', () => {
    const slots = new DeliverySlots(limits);
    for (const url of [A, A, B]) slots.take(url);
    expect(slots.free).toBe(3);
    for (const url of [A, A, B]) slots.give(url, 20_000);
    expect(slots.free).toBe(6);
    expect(slots.full()).toEqual([]);
  });
});
