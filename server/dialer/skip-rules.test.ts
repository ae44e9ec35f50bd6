import { describe, expect, it } from 'vitest';
import { type CallingWindow, contactZones, isValidNorthAmerican, type SkipFacts, skipReason } from './skip-rules.js';

/* Every case names its instant in UTC, so the suite passes at any hour of the day and in any season. */
const at = (iso: string) => new Date(`${iso}Z`);
const WINDOW: CallingWindow = { min: '0800', max: '2100' };
const NEW_YORK = ['America/New_York'];
const callable = (facts: Partial<SkipFacts>): SkipFacts => ({ doNotCall: false, phone: '2125550100', zones: NEW_YORK, ...facts });
// Noon in New York, summer or winter.
const NOON = at('2024-01-15T17:00');

describe('skipReason', () => {
  it.each([
    ['a callable contact', callable({}), null],
    ['do not call', callable({ doNotCall: true }), 'DNC'],
    ['do not call, before the number is looked at', callable({ doNotCall: true, phone: '' }), 'DNC'],
    ['do not call, before the hour is looked at', callable({ doNotCall: true, zones: ['Asia/Tokyo'] }), 'DNC'],
    ['no number', callable({ phone: '' }), 'Invalid Number'],
    ['three digits', callable({ phone: '123' }), 'Invalid Number'],
    ['area code 555, which does not exist', callable({ phone: '5551234567' }), 'Invalid Number'],
    ['area code 123', callable({ phone: '1234567890' }), 'Invalid Number'],
    ['a number of London', callable({ phone: '442071234567' }), 'Invalid Number'],
    ['an invalid number, before the hour is looked at', callable({ phone: '123', zones: ['Asia/Tokyo'] }), 'Invalid Number'],
    ['3 a.m. where the contact is', callable({ zones: ['Asia/Tokyo'] }), 'Calling Hours'],
    ['a toll-free number at any hour: its local time is unknown', callable({ phone: '8005550100', zones: null }), null],
    ['no zones at all', callable({ zones: [] }), null],
  ])('%s', (_label, facts, expected) => {
    expect(skipReason(facts, WINDOW, NOON)).toBe(expected);
  });

  it.each([
    ['07:59', '2024-01-15T12:59', 'Calling Hours'],
    ['08:00', '2024-01-15T13:00', null],
    ['21:00', '2024-01-16T02:00', null],
    ['21:00:59', '2024-01-16T02:00:59', null],
    ['21:01', '2024-01-16T02:01', 'Calling Hours'],
    ['midnight', '2024-01-16T05:00', 'Calling Hours'],
  ])('includes both ends of 08:00 to 21:00, by the minute: %s in New York', (_label, iso, expected) => {
    expect(skipReason(callable({}), WINDOW, at(iso))).toBe(expected);
  });

  it.each([
    ['New York, 08:00 EDT in July', NEW_YORK, '2024-07-15T12:00', null],
    ['New York, 07:00 EST in January', NEW_YORK, '2024-01-15T12:00', 'Calling Hours'],
    ['Denver, 08:00 MDT in July', ['America/Denver'], '2024-07-15T14:00', null],
    ['Phoenix, 07:00 MST in July (no daylight saving)', ['America/Phoenix'], '2024-07-15T14:00', 'Calling Hours'],
    ['Phoenix, 08:00 MST in January', ['America/Phoenix'], '2024-01-15T15:00', null],
    ['Adak 07:30 while Anchorage is 08:30', ['America/Adak', 'America/Anchorage'], '2024-01-15T17:30', 'Calling Hours'],
    ['Adak 08:00 and Anchorage 09:00', ['America/Adak', 'America/Anchorage'], '2024-01-15T18:00', null],
    ['Adak 20:01 while Anchorage is 21:01', ['America/Adak', 'America/Anchorage'], '2024-01-16T06:01', 'Calling Hours'],
    ['UTC-5 at 08:00, all year', ['Etc/GMT+5'], '2024-07-15T13:00', null],
  ])('takes the local time with daylight saving, in every zone: %s', (_label, zones, iso, expected) => {
    expect(skipReason(callable({ zones }), WINDOW, at(iso))).toBe(expected);
  });

  it.each([
    ['a narrower window', { min: '0900', max: '1700' }, '2024-01-15T13:30', 'Calling Hours'],
    ['HMM without its leading zero', { min: '800', max: '2100' }, '2024-01-15T13:00', null],
    ['a window whose start is after its end', { min: '2100', max: '0800' }, NOON.toISOString().slice(0, 16), 'Calling Hours'],
  ])('reads %s', (_label, window, iso, expected) => {
    expect(skipReason(callable({}), window, at(iso))).toBe(expected);
  });

  it.each(['', '8:00', 'abcd', '2460', '2500', '08000'])('refuses the window time %j', (time) => {
    expect(() => skipReason(callable({}), { min: time, max: '2100' }, NOON)).toThrow(RangeError);
  });
});

describe('isValidNorthAmerican', () => {
  it.each([
    ['2125550100', true],
    ['12125550100', true],
    ['4165550100', true], // Toronto
    ['8765550100', true], // Jamaica
    ['8005550100', true],
    ['', false],
    ['123', false],
    ['5551234567', false],
    ['21255501001', false],
    ['442071234567', false],
  ])('%j: %s', (digits, expected) => {
    expect(isValidNorthAmerican(digits)).toBe(expected);
  });
});

describe('contactZones', () => {
  const each = (names: string[], zones: string[]) => names.map((name): [string, string[]] => [name, zones]);
  const MOUNTAIN = ['America/Denver', 'America/Phoenix'];
  it.each([
    ['America/Chicago', ['America/Chicago']],
    [' america/chicago ', ['America/Chicago']],
    ['US/Eastern', NEW_YORK],
    ['UTC', ['UTC']],
    ...each(['EST', 'EDT', 'ET', 'Eastern', 'eastern', 'EASTERN', 'Eastern Time', 'Eastern Standard Time'], NEW_YORK),
    ...each(['CST', 'CDT', 'Central', 'central daylight time'], ['America/Chicago']),
    ['MST', MOUNTAIN],
    ['Mountain', MOUNTAIN],
    ['MDT', ['America/Denver']],
    ...each(['PST', 'PDT', 'Pacific', 'pacific time'], ['America/Los_Angeles']),
    ...each(['AKST', 'AKDT'], ['America/Anchorage']),
    ['HST', ['Pacific/Honolulu']],
    ['AST', ['America/Puerto_Rico']],
    ['UTC-05:00', ['Etc/GMT+5']],
    ['-0500', ['Etc/GMT+5']],
    ['-5', ['Etc/GMT+5']],
    ['GMT+2', ['Etc/GMT-2']],
    ['utc+09:00', ['Etc/GMT-9']],
    ['UTC+00:00', ['UTC']],
  ])('reads the time_zone %j', async (timeZone, expected) => {
    // A number in Chicago, so a field that were ignored would show.
    expect(await contactZones({ phone: '3125550100', timeZone })).toEqual(expected);
  });

  it.each(['', '  ', 'Mars/Olympus', 'UTC+05:30', 'UTC-25', 'Eastern Europe', 'XST'])(
    'falls back to the area code for the time_zone %j',
    async (timeZone) => {
      expect(await contactZones({ phone: '3125550100', timeZone })).toEqual(['America/Chicago']);
    },
  );

  it.each([
    ['212', 'New York', NEW_YORK],
    ['312', 'Chicago', ['America/Chicago']],
    ['303', 'Denver', ['America/Denver']],
    ['602', 'Phoenix', ['America/Phoenix']],
    ['415', 'Los Angeles', ['America/Los_Angeles']],
    ['907', 'Alaska', ['America/Adak', 'America/Anchorage']],
    ['808', 'Honolulu', ['Pacific/Honolulu']],
    ['416', 'Toronto', ['America/Toronto']],
  ])('places area code %s in %s', async (areaCode, _place, expected) => {
    expect(await contactZones({ phone: `${areaCode}5550100`, timeZone: '' })).toEqual(expected);
    expect(await contactZones({ phone: `1${areaCode}5550199`, timeZone: '' }), 'with the leading 1').toEqual(expected);
  });

  it.each([
    ['toll-free 800', '8005550100'],
    ['toll-free 888', '8885550100'],
    ['toll-free 877', '8775550100'],
    ['premium-rate 900', '9005550100'],
    ['personal 500', '5002345678'],
    ["Canada's non-geographic 600, placed only by the size of its zone list", '6002345678'],
    ['no number', ''],
    ['three digits', '123'],
    ['area code 555', '5551234567'],
  ])('knows no local time for %s', async (_label, phone) => {
    expect(await contactZones({ phone, timeZone: '' })).toBeNull();
  });

  it('lets a time_zone field place a toll-free number', async () => {
    expect(await contactZones({ phone: '8005550100', timeZone: 'Central' })).toEqual(['America/Chicago']);
  });

  it('hands out a fresh list each time, so one caller cannot change what another is told', async () => {
    (await contactZones({ phone: '9075550100', timeZone: '' }))?.pop();
    expect(await contactZones({ phone: '9075550101', timeZone: '' })).toEqual(['America/Adak', 'America/Anchorage']);
  });

  it.each([
    ['Phoenix in July at 07:00 there, 08:00 in Denver', '6025550100', '', 'Calling Hours'],
    ['Denver at the same instant', '3035550100', '', null],
    ['a Phoenix number whose contact lives in Denver', '6025550100', 'America/Denver', null],
    ['a contact in "Mountain" time, which includes Arizona', '3035550100', 'Mountain', 'Calling Hours'],
    ['a toll-free number', '8005550100', '', null],
  ])('together with skipReason: %s', async (_label, phone, timeZone, expected) => {
    const zones = await contactZones({ phone, timeZone });
    expect(skipReason({ doNotCall: false, phone, zones }, WINDOW, at('2024-07-15T14:00'))).toBe(expected);
  });
});
