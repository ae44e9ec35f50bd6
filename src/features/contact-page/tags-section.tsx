import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TAG_TITLE_MAX } from '../../../server/contracts/tags';
import { useContactTag } from '../../api/contact-details';
import { tagsQueryOptions } from '../../api/tags';
import { Combobox, type ComboboxOption } from '../../components/ui/combobox';
import { InlineError } from '../../components/ui/form-error';
import { Section } from '../../components/ui/section';
import { useStatus } from '../../components/ui/status-message';
import { useContactPage } from './contact-context';

const CREATE = 'create:';
const MAX_SUGGESTIONS = 8;

/** The contact's tags: remove one, or add one from the catalog by type-ahead, or a new one by its title. */
export function TagsSection() {
  const { contact } = useContactPage();
  const catalog = useQuery(tagsQueryOptions());
  const change = useContactTag(contact.contact_user_id);
  const { announce } = useStatus();
  const [text, setText] = useState('');
  const held = contact.tags ?? [];
  const heldTitles = new Set(held.map((t) => t.title.toLowerCase()));
  const typed = text.trim();

  const matches = (catalog.data ?? [])
    .filter((t) => !heldTitles.has(t.title.toLowerCase()) && t.title.toLowerCase().includes(typed.toLowerCase()))
    .slice(0, MAX_SUGGESTIONS);
  const exists = (catalog.data ?? []).some((t) => t.title.toLowerCase() === typed.toLowerCase()) || heldTitles.has(typed.toLowerCase());
  const options: ComboboxOption[] = matches.map((t) => ({ id: String(t.id), label: t.title }));
  if (typed && !exists && typed.length <= TAG_TITLE_MAX) options.push({ id: `${CREATE}${typed}`, label: `Create tag “${typed}”` });

  const add = (option: ComboboxOption) => {
    const created = option.id.startsWith(CREATE);
    const title = created ? option.id.slice(CREATE.length) : option.label;
    /* Cleared at once, not when the save ends: what is typed meanwhile (the next tag) must not be wiped by it. */
    const typedBefore = text;
    setText('');
    change.mutate(
      { op: 'add', title },
      {
        onSuccess: () => announce(created ? `Tag “${title}” created and added` : `Tag “${title}” added`),
        onError: () => setText((now) => now || typedBefore),
      },
    );
  };

  return (
    <Section title="Tags">
      <div className="space-y-3">
        {held.length === 0 ? (
          <p className="text-sm text-zinc-500">No tags yet.</p>
        ) : (
          <ul aria-label="Tags on this contact" className="flex flex-wrap gap-1.5">
            {held.map((tag) => (
              <li
                key={tag.id}
                className="inline-flex items-center gap-1 rounded-full bg-zinc-100 py-0.5 pr-1 pl-2.5 text-sm font-medium text-zinc-800"
              >
                {tag.title}
                <button
                  type="button"
                  aria-label={`Remove tag ${tag.title}`}
                  disabled={change.isPending}
                  onClick={() =>
                    change.mutate({ op: 'remove', tagId: tag.id }, { onSuccess: () => announce(`Tag “${tag.title}” removed`) })
                  }
                  className="flex size-5 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 disabled:opacity-50"
                >
                  <svg viewBox="0 0 20 20" fill="currentColor" className="size-3.5" aria-hidden="true">
                    <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
                  </svg>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="max-w-sm">
          <Combobox
            label="Add a tag"
            value={text}
            onValueChange={setText}
            options={options}
            onSelect={add}
            placeholder="Type to find or create a tag"
            emptyText={catalog.isPending ? 'Loading tags…' : 'No other tags match.'}
            hint={catalog.isError ? 'The tag list could not be loaded; you can still create a tag by its title.' : undefined}
          />
        </div>
        <InlineError error={change.error} />
      </div>
    </Section>
  );
}
