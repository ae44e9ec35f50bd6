import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type CallFilters, dispositionLabelsQueryOptions } from '../../api/calls';
import { teamMembersQueryOptions } from '../../api/usage';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';

type Props = {
  filters: CallFilters;
  /** Managers and the vendor choose a member; a rep sees only its own calls. */
  showMember: boolean;
  active: boolean;
  onChange: (change: Partial<CallFilters>) => void;
  onClear: () => void;
};

const ANY = { value: '', label: 'Any' };
const YES_NO = [ANY, { value: '1', label: 'Yes' }, { value: '0', label: 'No' }];

/** The search by words said: sent when submitted, not at every key. */
function WordsSaid({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <form
      role="search"
      aria-label="Search calls by words said"
      className="flex items-end gap-2 sm:col-span-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text.trim());
      }}
    >
      <TextField
        label="Words said"
        type="search"
        value={text}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. budget next quarter"
        className="min-w-0 flex-1"
      />
      <Button type="submit">Search</Button>
    </form>
  );
}

/** The Calls screen's filters; each change applies at once (and goes into the URL). */
export function CallFiltersForm({ filters, showMember, active, onChange, onClear }: Props) {
  const members = useQuery({ ...teamMembersQueryOptions(), enabled: showMember });
  const labels = useQuery(dispositionLabelsQueryOptions());
  const dispositionOptions = [ANY, ...(labels.data ?? []).map((l) => ({ value: l, label: l }))];
  if (filters.disposition && !labels.data?.includes(filters.disposition))
    dispositionOptions.push({ value: filters.disposition, label: filters.disposition });
  const memberOptions = [{ value: '', label: 'Everyone' }, ...(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))];

  return (
    <div className="grid grid-cols-1 gap-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4">
      <TextField
        label="From"
        type="date"
        value={filters.date_start}
        max={filters.date_end || undefined}
        onChange={(e) => onChange({ date_start: e.target.value })}
      />
      <TextField
        label="To"
        type="date"
        value={filters.date_end}
        min={filters.date_start || undefined}
        onChange={(e) => onChange({ date_end: e.target.value })}
      />
      {showMember && (
        <SelectField
          label="Member"
          options={memberOptions}
          value={filters.member_id}
          onChange={(e) => onChange({ member_id: e.target.value })}
        />
      )}
      <SelectField
        label="Disposition"
        options={dispositionOptions}
        value={filters.disposition}
        onChange={(e) => onChange({ disposition: e.target.value })}
      />
      <SelectField
        label="Connected"
        options={YES_NO}
        value={filters.connected}
        onChange={(e) => onChange({ connected: e.target.value as CallFilters['connected'] })}
      />
      <SelectField
        label="Recorded"
        options={YES_NO}
        value={filters.recorded}
        onChange={(e) => onChange({ recorded: e.target.value as CallFilters['recorded'] })}
      />
      <WordsSaid value={filters.search} onSearch={(search) => onChange({ search })} />
      {active && (
        <div className="flex items-end">
          <Button variant="ghost" onClick={onClear}>
            Clear filters
          </Button>
        </div>
      )}
    </div>
  );
}
