import { describe, expect, it } from 'vitest';
import { createIntegrationBody } from '../../../server/contracts/oauth';
import { formSchema, toBody } from './integration-form-schema';

/* The integration form against the contract: what it sends passes, what it refuses the contract refuses too. */
describe('the integration form', () => {
  it('sends the lines as a list, blank lines and spaces left out, and the contract takes it', () => {
    const form = formSchema.parse({ name: ' Acme ', redirect_uris: ' https://a.example.com/cb \n\nhttp://localhost:3000/cb\n' });
    const body = toBody(form);
    expect(body).toEqual({ name: 'Acme', redirect_uris: ['https://a.example.com/cb', 'http://localhost:3000/cb'] });
    expect(createIntegrationBody.safeParse(body).success).toBe(true);
  });

  it.each([
    ['no address', ''],
    ['an http address elsewhere', 'http://a.example.com/cb'],
    ['a fragment', 'https://a.example.com/cb#top'],
    ['not an address', 'callback'],
    ['eleven addresses', Array.from({ length: 11 }, (_, i) => `https://a.example.com/${i}`).join('\n')],
  ])('refuses %s, as the contract does', (_label, text) => {
    expect(formSchema.safeParse({ name: 'Acme', redirect_uris: text }).success).toBe(false);
    const lines = text.split('\n').filter(Boolean);
    expect(createIntegrationBody.safeParse({ name: 'Acme', redirect_uris: lines }).success).toBe(false);
  });
});
