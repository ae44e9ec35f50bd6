import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ListOf } from '../../server/contracts/common';
import type { CustomFieldRecord } from '../../server/contracts/custom-fields';
import { apiRequest } from '../lib/api-client';
import { contactKeys } from './contacts';

type FieldsResponse = { customfields: ListOf<'customfields', CustomFieldRecord> };

export type CustomField = {
  id: string;
  name: string;
  typeId: number;
  typeName: string;
  order: number;
  /** Only when read with counts (the custom-fields screen): counting reads every value a field has. */
  contactCount: number;
  options: { id: string; label: string }[];
};

export const customFieldKeys = {
  all: ['custom-fields'] as const,
  list: (counts: boolean) => [...customFieldKeys.all, 'list', { counts }] as const,
};

/** Types a definition can be created with (a drop-down, 6, with its options: an extension of the API). */
export const DEFINABLE_TYPES = [
  { value: 1, label: 'Text' },
  { value: 2, label: 'Checkbox' },
  { value: 3, label: 'Date' },
  { value: 6, label: 'Drop-down' },
  { value: 7, label: 'Number' },
] as const;

/** A drop-down's options as POST and PUT take them: `{ id, label }` keeps or renames an option, a label adds one. */
export type OptionsBody = (string | { id: string; label: string })[];

export const TYPE_LABELS: Record<number, string> = { 1: 'Text', 2: 'Checkbox', 3: 'Date', 6: 'Drop-down', 7: 'Number' };

const toField = (r: CustomFieldRecord): CustomField => ({
  id: r.custom_field_id,
  name: r.display_name,
  typeId: Number(r.type_id),
  typeName: TYPE_LABELS[Number(r.type_id)] ?? r.type_name,
  order: Number(r.display_order),
  contactCount: Number(r.contact_count ?? 0),
  options: r.options ?? [],
});

/** Every definition in display order with its drop-down options; `counts` adds how many contacts hold a value. */
export const customFieldsQueryOptions = ({ counts = false }: { counts?: boolean } = {}) =>
  queryOptions({
    queryKey: customFieldKeys.list(counts),
    queryFn: async ({ signal }) => {
      const fields: CustomField[] = [];
      for (let page = 1; ; page++) {
        const body = await apiRequest<FieldsResponse>('/rest/1/customfields', {
          signal,
          query: { with_counts: counts ? 1 : undefined, page, page_size: 100 },
        });
        fields.push(...body.customfields.customfields.map(toField));
        if (page >= body.customfields.total_pages) break;
      }
      return fields;
    },
  });

/** Definitions change what every contact holding a value shows. */
function useFieldMutation<V>(request: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: customFieldKeys.all }),
        queryClient.invalidateQueries({ queryKey: contactKeys.all }),
      ]),
  });
}

export const useCreateField = () =>
  useFieldMutation((body: { display_name: string; type: number; options?: OptionsBody }) =>
    apiRequest<unknown>('/rest/1/customfields', { method: 'POST', body }),
  );

export const useUpdateField = () =>
  useFieldMutation(({ id, ...body }: { id: string; display_name?: string; display_order?: number; options?: OptionsBody }) =>
    apiRequest<unknown>(`/rest/1/customfields/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  );

/** Writes new display orders one field at a time (the API changes one definition per request). */
export const useReorderFields = () =>
  useFieldMutation(async (changes: { id: string; order: number }[]) => {
    for (const { id, order } of changes) {
      await apiRequest<unknown>(`/rest/1/customfields/${encodeURIComponent(id)}`, { method: 'PUT', body: { display_order: order } });
    }
  });

export const useDeleteField = () =>
  useFieldMutation((id: string) => apiRequest<void>(`/rest/1/customfields/${encodeURIComponent(id)}`, { method: 'DELETE' }));
