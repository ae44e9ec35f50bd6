import { describe, expect, it } from 'vitest';
import { type FieldValues, type Path } from 'react-hook-form';
import { type DialSettingsRecord, settingsInput, updateDialSettingsBody } from '../../../server/contracts/dial-settings';
import { DomainError } from '../../../server/lib/errors';
import { fromDomainError } from '../../../server/lib/http-errors';
import { parse } from '../../../server/lib/validate';
import { applyServerErrors } from '../../components/ui/form-error';
import { ApiError } from '../../lib/api-client';
import { SERVER_FIELDS, type SettingsForm, settingsFormSchema, toBody, toForm } from './settings-schema';

/* The settings form against the contract it sends to: what it sends passes, what it refuses the contract refuses too. */
const SAVED: DialSettingsRecord = {
  dialsecs: '45',
  ringing: '1',
  emails: '0',
  busy: null,
  badphone: null,
  noanswer: null,
  fax: null,
  voicemail: '12',
  interested: '3',
  notinterested: null,
  wrongperson: null,
  calltime_min: '0930',
  calltime_max: '1700',
  connectme_preset: null,
  send_skips: '1',
  record_calls: '0',
  recording_retention_days: '30',
  callback_secret: 'whsec_x',
};

/** The 400 the server would answer for `body`, as the web app's client receives it. */
function refusal(body: unknown): ApiError {
  try {
    parse(updateDialSettingsBody, settingsInput(body));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const answer = fromDomainError(error);
    return new ApiError(answer.status, answer.debugCodes);
  }
  throw new Error('the contract took it');
}

describe('the settings form', () => {
  it("shows the saved settings and sends them back as the contract takes them (the organisation's keys only for the vendor)", () => {
    const form = toForm(SAVED);
    expect(form).toMatchObject({
      dialsecs: '45',
      calltime_min: '09:30',
      calltime_max: '17:00',
      send_skips: true,
      record_calls: false,
      recording_retention_days: '30',
    });
    expect(form.messages).toMatchObject({ voicemail: '12', interested: '3', busy: '' });
    const rep = toBody(settingsFormSchema.parse(form), false);
    expect(rep).toMatchObject({ dialsecs: 45, calltime_min: '0930', calltime_max: '1700', interested: '3', busy: null, send_skips: '1' });
    expect(rep).not.toHaveProperty('record_calls');
    expect(updateDialSettingsBody.safeParse(rep).success).toBe(true);
    const vendor = toBody(form, true);
    expect(vendor).toMatchObject({ record_calls: '0', recording_retention_days: 30 });
    expect(updateDialSettingsBody.safeParse(vendor).success).toBe(true);
  });

  it.each<[string, Partial<SettingsForm>, string]>([
    ["a ring time below the contract's", { dialsecs: '20' }, 'dialsecs'],
    ['a ring time above it', { dialsecs: '121' }, 'dialsecs'],
    ['a ring time that is not a number', { dialsecs: 'half' }, 'dialsecs'],
    ['calling hours before 08:00', { calltime_min: '07:30' }, 'calltime_min'],
    ['calling hours after 21:00', { calltime_max: '21:30' }, 'calltime_max'],
    ['a window that ends before it starts', { calltime_min: '18:00', calltime_max: '09:00' }, 'calltime_max'],
    ['no retention', { recording_retention_days: '0' }, 'recording_retention_days'],
    ['a retention beyond ten years', { recording_retention_days: '3651' }, 'recording_retention_days'],
  ])('refuses %s on its field, as the contract does', (_what, change, field) => {
    const values = { ...toForm(SAVED), ...change };
    const result = settingsFormSchema.safeParse(values);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual([field]);
    const wire = { ...toBody(values, true) };
    expect(refusal(wire).debugCodes.map((d) => d.field)).toEqual([field]);
  });

  it("puts the server's reasons under the fields they name, worded with their labels", () => {
    const shown: Record<string, string> = {};
    const setError = (name: Path<FieldValues>, error: { message?: string }) => {
      shown[name] = error.message ?? '';
    };
    const general = applyServerErrors(
      refusal({ dialsecs: 5, interested: -1, recording_retention_days: 'forever' }),
      setError,
      SERVER_FIELDS,
    );
    expect(general).toEqual([]);
    expect(shown).toEqual({
      dialsecs: 'Ring time (seconds) must be greater than 20 (seconds).',
      'messages.interested': 'Interested must be the id of a message of the library.',
      recording_retention_days: 'Keep recordings and transcripts (days) must be a whole number of days from 1 to 3650.',
    });
  });
});
