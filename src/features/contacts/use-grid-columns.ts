import { useQuery } from '@tanstack/react-query';
import type { OnChangeFn, VisibilityState } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import type { ContactRecord } from '../../../server/contracts/contact-records';
import type { ContactListParams } from '../../api/contacts';
import { customFieldsQueryOptions } from '../../api/custom-fields';
import { memberName, teamQueryOptions } from '../../api/members';
import { useSession } from '../auth/use-session';
import { buildContactColumns, customFieldColumnId } from './contact-columns';

const VISIBILITY_KEY = 'ringbook.contacts.columns';

function loadVisibility(): VisibilityState {
  try {
    const stored = JSON.parse(window.localStorage.getItem(VISIBILITY_KEY) ?? '{}') as unknown;
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      return Object.fromEntries(Object.entries(stored).filter(([, v]) => typeof v === 'boolean')) as VisibilityState;
    }
  } catch {
    /* unreadable: defaults */
  }
  return {};
}

/**
 * The grid's columns for the signed-in member: managers and the vendor get the Owner column (and the team for the
 * owner filter); custom fields are optional columns, hidden until chosen. Column choices are kept in localStorage.
 */
export function useGridColumns(params: ContactListParams, onEdit: (contact: ContactRecord) => void) {
  const { member } = useSession();
  const leadsTeam = Boolean(member && member.role !== 'member');
  const ownersQuery = useQuery({ ...teamQueryOptions(), enabled: leadsTeam });
  const fieldsQuery = useQuery(customFieldsQueryOptions());
  const [stored, setStored] = useState<VisibilityState>(loadVisibility);

  useEffect(() => {
    try {
      window.localStorage.setItem(VISIBILITY_KEY, JSON.stringify(stored));
    } catch {
      /* storage full or blocked: not worth bothering anyone */
    }
  }, [stored]);

  const owners = useMemo(() => {
    if (!leadsTeam || !ownersQuery.data) return null;
    return ownersQuery.data.map((m) => ({ id: String(m.user_id), name: memberName(m) })).sort((a, b) => a.name.localeCompare(b.name));
  }, [leadsTeam, ownersQuery.data]);

  const customFields = fieldsQuery.data;
  const nameSortKey = params.sort_by === 'last_name' ? 'last_name' : 'first_name';
  const columns = useMemo(
    () =>
      buildContactColumns({
        onEdit,
        nameSortKey,
        owners: owners ? new Map(owners.map((o) => [o.id, o.name])) : leadsTeam ? new Map() : null,
        customFields: customFields ?? [],
      }),
    [onEdit, nameSortKey, owners, leadsTeam, customFields],
  );

  /* Custom-field columns (and Modified, to fit a laptop's width) start hidden; whatever the user chose wins. */
  const columnVisibility = useMemo<VisibilityState>(
    () => ({ date_modified: false, ...Object.fromEntries((customFields ?? []).map((f) => [customFieldColumnId(f), false])), ...stored }),
    [customFields, stored],
  );

  const setColumnVisibility: OnChangeFn<VisibilityState> = (updater) =>
    setStored(typeof updater === 'function' ? updater(columnVisibility) : updater);

  return { columns, columnVisibility, setColumnVisibility, owners, canTransfer: (owners?.length ?? 0) > 1 };
}
