import type { UsageRecord } from '../../../server/contracts/dial-sessions';
import { UNKNOWN_MEMBER, type UsageMember } from '../../api/usage';

/** One line of the usage table: a member's figures, or the team's totals. */
export type UsageRow = {
  id: string;
  name: string;
  sessions: number;
  calls: number;
  connected: number;
  /** connected / calls, from 0 to 1; null without calls. */
  connectRate: number | null;
  voicemail: number;
  /** Minutes, as the API rounds them. */
  talktime: number;
  /** talktime / connected in minutes (one decimal: the API's whole-minute average hides most differences); null without connected calls. */
  avgTalktime: number | null;
};

function withRates(base: Omit<UsageRow, 'connectRate' | 'avgTalktime'>): UsageRow {
  return {
    ...base,
    connectRate: base.calls ? base.connected / base.calls : null,
    avgTalktime: base.connected ? Math.round((base.talktime / base.connected) * 10) / 10 : null,
  };
}

/** A row per member the usage answer names, named from the team's members; in the team's order. */
export function usageRows(figures: Map<string, UsageRecord>, members: UsageMember[]): UsageRow[] {
  const order = new Map(members.map((m, i) => [m.id, i]));
  const names = new Map(members.map((m) => [m.id, m.name]));
  return [...figures.entries()]
    .sort(([a], [b]) => (order.get(a) ?? Number.MAX_SAFE_INTEGER) - (order.get(b) ?? Number.MAX_SAFE_INTEGER) || Number(a) - Number(b))
    .map(([id, f]) =>
      withRates({
        id,
        name: names.get(id) ?? UNKNOWN_MEMBER,
        sessions: f.sessions,
        calls: f.calls,
        connected: f.connected,
        voicemail: f.voicemail,
        talktime: f.talktime,
      }),
    );
}

export function totalsOf(rows: UsageRow[]): UsageRow {
  const sum = (key: 'sessions' | 'calls' | 'connected' | 'voicemail' | 'talktime') => rows.reduce((n, r) => n + r[key], 0);
  return withRates({
    id: 'total',
    name: 'Total',
    sessions: sum('sessions'),
    calls: sum('calls'),
    connected: sum('connected'),
    voicemail: sum('voicemail'),
    talktime: sum('talktime'),
  });
}

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const formatRate = (rate: number | null) => (rate === null ? '—' : percent.format(rate));
export const formatMinutes = (minutes: number | null) => (minutes === null ? '—' : decimal.format(minutes));
export const formatNumber = (n: number) => n.toLocaleString();
