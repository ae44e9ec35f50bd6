import { z } from 'zod';
import { isRedirectUri } from '../../../server/contracts/oauth';

/* The integration form: redirect URIs typed one a line, checked as the server checks them, sent as a list. */

const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export const formSchema = z.object({
  name: z.string().trim().min(1, { error: 'is required' }).max(100, { error: 'must be at most 100 characters' }),
  redirect_uris: z
    .string()
    .refine((v) => linesOf(v).length > 0, { error: 'needs at least one address' })
    .refine((v) => linesOf(v).length <= 10, { error: 'may hold at most 10 addresses' })
    .refine((v) => linesOf(v).every(isRedirectUri), {
      error: 'must be https:// addresses without a #fragment (http:// only for localhost)',
    }),
});
export type Input = z.input<typeof formSchema>;

export const toBody = (form: z.output<typeof formSchema>) => ({ name: form.name, redirect_uris: linesOf(form.redirect_uris) });
