import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { activitiesQueryOptions, auditQueryOptions } from '../../api/contact-details';
import { customFieldsQueryOptions } from '../../api/custom-fields';
import { flattenFolders, foldersQueryOptions } from '../../api/folders';
import { memberName, teamQueryOptions } from '../../api/members';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/error-state';
import { InlineSelect } from '../../components/ui/field';
import { Section } from '../../components/ui/section';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { auditLabel, auditValues, type Names } from './audit-format';
import { useContactPage } from './contact-context';

const DAY_OPTIONS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '183', label: 'Last 6 months' },
];

type Paged = ReturnType<typeof useInfiniteQuery>;

/** Loading, error (retry), "load older" for a history list. */
function PagedStatus({
  query,
  what,
}: {
  query: Pick<Paged, 'isPending' | 'isError' | 'error' | 'refetch' | 'isFetching' | 'hasNextPage' | 'fetchNextPage' | 'isFetchingNextPage'>;
  what: string;
}) {
  if (query.isPending) return <Spinner label={`Loading ${what}…`} />;
  if (query.isError)
    return (
      <ErrorState
        title={`The ${what} could not be loaded`}
        message={errorMessage(query.error)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  if (!query.hasNextPage) return null;
  return (
    <Button size="sm" className="mt-2" onClick={() => void query.fetchNextPage()} busy={query.isFetchingNextPage}>
      Show older
    </Button>
  );
}

export function ActivitySection() {
  const { contact } = useContactPage();
  const [days, setDays] = useState(30);
  const activities = useInfiniteQuery(activitiesQueryOptions(contact.contact_user_id, days));
  const items = activities.data?.pages.flatMap((p) => p.items) ?? [];
  const period = DAY_OPTIONS.find((o) => o.value === String(days))?.label.toLowerCase() ?? `last ${days} days`;

  return (
    <Section
      title="Activity"
      actions={
        <InlineSelect
          label="Period"
          hideLabel
          options={DAY_OPTIONS}
          value={String(days)}
          onChange={(e) => setDays(Number(e.target.value))}
        />
      }
    >
      {activities.isSuccess && items.length === 0 && <p className="text-sm text-zinc-500">No activity in the {period}.</p>}
      {items.length > 0 && (
        <ol aria-label="Activity timeline" className="space-y-2 border-l border-zinc-200 pl-4">
          {items.map((a) => (
            <li key={a.user_activity_id} className="text-sm">
              <p className="text-zinc-800">{a.activity}</p>
              <p className="text-xs text-zinc-500">{formatDateTime(a.date)}</p>
            </li>
          ))}
        </ol>
      )}
      <PagedStatus query={activities} what="activity" />
    </Section>
  );
}

function useNames(): Names {
  const team = useQuery(teamQueryOptions());
  const folders = useQuery(foldersQueryOptions());
  const fields = useQuery(customFieldsQueryOptions());
  return {
    member: (id) => {
      const m = team.data?.find((x) => x.user_id === id);
      return m ? memberName(m) : id === '0' ? 'the system' : 'Another member';
    },
    folder: (id) => flattenFolders(folders.data ?? []).find((f) => f.id === id)?.name ?? 'A folder since deleted',
    customField: (id) => fields.data?.find((f) => f.id === id)?.name ?? 'A custom field since deleted',
    customFieldType: (id) => fields.data?.find((f) => f.id === id)?.typeId,
  };
}

export function AuditSection() {
  const { contact } = useContactPage();
  const audit = useInfiniteQuery(auditQueryOptions(contact.contact_user_id));
  const names = useNames();
  const items = audit.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Section title="Audit log">
      {audit.isSuccess && items.length === 0 && <p className="text-sm text-zinc-500">No changes recorded.</p>}
      {items.length > 0 && (
        <div className="-mx-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Changes to this contact, newest first</caption>
            <thead className="text-xs text-zinc-500">
              <tr>
                <th scope="col" className="px-4 py-1.5 font-medium">
                  When
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  Who
                </th>
                <th scope="col" className="px-2 py-1.5 font-medium">
                  What
                </th>
                <th scope="col" className="px-4 py-1.5 font-medium">
                  Change
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {items.map((entry, i) => {
                const values = auditValues(entry, names);
                return (
                  <tr key={`${entry.date_added}:${i}`}>
                    <td className="px-4 py-1.5 whitespace-nowrap text-zinc-500">{formatDateTime(entry.date_added)}</td>
                    <td className="px-2 py-1.5 whitespace-nowrap text-zinc-700">{names.member(entry.member_id)}</td>
                    <td className="px-2 py-1.5 text-zinc-800">{auditLabel(entry, names)}</td>
                    <td className="px-4 py-1.5 break-all text-zinc-800">{values ? `${values.old} → ${values.new}` : ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <PagedStatus query={audit} what="audit log" />
    </Section>
  );
}
