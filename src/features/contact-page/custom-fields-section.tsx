import { useQuery } from '@tanstack/react-query';
import { customValuesQueryOptions } from '../../api/contact-details';
import { customFieldsQueryOptions } from '../../api/custom-fields';
import { ErrorState } from '../../components/ui/error-state';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { useContactPage } from './contact-context';
import { CustomValueRow } from './custom-value-row';

/** Every custom field of the organisation, in display order, with this contact's value. */
export function CustomFieldsSection() {
  const { contact } = useContactPage();
  const values = useQuery(customValuesQueryOptions(contact.contact_user_id));
  const definitions = useQuery(customFieldsQueryOptions());
  const optionsOf = (fieldId: string) => definitions.data?.find((d) => d.id === fieldId)?.options ?? [];

  return (
    <Section title="Custom fields">
      {values.isPending && <Spinner label="Loading custom fields…" />}
      {values.isError && (
        <ErrorState
          title="Custom fields could not be loaded"
          message={errorMessage(values.error)}
          onRetry={() => void values.refetch()}
          retrying={values.isFetching}
        />
      )}
      {values.isSuccess && values.data.length === 0 && (
        <p className="text-sm text-zinc-500">Your organisation has no custom fields yet. The vendor adds them under Custom fields.</p>
      )}
      {values.isSuccess && values.data.length > 0 && (
        <div className="divide-y divide-zinc-100">
          {values.data.map((field) => (
            <CustomValueRow
              key={`${field.custom_field_id}:${field.type_id}`}
              contactId={contact.contact_user_id}
              field={field}
              options={optionsOf(field.custom_field_id)}
            />
          ))}
        </div>
      )}
    </Section>
  );
}
